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
    app()
