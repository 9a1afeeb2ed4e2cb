"""``riverboat db upgrade``: apply the store's Alembic migrations to the configured database."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    db_app = typer.Typer(help="Database administration (migrations).", no_args_is_help=True)

    @db_app.command("upgrade")
    def upgrade(
        database_url: str | None = typer.Option(
            None, "--database-url", help="SQLAlchemy URL; default $RIVERBOAT_DATABASE_URL or the local SQLite file."
        ),
    ) -> None:
        """Apply every migration up to the newest schema."""
        from riverboat.store import Store

        store = Store(database_url)
        try:
            store.upgrade()
            typer.echo(f"database at revision {store.revision()}")
        finally:
            store.dispose()

    @db_app.command("check")
    def check(
        database_url: str | None = typer.Option(
            None, "--database-url", help="SQLAlchemy URL; default $RIVERBOAT_DATABASE_URL or the local SQLite file."
        ),
    ) -> None:
        """Audit the ledger: every transaction balanced, balances consistent, each currency summing to zero."""
        from riverboat.store import LedgerCorrupt, Store

        store = Store(database_url)
        try:
            store.ledger.verify()
            currencies = sorted({key.split(":")[1] for key in store.ledger.balances()})
            for currency in currencies:
                total = store.ledger.total(currency)
                typer.echo(f"{currency}: sum over all accounts = {total}")
                if total != 0:
                    raise LedgerCorrupt(f"{currency} does not sum to zero")
            typer.echo(f"ledger OK: {store.ledger.transaction_count()} transactions")
        except LedgerCorrupt as exc:
            typer.echo(f"ledger CORRUPT: {exc}", err=True)
            raise typer.Exit(1) from None
        finally:
            store.dispose()

    app.add_typer(db_app, name="db")
