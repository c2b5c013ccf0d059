"""Database plumbing: engine, session factory, naming convention, the DbSession dependency.

One engine per application (kept on app.state) so tests and several apps in one process
never share a pool; the service itself keeps no state beyond the database, which is what
lets several replicas run behind one load balancer.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Depends, Request
from sqlalchemy import JSON, DateTime, Engine, MetaData, TypeDecorator, create_engine, event
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker
from sqlalchemy.pool import NullPool

from bwdoctor.config import Settings, get_settings
from bwdoctor.paths import ensure_sqlite_folder

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING_CONVENTION)

# JSON on SQLite, JSONB on PostgreSQL (indexable, compact).
JsonType = JSON().with_variant(JSONB(), "postgresql")


class Base(DeclarativeBase):
    """Declarative base for every domain's models; shares the naming convention with migrations."""

    metadata = metadata


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def make_engine(url: str, settings: Settings | None = None) -> Engine:
    """An engine tuned per backend: WAL + busy timeout on SQLite; pre-ping and fast connect timeouts
    on PostgreSQL so a database restart heals by itself instead of failing requests forever."""
    settings = settings or get_settings()
    if url.startswith("sqlite"):
        ensure_sqlite_folder(url)  # the default lives in a per-user folder a fresh machine lacks
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 5})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    connect_args: dict[str, Any] = {}
    if "psycopg" in url or url.startswith("postgresql"):
        connect_args["connect_timeout"] = settings.db_connect_timeout_s
    return create_engine(
        url,
        pool_pre_ping=True,
        pool_size=settings.db_pool_size,
        max_overflow=settings.db_max_overflow,
        pool_timeout=10,
        pool_recycle=1800,
        connect_args=connect_args,
    )


def make_async_engine(url: str, settings: Settings | None = None) -> AsyncEngine:
    """An asyncio engine on the same database, for work done on the event loop itself (the report
    writer). No pool: its few long-lived connections must not be shared between event loops."""
    settings = settings or get_settings()
    if url.startswith("sqlite"):
        engine = create_async_engine(
            url.replace("sqlite://", "sqlite+aiosqlite://", 1), poolclass=NullPool, connect_args={"timeout": 5}
        )
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    return create_async_engine(url, poolclass=NullPool, connect_args={"connect_timeout": settings.db_connect_timeout_s})


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    """Sessions that keep loaded objects usable after commit (responses are built after it)."""
    return sessionmaker(bind=engine, expire_on_commit=False)


# Sessions are closed on threads of their own: if closing waited for a request thread while
# every request thread waited for a pooled connection that only a close can return, the
# service would deadlock under load (the classic sync-dependency teardown starvation).
_closer = ThreadPoolExecutor(max_workers=4, thread_name_prefix="db-session-close")


async def get_db(request: Request) -> AsyncIterator[Session]:
    """FastAPI dependency: one session per request; closing it returns its connection to the pool."""
    session = request.app.state.sessionmaker()
    try:
        yield session
    finally:
        if session.in_transaction():
            await asyncio.get_running_loop().run_in_executor(_closer, session.close)
        else:
            session.close()  # holds no connection: nothing to wait for


DbSession = Annotated[Session, Depends(get_db)]


@contextmanager
def session_scope(settings: Settings | None = None, *, migrate: bool = True) -> Iterator[Session]:
    """A committed-or-rolled-back session for the CLI; migrates first so `bwdoctor tokens create`
    works on a fresh clone before the server has ever run."""
    from bwdoctor.migrations import upgrade_database

    settings = settings or get_settings()
    if migrate:
        upgrade_database(settings.database_url)
    engine = make_engine(settings.database_url, settings)
    session = make_sessionmaker(engine)()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()
        engine.dispose()


def is_database_unavailable(exc: BaseException) -> bool:
    """True for errors that mean 'the database is away' (retry later), not 'the request was bad'."""
    if isinstance(exc, PoolTimeoutError | OperationalError):
        return True
    return isinstance(exc, DBAPIError) and bool(exc.connection_invalidated)


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC datetimes on every backend (SQLite drops the offset; this restores it)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def utcnow() -> datetime:
    """The current time, timezone-aware, for every timestamp the service writes."""
    return datetime.now(UTC)


def wait_for_database(url: str, timeout_s: float = 60.0, interval_s: float = 1.0) -> None:
    """Block until the database accepts connections (a container may start before its database)."""
    import logging
    import time

    from sqlalchemy import text

    log = logging.getLogger("bwdoctor.database")
    engine = make_engine(url)
    deadline = time.monotonic() + timeout_s
    try:
        while True:
            try:
                with engine.connect() as connection:
                    connection.execute(text("SELECT 1"))
                return
            except OperationalError as exc:
                if time.monotonic() >= deadline:
                    raise
                log.info("waiting for the database: %s", str(exc).splitlines()[0])
                time.sleep(interval_s)
    finally:
        engine.dispose()
