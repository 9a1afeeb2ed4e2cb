"""The bots' protocol client (riverboat.bots.client) keeps each table's last view; a player who left a table (cashed
out, R-CASH-3) gets its ``left`` event and no view of that table any more, so the kept view must stop saying they sit
there: a demo bot read it, topped up a seat it no longer had and was refused ``not_seated``."""

from __future__ import annotations

from riverboat.bots.client import ProtocolClient


def _client() -> ProtocolClient:
    client = ProtocolClient("ws://127.0.0.1:1/ws")
    client.player_id = 42
    client._dispatch({"type": "table_state", "table": "t1", "view": {"you": {"seat": 3, "stack": 0}}})
    client._dispatch({"type": "table_state", "table": "t2", "view": {"you": {"seat": 1, "stack": 500}}})
    return client


def test_r_cash_3_our_own_left_event_clears_where_we_sat() -> None:
    client = _client()
    client._dispatch({"type": "event", "table": "t1", "event": {"kind": "left", "seat": 3, "cashed_out": 0}})
    assert client.views["t1"]["you"] is None
    assert client.views["t2"]["you"] == {"seat": 1, "stack": 500}  # the other table is untouched


def test_r_cash_3_another_players_left_event_changes_nothing() -> None:
    client = _client()
    client._dispatch({"type": "event", "table": "t1", "event": {"kind": "left", "seat": 5, "player": 7,
                                                                 "cashed_out": 900}})
    assert client.views["t1"]["you"] == {"seat": 3, "stack": 0}
    client._dispatch({"type": "event", "table": "t1", "event": {"kind": "left", "seat": 3, "player": 42,
                                                                 "cashed_out": 0}})
    assert client.views["t1"]["you"] is None
