"""``riverboat operator create``: make a staff account for the operator console (issue #13, R-OPER).

    riverboat operator create alice --role operator            # asks for the password twice
    riverboat operator create bob --role security --database-url postgresql+psycopg://...
    RIVERBOAT_OPERATOR_PASSWORD=... riverboat operator create carol --role security   # scripted

Every staff account needs a second factor to log in (issue #35): ``create`` sets one up at once and prints its
provisioning URI (``otpauth://...``: add it to an authenticator app, or paste it into a QR generator) and its
one-time recovery codes; ``second-factor`` replaces a lost one (the old codes stop working).

    riverboat operator second-factor alice     # a new TOTP secret and recovery codes for alice

``operator`` staff see flags, players, balances and hands without hole cards and take the actions (warn, suspend,
ban, disqualify, force an alias change, void a flag); ``security`` staff also see every hole card (R-INTEG-8).
An existing username is refused (nothing changes). The money commands (``deposit``, ``withdrawals``,
``withdrawal approve|reject``) are in ``riverboat.cli.money`` (issue #30).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from riverboat.store.security import Enrolment

STAFF = ("operator", "security", "admin")


def register(app: typer.Typer) -> None:
    op_app = typer.Typer(help="Operator console accounts (R-OPER).", no_args_is_help=True)

    @op_app.command("create")
    def create(
        username: str = typer.Argument(..., help="login name (3-64 of letters, digits, _ . -)"),
        role: str = typer.Option("operator", "--role", help="operator, security or admin"),
        password: str = typer.Option(..., prompt=True, confirmation_prompt=True, hide_input=True,
                                     envvar="RIVERBOAT_OPERATOR_PASSWORD", help="at least 8 characters"),
        database_url: str | None = typer.Option(
            None, "--database-url", help="SQLAlchemy URL; default $RIVERBOAT_DATABASE_URL or the local SQLite file."),
    ) -> None:
        """Create an operator, security or admin account."""
        from riverboat.store import InvalidRequest, Store

        if role not in STAFF:
            typer.echo(f"error: --role must be one of {', '.join(STAFF)}", err=True)
            raise typer.Exit(2)
        with Store(database_url) as store:
            store.upgrade()
            try:
                info = store.accounts.register(username, password, role=role)
            except InvalidRequest as exc:
                typer.echo(f"error: {exc}", err=True)
                raise typer.Exit(2) from None
            enrolment = store.security.set_up_second_factor(info.id)
        typer.echo(f"created {role} account {info.username!r} (player id {info.id})")
        _print_second_factor(enrolment)

    @op_app.command("second-factor")
    def second_factor(
        username: str = typer.Argument(..., help="the staff account's login name"),
        database_url: str | None = typer.Option(
            None, "--database-url", help="SQLAlchemy URL; default $RIVERBOAT_DATABASE_URL or the local SQLite file."),
    ) -> None:
        """Give a staff account a new second factor (a lost phone): a new TOTP secret and new recovery codes."""
        from riverboat.store import Store
        from riverboat.store.errors import StoreError

        with Store(database_url) as store:
            store.upgrade()
            info = store.accounts.by_username(username)
            if info is None:
                typer.echo(f"error: no account {username!r}", err=True)
                raise typer.Exit(2)
            try:
                enrolment = store.security.set_up_second_factor(info.id)
            except StoreError as exc:
                typer.echo(f"error: {exc.message}", err=True)
                raise typer.Exit(2) from None
        _print_second_factor(enrolment)

    from riverboat.cli.money import add_commands  # deposit, withdrawals, withdrawal (issue #30)

    add_commands(op_app)
    app.add_typer(op_app, name="operator")


def _print_second_factor(enrolment: Enrolment) -> None:
    typer.echo("second factor (TOTP, RFC 6238): add this provisioning URI to an authenticator app:")
    typer.echo(f"  {enrolment.uri}")
    typer.echo("recovery codes (each logs in once without the app; keep them offline):")
    for code in enrolment.recovery_codes:
        typer.echo(f"  {code}")
