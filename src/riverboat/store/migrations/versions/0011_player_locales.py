"""player locales (issue #32: the client language a player chose, kept on the account)

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06 20:10:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'player_locales',
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('locale', sa.String(length=8), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['players.id']),
        sa.PrimaryKeyConstraint('player_id'),
    )


def downgrade() -> None:
    op.drop_table('player_locales')
