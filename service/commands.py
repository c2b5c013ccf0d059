"""The service's `bwdoctor` commands (serve, tokens, preflight), registered on the lead's click group.

Kept apart from service/cli.py so the CLI stays thin and each side can change independently.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


def _fail(message: str, code: int) -> None:
    click.echo(f"bwdoctor: error: {message}", err=True)
    sys.exit(code)


@contextlib.contextmanager
def _plain_errors() -> Iterator[None]:
    """Settings or database trouble as one line and an exit status, never a traceback: 2 for
    settings to fix, 1 for a database that cannot be used as configured (down, unwritable)."""
    from pydantic import ValidationError
    from sqlalchemy.exc import SQLAlchemyError

    try:
        yield
    except ValidationError as exc:  # the values themselves are not echoed: a URL may hold a password
        problems = "; ".join(
            f"BWDOCTOR_{'_'.join(map(str, e['loc'])).upper()}: {e['msg'].removeprefix('Value error, ')}"
            for e in exc.errors()
        )
        _fail(f"settings: {problems}", 2)
    except SQLAlchemyError as exc:
        from sqlalchemy.engine import make_url

        from service.config import get_settings

        shown = make_url(get_settings().database_url).render_as_string(hide_password=True)
        reason = (str(getattr(exc, "orig", None) or exc).strip().splitlines() or ["unknown error"])[0]
        _fail(f"cannot use the database {shown}: {reason}", 1)


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
    from service.main import run_server

    with _plain_errors():
        _say_where(f"serving http://{f'[{host}]' if ':' in host else host}:{port}/")
        run_server(host, port, workers=workers, log_level=log_level, access_log=access_log)


@click.group()
def tokens() -> None:
    """Probe tokens: create (printed once), list, revoke."""


def _say_where(first: str | None = None) -> None:
    """Name the database a command uses (password masked): two folders, one database, visibly."""
    from service.config import get_settings
    from service.paths import shown_database_url

    if first:
        click.echo(f"bwdoctor: {first}")
    click.echo(f"bwdoctor: database {shown_database_url(get_settings().database_url)}")


def _token_session() -> contextlib.AbstractContextManager[Session]:
    from service.database import session_scope

    _say_where()
    return session_scope()


@tokens.command("create")
@click.argument("name")
@click.option("--node", "node_id", default=None, help="Bind the token to this node id: it may write no other node.")
@click.option("--cluster", default=None, help="Bind the token to this cluster: it may write only that cluster's nodes.")
def tokens_create(name: str, node_id: str | None, cluster: str | None) -> None:
    """Issue a probe token; the token is the last line of output (store it now: it is kept hashed).

    Without --node or --cluster the token may write any node's reports (fine for a small setup);
    bound, a leaked token cannot overwrite the rest of the fleet (403).
    """
    from service.tokens.service import TokenError, create_token

    if node_id and cluster:
        _fail("give --node or --cluster, not both", 2)
    try:
        with _plain_errors(), _token_session() as db_session:
            token = create_token(name, db_session=db_session, node_id=node_id, cluster=cluster)
    except TokenError as exc:
        _fail(str(exc), 2)
    bound = f" (node {node_id})" if node_id else f" (cluster {cluster})" if cluster else ""
    click.echo(f"token {name!r}{bound} created; it is shown only once. Probes send it as AGENT_PROBE_TOKEN:")
    click.echo(token)


@tokens.command("list")
def tokens_list() -> None:
    """Every token with its state (the secrets themselves cannot be shown)."""
    from service.tokens.service import list_tokens

    with _plain_errors(), _token_session() as db_session:
        rows = list_tokens(db_session=db_session)
    if not rows:
        click.echo("no tokens; create one with: bwdoctor tokens create NAME")
    for row in rows:
        state = "active" if row.active else f"revoked {row.revoked_at:%Y-%m-%d %H:%M:%S}"
        click.echo(f"{row.name}\tcreated {row.created_at:%Y-%m-%d %H:%M:%S}\t{state}\t{row.scope}")


@tokens.command("revoke")
@click.argument("name")
def tokens_revoke(name: str) -> None:
    """Revoke a token: probes using it get 401 from then on."""
    from service.tokens.service import TokenError, revoke_token

    try:
        with _plain_errors(), _token_session() as db_session:
            changed = revoke_token(name, db_session=db_session)
    except TokenError as exc:
        _fail(str(exc), 2)
    click.echo(f"token {name!r} revoked" if changed else f"token {name!r} was already revoked")


@click.command()
@click.argument("job_file", metavar="JOB_FILE")
@click.option("--server", default=None, help="Service URL: check against its live cluster facts.")
@click.option("--cluster", default=None, help="Cluster name (needs --server).")
@click.option("--fail-on", type=click.Choice(["warning", "critical"]), default="warning", show_default=True)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json", "junit", "github"]), default="text", show_default=True
)
@click.option("--lang", type=click.Choice(["en", "zh"]), default="en", show_default=True)
@click.option("--strict", is_flag=True, help="Unknown fact names are an error (exit 2), not a warning.")
def preflight(
    job_file: str, server: str | None, cluster: str | None, fail_on: str, fmt: str, lang: str, strict: bool
) -> None:
    """Pre-flight check of a planned job. Exit: 0 pass, 1 error, 2 bad input, 3 critical, 4 warning."""
    from service.preflight.cli import preflight_command

    sys.exit(preflight_command(job_file, server, cluster, fail_on, fmt, lang, strict=strict))


def register_service_commands(group: click.Group) -> None:
    """Add serve, tokens and preflight to the `bwdoctor` group (unless it already has them)."""
    from service.jobs.cli import jobs

    for command in (serve, tokens, preflight, jobs):
        if command.name not in group.commands:
            group.add_command(command)
