"""R-INTEG-5a/b, R-OPER-1: the console's ``disqualify`` goes to the tournament lobby's hook and is written to the
audit log only when the lobby accepted it; without a lobby it answers 501 and records nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from argon2 import PasswordHasher

from riverboat.room.errors import RoomError
from riverboat.server.operator_api import ActionBody, _act
from riverboat.server.rest import ApiError
from riverboat.store import Store


class _Lobby:
    def __init__(self) -> None:
        self.calls: list[tuple[str, int, int]] = []

    async def disqualify(self, tournament_id: str, player_id: int, operator_id: int) -> dict[str, Any]:
        if tournament_id == "nope":
            raise RoomError("not_registered", "not playing there")
        self.calls.append((tournament_id, player_id, operator_id))
        return {"tournament": tournament_id, "player": player_id, "pending": False}


def _hub(store: Store, lobby: Any) -> Any:
    async def call_store(fn: Any, *args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    return SimpleNamespace(store=store, tournaments=lobby, call_store=call_store)


def test_disqualify_through_the_tournament_lobby_is_audited(tmp_path: Path) -> None:
    with Store(f"sqlite:///{tmp_path / 'dq.sqlite3'}", password_hasher=PasswordHasher(time_cost=1, memory_cost=8,
                                                                                     parallelism=1)) as store:
        store.upgrade()
        op = store.accounts.register("op_dq", "password123", role="operator").id
        bob = store.accounts.register("bob_dq", "password123").id
        lobby = _Lobby()
        hub = _hub(store, lobby)  # the app attaches the room's TournamentLobby as hub.tournaments
        body = ActionBody(reason="collusion at the final table", tournament_id="mtt-7")
        entry = asyncio.run(_act(hub, op, bob, "disqualify", body))
        assert lobby.calls == [("mtt-7", bob, op)]
        assert (entry.action, entry.target, entry.player_id) == ("disqualify", "tournament:mtt-7", bob)
        with pytest.raises(RoomError):  # refused by the lobby: nothing recorded
            asyncio.run(_act(hub, op, bob, "disqualify", ActionBody(reason="x", tournament_id="nope")))
        with pytest.raises(ApiError) as no_lobby:
            asyncio.run(_act(_hub(store, None), op, bob, "disqualify", body))
        assert no_lobby.value.status == 501
        assert [e.action for e in store.integrity.audit_log()] == ["disqualify"]
        asyncio.run(_act(hub, op, bob, "disqualify", ActionBody(reason="again", tournament_id="sng-2")))
        assert lobby.calls[-1] == ("sng-2", bob, op)
