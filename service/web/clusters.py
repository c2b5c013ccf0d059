"""Cluster view pages (/clusters, /clusters/{name}, /nodes/{id}) and server-drawn SVG charts (/charts/*.svg).

A thin adapter: data comes from the clusters and nodes domain functions (the same ones the JSON API
uses, so the page and the API can never disagree), pictures from `bwdoctor.web.charts`. Each page
has a `/fragment` twin that static/clusters.js re-fetches to refresh it without a full reload.

Everything is in the page language (`page_language`: ?lang=, the toggle's cookie, Accept-Language):
labels and chart words from i18n.py, findings re-rendered by the engine in that language.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup

from bwdoctor.clusters.service import ClusterNotFound, diagnose_cluster_with_facts
from bwdoctor.database import DbSession, utcnow
from bwdoctor.engine import Engine, builtin_catalogue
from bwdoctor.errors import NotFound, Unprocessable
from bwdoctor.facts import EngineDep, validate_facts
from bwdoctor.nodes.schemas import ID_PATTERN
from bwdoctor.nodes.service import get_node, list_nodes, localise_findings
from bwdoctor.web import charts, svg
from bwdoctor.web.fabric_page import fabric_view
from bwdoctor.web.i18n import cluster_strings
from bwdoctor.web.regressions_page import regressions_view
from bwdoctor.web.templating import page_language, render_page

router = APIRouter(tags=["web: clusters"])

NodeId = Annotated[str, Path(pattern=ID_PATTERN, description="stable node name")]
ClusterName = Annotated[str, Path(pattern=ID_PATTERN, description="the node.cluster fact of its nodes")]
REFRESH_S = 15
MAX_HISTORY_DIAGNOSED = 200  # older reports not yet diagnosed are diagnosed for display, up to this many
NODE_CHARTS = ("gpu", "nic", "step", "findings")
SVG_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}


def fact_columns(lang: str) -> list[str]:
    """The headings of the per-node fact columns (the catalogue's `table_column`s): label and unit."""
    return [f"{spec.name_in(lang)} {spec.unit}".strip() for spec in builtin_catalogue().table_columns()]


def _settings(request: Request) -> Any:
    return request.app.state.settings


def _age(moment: datetime, now: datetime, lang: str) -> str:
    """How long ago, rounded to its largest unit: '3 min', '3 分钟'."""
    w = cluster_strings(lang)
    seconds = max(0.0, (now - moment).total_seconds())
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.0f} {w['cv_unit_' + unit]}"
    return f"{seconds:.0f} {w['cv_unit_s']}"


def _ago(moment: datetime | None, now: datetime, lang: str = "en") -> str:
    """'3 min ago' style age, for people; the exact ISO time goes in a title attribute."""
    w = cluster_strings(lang)
    return w["cv_never"] if moment is None else w["cv_ago"].format(age=_age(moment, now, lang))


def _fact_values(facts: Mapping[str, Any], lang: str) -> list[dict[str, Any]]:
    """A table row's cells (the catalogue's table columns): fact name, unit, raw value and the number as shown."""
    na = cluster_strings(lang)["cv_na"]
    return [
        {
            "fact": spec.name,
            "unit": spec.unit,
            "raw": facts.get(spec.name),
            "text": svg.fmt(charts.number(facts.get(spec.name)), na=na),
        }
        for spec in builtin_catalogue().table_columns()
    ]


# ---------------------------------------------------------------- cluster list


