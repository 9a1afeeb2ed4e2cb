"""Token-bucket rate limits (login attempts per address and per username, WebSocket frames per connection).

Time comes from an injected ``now`` function (monotonic seconds), so the limits are tested without sleeping.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Rate:
    """``burst`` requests at once, then ``per_second`` requests per second on average."""

    burst: int
    per_second: float

    def __post_init__(self) -> None:
        if self.burst < 1 or self.per_second <= 0:
            raise ValueError("a rate needs burst >= 1 and per_second > 0")


class TokenBucket:
    __slots__ = ("rate", "tokens", "stamp")

    def __init__(self, rate: Rate, now: float) -> None:
        self.rate = rate
        self.tokens = float(rate.burst)
        self.stamp = now

    def take(self, now: float) -> float:
        """Take one token. Returns 0.0 if allowed, else the seconds until a token is available."""
        elapsed = max(0.0, now - self.stamp)
        self.stamp = now
        self.tokens = min(float(self.rate.burst), self.tokens + elapsed * self.rate.per_second)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate.per_second


class RateLimiter:
    """One token bucket per key (an address, a username...). Idle full buckets are forgotten to bound memory."""

    def __init__(self, rate: Rate, now: Callable[[], float] = time.monotonic, max_keys: int = 100_000) -> None:
        self.rate = rate
        self._now = now
        self._buckets: dict[str, TokenBucket] = {}
        self._max_keys = max_keys

    def check(self, key: str) -> float:
        """Consume one request for ``key``: 0.0 if allowed, else the seconds to wait (the request is refused)."""
        now = self._now()
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self._max_keys:
                self._forget_idle(now)
            bucket = self._buckets[key] = TokenBucket(self.rate, now)
        return bucket.take(now)

    def _forget_idle(self, now: float) -> None:
        full_after = self.rate.burst / self.rate.per_second
        for key in [k for k, b in self._buckets.items() if now - b.stamp >= full_after]:
            del self._buckets[key]
        if len(self._buckets) >= self._max_keys:  # still full: drop the oldest half
            oldest = sorted(self._buckets, key=lambda k: self._buckets[k].stamp)
            for key in oldest[: len(oldest) // 2]:
                del self._buckets[key]
