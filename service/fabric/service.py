"""Fabric tests in the database: opt-in per cluster, runs, handing one test at a time to a probe,
recording results, and the localisation of a cluster's latest run.

Test hand-out is serialised per run (each hand-out first bumps the run's `version` row, which
takes the row lock on PostgreSQL and the write lock on SQLite), so two probes asking at the same
moment never get tests that put one node in two tests at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from bwdoctor.database import utcnow
from bwdoctor.fabric.analysis import PairResult
from bwdoctor.fabric.localise import Localisation, localisation_findings, localise
from bwdoctor.fabric.models import FabricCluster, FabricEndpoint, FabricRun, FabricTest
from bwdoctor.fabric.planner import Policy, assign, run_finished, wanted_tests
from bwdoctor.fabric.schemas import FabricSettingsIn
from bwdoctor.fabric.topology import Placement, Topology, pair_key
from bwdoctor.nodes.models import Node, Report

LEASE_SLACK_S = 30.0  # a test's result may arrive this long after its duration before it expires
ENDPOINT_FRESH_S = 300.0  # nodes that asked for a test within this long take part in a new run
POLL_IDLE_S = 30.0  # what a probe is told when nothing is planned for it
POLL_BUSY_S = 1.0  # ... and when its run is going on


class FabricError(ValueError):
    """A fabric request that cannot be done as asked; `code` names why."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def get_settings(cluster: str, *, db_session: Session, enabled_by_config: Sequence[str] = ()) -> dict[str, Any]:
    """The cluster's settings (off when never set, unless the service's settings enable it)."""
    row = db_session.get(FabricCluster, cluster)
    if row is None:
        defaults = FabricSettingsIn(enabled=cluster in enabled_by_config)
        return {"cluster": cluster, **defaults.model_dump(), "updated_at": None}
    return {
        "cluster": cluster,
        "enabled": row.enabled,
        "duration_s": row.duration_s,
        "rate_gbps": row.rate_gbps,
        "max_parallel": row.max_parallel,
        "interval_s": row.interval_s,
        "updated_at": row.updated_at,
    }


def set_settings(cluster: str, body: FabricSettingsIn, *, db_session: Session) -> dict[str, Any]:
    """Opt the cluster in or out; turning it off ends a running run (nothing more is handed out)."""
    row = db_session.get(FabricCluster, cluster)
    if row is None:
        row = FabricCluster(cluster=cluster)
        db_session.add(row)
    for key, value in body.model_dump().items():
        setattr(row, key, value)
    row.updated_at = utcnow()
    if not body.enabled:
        for run in db_session.scalars(
            select(FabricRun).where(FabricRun.cluster == cluster, FabricRun.status == "running")
        ):
            _finish(run, db_session=db_session)
    db_session.commit()
    return get_settings(cluster, db_session=db_session)


def _placements(node_ids: Sequence[str], *, db_session: Session) -> dict[str, dict[str, Any]]:
    rows = db_session.execute(
        select(Node.id, Report.facts).outerjoin(Report, Report.pk == Node.latest_report_pk).where(Node.id.in_(node_ids))
    )
    out: dict[str, dict[str, Any]] = {}
    for node_id, facts in rows:
        facts = facts or {}
        out[node_id] = {
            "leaf": facts.get("node.leaf_switch"),
            "rail": facts.get("node.rail"),
            "zone": facts.get("node.zone"),
        }
    return out


def start_run(
    cluster: str, *, db_session: Session, enabled_by_config: Sequence[str] = (), now: datetime | None = None
) -> FabricRun:
    """Start a run over the nodes that asked for a test lately (FabricError if it cannot start)."""
    now = now or utcnow()
    settings = get_settings(cluster, db_session=db_session, enabled_by_config=enabled_by_config)
    if not settings["enabled"]:
        raise FabricError(f"pair tests are off for cluster {cluster!r}: enable them first", "fabric_disabled")
    if _running(cluster, db_session=db_session) is not None:
        raise FabricError(f"a run is already going on in cluster {cluster!r}", "run_in_progress")
    fresh = now - timedelta(seconds=ENDPOINT_FRESH_S)
    nodes = list(
        db_session.scalars(
            select(FabricEndpoint.node_id)
            .join(Node, Node.id == FabricEndpoint.node_id)
            .where(FabricEndpoint.cluster == cluster, Node.cluster == cluster, FabricEndpoint.polled_at >= fresh)
            .order_by(FabricEndpoint.node_id)
        )
    )
    if len(nodes) < 2:
        raise FabricError(
            f"cluster {cluster!r} has {len(nodes)} node(s) ready for tests; at least 2 must run "
            "agent-probe with fabric_tests on",
            "too_few_nodes",
        )
    policy = {
        "duration_s": settings["duration_s"],
        "rate_gbps": settings["rate_gbps"],
        "max_parallel": settings["max_parallel"],
    }
    run = FabricRun(
        cluster=cluster,
        status="running",
        started_at=now,
        participants=_placements(nodes, db_session=db_session),
        policy=policy,
        version=0,
    )
    db_session.add(run)
    db_session.commit()
    return run


