"""The product's charts: the cluster heat grid, a node's history, and the what-if of a job.

Pure functions from facts (and stored reports) to SVG strings, so the pages, the
/charts/*.svg endpoints and chat answers draw the same pictures. All arithmetic comes from the
engine's own formulas (`bwdoctor.engine.derive`, `what_if_figures`); this module
only chooses scenarios and draws. Every builder takes the page's `lang` (en or zh) and writes its
words from i18n.py; fact names, numbers and units stay as they are in both languages.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote, urlencode

from bwdoctor.engine import LINK_CAPS, derive, what_if_figures
from bwdoctor.web import svg
from bwdoctor.web.i18n import cluster_strings

LINK_SPEEDS_GBPS = (10, 25, 100, 200, 400)
COMPRESSIONS = (("fp16", "ch_wi_fp16"), ("int8", "ch_wi_int8"))  # precision, the i18n key of its label
ACCUMULATIONS = (4, 8)
REFERENCE_LINK_GBPS = 100
WHATIF_REQUIRED = ("job.model_params_b", "job.precision", "job.nodes", "job.step_time_baseline_s")
# Facts the what-if endpoint accepts: the job, and what caps the link today.
WHATIF_FACTS = frozenset(
    {
        *WHATIF_REQUIRED,
        "job.grad_accum_steps",
        "job.gpus_per_node",
        "nic.speed_gbps",
        "net.iperf3_gbps",
        "node.instance_bandwidth_gbps",
    }
)

GPU_GOOD, GPU_FAIR = 80.0, 50.0  # the comm-bound rules start below 80 %
NIC_GOOD, NIC_FAIR = 80.0, 50.0  # measured ÷ rated; the link-degraded rules look far below the rating
STEP_GOOD, STEP_FAIR = 1.1, 1.3  # step time ÷ the cluster's median


def number(value: Any) -> float | None:
    """A fact's numeric value, or None (booleans and text are not numbers here)."""
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def when(ts: float) -> str:
    """A chart's time label (UTC)."""
    return datetime.fromtimestamp(ts, UTC).strftime("%m-%d %H:%M")


# ---------------------------------------------------------------- cluster grid


@dataclass
class NodeMetrics:
    """What the grid and the node table show for one node, with the engine's derived ratios."""

    node_id: str
    stale: bool
    straggler: bool
    outlier_facts: frozenset[str]
    gpu_util_pct: float | None
    nic_speed_gbps: float | None  # the rating (nic.max_speed_gbps), else the negotiated speed
    nic_efficiency_pct: float | None
    nic_efficiency_source: str | None  # "iperf3" (measured ÷ rated) or "rx/tx" (observed ÷ rated)
    step_time_s: float | None
    facts: dict[str, Any] = field(default_factory=dict)
    nic_negotiated_gbps: float | None = None  # nic.speed_gbps: what the link runs at, apart from its rating


def node_metrics(
    node_id: str, facts: Mapping[str, Any], *, stale: bool, straggler: bool, outlier_facts: Iterable[str] = ()
) -> NodeMetrics:
    """A node's figures; NIC efficiency is iperf3 ÷ rated when measured, else max(rx, tx) ÷ rated, where
    rated is the NIC's rating (nic.max_speed_gbps) when known, else its negotiated speed (nic.speed_gbps)."""
    negotiated = number(facts.get("nic.speed_gbps"))
    rated = number(facts.get("nic.max_speed_gbps")) or negotiated
    # The engine's ratios (net.efficiency_pct, nic.utilisation_pct) against the rating: the same
    # formulas with the link taken at its rated speed.
    derived = derive({**facts, "nic.speed_gbps": rated} if rated else facts)
    if "net.efficiency_pct" in derived:
        efficiency, source = derived["net.efficiency_pct"], "iperf3"
    elif "nic.utilisation_pct" in derived:
        efficiency, source = derived["nic.utilisation_pct"], "rx/tx"
    else:
        efficiency, source = None, None
    return NodeMetrics(
        node_id=node_id,
        stale=stale,
        straggler=straggler,
        outlier_facts=frozenset(outlier_facts),
        gpu_util_pct=number(facts.get("gpu.util_pct")),
        nic_speed_gbps=rated,
        nic_negotiated_gbps=negotiated,
        nic_efficiency_pct=efficiency,
        nic_efficiency_source=source,
        step_time_s=number(facts.get("job.step_time_s")),
        facts=dict(facts),
    )


