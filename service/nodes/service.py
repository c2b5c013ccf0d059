"""Storing probe reports and reading nodes back.

Ingest is a handful of statements in one transaction, without the engine: upsert the node,
insert the report unless (node, report_id) exists (ON CONFLICT DO NOTHING makes concurrent
retries safe), then move the node's latest-report pointer forward only if this report is
newer. Findings are computed afterwards (diagnose_report) so acknowledging stays cheap.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy import and_, bindparam, delete, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from service.database import utcnow
from service.nodes.models import Node, Report
from service.nodes.schemas import NodeDetail, NodeSummary, ReportAck, ReportOut

PLACEMENT_FACTS = {
    "cluster": "node.cluster",
    "region": "node.region",
    "zone": "node.zone",
    "rack": "node.rack",
    "instance_type": "node.instance_type",
}


@dataclass(frozen=True)
class IngestResult:
    """A stored (or already stored) report."""

    ack: ReportAck
    report_pk: int


@lru_cache(maxsize=4)
def _ingest_statements(dialect: str) -> tuple[Any, Any, Any, Any]:
    """The four statements of ingest, built once per dialect: constructing SQLAlchemy statements
    costs more CPU than running them, and ingest is the hot path."""
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    node_insert = insert(Node)
    upsert_node = node_insert.on_conflict_do_update(
        index_elements=[Node.id],
        set_={
            "last_seen": node_insert.excluded.last_seen,
            **{col: func.coalesce(node_insert.excluded[col], Node.__table__.c[col]) for col in PLACEMENT_FACTS},
        },
    )
    insert_report = (
        insert(Report).on_conflict_do_nothing(index_elements=[Report.node_id, Report.report_id]).returning(Report.pk)
    )
    find_report = select(Report.pk, Report.collected_at, Report.received_at).where(
        Report.node_id == bindparam("p_node"), Report.report_id == bindparam("p_report")
    )
    advance_latest = (
        update(Node)
        .where(
            Node.id == bindparam("p_node"),
            or_(Node.latest_collected_at.is_(None), Node.latest_collected_at <= bindparam("p_collected")),
        )
        .values(latest_report_pk=bindparam("p_pk"), latest_collected_at=bindparam("p_collected"))
    )
    return upsert_node, insert_report, find_report, advance_latest


def _placement(facts: dict[str, Any]) -> dict[str, str | None]:
    return {
        column: (value[:128] if isinstance(value := facts.get(key), str) and value else None)
        for column, key in PLACEMENT_FACTS.items()
    }


def ingest_report(
    node_id: str,
    facts: dict[str, Any],
    *,
    db_session: Session,
    report_id: str | None = None,
    collected_at: datetime | None = None,
) -> IngestResult:
    """Store one validated report durably (committed on return); a known report_id is a no-op."""
    now = utcnow()
    report_id = report_id or uuid.uuid4().hex
    collected_at = collected_at or now
    connection = db_session.connection()
    upsert_node, insert_report, find_report, advance_latest = _ingest_statements(connection.dialect.name)

    connection.execute(upsert_node, {"id": node_id, "first_seen": now, "last_seen": now, **_placement(facts)})
    pk = connection.execute(
        insert_report,
        {"node_id": node_id, "report_id": report_id, "collected_at": collected_at, "received_at": now, "facts": facts},
    ).scalar()
    duplicate = pk is None
    if duplicate:
        existing = connection.execute(find_report, {"p_node": node_id, "p_report": report_id}).one()
        pk, collected_at, now = existing.pk, existing.collected_at, existing.received_at
    else:
        connection.execute(advance_latest, {"p_node": node_id, "p_collected": collected_at, "p_pk": pk})
    db_session.commit()
    ack = ReportAck(
        node_id=node_id, report_id=report_id, collected_at=collected_at, received_at=now, duplicate=duplicate
    )
    return IngestResult(ack=ack, report_pk=pk)


def compact_findings(diagnosis: dict[str, Any]) -> list[dict[str, Any]]:
    """The findings of a diagnosis as stored with a report."""
    return list(diagnosis.get("findings", []))


def diagnose_report(report_pk: int, *, db_session: Session, engine: Any) -> list[dict[str, Any]] | None:
    """Compute and store a report's findings unless already there; None if the report is gone."""
    report = db_session.get(Report, report_pk)
    if report is None:
        return None
    if report.findings is None:
        report.findings = compact_findings(engine.diagnose(report.facts).to_dict())
        report.diagnosed_at = utcnow()
        db_session.commit()
    return report.findings


