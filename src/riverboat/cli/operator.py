"""``riverboat operator create``: make a staff account for the operator console (issue #13, R-OPER).

    riverboat operator create alice --role operator            # asks for the password twice
    riverboat operator create bob --role security --database-url postgresql+psycopg://...
    RIVERBOAT_OPERATOR_PASSWORD=... riverboat operator create carol --role security   # scripted

``operator`` staff see flags, players, balances and hands without hole cards and take the actions (warn, suspend,
ban, disqualify, force an alias change, void a flag); ``security`` staff also see every hole card (R-INTEG-8).
An existing username is refused (nothing changes). The money commands (``deposit``, ``withdrawals``,
``withdrawal approve|reject``) are in ``riverboat.cli.money`` (issue #30).
"""

from __future__ import annotations

import typer

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
        typer.echo(f"created {role} account {info.username!r} (player id {info.id})")

    from riverboat.cli.money import add_commands  # deposit, withdrawals, withdrawal (issue #30)

    add_commands(op_app)
    app.add_typer(op_app, name="operator")
