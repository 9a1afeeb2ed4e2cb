"""Issue #31 item 7 (R-ALIAS-2): an alias changed after the player entered a tournament reaches it -- the entrant
list, the tournament table's seats (a fresh state for everyone at the table) and the results name the new alias.
The server's one alias path (``Hub.alias_changed``) calls ``TournamentLobby.alias_changed``."""

from __future__ import annotations

from typing import Any

from riverboat.cards import seeded_rng
from riverboat.room import FakeClock, Room
from riverboat.room.tournament.lobby import TournamentLobby
from riverboat.room.tournament.spec import TournamentSpec
from riverboat.store import Store

SPEC = {"name": "Alias SNG", "kind": "sng", "seats": 2, "min_entrants": 2, "added_prize": 200, "currency": "PLAY",
        "starting_stack": 1500, "payout": "sng", "level_seconds": 600,
        "levels": [{"small_blind": 10, "big_blind": 20}], "settings": {"action_seconds": 600}}


class Frames:
    def __init__(self) -> None:
        self.got: list[dict[str, Any]] = []

    async def __call__(self, message: dict[str, Any]) -> None:
        self.got.append(message)


async def test_issue_31_an_alias_changed_after_entering_reaches_the_tournament(sqlite_store: Store) -> None:
    store = sqlite_store
    clock = FakeClock()
    room = Room(store, clock=clock, rng=seeded_rng(3))
    await room.start()
    lobby = TournamentLobby(room)
    try:
        ann = store.accounts.register("ann_t31", "correct horse battery").id
        bob = store.accounts.register("bob_t31", "correct horse battery").id
        seen = {ann: Frames(), bob: Frames()}
        for pid, sink in seen.items():
            room.attach(pid, sink)
        d = await lobby.create(TournamentSpec.from_dict(SPEC))
        await d.register(ann)
        await d.register(bob)
        await clock.advance(1.0)
        await d.quiesce()
        await room.quiesce()
        before = {e["player"]: e["alias"] for e in lobby.detail(d.id)["entrant_list"]}
        store.aliases.set(ann, "AnnNew31")
        await room.alias_changed(ann, "AnnNew31")
        await lobby.alias_changed(ann, "AnnNew31")  # what Hub.alias_changed does after the room
        await d.quiesce()
        await room.quiesce()
        detail = lobby.detail(d.id)
        assert before[ann] != "AnnNew31"
        assert {e["player"]: e["alias"] for e in detail["entrant_list"]}[ann] == "AnnNew31"
        seats = [p for t in detail["tables"] for p in t["players"] if p["player"] == ann]
        assert seats and seats[0]["alias"] == "AnnNew31"
        states = [m for m in seen[bob].got if m.get("type") == "tournament" and m.get("event") == "state"]
        assert any(s["alias"] == "AnnNew31" for s in states[-1]["data"]["seats"] if s["player"] == ann)
    finally:
        await lobby.close()
        await room.stop()
