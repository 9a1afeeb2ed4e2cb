"""Protocol v1 frame validation (docs/protocol.md): bad input gets a precise error code and never a frame object."""

from __future__ import annotations

import json

import pytest

from riverboat.server import protocol
from riverboat.server.protocol import MAX_AMOUNT, ProtocolError, parse_client_frame
from riverboat.server.ratelimit import Rate, RateLimiter


def _code(raw: str | bytes) -> tuple[str, object]:
    with pytest.raises(ProtocolError) as info:
        parse_client_frame(raw)
    return info.value.code, info.value.ref


def test_valid_frames_parse_to_typed_models() -> None:
    sit = parse_client_frame('{"v":1,"type":"sit","table":"t1","seat":3,"buy_in":20000,"id":7}')
    assert (sit.type, sit.table, sit.seat, sit.buy_in, sit.id, sit.wait_for_bb) == ("sit", "t1", 3, 20000, 7, True)
    act = parse_client_frame('{"v":1,"type":"act","table":"t1","kind":"draw","cards":["7c","Kd"],"id":"a"}')
    assert act.kind == "draw" and act.cards == ["7c", "Kd"] and act.amount is None and act.id == "a"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("not json", "bad_json"),
        (b"\xff\xfe", "bad_json"),
        ("[1,2]", "bad_frame"),
        ("42", "bad_frame"),
        ('{"type":"ping"}', "bad_version"),
        ('{"v":2,"type":"ping"}', "bad_version"),
        ('{"v":true,"type":"ping"}', "bad_version"),
        ('{"v":1}', "unknown_type"),
        ('{"v":1,"type":"shuffle"}', "unknown_type"),
        ('{"v":1,"type":["sit"]}', "unknown_type"),
    ],
)
def test_malformed_frames_get_their_error_code(raw: str | bytes, code: str) -> None:
    assert _code(raw)[0] == code


@pytest.mark.parametrize(
    "frame",
    [
        {"type": "sit", "table": "t1", "seat": 1, "buy_in": -5},  # negative amount
        {"type": "sit", "table": "t1", "seat": 1, "buy_in": 0},  # buy-in must be positive
        {"type": "sit", "table": "t1", "seat": 1, "buy_in": MAX_AMOUNT + 1},  # huge amount
        {"type": "sit", "table": "t1", "seat": 1, "buy_in": 10.5},  # float money
        {"type": "sit", "table": "t1", "seat": 1, "buy_in": "100"},  # string money
        {"type": "sit", "table": "t1", "seat": 1, "buy_in": True},  # boolean money
        {"type": "sit", "table": "t1", "seat": 99, "buy_in": 100},  # no such seat number
        {"type": "sit", "table": "t1", "seat": 1},  # missing field
        {"type": "sit", "table": "t1", "seat": 1, "buy_in": 100, "player": 5},  # unknown field (someone else)
        {"type": "sit", "table": "", "seat": 1, "buy_in": 100},
        {"type": "sit", "table": "t1; drop", "seat": 1, "buy_in": 100},
        {"type": "act", "table": "t1", "kind": "raise", "amount": -1},
        {"type": "act", "table": "t1", "kind": "raise", "amount": 10**30},
        {"type": "act", "table": "t1", "kind": "RAISE!"},
        {"type": "act", "table": "t1", "kind": "draw", "cards": ["Zz"]},
        {"type": "act", "table": "t1", "kind": "draw", "cards": "AhKh"},
        {"type": "act", "table": "t1", "kind": "draw", "cards": ["Ah"] * 8},
        {"type": "top_up", "table": "t1", "amount": -100},
        {"type": "sit_in", "table": "t1", "post": "yes"},
        {"type": "auth", "token": ""},
        {"type": "ping", "id": 1.5},
    ],
)
def test_invalid_fields_are_refused_with_invalid(frame: dict[str, object]) -> None:
    """Wrong types, negative and huge amounts, unknown fields: code ``invalid`` and the client id echoed."""
    frame = {"v": 1, **frame}
    frame.setdefault("id", "x1")
    code, ref = _code(json.dumps(frame))
    assert code == "invalid"
    assert ref == (None if frame["id"] == 1.5 else "x1")


def test_oversized_frame_is_refused_before_parsing() -> None:
    raw = '{"v":1,"type":"ping","pad":"' + "x" * protocol.MAX_FRAME_BYTES + '"}'
    assert _code(raw)[0] == "frame_too_large"


def test_schemas_cover_every_client_frame_type() -> None:
    schema = json.dumps(protocol.client_frame_schema())
    for kind in protocol.CLIENT_FRAME_TYPES:
        assert f'"const": "{kind}"' in schema


class _Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_rate_limiter_allows_burst_then_refills_with_time() -> None:
    clock = _Clock()
    limiter = RateLimiter(Rate(burst=3, per_second=2.0), clock)
    assert [limiter.check("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    wait = limiter.check("a")
    assert wait == pytest.approx(0.5)
    assert limiter.check("b") == 0.0  # keys are independent
    clock.t += 0.5
    assert limiter.check("a") == 0.0
    assert limiter.check("a") > 0
    clock.t += 10
    assert [limiter.check("a") for _ in range(3)] == [0.0, 0.0, 0.0]  # never more than the burst
    assert limiter.check("a") > 0


def test_rate_limiter_forgets_idle_keys_to_bound_memory() -> None:
    clock = _Clock()
    limiter = RateLimiter(Rate(burst=1, per_second=1.0), clock, max_keys=10)
    for i in range(10):
        limiter.check(f"k{i}")
    clock.t += 5
    limiter.check("new")
    assert len(limiter._buckets) <= 10
    assert limiter.check("k0") == 0.0  # a forgotten key starts with a full bucket
