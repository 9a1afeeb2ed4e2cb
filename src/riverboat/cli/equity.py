"""``riverboat equity AhKh QsQd [--board Qh7c2d] [--dead 3c] [--game holdem|omaha|omaha-hl] [--trials N] [--seed S]``:
each hand's win / tie / equity, by exact enumeration when the remaining boards are few, else Monte Carlo (with a
progress bar). Bad cards or options print a clear error and exit with code 2."""

from __future__ import annotations

import json

import typer

GAMES = ("holdem", "omaha", "omaha-hl")


def run_equity(
    hands: list[str],
    board: str,
    dead: str,
    game: str,
    trials: int | None,
    seed: int | None,
    exact: bool | None,
    as_json: bool,
) -> int:
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from riverboat.evaluate import HandError
    from riverboat.evaluate.equity import equity

    console = Console()
    err = Console(stderr=True)
    try:
        if exact is False or trials is not None and exact is None:
            with Progress(console=err, transient=True, disable=not err.is_terminal) as bar:
                task = bar.add_task("Monte Carlo", total=trials or 1)

                def tick(done: int, total: int) -> None:
                    bar.update(task, completed=done, total=total)

                result = equity(
                    hands, board, dead, game, trials=trials, exact=False, seed=seed, progress=tick
                )
        elif exact:
            result = equity(hands, board, dead, game, exact=True)
        else:
            with Progress(console=err, transient=True, disable=not err.is_terminal) as bar:
                task = bar.add_task("Monte Carlo", total=None)

                def tick(done: int, total: int) -> None:
                    bar.update(task, completed=done, total=total)

                result = equity(hands, board, dead, game, seed=seed, progress=tick)
    except HandError as exc:
        err.print(f"[red]error:[/red] {exc}")
        return 2
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "game": result.game.value,
                    "board": " ".join(str(c) for c in result.board),
                    "dead": " ".join(str(c) for c in result.dead),
                    "exact": result.exact,
                    "boards": result.boards,
                    "players": [
                        {
                            "hand": "".join(str(c) for c in p.hand),
                            "win": p.win,
                            "tie": p.tie,
                            "equity": p.equity,
                            "std_error": p.std_error,
                        }
                        for p in result.players
                    ],
                }
            )
        )
        return 0
    method = f"exact, {result.boards:,} boards" if result.exact else f"Monte Carlo, {result.boards:,} trials"
    board_txt = " ".join(str(c) for c in result.board) or "(none)"
    console.print(f"{result.game.value}, board {board_txt}: {method}", soft_wrap=True)
    table = Table()
    table.add_column("hand")
    table.add_column("win", justify="right")
    table.add_column("tie", justify="right")
    table.add_column("equity", justify="right")
    if not result.exact:
        table.add_column("± s.e.", justify="right")
    for p in result.players:
        row = ["".join(str(c) for c in p.hand), f"{p.win:.4%}", f"{p.tie:.4%}", f"{p.equity:.4%}"]
        if not result.exact:
            row.append(f"{p.std_error:.4%}")
        table.add_row(*row)
    console.print(table)
    return 0


def register(app: typer.Typer) -> None:
    @app.command("equity")
    def equity_command(
        hands: list[str] = typer.Argument(
            ..., help="Two or more hands, e.g. AhKh QsQd (Omaha: 4 or 5 cards each)."
        ),
        board: str = typer.Option("", "--board", "-b", help="Known board cards, e.g. Qh7c2d."),
        dead: str = typer.Option("", "--dead", "-d", help="Dead (folded or exposed) cards."),
        game: str = typer.Option("holdem", "--game", "-g", help="holdem, omaha or omaha-hl."),
        trials: int | None = typer.Option(
            None, "--trials", "-n", help="Monte Carlo trials (forces Monte Carlo)."
        ),
        seed: int | None = typer.Option(None, "--seed", help="Seed for a reproducible Monte Carlo run."),
        exact: bool | None = typer.Option(
            None, "--exact/--monte-carlo", help="Force the method (default: auto)."
        ),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    ) -> None:
        """Win / tie / equity of each hand (exact enumeration or Monte Carlo)."""
        raise typer.Exit(run_equity(hands, board, dead, game, trials, seed, exact, as_json))