def _running(cluster: str, *, db_session: Session) -> FabricRun | None:
    return db_session.scalar(
        select(FabricRun)
        .where(FabricRun.cluster == cluster, FabricRun.status == "running")
        .order_by(FabricRun.id.desc())
    )


def _topology(run: FabricRun) -> Topology:
    return Topology({n: Placement(p.get("leaf"), p.get("rail"), p.get("zone")) for n, p in run.participants.items()})


def _policy(run: FabricRun) -> Policy:
    return Policy(
        duration_s=run.policy["duration_s"], rate_gbps=run.policy["rate_gbps"], max_parallel=run.policy["max_parallel"]
    )


def _results(tests: Sequence[FabricTest]) -> list[PairResult]:
    return [PairResult(t.client, t.server, t.gbps, t.error, t.stage) for t in tests if t.status in ("done", "expired")]


def _finish(run: FabricRun, *, db_session: Session, now: datetime | None = None) -> None:
    tests = list(db_session.scalars(select(FabricTest).where(FabricTest.run_id == run.id)))
    for t in tests:
        if t.status == "assigned":
            t.status, t.error = "expired", "the run ended before a result came"
    run.localisation = localise(_topology(run), _results(tests)).to_dict()
    run.status = "done"
    run.finished_at = now or utcnow()


def announce(node_id: str, address: str, port: int, *, db_session: Session, now: datetime) -> Node:
    """Record where the node's iperf3 server listens; FabricError if the node never reported."""
    node = db_session.get(Node, node_id)
    if node is None or not node.cluster:
        raise FabricError(
            f"node {node_id!r} has not reported its cluster yet: report facts with node.cluster first", "node_unknown"
        )
    endpoint = db_session.get(FabricEndpoint, node_id)
    if endpoint is None:
        db_session.add(FabricEndpoint(node_id=node_id, cluster=node.cluster, address=address, port=port, polled_at=now))
    else:
        endpoint.cluster, endpoint.address, endpoint.port, endpoint.polled_at = node.cluster, address, port, now
    return node


def next_test(
    node_id: str,
    address: str,
    port: int,
    *,
    db_session: Session,
    enabled_by_config: Sequence[str] = (),
    now: datetime | None = None,
) -> tuple[FabricTest | None, float]:
    """The test this node should run now (it is the client), or None; and when to ask again.

    Only tests the planner wants, only between nodes of the node's own cluster that take part in the
    run, never a node in two tests at once, never more than the run's parallel limit."""
    now = now or utcnow()
    node = announce(node_id, address, port, db_session=db_session, now=now)
    cluster = node.cluster or ""
    settings = get_settings(cluster, db_session=db_session, enabled_by_config=enabled_by_config)
    run = _running(cluster, db_session=db_session)
    if run is None and settings["enabled"] and settings["interval_s"]:
        last = db_session.scalar(
            select(FabricRun.started_at).where(FabricRun.cluster == cluster).order_by(FabricRun.id.desc())
        )
        if last is None or now - last >= timedelta(seconds=settings["interval_s"]):
            db_session.commit()
            try:
                run = start_run(cluster, db_session=db_session, enabled_by_config=enabled_by_config, now=now)
            except FabricError:
                run = None
    if run is None or not settings["enabled"]:
        db_session.commit()
        return None, POLL_IDLE_S
    # Serialise hand-outs for this run: the UPDATE takes the lock before anything is read.
    db_session.execute(update(FabricRun).where(FabricRun.id == run.id).values(version=FabricRun.version + 1))
    db_session.refresh(run)
    if run.status != "running":
        db_session.commit()
        return None, POLL_IDLE_S
    if node_id not in run.participants:
        db_session.commit()
        return None, POLL_IDLE_S
    tests = list(db_session.scalars(select(FabricTest).where(FabricTest.run_id == run.id)))
    for t in tests:
        if t.status == "assigned" and t.deadline < now:
            t.status, t.error, t.finished_at = "expired", "no result before the deadline", now
    assigned = [t for t in tests if t.status == "assigned"]
    topology, policy = _topology(run), _policy(run)
    results = _results(tests)
    pending = [pair_key(t.client, t.server) for t in assigned]
    if run_finished(topology, results, pending=pending, policy=policy):
        _finish(run, db_session=db_session, now=now)
        db_session.commit()
        return None, POLL_IDLE_S
    budget_left = policy.test_budget(len(topology.nodes)) - len(results) - len(pending)
    if budget_left <= 0:
        db_session.commit()
        return None, POLL_BUSY_S
    busy = {t.client for t in assigned} | {t.server for t in assigned}
    wanted = wanted_tests(topology, results, pending=pending, policy=policy)
    chosen = assign(wanted, busy=busy, running=len(assigned), max_parallel=policy.max_parallel, node=node_id)
    if chosen is None:
        db_session.commit()
        return None, POLL_BUSY_S
    peer = chosen.b if chosen.a == node_id else chosen.a
    endpoint = db_session.get(FabricEndpoint, peer)
    if endpoint is None or endpoint.cluster != cluster:
        db_session.commit()
        return None, POLL_BUSY_S
    test = FabricTest(
        run_id=run.id,
        client=node_id,
        server=peer,
        server_address=endpoint.address,
        server_port=endpoint.port,
        stage=chosen.stage,
        reason=chosen.reason[:200],
        duration_s=policy.duration_s,
        rate_gbps=policy.rate_gbps,
        status="assigned",
        assigned_at=now,
        deadline=now + timedelta(seconds=policy.duration_s + LEASE_SLACK_S),
    )
    db_session.add(test)
    db_session.commit()
    return test, POLL_BUSY_S


