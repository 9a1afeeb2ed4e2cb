"""The reasons the room itself writes into the audit log (issue #32), as codes with parameters.

A reason typed by a staff member is kept as they typed it (plain ``str``). A reason the room writes (a staff log
in and the address it came from, a wrong second-factor code, a bank transfer credited...) is a :class:`Reason`: the
audit row keeps its code and parameters (``audit_log.reason_code``, ``reason_args``) beside the English text
(``reason``, for the command line and older consoles), and the operator console shows it in the staff member's
language from the catalogs (``op.reason.<code>`` in web/locales; tests/web/test_web_i18n_catalog.py checks the
codes and their placeholders against :data:`REASONS` both ways). Rows written before the codes existed have only
their text, and the console shows that.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: every reason code the room writes, with its English text (``{name}``: a parameter)
REASONS: dict[str, str] = {
    "wrong_password": "wrong password",
    "wrong_password_locked": "wrong password; account locked",
    "no_second_factor": "no second factor enrolled",
    "second_factor_wrong": "a wrong code for the second factor",
    "second_factor_reused": "a code already used for the second factor",
    "recovery_code_login": "logged in with a recovery code",
    "enrol_wrong_code": "a wrong code while enrolling the second factor",
    "enrolled_in_console": "second factor enrolled in the console",
    "enrolled_on_server": "second factor set up on the server",
    "login_from": "logged in from {address}",
    "login_from_unknown": "logged in from an unknown address",
    "reset_code_by_mail": "reset code asked for by e-mail",
    "password_set_with_code": "password set with a one-time reset code",
    "hole_card_review": "hole-card review",
    "bank_transfer": "bank transfer {reference}",
    "paid_out": "paid out: {reference}",
    "adjustment_approved": "approved",
}


def placeholders(template: str) -> set[str]:
    """The ``{name}`` parameters of a reason's text."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@dataclass(frozen=True, slots=True)
class Reason:
    """A reason the room writes: its code and parameters (strings: data such as an address or a reference)."""

    code: str
    args: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.code not in REASONS:
            raise ValueError(f"unknown audit reason code {self.code!r}")
        if set(self.args) != placeholders(REASONS[self.code]):
            raise ValueError(f"audit reason {self.code!r} takes {sorted(placeholders(REASONS[self.code]))}, "
                             f"got {sorted(self.args)}")

    @property
    def text(self) -> str:
        """The English text (kept in ``audit_log.reason``)."""
        return REASONS[self.code].format(**self.args)


def reason(code: str, **args: object) -> Reason:
    """``reason("login_from", address="10.0.0.7")``: a coded reason (its parameters become strings)."""
    return Reason(code, {k: str(v) for k, v in args.items()})


def reason_columns(why: str | Reason) -> dict[str, Any]:
    """The audit row's ``reason`` (text), ``reason_code`` and ``reason_args`` for a typed or a coded reason."""
    if isinstance(why, Reason):
        return {"reason": why.text, "reason_code": why.code, "reason_args": dict(why.args) or None}
    return {"reason": why, "reason_code": None, "reason_args": None}
