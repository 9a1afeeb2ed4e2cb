"""Frames from a table host to a gateway (riverboat.cluster.delivery): a public frame crosses NATS once per gateway
(not once per player), and every player's frames keep their order (issue #15)."""

from __future__ import annotations

import random
from typing import Any

from riverboat.cluster.delivery import Router
from riverboat.cluster.wire import Delivered, decode_delivery, encode_delivery, encode_frame


def _frames(data: bytes) -> list[tuple[dict[str, Any], list[int]]]:
    """A delivery's frames as the players' WebSockets get them (decoded here for the checks), with their players."""
    return [(d.as_dict(), d.players) for d in decode_delivery(data)[0]]


def _frame(n: int) -> Any:
    return {"type": "event", "table": "t1", "event": {"kind": "posted", "n": n}}


def _flushed(calls: list[tuple[str, Any, Any]], route: Any = lambda pid: "gA") -> tuple[Router, list[tuple[str, bytes]]]:
    """Run ``calls`` (``("one", pid, frame)`` or ``("many", pids, frame)``) through a Router in one loop turn."""
    import asyncio

    sent: list[tuple[str, bytes]] = []

    async def publish(gw: str, data: bytes) -> None:
        sent.append((gw, data))

    async def turn() -> Router:
        router = Router(publish, route)
        for how, who, frame in calls:
            if how == "one":
                router.send(who, frame)
            else:
                router.send_many(list(who), frame)
        await asyncio.sleep(0.01)
        return router

    return asyncio.run(turn()), sent


def test_a_public_frame_goes_once_with_all_its_recipients() -> None:
    """The hand driver's relay: each event once with every player who may see it, a player's own card frame with
    them alone; a ``send`` of the frame the group before holds joins it (a loop over recipients)."""
    f1, f2, own = _frame(1), _frame(2), _frame(3)
    router, sent = _flushed([("many", [1, 2, 3], f1), ("one", 2, own), ("many", [1, 2, 3], f2),
                             ("one", 4, f2), ("one", 5, f2)])
    assert router.messages == 1 and router.frames == 9
    groups = _frames(sent[0][1])
    assert [(g[0]["event"]["n"], g[1]) for g in groups] == [(1, [1, 2, 3]), (3, [2]), (2, [1, 2, 3, 4, 5])]


def test_every_players_order_is_kept_for_random_sends() -> None:
    """Random mixes of single and group sends to players on two gateways: every player receives exactly their
    frames, in the order they were sent, and only through their own gateway."""
    rng = random.Random(15)
    frames = [_frame(i) for i in range(12)]
    for _ in range(200):
        calls: list[tuple[str, Any, Any]] = []
        for _ in range(rng.randrange(1, 30)):
            f = rng.choice(frames)
            if rng.random() < 0.5:
                calls.append(("one", rng.randrange(8), f))
            else:
                calls.append(("many", rng.sample(range(8), rng.randrange(1, 6)), f))
        _router, sent = _flushed(calls, route=lambda pid: None if pid == 7 else ("gA" if pid % 2 else "gB"))
        got: dict[int, list[int]] = {}
        for gw, data in sent:
            for frame, players in _frames(data):
                for pid in players:
                    assert ("gA" if pid % 2 else "gB") == gw  # only to the player's own gateway
                    got.setdefault(pid, []).append(frame["event"]["n"])
        for pid in range(7):
            wanted = [f["event"]["n"] for how, who, f in calls for p in ([who] if how == "one" else who) if p == pid]
            assert got.get(pid, []) == wanted
        assert 7 not in got  # not connected anywhere: nothing


def test_the_batch_round_trips_as_json() -> None:
    f = {"type": "event", "table": "t1", "event": {"kind": "hand_over", "stacks": {0: 100, 3: 50}}}
    decoded = _frames(encode_delivery([(encode_frame(f), [7, 9])]))  # type: ignore[arg-type]
    assert decoded == [({"v": 1, "type": "event", "table": "t1",
                         "event": {"kind": "hand_over", "stacks": {"0": 100, "3": 50}}}, [7, 9])]


