"""Errors raised by :mod:`riverboat.store`.  Every refusal carries a message saying why; nothing is changed."""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every refusal raised by the store."""


class NotFound(StoreError):
    """A player, tournament, hand, ticket or session does not exist."""


class InvalidRequest(StoreError):
    """The request is malformed (negative amount, unbalanced changes, wrong state...)."""


class UsernameTaken(InvalidRequest):
    """The username is already registered (usernames are unique ignoring case).  A subclass of
    :class:`InvalidRequest` so that callers catching that keep working; the REST API answers 409 for it."""


class InsufficientFunds(StoreError):
    """The transfer would make a balance negative."""


class IdempotencyConflict(StoreError):
    """An idempotency key was reused for a different request."""


class IdempotentReplay(StoreError):
    """A call made ``once=True`` found its idempotency key already used: the money moved (or was refused) the
    first time and nothing moves now. Raised instead of returning the recorded result when the caller cannot
    tell a replay from a first call (a WebSocket frame id whose reply is no longer cached, issue #16)."""


class AuthError(StoreError):
    """Bad credentials, or an unknown, expired or revoked session token."""


class PermissionDenied(StoreError):
    """The acting player lacks the operator role."""


class AliasRefused(StoreError):
    """An alias was refused; the message says which rule (R-ALIAS-n) refused it."""


class LedgerCorrupt(StoreError):
    """A consistency check of the ledger failed (should never happen)."""


class Fenced(StoreError):
    """A table host's lease epoch is no longer the table's current one: another host owns the table now, so this
    host may not start, settle or move money for it (issue #15, docs/cluster.md "Fencing")."""