def record_result(
    node_id: str,
    test_id: int,
    *,
    gbps: float | None,
    error: str | None,
    db_session: Session,
    now: datetime | None = None,
) -> FabricRun:
    """Store the result of a test handed to this node; FabricError for any other test."""
    now = now or utcnow()
    test = db_session.get(FabricTest, test_id)
    if test is None or test.client != node_id:
        raise FabricError(f"test {test_id} was not handed to node {node_id!r}", "test_unknown")
    run = db_session.get(FabricRun, test.run_id)
    assert run is not None
    if test.status != "assigned":
        raise FabricError(f"test {test_id} is {test.status}: its result is no longer taken", "test_closed")
    if gbps is None and not error:
        raise FabricError("a result needs gbps or error", "result_empty")
    test.gbps = None if error else gbps
    test.error = error
    test.status = "done"
    test.finished_at = now
    db_session.commit()
    return run


def run_summary(run: FabricRun, *, db_session: Session, lang: str = "en", live: bool = True) -> dict[str, Any]:
    """A run's progress and its localisation (computed from the results so far while it runs)."""
    tests = list(db_session.scalars(select(FabricTest).where(FabricTest.run_id == run.id)))
    if run.localisation is not None:
        loc_dict = run.localisation
    elif live:
        loc_dict = localise(_topology(run), _results(tests)).to_dict()
    else:
        loc_dict = None
    findings = localisation_findings(localisation_from_dict(loc_dict), lang) if loc_dict else []
    return {
        "run_id": run.id,
        "cluster": run.cluster,
        "status": run.status,
        "started_at": run.started_at,
        "finished_at": run.finished_at,
        "nodes": len(run.participants),
        "tests_done": sum(t.status in ("done", "expired") for t in tests),
        "tests_running": sum(t.status == "assigned" for t in tests),
        "localisation": loc_dict,
        "findings": findings,
    }


def localisation_from_dict(data: dict[str, Any]) -> Localisation:
    """A stored localisation back as the dataclass (for findings and the chat's answer)."""
    from bwdoctor.fabric.localise import Suspect

    suspects = [Suspect(**{k: v for k, v in s.items() if k != "slowdown_pct"}) for s in data.get("suspects", [])]
    return Localisation(**{**data, "suspects": suspects})


def latest_run(cluster: str, *, db_session: Session) -> FabricRun | None:
    """The cluster's newest run (running or done)."""
    return db_session.scalar(select(FabricRun).where(FabricRun.cluster == cluster).order_by(FabricRun.id.desc()))


def cluster_localisation(cluster: str, *, db_session: Session, lang: str = "en") -> dict[str, Any] | None:
    """The latest run's summary with its localisation and findings; None when the cluster never ran tests.
    What GET /api/v1/clusters/{name}/diagnosis includes as `fabric`."""
    run = latest_run(cluster, db_session=db_session)
    return None if run is None else run_summary(run, db_session=db_session, lang=lang)


def which_link_is_bad(cluster: str, *, db_session: Session, lang: str = "en") -> str:
    """The chat's answer to "which link is bad in cluster X?" (for service/chat to call)."""
    from bwdoctor.fabric.localise import bad_link_answer

    run = latest_run(cluster, db_session=db_session)
    if run is None:
        return bad_link_answer(None, cluster, lang)
    summary = run_summary(run, db_session=db_session, lang=lang)
    return bad_link_answer(localisation_from_dict(summary["localisation"]), cluster, lang)


