"""table fences (the lease epoch of the cluster host that owns each table, issue #15)

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 20:10:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'table_fences',
        sa.Column('table_id', sa.String(length=128), nullable=False),
        sa.Column('epoch', sa.BigInteger(), nullable=False),
        sa.Column('node', sa.String(length=64), nullable=False),
        sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('table_id'),
    )


def downgrade() -> None:
    op.drop_table('table_fences')
