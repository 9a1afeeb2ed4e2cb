"""A taken username is refused with its own error class (UsernameTaken, so the REST API can answer 409), while a
malformed request stays a plain InvalidRequest (422).  Runs on SQLite and PostgreSQL (conftest ``store``)."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import func, select

from riverboat.store import InvalidRequest, Store, UsernameTaken
from riverboat.store.models import Player


def _players(store: Store) -> int:
    with store.session() as s:
        return int(s.scalar(select(func.count()).select_from(Player)) or 0)


def test_taken_username_raises_username_taken_and_changes_nothing(store: Store) -> None:
    store.accounts.register("River_Rat", "correct horse battery")
    before = _players(store)
    for name in ("River_Rat", "river_rat", "RIVER_RAT"):  # unique ignoring case
        with pytest.raises(UsernameTaken, match="taken") as err:
            store.accounts.register(name, "another good password")
        assert isinstance(err.value, InvalidRequest)  # old callers catching InvalidRequest still work
    assert _players(store) == before
    assert store.accounts.by_username("river_rat").username == "River_Rat"  # type: ignore[union-attr]


@pytest.mark.parametrize(("name", "password"), [("ab", "long enough pw"), ("bad name!", "long enough pw"),
                                                ("fine_name", "short")])
def test_malformed_registration_is_invalid_request_not_username_taken(store: Store, name: str,
                                                                      password: str) -> None:
    with pytest.raises(InvalidRequest) as err:
        store.accounts.register(name, password)
    assert not isinstance(err.value, UsernameTaken)
    assert _players(store) == 0


def test_concurrent_registrations_of_one_username_one_wins_the_rest_are_username_taken(store: Store) -> None:
    """Racing registrations (the database's unique index decides): exactly one account, every loser told
    UsernameTaken, never an unexplained database error."""
    outcomes: list[object] = []
    lock = threading.Lock()
    start = threading.Barrier(4)

    def attempt(k: int) -> None:
        start.wait()
        try:
            store.accounts.register("Same_Name" if k % 2 else "same_name", "correct horse battery")
            result: object = "ok"
        except Exception as exc:  # noqa: BLE001 - the test inspects the class
            result = exc
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=attempt, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count("ok") == 1
    assert all(isinstance(o, UsernameTaken) for o in outcomes if o != "ok"), outcomes
    assert _players(store) == 1
