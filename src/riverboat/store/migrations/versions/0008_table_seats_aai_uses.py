"""table seats (restored after a restart, R-SERVER-3 off) and artificial all-in uses (R-AAI-2), issue #16

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 22:10:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'table_seats',
        sa.Column('table_id', sa.String(length=128), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['players.id']),
        sa.PrimaryKeyConstraint('table_id', 'player_id'),
    )
    op.create_table(
        'aai_uses',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('at', sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['players.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_aai_uses_at', 'aai_uses', ['at'])
    op.create_index(op.f('ix_aai_uses_player_id'), 'aai_uses', ['player_id'])


def downgrade() -> None:
    op.drop_index(op.f('ix_aai_uses_player_id'), table_name='aai_uses')
    op.drop_index('ix_aai_uses_at', table_name='aai_uses')
    op.drop_table('aai_uses')
    op.drop_table('table_seats')
