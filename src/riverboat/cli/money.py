"""``riverboat operator deposit | withdrawals | withdrawal``: the operator's money commands (issue #30). Their
``--json`` output is a contract the operator's scripts depend on: one JSON object per line, keys stable.

    riverboat operator deposit alice 5000 --currency EUR --reference BANK-2026-0001 --json
        {"movement_id": 17, "balance": 5000, "replayed": false}
    riverboat operator withdrawals --status pending --json        # one line per withdrawal, oldest first
    riverboat operator withdrawal approve 3 --reference PAYOUT-77 --json
    riverboat operator withdrawal reject 4 --reason "name does not match" --json

AMOUNT is integer minor units (cents). USERNAME may also be the player's personal payment reference (``RB-42-57``,
shown in their cashier). The same ``--reference`` again credits nothing and prints the first result with
``"replayed": true``. A refusal (unknown user, bad amount, a reference already used for another deposit, a deposit
over the player's limit) is one line on stderr and exit code 2; nothing changes. ``--operator NAME`` (optional)
names the staff account acting, for the audit log.
"""

from __future__ import annotations

import json
import re
from typing import Any

import typer

_AMOUNT = re.compile(r"^[0-9]{1,13}$")


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def _open(database_url: str | None) -> Any:
    from riverboat.store import Store

    store = Store(database_url)
    store.upgrade()
    return store


def _staff_id(store: Any, name: str | None) -> int | None:
    if name is None:
        return None
    info = store.accounts.by_username(name)
    if info is None or info.role not in ("operator", "admin"):
        raise _fail(f"--operator {name!r} is not an operator or admin account")
    return int(info.id)


def _player(store: Any, who: str) -> int:
    from riverboat.store.cashier import player_of_reference

    info = store.accounts.by_username(who)
    if info is not None:
        return int(info.id)
    pid = player_of_reference(who)
    if pid is not None:
        return pid
    raise _fail(f"no player {who!r} (give a username or a personal payment reference like RB-42-57)")


def withdrawal_dict(w: Any) -> dict[str, Any]:
    return {"id": w.id, "player_id": w.player_id, "currency": w.currency, "amount": w.amount, "status": w.status,
            "requested_at": w.requested_at.isoformat(),
            "decided_at": w.decided_at.isoformat() if w.decided_at else None,
            "payout_reference": w.payout_reference, "reason": w.reason}


def _out(data: dict[str, Any], as_json: bool, text: str) -> None:
    typer.echo(json.dumps(data, separators=(", ", ": ")) if as_json else text)


DB_HELP = "SQLAlchemy URL; default $RIVERBOAT_DATABASE_URL or the local SQLite file."


def add_commands(op_app: typer.Typer) -> None:
    from riverboat.store import StoreError

    @op_app.command("deposit", context_settings={"ignore_unknown_options": True})
    def deposit(
        username: str = typer.Argument(..., help="the player's username or personal payment reference"),
        amount: str = typer.Argument(..., help="integer minor units (cents), e.g. 5000 for 50.00"),
        currency: str = typer.Option("EUR", "--currency"),
        reference: str = typer.Option(..., "--reference", help="the bank transfer's reference (idempotency key)"),
        operator: str | None = typer.Option(None, "--operator", help="the staff account acting (audit log)"),
        database_url: str | None = typer.Option(None, "--database-url", help=DB_HELP),
        as_json: bool = typer.Option(False, "--json", help="one JSON line: movement_id, balance, replayed"),
    ) -> None:
        """Credit a bank transfer to a player's balance (once per --reference)."""
        if not _AMOUNT.match(amount) or int(amount) <= 0:
            raise _fail(f"AMOUNT must be a positive whole number of minor units (cents), got {amount!r}")
        with _open(database_url) as store:
            pid = _player(store, username)
            try:
                result = store.cashier.credit_bank(pid, currency, int(amount), reference,
                                                   staff_id=_staff_id(store, operator))
            except StoreError as exc:
                raise _fail(str(exc)) from None
        note = " (already credited: nothing changed)" if result.replayed else ""
        _out(result.to_dict(), as_json, f"credited {amount} {currency} to {username}: balance {result.balance}{note}")

    @op_app.command("withdrawals")
    def withdrawals(
        status: str | None = typer.Option(None, "--status", help="pending, paid, rejected or cancelled"),
        database_url: str | None = typer.Option(None, "--database-url", help=DB_HELP),
        as_json: bool = typer.Option(False, "--json", help="one JSON line per withdrawal"),
    ) -> None:
        """List withdrawals (pending: oldest first, the queue to pay)."""
        with _open(database_url) as store:
            try:
                rows = store.withdrawals.list(status=status, limit=10_000)
            except StoreError as exc:
                raise _fail(str(exc)) from None
        for w in rows:
            _out(withdrawal_dict(w), as_json,
                 f"#{w.id} player {w.player_id} {w.amount} {w.currency} {w.status} {w.requested_at:%Y-%m-%d %H:%M}")

    @op_app.command("withdrawal")
    def withdrawal(
        action: str = typer.Argument(..., help="approve or reject"),
        withdrawal_id: str = typer.Argument(..., metavar="ID"),
        reference: str | None = typer.Option(None, "--reference", help="approve: the payout's reference"),
        reason: str | None = typer.Option(None, "--reason", help="reject: why (shown to the player)"),
        operator: str | None = typer.Option(None, "--operator", help="the staff account acting (audit log)"),
        database_url: str | None = typer.Option(None, "--database-url", help=DB_HELP),
        as_json: bool = typer.Option(False, "--json", help="the withdrawal as one JSON line"),
    ) -> None:
        """Approve (paid out, with --reference) or reject (money back to the balance) a pending withdrawal."""
        if action not in ("approve", "reject"):
            raise _fail(f"the action is approve or reject, not {action!r}")
        if not withdrawal_id.isdigit() or len(withdrawal_id) > 18:
            raise _fail(f"ID must be a withdrawal number, got {withdrawal_id!r}")
        if action == "approve" and not reference:
            raise _fail("approve needs --reference (the payout's bank reference)")
        with _open(database_url) as store:
            try:
                staff = _staff_id(store, operator)
                if action == "approve":
                    w = store.withdrawals.approve(staff, int(withdrawal_id), reference)
                else:
                    w = store.withdrawals.reject(staff, int(withdrawal_id), reason or "rejected by the operator")
            except StoreError as exc:
                raise _fail(str(exc)) from None
        _out(withdrawal_dict(w), as_json, f"withdrawal #{w.id}: {w.status}")
