"""The ``riverboat`` command.

Every module in this package that defines ``register(app: typer.Typer) -> None`` adds its commands to the app, so
each command lives in its own file (``equity.py``, ``replay.py``, ``serve.py``...) and nobody edits a shared list.
"""

from __future__ import annotations

import importlib
import pkgutil

import typer

app = typer.Typer(
    name="riverboat",
    help="Riverboat: an open-source online poker room.",
    no_args_is_help=True,
    add_completion=False,
)


def _register_all() -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if callable(register):
            register(app)


@app.command("version")
def version() -> None:
    """Print the Riverboat version."""
    from riverboat import __version__

    typer.echo(__version__)


_register_all()


def main() -> None:
    """The ``riverboat`` command. A database that cannot be opened or used (an unknown dialect, a SQLite file in a
    folder that does not exist, a server that refuses) is one line on stderr and exit code 2, not the driver's
    traceback, for every command that takes ``--database-url``."""
    try:
        app()
    except Exception as exc:  # noqa: BLE001 - only the database's errors are turned into a line; the rest re-raised
        if not type(exc).__module__.startswith("sqlalchemy"):
            raise
        orig = getattr(exc, "orig", None)
        reason = str(orig if orig is not None else exc).strip().splitlines()[0]
        typer.echo(f"riverboat: cannot use the database: {reason}", err=True)
        raise SystemExit(2) from None
