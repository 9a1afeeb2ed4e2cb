"""player notes (notes, colour tags and chat mutes one player keeps on another)

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 19:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'player_notes',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('owner_id', sa.Integer(), nullable=False),
        sa.Column('target_id', sa.Integer(), nullable=False),
        sa.Column('note', sa.Text(), nullable=False),
        sa.Column('tag', sa.String(length=16), nullable=False),
        sa.Column('muted', sa.Boolean(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['owner_id'], ['players.id']),
        sa.ForeignKeyConstraint(['target_id'], ['players.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('owner_id', 'target_id', name='uq_note_owner_target'),
    )
    with op.batch_alter_table('player_notes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_notes_owner_id'), ['owner_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('player_notes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_notes_owner_id'))
    op.drop_table('player_notes')