def _stale(node: Node, now: datetime, stale_after_s: float) -> bool:
    latest = node.latest_collected_at or node.last_seen
    return latest < now - timedelta(seconds=stale_after_s)


def _summary(node: Node, now: datetime, stale_after_s: float) -> dict[str, Any]:
    return {
        "node_id": node.id,
        "cluster": node.cluster,
        "region": node.region,
        "zone": node.zone,
        "rack": node.rack,
        "instance_type": node.instance_type,
        "first_seen": node.first_seen,
        "last_seen": node.last_seen,
        "latest_collected_at": node.latest_collected_at,
        "stale": _stale(node, now, stale_after_s),
    }


def list_nodes(
    *,
    db_session: Session,
    stale_after_s: float,
    cluster: str | None = None,
    limit: int = 1000,
    offset: int = 0,
) -> tuple[list[NodeSummary], int]:
    """Nodes by id (optionally of one cluster), with the total for paging."""
    query = select(Node)
    count = select(func.count()).select_from(Node)
    if cluster is not None:
        query, count = query.where(Node.cluster == cluster), count.where(Node.cluster == cluster)
    now = utcnow()
    nodes = db_session.scalars(query.order_by(Node.id).limit(limit).offset(offset))
    summaries = [NodeSummary(**_summary(n, now, stale_after_s)) for n in nodes]
    return summaries, db_session.scalar(count) or 0


def _report_out(report: Report) -> ReportOut:
    return ReportOut(
        report_id=report.report_id,
        collected_at=report.collected_at,
        received_at=report.received_at,
        facts=report.facts,
        findings=report.findings,
    )


def get_node(
    node_id: str, *, db_session: Session, engine: Any, stale_after_s: float, history_limit: int = 50
) -> NodeDetail | None:
    """A node's latest facts and findings (computed now if not yet) and its recent history."""
    node = db_session.get(Node, node_id)
    if node is None:
        return None
    history: Sequence[Report] = db_session.scalars(
        select(Report)
        .where(Report.node_id == node_id)
        .order_by(Report.collected_at.desc(), Report.pk.desc())
        .limit(history_limit)
    ).all()
    latest = db_session.get(Report, node.latest_report_pk) if node.latest_report_pk is not None else None
    if latest is not None and latest.findings is None:
        diagnose_report(latest.pk, db_session=db_session, engine=engine)
    return NodeDetail(
        **_summary(node, utcnow(), stale_after_s),
        latest=_report_out(latest) if latest is not None else None,
        history=[_report_out(r) for r in history],
    )


def prune_reports(*, db_session: Session, older_than: datetime) -> int:
    """Delete reports collected before `older_than`, except each node's latest; returns how many."""
    latest = select(Node.latest_report_pk).where(Node.latest_report_pk.is_not(None))
    result = db_session.execute(delete(Report).where(and_(Report.collected_at < older_than, Report.pk.not_in(latest))))
    db_session.commit()
    return int(result.rowcount or 0)


def count_nodes_reporting(*, db_session: Session, since: datetime) -> int:
    """Nodes whose latest report was collected at or after `since` (the 'nodes reporting' gauge)."""
    return db_session.scalar(select(func.count()).select_from(Node).where(Node.latest_collected_at >= since)) or 0
