"""The database fixtures every folder shares (registered by tests/conftest.py): every database test runs on
SQLite and, when BWDOCTOR_TEST_DATABASE_URL is set, on PostgreSQL too (a schema of its own per test
session, tables emptied per test); `app`, `client`, `settings`, `db_session`, a probe `token` and its `auth`."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session

from bwdoctor.config import Settings
from bwdoctor.database import make_engine, make_sessionmaker, metadata
from bwdoctor.main import create_app
from bwdoctor.migrations import upgrade_database
from bwdoctor.tokens.service import create_token
from tests import prereqs

PG_URL = os.environ.get("BWDOCTOR_TEST_DATABASE_URL", "")
BACKENDS = ["sqlite"] + (["postgres"] if PG_URL else [])


def with_search_path(url: str, schema: str) -> str:
    """The URL with every connection's search_path set to `schema` (isolation on a shared server)."""
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"


@contextmanager
def pg_schema(prefix: str = "bwd_test", revision: str = "head") -> Iterator[str]:
    """A fresh schema on the test PostgreSQL, migrated to `revision`, dropped afterwards."""
    if not PG_URL:
        prereqs.require(prereqs.POSTGRES)
    schema = f"{prefix}_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = with_search_path(PG_URL, schema)
    upgrade_database(url, revision)
    try:
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(scope="session")
def pg_schema_url() -> Iterator[str]:
    """A fresh, migrated schema on the test PostgreSQL for this session, dropped afterwards."""
    with pg_schema() as url:
        yield url


@pytest.fixture(scope="session")
def sqlite_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'bwdoctor.db'}"
    upgrade_database(url)
    return url


def _clean(url: str) -> None:
    db = create_engine(url)
    with db.begin() as conn:
        for table in reversed(metadata.sorted_tables):
            conn.execute(table.delete())
    db.dispose()


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest) -> str:
    """A migrated, empty database: SQLite, and PostgreSQL when configured."""
    url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_schema_url")
    _clean(url)
    return url


@pytest.fixture
def settings_factory(database_url: str) -> Callable[..., Settings]:
    def make(**overrides: Any) -> Settings:
        values = {"database_url": database_url, "migrate_on_start": False, "prune_interval_s": 3600.0}
        values.update(overrides)
        return Settings(_env_file=None, **values)  # type: ignore[call-arg]

    return make


@pytest.fixture
def settings(settings_factory: Callable[..., Settings]) -> Settings:
    return settings_factory()


@pytest.fixture
def app(settings: Settings, engine: Any) -> Any:
    return create_app(settings, engine=engine)


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture
def db_session(database_url: str) -> Iterator[Session]:
    db = make_engine(database_url, Settings(_env_file=None, database_url=database_url))  # type: ignore[call-arg]
    session = make_sessionmaker(db)()
    try:
        yield session
    finally:
        session.close()
        db.dispose()


@pytest.fixture
def token(db_session: Session) -> str:
    value = create_token(f"probe-{uuid.uuid4().hex[:6]}", db_session=db_session)
    db_session.commit()
    return value


@pytest.fixture
def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
