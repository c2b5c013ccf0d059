"""Storing reports in batches (ingest.py), the group-commit writer and the background diagnoser,
on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from bwdoctor.config import Settings
from bwdoctor.database import make_async_engine, make_engine, make_sessionmaker
from bwdoctor.errors import ServiceUnavailable, Unauthorized
from bwdoctor.metrics import INGEST_BATCH
from bwdoctor.nodes.diagnoser import ReportDiagnoser
from bwdoctor.nodes.ingest import NewReport, ingest_batch
from bwdoctor.nodes.models import Node, Report
from bwdoctor.nodes.writer import ReportWriter
from bwdoctor.tokens.models import ProbeToken
from bwdoctor.tokens.service import hash_token, revoke_token
from tests.helpers import assert_error_shape

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def _store(database_url: str, reports: list[NewReport]):
    db = make_engine(database_url, Settings(_env_file=None, database_url=database_url))  # type: ignore[call-arg]
    try:
        with db.begin() as connection:
            return ingest_batch(connection, reports)
    finally:
        db.dispose()


def test_a_batch_stores_new_reports_and_names_duplicates(database_url, db_session):
    _store(database_url, [NewReport("a", {"x.v": 0}, "old", T0)])
    results = _store(
        database_url,
        [
            NewReport("b", {"node.zone": "z1", "node.cluster": "c"}, "b1", T0),
            NewReport("a", {"x.v": 1}, "a1", T0 + timedelta(minutes=1)),
            NewReport("a", {"x.v": 1}, "a1", T0 + timedelta(minutes=1)),  # a retry within the batch
            NewReport("a", {"x.v": 0}, "old", T0),  # already stored
            NewReport("b", {"node.zone": "z2"}, "b2", T0 + timedelta(minutes=2)),
        ],
    )
    assert [(r.ack.node_id, r.ack.report_id, r.ack.duplicate) for r in results] == [
        ("b", "b1", False),
        ("a", "a1", False),
        ("a", "a1", True),
        ("a", "old", True),
        ("b", "b2", False),
    ]
    assert results[1].report_pk == results[2].report_pk
    assert results[3].ack.collected_at == T0
    stored = db_session.execute(select(Report.node_id, Report.report_id).order_by(Report.pk)).all()
    assert sorted(stored) == [("a", "a1"), ("a", "old"), ("b", "b1"), ("b", "b2")]
    b = db_session.get(Node, "b")
    # The later report's placement wins; a report without a placement fact keeps the old one.
    assert (b.zone, b.cluster) == ("z2", "c")
    assert b.latest_report_pk == results[4].report_pk
    assert db_session.get(Node, "a").latest_report_pk == results[1].report_pk


def test_a_late_report_does_not_move_the_latest_pointer_back(database_url, db_session):
    (new,) = _store(database_url, [NewReport("n", {"x.v": 2}, "new", T0 + timedelta(hours=1))])
    (late,) = _store(database_url, [NewReport("n", {"x.v": 1}, "late", T0)])
    assert late.ack.duplicate is False
    node = db_session.get(Node, "n")
    assert node.latest_report_pk == new.report_pk
    assert node.latest_collected_at == T0 + timedelta(hours=1)


def _writer(database_url: str, **kwargs) -> ReportWriter:
    settings = Settings(_env_file=None, database_url=database_url)  # type: ignore[call-arg]
    return ReportWriter(make_async_engine(database_url, settings), **kwargs)


def test_many_concurrent_reports_are_committed_together_and_each_answered(database_url, db_session, token):
    revoked_token = "bwd_revoked-one"
    writer = _writer(database_url)
    batches_before = _batches()

    async def main():
        good = [
            writer.store(NewReport(f"n{i % 7}", {"x.v": i}, f"r{i}"), token_hash=hash_token(token), timeout_s=30)
            for i in range(200)
        ]
        bad = writer.store(NewReport("intruder", {"x.v": 1}, "r0"), token_hash=hash_token(revoked_token), timeout_s=30)
        try:
            return await asyncio.gather(*good, bad, return_exceptions=True)
        finally:
            await writer.stop()

    *stored, refused = asyncio.run(main())
    assert all(not isinstance(r, BaseException) and r.ack.duplicate is False for r in stored), stored[:3]
    assert isinstance(refused, Unauthorized) and refused.code == "token_invalid"
    assert len({r.report_pk for r in stored}) == 200
    assert db_session.scalar(select(Report.pk).where(Report.node_id == "intruder")) is None
    assert _batches() - batches_before < 200  # group commit: fewer transactions than reports


def _batches() -> float:
    return next(s.value for m in INGEST_BATCH.collect() for s in m.samples if s.name.endswith("_count"))


def test_a_revoked_token_is_refused_at_once(client, db_session, token, auth):
    assert client.put("/api/v1/nodes/n1/facts", json={"facts": {}}, headers=auth).status_code == 201
    revoke_token(db_session.scalar(select(ProbeToken.name)), db_session=db_session)
    db_session.commit()
    r = client.put("/api/v1/nodes/n1/facts", json={"facts": {}}, headers=auth)
    assert_error_shape(r, 401, "token_invalid")


def test_a_full_queue_answers_503_instead_of_waiting(database_url, token):
    writer = _writer(database_url, max_queue=1, linger_s=60)  # a writer stuck on its first batch

    async def main():
        stores = []
        for i in range(2):  # the first is taken by the writer, the second fills the queue
            stores.append(
                asyncio.ensure_future(
                    writer.store(NewReport("n", {}, f"r{i}"), token_hash=hash_token(token), timeout_s=5)
                )
            )
            await asyncio.sleep(0.02)
        with pytest.raises(ServiceUnavailable) as refused:
            await writer.store(NewReport("n", {}, "r3"), token_hash=hash_token(token), timeout_s=5)
        for store in stores:
            store.cancel()
        return refused.value

    assert asyncio.run(main()).code == "overloaded"


def test_a_report_not_stored_in_time_answers_503(database_url, token):
    writer = _writer(database_url, linger_s=60)  # a writer that does not come round in time

    async def main():
        await writer.store(NewReport("n", {}, "r1"), token_hash=hash_token(token), timeout_s=0.05)

    with pytest.raises(ServiceUnavailable) as refused:
        asyncio.run(main())
    assert refused.value.code == "database_unavailable" and "retry" in refused.value.message


def test_one_report_the_database_rejects_does_not_fail_its_batch(token, database_url):
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite does not enforce column lengths")
    writer = _writer(database_url)

    async def main():
        reports = [NewReport("ok-1", {}, "r"), NewReport("x" * 300, {}, "r"), NewReport("ok-2", {}, "r")]
        try:
            return await asyncio.gather(
                *(writer.store(r, token_hash=hash_token(token), timeout_s=30) for r in reports), return_exceptions=True
            )
        finally:
            await writer.stop()

    first, bad, last = asyncio.run(main())
    assert first.ack.node_id == "ok-1" and last.ack.node_id == "ok-2"
    assert isinstance(bad, Exception) and "too long" in str(bad).lower()


def test_stop_stores_what_is_queued(database_url, db_session, token):
    writer = _writer(database_url, linger_s=0.2)

    async def main():
        tasks = [
            asyncio.ensure_future(writer.store(NewReport("n", {}, f"r{i}"), token_hash=hash_token(token), timeout_s=30))
            for i in range(20)
        ]
        await asyncio.sleep(0.01)  # queued, the writer lingering
        await writer.stop()
        assert all(task.done() for task in tasks)
        return await asyncio.gather(*tasks)

    assert len(asyncio.run(main())) == 20
    assert len(db_session.scalars(select(Report.pk).where(Report.node_id == "n")).all()) == 20


def test_the_diagnoser_diagnoses_each_nodes_newest_report_oldest_node_first(database_url, engine):
    reports = [
        NewReport("a", {"nic.speed_gbps": 100, "net.iperf3_gbps": 20}, "a1"),
        NewReport("b", {"nic.speed_gbps": 100}, "b1"),
        NewReport("a", {"nic.speed_gbps": 100, "net.iperf3_gbps": 20}, "a2"),
        NewReport("c", {"nic.speed_gbps": 100}, "c1"),
    ]
    a1, b1, a2, c1 = _store(database_url, reports)
    db = make_engine(database_url, Settings(_env_file=None, database_url=database_url))  # type: ignore[call-arg]
    diagnoser = ReportDiagnoser(make_sessionmaker(db), engine)
    for result in (a1, b1, a2, c1):
        diagnoser.submit(result.ack.node_id, result.report_pk)
    assert diagnoser.waiting == 3  # a's older report is superseded
    assert diagnoser.drain(limit=2) == 2
    assert diagnoser.waiting == 1
    with make_sessionmaker(db)() as session:
        findings = dict(session.execute(select(Report.report_id, Report.findings)).all())
        assert findings["a1"] is None and findings["c1"] is None  # superseded; not yet reached
        assert "link-degraded" in {f["category"] for f in findings["a2"]}
        assert findings["b1"] is not None
    assert diagnoser.drain() == 1 and diagnoser.waiting == 0
    db.dispose()


def test_a_put_without_a_token_is_401_before_its_body_is_read(client):
    r = client.put("/api/v1/nodes/n1/facts", content=b"{not json", headers={"content-type": "application/json"})
    assert_error_shape(r, 401, "token_required")


def test_the_probe_route_is_documented_with_its_path_body_and_token(client):
    schema = client.get("/openapi.json").json()
    put = schema["paths"]["/api/v1/nodes/{node_id}/facts"]["put"]
    assert [p["name"] for p in put["parameters"]] == ["node_id"]
    assert "facts" in put["requestBody"]["content"]["application/json"]["schema"]["properties"]
    (requirement,) = put["security"]
    assert schema["components"]["securitySchemes"][next(iter(requirement))]["scheme"] == "bearer"


def test_a_token_in_another_scheme_or_a_node_id_with_a_newline_is_refused(client, token):
    facts = {"facts": {"nic.speed_gbps": 100}}
    r = client.put("/api/v1/nodes/n1/facts", json=facts, headers={"Authorization": f"Basic {token}"})
    assert_error_shape(r, 401, "token_required")
    r = client.put("/api/v1/nodes/n1%0A/facts", json=facts, headers={"Authorization": f"bearer {token}"})
    assert_error_shape(r, 422, "validation_error")
    lower_case_scheme = {"Authorization": f"bearer {token}"}
    assert client.put("/api/v1/nodes/n1/facts", json=facts, headers=lower_case_scheme).status_code == 201
