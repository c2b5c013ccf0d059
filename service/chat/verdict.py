"""The answer to a yes/no question, first and with the number that decides it.

"Is 25 GbE enough for us?", "这个带宽够不够？", "Is the network the problem?" get yes, no or not sure as
the reply's first words, then the one figure the verdict turns on — one gradient sync against one
step, busbw or iperf3 against the line rate, the multi-node slowdown — never a table of NIC sizes
and never a question about the fact the user just gave. A verdict that rests on an assumption says
so ("at fp16/bf16, assumed"; "if the network really has no RDMA").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from bwdoctor.chat.labels import fact_name
from bwdoctor.chat.units import format_number
from bwdoctor.engine import Engine
from bwdoctor.i18n import SUPPORTED, t

_IC = re.IGNORECASE

# The kinds of yes/no question the chat answers with a verdict. "enough": yes means the network suffices;
# "upgrade": yes means it does not; "network": yes means the network is what slows the job.
_ENOUGH = re.compile(
    r"\b(?:is|are|would|will|was|were)\b[^.?!\n。？！]{0,60}\b(?:enough|sufficient|adequate|good enough)\b|"
    r"\benough\b[^.!\n。！]{0,30}[?？]|够不够|够用吗|够用不|够吗|够不|是否足够|足够吗|足不足够|能不能满足|满足(?:需求|要求)吗|"
    r"(?:带宽|网络|网卡)[^。？?！!\n]{0,12}(?:行不行|可以吗|能行吗)", _IC)
_UPGRADE = re.compile(
    r"\b(?:do|does|should|must)\s+(?:we|i|it|they)\s+(?:really\s+)?(?:need|have)\s+(?:to\s+)?(?:a\s+|an\s+)?"
    r"(?:upgrade|faster|more bandwidth|bigger|InfiniBand|IB\b|RDMA|RoCE|\d+\s*G)|"
    r"需要(?:升级|换|上|加)[^。？?！!\n]{0,16}(?:吗|么|不)|要不要(?:升级|换|上|加)|"
    r"有(?:没有)?必要(?:升级|换|上|加)", _IC)
_NETWORK = re.compile(
    r"\b(?:is|are|could|might|was)\s+(?:it|this|that|the|our|my)\s+(?:\w+\s+){0,2}?"
    r"(?:network|bandwidth|interconnect|NICs?|communication|comms|fabric|links?)\b[^.?!\n]{0,40}?"
    r"(?:problem|bottleneck|issue|culprit|cause|limit|limiting|slowing|to blame|the reason|fault)|"
    r"\bis\s+(?:it|this)\s+(?:the\s+)?(?:network|bandwidth|communication)\s*[?？]|"
    r"\b(?:network|bandwidth|communication)[- ]bound\s*[?？]|"
    r"是不是(?:因为)?(?:网络|带宽|通信|网卡)|(?:网络|带宽|通信|网卡)(?:的)?(?:问题|瓶颈|原因)(?:吗|么|嘛)|"
    r"是否(?:是|为)?(?:网络|带宽|通信)|瓶颈(?:是|在)(?:不是)?(?:网络|带宽|通信)|(?:网络|带宽|通信)(?:是不是|是)瓶颈|"
    r"卡在(?:网络|通信|带宽)(?:上)?(?:吗|么)", _IC)

# Finding categories that say "the network (or how NCCL uses it) is what slows the job".
NETWORK_CATEGORIES = frozenset({
    "nic-undersized", "comm-bound", "no-rdma-at-scale", "link-degraded", "latency-bound", "network-jitter",
    "cloud-instance-bandwidth", "nccl-transport-fallback", "param-server-topology", "fabric-element-degraded",
})
SERIOUS = frozenset({"critical", "warning"})
# Bytes per gradient element assumed when the user did not say (mixed precision, the usual case at scale).
ASSUMED_PRECISION = "bf16"
# Shares of a step spent in the sync: at or above HIGH the network decides the speed, at or below LOW not.
HIGH, LOW = 0.3, 0.1


def yes_no_kind(text: str) -> str | None:
    """'enough', 'upgrade' or 'network' when the question asks one of those yes/no questions, else None."""
    if _NETWORK.search(text):
        return "network"
    if _UPGRADE.search(text):
        return "upgrade"
    if _ENOUGH.search(text):
        return "enough"
    return None


@dataclass(frozen=True)
class Verdict:
    """Yes, no or not sure (from the network's side: does it slow the job?) and the sentence that says it."""

    network_is_problem: bool | None
    text: str
    figure: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for the turn's record (`verdict` in the reply)."""
        return {"network_is_problem": self.network_is_problem, "text": self.text, "figure": self.figure}


def _both(key: str, per_lang: Mapping[str, Mapping[str, Any]] | None = None, **values: Any) -> tuple[str, str]:
    """The text of "chat.<key>" in English and in Chinese (a Figure keeps both); `per_lang`: values that
    are themselves in one language."""
    en, zh = (t(f"chat.{key}", lang, **values, **(per_lang or {}).get(lang, {})) for lang in SUPPORTED)
    return en, zh


def _n(value: Any) -> str:
    return format_number(value)


# --------------------------------------------------------------------------- the deciding figures
@dataclass(frozen=True)
class Figure:
    """One number that can decide the question, what it leans to (True: the network slows the job), in words."""

    leans: bool | None
    en: str
    zh: str

    def text(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


def sync_figures(facts: Mapping[str, Any], derived: Mapping[str, Any], engine: Engine | None,
                 lang: str, assumed: Collection[str] = ()) -> dict[str, Any]:
    """Gradient volume, link rate and sync time of the job; when the precision is missing (or only assumed by the
    reader), computed at ASSUMED_PRECISION and marked `assumed` (never a figure without the assumption it rests on)."""
    figures = {k: derived.get(k) for k in ("comm.grad_gbytes", "comm.link_gbps", "comm.allreduce_time_s",
                                           "comm.sync_time_naive_s", "comm.dp_time_s", "comm.allreduce_amortised_s",
                                           "comm.fraction")}
    figures["assumed"] = facts.get("job.precision") if "job.precision" in assumed else None
    if (figures["comm.grad_gbytes"] is None and engine is not None and "job.model_params_b" in facts
            and "job.precision" not in facts and figures["comm.link_gbps"] is not None):
        try:
            again = engine.diagnose({**facts, "job.precision": ASSUMED_PRECISION}, lang=lang).derived
        except Exception:  # noqa: BLE001 — an assumption that cannot be computed is simply not used
            return figures
        for key in figures:
            if key != "assumed" and again.get(key) is not None:
                figures[key] = again[key]
        if figures["comm.grad_gbytes"] is not None:
            figures["assumed"] = ASSUMED_PRECISION
    return figures


def _sync_phrase(f: Mapping[str, Any], facts: Mapping[str, Any], lang: str) -> tuple[float, str, str] | None:
    """(seconds, en, zh) of one gradient sync: the ring all-reduce across the nodes, else size ÷ rate."""
    grad, link = f.get("comm.grad_gbytes"), f.get("comm.link_gbps")
    ring = f.get("comm.allreduce_amortised_s") or f.get("comm.allreduce_time_s")
    nodes = facts.get("job.nodes")
    if grad is None or link is None:
        return None
    at = {lang: {"at": t("chat.sync_assuming", lang, precision=str(f["assumed"]).upper()) if f.get("assumed")
                 else ""} for lang in SUPPORTED}
    if ring is not None and nodes and nodes > 1:
        # a full shard's step moves 1.5x a ring all-reduce: said so, never as 'one sync' of that size
        full_shard = f.get("comm.dp_time_s") is not None and f.get("comm.allreduce_time_s") is not None \
            and f["comm.dp_time_s"] > 1.01 * f["comm.allreduce_time_s"] and (facts.get("job.pp_degree") or 1) <= 1
        return (float(ring), *_both("sync_full_shard" if full_shard else "sync_ring", at, ring=_n(ring), grad=_n(grad),
                                    nodes=int(nodes), link=_n(link)))
    naive = f.get("comm.sync_time_naive_s")
    if naive is None:
        return None
    return (float(naive), *_both("sync_naive", at, naive=_n(naive), grad=_n(grad), link=_n(link)))


def deciding_figures(facts: Mapping[str, Any], derived: Mapping[str, Any], engine: Engine | None,
                     lang: str, assumed: Collection[str] = ()) -> list[Figure]:
    """The numbers that can decide "is the network the problem / enough?", most telling first."""
    out: list[Figure] = []
    f = sync_figures(facts, derived, engine, lang, assumed)
    sync = _sync_phrase(f, facts, lang)
    base, step = facts.get("job.step_time_baseline_s"), facts.get("job.step_time_s")
    step_s = float(step or 0)
    if sync is not None and (base or step):
        seconds, en, zh = sync
        said = {"en": {"sync": en}, "zh": {"sync": zh}}
        if base:
            share = seconds / (seconds + float(base))
            out.append(Figure(share >= HIGH if share >= HIGH or share <= LOW else None,
                              *_both("sync_vs_compute", said, base=_n(base), pct=_n(100 * share))))
        elif seconds > 1.2 * step_s:
            out.append(Figure(None, *_both("sync_longer_than_step", said, step=_n(step))))
        else:
            share = seconds / step_s
            out.append(Figure(share >= HIGH if share >= HIGH or share <= LOW else None,
                              *_both("sync_vs_step", said, step=_n(step), pct=_n(100 * share))))
    eff = derived.get("nccl.efficiency_pct")
    busbw = facts.get("nccl.allreduce_busbw_gbytes_per_s")
    line = derived.get("nic.line_rate_gbps") or facts.get("nic.speed_gbps")
    if eff is not None and busbw is not None and line:
        out.append(Figure(True if eff < 50 else False if eff >= 70 else None,
                          *_both("busbw_of_line_rate", busbw=_n(busbw), eff=_n(eff), line=_n(line))))
    eff = derived.get("net.efficiency_pct")
    if eff is not None and facts.get("net.iperf3_gbps") is not None and facts.get("nic.speed_gbps"):
        out.append(Figure(True if eff < 50 else False if eff >= 70 else None,
                          *_both("iperf3_of_nic", measured=_n(facts["net.iperf3_gbps"]), eff=_n(eff),
                                 rated=_n(facts["nic.speed_gbps"]))))
    slow = derived.get("job.step_slowdown")
    if slow is not None:
        runs = derived.get("job.baseline_multi_nodes")
        out.append(Figure(True if slow >= 1.5 else False if slow <= 1.1 else None,
                          *_both("step_slowdown_runs_figure" if runs else "step_slowdown_figure", slow=_n(slow),
                                 step=_n(step), base=_n(base), nodes=_n(facts.get("job.nodes")), base_nodes=_n(runs))))
    scaling = derived.get("job.scaling_efficiency_pct")
    if scaling is not None:
        out.append(Figure(True if scaling < 60 else False if scaling >= 85 else None,
                          *_both("scaling_low" if scaling < 85 else "scaling", scaling=_n(scaling))))
    if sync is not None and not (base or step):
        seconds, en, zh = sync
        out.append(Figure(None, en, zh))
    return out


# --------------------------------------------------------------------------- the verdict
def _word(kind: str, answer: str, lang: str) -> str:
    """The reply's first word: answer is 'problem', 'fine', 'unsure' or 'likely' (the network's side)."""
    return t(f"chat_facts.verdict.{kind}.{answer}", lang)


def _sentence(kind: str, answer: str, reason: str, lang: str) -> str:
    word = _word(kind, answer, lang)
    return t("chat.verdict_because", lang, word=word, reason=reason) if reason else t("chat.verdict", lang, word=word)


def decide(kind: str, facts: Mapping[str, Any], derived: Mapping[str, Any], findings: list[dict[str, Any]],
           missing: list[dict[str, Any]], engine: Engine | None, lang: str, assumed: Collection[str] = ()) -> Verdict:
    """The verdict for a yes/no question of `kind`, from the findings and the deciding figures."""
    figures = deciding_figures(facts, derived, engine, lang, assumed)
    serious = [f for f in findings if f.get("severity") in SERIOUS]
    network = [f for f in serious if f.get("category") in NETWORK_CATEGORIES]
    firm = [f for f in network if not f.get("assumed")]
    healthy = any(f.get("category") == "healthy" for f in findings)
    other = [f for f in serious if f.get("category") not in NETWORK_CATEGORIES]
    leaning = [x for x in figures if x.leans is not None]
    lead = leaning[0] if leaning else (figures[0] if figures else None)
    figure = lead.text(lang) if lead else None

    if facts.get("job.nodes") == 1:
        inside = [f for f in other if f.get("category") in {"pcie-topology", "nccl-transport-fallback"}]
        reason = t("chat.one_server", lang)
        if inside:
            reason += t("chat.inside_the_server", lang, title=inside[0]["title"])
        return Verdict(False, _sentence(kind, "fine", reason, lang), figure)
    if firm:
        top = firm[0]
        if figure and lead is not None and lead.leans is False:
            reason = top["title"]  # the finding decides; a figure leaning the other way would confuse
        elif figure and lead is not None and lead.leans is None:
            reason = t("chat.figure_then", lang, figure=figure, reason=top["title"])
        else:
            reason = figure or top["title"]
        return Verdict(True, _sentence(kind, "problem", reason, lang), figure)
    if network:
        assumed = network[0]
        reason = assumed["title"]
        only_precision = set(assumed.get("assumed") or ()) == {"job.precision"}
        if figure and lead is not None and lead.leans is True and only_precision:
            # the finding rests only on the precision the figure already says it assumes: the figure is its arithmetic
            reason = figure
        elif figure:
            reason = t("chat.figure_then", lang, figure=figure, reason=reason)
        return Verdict(True, _sentence(kind, "likely", reason, lang), figure)
    if lead is not None and lead.leans is True:
        return Verdict(True, _sentence(kind, "problem", lead.text(lang), lang), figure)
    if lead is not None and lead.leans is False or healthy:
        reason = lead.text(lang) if lead is not None and lead.leans is False else ""
        if not reason and healthy:
            reason = next(f["title"] for f in findings if f.get("category") == "healthy")
        if other:
            reason += t("chat.slowed_elsewhere", lang, title=other[0]["title"])
        return Verdict(False, _sentence(kind, "fine", reason.lstrip("; ；"), lang), figure)
    if other:
        reason = t("chat.not_the_network", lang, title=other[0]["title"])
        return Verdict(False, _sentence(kind, "fine", reason, lang), figure)
    return Verdict(None, _sentence(kind, "unsure", _unsure_reason(figure, missing, lang), lang), figure)


def _unsure_reason(figure: str | None, missing: list[dict[str, Any]], lang: str) -> str:
    names = [fact_name(m["fact"], lang) for m in missing[:2] if m.get("question")]
    wanted = t("chat.and_names", lang).join(names)
    if figure and wanted:
        return t("chat.figure_depends_on", lang, figure=figure, wanted=wanted)
    if figure:
        return figure
    if wanted:
        return t("chat.depends_on", lang, wanted=wanted)
    return ""
