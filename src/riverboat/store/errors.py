"""Errors raised by :mod:`riverboat.store`.  Every refusal carries a message saying why; nothing is changed.

Each class declares its wire ``code`` and HTTP ``status`` (:mod:`riverboat.errors`, the one error registry): REST,
the WebSocket and the room's store gateway all answer a refusal with the code of its class. A class whose raisers
write operator texts (internal account names, idempotency keys, epochs) gives players a fixed ``player_message``.
"""

from __future__ import annotations

from riverboat.errors import RiverboatError, plain_words


class StoreError(RiverboatError):
    """Base class of every refusal raised by the store."""

    code = "refused"
    status = 400


class NotFound(StoreError):
    """A player, tournament, hand, ticket or session does not exist."""

    code = "not_found"
    status = 404


class InvalidRequest(StoreError):
    """The request is malformed (negative amount, unbalanced changes, wrong state...)."""

    code = "invalid"
    status = 422


class UsernameTaken(InvalidRequest):
    """The username is already registered (usernames are unique ignoring case).  A subclass of
    :class:`InvalidRequest` so that callers catching that keep working; it has its own code and status."""

    code = "username_taken"
    status = 409


class InsufficientFunds(StoreError):
    """The transfer would make a balance negative."""

    code = "insufficient_funds"
    status = 409
    player_message = "there are not enough chips in the balance for this"


class IdempotencyConflict(StoreError):
    """An idempotency key was reused for a different request."""

    code = "conflict"
    status = 409
    player_message = "this request id was already used for a different request; send it again with a new id"


class IdempotentReplay(StoreError):
    """A call made ``once=True`` found its idempotency key already used: the money moved (or was refused) the
    first time and nothing moves now. Raised instead of returning the recorded result when the caller cannot
    tell a replay from a first call (a WebSocket frame id whose reply is no longer cached, issue #16)."""

    code = "id_reused"
    status = 409
    player_message = "this request id was already used and its answer has expired; send it again with a new id"


class AuthError(StoreError):
    """Bad credentials, or an unknown, expired or revoked session token."""

    code = "unauthenticated"
    status = 401


class AccountBlocked(AuthError):
    """The account is suspended or banned (R-INTEG-5c): it cannot log in, and its sessions stop working.
    ``standing`` is ``suspended`` or ``banned``."""

    code = "account_blocked"
    status = 403
    player_message = "this account is suspended or banned; contact support"

    def __init__(self, status: str) -> None:
        super().__init__(f"this account is {status}; contact support")
        self.standing = status
        self.message = plain_words(f"this account is {status}; contact support")

    def __reduce__(self) -> tuple[type[AccountBlocked], tuple[str]]:  # comes back whole from the store process
        return (AccountBlocked, (self.standing,))


class PermissionDenied(StoreError):
    """The acting player lacks the operator role."""

    code = "forbidden"
    status = 403
    player_message = "only an operator may do this"


class AliasRefused(StoreError):
    """An alias was refused; the message says which rule (R-ALIAS-n) refused it (rule ids are for the logs: the
    player reads the words)."""

    code = "alias_refused"
    status = 422


class LedgerCorrupt(StoreError):
    """A consistency check of the ledger failed (should never happen)."""

    code = "ledger_corrupt"
    status = 500
    player_message = "internal error: the operation was not applied"


class Fenced(StoreError):
    """A table host's lease epoch is no longer the table's current one: another host owns the table now, so this
    host may not start, settle or move money for it (issue #15, docs/cluster.md "Fencing")."""

    code = "fenced"
    status = 409
    player_message = "this table has just moved to another server; please try again"


class PlayBlocked(StoreError):
    """The player took a time-out or excluded themselves (issue #30): no new play -- no seat, no Speed Poker, no
    tournament or Twister registration, no deposit -- until it ends; the balance can still be seen and withdrawn.
    The message says until when, in plain words."""

    code = "play_blocked"
    status = 403


class DepositLimitReached(StoreError):
    """The deposit would go over one of the player's own deposit limits (issue #30); the message says which limit,
    what was deposited in its period and how much may still be deposited."""

    code = "deposit_limit"
    status = 409


class NotVerified(StoreError):
    """Only an account that staff have verified may withdraw (issue #30)."""

    code = "not_verified"
    status = 403
    player_message = "withdrawals need a verified account; contact support to verify your identity"


class FourEyes(StoreError):
    """An adjustment above the room's four-eyes amount must be approved by a second staff member, not the one who
    asked for it (issue #30)."""

    code = "four_eyes"
    status = 403
    player_message = "a second staff member must approve this adjustment"
