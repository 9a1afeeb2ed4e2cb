"""Pydantic models of the REST bodies (requests are validated with them; responses are documented by them)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, StringConstraints

Username = Annotated[StrictStr, StringConstraints(min_length=3, max_length=32, pattern=r"^[A-Za-z0-9_.-]+$")]
Password = Annotated[StrictStr, StringConstraints(min_length=8, max_length=256)]


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Credentials(_Request):
    """Body of ``POST /api/register`` and ``POST /api/login``."""

    username: Username
    password: Password


class LoginCredentials(_Request):
    """Login accepts any non-empty strings (a wrong one simply fails authentication)."""

    username: Annotated[StrictStr, StringConstraints(min_length=1, max_length=64)]
    password: Annotated[StrictStr, StringConstraints(min_length=1, max_length=256)]
    #: staff accounts: the 6-digit code of the authenticator app, or a recovery code (issue #35)
    code: Annotated[StrictStr, StringConstraints(min_length=1, max_length=32)] | None = None
    #: "token": the bearer token in the answer (API clients); "cookie": the table client's HttpOnly cookie;
    #: "console": the operator console's cookie (docs/security.md "Tokens")
    session: Literal["token", "cookie", "console"] = "token"


Code = Annotated[StrictStr, StringConstraints(min_length=1, max_length=32)]
Reason = Annotated[StrictStr, StringConstraints(min_length=1, max_length=2000)]


class StaffCredentials(_Request):
    """Body of ``POST /api/staff/enrol`` (and, with ``code``, ``/api/staff/enrol/confirm``)."""

    username: Annotated[StrictStr, StringConstraints(min_length=1, max_length=64)]
    password: Annotated[StrictStr, StringConstraints(min_length=1, max_length=256)]
    code: Code | None = None


class PasswordChange(_Request):
    """Body of ``PUT /api/password``: the current password is required."""

    old_password: Annotated[StrictStr, StringConstraints(min_length=1, max_length=256)]
    new_password: Password


class PasswordReset(_Request):
    """Body of ``POST /api/password/reset``: the one-time code from the staff (or the room's e-mail)."""

    username: Annotated[StrictStr, StringConstraints(min_length=1, max_length=64)]
    code: Code
    new_password: Password


class ForgotPassword(_Request):
    """Body of ``POST /api/password/forgot`` (rooms with a mail sender only)."""

    username: Annotated[StrictStr, StringConstraints(min_length=1, max_length=64)]


class ReasonBody(_Request):
    """Body of the staff's account-security actions: why (it goes into the audit log)."""

    reason: Reason


class AliasChange(_Request):
    """Body of ``PUT /api/alias`` (R-ALIAS-5: 4 to 16 letters and digits; the store applies every R-ALIAS rule)."""

    alias: Annotated[StrictStr, StringConstraints(min_length=1, max_length=64)]


class ErrorBody(BaseModel):
    code: str
    message: str


class ErrorOut(BaseModel):
    error: ErrorBody


class HealthOut(BaseModel):
    status: str


class PlayerOut(BaseModel):
    player_id: int | str
    username: str
    alias: str | None = None
    role: str | None = None


class TokenOut(BaseModel):
    token: str | None = None  # left out when the session is a cookie
    player_id: int | str
    alias: str | None = None


class MeOut(PlayerOut):
    alias_changeable: bool | None = None
    balances: dict[str, int] = Field(default_factory=dict)


class LobbyOut(BaseModel):
    tables: list[dict[str, Any]]
    pools: list[dict[str, Any]] = Field(default_factory=list)


class Movement(BaseModel):
    """One money movement on a wallet (integer minor units; ``amount`` + into the balance, - out of it)."""

    txn: int
    kind: str  # deposit | withdraw | buy_in | top_up | cash_out | t_register | t_prize | ...
    currency: str
    amount: int
    table: str | None = None  # buy_in / top_up / cash_out
    at: str  # ISO 8601, UTC


class CashierOut(BaseModel):
    balances: dict[str, int]
    history: list[Movement]  # newest first
    next_before: int | None = None  # pass as ?before= for older movements; null when there are none


class HandsOut(BaseModel):
    hands: list[dict[str, Any]]


class HandSearchOut(BaseModel):
    """One page of the hand-history search (issue #31): how many hands match, where the page starts, its hands
    (newest first; each as ``/api/hands`` sends it)."""

    total: int
    offset: int
    hands: list[dict[str, Any]]
