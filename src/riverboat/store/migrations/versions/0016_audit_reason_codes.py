"""audit reasons the room writes as codes with parameters (issue #32): the operator console shows them in the
staff member's language (store/audit_reasons.py). Rows already written keep only their English text (the log is
append-only: nothing is filled in), and the console shows that text.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07 03:40:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # ADD COLUMN in place on both databases (no table copy): the append-only triggers of 0007 stay as they are
    op.add_column('audit_log', sa.Column('reason_code', sa.String(length=48), nullable=True))
    op.add_column('audit_log', sa.Column('reason_args', sa.JSON(), nullable=True))


def downgrade() -> None:
    # DROP COLUMN in place (SQLite 3.35+), not a batch copy that would lose the triggers
    op.drop_column('audit_log', 'reason_args')
    op.drop_column('audit_log', 'reason_code')
