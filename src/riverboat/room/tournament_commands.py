"""The handlers of the tournament and Twister commands (issue #29: registered in the room, not branches in the
server): register, unregister, re-buy / add-on / decline, sit out / back, a table action, and Twister's "Play". A single process
registers them with its own lobby and Twister offers; a cluster's table host with the lobby of the tournaments it
runs (a gateway forwards every command to the host of its tournament, ``cluster.remote``).

Each handler answers with its typed reply (:mod:`riverboat.room.replies`): the directors' and the Twister offer's
methods build their answers as JSON objects (the REST routes return them as they are), so the handler types them
here, once (``model_validate``: a field the reply type does not know fails loudly instead of reaching the client)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from riverboat.room.commands import (
    Caller,
    ClientFrameBase,
    Commands,
    EndPlayFrame,
    Handler,
    Result,
    RoomCommand,
    TournamentActFrame,
    TournamentDeclineRebuyFrame,
    TournamentRebuyFrame,
    TournamentRegisterFrame,
    TournamentSitOutFrame,
    TournamentUnregisterFrame,
    TwisterPlayFrame,
)
from riverboat.room.errors import RoomError
from riverboat.room.move import Move
from riverboat.room.replies import (
    ACTED,
    DeclinedRebuy,
    PlayEnded,
    ReboughtChips,
    Registered,
    TournamentSatOut,
    TwisterRegistered,
    Unregistered,
)

if TYPE_CHECKING:
    from riverboat.room.tournament.lobby import TournamentLobby
    from riverboat.room.twister.offers import TwisterOffers


def end_play_in_tournaments(lobby: TournamentLobby | None, twister: TwisterOffers | None, at_tables: Handler
                            ) -> Handler:
    """The ``end_play`` handler of the tournaments of ``lobby`` and ``twister``; any other target goes to
    ``at_tables`` (the room's cash tables and Speed Poker pools)."""

    async def end_play(c: Caller, cmd: RoomCommand) -> Result:
        """Issue #30: a blocked player's registration in a tournament (or Twister) not yet started is cancelled and
        refunded, the unregistration deadline or not (the store checks the block; a started one refuses,
        ``unregister_closed``)."""
        assert isinstance(cmd, EndPlayFrame)
        directors = {**(twister.directors if twister is not None else {}),
                     **(lobby.directors if lobby is not None else {})}
        d = directors.get(cmd.target)
        if d is None:
            return await at_tables(c, cmd)
        await d.unregister(c.player, protection=True)
        return PlayEnded(target=cmd.target, ended="refunded")

    return end_play


def register_tournament_commands(commands: Commands, lobby: TournamentLobby | None,
                                 twister: TwisterOffers | None) -> None:
    """Register the tournament commands (with ``lobby``) and Twister's (with ``twister``); without one, its
    commands are refused with ``not_offered``."""

    def lobby_of() -> TournamentLobby:
        if lobby is None:
            raise RoomError("not_offered", "this room has no tournaments")
        return lobby

    def twister_of() -> TwisterOffers:
        if twister is None:
            raise RoomError("not_offered", "this room has no Twister")
        return twister

    async def register(c: Caller, cmd: RoomCommand) -> Result:
        assert isinstance(cmd, TournamentRegisterFrame)
        d = lobby_of().get(cmd.tournament)
        return Registered.model_validate(await d.register(
            c.player, promo_code=cmd.promo_code, password=cmd.password, ticket_id=cmd.ticket, idem_key=c.key))

    async def unregister(c: Caller, cmd: RoomCommand) -> Result:
        assert isinstance(cmd, TournamentUnregisterFrame)
        return Unregistered.model_validate(await lobby_of().get(cmd.tournament).unregister(c.player))

    async def rebuy(c: Caller, cmd: RoomCommand) -> Result:
        assert isinstance(cmd, TournamentRebuyFrame)
        d = lobby_of().get(cmd.tournament)
        pay = d.rebuy if cmd.what == "rebuy" else d.addon
        return ReboughtChips.model_validate(await pay(c.player, idem_key=c.key))

    async def decline(c: Caller, cmd: RoomCommand) -> Result:
        assert isinstance(cmd, TournamentDeclineRebuyFrame)
        return DeclinedRebuy.model_validate(await lobby_of().get(cmd.tournament).decline_rebuy(c.player))

    async def sit_out(c: Caller, cmd: RoomCommand) -> Result:
        """R-SITOUT-1/2: the player sits out of (or back into) their tournament: blinded away meanwhile."""
        assert isinstance(cmd, TournamentSitOutFrame)
        return TournamentSatOut.model_validate(await lobby_of().get(cmd.tournament).sit_out(c.player, cmd.out))

    async def act(c: Caller, cmd: RoomCommand) -> Result:
        """An action at the player's table of a tournament of the lobby, else of a Twister (R-TWIST-11)."""
        assert isinstance(cmd, TournamentActFrame)
        if lobby is not None and cmd.tournament in lobby.directors:
            await lobby.directors[cmd.tournament].act(c.player, Move.of(cmd))
        else:
            await twister_of().act(c.player, cmd.tournament, Move.of(cmd))
        return ACTED

    async def twister_play(c: Caller, cmd: RoomCommand) -> Result:
        assert isinstance(cmd, TwisterPlayFrame)
        return TwisterRegistered.model_validate(await twister_of().play(
            c.player, cmd.kind, cmd.buy_in, ticket_id=cmd.ticket, idem_key=c.key))

    pairs: tuple[tuple[type[ClientFrameBase], Handler], ...] = (
        (EndPlayFrame, end_play_in_tournaments(lobby, twister, commands.handler(EndPlayFrame))),
        (TournamentRegisterFrame, register), (TournamentUnregisterFrame, unregister), (TournamentRebuyFrame, rebuy),
        (TournamentDeclineRebuyFrame, decline), (TournamentSitOutFrame, sit_out), (TournamentActFrame, act), (TwisterPlayFrame, twister_play))
    for model, handler in pairs:
        commands.register(model, handler)