def test_r_gen_5_the_router_splits_each_frame_by_gateway_and_keeps_own_frames_apart() -> None:
    """One loop turn's frames: a frame whose recipients are all at one gateway goes there with all of them; one
    whose recipients are at several is split, each gateway getting it with its own players only; a player's own
    frame (their cards, R-GEN-5) goes only to their gateway, with them alone; a player with no route gets
    nothing."""
    import asyncio

    gateways = {1: "gA", 2: "gA", 3: "gB", 4: None}
    sent: list[tuple[str, bytes]] = []

    async def publish(gw: str, data: bytes) -> None:
        sent.append((gw, data))

    async def turn() -> None:
        router = Router(publish, gateways.get)
        public = [_frame(1), _frame(2)]
        for f in public:
            for pid in (1, 2, 3, 4):
                router.send(pid, f)
        router.send(2, _frame(99))  # player 2's own frame
        router.send_many([1, 2], _frame(7))  # both at gA
        router.send_many([4], _frame(8))  # nobody reachable
        await asyncio.sleep(0.01)
        assert router.messages == 2 and router.frames == 12

    asyncio.run(turn())
    got = {gw: _frames(data) for gw, data in sent}
    assert [(f["event"]["n"], p) for f, p in got["gA"]] == [(1, [1, 2]), (2, [1, 2]), (99, [2]), (7, [1, 2])]
    assert [(f["event"]["n"], p) for f, p in got["gB"]] == [(1, [3]), (2, [3])]
    assert set(got) == {"gA", "gB"}


def test_r_gen_5_a_delivery_over_the_size_limit_is_split_in_order() -> None:
    """Many tables' full views in one loop turn would exceed NATS's max_payload (the publish would fail and the frames
    be lost): the batch goes as consecutive deliveries under the limit, every player's frames in their order, and
    each frame still only with its own recipients (R-GEN-5)."""
    import asyncio

    sent: list[bytes] = []

    async def publish(gw: str, data: bytes) -> None:
        sent.append(data)

    frames = [{"type": "table_state", "table": f"t{i}", "view": {"pad": "x" * 200, "n": i}} for i in range(12)]
    items = [(i % 6, f) for i, f in enumerate(frames)] + [(p, frames[0]) for p in range(6, 9)]

    async def turn() -> Router:
        router = Router(publish, lambda pid: "gA", max_bytes=700)
        for pid, f in items:
            router.send(pid, f)
        await asyncio.sleep(0.01)
        return router

    router = asyncio.run(turn())
    assert len(sent) > 1 and router.messages == len(sent)
    assert all(len(d) <= 700 for d in sent)
    got = [(f["view"]["n"], players) for d in sent for f, players in _frames(d)]
    assert got == [(f["view"]["n"], [pid]) for pid, f in items[:12]] + [(0, [6, 7, 8])]  # in order, nothing lost


def test_r_server_1_frames_wait_for_a_late_lease_renewal_and_go_out_in_order() -> None:
    """A table host whose lease renewal is late (its loop or NATS was slow) may no longer own its tables, so it sends
    nothing: but the frames wait and go out, in order, once the renewal succeeds (they were dropped before, and a
    player whose turn frame was dropped never acted: the table played the turn for them after its timer). A lost
    lease drops them (the tables' views are sent again by whoever deals them)."""
    import asyncio


    sent: list[tuple[str, bytes]] = []
    late = [True]

    async def publish(gw: str, data: bytes) -> None:
        sent.append((gw, data))

    async def main() -> None:
        router = Router(publish, lambda pid: "gA", hold=lambda: late[0])
        router.send(1, _frame(1))
        router.send(2, _frame(2))
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert sent == [] and router.held == 2  # the renewal is late: nothing goes out, nothing is lost
        router.send(1, _frame(3))
        await asyncio.sleep(0)
        assert sent == [] and router.held == 3
        late[0] = False
        router.release()
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        got = [(f["event"]["n"], p) for _, data in sent for f, p in _frames(data)]
        assert got == [(1, [1]), (2, [2]), (3, [1])]
        sent.clear()
        late[0] = True
        router.send(1, _frame(4))
        await asyncio.sleep(0)
        assert router.drop_held() == 1  # the lease was lost: dropped
        late[0] = False
        router.release()
        router.send(1, _frame(5))
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert [f["event"]["n"] for _, data in sent for f, _p in _frames(data)] == [5]

    asyncio.run(main())