def _level(value: float, good: float, fair: float, *, higher_is_better: bool = True) -> str:
    if higher_is_better:
        return "good" if value >= good else "fair" if value >= fair else "poor"
    return "good" if value <= good else "fair" if value <= fair else "poor"


def _cell(
    value: float | None,
    shown: str,
    level: str,
    node: NodeMetrics,
    facts: Sequence[str],
    tip: str,
    words: Mapping[str, str],
    lang: str,
) -> svg.GridCell:
    if value is None:
        return svg.GridCell(
            words["cv_na"], "missing", words["ch_tip"].format(node=node.node_id, tip=words["ch_not_reported"])
        )
    word = svg.level_word(level, lang) if level != "info" else ""  # rx/tx cells already say what they are
    if node.outlier_facts.intersection(facts):
        level, word = "poor", words["ch_outlier"]
    if node.stale:
        level, word = "stale", words["ch_stale"]
    return svg.GridCell(
        f"{shown} · {word}" if word else shown, level, words["ch_tip"].format(node=node.node_id, tip=tip)
    )


def grid_rows(nodes: Sequence[NodeMetrics], lang: str = "en") -> list[svg.GridRow]:
    """One row per node: GPU utilisation, NIC measured ÷ rated, step time against the cluster median."""
    w = cluster_strings(lang)
    fresh_steps = [n.step_time_s for n in nodes if n.step_time_s is not None and not n.stale]
    median_step = statistics.median(fresh_steps) if fresh_steps else None
    rows = []
    for n in nodes:
        gpu = _cell(
            n.gpu_util_pct,
            f"{svg.fmt(n.gpu_util_pct)} %",
            _level(n.gpu_util_pct or 0.0, GPU_GOOD, GPU_FAIR),
            n,
            ("gpu.util_pct",),
            w["ch_gpu_tip"].format(pct=svg.fmt(n.gpu_util_pct)),
            w,
            lang,
        )
        if n.nic_efficiency_source == "rx/tx":
            level, note = "info", "rx/tx"
        else:
            level, note = _level(n.nic_efficiency_pct or 0.0, NIC_GOOD, NIC_FAIR), ""
        pct = svg.fmt(n.nic_efficiency_pct)
        shown = f"{pct} %"
        if n.nic_speed_gbps is not None:
            shown = w["ch_nic_of_rated"].format(pct=pct, speed=svg.fmt(n.nic_speed_gbps))
            if n.nic_negotiated_gbps is not None and n.nic_negotiated_gbps != n.nic_speed_gbps:
                shown += " " + w["ch_nic_negotiated"].format(speed=svg.fmt(n.nic_negotiated_gbps))
        nic = _cell(
            n.nic_efficiency_pct,
            shown + (f" {note}" if note else ""),
            level,
            n,
            ("net.iperf3_gbps", "nic.speed_gbps", "nccl.allreduce_busbw_gbytes_per_s"),
            w["ch_nic_tip"].format(
                source=n.nic_efficiency_source or "", pct=pct, speed=svg.fmt(n.nic_speed_gbps, na=w["cv_na"])
            ),
            w,
            lang,
        )
        ratio = n.step_time_s / median_step if n.step_time_s is not None and median_step else None
        step = _cell(
            n.step_time_s,
            f"{svg.fmt(n.step_time_s)} s",
            _level(ratio or 1.0, STEP_GOOD, STEP_FAIR, higher_is_better=False),
            n,
            ("job.step_time_s",),
            w["ch_step_tip"].format(step=svg.fmt(n.step_time_s), median=svg.fmt(median_step, na=w["cv_na"])),
            w,
            lang,
        )
        badges = ([w["ch_badge_straggler"]] if n.straggler else []) + ([w["ch_badge_stale"]] if n.stale else [])
        rows.append(svg.GridRow(n.node_id, (gpu, nic, step), badges, href=node_href(n.node_id)))
    return rows


def node_href(node_id: str) -> str:
    """The node page's URL (ids are restricted by the API, quoted anyway)."""
    return "/nodes/" + quote(node_id, safe="")


