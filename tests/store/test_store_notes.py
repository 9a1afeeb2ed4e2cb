"""Player notes (issue #14 part 2): a private note, a colour tag and a chat mute that one player keeps on another,
per account (SQLite and PostgreSQL). Bad input is refused and changes nothing."""

from __future__ import annotations

import pytest

from riverboat.store import Store
from riverboat.store.errors import InvalidRequest, NotFound

from .conftest import make_player


def test_notes_are_kept_per_owner_and_replaced_on_save(store: Store) -> None:
    alice, bob, carol = (make_player(store, n) for n in ("alice", "bob", "carol"))
    store.notes.save(alice, bob, note="calls too much", tag="green")
    store.notes.save(carol, bob, note="tight", tag="red", muted=True)
    mine = store.notes.list(alice)
    assert [(n.player_id, n.note, n.tag, n.muted) for n in mine] == [(bob, "calls too much", "green", False)]
    store.notes.save(alice, bob, note="calls too much, bluffs rivers", tag="orange", muted=True)
    mine = store.notes.list(alice)
    assert [(n.note, n.tag, n.muted) for n in mine] == [("calls too much, bluffs rivers", "orange", True)]
    assert [(n.note, n.tag) for n in store.notes.list(carol)] == [("tight", "red")]  # carol's are her own
    assert store.notes.list(bob) == []


def test_bad_notes_are_refused_and_change_nothing(store: Store) -> None:
    alice, bob = make_player(store, "alice"), make_player(store, "bob")
    store.notes.save(alice, bob, note="first", tag="blue")
    with pytest.raises(InvalidRequest):
        store.notes.save(alice, bob, note="x", tag="pink")
    with pytest.raises(InvalidRequest):
        store.notes.save(alice, bob, note="y" * 1001)
    with pytest.raises(InvalidRequest):
        store.notes.save(alice, alice, note="me")
    with pytest.raises(NotFound):
        store.notes.save(alice, 999_999, note="nobody")
    assert [(n.note, n.tag) for n in store.notes.list(alice)] == [("first", "blue")]
