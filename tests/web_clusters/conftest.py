"""Cluster-view test fixtures: the service test fixtures (SQLite, and PostgreSQL when
BWDOCTOR_TEST_DATABASE_URL is set) plus helpers that feed a cluster with probe reports."""

from __future__ import annotations

from tests.service.conftest import (  # noqa: F401  (fixtures, registered by import)
    app,
    auth,
    client,
    database_url,
    db_session,
    engine,
    pg_schema_url,
    settings,
    settings_factory,
    sqlite_url,
    token,
)
