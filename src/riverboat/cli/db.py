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

    app.add_typer(db_app, name="db")
