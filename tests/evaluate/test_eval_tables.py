"""Lookup tables: the rank weights are perfect hashes, the disk cache round-trips exactly and is keyed by the
source digest, and the cached tables equal a fresh build (so a stale or damaged cache cannot change results)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from riverboat.evaluate import Ranking, tables


def test_rank_weights_hash_every_multiset_uniquely() -> None:
    for size, weights in ((5, tables.W5), (7, tables.W7)):
        ms = tables.multisets(tuple(range(13)), size)
        assert len(ms) == (6175 if size == 5 else 49205)
        assert len({sum(weights[r] for r in m) for m in ms}) == len(ms)


@pytest.mark.parametrize("ranking", [Ranking.HIGH, Ranking.LOW_27, Ranking.SOKO])
def test_loaded_tables_equal_a_fresh_build(ranking: Ranking) -> None:
    fresh = tables._build_five(ranking)
    loaded = tables.five(ranking)
    assert np.array_equal(fresh["nf5"], loaded.nf5_np) and np.array_equal(fresh["f5"], loaded.f5_np)


def test_cache_round_trip_and_damaged_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RIVERBOAT_TABLE_CACHE", str(tmp_path))
    calls: list[int] = []

    def build() -> dict[str, np.ndarray]:
        calls.append(1)
        return {"a": np.arange(10, dtype=np.int64)}

    first = tables._cached("probe", build)
    second = tables._cached("probe", build)
    assert len(calls) == 1 and np.array_equal(first["a"], second["a"])
    (cache_file,) = tmp_path.glob("probe-*.npz")
    assert tables._source_digest() in cache_file.name
    cache_file.write_bytes(b"not an npz file")
    third = tables._cached("probe", build)
    assert len(calls) == 2 and np.array_equal(third["a"], np.arange(10))


def test_cache_can_be_switched_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RIVERBOAT_TABLE_CACHE", "off")
    assert tables.cache_dir() is None
    out = tables._cached("probe", lambda: {"a": np.ones(3, dtype=np.int64)})
    assert out["a"].tolist() == [1, 1, 1]
