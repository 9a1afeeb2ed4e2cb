"""Staff checks and the audit log entry of every money action (issue #30): the operator audit log is the one of
:mod:`riverboat.store.integrity` (append-only, R-OPER-4), written in the same transaction as the money moved."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from riverboat.store.accounts import require_operator
from riverboat.store.audit_reasons import Reason, reason_columns
from riverboat.store.errors import InvalidRequest
from riverboat.store.models import AuditEntry, Player

MAX_REASON = 2000


def check_reason(reason: str) -> str:
    if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_REASON:
        raise InvalidRequest(f"give a reason (1 to {MAX_REASON} characters): it goes into the audit log")
    return reason.strip()


def staff_member(s: Session, staff_id: int | None) -> Player | None:
    """The operator (or admin) acting, or None for the operator's command line on the room's own machine."""
    return None if staff_id is None else require_operator(s, staff_id)


def audit(s: Session, now: datetime, staff: Player | None, action: str, reason: str | Reason, *,
          player_id: int | None, target: str | None, detail: Mapping[str, Any]) -> None:
    """One audit entry for a staff member's money action (the command line's actions are kept in their own rows:
    the deposit, withdrawal or adjustment says ``staff_id`` None)."""
    if staff is None:
        return
    s.add(AuditEntry(at=now, operator_id=staff.id, operator=staff.username, action=action, player_id=player_id,
                     target=target, **reason_columns(reason), detail=dict(detail)))
