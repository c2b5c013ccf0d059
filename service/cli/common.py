"""What every `bwdoctor` command shares: one way to fail, read input, load the engine and reach the database.

Exit codes: 0 success, 1 unexpected error (or failed lint/tests), 2 bad input or usage.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from bwdoctor.engine import Engine, RuleLoadError, load_engine

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

LANGS = click.Choice(["en", "zh"])


def fail(message: str, code: int = 2) -> NoReturn:
    """One line on stderr and the exit status: 2 for input to fix, 1 for anything else."""
    click.echo(f"bwdoctor: error: {message}", err=True)
    sys.exit(code)


def warn_unknown(unknown: list[Any], strict: bool) -> None:
    """Name each unknown fact (a typo every rule ignores); with --strict they are an error, exit 2."""
    for item in unknown:
        click.echo(f"bwdoctor: {'error' if strict else 'warning'}: {item.message(ignored=not strict)}", err=True)
    if strict and unknown:
        sys.exit(2)


def read_document(source: str, what: str = "facts") -> Any:
    """A JSON or YAML document from a file or `-` (stdin); a one-line error when it is not one."""
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"cannot read {what} from {source}: {getattr(exc, 'strerror', None) or exc}")
    if not text.strip():
        fail(f"{what} input is empty: give a JSON or YAML object of fact name → value")
    from bwdoctor.documents import DocumentError, parse_document

    try:
        return parse_document(text, what=f"{what} input")
    except DocumentError as exc:
        fail(str(exc))


def engine_or_exit() -> Engine:
    try:
        return load_engine()
    except RuleLoadError as exc:
        fail(f"rules: {exc}", 1)


@contextlib.contextmanager
def plain_errors() -> Iterator[None]:
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
        fail(f"settings: {problems}", 2)
    except SQLAlchemyError as exc:
        from sqlalchemy.engine import make_url

        from bwdoctor.config import get_settings

        shown = make_url(get_settings().database_url).render_as_string(hide_password=True)
        reason = (str(getattr(exc, "orig", None) or exc).strip().splitlines() or ["unknown error"])[0]
        fail(f"cannot use the database {shown}: {reason}", 1)


def say_where(first: str | None = None) -> None:
    """Name the database a command uses (password masked): two folders, one database, visibly."""
    from bwdoctor.config import get_settings
    from bwdoctor.paths import shown_database_url

    if first:
        click.echo(f"bwdoctor: {first}")
    click.echo(f"bwdoctor: database {shown_database_url(get_settings().database_url)}")


def db_session() -> contextlib.AbstractContextManager[Session]:
    """A session on the service's database, after naming it."""
    from bwdoctor.database import session_scope

    say_where()
    return session_scope()
