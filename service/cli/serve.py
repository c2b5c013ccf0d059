"""`bwdoctor serve`: the service (API, web chat, Slack) under uvicorn; migrates the database first."""

from __future__ import annotations

import click

from bwdoctor.cli.common import plain_errors, say_where


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64), help="Worker processes.")
@click.option(
    "--log-level",
    default="info",
    show_default=True,
    type=click.Choice(["critical", "error", "warning", "info", "debug"]),
)
@click.option(
    "--access-log/--no-access-log",
    default=True,
    show_default=True,
    help="One log line per request; a fleet's probes make a thousand a second, so large fleets turn it off.",
)
def serve(host: str, port: int, workers: int, log_level: str, access_log: bool) -> None:
    """Run the service (API, web chat, Slack); migrates the database first."""
    from bwdoctor.main import run_server

    with plain_errors():
        say_where(f"serving http://{f'[{host}]' if ':' in host else host}:{port}/")
        run_server(host, port, workers=workers, log_level=log_level, access_log=access_log)
