"""Cluster diagnosis: the latest report of every node in a cluster, aggregated and diagnosed.

Stale nodes (no report within `stale_after_s`) are listed as such and left out of the
aggregate, so a dead node's week-old numbers never pass for the cluster's present state.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from functools import cache
from typing import Any

import orjson
from sqlalchemy import Text, cast, select
from sqlalchemy.orm import Session

from bwdoctor.clusters.aggregate import ClusterAggregate, aggregate
from bwdoctor.database import utcnow
from bwdoctor.engine import Engine, builtin_catalogue
from bwdoctor.jobs.service import job_facts as stored_job_facts
from bwdoctor.nodes.models import Node, Report
from bwdoctor.nodes.service import diagnose_report, localise_findings
from bwdoctor.nodes.stored import clean_facts, usable_facts

NODE_FINDING_KEYS = ("rule", "category", "severity", "title")
# Per-node findings missing at read time are computed on the spot up to this many per request,
# so one request never does a whole fleet's work; the background diagnoser fills in the rest.
MAX_NODE_DIAGNOSES_PER_REQUEST = 100


class ClusterNotFound(LookupError):
    """No node has reported with this cluster name."""


# Only the columns the diagnosis reads, as plain rows: hydrating a thousand Node and Report objects
# cost more than everything else the request does. The JSON columns come back as text (the same
# text the driver would otherwise parse with json.loads) so that orjson can parse them.
_LATEST_ROWS = (
    select(
        Node.id,
        Node.zone,
        Node.region,
        Node.rack,
        Report.pk,
        Report.collected_at,
        cast(Report.facts, Text),
        cast(Report.findings, Text),
    )
    .outerjoin_from(Node, Report, Report.pk == Node.latest_report_pk)
    .order_by(Node.id)
)
_NO_FINDINGS: tuple[()] = ()
_DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LONG_NUMBER = b"0" * 20


def _loads(text: str | None) -> Any:
    """json.loads, faster: orjson parses the same documents to the same values, except integers of
    more than 64 bits (it returns floats for them), so text with a run of 20 digits, and anything
    orjson rejects, goes to json.loads as before."""
    if text is None:
        return None
    try:
        data = text.encode()
        if _LONG_NUMBER not in data.translate(_DIGITS_TO_ZERO):
            return orjson.loads(data)
    except (UnicodeEncodeError, orjson.JSONDecodeError):
        pass
    return json.loads(text)


def _latest_rows(
    name: str, *, db_session: Session
) -> list[tuple[str, str | None, str | None, str | None, int | None, datetime | None, Any, Any]]:
    """(node id, zone, region, rack, report pk, collected_at, facts, findings) of each node of the
    cluster, its latest report's columns None when it has none, by node id, in one query."""
    rows = db_session.execute(_LATEST_ROWS.where(Node.cluster == name)).all()
    return [
        (
            node_id,
            zone,
            region,
            rack,
            pk,
            collected,
            clean_facts(_loads(facts)),  # held to today's checks: an old report cannot break the cluster
            # most nodes have no findings: skip parsing (and a list to collect) for each of them
            _NO_FINDINGS if findings == "[]" else _loads(findings),
        )
        for node_id, zone, region, rack, pk, collected, facts, findings in rows
    ]


