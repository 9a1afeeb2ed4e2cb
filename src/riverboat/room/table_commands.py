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

if TYPE_CHECKING:
    from riverboat.room.room import Room

OPTION_FIELDS = ("auto_post", "sit_out_next_bb", "wait_for_bb")


def register_table_commands(room: Room, commands: Commands) -> None:
    """Register the cash table and Speed Poker pool commands of ``room`` in ``commands``."""

    async def sit(c: Caller, cmd: RoomCommand) -> Result:
        assert isinstance(cmd, SitFrame)
        return await room.sit(c.player, cmd.table, cmd.seat, cmd.buy_in, cmd.wait_for_bb, idem_key=c.key)

    async def act(c: Caller, cmd: RoomCommand) -> Result:
        assert isinstance(cmd, ActFrame)
        cards = list(cmd.cards) if cmd.cards is not None else None
        if cmd.table in room.pools:  # Speed Poker: an action by pool id
            return await room.speed_act(c.player, cmd.table, cmd.kind, amount=cmd.amount, cards=cards)
        return await room.act(c.player, cmd.table, cmd.kind, amount=cmd.amount, cards=cards)

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
        (JoinSpeedFrame, join_speed), (FastFoldFrame, in_pool), (LeaveSpeedFrame, in_pool))
    for model, handler in pairs:
        commands.register(model, handler)
    for model in (SitOutFrame, LeaveFrame, WaitlistFrame, UnwaitlistFrame, WatchFrame, UnwatchFrame):
        commands.register(model, at_table)
