"""account security (issue #35): lock-out per account, staff TOTP and recovery codes, one-time reset codes, and
the address, device and last use of each session

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-06 20:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ADD COLUMN (SQLite too: a batch would copy the players table, which other tables reference)
    op.add_column('players', sa.Column('failed_logins', sa.Integer(), nullable=False, server_default='0'))
    op.add_column('players', sa.Column('locked_until', sa.DateTime(timezone=True), nullable=True))
    op.add_column('players', sa.Column('totp_secret', sa.String(length=64), nullable=True))
    op.add_column('players', sa.Column('totp_confirmed', sa.Boolean(create_constraint=False), nullable=False,
                                       server_default=sa.false()))
    op.add_column('players', sa.Column('totp_last_step', sa.BigInteger(), nullable=True))
    op.add_column('auth_sessions', sa.Column('address', sa.String(length=64), nullable=True))
    op.add_column('auth_sessions', sa.Column('device', sa.String(length=255), nullable=True))
    op.add_column('auth_sessions', sa.Column('last_seen', sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        'recovery_codes',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('code_hash', sa.String(length=64), nullable=False),
        sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['player_id'], ['players.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_recovery_codes_player_id', 'recovery_codes', ['player_id'])
    op.create_table(
        'reset_codes',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('code_hash', sa.String(length=64), nullable=False),
        sa.Column('issued_by', sa.Integer(), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['player_id'], ['players.id']),
        sa.ForeignKeyConstraint(['issued_by'], ['players.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('code_hash'),
    )
    op.create_index('ix_reset_codes_player_id', 'reset_codes', ['player_id'])


def downgrade() -> None:
    op.drop_index('ix_reset_codes_player_id', table_name='reset_codes')
    op.drop_table('reset_codes')
    op.drop_index('ix_recovery_codes_player_id', table_name='recovery_codes')
    op.drop_table('recovery_codes')
    with op.batch_alter_table('auth_sessions') as batch:
        batch.drop_column('last_seen')
        batch.drop_column('device')
        batch.drop_column('address')
    with op.batch_alter_table('players') as batch:
        batch.drop_column('totp_last_step')
        batch.drop_column('totp_confirmed')
        batch.drop_column('totp_secret')
        batch.drop_column('locked_until')
        batch.drop_column('failed_logins')
