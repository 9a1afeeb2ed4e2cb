"""The reply cache of money frames (issue #16 part 4, ``riverboat.server.replies``): expiry by the injected clock
(no sleeping), the bounds, concurrent copies, refusals that are not kept; and the store half: a frame's ledger key
used again after its reply left the cache moves nothing (``IdempotentReplay`` -> ``id_reused``, R-WALLET-1)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from riverboat.room import FakeClock, Room, RoomError, TableSpec
from riverboat.server import protocol
from riverboat.server.replies import REPLY_TTL_S, FrameReplies, store_key
from riverboat.store import IdempotentReplay, Store


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def _top_up(fid: Any, amount: int = 10) -> Any:
    return protocol.parse_client_frame(json.dumps({"v": 1, "type": "top_up", "id": fid, "table": "t1",
                                                   "amount": amount}))


class Counter:
    def __init__(self, code: str | None = None) -> None:
        self.calls = 0
        self.code = code

    async def __call__(self) -> dict[str, Any]:
        self.calls += 1
        if self.code is not None:
            return dict(protocol.error(self.code, "no", "x"))
        return dict(protocol.ack("top_up", {"n": self.calls}, "x"))


def test_replies_are_kept_at_least_ten_minutes_then_expire() -> None:
    """Issue #16: the same id within ten minutes gets the kept reply; after the TTL (injected clock) it runs
    again (where the store key would refuse it)."""
    assert REPLY_TTL_S >= 600
    clock = Clock()
    replies = FrameReplies(clock)
    run = Counter()

    async def go() -> None:
        first = await replies.once(1, _top_up("a"), run)
        clock.t += 600
        assert await replies.once(1, _top_up("a"), run) == first
        assert run.calls == 1
        assert await replies.once(2, _top_up("a"), run) != first  # another player's id "a" is theirs
        clock.t += REPLY_TTL_S
        await replies.once(1, _top_up("a"), run)
        assert run.calls == 3

    asyncio.run(go())


def test_other_content_is_id_reused_and_bounds_hold() -> None:
    """Issue #16: the same id with other content is ``id_reused`` (the command does not run); the cache keeps at
    most ``per_player`` replies per player and ``max_entries`` in all."""
    replies = FrameReplies(Clock(), per_player=3, max_entries=5)
    run = Counter()

    async def go() -> None:
        await replies.once(1, _top_up("a", 10), run)
        refused = await replies.once(1, _top_up("a", 11), run)
        assert refused["code"] == "id_reused" and run.calls == 1
        for i in range(5):
            await replies.once(1, _top_up(f"b{i}"), run)
        assert len(replies) == 3  # per player
        for p in range(2, 6):
            await replies.once(p, _top_up("c"), run)
        assert len(replies) == 5  # in all

    asyncio.run(go())


def test_uninformative_refusals_are_not_kept_and_no_id_is_never_cached() -> None:
    """Issue #16: an ``internal`` reply is not kept (a retry runs again), a refusal such as ``insufficient_funds``
    is; a frame without an id runs every time."""
    run = Counter("internal")
    replies = FrameReplies(Clock())

    async def go() -> None:
        await replies.once(1, _top_up("a"), run)
        await replies.once(1, _top_up("a"), run)
        assert run.calls == 2
        kept = Counter("insufficient_funds")
        first = await replies.once(1, _top_up("b"), kept)
        assert await replies.once(1, _top_up("b"), kept) == first and kept.calls == 1
        plain = Counter()
        await replies.once(1, _top_up(None), plain)
        await replies.once(1, _top_up(None), plain)
        assert plain.calls == 2 and len(replies) == 1

    asyncio.run(go())


def test_concurrent_copies_wait_for_the_first_reply() -> None:
    """Issue #16: a copy arriving while the first is still handled (another tab) waits for the first's reply."""
    replies = FrameReplies(Clock())
    calls = 0

    async def go() -> None:
        release = asyncio.Event()

        async def slow() -> dict[str, Any]:
            nonlocal calls
            calls += 1
            await release.wait()
            return dict(protocol.ack("top_up", {}, "a"))

        a = asyncio.ensure_future(replies.once(1, _top_up("a"), slow))
        b = asyncio.ensure_future(replies.once(1, _top_up("a"), slow))
        await asyncio.sleep(0)
        release.set()
        assert await a == await b
        assert calls == 1

    asyncio.run(go())


def test_a_used_frame_key_moves_nothing_after_the_cache_forgot_it() -> None:
    """R-WALLET-1, issue #16: the store half. The room's top-up with a frame-derived key, repeated (as after a
    restart or an evicted reply): ``id_reused``, one ledger movement, the table stack unchanged."""
    store = Store("sqlite://")
    store.upgrade()
    pid = store.accounts.register("idem", "password-idem").id
    store.ledger.deposit(pid, "EUR", 1_000, "dep")
    clock = FakeClock()

    async def go() -> None:
        room = Room(store, clock=clock, store_inline=True)
        await room.start()
        tid = await room.open_table(TableSpec(name="T", min_buy_in=40, max_buy_in=400))
        await room.sit(pid, tid, 0, 100, idem_key=store_key(pid, "s"))
        await room.top_up(pid, tid, 50, idem_key=store_key(pid, "t"))
        with pytest.raises(RoomError) as err:
            await room.top_up(pid, tid, 50, idem_key=store_key(pid, "t"))
        assert err.value.code == "id_reused"
        assert room.tables[tid].seat_of(pid).stack == 150  # type: ignore[union-attr]
        assert store.ledger.table_stack(pid, tid) == 150
        await room.stop()

    asyncio.run(go())
    with pytest.raises(IdempotentReplay):
        store.ledger.buy_in(pid, "t-x", 50, store_key(pid, "t"), once=True)
    store.ledger.verify()
    assert store.ledger.balance(pid, "EUR") == 1_000
