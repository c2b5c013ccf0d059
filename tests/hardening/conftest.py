"""Hardening tests use the shared database fixtures (tests/db_fixtures.py, registered by tests/conftest.py)
and Slack's."""

from tests.slack.conftest import fake_slack, slack_settings_factory  # noqa: F401  (Slack's, for the chat limits)
