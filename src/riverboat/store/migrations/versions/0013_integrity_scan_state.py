"""integrity scan state (issue #34: the scheduled scan reads only the hands recorded since the last one)

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06 20:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'integrity_scan_state',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('cursor', sa.BigInteger(), nullable=False),
        sa.Column('hands', sa.BigInteger(), nullable=False),
        sa.Column('state', sa.LargeBinary(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )


def downgrade() -> None:
    op.drop_table('integrity_scan_state')
