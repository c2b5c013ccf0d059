"""Which element of the fabric explains the slow pairs: evidence, confidence, the what-if, and the
finding in English and Chinese. Pure: pair results in, a Localisation out.

An element is *localised* when at least one slow pair has it as the only element not proven
healthy by a full-speed pair (the other NIC, the uplinks on the way all carried a fast test). Each
such independent slow pair halves the chance that the suspect is wrong, so confidence is
1 − 0.5^n (0.5, 0.75, 0.88, …, at most 0.99), lowered when some slow pairs stay unexplained.
Slow pairs that more than one unproven element could explain are reported as *ambiguous*, with
the candidates, never as a suspect.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, TypedDict

from bwdoctor.fabric.analysis import SLOW_FRACTION, PairResult, analyse
from bwdoctor.fabric.topology import Topology, element_kind, element_name

MAX_CONFIDENCE = 0.99


@dataclass
class Suspect:
    """One element the tests single out, with the pairs that show it."""

    element: str  # class id: nic:<node>, uplink:<leaf>, rail:<rail>, link:<leafA>|<leafB>
    kind: str
    members: list[str]
    slow_pairs: list[dict[str, Any]]  # [{"a", "b", "gbps"}] that only this element explains
    healthy_pairs: list[dict[str, Any]]  # full-speed pairs that cleared the other elements on those paths
    measured_gbps: float
    baseline_gbps: float
    confidence: float
    nodes_affected: list[str]
    what_if: dict[str, Any] = field(default_factory=dict)

    @property
    def slowdown_pct(self) -> float:
        return round(100.0 * (1 - self.measured_gbps / self.baseline_gbps), 1) if self.baseline_gbps else 0.0


class _RunFigures(TypedDict):
    """What every verdict of a run carries, whatever its status (Localisation's fields of the same names)."""

    tests_used: int
    pairs_tested: int
    all_pairs: int
    nodes: list[str]
    failed_pairs: list[dict[str, Any]]
    matrix: dict[str, dict[str, float]]


@dataclass
class Localisation:
    """The verdict of a run of pair tests."""

    status: str  # healthy | degraded | inconclusive | insufficient
    baseline_gbps: float | None
    tests_used: int
    pairs_tested: int
    all_pairs: int
    nodes: list[str]
    suspects: list[Suspect]
    ambiguous: list[dict[str, Any]]  # [{"a","b","gbps","candidates": [...]}]
    unexplained: list[dict[str, Any]]  # slow pairs whose every element tested healthy elsewhere
    failed_pairs: list[dict[str, Any]]
    matrix: dict[str, dict[str, float]]  # node -> node -> best Gb/s (both directions filled)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for s, d in zip(self.suspects, out["suspects"], strict=True):
            d["slowdown_pct"] = s.slowdown_pct
        return out

    @property
    def suspect_elements(self) -> list[str]:
        return [s.element for s in self.suspects]


def _pair_dict(pair: tuple[str, str], gbps: float | None) -> dict[str, Any]:
    return {"a": pair[0], "b": pair[1], "gbps": None if gbps is None else round(gbps, 3)}


def localise(
    topology: Topology,
    results: Sequence[PairResult],
    *,
    slow_fraction: float = SLOW_FRACTION,
    step_time_s: float | None = None,
    comm_time_s: float | None = None,
) -> Localisation:
    """Name the elements that explain the slow pairs (see the module docstring for the method)."""
    analysis = analyse(topology, results, slow_fraction=slow_fraction)
    matrix: dict[str, dict[str, float]] = {}
    for (a, b), gbps in analysis.best.items():
        matrix.setdefault(a, {})[b] = round(gbps, 3)
        matrix.setdefault(b, {})[a] = round(gbps, 3)
    failed = [_pair_dict(p, None) | {"errors": n} for p, n in sorted(analysis.failed.items())]
    common: _RunFigures = {
        "tests_used": len(results),
        "pairs_tested": len(analysis.attempts),
        "all_pairs": topology.all_pairs(),
        "nodes": list(topology.nodes),
        "failed_pairs": failed,
        "matrix": matrix,
    }
    baseline = analysis.baseline_gbps
    if baseline is None:
        return Localisation("insufficient", None, suspects=[], ambiguous=[], unexplained=[], **common)
    suspects: list[Suspect] = []
    explained: set[tuple[str, str]] = set()
    singled_all = sorted({next(iter(c)) for c in analysis.candidates.values() if len(c) == 1})
    singled = [e for e in singled_all if analysis.confirmed(e)]
    for element in singled:
        support = analysis.supporting(element)
        explained.update(support)
        clearing: list[dict[str, Any]] = []
        for pair in support:
            others = topology.path(*pair) - {element}
            for ok in analysis.ok:
                if topology.path(*ok) & others and len(clearing) < 6:
                    entry = _pair_dict(ok, analysis.best[ok])
                    if entry not in clearing:
                        clearing.append(entry)
        measured = statistics.median(analysis.best[p] for p in support)
        suspects.append(
            Suspect(
                element=element,
                kind=element_kind(element),
                members=topology.members(element),
                slow_pairs=[_pair_dict(p, analysis.best[p]) for p in support],
                healthy_pairs=clearing,
                measured_gbps=round(measured, 3),
                baseline_gbps=round(baseline, 3),
                confidence=0.0,
                nodes_affected=topology.nodes_of(element),
            )
        )
    ambiguous = []
    unexplained = []
    for pair, cands in sorted(analysis.candidates.items()):
        if pair in explained:
            continue
        if any(c in cands for c in singled):
            explained.add(pair)  # a localised element on this path explains it too
            continue
        entry = _pair_dict(pair, analysis.best[pair])
        if cands:
            ambiguous.append(entry | {"candidates": sorted(cands)})
        else:
            unexplained.append(entry)
    doubt = len(unexplained) / max(1, len(analysis.slow))
    for suspect in suspects:
        n = len(suspect.slow_pairs)
        suspect.confidence = round(min(MAX_CONFIDENCE, (1 - 0.5**n) * (1 - doubt)), 2)
        suspect.what_if = fix_worth(suspect.measured_gbps, baseline, step_time_s=step_time_s, comm_time_s=comm_time_s)
    suspects.sort(key=lambda s: (-s.confidence, s.measured_gbps, s.element))
    if suspects:
        status = "degraded"
    elif ambiguous:
        status = "inconclusive"
    else:
        status = "healthy"
    return Localisation(
        status, round(baseline, 3), suspects=suspects, ambiguous=ambiguous, unexplained=unexplained, **common
    )


def fix_worth(
    slow_gbps: float, healthy_gbps: float, *, step_time_s: float | None, comm_time_s: float | None
) -> dict[str, Any]:
    """The step time with the element healthy. A ring collective runs at its slowest link, so the
    communication part of a step shrinks by slow/healthy. With the measured step time and the
    communication time it holds (the engine's prediction at the healthy rate, comm_time_s), the
    step time follows; with the step time alone, the best case (a fully communication-bound step)."""
    out: dict[str, Any] = {"collective_speedup": round(healthy_gbps / slow_gbps, 2) if slow_gbps > 0 else None}
    if step_time_s is None or slow_gbps <= 0:
        return out
    ratio = healthy_gbps / slow_gbps
    out["step_time_s"] = step_time_s
    if comm_time_s is not None and comm_time_s > 0:
        comm_now = min(step_time_s, comm_time_s * ratio)
        fixed = max(0.0, step_time_s - comm_now + comm_time_s)
        out["step_time_fixed_s"] = round(min(step_time_s, fixed), 3)
        out["basis"] = "communication model"
    else:
        out["step_time_fixed_min_s"] = round(step_time_s / ratio, 3)
        out["basis"] = "slowest-link bound (communication-bound step)"
    return out


# --- findings, in the engine's finding shape, English and Chinese ----------------------------------

_KIND_TEXT = {
    "en": {
        "nic": "the NIC/port of node {name}",
        "uplink": "the uplink of leaf switch {name}",
        "link": "the link between leaf switches {a} and {b}",
        "rail": "rail {name}",
    },
    "zh": {
        "nic": "节点 {name} 的网卡/端口",
        "uplink": "叶交换机 {name} 的上行链路",
        "link": "叶交换机 {a} 与 {b} 之间的链路",
        "rail": "rail {name}",
    },
}


def describe_element(element: str, lang: str = "en") -> str:
    """The element in words ('the uplink of leaf switch leaf-3' / '叶交换机 leaf-3 的上行链路')."""
    kind, name = element_kind(element), element_name(element)
    texts = _KIND_TEXT.get(lang, _KIND_TEXT["en"])
    if kind == "link":
        a, _, b = name.partition("|")
        return texts["link"].format(a=a, b=b)
    return texts.get(kind, "{name}").format(name=name)


def _what_if_text(what_if: Mapping[str, Any], lang: str) -> str:
    speedup = what_if.get("collective_speedup")
    if not speedup:
        return ""
    if "step_time_fixed_s" in what_if:
        if lang == "zh":
            before, after = what_if["step_time_s"], what_if["step_time_fixed_s"]
            return f"修好后集合通信快 {speedup}×，步时从 {before:g} s 降到约 {after:g} s。"
        return (
            f"Fixed, the collectives run {speedup}× faster and a step drops from "
            f"{what_if['step_time_s']:g} s to about {what_if['step_time_fixed_s']:g} s."
        )
    if "step_time_fixed_min_s" in what_if:
        if lang == "zh":
            return (
                f"修好后集合通信快 {speedup}×；若训练受通信限制，步时可从 {what_if['step_time_s']:g} s "
                f"降到最低 {what_if['step_time_fixed_min_s']:g} s。"
            )
        return (
            f"Fixed, the collectives run {speedup}× faster; if the step is communication-bound it can drop "
            f"from {what_if['step_time_s']:g} s to as little as {what_if['step_time_fixed_min_s']:g} s."
        )
    if lang == "zh":
        return f"环形集合通信受最慢链路限制，修好后快 {speedup}×。"
    return f"A ring collective runs at its slowest link: fixed, it runs {speedup}× faster."


def suspect_finding(suspect: Suspect, lang: str = "en") -> dict[str, Any]:
    """A suspect as a finding (rule, category, severity, confidence, title, explanation, evidence)."""
    what = describe_element(suspect.element, lang)
    pairs = ", ".join(f"{p['a']}↔{p['b']} {p['gbps']:g} Gb/s" for p in suspect.slow_pairs[:4])
    cleared = ", ".join(f"{p['a']}↔{p['b']} {p['gbps']:g}" for p in suspect.healthy_pairs[:3])
    pct = suspect.slowdown_pct
    if lang == "zh":
        title = f"{what}降速 {pct:g}%"
        explanation = (
            f"经过它的测试对只有 {suspect.measured_gbps:g} Gb/s，健康链路为 {suspect.baseline_gbps:g} Gb/s。"
            f"这些测试路径上的其他元件都在满速测试中被证明正常（{cleared or '无'}），所以只剩它能解释变慢。"
            + _what_if_text(suspect.what_if, lang)
        )
        recommendation = "检查该端口/链路：协商速率、光模块与线缆、交换机端口错误计数；修复后重新测试。"
    else:
        title = f"{what[0].upper()}{what[1:]} is {pct:g} % slow"
        explanation = (
            f"Pairs through it deliver {suspect.measured_gbps:g} Gb/s against {suspect.baseline_gbps:g} Gb/s on "
            f"healthy pairs. Every other element on those paths carried a full-speed test ({cleared or 'none'}), "
            "so only this one explains the slow pairs. " + _what_if_text(suspect.what_if, lang)
        )
        recommendation = (
            "Check that port or link: negotiated speed, optics and cable, the switch port's error counters; "
            "test again once fixed."
        )
    return {
        "rule": f"fabric-{suspect.kind}-degraded",
        "category": "fabric-element-degraded",
        "severity": "critical" if pct >= 50 else "warning",
        "confidence": suspect.confidence,
        "title": title.strip(),
        "explanation": explanation.strip(),
        "evidence": {
            "element": suspect.element,
            "slow_pairs": pairs,
            "measured_gbps": suspect.measured_gbps,
            "baseline_gbps": suspect.baseline_gbps,
        },
        "recommendations": [recommendation],
        "source": "fabric pair tests (service/fabric/localise.py)",
    }


def localisation_findings(loc: Localisation, lang: str = "en") -> list[dict[str, Any]]:
    """The findings of a localisation: one per suspect, or one saying the fabric is healthy."""
    if loc.suspects:
        return [suspect_finding(s, lang) for s in loc.suspects]
    if loc.status == "healthy":
        if lang == "zh":
            title = "网络结构健康：所有测试对都达到基线"
            text = (
                f"{loc.tests_used} 次测试（全部 {loc.all_pairs} 对中的 {loc.pairs_tested} 对）"
                f"都在 {loc.baseline_gbps:g} Gb/s 左右。"
            )
        else:
            title = "The fabric is healthy: every pair tested runs at the baseline"
            text = (
                f"{loc.tests_used} tests ({loc.pairs_tested} of {loc.all_pairs} pairs) all ran near "
                f"{loc.baseline_gbps:g} Gb/s."
            )
        return [
            {
                "rule": "fabric-healthy",
                "category": "healthy",
                "severity": "info",
                "confidence": 0.9,
                "title": title,
                "explanation": text,
                "evidence": {"tests_used": loc.tests_used, "all_pairs": loc.all_pairs},
                "recommendations": [],
                "source": "fabric pair tests (service/fabric/localise.py)",
            }
        ]
    return []


def bad_link_answer(loc: Localisation | None, cluster: str, lang: str = "en") -> str:
    """One paragraph for the chat's "which link is bad in cluster X?" (the lead's chat calls this)."""
    if loc is None:
        if lang == "zh":
            return f"集群 {cluster} 还没有跑过成对带宽测试。开启测试（PUT /api/v1/clusters/{cluster}/fabric）后再问。"
        return (
            f"Cluster {cluster} has no pair-test results yet. Enable the tests "
            f"(PUT /api/v1/clusters/{cluster}/fabric) and ask again."
        )
    counts = (
        f"{loc.tests_used} 次测试，全部 {loc.all_pairs} 对"
        if lang == "zh"
        else f"{loc.tests_used} tests of {loc.all_pairs} pairs"
    )
    if loc.suspects:
        parts = []
        for s in loc.suspects:
            f = suspect_finding(s, lang)
            parts.append(
                f"{f['title']}（置信度 {s.confidence:.0%}）"
                if lang == "zh"
                else f"{f['title']} (confidence {s.confidence:.0%})."
            )
        head = f"集群 {cluster}：" if lang == "zh" else f"Cluster {cluster}: "
        return head + " ".join(parts) + (f"（{counts}）" if lang == "zh" else f" ({counts})")
    if loc.status == "healthy":
        if lang == "zh":
            return f"集群 {cluster} 的网络结构健康：没有慢链路（{counts}）。"
        return f"Cluster {cluster}'s fabric is healthy: no slow link ({counts})."
    if lang == "zh":
        return f"集群 {cluster}：有慢的测试对，但还不能确定是哪个元件（{counts}）。"
    return f"Cluster {cluster}: some pairs are slow but the tests cannot single out one element yet ({counts})."