def cluster_grid(name: str, nodes: Sequence[NodeMetrics], lang: str = "en") -> str:
    """The cluster's heat grid as SVG."""
    w = cluster_strings(lang)
    return svg.heat_grid(
        (w["ch_col_gpu"], w["ch_col_nic"], w["ch_col_step"]),
        grid_rows(nodes, lang),
        title=w["ch_grid_title"].format(name=name),
        desc=w["ch_grid_desc"],
        id_prefix=svg.chart_id("grid", name),
        lang=lang,
    )


# ---------------------------------------------------------------- node history


def _series(reports: Sequence[Mapping[str, Any]], key: str) -> list[tuple[float, float | None]]:
    return [(r["collected_at"].timestamp(), number(r["facts"].get(key))) for r in reports]


def node_charts(node_id: str, reports: Sequence[Mapping[str, Any]], lang: str = "en") -> dict[str, str]:
    """GPU, NIC and step-time lines and the findings strip from a node's reports (any order).

    Each report is a mapping with `collected_at` (datetime), `facts` and `findings` (whose titles
    the caller gives in `lang`).
    """
    w = cluster_strings(lang)
    ordered = sorted(reports, key=lambda r: r["collected_at"])
    pid = svg.chart_id("node", node_id)
    speeds = sorted(
        {s for r in ordered if (s := number(r["facts"].get("nic.max_speed_gbps") or r["facts"].get("nic.speed_gbps")))}
    )
    refs = [svg.Reference(w["ch_rated"], speeds[-1])] if speeds else []
    if len(speeds) > 1:
        refs.insert(0, svg.Reference(w["ch_rated_min"], speeds[0]))
    gpu = svg.line_chart(
        [
            svg.Series(w["ch_gpu_series"], _series(ordered, "gpu.util_pct")),
            svg.Series(w["ch_gpu_least_busy"], _series(ordered, "gpu.util_min_pct")),
        ],
        title=w["ch_gpu_title"],
        y_label=w["ch_gpu_axis"],
        x_format=when,
        y_max=100,
        id_prefix=pid + "g",
        lang=lang,
    )
    nic = svg.line_chart(
        [
            svg.Series("rx", _series(ordered, "nic.rx_gbps")),
            svg.Series("tx", _series(ordered, "nic.tx_gbps")),
            svg.Series("iperf3", _series(ordered, "net.iperf3_gbps")),
        ],
        title=w["ch_nic_title"],
        y_label="Gb/s",
        x_format=when,
        references=refs,
        id_prefix=pid + "n",
        lang=lang,
    )
    step = svg.line_chart(
        [svg.Series(w["ch_step_series"], _series(ordered, "job.step_time_s"))],
        title=w["ch_step_title"],
        y_label=w["ch_seconds"],
        x_format=when,
        id_prefix=pid + "s",
        lang=lang,
    )
    # One lane per rule (titles carry numbers that change between reports), named by its latest title.
    rules: list[str] = []
    names: dict[str, str] = {}
    events: list[svg.Event] = []
    for r in ordered:
        for f in r.get("findings") or []:
            rule = str(f.get("rule") or f.get("title") or "?")
            if rule not in rules:
                rules.append(rule)
            names[rule] = str(f.get("title") or rule)
            severity = str(f.get("severity", "info"))
            tip = w["ch_event_tip"].format(
                when=when(r["collected_at"].timestamp()), severity=svg.severity_word(severity, lang), title=names[rule]
            )
            events.append(svg.Event(rules.index(rule), r["collected_at"].timestamp(), severity, tip))
    lanes = [names[rule] for rule in rules]
    strip = svg.event_strip(lanes, events, title=w["ch_findings_title"], x_format=when, id_prefix=pid + "f", lang=lang)
    return {"gpu": gpu, "nic": nic, "step": step, "findings": strip}


# ---------------------------------------------------------------- what-if


@dataclass(frozen=True)
class Scenario:
    """One bar of the what-if: the facts changed and the engine's figures for them."""

    group: str
    label: str
    changes: dict[str, Any]
    compute_s: float
    comm_s: float
    fraction: float
    current: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "group": self.group,
            "label": self.label,
            "changes": self.changes,
            "compute_s": self.compute_s,
            "comm_s": self.comm_s,
            "comm_fraction": self.fraction,
            "current": self.current,
        }


