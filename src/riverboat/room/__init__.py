"""The room runtime: cash tables as single-writer async actors, Speed Poker pools, timers, rake.

Layer 7 (cards → evaluate → games → engine → history → store → **room** → server). Nothing here does network
I/O; the server feeds commands in and receives per-player JSON-able dicts through *sinks*.

Public API (stable; additive changes only)::

    from riverboat.room import Room, TableSpec, SpeedSpec, TableSettings, RoomError, Clock, RealClock, FakeClock

    room = Room(store, clock=RealClock(), rng=None,      # rng None -> secrets.SystemRandom (CSPRNG shuffles)
                cash_out_on_crash=True, aai_per_24h=2,   # R-SERVER-3 flag; R-AAI-2 allowance
                store_workers=None,                      # store threads: 1 for SQLite, 4 for PostgreSQL
                store_process=False)                     # True: store work in a child process (file/PostgreSQL DB)
    await room.start()      # voids hands left unsettled by a crash (R-SERVER) -> list[(table_id, hand_id)]
    await room.stop()       # hands in progress are voided (R-SERVER-1), every table stack is cashed out

    table_id: str = await room.open_table(TableSpec(
        name="Riga", game="holdem", structure="NL",          # structure: "FL" "SL" "PL" "HPL" "NL"
        small_blind=5, big_blind=10,                         # minor units (cents); ints only, never floats
        ante=0, bring_in=0, small_bet=0, big_bet=0, spread=(),   # stud / FL (default small_bet = big_blind) / SL
        max_seats=6, min_buy_in=400, max_buy_in=2000,        # max_buy_in None = "all the player's money" (FL/SL)
        currency="EUR",                                      # "PLAY" = play money: never raked (R-GEN-3)
        rake="ipoker",                                       # "ipoker" | "uvs_002" | "uvs_004" | "none"
        mixed=None,                                          # "horse" | "8game": game/structure rotate
        settings={"action_seconds": 20, ...}))               # TableSettings fields (every CONFLICT/UNCLEAR
                                                             # reading is one), see riverboat.room.settings
    room.lobby() -> list[dict]          # per table: id, name, kind "cash", game, structure, stakes, currency,
                                        # seats_taken/max_seats, average_pot, players_per_flop_pct, hands_played;
                                        # per pool: kind "speed", players, hands_running, hands_played, average_pot
    room.table_info(table_id) -> dict   # spectator view: table header, seats, button, hand (no hole cards), timer
    room.view(player_id, table_id) -> dict   # that player's view (own hole cards, "you", legal actions if to act)
    room.tables_of(player_id) -> list[str]

    await room.sit(player_id, table_id, seat, buy_in, wait_for_bb=True)  # R-BUYIN, R-NEWPLAYER, R-CASH-2
    await room.act(player_id, table_id, Move.parse(kind, amount=None, cards=None))  # riverboat.room.move: one
                                        # frozen value to the engine; kind: engine ActionKind value: fold check
                                        # call bet raise (amount = raise-TO) bring_in complete straddle
                                        # draw (cards=["Ah","Td"]) stand_pat run_twice run_once agree_split ...
    await room.sit_out(player_id, table_id)      # applies to ALL the player's cash tables (R-SITOUT-4)
    await room.sit_in(player_id, table_id, post=False)  # post=True: post BB (+dead SB) now, else wait for BB
    await room.leave(player_id, table_id)        # any time (R-CASH-3) -> {"pending": bool, "cashed_out": int|None}
    await room.top_up(player_id, table_id, amount)   # between hands (during a hand it is applied after it)
    # sit, top_up and join_speed take idem_key=None: a caller-given ledger key (the server derives it from the
    # player and the frame id, issue #16); a used key moves nothing and fails with RoomError("id_reused")
    await room.watch(player_id, table_id)        # spectate: public events and views

    pool_id: str = await room.open_speed_pool(SpeedSpec(name=..., game="holdem", structure="NL", small_blind=..,
                                                       big_blind=.., table_size=6, min_buy_in=.., max_buy_in=..))
    await room.join_speed(player_id, pool_id, buy_in)
    await room.speed_act(player_id, pool_id, move)
    await room.fast_fold(player_id, pool_id)     # any time once dealt in: folds and re-deals at once (R-SPEED)
    await room.leave_speed(player_id, pool_id)
    room.speed_view(player_id, pool_id) -> dict   # stack, waiting, hand key, seat, own view of that hand
    room.table_info(pool_id) -> dict             # for a pool id: its lobby entry

    room.attach(player_id, sink)        # sink: async callable(dict). Attaching (again) = (re)connect: the player
                                        # immediately gets {"type": "table_state", ...} for each of their tables
    room.attach(player_id, sink, immediate=fn)   # fn: sync, non-blocking callable(dict) given each message as it
                                        # is produced, in order, instead of the sink (the server's connection)
    room.detach(player_id)              # disconnect: R-DISC timers (30 s reconnect window); cash tables sit out

Every command raises ``RoomError(code, message)`` on bad input and changes nothing. Codes: ``no_table``,
``no_pool``, ``seat_taken``, ``bad_seat``, ``already_seated``, ``not_seated``, ``not_in_hand``, ``bad_amount``,
``buy_in_range``, ``insufficient_funds``, ``not_your_turn``, ``illegal_action``, ``table_closed``,
``bad_settings``; a store refusal keeps the code the error registry gives its class (``not_found``, ``invalid``,
``conflict``..., :mod:`riverboat.errors`).

Messages pushed to sinks (all JSON-able; every shape is a typed dict of :mod:`riverboat.room.frames`, built there):

- ``{"type": "table_state", "table": id, "view": {...}}``: the full view of one table for that player;
- ``{"type": "event", "table": id, "event": {"kind": ..., ...}}``: an engine event the player may see (hole cards
  reach their owner only, R-GEN-5) or a table event (``seated``, ``sat_out``, ``sat_in``, ``left``, ``evicted``,
  ``hand_started``, ``hand_over``, ``turn`` {seat, phase, remaining}, ``timed_out``, ``timebank``, ``auto_draw``,
  ``artificial_allin``, ``topped_up``, ``alias_changed``...); events naming a ``player`` carry their ``alias``;
- Speed Poker: ``{"type": "speed", "pool": id, "event": "dealt"|"your_turn"|"fast_folded"|"hand_over"|"left"|
  "state", "hand": key, "seat": n, "view": {...}}`` and ``{"type": "event", "pool": id, "hand": key, "event": ...}``.

Message dicts may be shared between recipients (a public event is built once): sinks must not mutate them.

Time: every timer goes through the injected :class:`Clock`. ``FakeClock`` never sleeps; ``await
clock.advance(seconds)`` fires due timers in order and lets every table actor finish its work in between
(``await room.quiesce()`` waits for that explicitly).

Modules: ``clock`` (clocks), ``actor`` (single-writer queue), ``hand_driver`` (one hand played out, for every kind
of table: timers, fallback actions, relay, settlement), ``settle`` (settlers: how a hand's money moves), ``deal``
(who is dealt in, button, blinds), ``table`` (cash table), ``speed`` (Speed Poker), ``room`` (facade), ``frames``
(every outgoing frame), ``seating`` / ``blinds`` / ``timers`` / ``disconnect`` / ``autodraw`` (rules as pure code),
``rake`` + ``rake_tables.json`` (R-RAKE data), ``settings``, ``gateway`` (store calls off the event loop),
``history_text`` (PHH of each hand for the store).
"""

from riverboat.room.clock import Clock, FakeClock, RealClock
from riverboat.room.errors import RoomError
from riverboat.room.room import Room, validate_table_spec
from riverboat.room.settings import (
    AutodrawPriorityOne,
    DisconnectPolicy,
    MissedBlindPolicy,
    SpeedSpec,
    TableSettings,
    TableSpec,
    table_id_for,
)

__all__ = [
    "AutodrawPriorityOne",
    "Clock",
    "DisconnectPolicy",
    "FakeClock",
    "MissedBlindPolicy",
    "RealClock",
    "Room",
    "RoomError",
    "SpeedSpec",
    "TableSettings",
    "TableSpec",
    "table_id_for",
    "validate_table_spec",
]