def clusters_overview(
    *, db_session: Any, stale_after_s: float, lang: str = "en", engine: Engine | None = None
) -> dict[str, Any]:
    """Clusters with node counts and freshness (and, given the engine, each one's status and its count of
    critical and warning findings), and nodes that report no cluster."""
    nodes, _ = list_nodes(db_session=db_session, stale_after_s=stale_after_s, limit=10_000)
    now = utcnow()
    clusters: dict[str, dict[str, Any]] = {}
    loose = []
    for node in nodes:
        if node.cluster is None:
            loose.append(
                {"node_id": node.node_id, "stale": node.stale, "ago": _ago(node.latest_collected_at, now, lang)}
            )
            continue
        entry = clusters.setdefault(node.cluster, {"name": node.cluster, "nodes": 0, "stale": 0, "latest": None})
        entry["nodes"] += 1
        entry["stale"] += int(node.stale)
        if node.latest_collected_at and (entry["latest"] is None or node.latest_collected_at > entry["latest"]):
            entry["latest"] = node.latest_collected_at
    for entry in clusters.values():
        entry["ago"] = _ago(entry["latest"], now, lang)
        if engine is not None:  # the list shows at a glance which cluster is critical
            entry.update(_cluster_status(entry["name"], db_session, engine, stale_after_s))
    return {"clusters": sorted(clusters.values(), key=lambda c: c["name"]), "loose_nodes": loose}


def _cluster_status(name: str, db_session: Any, engine: Engine, stale_after_s: float) -> dict[str, Any]:
    """A cluster's verdict for the list: status, and how many critical and warning findings."""
    from bwdoctor.clusters.service import diagnose_cluster

    try:
        result = diagnose_cluster(name, db_session=db_session, engine=engine, stale_after_s=stale_after_s)
    except ClusterNotFound:
        return {"status": "undetermined", "critical": 0, "warning": 0}
    severities = [f.get("severity") for f in result["findings"]]
    return {
        "status": result.get("status") or "undetermined",
        "critical": severities.count("critical"),
        "warning": severities.count("warning"),
    }


@router.get("/clusters", response_class=HTMLResponse, include_in_schema=False)
def clusters_page(request: Request, db_session: DbSession) -> HTMLResponse:
    """Every cluster that has reported, with its status, and links to its view."""
    context = clusters_overview(
        db_session=db_session,
        stale_after_s=_settings(request).stale_after_s,
        lang=page_language(request),
        engine=request.app.state.engine,
    )
    return _render(request, "clusters.html", {"active": "clusters", **context})


def _render(request: Request, template: str, context: dict[str, Any], *, fragment: bool = False) -> HTMLResponse:
    """`render_page` with the cluster pages' words as `t`; a fragment (re-fetched by clusters.js with
    the page's own ?lang=) leaves the language cookie alone."""
    context = {"t": cluster_strings(page_language(request)), **context}
    return render_page(request, template, context, remember_language=not fragment)


def _page(request: Request, kind: str, name: str, load: Callable[[], dict[str, Any]], template: str) -> HTMLResponse:
    """A cluster or node page, or the not-found page (HTML, 404) when nothing reported under `name`."""
    try:
        context = load()
    except NotFound:
        response = _render(request, "_cluster_missing.html", {"active": "clusters", "kind": kind, "name": name})
        response.status_code = 404
        return response
    return _render(request, template, {"active": "clusters", **context})


# ---------------------------------------------------------------- one cluster


def _shown_fact(value: Any) -> Any:
    """A long list (job.step_times_s: hundreds of step times) as its count and range, not every item."""
    if isinstance(value, list) and len(value) > 12:
        numbers = [v for v in value if isinstance(v, int | float) and not isinstance(v, bool)]
        if len(numbers) == len(value):
            return f"{len(value)} × {svg.fmt(min(numbers))} … {svg.fmt(max(numbers))}"
        return ", ".join(map(str, value[:12])) + f", … ({len(value)})"
    return value


def _outlier_text(outlier: Mapping[str, Any], lang: str = "en") -> str:
    key = "cv_outlier_low" if outlier.get("direction") == "low" else "cv_outlier_high"
    return cluster_strings(lang)[key].format(
        fact=outlier["fact"], value=svg.fmt(outlier["value"]), median=svg.fmt(outlier["median"])
    )


