"""Reports stored before the input bounds (issue 14, defect 2): a fact the service now refuses, already
in the database, never breaks a read (node, cluster, preflight, the diagnoser), and migration
0005_hardening rewrites such rows without it. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime

import pytest
from sqlalchemy import create_engine, text

from bwdoctor.migrations import upgrade_database
from tests.db_fixtures import PG_URL, pg_schema

POISON = {
    "node.cluster": "c1",
    "job.model_params_b": 1e308,  # PostgreSQL's jsonb gives this back as a 309-digit integer
    "job.precision": "bf16",
    "job.nodes": 2,
    "nic.speed_gbps": 100,
    "foo.huge": 10**40,
    "foo.fine": 7,
}


def insert_report(url: str, node: str, facts: dict, *, cluster: str = "c1") -> None:
    """A node and its latest report written straight into the tables, as an older version stored them."""
    db = create_engine(url)
    now = datetime.now(UTC)
    facts_sql = "CAST(:facts AS jsonb)" if db.dialect.name == "postgresql" else ":facts"
    with db.begin() as conn:
        conn.execute(
            text("INSERT INTO nodes (id, cluster, first_seen, last_seen) VALUES (:id, :cluster, :now, :now)"),
            {"id": node, "cluster": cluster, "now": now},
        )
        pk = conn.execute(
            text(
                "INSERT INTO reports (node_id, report_id, collected_at, received_at, facts) "
                f"VALUES (:node, :rid, :now, :now, {facts_sql}) RETURNING pk"
            ),
            {"node": node, "rid": uuid.uuid4().hex, "now": now, "facts": json.dumps(facts)},
        ).scalar_one()
        conn.execute(
            text("UPDATE nodes SET latest_report_pk = :pk, latest_collected_at = :now WHERE id = :id"),
            {"pk": pk, "now": now, "id": node},
        )
    db.dispose()


def test_every_read_survives_a_poisoned_stored_report(client, database_url):
    insert_report(database_url, "n1", POISON)
    node = client.get("/api/v1/nodes/n1")
    assert node.status_code == 200, node.text
    facts = node.json()["latest"]["facts"]
    assert "job.model_params_b" not in facts and "foo.huge" not in facts and facts["foo.fine"] == 7
    for path in ("/nodes/n1", "/clusters/c1", "/api/v1/clusters/c1/diagnosis", "/api/v1/nodes?cluster=c1"):
        assert client.get(path).status_code == 200, path
    response = client.post("/api/v1/preflight", json={"cluster": "c1", "job": {"job.nodes": 2}})
    assert response.status_code == 200, response.text


def test_the_background_diagnoser_survives_a_poisoned_report(app, database_url):
    from bwdoctor.nodes.service import diagnose_report

    insert_report(database_url, "n1", POISON)
    with app.state.sessionmaker() as db_session:
        pk = db_session.execute(text("SELECT latest_report_pk FROM nodes WHERE id = 'n1'")).scalar_one()
        findings = diagnose_report(pk, db_session=db_session, engine=app.state.engine)
    assert isinstance(findings, list)


@pytest.fixture(params=["sqlite"] + (["postgres"] if PG_URL else []))
def url_before_hardening(request, tmp_path):
    """A database at the migration before 0005_hardening (dropped afterwards)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.db'}"
        upgrade_database(url, "0004_cluster_jobs")
        yield url
        return
    with pg_schema("bwd_old", "0004_cluster_jobs") as url:
        yield url


def test_the_migration_cleans_poisoned_rows_and_keeps_good_ones(url_before_hardening):
    url = url_before_hardening
    insert_report(url, "n1", POISON)
    insert_report(url, "n2", {"node.cluster": "c1", "foo.big_but_fine": 2**63 - 1, "job.nodes": 4}, cluster="c1")
    upgrade_database(url)
    db = create_engine(url)
    with db.connect() as conn:
        rows = dict(conn.execute(text("SELECT node_id, facts FROM reports")).all())
    db.dispose()
    cleaned = {k: json.loads(v) if isinstance(v, str) else v for k, v in rows.items()}
    assert cleaned["n1"] == {
        "node.cluster": "c1",
        "job.precision": "bf16",
        "job.nodes": 2,
        "nic.speed_gbps": 100,
        "foo.fine": 7,
    }
    assert cleaned["n2"]["foo.big_but_fine"] == 2**63 - 1