class WhatIfInputError(ValueError):
    """The job facts cannot give a what-if (a required fact is missing, or the figures overflow)."""

    def __init__(self, missing: Sequence[str], message: str = "") -> None:
        super().__init__(message or "the what-if needs " + ", ".join(missing))
        self.missing = list(missing)


def _scenario(
    facts: Mapping[str, Any], changes: Mapping[str, Any], group: str, label: str, current: bool
) -> Scenario | None:
    """The scenario's figures, or None when the engine cannot give finite ones (absurd inputs)."""
    figures = what_if_figures(facts, changes) or what_if_figures(facts, {}) or {}
    compute = number(figures.get("job.step_time_baseline_s"))
    comm = number(figures.get("comm.allreduce_amortised_s"))
    fraction = number(figures.get("comm.fraction"))
    if compute is None or comm is None or fraction is None:
        return None
    if not all(math.isfinite(v) for v in (compute, comm, fraction, compute + comm)) or compute + comm <= 0:
        return None
    return Scenario(
        group=group,
        label=label,
        changes={k: v for k, v in changes.items() if v is not None},
        compute_s=compute,
        comm_s=comm,
        fraction=fraction,
        current=current,
    )


def _at_link(gbps: float) -> dict[str, Any]:
    """Changes that make the link exactly `gbps`: every other cap on it removed."""
    return {**dict.fromkeys(LINK_CAPS), "nic.speed_gbps": gbps}


def whatif_scenarios(facts: Mapping[str, Any], lang: str = "en") -> list[Scenario]:
    """The job at each link speed, with compression, and with gradient accumulation (validated facts in);
    groups and labels in `lang`."""
    missing = [k for k in WHATIF_REQUIRED if k not in facts]
    if missing:
        raise WhatIfInputError(missing)
    w = cluster_strings(lang)
    precision = facts["job.precision"]
    accum = int(facts.get("job.grad_accum_steps", 1))
    current_link = derive(facts).get("comm.link_gbps")
    out: list[Scenario | None] = []
    speed_group = w["ch_wi_link_group"].format(precision=precision, accum=accum)
    if current_link is not None:
        label = w["ch_wi_your_link"].format(gbps=svg.fmt(current_link))
        out.append(_scenario(facts, {}, speed_group, label, True))
    for gbps in LINK_SPEEDS_GBPS:
        out.append(_scenario(facts, _at_link(gbps), speed_group, w["ch_wi_gbps"].format(gbps=gbps), False))
    base_link = current_link if current_link is not None else REFERENCE_LINK_GBPS
    at_base = _at_link(base_link)
    where = w["ch_wi_at"].format(gbps=svg.fmt(base_link))
    group = w["ch_wi_compression_group"].format(where=where)
    out.append(_scenario(facts, at_base, group, w["ch_wi_as_is"].format(precision=precision), False))
    for value, key in COMPRESSIONS:
        out.append(_scenario(facts, {**at_base, "job.precision": value}, group, w[key], False))
    group = w["ch_wi_accum_group"].format(where=where, precision=precision)
    for k in ACCUMULATIONS:
        out.append(_scenario(facts, {**at_base, "job.grad_accum_steps": k}, group, w["ch_wi_k"].format(k=k), False))
    scenarios = [s for s in out if s is not None]
    if not scenarios:
        raise WhatIfInputError([], "the job's figures are outside what can be computed")
    return scenarios


def whatif_svg(facts: Mapping[str, Any], lang: str = "en") -> str:
    """The what-if bar chart: compute time of a step against its all-reduce wait, per scenario."""
    w = cluster_strings(lang)
    scenarios = whatif_scenarios(facts, lang)
    groups: dict[str, list[svg.Bar]] = {}
    for s in scenarios:
        total = s.compute_s + s.comm_s
        note = w["ch_wi_note"].format(
            compute=svg.fmt(s.compute_s), comm=svg.fmt(s.comm_s), pct=f"{s.fraction * 100:.0f}"
        )
        bar = svg.Bar(
            w["ch_wi_now"].format(label=s.label) if s.current else s.label,
            (svg.Segment("compute", 100 * s.compute_s / total), svg.Segment("comm", 100 * s.comm_s / total)),
            note,
            s.current,
        )
        groups.setdefault(s.group, []).append(bar)
    model = w["ch_wi_model"].format(params=svg.fmt(float(facts["job.model_params_b"])), nodes=facts["job.nodes"])
    return svg.stacked_bars(
        [svg.BarGroup(h, tuple(b)) for h, b in groups.items()],
        title=w["ch_wi_title"].format(model=model),
        x_label=w["ch_wi_axis"],
        legend=(("compute", w["ch_wi_compute"]), ("comm", w["ch_wi_comm"])),
        desc=w["ch_wi_desc"],
        id_prefix=svg.chart_id("whatif", sorted(facts.items())),
        x_max=100,
        lang=lang,
    )


