"""The room runtime: cash tables as single-writer async actors, Speed Poker pools, timers, rake.

Layer 7 (cards → evaluate → games → engine → history → store → **room** → server). Nothing here does network
I/O; the server feeds commands in and receives per-player JSON-able dicts through *sinks*.

Public API (stable; additive changes only)::

    from riverboat.room import Room, TableSpec, SpeedSpec, RoomError, Clock, RealClock, FakeClock

    room = Room(store, clock=RealClock(), rng=None)   # rng None -> secrets.SystemRandom (CSPRNG shuffles)
    await room.start()      # voids hands left unsettled by a crash (R-SERVER) via store.ledger, starts actors
    await room.stop()       # finishes nothing new: hands in progress are voided and refunded, stacks stay escrowed

    table_id: str = await room.open_table(TableSpec(
        name="Riga", game="holdem", structure="NL",          # structure: "FL" "SL" "PL" "HPL" "NL"
        small_blind=1, big_blind=2,                          # minor units (cents); ints only, never floats
        max_seats=6, min_buy_in=40, max_buy_in=200,          # max_buy_in None = "all the player's money" (FL/SL)
        currency="EUR",                                      # "PLAY" = play money: never raked (R-GEN-3)
        rake="ipoker",                                       # "ipoker" | "uvs_002" | "uvs_004" | "none"
        mixed=None,                                          # "horse" | "8game" -> game/structure rotate
        settings={...}))                                     # TableSettings fields, see room.settings

    room.lobby() -> list[dict]          # one dict per table: id, name, game, structure, stakes, currency, seats
                                        # taken/max, average pot, players/flop %, hands played, speed pools too
    room.table_info(table_id) -> dict   # public state: seats (player, stack, status), button, blinds, hand view
    room.view(player_id, table_id) -> dict   # that player's full view (own hole cards only, legal actions, timer)

    await room.sit(player_id, table_id, seat, buy_in, wait_for_bb=True)  # R-BUYIN, R-NEWPLAYER, R-CASH-2
    await room.act(player_id, table_id, kind, amount=None, cards=None)   # kind: fold check call bet raise
                                        # complete bring_in discard stand_pat ... (engine ActionKind names)
    await room.sit_out(player_id, table_id)      # applies to ALL the player's cash tables (R-SITOUT-4)
    await room.sit_in(player_id, table_id, post=False)  # post=True: post BB (+dead SB) now, else wait for BB
    await room.leave(player_id, table_id)        # any time (R-CASH-3); mid-hand the hand is folded first
    await room.top_up(player_id, table_id, amount)   # between hands (during a hand: applied after it ends)

    pool_id: str = await room.open_speed_pool(SpeedSpec(name=..., game="holdem", structure="NL", small_blind=..,
                                                       big_blind=.., table_size=6, min_buy_in=.., max_buy_in=..))
    await room.join_speed(player_id, pool_id, buy_in)
    await room.fast_fold(player_id, pool_id)     # any time once dealt in: folds and re-deals at once (R-SPEED)
    await room.leave_speed(player_id, pool_id)

    room.attach(player_id, sink)        # sink: async callable(dict). Attaching (again) = (re)connect: the player
                                        # immediately gets {"type": "table_state", ...} for each of their tables
    room.detach(player_id)              # disconnect: R-DISC / R-AAI timers start (30 s), cash -> sit out

Every command raises ``RoomError(code, message)`` on bad input and changes nothing. Codes: ``no_table``,
``no_pool``, ``seat_taken``, ``bad_seat``, ``already_seated``, ``not_seated``, ``bad_amount``, ``buy_in_range``,
``insufficient_funds``, ``not_your_turn``, ``illegal_action``, ``hand_in_progress``, ``table_closed``,
``bad_settings``.

Messages pushed to sinks (all JSON-able): ``{"type": "table_state", "table": id, "view": {...}}`` (full view of
one table for that player) and ``{"type": "event", "table": id, "event": {...}}`` (one engine or table event the
player may see: hole cards reach their owner only, R-GEN-5), and ``{"type": "speed", "pool": id, ...}``.

Time: every timer goes through the injected :class:`Clock`. ``FakeClock`` never sleeps; ``await
clock.advance(seconds)`` fires due timers in order and lets every table actor finish its work in between.
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
    "validate_table_spec",
]
