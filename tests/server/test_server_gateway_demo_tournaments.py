"""A cluster gateway does not open the demo's tournaments (their bots play inside the tournament's own process,
which a gateway is not): before, every ``riverboat serve --role gateway`` without ``--no-demo`` logged an
AttributeError (``RemoteTournaments`` has no ``bots``) at start-up (docs/cluster.md "Tournaments")."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from riverboat.room.errors import RoomError
from riverboat.server.app import open_tournaments
from riverboat.server.cluster_launch import gateway_config
from riverboat.server.demo import DEMO_TOURNAMENTS
from riverboat.server.launch import LaunchOptions, server_config


def test_the_gateway_config_has_no_demo_tournaments_but_one_process_has_them() -> None:
    assert server_config(LaunchOptions()).tournaments == [dict(e) for e in DEMO_TOURNAMENTS]
    assert DEMO_TOURNAMENTS
    gw = gateway_config(LaunchOptions())
    assert gw.tournaments == []
    assert gw.twister == server_config(LaunchOptions()).twister  # the rest is the one process's


async def test_configured_tournaments_on_a_lobby_without_in_process_bots_are_refused_plainly() -> None:
    hub = SimpleNamespace(tournaments=SimpleNamespace(create=None))  # a lobby like RemoteTournaments: no ``bots``
    with pytest.raises(RoomError) as err:
        await open_tournaments(hub, [dict(DEMO_TOURNAMENTS[0])])  # type: ignore[arg-type]
    assert err.value.code == "bad_settings" and "single-process" in str(err.value)
