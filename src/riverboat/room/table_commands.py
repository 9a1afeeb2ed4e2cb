"""The handlers of the cash-table and Speed Poker commands, registered in the room's command registry
(:class:`riverboat.room.commands.Commands`) by :class:`~riverboat.room.Room` itself. Each takes the frozen command
value and calls the room's method for it; the rules (R-SITOUT-4 and the rest) are in those methods, once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from riverboat.room.commands import (
    ActFrame,
    Caller,
    ClientFrameBase,
    Commands,
    EndPlayFrame,
    FastFoldFrame,
    Handler,
    JoinSpeedFrame,
    LeaveFrame,
    LeaveSpeedFrame,
    OptionsFrame,
    Result,
    RoomCommand,
    SitFrame,
    SitInFrame,
    SitOutFrame,
    TopUpFrame,
    UnwaitlistFrame,
    UnwatchFrame,
    WaitlistFrame,
    WatchFrame,
)
from riverboat.room.errors import RoomError
from riverboat.room.move import Move
from riverboat.room.replies import PlayEnded

if TYPE_CHECKING:
    from riverboat.room.gateway import StoreGateway
    from riverboat.room.room import Room

OPTION_FIELDS = ("auto_post", "sit_out_next_bb", "wait_for_bb")


async def require_blocked(gateway: StoreGateway, player_id: int) -> None:
    """``end_play`` only for a player whose time-out or self-exclusion is in force (issue #30), else ``not_blocked``
    (a player leaves and unregisters with the ordinary commands)."""
    if await gateway.call(gateway.store.protections.may_play, player_id):
        raise RoomError("not_blocked", "you have no time-out or self-exclusion in force: leave the table or "
                        "unregister yourself")


def end_play_at_tables(room: Room) -> Handler:
    """The ``end_play`` handler of ``room``'s cash tables and Speed Poker pools (a tournament's is in
    ``register_tournament_commands``, which passes other targets on to this one)."""

    async def end_play(c: Caller, cmd: RoomCommand) -> Result:
        """Issue #30: a blocked player leaves the cash table (the stack returns at the end of the current hand,
        R-CASH-3) or the Speed Poker pool ``target``."""
        assert isinstance(cmd, EndPlayFrame)
        await require_blocked(room.gateway, c.player)
        if cmd.target in room.pools:
            await room.leave_speed(c.player, cmd.target)
        else:
            await room.leave(c.player, cmd.target)
        return PlayEnded(target=cmd.target, ended="left")

    return end_play


def register_table_commands(room: Room, commands: Commands) -> None:
    """Register the cash table and Speed Poker pool commands of ``room`` in ``commands``."""

    async def sit(c: Caller, cmd: RoomCommand) -> Result:
        assert isinstance(cmd, SitFrame)
        return await room.sit(c.player, cmd.table, cmd.seat, cmd.buy_in, cmd.wait_for_bb, idem_key=c.key)

    async def act(c: Caller, cmd: RoomCommand) -> Result:
        assert isinstance(cmd, ActFrame)
        move = Move.of(cmd)
        if cmd.table in room.pools:  # Speed Poker: an action by pool id
            return await room.speed_act(c.player, cmd.table, move)
        return await room.act(c.player, cmd.table, move)

    async def options(c: Caller, cmd: RoomCommand) -> Result:
        assert isinstance(cmd, OptionsFrame)
        changes = {k: v for k in OPTION_FIELDS if (v := getattr(cmd, k)) is not None}
        return await room.set_options(c.player, cmd.table, changes)

    async def sit_in(c: Caller, cmd: RoomCommand) -> Result:
        assert isinstance(cmd, SitInFrame)
        return await room.sit_in(c.player, cmd.table, post=cmd.post)

    async def top_up(c: Caller, cmd: RoomCommand) -> Result:
        assert isinstance(cmd, TopUpFrame)
        return await room.top_up(c.player, cmd.table, cmd.amount, idem_key=c.key)

    async def join_speed(c: Caller, cmd: RoomCommand) -> Result:
        assert isinstance(cmd, JoinSpeedFrame)
        return await room.join_speed(c.player, cmd.pool, cmd.buy_in, idem_key=c.key)

    async def at_table(c: Caller, cmd: RoomCommand) -> Result:
        """sit_out, leave, waitlist, unwaitlist, watch, unwatch: ``room.<type>(player, table)``."""
        assert isinstance(cmd, (SitOutFrame, LeaveFrame, WaitlistFrame, UnwaitlistFrame, WatchFrame, UnwatchFrame))
        method = {"sit_out": room.sit_out, "leave": room.leave, "waitlist": room.waitlist,
                  "unwaitlist": room.unwaitlist, "watch": room.watch, "unwatch": room.unwatch}[cmd.type]
        return await method(c.player, cmd.table)

    async def in_pool(c: Caller, cmd: RoomCommand) -> Result:
        assert isinstance(cmd, (FastFoldFrame, LeaveSpeedFrame))
        method = room.fast_fold if cmd.type == "fast_fold" else room.leave_speed
        return await method(c.player, cmd.pool)

    pairs: tuple[tuple[type[ClientFrameBase], Handler], ...] = (
        (SitFrame, sit), (ActFrame, act), (OptionsFrame, options), (SitInFrame, sit_in), (TopUpFrame, top_up),
        (JoinSpeedFrame, join_speed), (FastFoldFrame, in_pool), (LeaveSpeedFrame, in_pool),
        (EndPlayFrame, end_play_at_tables(room)))
    for model, handler in pairs:
        commands.register(model, handler)
    for model in (SitOutFrame, LeaveFrame, WaitlistFrame, UnwaitlistFrame, WatchFrame, UnwatchFrame):
        commands.register(model, at_table)