def cluster_view(
    name: str, *, db_session: Any, engine: Engine, stale_after_s: float, lang: str = "en"
) -> dict[str, Any]:
    """Everything the cluster page shows: the cluster diagnosis (reused as is, in `lang`) and each node's
    latest facts."""
    # One read of the cluster serves both the diagnosis and the table's facts.
    diagnosis, latest = diagnose_cluster_with_facts(
        name, db_session=db_session, engine=engine, stale_after_s=stale_after_s, lang=lang
    )
    na = cluster_strings(lang)["cv_na"]
    stragglers = set(diagnosis["stragglers"])
    now = utcnow()
    rows = []
    metrics = []
    for entry in diagnosis["nodes"]:
        node_id = entry["node_id"]
        facts = latest.get(node_id, {})
        m = charts.node_metrics(
            node_id,
            facts,
            stale=entry["stale"],
            straggler=node_id in stragglers,
            outlier_facts=[o["fact"] for o in entry["outliers"]],
        )
        metrics.append(m)
        rows.append(
            {
                "node_id": node_id,
                "href": charts.node_href(node_id),
                "stale": entry["stale"],
                "straggler": node_id in stragglers,
                "zone": entry.get("zone"),
                "collected_at": entry["collected_at"],
                "ago": _ago(entry["collected_at"], now, lang),
                "values": _fact_values(facts, lang),
                "efficiency": m.nic_efficiency_pct,
                "efficiency_text": svg.fmt(m.nic_efficiency_pct, na=na),
                "efficiency_source": m.nic_efficiency_source,
                "outliers": [_outlier_text(o, lang) for o in entry["outliers"]],
                "findings": entry["findings"],  # in `lang` already
            }
        )
    whatif = None
    job = {k: v for k, v in diagnosis["facts"].items() if k in charts.WHATIF_FACTS}
    if all(k in job for k in charts.WHATIF_REQUIRED):
        with contextlib.suppress(charts.WhatIfInputError):
            whatif = {"svg": Markup(charts.whatif_svg(job, lang)), "url": charts.whatif_url(job, lang)}
    cluster_facts = {k: v for k, v in diagnosis["facts"].items() if k.startswith("cluster.")}
    return {
        "name": name,
        "diagnosis": diagnosis,
        "cluster_facts": cluster_facts,
        "rows": rows,
        "grid_svg": Markup(charts.cluster_grid(name, metrics, lang)),
        "fact_columns": fact_columns(lang),
        "whatif": whatif,
        "fabric": fabric_view(name, latest, db_session=db_session, lang=lang),
        "regressions": regressions_view([r["node_id"] for r in rows], db_session=db_session, lang=lang),
        "generated_at": now,
        "refresh_s": REFRESH_S,
    }


def _cluster_context(request: Request, name: str, db_session: Any) -> dict[str, Any]:
    try:
        return cluster_view(
            name,
            db_session=db_session,
            engine=request.app.state.engine,
            stale_after_s=_settings(request).stale_after_s,
            lang=page_language(request),
        )
    except ClusterNotFound:
        raise NotFound(f"no node has reported for cluster {name!r}", code="cluster_not_found") from None


@router.get("/clusters/{name}", response_class=HTMLResponse, include_in_schema=False)
def cluster_page(name: ClusterName, request: Request, db_session: DbSession) -> HTMLResponse:
    """One cluster: findings with evidence, the heat grid, and every node's latest facts."""
    return _page(request, "cluster", name, lambda: _cluster_context(request, name, db_session), "cluster.html")


@router.get("/clusters/{name}/fragment", response_class=HTMLResponse, include_in_schema=False)
def cluster_fragment(name: ClusterName, request: Request, db_session: DbSession) -> HTMLResponse:
    """The cluster page's live part, re-fetched by clusters.js."""
    return _render(request, "_cluster_body.html", _cluster_context(request, name, db_session), fragment=True)


@router.get("/charts/clusters/{name}/grid.svg", include_in_schema=False)
def cluster_grid_svg(name: ClusterName, request: Request, db_session: DbSession) -> Response:
    """The cluster's heat grid on its own (for embedding elsewhere)."""
    context = _cluster_context(request, name, db_session)
    return Response(str(context["grid_svg"]), media_type="image/svg+xml", headers=SVG_HEADERS)


# ---------------------------------------------------------------- one node


