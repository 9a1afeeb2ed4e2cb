"""login addresses (the multi-accounting signal of the integrity scan, R-INTEG-7, issue #13)

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 22:50:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'login_addresses',
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('address', sa.String(length=64), nullable=False),
        sa.Column('first_seen', sa.DateTime(timezone=True), nullable=False),
        sa.Column('last_seen', sa.DateTime(timezone=True), nullable=False),
        sa.Column('logins', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['players.id']),
        sa.PrimaryKeyConstraint('player_id', 'address'),
    )


def downgrade() -> None:
    op.drop_table('login_addresses')
