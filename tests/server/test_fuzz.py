"""Schema-driven fuzzing (schemathesis over the OpenAPI): nothing a client sends produces a 500,
and every error is the JSON error shape. Runs on SQLite, and on PostgreSQL when configured."""

from __future__ import annotations

import atexit
import shutil
import tempfile
import uuid
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from sqlalchemy import create_engine, text

from bwdoctor.config import Settings
from bwdoctor.database import session_scope
from bwdoctor.engine import load_engine
from bwdoctor.main import create_app
from bwdoctor.tokens.service import create_token
from tests import prereqs
from tests.db_fixtures import PG_URL, with_search_path
from tests.prereqs import needs


def _fuzz_target(url: str) -> tuple[object, str]:
    """An app on a migrated database of its own, and a probe token for it."""
    settings = Settings(_env_file=None, database_url=url, migrate_on_start=False, diagnose_reports=False)
    with session_scope(settings) as db_session:
        token = create_token("fuzz", db_session=db_session)
    return create_app(settings, engine=load_engine(extra_dirs=[])), token


_tmp = Path(tempfile.mkdtemp(prefix="bwd-fuzz-"))
atexit.register(shutil.rmtree, _tmp, ignore_errors=True)
sqlite_app, sqlite_token = _fuzz_target(f"sqlite:///{_tmp / 'fuzz.db'}")
sqlite_schema = schemathesis.openapi.from_asgi("/openapi.json", sqlite_app)

if PG_URL:
    _schema_name = f"bwd_fuzz_{uuid.uuid4().hex[:8]}"
    _admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with _admin.connect() as _conn:
        _conn.execute(text(f'CREATE SCHEMA "{_schema_name}"'))

    def _drop() -> None:
        with _admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{_schema_name}" CASCADE'))

    atexit.register(_drop)
    pg_app, pg_token = _fuzz_target(with_search_path(PG_URL, _schema_name))
    pg_schema = schemathesis.openapi.from_asgi("/openapi.json", pg_app)
else:
    pg_schema, pg_token = sqlite_schema, ""


def check(case, token: str) -> None:
    headers = {"Authorization": f"Bearer {token}"} if case.method == "PUT" else None
    response = case.call(headers=headers)
    # 503 is a deliberate answer (a dependency is away or an integration is not configured), never a crash.
    assert response.status_code < 500 or response.status_code == 503, (response.status_code, response.text[:500])
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"error"} and {"code", "message", "details"} <= set(body["error"]), body


FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


@sqlite_schema.parametrize()
@FUZZ
def test_no_request_produces_a_server_error_sqlite(case):
    check(case, sqlite_token)


@pytest.mark.postgres
@needs(prereqs.POSTGRES)
@pg_schema.parametrize()
@FUZZ
def test_no_request_produces_a_server_error_postgres(case):
    check(case, pg_token)