def test_a_reply_rides_with_the_frames_of_its_action_in_one_message() -> None:
    """Issue #15 speed: an action's frames and its reply leave the host in ONE NATS message to the gateway (before:
    two), the reply after the frames; the flush waits one loop turn while a command is being answered, and only
    one. Replies to another gateway go to that gateway's message."""
    import asyncio


    sent: list[tuple[str, bytes]] = []

    async def publish(gw: str, data: bytes) -> None:
        sent.append((gw, data))

    async def turn() -> None:
        router = Router(publish, lambda pid: "gA")
        router.answering += 1  # the host is answering a command: its table acts and sends frames...
        public = _frame(1)
        router.send(1, public)
        router.send(2, public)
        await asyncio.sleep(0)  # ...and its answer comes a loop turn later
        router.answering -= 1
        router.reply("gA", "7f", b'{"ok":true,"result":{"table":"t1"}}')
        router.reply("gB", "3", b'{"ok":false,"code":"not_your_turn","message":"wait"}')
        await asyncio.sleep(0.01)
        assert router.messages == 2 and router.replies == 2
        sent.sort()
        frames, replies = decode_delivery(sent[0][1])
        assert sent[0][0] == "gA"
        assert [(f.as_dict()["event"]["n"], f.players) for f in frames] == [(1, [1, 2])]
        assert replies == [("7f", {"ok": True, "result": {"table": "t1"}})]
        assert sent[1][0] == "gB" and decode_delivery(sent[1][1]) == (
            [], [("3", {"ok": False, "code": "not_your_turn", "message": "wait"})])

        sent.clear()  # no command being answered: frames leave in the turn after they were sent, as before
        router.send(1, _frame(2))
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert len(sent) == 1

    asyncio.run(turn())


def test_reply_tokens_are_json_escaped_and_split_deliveries_carry_the_replies_last() -> None:
    f = _frame(5)
    data = encode_delivery([(encode_frame(f), [1])], [('a"b\\c', b'{"ok":true}')])
    assert _frames(data) == [({"v": 1, **f}, [1])]
    assert decode_delivery(data)[1] == [('a"b\\c', {"ok": True})]

    import asyncio


    sent: list[bytes] = []

    async def publish(gw: str, data: bytes) -> None:
        sent.append(data)

    async def turn() -> None:
        router = Router(publish, lambda pid: "gA", max_bytes=300)
        for i in range(6):
            router.send(i, {"type": "table_state", "table": "t1", "view": {"n": i, "pad": "x" * 120}})  # type: ignore[arg-type]
        router.reply("gA", "1", b'{"ok":true}')
        await asyncio.sleep(0.01)

    asyncio.run(turn())
    decoded = [decode_delivery(d) for d in sent]
    assert len(decoded) > 1
    assert [f.as_dict()["view"]["n"] for frames, _ in decoded for f in frames] == list(range(6))
    assert [r for _, replies in decoded for r in replies] == [("1", {"ok": True})]
    assert decoded[-1][1] == [("1", {"ok": True})]


def test_r_alias_1_a_frame_crosses_as_the_exact_text_the_server_would_send() -> None:
    """The host encodes each frame once as the server frame's text (``"v"`` first, as the single-process server's
    ``encode_room_message`` writes it, byte for byte); the gateway forwards that text without decoding it."""
    from riverboat.server.hub import encode_frame as server_encode
    from riverboat.server.protocol import PROTOCOL_VERSION

    frames: list[Any] = [
        _frame(1),
        {"type": "event", "table": "t1", "event": {"kind": "seated", "seat": 2, "player": 5, "alias": "Ann",
                                                   "stack": 1000}},
        {"type": "table_state", "table": "t1", "view": {"seats": [{"seat": 0, "player": 5, "alias": None}],
                                                        "you": {"seat": 0}, "text": "ā \"q\" \n"}},
        {"type": "speed", "pool": "p1", "event": "left", "stacks": {1: 2}},
    ]
    for f in frames:
        enc = encode_frame(f)
        assert not isinstance(enc, dict)
        assert enc.text.decode() == server_encode({"v": PROTOCOL_VERSION, **f})
    got = decode_delivery(encode_delivery([(encode_frame(f), [i]) for i, f in enumerate(frames)]))[0]
    assert [d.text for d in got] == [server_encode({"v": PROTOCOL_VERSION, **f}) for f in frames]
    assert [d.players for d in got] == [[0], [1], [2], [3]]


def test_r_alias_1_a_frame_naming_a_player_without_alias_crosses_as_a_frame_for_the_gateway_to_name() -> None:
    """A seat or event naming a player without an ``alias`` is not encoded by the host: the gateway names it with
    its alias cache first (as for a local room), so no frame reaches a player with the alias missing."""
    unnamed_event = {"type": "event", "table": "t1", "event": {"kind": "seated", "seat": 2, "player": 5}}
    unnamed_seat = {"type": "table_state", "table": "t1", "view": {"seats": [{"seat": 0, "player": 5}]}}
    for f in (unnamed_event, unnamed_seat):
        assert encode_frame(f) is f  # type: ignore[arg-type]
    got = decode_delivery(encode_delivery([(unnamed_event, [3]), (encode_frame(_frame(4)), [3])]))[0]  # type: ignore[list-item]
    assert got[0] == Delivered([3], frame=unnamed_event) and got[0].text is None
    assert got[1].text is not None and got[1].frame is None


