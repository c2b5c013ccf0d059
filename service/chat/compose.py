"""The sections of a reply, written the way a senior infrastructure engineer explains a slow job.

Conclusion first; then the evidence in the user's own numbers, the article's naive arithmetic
(size ÷ link rate, labelled so) next to the ring all-reduce figure; remedies software first (H36)
with their computed effect; what to measure next (H30–H34); at most three questions for the facts
that decide the most. Each builder returns lines of text in the reply's language, or none.
"""

from collections.abc import Iterable, Mapping
from typing import Any

from service.chat.extract import Understood
from service.chat.labels import describe, fact_name, fact_value
from service.chat.units import format_number
from service.engine import Engine

MAX_QUESTIONS = 3
MAX_REMEDIES = 5
REMEDY_ORDER = ("configuration", "software", "process", "placement", "hardware")
SEVERITY_WORD = {"en": {"critical": "critical", "warning": "warning", "info": "note"},
                 "zh": {"critical": "严重", "warning": "警告", "info": "提示"}}
_PRECISION_BYTES = {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int8": 1}

# The measuring steps of the article's procedure (H30–H34), each with the fact it produces.
MEASURE_STEPS = (("gpu.util_pct", "measure-gpu-util"), ("net.iperf3_gbps", "measure-iperf3"),
                 ("job.step_time_baseline_s", "measure-step-times"),
                 ("nccl.allreduce_busbw_gbytes_per_s", "measure-nccl-tests"))
_MEASURE_FALLBACK = {
    "measure-gpu-util": {"en": "GPU utilisation during training: `nvidia-smi dmon -s u` or nvitop for a minute.",
                         "zh": "训练时的 GPU 利用率：用 `nvidia-smi dmon -s u` 或 nvitop 看一分钟。"},
    "measure-iperf3": {"en": "Point-to-point throughput: `iperf3 -s` on one node, `iperf3 -c <peer> -P 4 -t 30` on "
                                 "another; compare with the NIC's rating.",
                       "zh": "点对点吞吐：一台运行 `iperf3 -s`，另一台运行 `iperf3 -c <对端> -P 4 -t 30`，与网卡标称"
                             "值对比。"},
    "measure-step-times": {"en": "Step time of the same per-GPU batch on one node and on all nodes.",
                           "zh": "相同每卡 batch 下，单机与多机的 step 耗时。"},
    "measure-nccl-tests": {"en": "nccl-tests `all_reduce_perf -b 8 -e 8G -f 2 -g <gpus>` across the nodes; read busbw "
                                 "at the largest sizes.",
                           "zh": "在各节点上跑 nccl-tests `all_reduce_perf -b 8 -e 8G -f 2 -g <卡数>`，看大消息下的 b"
                                 "usbw。"},
}


def t(lang: str, en: str, zh: str) -> str:
    """Pick the phrase for the reply's language."""
    return zh if lang == "zh" else en


def conclusion(findings: list[dict[str, Any]], lang: str, *, under: str | None = None) -> list[str]:
    """The verdict: the most severe finding, stated with its explanation. `under`: the yes/no answer that
    already opens the reply — then no "Conclusion:" label, the top finding only if that answer does not
    name it already, and nothing when there is no finding."""
    quiet = under is not None
    serious = [f for f in findings if f.get("severity") in {"critical", "warning"}]
    label = "" if quiet else t(lang, "Conclusion: ", "结论：")
    if not findings:
        return [] if quiet else [t(lang, "I cannot name the bottleneck yet from what you have told me.",
                                   "根据目前的信息，我还不能确定瓶颈在哪里。")]
    top = serious[0] if serious else findings[0]
    if top.get("category") == "healthy":
        return [] if quiet else [label + top["title"], top.get("explanation", "")]
    # Under a yes/no answer the top finding is already its reason: its card (and the JSON) keeps the rest.
    lines = [label + top["title"], top.get("explanation", "")] if not quiet else (
        [top["title"]] if top["title"] not in str(under) else [])
    others = [f for f in findings if f is not top and f.get("category") != "healthy"]
    if others:
        if lines:
            lines.append("")
        lines.append(t(lang, "Also found:", "另外发现："))
        for f in others[:4]:
            word = SEVERITY_WORD[lang].get(f.get("severity", "info"), "")
            lines.append(f"- [{word}] {f['title']}")
    return [line for line in lines if line is not None]


def arithmetic(facts: Mapping[str, Any], derived: Mapping[str, Any], lang: str) -> list[str]:
    """The numbers of the user's job: gradient volume, naive sync (H23), ring all-reduce (H17), shares."""
    lines: list[str] = []
    grad = derived.get("comm.grad_gbytes")
    link = derived.get("comm.link_gbytes_per_s")
    params, precision = facts.get("job.model_params_b"), facts.get("job.precision")
    if grad is not None and params is not None:
        per = _PRECISION_BYTES.get(str(precision))
        how = (f"{format_number(params)}B × {per} bytes ({str(precision).upper()})" if per else
               f"{format_number(params)}B")
        lines.append(t(lang, f"- Gradients per sync: {how} = {format_number(grad)} GB.",
                       f"- 每次同步的梯度：{how.replace('bytes', '字节')} = {format_number(grad)} GB。"))
    if link is not None:
        limits = _link_limits(facts, derived)
        lines.append(t(lang, f"- Effective link: {format_number(link)} GB/s ({limits}).",
                       f"- 有效链路速率：{format_number(link)} GB/s（{limits}）。"))
    naive = derived.get("comm.sync_time_naive_s")
    if naive is not None and grad is not None and link is not None:
        lines.append(t(lang,
                       f"- Naive estimate, the article's arithmetic (size ÷ link rate): {format_number(grad)} GB ÷ "
                       f"{format_number(link)} GB/s ≈ {format_number(naive)} s per sync.",
                       f"- 朴素估算（文章的算法：数据量 ÷ 带宽）：{format_number(grad)} GB ÷ {format_number(link)} GB"
                       f"/s ≈ "
                       f"{format_number(naive)} 秒/次同步。"))
    ring = derived.get("comm.allreduce_time_s")
    nodes = facts.get("job.nodes")
    if ring is not None and nodes:
        n = int(nodes)
        lines.append(t(lang,
                       f"- Ring all-reduce across {n} nodes moves 2·({n}−1)/{n} of that per node: ≈ "
                       f"{format_number(ring)} s per sync (the more exact figure).",
                       f"- {n} 节点 ring all-reduce 每节点收发 2·({n}−1)/{n} 倍梯度量：≈ {format_number(ring)} 秒/次"
                       f"同步"
                       f"（更准确的数字）。"))
    amortised = derived.get("comm.allreduce_amortised_s")
    if amortised is not None and ring is not None and amortised != ring:
        lines.append(t(lang, f"- With gradient accumulation that is {format_number(amortised)} s per step, amortised.",
                       f"- 计入梯度累积后，每步分摊 {format_number(amortised)} 秒。"))
    fraction = derived.get("comm.fraction")
    if fraction is not None:
        lines.append(t(lang, f"- Communication would take about {format_number(100 * fraction)} % of each step "
                             f"(if it does not overlap compute).",
                       f"- 若通信不与计算重叠，约占每步时间的 {format_number(100 * fraction)}%。"))
    eff = derived.get("net.efficiency_pct")
    if eff is not None:
        lines.append(t(lang, f"- Measured throughput is {format_number(eff)} % of the NIC's rating "
                             f"({format_number(facts.get('net.iperf3_gbps'))} of "
                             f"{format_number(facts.get('nic.speed_gbps'))} Gb/s).",
                       f"- 实测吞吐只有网卡标称值的 {format_number(eff)}%（"
                       f"{format_number(facts.get('net.iperf3_gbps'))} / "
                       f"{format_number(facts.get('nic.speed_gbps'))} Gb/s）。"))
    slow = derived.get("job.step_slowdown")
    if slow is not None:
        lines.append(t(lang, f"- Multi-node step {format_number(facts.get('job.step_time_s'))} s against "
                             f"{format_number(facts.get('job.step_time_baseline_s'))} s on one node: "
                             f"{format_number(slow)}×.",
                       f"- 多机每步 {format_number(facts.get('job.step_time_s'))} 秒，单机 "
                       f"{format_number(facts.get('job.step_time_baseline_s'))} 秒：{format_number(slow)} 倍。"))
    if not lines:
        return []
    return [t(lang, "The numbers:", "算一笔账：")] + lines


def _link_limits(facts: Mapping[str, Any], derived: Mapping[str, Any]) -> str:
    parts = []
    for key, name in (("nic.speed_gbps", "NIC"), ("net.iperf3_gbps", "iperf3"),
                      ("node.instance_bandwidth_gbps", "instance cap")):
        if key in facts:
            parts.append(f"{name} {format_number(facts[key])} Gb/s")
    return ", ".join(parts) + " ÷ 8" if parts else "÷ 8"


def _effect(rec: Mapping[str, Any], lang: str) -> str:
    scenarios = rec.get("what_if") or []
    bits = []
    for sc in scenarios[:3]:
        values, before = sc.get("values", {}), sc.get("before", {})
        figures = []
        for key, value in values.items():
            name = fact_name(key, lang)
            if key in before:
                figures.append(f"{name} {fact_value(key, before[key], lang)} → {fact_value(key, value, lang)}")
            else:
                figures.append(f"{name} {fact_value(key, value, lang)}")
        if figures:
            bits.append(f"{sc.get('label', '')}: " + ", ".join(figures[:2]))
    if not bits and rec.get("estimate"):
        bits = [", ".join(f"{fact_name(k, lang)} {fact_value(k, v, lang)}" for k, v in rec["estimate"].items())]
    return "; ".join(bits)


def collect_recommendations(findings: Iterable[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Remedies (software before hardware, H36) and measurements, each once, from the serious findings first."""
    remedies: dict[str, dict[str, Any]] = {}
    measures: dict[str, dict[str, Any]] = {}
    for f in sorted(findings, key=lambda f: 0 if f.get("severity") in {"critical", "warning"} else 1):
        if f.get("category") == "healthy":
            continue
        for rec in f.get("recommendations", []):
            target = measures if rec.get("kind") == "measurement" else remedies
            target.setdefault(rec["id"], rec)
    ordered = sorted(remedies.values(), key=lambda r: REMEDY_ORDER.index(r.get("kind", "software"))
                     if r.get("kind") in REMEDY_ORDER else 1)
    return ordered, list(measures.values())


def remedies(findings: list[dict[str, Any]], lang: str) -> list[str]:
    """What to do, software and configuration first, hardware last, each with its computed effect."""
    recs, _ = collect_recommendations(findings)
    if not recs:
        return []
    lines = [t(lang, "What to do (software first; hardware is the last resort):",
               "怎么办（先软件后硬件，硬件升级是最后手段）：")]
    for i, rec in enumerate(recs[:MAX_REMEDIES], 1):
        line = f"{i}. {rec['text']}"
        effect = _effect(rec, lang)
        if effect:
            line += t(lang, f" Effect on your job: {effect}.", f" 对你的任务：{effect}。")
        if rec.get("caveat"):
            line += " " + rec["caveat"]
        lines.append(line)
    return lines


def measure_next(findings: list[dict[str, Any]], facts: Mapping[str, Any], engine: Engine, lang: str,
                 *, limit: int = 3, skip: Iterable[str] = ()) -> list[str]:
    """The next measurements (H30–H34): those the findings ask for, then the procedure's missing steps;
    none in `skip` (a tool whose output the user pasted, the inter-node ones for a single server)."""
    skipped = set(skip)
    _, measures = collect_recommendations(findings)
    measures = [m for m in measures if m["id"] not in skipped]
    texts = [m["text"] for m in measures]
    multi = (facts.get("job.nodes") or 0) > 1
    for fact, rec_id in MEASURE_STEPS:
        if fact in facts or (fact != "gpu.util_pct" and not multi) or rec_id in skipped:
            continue
        if any(m["id"] == rec_id for m in measures):
            continue
        texts.append(_recommendation_text(engine, rec_id, lang))
    texts = [x for x in texts if x][:limit]
    if not texts:
        return []
    return [t(lang, "What to measure next:", "下一步要测：")] + [f"- {x}" for x in texts]


def _recommendation_text(engine: Engine, rec_id: str, lang: str) -> str:
    rec = engine.recommendations.get(rec_id)
    text = rec.text if rec is not None else None
    if text and text.get(lang):
        return str(text[lang])
    return _MEASURE_FALLBACK.get(rec_id, {}).get(lang, "")


def questions(missing: list[dict[str, Any]], lang: str, *, limit: int = MAX_QUESTIONS,
              first: list[str] | None = None) -> list[str]:
    """The facts that would decide the most, as questions (the engine orders them); `first`: what could not
    be reconciled, asked before anything else since a value was set aside until it is answered."""
    asked = [m["question"] for m in missing if m.get("question")][:limit]
    unreconciled = list(first or [])
    if not asked and not unreconciled:
        return []
    return ([t(lang, "To sharpen this, tell me:", "为了判断得更准，请告诉我：")]
            + [f"- {x}" for x in unreconciled] + [f"- {q}" for q in asked])


def understood_echo(understood: list[Understood], corrected: Mapping[str, tuple[Any, Any]], lang: str,
                    notes: list[str]) -> list[str]:
    """'What I understood', with the words each fact came from, so a misreading can be corrected."""
    if not understood and not corrected:
        return []
    items = []
    for u in understood:
        piece = describe(u.fact, u.value, lang)
        if u.fact in corrected and corrected[u.fact][0] is not None:
            piece += t(lang, f" (was {fact_value(u.fact, corrected[u.fact][0], lang)})",
                       f"（原为 {fact_value(u.fact, corrected[u.fact][0], lang)}）")
        if u.source.startswith("pasted"):
            piece += t(lang, f" [from {u.text}]", f"［来自{u.text.replace('pasted', '粘贴的')}］")
        elif u.inferred:
            piece += t(lang, f" [taken from “{u.text}”, an assumption]", f"［由“{u.text}”推定］")
        else:
            piece += f" [“{u.text}”]"
        items.append(piece)
    lines = [t(lang, "What I understood (say “actually …” to correct any of it):",
               "我理解到的信息（如有不对，直接说“不对，是……”）：")]
    lines += [f"- {x}" for x in items]
    lines += [f"- {n}" for n in notes]
    return lines


def join_sections(*sections: list[str]) -> str:
    """Sections separated by blank lines, empty ones dropped."""
    return "\n\n".join("\n".join(s).strip() for s in sections if s and "\n".join(s).strip()) + "\n"
