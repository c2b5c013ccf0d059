"""Hardening tests use the service's database fixtures: SQLite, and PostgreSQL when configured."""

from tests.service.conftest import (  # noqa: F401  (shared fixtures)
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
from tests.slack.conftest import fake_slack, slack_settings_factory  # noqa: F401, E402  (Slack's, for the chat limits)