def whatif_url(facts: Mapping[str, Any], lang: str | None = None) -> str:
    """The /charts/whatif.svg URL for these facts (for chat answers that link or embed the chart), with
    `lang=` when the chart should be drawn in a given language rather than the visitor's."""
    params = {k: ("true" if v is True else "false" if v is False else v) for k, v in facts.items() if k in WHATIF_FACTS}
    query = sorted(params.items()) + ([("lang", lang)] if lang else [])
    return "/charts/whatif.svg?" + urlencode(query)


# ---------------------------------------------------------------- all-reduce by link speed (the chat's chart)

MAX_CHART_LINK_GBPS = 3200  # a stated link faster than this gets no row of its own


def allreduce_rows(facts: Mapping[str, Any]) -> list[tuple[float, float]] | None:
    """(link Gb/s, seconds of one ring all-reduce) at each common speed and the job's own NIC speed, from
    the engine's what-if; None when the facts give no gradient volume or fewer than two nodes."""
    nodes = number(facts.get("job.nodes"))
    if nodes is None or nodes < 2:
        return None
    current = number(facts.get("nic.speed_gbps"))
    speeds = set(map(float, LINK_SPEEDS_GBPS))
    if current is not None and 0 < current <= MAX_CHART_LINK_GBPS:
        speeds.add(current)
    rows = []
    for gbps in sorted(speeds):
        seconds = number((what_if_figures(facts, _at_link(gbps)) or {}).get("comm.allreduce_time_s"))
        if seconds is None or not math.isfinite(seconds):
            return None
        rows.append((gbps, seconds))
    return rows


def allreduce_svg(facts: Mapping[str, Any], lang: str = "en") -> str | None:
    """All-reduce time per gradient sync at each NIC speed, the job's own marked; None without the facts.
    The web chat embeds it under an answer (classes styled by chat.css)."""
    rows = allreduce_rows(facts)
    if not rows:
        return None
    w = cluster_strings(lang)
    grad = number(derive(facts).get("comm.grad_gbytes"))
    current = number(facts.get("nic.speed_gbps"))
    desc = w["chart_desc"].format(gb=svg.fmt(grad), n=svg.fmt(number(facts.get("job.nodes"))))
    row_h, label_w, value_w, bar_w, top = 30, 84, 130, 300, 6
    width, height = label_w + bar_w + value_w, top + len(rows) * row_h + 4
    pid = svg.chart_id("allreduce", sorted((k, str(v)) for k, v in facts.items()))
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="100%" role="img" '
        f'class="chart-svg" focusable="false" aria-labelledby="{pid}-title {pid}-desc">',
        f'<title id="{pid}-title">{svg.text(w["chart_title"])}</title>',
        f'<desc id="{pid}-desc">{svg.text(desc)}</desc>',
    ]
    longest = max(s for _, s in rows)
    for i, (gbps, seconds) in enumerate(rows):
        y = top + i * row_h
        yours = current == gbps
        bar = max(2.0, seconds / longest * bar_w)
        value = f"{svg.fmt(seconds)} {w['seconds']}" + (f" ◀ {w['chart_yours']}" if yours else "")
        out += [
            f'<g class="{"chart-row chart-yours" if yours else "chart-row"}">',
            f'<text x="{label_w - 8}" y="{y + 19}" text-anchor="end" class="chart-label">'
            f"{svg.text(svg.fmt(gbps))} Gb/s</text>",
            f'<rect x="{label_w}" y="{y + 5}" width="{bar:.1f}" height="{row_h - 10}" rx="3" class="chart-bar"/>',
            f'<text x="{label_w + bar + 6:.1f}" y="{y + 19}" class="chart-value">{svg.text(value)}</text>',
            "</g>",
        ]
    out.append("</svg>")
    return "".join(out)