def node_view(
    node_id: str, *, db_session: Any, engine: Engine, stale_after_s: float, history_limit: int, lang: str = "en"
) -> dict[str, Any] | None:
    """A node's latest facts and findings, its history as charts and a table, in `lang`; None if unknown."""
    node = get_node(
        node_id,
        db_session=db_session,
        engine=engine,
        stale_after_s=stale_after_s,
        history_limit=history_limit,
        lang=lang,
    )
    if node is None:
        return None
    reports: list[dict[str, Any]] = []
    for i, report in enumerate(node.history):
        findings = report.findings  # in `lang` already, or None: not diagnosed yet
        if findings is None and i < MAX_HISTORY_DIAGNOSED:  # display only; storage is the API's
            findings = localise_findings(None, report.facts, engine=engine, lang=lang)
        reports.append({"collected_at": report.collected_at, "facts": report.facts, "findings": findings or []})
    latest = node.latest
    facts = dict(latest.facts) if latest is not None else {}
    metrics = charts.node_metrics(node_id, facts, stale=node.stale, straggler=False)
    na = cluster_strings(lang)["cv_na"]
    now = utcnow()
    return {
        "node": node,
        "facts": sorted((k, _shown_fact(v)) for k, v in facts.items()),
        "metrics": metrics,
        "efficiency_text": svg.fmt(metrics.nic_efficiency_pct, na=na),
        "speed_text": svg.fmt(metrics.nic_speed_gbps, na=na),
        "negotiated_text": (
            svg.fmt(metrics.nic_negotiated_gbps)
            if metrics.nic_negotiated_gbps not in (None, metrics.nic_speed_gbps)
            else ""
        ),
        "gpu_text": svg.fmt(metrics.gpu_util_pct, na=na),
        "findings": (latest.findings or []) if latest is not None else [],
        "charts": {k: Markup(v) for k, v in charts.node_charts(node_id, reports, lang).items()},
        "fact_columns": fact_columns(lang),
        "history": [
            {
                "collected_at": r["collected_at"],
                "values": _fact_values(r["facts"], lang),
                "findings": [f for f in r["findings"] if f.get("severity") in ("critical", "warning")],
            }
            for r in reports
        ],
        "ago": _ago(node.latest_collected_at, now, lang),
        "age": _age(node.latest_collected_at, now, lang) if node.latest_collected_at else None,
        "cluster_href": None if node.cluster is None else "/clusters/" + node.cluster,
        "generated_at": now,
        "refresh_s": REFRESH_S,
    }


def _node_context(request: Request, node_id: str, db_session: Any) -> dict[str, Any]:
    settings = _settings(request)
    context = node_view(
        node_id,
        db_session=db_session,
        engine=request.app.state.engine,
        stale_after_s=settings.stale_after_s,
        history_limit=settings.history_limit,
        lang=page_language(request),
    )
    if context is None:
        raise NotFound(f"no node {node_id!r} has reported", code="node_not_found")
    return context


@router.get("/nodes/{node_id}", response_class=HTMLResponse, include_in_schema=False)
def node_page(node_id: NodeId, request: Request, db_session: DbSession) -> HTMLResponse:
    """One node over time: GPU, NIC against its rating, step time, and findings."""
    return _page(request, "node", node_id, lambda: _node_context(request, node_id, db_session), "node.html")


@router.get("/nodes/{node_id}/fragment", response_class=HTMLResponse, include_in_schema=False)
def node_fragment(node_id: NodeId, request: Request, db_session: DbSession) -> HTMLResponse:
    """The node page's live part, re-fetched by clusters.js."""
    return _render(request, "_cluster_node_body.html", _node_context(request, node_id, db_session), fragment=True)


@router.get("/charts/nodes/{node_id}/{chart}.svg", include_in_schema=False)
def node_chart_svg(node_id: NodeId, chart: str, request: Request, db_session: DbSession) -> Response:
    """One of a node's history charts on its own: gpu, nic, step or findings."""
    if chart not in NODE_CHARTS:
        raise NotFound(f"no chart {chart!r}; choose one of {', '.join(NODE_CHARTS)}", code="chart_not_found")
    context = _node_context(request, node_id, db_session)
    return Response(str(context["charts"][chart]), media_type="image/svg+xml", headers=SVG_HEADERS)


