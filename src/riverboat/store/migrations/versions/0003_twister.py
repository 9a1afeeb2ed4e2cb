"""twister games, draw audit, wild decks and jackpot progress (issue #12)

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'twister_games',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.String(length=128), nullable=False),
        sa.Column('kind', sa.String(length=16), nullable=False),
        sa.Column('currency', sa.String(length=8), nullable=False),
        sa.Column('buy_in', sa.BigInteger(), nullable=False),
        sa.Column('table_name', sa.String(length=64), nullable=False),
        sa.Column('multiplier', sa.Integer(), nullable=True),
        sa.Column('prize', sa.BigInteger(), nullable=True),
        sa.Column('places', sa.JSON(), nullable=True),
        sa.Column('spun_at', sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('tournament_id'),
    )
    op.create_table(
        'twister_draws',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.String(length=128), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=16), nullable=False),
        sa.Column('table_name', sa.String(length=64), nullable=False),
        sa.Column('currency', sa.String(length=8), nullable=False),
        sa.Column('buy_in', sa.BigInteger(), nullable=False),
        sa.Column('multiplier', sa.Integer(), nullable=True),
        sa.Column('random_value', sa.BigInteger(), nullable=False),
        sa.Column('random_range', sa.BigInteger(), nullable=False),
        sa.Column('deck_cycle', sa.Integer(), nullable=True),
        sa.Column('deck_position', sa.Integer(), nullable=True),
        sa.Column('player_id', sa.Integer(), nullable=True),
        sa.Column('tier', sa.String(length=16), nullable=True),
        sa.Column('tier_value', sa.BigInteger(), nullable=True),
        sa.Column('tier_range', sa.BigInteger(), nullable=True),
        sa.Column('amount', sa.BigInteger(), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['players.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('tournament_id', 'seq', name='uq_twister_draw_seq'),
    )
    with op.batch_alter_table('twister_draws', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_twister_draws_tournament_id'), ['tournament_id'], unique=False)
    op.create_table(
        'twister_decks',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('deck_key', sa.String(length=64), nullable=False),
        sa.Column('cycle', sa.Integer(), nullable=False),
        sa.Column('position', sa.Integer(), nullable=False),
        sa.Column('remaining', sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('deck_key'),
    )
    op.create_table(
        'twister_jackpots',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('currency', sa.String(length=8), nullable=False),
        sa.Column('stakes_total', sa.BigInteger(), nullable=False),
        sa.Column('contributed', sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('currency'),
    )


def downgrade() -> None:
    op.drop_table('twister_jackpots')
    op.drop_table('twister_decks')
    with op.batch_alter_table('twister_draws', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_twister_draws_tournament_id'))
    op.drop_table('twister_draws')
    op.drop_table('twister_games')
