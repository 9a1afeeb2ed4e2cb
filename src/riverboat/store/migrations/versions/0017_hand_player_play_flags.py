"""the statistics over every hand (issue #31, second pass): each player's play flags in a hand (VPIP, PFR, 3-bet
chance and 3-bet, saw the flop, showdown, won at showdown: history/play_flags.py) as a column of hand_players,
filled for the hands already stored from their PHH text and results, so the store counts them in SQL

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07 04:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from riverboat.history.play_flags import play_flags

revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None

_BATCH = 500


def upgrade() -> None:
    op.add_column('hand_players', sa.Column('play', sa.SmallInteger(), nullable=True))
    conn = op.get_bind()
    hands = sa.table('hands', sa.column('id', sa.Integer()), sa.column('phh', sa.Text()))
    seats = sa.table('hand_players', sa.column('hand_pk', sa.Integer()), sa.column('player_id', sa.Integer()),
                     sa.column('change', sa.BigInteger()), sa.column('play', sa.SmallInteger()))
    fill = (sa.update(seats).where(seats.c.hand_pk == sa.bindparam('pk'), seats.c.player_id == sa.bindparam('pid'))
            .values(play=sa.bindparam('flags')))
    last = 0
    while True:
        rows = conn.execute(sa.select(hands.c.id, hands.c.phh).where(hands.c.id > last, hands.c.phh.is_not(None))
                            .order_by(hands.c.id).limit(_BATCH)).all()
        if not rows:
            return
        changes: dict[int, dict[int, int]] = {pk: {} for pk, _ in rows}
        for pk, pid, change in conn.execute(sa.select(seats.c.hand_pk, seats.c.player_id, seats.c.change)
                                            .where(seats.c.hand_pk.in_(list(changes)))):
            changes[pk][pid] = change or 0
        updates = [{'pk': pk, 'pid': pid, 'flags': int(flags)} for pk, phh in rows
                   for pid, flags in play_flags(phh, changes[pk], changes[pk]).items()]
        if updates:
            conn.execute(fill, updates)
        last = rows[-1][0]


def downgrade() -> None:
    with op.batch_alter_table('hand_players') as batch:
        batch.drop_column('play')