# ---------------------------------------------------------------- what-if


def _typed(engine: Engine, key: str, value: str) -> Any:
    """A query-string value in the type its fact expects; left as text when it does not parse, so the
    engine's validation names the key, the value and what was expected."""
    spec = engine.catalogue.get(key)
    kind = spec.type if spec is not None else "string"
    if kind in ("number", "int"):
        try:
            return float(value)  # the catalogue turns 8.0 into 8 for int facts and rejects 8.5
        except ValueError:
            return value
    if kind == "bool":
        return {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}.get(
            value.strip().lower(), value
        )
    return value


def whatif_facts(params: list[tuple[str, str]], engine: Engine) -> dict[str, Any]:
    """Validated job facts from query parameters; a 4xx error names what is wrong."""
    raw: dict[str, Any] = {}
    for key, value in params:
        if key == "lang":  # the chart's language (page_language), not a fact
            continue
        if key not in charts.WHATIF_FACTS:
            raise Unprocessable(
                f"unknown parameter {key[:80]!r}",
                code="unknown_parameter",
                details={"key": key[:200], "expected": sorted(charts.WHATIF_FACTS)},
            )
        if key in raw:
            raise Unprocessable(f"parameter {key!r} given twice", code="duplicate_parameter", details={"key": key})
        raw[key] = _typed(engine, key, value)
    facts = validate_facts(engine, raw)
    missing = [k for k in charts.WHATIF_REQUIRED if k not in facts]
    if missing:
        raise Unprocessable(
            "the what-if needs " + ", ".join(missing), code="missing_facts", details={"missing": missing}
        )
    return facts


@router.get("/charts/allreduce.svg", tags=["charts"])
def allreduce_chart(request: Request, engine: EngineDep) -> Response:
    """All-reduce time per gradient sync at 10–400 Gb/s and the job's own NIC speed, as SVG (the web chat
    embeds it under an answer). Query: any facts of the catalogue (a chat turn's facts as they are; other
    names are ignored), lang=en|zh. 204 when the facts give no gradient volume or fewer than two nodes."""
    raw = {
        key: _typed(engine, key, value)
        for key, value in request.query_params.multi_items()
        if key in engine.catalogue and not engine.catalogue[key].derived
    }
    drawing = charts.allreduce_svg(validate_facts(engine, raw), page_language(request))
    if drawing is None:
        return Response(status_code=204, headers=SVG_HEADERS)
    return Response(drawing, media_type="image/svg+xml", headers=SVG_HEADERS)


@router.get("/charts/whatif.svg", tags=["charts"])
def whatif_chart(request: Request, engine: EngineDep) -> Response:
    """What-if for a job, as SVG: all-reduce wait against compute per step at 10–400 Gb/s, with fp16 or
    8-bit gradients, and with 4 or 8 accumulation steps. Query: job.model_params_b, job.precision,
    job.nodes, job.step_time_baseline_s (required); job.grad_accum_steps, nic.speed_gbps,
    net.iperf3_gbps, node.instance_bandwidth_gbps (optional); lang=en|zh for the chart's words
    (else the web pages' choice: their language cookie, then Accept-Language, then English)."""
    from bwdoctor.web.whatif_page import wants_html, whatif_error_page

    try:
        facts = whatif_facts(list(request.query_params.multi_items()), engine)
        try:
            drawing = charts.whatif_svg(facts, page_language(request))
        except charts.WhatIfInputError as exc:
            raise Unprocessable(str(exc), code="whatif_out_of_range", details={"missing": exc.missing}) from None
    except Unprocessable as exc:  # a person opening the link reads a page, a script gets the JSON error
        if wants_html(request):
            return whatif_error_page(request, exc, engine)
        raise
    return Response(drawing, media_type="image/svg+xml", headers=SVG_HEADERS)
