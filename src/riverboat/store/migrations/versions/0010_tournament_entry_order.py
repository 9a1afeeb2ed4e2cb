"""tournament entries by registration order (issue #11 speed: the next entry number is read from an index, not
from a scan of every entry of the tournament)

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03 08:00:00.000000
"""

from __future__ import annotations

from alembic import op

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index('ix_tentry_order', 'tournament_entries', ['tournament_pk', 'entry_no'])


def downgrade() -> None:
    op.drop_index('ix_tentry_order', table_name='tournament_entries')
