"""Issue #29: one frozen action value from the frame to the engine (``riverboat.room.move.Move``)."""

from __future__ import annotations

import dataclasses

import pytest

from riverboat.cards import Card
from riverboat.cluster.wire import PEER, TableAct
from riverboat.engine import Action, ActionKind
from riverboat.room.commands import ActFrame, TournamentActFrame
from riverboat.room.errors import RoomError
from riverboat.room.move import Move


def test_issue_29_a_frame_becomes_one_frozen_move_and_the_seat_s_engine_action() -> None:
    frame = ActFrame(v=1, type="act", table="t1", kind="draw", cards=["Ah", "Td"])
    move = Move.of(frame)
    assert move == Move(ActionKind.DRAW, None, (int(Card("Ah")), int(Card("Td"))))
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.amount = 5  # type: ignore[misc]
    assert move.action(3) == Action(3, ActionKind.DRAW, 0, (int(Card("Ah")), int(Card("Td"))))
    t = TournamentActFrame(v=1, type="tournament_act", tournament="m1", kind="raise", amount=40)
    assert Move.of(t).action(0) == Action(0, ActionKind.RAISE, 40)


def test_issue_29_a_call_carries_no_amount_and_a_draw_of_nothing_stands_pat() -> None:
    assert Move.parse("call", 500).action(1) == Action(1, ActionKind.CALL, 0)
    assert Move.parse("draw", None, []).action(2) == Action(2, ActionKind.STAND_PAT)
    assert Move.parse("draw").action(2) == Action(2, ActionKind.STAND_PAT)


@pytest.mark.parametrize(("fields", "code"), [
    ({"kind": "FOLD"}, "illegal_action"), ({"kind": None}, "illegal_action"),
    ({"kind": "bet", "amount": 1.5}, "bad_amount"), ({"kind": "bet", "amount": "10"}, "bad_amount"),
    ({"kind": "draw", "cards": ["Ah", "1x"]}, "illegal_action"), ({"kind": "draw", "cards": {"Ah": 1}}, "illegal_action"),
])
def test_issue_29_malformed_moves_get_the_room_s_codes(fields: dict[str, object], code: str) -> None:
    with pytest.raises(RoomError) as err:
        Move.parse(**fields)
    assert err.value.code == code


def test_issue_29_a_move_crosses_nats_to_a_tournament_table_s_host_unchanged() -> None:
    """The director's host passes the player's move to the host that deals the table (``wire.TableAct``)."""
    move = Move.parse("draw", None, ["2c", "Ks"])
    sent = TableAct(tournament="m1", table="m1-t2", player=7, move=move)
    got = PEER.validate_json(sent.model_dump_json())
    assert isinstance(got, TableAct) and got.move == move and isinstance(got.move.kind, ActionKind)
