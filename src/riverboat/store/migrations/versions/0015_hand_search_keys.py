"""the hand-history search's keys (issue #31): each hand's game and stakes as columns, filled for the hands
already stored from their PHH text (history/keys.py), so the search filters in SQL

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-06 23:40:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from riverboat.history.keys import search_keys

revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None

_BATCH = 500


def upgrade() -> None:
    op.add_column('hands', sa.Column('game', sa.String(length=32), nullable=True))
    op.add_column('hands', sa.Column('stakes', sa.BigInteger(), nullable=True))
    conn = op.get_bind()
    hands = sa.table('hands', sa.column('id', sa.Integer()), sa.column('phh', sa.Text()),
                     sa.column('game', sa.String()), sa.column('stakes', sa.BigInteger()))
    last = 0
    while True:
        rows = conn.execute(sa.select(hands.c.id, hands.c.phh).where(hands.c.id > last, hands.c.phh.is_not(None))
                            .order_by(hands.c.id).limit(_BATCH)).all()
        if not rows:
            return
        for pk, phh in rows:
            game, stakes = search_keys(phh)
            conn.execute(sa.update(hands).where(hands.c.id == pk).values(game=game, stakes=stakes))
        last = rows[-1][0]


def downgrade() -> None:
    with op.batch_alter_table('hands') as batch:
        batch.drop_column('stakes')
        batch.drop_column('game')
