"""Nodes and their reports: storing one report, reading nodes back, pruning old reports.

Probe reports arrive in batches through writer.py and ingest.py; findings are computed
afterwards (diagnose_report) so acknowledging a report stays cheap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, delete, func, select, update
from sqlalchemy.orm import Session

from bwdoctor.database import utcnow
from bwdoctor.engine import Engine
from bwdoctor.nodes.ingest import IngestResult, NewReport, ingest_batch
from bwdoctor.nodes.models import Node, Report
from bwdoctor.nodes.schemas import NodeDetail, NodeSummary, ReportOut
from bwdoctor.nodes.stored import usable_facts


def ingest_report(
    node_id: str,
    facts: dict[str, Any],
    *,
    db_session: Session,
    report_id: str | None = None,
    collected_at: datetime | None = None,
) -> IngestResult:
    """Store one validated report durably (committed on return); a known report_id is a no-op."""
    report = NewReport(node_id=node_id, facts=facts, report_id=report_id, collected_at=collected_at)
    (result,) = ingest_batch(db_session.connection(), [report])
    db_session.commit()
    return result


def report_findings(facts: dict[str, Any], *, engine: Engine) -> list[dict[str, Any]]:
    """The findings stored with a report (only findings: no questions about missing facts)."""
    return list(engine.diagnose(usable_facts(facts, engine=engine), questions=False).to_dict()["findings"])


def localise_findings(
    stored: Sequence[Mapping[str, Any]] | None, facts: Mapping[str, Any], *, engine: Engine, lang: str
) -> list[dict[str, Any]]:
    """A report's findings in `lang`; None (not diagnosed yet) computes them, for display only.

    Stored findings are written in English (`report_findings` diagnoses in the engine's default
    language), so for another language the report's facts are diagnosed again in it (the engine gives
    the same findings for the same facts) and each stored finding takes its fields from the finding of
    the same rule. The stored list decides which findings show, so every view agrees with what is
    stored; one whose rule the engine no longer raises stays as stored. It costs a diagnosis (about
    0.3 ms) per report with findings, and only outside English.
    """
    if stored is not None and (lang == "en" or not stored):
        return [dict(f) for f in stored]
    diagnosis = engine.diagnose(usable_facts(facts, engine=engine), lang=lang, questions=False)
    fresh = [f.to_dict() for f in diagnosis.findings]
    if stored is None:
        return fresh
    by_rule = {f["rule"]: f for f in fresh}
    return [
        {k: by_rule[f["rule"]].get(k, v) for k, v in f.items()} if f.get("rule") in by_rule else dict(f) for f in stored
    ]


def diagnose_report(report_pk: int, *, db_session: Session, engine: Engine) -> list[dict[str, Any]] | None:
    """Compute and store a report's findings unless already there; None if the report is gone."""
    report = db_session.get(Report, report_pk)
    if report is None:
        return None
    if report.findings is None:
        report.findings = report_findings(report.facts, engine=engine)
        report.diagnosed_at = utcnow()
        db_session.commit()
    return report.findings


_STORE_FINDINGS = (
    update(Report)
    .where(Report.pk == bindparam("p_pk"))
    .values(findings=bindparam("p_findings"), diagnosed_at=bindparam("p_at"))
)


def undiagnosed_facts(report_pks: Sequence[int], *, db_session: Session) -> list[tuple[int, dict[str, Any]]]:
    """(pk, facts) of the reports among these still without findings (gone ones left out)."""
    if not report_pks:
        return []
    rows = db_session.execute(
        select(Report.pk, Report.facts).where(Report.pk.in_(report_pks), Report.findings.is_(None))
    )
    return [(row.pk, row.facts) for row in rows]


def store_findings(findings: dict[int, list[dict[str, Any]]], *, db_session: Session) -> None:
    """Store reports' findings (report pk -> findings) and commit, in one statement."""
    if findings:
        now = utcnow()
        db_session.connection().execute(
            _STORE_FINDINGS, [{"p_pk": pk, "p_findings": f, "p_at": now} for pk, f in sorted(findings.items())]
        )
    db_session.commit()


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


def _report_out(report: Report, *, engine: Engine, lang: str) -> ReportOut:
    findings = report.findings
    if findings is not None and lang != "en":  # the stored object is not touched: it is English
        findings = localise_findings(findings, report.facts, engine=engine, lang=lang)
    return ReportOut(
        report_id=report.report_id,
        collected_at=report.collected_at,
        received_at=report.received_at,
        facts=report.facts,
        findings=findings,
    )


def get_node(
    node_id: str,
    *,
    db_session: Session,
    engine: Engine,
    stale_after_s: float,
    history_limit: int = 50,
    lang: str = "en",
) -> NodeDetail | None:
    """A node's latest facts and findings (computed now if not yet) and its recent history, with
    findings in `lang` (history reports not diagnosed yet keep findings None)."""
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
        latest=_report_out(latest, engine=engine, lang=lang) if latest is not None else None,
        history=[_report_out(r, engine=engine, lang=lang) for r in history],
    )


def prune_reports(*, db_session: Session, older_than: datetime, batch_size: int = 10_000) -> int:
    """Delete reports collected before `older_than`, except each node's latest; returns how many.

    A fleet writes tens of millions of reports a day, so they go `batch_size` at a time, oldest
    first, each batch its own short transaction: no long lock, no huge transaction for the
    write-ahead log, and ingest carries on between batches.
    """
    latest = select(Node.latest_report_pk).where(Node.latest_report_pk.is_not(None))
    oldest = (
        select(Report.pk)
        .where(Report.collected_at < older_than, Report.pk.not_in(latest))
        .order_by(Report.collected_at)
        .limit(batch_size)
    )
    removed = 0
    while True:
        result = db_session.execute(delete(Report).where(Report.pk.in_(oldest.scalar_subquery())))
        db_session.commit()
        count = int(getattr(result, "rowcount", 0) or 0)  # a CursorResult: DELETE reports its row count
        removed += count
        if count < batch_size:
            return removed


def count_nodes_reporting(*, db_session: Session, since: datetime) -> int:
    """Nodes whose latest report was collected at or after `since` (the 'nodes reporting' gauge)."""
    return db_session.scalar(select(func.count()).select_from(Node).where(Node.latest_collected_at >= since)) or 0
