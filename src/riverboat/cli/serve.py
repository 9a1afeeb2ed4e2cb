"""``riverboat serve``: run the room on http://127.0.0.1:8000 with SQLite, demo tables and bots."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="TCP port (0 = any free port).")] = 8000,
        database_url: Annotated[str | None, typer.Option(
            "--database-url", help="SQLAlchemy URL; default $RIVERBOAT_DATABASE_URL or a SQLite file in the "
            "user data directory.")] = None,
        no_demo: Annotated[bool, typer.Option("--no-demo", help="Open no demo tables and start no bots.")] = False,
        tables: Annotated[Path | None, typer.Option(
            help="JSON list of tables to open instead of the demo tables (see riverboat.server.demo).")] = None,
        bots: Annotated[bool, typer.Option(help="Seat the demo bots given in the table list.")] = True,
        signup_play_chips: Annotated[int, typer.Option(
            help="Play money credited to every new account (minor units).")] = 1_000_000,
        login_rate: Annotated[float, typer.Option(
            help="Logins (and registrations) per second allowed per client address (burst 20).")] = 0.5,
        frame_rate: Annotated[float, typer.Option(
            help="WebSocket frames per second allowed per connection (burst 40).")] = 20.0,
        log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "warning",
        role: Annotated[str, typer.Option(
            help="all: the whole room in this process (default). gateway: HTTP + WebSocket, no tables. tables: "
            "a table host (only /health over HTTP; /metrics on --metrics-port). Split roles need NATS and PostgreSQL "
            "(docs/cluster.md).")] = "all",
        nats_url: Annotated[str, typer.Option(help="NATS server (roles gateway and tables).")] = (
            "nats://127.0.0.1:4222"),
        node_id: Annotated[str | None, typer.Option(
            help="This node's id in the cluster (default: role-host-pid-random).")] = None,
        cluster: Annotated[str, typer.Option(
            help="The room's name on NATS: its subjects and buckets start with it (rooms that share a NATS server "
            "need different names).")] = "rb",
        cash_out_on_crash: Annotated[bool | None, typer.Option(
            "--cash-out-on-crash/--no-cash-out-on-crash",
            help="R-SERVER-3 room flag: after a crash (role all: the next start; role tables: a lost host) return "
            "the table stacks to the balances instead of reopening the tables with their players and stacks. A "
            "table's own cash_out_on_crash setting wins. Default: on for role all, off for role tables.")] = None,
        integrity_scan_every: Annotated[float, typer.Option(
            help="Seconds between integrity scans of the stored hands, in a worker process (0 = none; "
            "docs/integrity.md).")] = 3600.0,
        delivery_window_ms: Annotated[float | None, typer.Option(
            help="Role tables: the host sends its tables' frames to each gateway at most once per this many "
            "milliseconds, in one NATS message (0: at every event-loop turn; default 20). Under load: fewer "
            "messages per action for up to that much more latency (docs/cluster.md).", min=0.0, max=1000.0)] = None,
        command_window_ms: Annotated[float | None, typer.Option(
            help="Role gateway: the gateway sends its players' commands to the table hosts at most once per this "
            "many milliseconds, in one NATS write (0: at every event-loop turn; default 10). Under load: fewer "
            "writes per action for up to that much more latency (docs/cluster.md).", min=0.0, max=1000.0)] = None,
        metrics_host: Annotated[str, typer.Option(
            help="Roles gateway and tables: the address of the node's /metrics listener (not the public port; "
            "loopback by default).")] = "127.0.0.1",
        metrics_port: Annotated[int, typer.Option(
            help="Roles gateway and tables: the port of the node's /metrics listener (0 = any free port, named by "
            "the node's /health).", min=0, max=65535)] = 0,
        twister: Annotated[Path | None, typer.Option(
            help="The Twister section's settings: a JSON file of TwisterSettings fields plus currency, "
            "table_settings and fill_bots (docs/twister.md).")] = None,
        forwarded_allow_ips: Annotated[str | None, typer.Option(
            help="Behind a reverse proxy that ends TLS: the proxy addresses (comma-separated, '*' for any) whose "
            "X-Forwarded-Proto and X-Forwarded-For are believed; HTTPS requests then get HSTS (docs/security.md). "
            "Default: $FORWARDED_ALLOW_IPS or 127.0.0.1.")] = None,
        money: Annotated[Path | None, typer.Option(
            help="Money settings: a JSON file {\"cooling_off_hours\": 24, \"four_eyes_above\": 50000, "
            "\"payments\": {\"fake\": {\"secret\": \"...\"}}} (docs/payments.md). Default: the demo room has the fake "
            "payment provider; a room with --tables or --no-demo has none.")] = None,
        console_port: Annotated[int | None, typer.Option(
            help="Serve the operator console and the staff API on this port only (not on --port), and let staff "
            "log in only there (docs/security.md).")] = None,
        console_host: Annotated[str, typer.Option(
            help="Address of the console's listener (loopback by default: reach it over SSH or a VPN).")] = (
            "127.0.0.1"),
        staff_session_minutes: Annotated[float, typer.Option(
            help="How long a staff session lasts (players' sessions last 12 hours).", min=1.0)] = 120.0,
        lockout_after: Annotated[int, typer.Option(
            help="Wrong passwords in a row that lock an account (per account, whatever the address).", min=1)] = 10,
        lockout_minutes: Annotated[float, typer.Option(
            help="How long a locked account stays locked (staff can release it sooner).", min=0.0)] = 15.0,
    ) -> None:
        """Start the poker room server: REST + WebSocket + the browser client. Ctrl-C stops it cleanly."""
        from typing import Any

        from riverboat.bots.demo import BaseUrls, DemoBots, start_demo_bots
        from riverboat.server.launch import LaunchOptions, launch, run_loop

        options = LaunchOptions(
            host=host,
            port=port,
            database_url=database_url,
            demo=not no_demo,
            tables_file=tables,
            bots=bots,
            signup_play_chips=signup_play_chips,
            login_rate=login_rate,
            frame_rate=frame_rate,
            log_level=log_level,
            role=role,
            nats_url=nats_url,
            node_id=node_id,
            cluster=cluster,
            cash_out_on_crash=cash_out_on_crash,
            integrity_scan_every=integrity_scan_every,
            twister_file=twister,
            money_file=money,
            delivery_window_ms=delivery_window_ms,
            command_window_ms=command_window_ms,
            forwarded_allow_ips=forwarded_allow_ips,
            console_port=console_port,
            console_host=console_host,
            staff_session_minutes=staff_session_minutes,
            lockout_after=lockout_after,
            lockout_minutes=lockout_minutes,
            metrics_host=metrics_host,
            metrics_port=metrics_port,
        )
        if role not in ("all", "gateway", "tables"):
            typer.echo(f"riverboat serve: --role must be all, gateway or tables, not {role!r}", err=True)
            raise typer.Exit(2)
        running: list[DemoBots] = []
        stop_requested: list[bool] = []

        async def started(base: BaseUrls, store: Any, opened: list[tuple[str, dict[str, Any]]]) -> None:
            demo = await start_demo_bots(base, store, opened)
            running.append(demo)
            if stop_requested:  # the signal came while the bots were being seated: they stop at once (issue #16)
                demo.stop()

        def stopping() -> None:
            stop_requested.append(True)
            for demo in running:
                demo.stop()

        try:
            if role == "gateway":
                from riverboat.server.cluster_launch import launch_gateway

                run_loop(launch_gateway(options, echo=typer.echo))
            elif role == "tables":
                from riverboat.server.cluster_launch import launch_tables

                run_loop(launch_tables(options, echo=typer.echo, started=started, stopping=stopping))
            else:
                run_loop(launch(options, echo=typer.echo, started=started, stopping=stopping))
        except (ValueError, OSError) as exc:
            typer.echo(f"riverboat serve: {exc}", err=True)
            raise typer.Exit(2) from None
