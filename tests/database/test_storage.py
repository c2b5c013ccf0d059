"""Migrations, retention, settings, session_scope and conversation storage."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from pydantic import ValidationError
from sqlalchemy import create_engine, inspect, select

from bwdoctor.config import Settings
from bwdoctor.conversations import service as conversations
from bwdoctor.database import metadata, session_scope
from bwdoctor.migrations import upgrade_database
from bwdoctor.nodes.models import Report
from bwdoctor.nodes.service import ingest_report, prune_reports


def test_migrations_match_the_models(database_url):
    db = create_engine(database_url)
    with db.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), metadata) == []
        assert {"nodes", "reports", "probe_tokens", "conversations", "turns"} <= set(inspect(conn).get_table_names())
    db.dispose()


def test_fresh_sqlite_file_is_created_and_migrated_twice_safely(tmp_path):
    url = f"sqlite:///{tmp_path / 'new.db'}"
    upgrade_database(url)
    upgrade_database(url)
    assert (tmp_path / "new.db").exists()
    with session_scope(Settings(_env_file=None, database_url=url)) as db_session:
        assert db_session.scalar(select(Report.pk)) is None


def test_retention_prunes_old_reports_but_keeps_each_nodes_latest(db_session):
    now = datetime.now(UTC)
    ingest_report("a", {"x.v": 1}, db_session=db_session, report_id="old1", collected_at=now - timedelta(days=40))
    ingest_report("a", {"x.v": 2}, db_session=db_session, report_id="old2", collected_at=now - timedelta(days=35))
    ingest_report("a", {"x.v": 3}, db_session=db_session, report_id="new", collected_at=now - timedelta(days=1))
    ingest_report("b", {"x.v": 4}, db_session=db_session, report_id="only", collected_at=now - timedelta(days=90))
    removed = prune_reports(db_session=db_session, older_than=now - timedelta(days=30))
    assert removed == 2
    left = sorted(db_session.scalars(select(Report.report_id)))
    assert left == ["new", "only"]


def test_retention_prunes_in_batches_until_nothing_old_is_left(db_session):
    now = datetime.now(UTC)
    for i in range(7):
        old = now - timedelta(days=40 + i)
        ingest_report("a", {"x.v": i}, db_session=db_session, report_id=f"old{i}", collected_at=old)
    ingest_report("a", {"x.v": 9}, db_session=db_session, report_id="new", collected_at=now)
    removed = prune_reports(db_session=db_session, older_than=now - timedelta(days=30), batch_size=3)
    assert removed == 7
    assert list(db_session.scalars(select(Report.report_id))) == ["new"]
    assert prune_reports(db_session=db_session, older_than=now - timedelta(days=30), batch_size=3) == 0


def test_settings_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("BWDOCTOR_DATABASE_URL", "postgresql+psycopg://u@h/db")
    monkeypatch.setenv("BWDOCTOR_RULES_DIRS", f"{tmp_path}/a::{tmp_path}/b")
    monkeypatch.setenv("BWDOCTOR_SLACK_SIGNING_SECRET", "s3cret")
    monkeypatch.setenv("BWDOCTOR_RETENTION_DAYS", "7")
    settings = Settings(_env_file=None)
    assert settings.database_url == "postgresql+psycopg://u@h/db"
    assert settings.rules_dir_paths == [tmp_path / "a", tmp_path / "b"]
    assert settings.retention_days == 7
    assert settings.slack.signing_secret.get_secret_value() == "s3cret"
    assert "s3cret" not in repr(settings) and "s3cret" not in str(settings.model_dump())
    (tmp_path / ".env").write_text("BWDOCTOR_STALE_AFTER_S=60\n")
    assert Settings(_env_file=tmp_path / ".env").stale_after_s == 60
    monkeypatch.setenv("BWDOCTOR_RETENTION_DAYS", "-1")
    with pytest.raises(ValueError):
        Settings(_env_file=None)


def test_default_database_is_an_sqlite_file(monkeypatch):
    monkeypatch.delenv("BWDOCTOR_DATABASE_URL", raising=False)
    assert Settings(_env_file=None).database_url.startswith("sqlite:///")


def test_conversation_turns_carry_facts(db_session):
    cid = conversations.create_conversation(db_session=db_session)
    assert conversations.previous_state(cid, db_session=db_session) == ({}, [])
    seq1 = conversations.add_turn(
        cid, db_session=db_session, question="8 nodes, 10GbE", language="en",
        facts={"job.nodes": 8, "nic.speed_gbps": 10}, answer="…", findings=[{"category": "nic-undersized"}],
    )  # fmt: skip
    seq2 = conversations.add_turn(
        cid, db_session=db_session, question="单机呢？", language="zh",
        facts={"job.nodes": 1, "nic.speed_gbps": 10}, answer="…", findings=[],
    )  # fmt: skip
    assert (seq1, seq2) == (1, 2)
    facts, findings = conversations.previous_state(cid, db_session=db_session)
    assert facts == {"job.nodes": 1, "nic.speed_gbps": 10} and findings == []
    stored = conversations.get_conversation(cid, db_session=db_session)
    assert [t.language for t in stored.turns] == ["en", "zh"] and stored.turns[1].question == "单机呢？"
    with pytest.raises(conversations.ConversationNotFound):
        conversations.previous_state("nope", db_session=db_session)


def test_conversation_api_404(client):
    r = client.get("/api/v1/conversations/nope")
    assert r.status_code == 404 and r.json()["error"]["code"] == "conversation_not_found"


def test_database_urls_hosting_panels_print_are_taken_and_others_refused():
    def url(value: str) -> str:
        return Settings(_env_file=None, database_url=value).database_url

    assert url("postgres://u:p@db:5432/bwd") == "postgresql+psycopg://u:p@db:5432/bwd"
    assert url("postgresql://u@db/bwd?sslmode=require") == "postgresql+psycopg://u@db/bwd?sslmode=require"
    assert url("sqlite:///bwdoctor.db") == "sqlite:///bwdoctor.db"
    refused = (("mysql://u@db/bwd", "'mysql' databases are not supported"), ("db.example", "not a database URL"))
    for bad, says in refused:
        with pytest.raises(ValidationError, match=says):
            url(bad)