def endpoints(cluster: str, *, db_session: Session) -> list[dict[str, Any]]:
    rows = db_session.scalars(
        select(FabricEndpoint).where(FabricEndpoint.cluster == cluster).order_by(FabricEndpoint.node_id)
    )
    return [{"node_id": e.node_id, "address": e.address, "port": e.port, "polled_at": e.polled_at} for e in rows]


def node_regressions_of(
    node_id: str, *, db_session: Session, limit: int = 2000, lang: str = "en"
) -> list[dict[str, Any]]:
    """Lasting worsening in a node's report history (newest `limit` reports), as sentences and data."""
    from bwdoctor.fabric.regress import node_regressions

    rows = db_session.execute(
        select(Report.collected_at, Report.facts)
        .where(Report.node_id == node_id)
        .order_by(Report.collected_at.desc())
        .limit(limit)
    ).all()
    history = [(t, f or {}) for t, f in reversed(rows)]
    return [_regression_dict(r, lang) for r in node_regressions(node_id, history)]


def _regression_dict(r: Any, lang: str) -> dict[str, Any]:
    return {
        "fact": r.fact,
        "since": r.since,
        "before": r.before,
        "after": r.after,
        "pct_worse": r.pct_worse,
        "changed_with": {k: list(v) for k, v in r.changed_with.items()},
        "text": r.sentence(lang),
    }


def cluster_regressions_of(
    node_ids: Sequence[str],
    *,
    db_session: Session,
    lang: str = "en",
    max_reports: int = 20_000,
    per_node_max: int = 200,
) -> list[dict[str, Any]]:
    """Lasting worsening on any of these nodes (the cluster page), worst first, each with its node.

    Bounded for a page that refreshes itself: the newest `per_node_max` reports of each node, fewer
    on a large cluster so that at most `max_reports` are read in all (never fewer than 10 a node)."""
    from sqlalchemy import func

    from bwdoctor.fabric.regress import node_regressions

    if not node_ids:
        return []
    per_node = max(10, min(per_node_max, max_reports // len(node_ids)))
    rank = func.row_number().over(partition_by=Report.node_id, order_by=Report.collected_at.desc())
    ranked = (
        select(Report.node_id, Report.collected_at, Report.facts, rank.label("rank"))
        .where(Report.node_id.in_(sorted(set(node_ids))))
        .subquery()
    )
    rows = db_session.execute(
        select(ranked.c.node_id, ranked.c.collected_at, ranked.c.facts)
        .where(ranked.c.rank <= per_node)
        .order_by(ranked.c.node_id, ranked.c.collected_at)
    ).all()
    histories: dict[str, list[tuple[Any, dict[str, Any]]]] = {}
    for node_id, collected_at, facts in rows:
        histories.setdefault(node_id, []).append((collected_at, facts or {}))
    found = [
        {"node_id": node_id, **_regression_dict(r, lang)}
        for node_id, history in histories.items()
        for r in node_regressions(node_id, history)
    ]
    return sorted(found, key=lambda r: (-r["pct_worse"], r["node_id"], r["fact"]))


STEP_TIMES_FACT = "job.step_times_s"


def node_checkpoint_contention_of(node_id: str, *, db_session: Session, lang: str = "en") -> dict[str, Any] | None:
    """Regular step-time spikes in the per-step times of the node's newest report that carries them
    (job.step_times_s), matched against the checkpoint interval of that report or of its cluster's job;
    None when there are no such times or no regular spikes."""
    from bwdoctor.fabric.regress import checkpoint_spikes
    from bwdoctor.jobs.service import job_facts

    rows = db_session.execute(
        select(Report.facts).where(Report.node_id == node_id).order_by(Report.collected_at.desc()).limit(20)
    ).all()
    facts = next((f for (f,) in rows if f and isinstance(f.get(STEP_TIMES_FACT), list)), None)
    if facts is None:
        return None
    times = [float(v) for v in facts[STEP_TIMES_FACT] if isinstance(v, int | float) and not isinstance(v, bool)]
    if not times or min(times) <= 0:
        return None
    interval = facts.get("job.checkpoint_interval_steps")
    cluster = facts.get("node.cluster") or db_session.scalar(select(Node.cluster).where(Node.id == node_id))
    if not isinstance(interval, int) and isinstance(cluster, str):
        interval = job_facts(cluster, db_session=db_session).get("job.checkpoint_interval_steps")
    found = checkpoint_spikes(times, checkpoint_every_steps=interval if isinstance(interval, int) else None)
    if found is None:
        return None
    return {
        "period_steps": found.period_steps,
        "spikes": len(found.spikes),
        "steps": found.steps,
        "median_step_s": found.median_s,
        "spike_excess_s": found.spike_excess_s,
        "cost_pct": found.cost_pct,
        "checkpoint_interval_steps": found.interval_steps,
        "matches_interval": found.matches_interval,
        "text": found.sentence(lang),
    }
