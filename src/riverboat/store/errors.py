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


class NotBlocked(StoreError):
    """An exclusion's own way out of play (issue #30: ``end_play``, the refund of a registration past the
    unregistration deadline) asked for while no time-out or self-exclusion is in force."""

    code = "not_blocked"
    status = 409


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


# ------------------------------------------------------------------------------- account security (issue #35)


class AccountLocked(AuthError):
    """Too many wrong passwords in a row for this account: it is locked until a time (or until staff release it);
    during the lock even the right password is refused."""

    code = "account_locked"
    status = 423


class SecondFactorRequired(AuthError):
    """A staff account's login without the code of its authenticator app (or a recovery code)."""

    code = "second_factor_required"
    status = 401
    player_message = ("this staff account needs the 6-digit code of its authenticator app (or a recovery code) "
                      "to log in")


class BadSecondFactor(AuthError):
    """A staff login with a wrong, expired or already used code."""

    code = "bad_second_factor"
    status = 401
    player_message = "the code is wrong, expired or already used; nothing was changed"


class EnrolmentRequired(AuthError):
    """A staff account without a confirmed second factor: it must enrol (operator console) before it can log in."""

    code = "enrolment_required"
    status = 403
    player_message = ("this staff account has no second factor yet: enrol it in the operator console (scan the QR "
                      "code, then confirm with a code) before logging in")


class NotStaff(StoreError):
    """A player account asked for something only staff accounts have (two-factor enrolment, staff routes)."""

    code = "not_staff"
    status = 403
    player_message = "this account is not operator or security staff: only staff accounts have this"


class ConsoleOnly(StoreError):
    """A staff login on the players' listener of a room whose console has its own (``--console-port``)."""

    code = "console_only"
    status = 403
    player_message = "staff accounts log in on the operator console's own address"


class AlreadyEnrolled(StoreError):
    """Two-factor enrolment of an account that already has a confirmed second factor (an admin resets it first)."""

    code = "already_enrolled"
    status = 409
    player_message = "this account already has a second factor; an admin must reset it before a new enrolment"


class WrongPassword(StoreError):
    """A password change whose current password is wrong (the change needs the old one)."""

    code = "wrong_password"
    status = 403
    player_message = "the current password is wrong; the password was not changed"


class BadResetCode(StoreError):
    """A password reset with a code that is unknown, already used, expired or for another account."""

    code = "bad_reset_code"
    status = 400
    player_message = "this reset code is wrong, already used or expired; ask the staff for a new one"
