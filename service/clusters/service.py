"""Cluster diagnosis: the latest report of every node in a cluster, aggregated and diagnosed.

Stale nodes (no report within `stale_after_s`) are listed as such and left out of the
aggregate, so a dead node's week-old numbers never pass for the cluster's present state.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.clusters.aggregate import ClusterAggregate, aggregate
from service.database import utcnow
from service.nodes.models import Node, Report
from service.nodes.service import diagnose_report

# Facts whose extreme value limits the ring; the nodes holding it are named in the response.
LIMITING_FACTS = {
    "nic.speed_gbps": min,
    "net.iperf3_gbps": min,
    "nccl.allreduce_busbw_gbytes_per_s": min,
    "node.instance_bandwidth_gbps": min,
    "net.rtt_ms": max,
}
NODE_FINDING_KEYS = ("rule", "category", "severity", "title")
# Per-node findings missing at read time are computed on the spot up to this many per request,
# so one request never does a whole fleet's work; the background diagnoser fills in the rest.
MAX_NODE_DIAGNOSES_PER_REQUEST = 100


class ClusterNotFound(LookupError):
    """No node has reported with this cluster name."""


def latest_reports(name: str, *, db_session: Session) -> list[tuple[Node, Report | None]]:
    """Each node of the cluster with its latest report, in one query."""
    rows = db_session.execute(
        select(Node, Report)
        .outerjoin(Report, Report.pk == Node.latest_report_pk)
        .where(Node.cluster == name)
        .order_by(Node.id)
    ).all()
    return [(row[0], row[1]) for row in rows]


def _serious(findings: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """A node's warning and critical findings, compact (the node's own page has the full ones)."""
    return [
        {k: f.get(k) for k in NODE_FINDING_KEYS} for f in findings or [] if f.get("severity") in ("critical", "warning")
    ]


def _limiting_nodes(nodes: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for fact, pick in LIMITING_FACTS.items():
        values = {
            nid: v for nid, f in nodes.items() if isinstance(v := f.get(fact), int | float) and not isinstance(v, bool)
        }
        if len(values) >= 2 and len(set(values.values())) > 1:
            worst = pick(values.values())
            out[fact] = {"value": worst, "nodes": sorted(n for n, v in values.items() if v == worst)}
    return out


def cluster_state(name: str, *, db_session: Session, stale_after_s: float) -> dict[str, Any]:
    """Fresh nodes' facts, the aggregate over them, and the per-node data the response shows."""
    rows = latest_reports(name, db_session=db_session)
    if not rows:
        raise ClusterNotFound(name)
    now = utcnow()
    cutoff = now - timedelta(seconds=stale_after_s)
    fresh: dict[str, dict[str, Any]] = {}
    entries: list[dict[str, Any]] = []
    stale: list[dict[str, Any]] = []
    for node, report in rows:
        collected = report.collected_at if report is not None else None
        is_stale = report is None or collected is None or collected < cutoff
        entry: dict[str, Any] = {
            "node_id": node.id,
            "zone": node.zone,
            "region": node.region,
            "rack": node.rack,
            "collected_at": collected,
            "stale": is_stale,
            "outliers": [],
            "findings": _serious(report.findings if report is not None else None),
            "_report_pk": report.pk if report is not None else None,
            "_diagnosed": report is not None and report.findings is not None,
        }
        entries.append(entry)
        if is_stale:
            age = None if collected is None else round((now - collected).total_seconds(), 1)
            stale.append({"node_id": node.id, "collected_at": collected, "age_s": age})
        else:
            fresh[node.id] = dict(report.facts)  # type: ignore[union-attr]
    agg: ClusterAggregate = aggregate(fresh)
    for entry in entries:
        entry["outliers"] = [o.to_dict() for o in agg.outliers.get(entry["node_id"], [])]
    return {"fresh": fresh, "aggregate": agg, "entries": entries, "stale": stale}


def diagnose_cluster(
    name: str,
    *,
    db_session: Session,
    engine: Any,
    stale_after_s: float,
    lang: str = "en",
    job_facts: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The cluster-wide diagnosis: cluster facts + representative node facts (+ job facts, which win),
    the findings, and every node named with its outliers, its own findings and whether it is stale."""
    state = cluster_state(name, db_session=db_session, stale_after_s=stale_after_s)
    agg: ClusterAggregate = state["aggregate"]
    facts = engine.validate_facts({**agg.facts(), **(job_facts or {})}) if state["fresh"] else dict(job_facts or {})
    diagnosis = engine.diagnose(facts, lang=lang).to_dict()
    entries = state["entries"]
    budget = MAX_NODE_DIAGNOSES_PER_REQUEST
    for entry in entries:
        report_pk, diagnosed = entry.pop("_report_pk"), entry.pop("_diagnosed")
        entry["findings_pending"] = False
        if report_pk is not None and not diagnosed and not entry["stale"]:
            if budget > 0:
                # Not computed yet (just arrived, or background diagnosis off): do it now, once.
                budget -= 1
                findings = diagnose_report(report_pk, db_session=db_session, engine=engine) or []
                entry["findings"] = _serious(findings)
            else:
                entry["findings_pending"] = True
    return {
        "cluster": name,
        "nodes_total": len(entries),
        "nodes_fresh": len(state["fresh"]),
        "stale_nodes": state["stale"],
        "stragglers": agg.cluster_facts.get("cluster.stragglers", []),
        "zones": agg.zones,
        "regions": agg.regions,
        "limiting": _limiting_nodes(state["fresh"]),
        **diagnosis,
        "nodes": entries,
    }