def test_a_table_state_names_its_table_and_whether_the_player_is_seated() -> None:
    """What the gateway keeps of a view it does not decode: the table, and whether the view shows the player
    seated (``you``), so that it still knows each player's tables (``tables_of``: R-SITOUT-4 across hosts)."""
    seated = {"type": "table_state", "table": "t9", "view": {"seats": [], "you": {"seat": 1}}}
    watching = {"type": "table_state", "table": "t9", "view": {"seats": [], "you": None}}
    got = decode_delivery(encode_delivery([(encode_frame(seated), [1]), (encode_frame(watching), [2]),  # type: ignore[arg-type]
                                           (encode_frame(_frame(1)), [1, 2])]))[0]
    assert [d.seated_at for d in got] == [("t9", True), ("t9", False), None]


def test_a_malformed_delivery_is_refused() -> None:
    """A header naming more bytes than follow, or bytes no item names, is an error (the gateway logs it and
    drops the message) rather than frames cut in the wrong places."""
    import pytest

    good = encode_delivery([(encode_frame(_frame(1)), [1])])
    for bad in (good[:-1], good + b"x", b"[[[1],5]]"):
        with pytest.raises(ValueError):
            decode_delivery(bad)


def test_the_delivery_window_gathers_several_tables_actions_into_one_message_in_order() -> None:
    """Issue #15 speed (``--delivery-window-ms``): the router flushes at most once per window. A frame after a quiet
    window leaves at the next loop turn (no added latency); what the host's tables hand over sooner after a flush
    waits for the window to close and leaves in ONE message per gateway, not one per loop turn. Every player's
    frames keep their order and each frame its own recipients (R-GEN-5); replies ride last."""
    import asyncio

    sent: list[tuple[str, bytes, float]] = []

    async def scenario() -> None:
        loop = asyncio.get_running_loop()

        async def publish(gw: str, data: bytes) -> None:
            sent.append((gw, data, loop.time()))

        router = Router(publish, lambda pid: "gB" if pid == 9 else "gA", window=0.05)
        router.send(1, _frame(0))  # quiet until now: it leaves at once
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert len(sent) == 1 and router.messages == 1
        t0 = sent[0][2]
        sent.clear()
        router.send_many([1, 2, 9], _frame(1))  # table 1 acts...
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        router.send(2, _frame(2))  # ...then, turns later, table 2 (player 2's own frame)
        router.reply("gA", "a1", b'{"ok":true,"result":{}}')
        await asyncio.sleep(0.01)
        assert sent == []  # the window since the last flush is open: nothing left, though loop turns did
        router.send_many([1, 9], _frame(3))
        await asyncio.sleep(0.2)
        assert router.messages == 3 and len(sent) == 2  # one per gateway for the whole window
        assert all(at - t0 >= 0.05 for _, _, at in sent)
        by_gw = {gw: decode_delivery(data) for gw, data, _ in sent}
        frames, replies = by_gw["gA"]
        assert [(f.as_dict()["event"]["n"], f.players) for f in frames] == [(1, [1, 2]), (2, [2]), (3, [1])]
        assert replies == [("a1", {"ok": True, "result": {}})]
        frames, replies = by_gw["gB"]
        assert [(f.as_dict()["event"]["n"], f.players) for f in frames] == [(1, [9]), (3, [9])] and replies == []
        sent.clear()  # the window has long closed: the next frame leaves at once again
        router.send(1, _frame(4))
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert len(sent) == 1 and router.messages == 4

    asyncio.run(scenario())


def test_a_table_host_gathers_its_frames_for_the_configured_window() -> None:
    """``riverboat serve --role tables --delivery-window-ms N`` reaches the host's router (default 20 ms; the
    two-host integration test, tests/server/test_server_cluster.py, reads it back from /health for 0 and default)."""
    from riverboat.cluster.delivery import DELIVERY_WINDOW_S
    from riverboat.cluster.host import HostOptions

    assert HostOptions().delivery_window_seconds == DELIVERY_WINDOW_S == 0.02
