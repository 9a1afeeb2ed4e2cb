"""SIGTERM while a hand is in progress: clients are told, the process exits 0, the unfinished hand is voided and
refunded and every table stack is back in its owner's balance (R-SERVER-1, R-SERVER-3 ``cash_out_on_crash``)."""

from __future__ import annotations

import asyncio
import signal
from typing import Any

from riverboat.bots import ProtocolClient

TABLE = {"name": "Stop Holdem", "game": "holdem", "structure": "NL", "small_blind": 5, "big_blind": 10,
         "max_seats": 6, "min_buy_in": 400, "max_buy_in": 2000, "currency": "EUR",
         "settings": {"between_hands_seconds": 0.05, "action_seconds": 600, "timebank_seconds": 0}}
DEPOSIT = 10_000


async def test_r_server_1_sigterm_mid_hand_voids_refunds_and_returns_stacks(start_server: Any, recorder: Any
                                                                            ) -> None:
    server = start_server([TABLE])
    table = server.table_id("Stop Holdem")
    players = [server.player(eur=DEPOSIT) for _ in range(2)]
    clients = []
    for i, (_, token) in enumerate(players):
        client = ProtocolClient(server.ws_url, token, keep_frames=True)
        recorder.attach(client, f"p{i}")
        await client.connect()
        clients.append(client)
    for i, client in enumerate(clients):
        await client.sit(table, i, 1000)
    deadline = asyncio.get_running_loop().time() + 10
    while ((clients[0].views.get(table) or {}).get("hand") or {}).get("to_act") is None:
        assert asyncio.get_running_loop().time() < deadline
        await asyncio.sleep(0.05)
    view = clients[0].views[table]
    hand_id = view["hand_id"]
    pot = sum(p["bet"] for p in view["hand"]["players"]) + view["hand"]["pot"]
    assert pot > 0  # the blinds are in: money is at stake in the unfinished hand
    server.proc.send_signal(signal.SIGTERM)
    for client in clients:
        await asyncio.wait_for(client.closed.wait(), 20)
        notices = [f for f in client.frames if f.get("type") == "notice"]
        assert notices and notices[0]["code"] == "shutdown"
    assert await asyncio.to_thread(server.proc.wait, 30) == 0
    record = server.store.hands.get(table, hand_id)
    assert record is not None and record.status == "void"
    for pid, _ in players:
        assert server.store.ledger.table_stack(pid, table) == 0
        assert server.balance(pid) == DEPOSIT  # no hand was settled: everything came back
    assert server.store.ledger.total("EUR") == 0  # the ledger still balances
    recorder.check(server.store, [table])


async def test_r_server_2_killed_mid_hand_then_restarted_voids_the_hand_and_returns_stacks(start_server: Any
                                                                                          ) -> None:
    """A crash (SIGKILL, no clean shutdown) in the middle of a hand: when the server starts again on the same
    database the interrupted hand is void, every contribution is refunded and, with ``cash_out_on_crash``
    (R-SERVER-3, the room's default), every table stack is back in its owner's balance."""
    server = start_server([TABLE])
    table = server.table_id("Stop Holdem")
    players = [server.player(eur=DEPOSIT) for _ in range(2)]
    clients = []
    for i, (_, token) in enumerate(players):
        client = ProtocolClient(server.ws_url, token)
        await client.connect()
        clients.append(client)
        await client.sit(table, i, 1000)
    deadline = asyncio.get_running_loop().time() + 10
    while ((clients[0].views.get(table) or {}).get("hand") or {}).get("to_act") is None:
        assert asyncio.get_running_loop().time() < deadline
        await asyncio.sleep(0.05)
    hand_id = clients[0].views[table]["hand_id"]
    server.killed = True
    server.proc.send_signal(signal.SIGKILL)
    assert await asyncio.to_thread(server.proc.wait, 30) == -signal.SIGKILL
    for client in clients:
        await client.close()
    assert server.store.hands.get(table, hand_id).status == "started"  # the crash left it unsettled
    again = start_server([TABLE], db_path=server.db_path)  # start voids unsettled hands before serving
    record = again.store.hands.get(table, hand_id)
    assert record is not None and record.status == "void"
    for pid, _ in players:
        assert again.store.ledger.table_stack(pid, table) == 0
        assert again.balance(pid) == DEPOSIT
    assert again.store.ledger.total("EUR") == 0
