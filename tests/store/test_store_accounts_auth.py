"""Accounts: registration, argon2id hashes, login sessions with expiry, roles."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import select

from riverboat.store import AuthError, InvalidRequest, PermissionDenied, Store
from riverboat.store.models import AuthSession, Player

from .conftest import FakeClock


def test_register_stores_an_argon2id_hash_never_the_password(store: Store) -> None:
    info = store.accounts.register("Alice", "s3cret-password")
    with store.session() as s:
        p = s.get(Player, info.id)
        assert p is not None
        assert p.password_hash.startswith("$argon2id$")
        assert "s3cret-password" not in p.password_hash
    assert info.role == "player" and info.alias is None


def test_usernames_are_unique_ignoring_case_and_validated(store: Store) -> None:
    """Issue #4 item 2 (accounts): usernames unique ignoring case; bad usernames, short passwords refused."""
    store.accounts.register("Alice", "s3cret-password")
    with pytest.raises(InvalidRequest, match="taken"):
        store.accounts.register("ALICE", "another-password")
    with pytest.raises(InvalidRequest, match="username"):
        store.accounts.register("a b", "another-password")
    with pytest.raises(InvalidRequest, match="password"):
        store.accounts.register("bob", "short")


def test_login_returns_a_token_that_authenticates_and_stores_only_its_digest(store: Store) -> None:
    """Issue #4 item 2 (sessions): the token authenticates; only its SHA-256 digest is stored."""
    info = store.accounts.register("carol", "s3cret-password")
    token = store.accounts.login("carol", "s3cret-password")
    assert store.accounts.authenticate(token).id == info.id
    with store.session() as s:
        stored = s.scalars(select(AuthSession.token_hash)).all()
    assert token not in stored and len(stored) == 1


def test_wrong_password_and_unknown_user_get_the_same_error(store: Store, caplog: pytest.LogCaptureFixture) -> None:
    store.accounts.register("dave", "s3cret-password")
    caplog.set_level(logging.DEBUG)
    with pytest.raises(AuthError, match="wrong username or password") as e1:
        store.accounts.login("dave", "wrong-password")
    with pytest.raises(AuthError, match="wrong username or password") as e2:
        store.accounts.login("nobody", "s3cret-password")
    assert str(e1.value) == str(e2.value)
    assert "wrong-password" not in caplog.text and "s3cret-password" not in caplog.text


def test_session_expires_by_the_injected_clock(store: Store, clock: FakeClock) -> None:
    """Issue #4 item 2 (sessions with expiry): the 12 h lifetime is measured on the injected clock."""
    store.accounts.register("erin", "s3cret-password")
    token = store.accounts.login("erin", "s3cret-password")
    clock.advance(hours=11, minutes=59)
    store.accounts.authenticate(token)
    clock.advance(minutes=1)
    with pytest.raises(AuthError, match="expired"):
        store.accounts.authenticate(token)


def test_logout_revokes_the_token(store: Store) -> None:
    """Issue #4 item 2: a logged-out or made-up token is refused."""
    store.accounts.register("frank", "s3cret-password")
    token = store.accounts.login("frank", "s3cret-password")
    store.accounts.logout(token)
    with pytest.raises(AuthError):
        store.accounts.authenticate(token)
    with pytest.raises(AuthError):
        store.accounts.authenticate("made-up-token")


def test_r_oper_only_operators_may_change_roles(store: Store) -> None:
    """R-OPER: operator powers belong to the operator role."""
    op = store.accounts.register("boss", "s3cret-password", role="operator")
    p = store.accounts.register("gina", "s3cret-password")
    with pytest.raises(PermissionDenied):
        store.accounts.set_role(p.id, p.id, "admin")
    assert store.accounts.set_role(op.id, p.id, "operator").is_operator
    with pytest.raises(InvalidRequest):
        store.accounts.register("hank", "s3cret-password", role="god")
