"""The answer to a yes/no question, first and with the number that decides it.

"Is 25 GbE enough for us?", "这个带宽够不够？", "Is the network the problem?" get yes, no or not sure as
the reply's first words, then the one figure the verdict turns on — one gradient sync against one
step, busbw or iperf3 against the line rate, the multi-node slowdown — never a table of NIC sizes
and never a question about the fact the user just gave. A verdict that rests on an assumption says
so ("at fp16/bf16, assumed"; "if the network really has no RDMA").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from service.chat.labels import fact_name
from service.chat.units import format_number
from service.engine import Engine

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


def _t(lang: str, en: str, zh: str) -> str:
    return zh if lang == "zh" else en


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
        return _t(lang, self.en, self.zh)


def sync_figures(facts: Mapping[str, Any], derived: Mapping[str, Any], engine: Engine | None,
                 lang: str) -> dict[str, Any]:
    """Gradient volume, link rate and sync time of the job; when the precision is missing, computed at
    ASSUMED_PRECISION and marked `assumed` (never a figure without the assumption it rests on)."""
    figures = {k: derived.get(k) for k in ("comm.grad_gbytes", "comm.link_gbps", "comm.allreduce_time_s",
                                           "comm.sync_time_naive_s", "comm.dp_time_s", "comm.allreduce_amortised_s",
                                           "comm.fraction")}
    figures["assumed"] = None
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
    at_en = f", assuming {str(f['assumed']).upper()} gradients" if f.get("assumed") else ""
    at_zh = f"，假设梯度为 {str(f['assumed']).upper()}" if f.get("assumed") else ""
    if ring is not None and nodes and nodes > 1:
        return (float(ring),
                f"one gradient sync takes about {_n(ring)} s (a ring all-reduce of {_n(grad)} GB over "
                f"{int(nodes)} nodes at {_n(link)} Gb/s{at_en})",
                f"一次梯度同步约需 {_n(ring)} 秒（{int(nodes)} 节点 ring all-reduce，{_n(grad)} GB，"
                f"{_n(link)} Gb/s{at_zh}）")
    naive = f.get("comm.sync_time_naive_s")
    if naive is None:
        return None
    return (float(naive),
            f"one gradient sync takes at least {_n(naive)} s ({_n(grad)} GB ÷ {_n(link)} Gb/s{at_en})",
            f"一次梯度同步至少 {_n(naive)} 秒（{_n(grad)} GB ÷ {_n(link)} Gb/s{at_zh}）")


def deciding_figures(facts: Mapping[str, Any], derived: Mapping[str, Any], engine: Engine | None,
                     lang: str) -> list[Figure]:
    """The numbers that can decide "is the network the problem / enough?", most telling first."""
    out: list[Figure] = []
    f = sync_figures(facts, derived, engine, lang)
    sync = _sync_phrase(f, facts, lang)
    base, step = facts.get("job.step_time_baseline_s"), facts.get("job.step_time_s")
    step_s = float(step or 0)
    if sync is not None and (base or step):
        seconds, en, zh = sync
        if base:
            share = seconds / (seconds + float(base))
            out.append(Figure(share >= HIGH if share >= HIGH or share <= LOW else None,
                              f"{en}, against {_n(base)} s of compute per step: about {_n(100 * share)} % of the step "
                              f"if it does not overlap",
                              f"{zh}，而每步计算 {_n(base)} 秒：不与计算重叠时约占每步的 {_n(100 * share)}%"))
        elif seconds > 1.2 * step_s:
            out.append(Figure(None,
                              f"{en} — longer than your whole step of {_n(step)} s, so the traffic does not cross "
                              f"that link the way I assume (a faster path, or less than the full gradient per sync)",
                              f"{zh}——比你整个 step 的 {_n(step)} 秒还长，说明流量并没有按我假设的那样走这条链路"
                              f"（有更快的通路，或每次同步的数据量小于全部梯度）"))
        else:
            share = seconds / step_s
            out.append(Figure(share >= HIGH if share >= HIGH or share <= LOW else None,
                              f"{en}, against a step of {_n(step)} s (about {_n(100 * share)} % of it)",
                              f"{zh}，而一个 step 是 {_n(step)} 秒（约占 {_n(100 * share)}%）"))
    eff = derived.get("nccl.efficiency_pct")
    busbw = facts.get("nccl.allreduce_busbw_gbytes_per_s")
    line = derived.get("nic.line_rate_gbps") or facts.get("nic.speed_gbps")
    if eff is not None and busbw is not None and line:
        out.append(Figure(True if eff < 50 else False if eff >= 70 else None,
                          f"nccl-tests busbw {_n(busbw)} GB/s is {_n(eff)} % of the {_n(line)} Gb/s line rate",
                          f"nccl-tests 的 busbw {_n(busbw)} GB/s 是 {_n(line)} Gb/s 线速的 {_n(eff)}%"))
    eff = derived.get("net.efficiency_pct")
    if eff is not None and facts.get("net.iperf3_gbps") is not None and facts.get("nic.speed_gbps"):
        out.append(Figure(True if eff < 50 else False if eff >= 70 else None,
                          f"iperf3 measures {_n(facts['net.iperf3_gbps'])} Gb/s, {_n(eff)} % of the "
                          f"{_n(facts['nic.speed_gbps'])} Gb/s NIC",
                          f"iperf3 实测 {_n(facts['net.iperf3_gbps'])} Gb/s，是 {_n(facts['nic.speed_gbps'])} Gb/s "
                          f"网卡的 {_n(eff)}%"))
    slow = derived.get("job.step_slowdown")
    if slow is not None:
        out.append(Figure(True if slow >= 1.5 else False if slow <= 1.1 else None,
                          f"a step takes {_n(slow)}× as long on all nodes as on one ({_n(step)} s vs {_n(base)} s)",
                          f"多机每步是单机的 {_n(slow)} 倍（{_n(step)} 秒 vs {_n(base)} 秒）"))
    scaling = derived.get("job.scaling_efficiency_pct")
    if scaling is not None:
        out.append(Figure(True if scaling < 60 else False if scaling >= 85 else None,
                          f"scaling efficiency is {_n(scaling)} % of linear",
                          f"扩展效率只有线性的 {_n(scaling)}%" if scaling < 85 else f"扩展效率为线性的 {_n(scaling)}%"))
    if sync is not None and not (base or step):
        seconds, en, zh = sync
        out.append(Figure(None, en, zh))
    return out


# --------------------------------------------------------------------------- the verdict
_WORDS = {
    "network": {"en": ("Yes", "No", "Not sure yet", "Probably"), "zh": ("是", "不是", "还说不准", "很可能是")},
    "enough": {"en": ("No", "Yes", "Not sure yet", "Probably not"), "zh": ("不够", "够", "还说不准", "很可能不够")},
    "upgrade": {"en": ("Yes", "No", "Not sure yet", "Probably"), "zh": ("需要", "不需要", "还说不准", "很可能需要")},
}


def _word(kind: str, answer: str, lang: str) -> str:
    """The reply's first word: answer is 'problem', 'fine', 'unsure' or 'likely' (the network's side)."""
    index = {"problem": 0, "fine": 1, "unsure": 2, "likely": 3}[answer]
    return _WORDS[kind]["zh" if lang == "zh" else "en"][index]


def _sentence(kind: str, answer: str, reason: str, lang: str) -> str:
    word = _word(kind, answer, lang)
    if lang == "zh":
        return f"{word}。{reason}。" if reason else f"{word}。"
    return f"{word} — {reason}." if reason else f"{word}."


def decide(kind: str, facts: Mapping[str, Any], derived: Mapping[str, Any], findings: list[dict[str, Any]],
           missing: list[dict[str, Any]], engine: Engine | None, lang: str) -> Verdict:
    """The verdict for a yes/no question of `kind`, from the findings and the deciding figures."""
    figures = deciding_figures(facts, derived, engine, lang)
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
        reason = _t(lang, "on one server the GPUs exchange gradients over NVLink or PCIe, not over the network; the "
                          "NIC only carries data and checkpoints",
                    "单台服务器上 GPU 之间通过 NVLink 或 PCIe 交换梯度，不走网络；网卡只承载数据和 checkpoint")
        if inside:
            reason += _t(lang, f" — what I see is inside the server: {inside[0]['title']}",
                         f"——问题在机器内部：{inside[0]['title']}")
        return Verdict(False, _sentence(kind, "fine", reason, lang), figure)
    if firm:
        top = firm[0]
        if figure and lead is not None and lead.leans is False:
            reason = top["title"]  # the finding decides; a figure leaning the other way would confuse
        elif figure and lead is not None and lead.leans is None:
            reason = _t(lang, f"{figure}; {top['title']}", f"{figure}；{top['title']}")
        else:
            reason = figure or top["title"]
        return Verdict(True, _sentence(kind, "problem", reason, lang), figure)
    if network:
        assumed = network[0]
        reason = assumed["title"]
        if figure:
            reason = f"{figure}; " + reason if lang != "zh" else f"{figure}；{reason}"
        return Verdict(True, _sentence(kind, "likely", reason, lang), figure)
    if lead is not None and lead.leans is True:
        return Verdict(True, _sentence(kind, "problem", lead.text(lang), lang), figure)
    if lead is not None and lead.leans is False or healthy:
        reason = lead.text(lang) if lead is not None and lead.leans is False else ""
        if not reason and healthy:
            reason = next(f["title"] for f in findings if f.get("category") == "healthy")
        if other:
            reason += _t(lang, f"; what slows the job is elsewhere: {other[0]['title']}",
                         f"；拖慢训练的是别处：{other[0]['title']}")
        return Verdict(False, _sentence(kind, "fine", reason.lstrip("; ；"), lang), figure)
    if other:
        reason = _t(lang, f"nothing points at the network; what I see is {other[0]['title']}",
                    f"没有迹象指向网络；我看到的是：{other[0]['title']}")
        return Verdict(False, _sentence(kind, "fine", reason, lang), figure)
    return Verdict(None, _sentence(kind, "unsure", _unsure_reason(figure, missing, lang), lang), figure)


def _unsure_reason(figure: str | None, missing: list[dict[str, Any]], lang: str) -> str:
    names = [fact_name(m["fact"], lang) for m in missing[:2] if m.get("question")]
    wanted = _t(lang, " and ".join(names), "和".join(names))
    if figure and wanted:
        return _t(lang, f"{figure}, but whether that matters depends on what I do not know yet: {wanted} "
                        "(questions below)",
                  f"{figure}，但这是否要紧，取决于我还不知道的：{wanted}（见下面的问题）")
    if figure:
        return figure
    if wanted:
        return _t(lang, f"it depends on what I do not know yet: {wanted} (questions below)",
                  f"取决于我还不知道的：{wanted}（见下面的问题）")
    return ""
