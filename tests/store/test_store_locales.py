"""The client language kept on the account (issue #32): one of en, lv, ru, lt, fi per player, replaced on save;
an unknown language or player is refused and changes nothing."""

from __future__ import annotations

import pytest

from riverboat.store import Store
from riverboat.store.errors import InvalidRequest, NotFound

from .conftest import make_player


def test_locale_is_kept_per_player_and_replaced(store: Store) -> None:
    alice, bob = make_player(store, "alice"), make_player(store, "bob")
    assert store.locales.get(alice) is None  # never chosen: the client uses the browser's language
    assert store.locales.set(alice, "lv") == "lv"
    assert store.locales.set(bob, "fi") == "fi"
    assert store.locales.set(alice, "ru") == "ru"
    assert (store.locales.get(alice), store.locales.get(bob)) == ("ru", "fi")


def test_unknown_locale_or_player_is_refused_and_changes_nothing(store: Store) -> None:
    alice = make_player(store, "alice")
    store.locales.set(alice, "lt")
    for bad in ("de", "LV", "", "qps"):
        with pytest.raises(InvalidRequest):
            store.locales.set(alice, bad)
    with pytest.raises(NotFound):
        store.locales.set(999_999, "en")
    assert store.locales.get(alice) == "lt"
    assert store.locales.get(999_999) is None