def _serious(findings: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """A node's warning and critical findings, compact (the node's own page has the full ones)."""
    return [
        {k: f.get(k) for k in NODE_FINDING_KEYS} for f in findings or [] if f.get("severity") in ("critical", "warning")
    ]


@cache
def _limiting_facts() -> dict[str, Callable[[Iterable[float]], float]]:
    """Facts whose extreme value limits the ring (the catalogue's `cluster: limits`), and which extreme;
    the nodes holding it are named in the response."""
    catalogue = builtin_catalogue()
    specs = (catalogue[name] for name in catalogue.names())
    return {s.name: max if s.cluster.aggregate == "max" else min for s in specs if s.cluster.limits}


def _limiting_nodes(nodes: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for fact, pick in _limiting_facts().items():
        values = {
            nid: v for nid, f in nodes.items() if isinstance(v := f.get(fact), int | float) and not isinstance(v, bool)
        }
        if len(values) >= 2 and len(set(values.values())) > 1:
            worst = pick(values.values())
            out[fact] = {"value": worst, "nodes": sorted(n for n, v in values.items() if v == worst)}
    return out


def cluster_state(name: str, *, db_session: Session, stale_after_s: float) -> dict[str, Any]:
    """Fresh nodes' facts, the aggregate over them, the per-node data the response shows, and
    every node's latest facts (stale nodes' too; {} for a node without a report)."""
    rows = _latest_rows(name, db_session=db_session)
    if not rows:
        raise ClusterNotFound(name)
    now = utcnow()
    cutoff = now - timedelta(seconds=stale_after_s)
    fresh: dict[str, dict[str, Any]] = {}
    latest: dict[str, dict[str, Any]] = {}
    entries: list[dict[str, Any]] = []
    stale: list[dict[str, Any]] = []
    for node_id, zone, region, rack, report_pk, collected, facts, findings in rows:
        has_report = report_pk is not None
        is_stale = not has_report or collected is None or collected < cutoff
        entries.append(
            {
                "node_id": node_id,
                "zone": zone,
                "region": region,
                "rack": rack,
                "collected_at": collected,
                "stale": is_stale,
                "outliers": [],
                "findings": _serious(findings) if findings else [],
                "_report_pk": report_pk,
                "_diagnosed": has_report and findings is not None,
            }
        )
        latest[node_id] = facts if has_report else {}
        if is_stale:
            age = None if collected is None else round((now - collected).total_seconds(), 1)
            stale.append({"node_id": node_id, "collected_at": collected, "age_s": age})
        else:
            fresh[node_id] = facts  # parsed for this request alone (no copy needed); read-only from here
    agg: ClusterAggregate = aggregate(fresh)
    if agg.outliers:
        by_id = {entry["node_id"]: entry for entry in entries}
        for node_id, found in agg.outliers.items():
            by_id[node_id]["outliers"] = [o.to_dict() for o in found]
    return {"fresh": fresh, "aggregate": agg, "entries": entries, "stale": stale, "latest": latest}


def diagnose_cluster(
    name: str,
    *,
    db_session: Session,
    engine: Engine,
    stale_after_s: float,
    lang: str = "en",
    job_facts: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The cluster-wide diagnosis: cluster facts + representative node facts (+ job facts, which win),
    the findings, and every node named with its outliers, its own findings and whether it is stale."""
    state = cluster_state(name, db_session=db_session, stale_after_s=stale_after_s)
    job_facts = {**stored_job_facts(name, db_session=db_session), **(job_facts or {})}  # the given job wins
    return _diagnose_state(name, state, db_session=db_session, engine=engine, lang=lang, job_facts=job_facts)


def diagnose_cluster_with_facts(
    name: str, *, db_session: Session, engine: Engine, stale_after_s: float, lang: str = "en"
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """diagnose_cluster, and each node's latest facts from the same read ({} for a node without a
    report), for views that show both without reading the cluster twice. The facts are shared
    with the diagnosis: read them, do not change them."""
    state = cluster_state(name, db_session=db_session, stale_after_s=stale_after_s)
    job = stored_job_facts(name, db_session=db_session)  # set with PUT /api/v1/clusters/{name}/job
    result = _diagnose_state(name, state, db_session=db_session, engine=engine, lang=lang, job_facts=job)
    return result, state["latest"]


def _diagnose_state(
    name: str,
    state: dict[str, Any],
    *,
    db_session: Session,
    engine: Engine,
    lang: str,
    job_facts: dict[str, Any] | None,
) -> dict[str, Any]:
    agg: ClusterAggregate = state["aggregate"]
    # usable_facts: a node's stored value the catalogue no longer accepts is left out, not a failed read
    given = {**agg.facts(), **(job_facts or {})}
    facts = usable_facts(given, engine=engine) if state["fresh"] else dict(job_facts or {})
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
        if lang != "en" and entry["findings"]:
            facts_of_node = state["latest"][entry["node_id"]]
            entry["findings"] = localise_findings(entry["findings"], facts_of_node, engine=engine, lang=lang)
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
