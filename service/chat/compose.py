"""The sections of a reply, written the way a senior infrastructure engineer explains a slow job.

Conclusion first; then the evidence in the user's own numbers, the article's naive arithmetic
(size ÷ link rate, labelled so) next to the ring all-reduce figure; remedies software first (H36)
with their computed effect; what to measure next (H30–H34); at most three questions for the facts
that decide the most. Each builder returns lines of text in the reply's language, or none.
"""

from collections.abc import Iterable, Mapping
from typing import Any

from bwdoctor.chat.extract import Understood
from bwdoctor.chat.labels import describe, fact_name, fact_value
from bwdoctor.chat.units import format_number
from bwdoctor.engine import Engine
from bwdoctor.i18n import messages, t

MAX_QUESTIONS = 3
MAX_REMEDIES = 5
REMEDY_ORDER = ("configuration", "software", "process", "placement", "hardware")
_PRECISION_BYTES = {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int8": 1}

# The measuring steps of the article's procedure (H30–H34), each with the fact it produces.
MEASURE_STEPS = (("gpu.util_pct", "measure-gpu-util"), ("net.iperf3_gbps", "measure-iperf3"),
                 ("job.step_time_baseline_s", "measure-step-times"),
                 ("nccl.allreduce_busbw_gbytes_per_s", "measure-nccl-tests"))
def conclusion(findings: list[dict[str, Any]], lang: str, *, under: str | None = None) -> list[str]:
    """The verdict: the most severe finding, stated with its explanation. `under`: the yes/no answer that
    already opens the reply — then no "Conclusion:" label, the top finding only if that answer does not
    name it already, and nothing when there is no finding."""
    quiet = under is not None
    serious = [f for f in findings if f.get("severity") in {"critical", "warning"}]
    label = "" if quiet else t("chat.conclusion", lang)
    if not findings:
        return [] if quiet else [t("chat.no_bottleneck_yet", lang)]
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
        lines.append(t("chat.also_found", lang))
        for f in others[:4]:
            word = messages("chat_facts", lang).get(f"severity.{f.get('severity', 'info')}", "")
            lines.append(f"- [{word}] {f['title']}")
    return [line for line in lines if line is not None]


def _data_parallel_lines(facts: Mapping[str, Any], derived: Mapping[str, Any], ring: Any, lang: str) -> list[str]:
    """What turns one ring all-reduce into the step's data-parallel traffic, each said by its cause: a full shard's
    extra gathers, a pipeline's share of the gradients, an accumulation's amortising (never 'accumulation' for the
    others)."""
    dp, amortised = derived.get("comm.dp_time_s"), derived.get("comm.allreduce_amortised_s")
    if ring is None or dp is None:
        return []
    lines = []
    pp = facts.get("job.pp_degree") or 1
    if pp > 1 and dp != ring:
        lines.append(t("chat.dp_pipeline", lang, pp=format_number(pp), dp=format_number(dp)))
    elif dp != ring:  # one stage: only the engine's full-shard factor makes a sync's traffic differ from one ring
        lines.append(t("chat.dp_full_shard", lang, dp=format_number(dp)))
    if amortised is not None and amortised != dp and (facts.get("job.grad_accum_steps") or 1) > 1:
        lines.append(t("chat.amortised", lang, amortised=format_number(amortised)))
    return lines


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
        how = how.replace("bytes", t("chat.bytes", lang))
        lines.append(t("chat.gradients_per_sync", lang, how=how, grad=format_number(grad)))
    if link is not None:
        limits = _link_limits(facts, derived)
        lines.append(t("chat.effective_link", lang, link=format_number(link), limits=limits))
    naive = derived.get("comm.sync_time_naive_s")
    if naive is not None and grad is not None and link is not None:
        lines.append(t("chat.naive_estimate", lang, grad=format_number(grad), link=format_number(link),
                       naive=format_number(naive)))
    ring = derived.get("comm.allreduce_time_s")
    nodes = facts.get("job.nodes")
    if ring is not None and nodes:
        n = int(nodes)
        lines.append(t("chat.ring_allreduce", lang, n=n, ring=format_number(ring)))
    lines += _data_parallel_lines(facts, derived, ring, lang)
    fraction = derived.get("comm.fraction")
    if fraction is not None:
        lines.append(t("chat.comm_fraction", lang, pct=format_number(100 * fraction)))
    eff = derived.get("net.efficiency_pct")
    if eff is not None:
        lines.append(t("chat.measured_efficiency", lang, eff=format_number(eff),
                       measured=format_number(facts.get("net.iperf3_gbps")),
                       rated=format_number(facts.get("nic.speed_gbps"))))
    slow = derived.get("job.step_slowdown")
    if slow is not None:
        runs = derived.get("job.baseline_multi_nodes")  # the baseline spans machines of its own: say how many
        lines.append(t("chat.step_slowdown_runs" if runs else "chat.step_slowdown", lang,
                       step=format_number(facts.get("job.step_time_s")), nodes=format_number(facts.get("job.nodes")),
                       base=format_number(facts.get("job.step_time_baseline_s")), base_nodes=format_number(runs),
                       slow=format_number(slow)))
    if not lines:
        return []
    return [t("chat.the_numbers", lang)] + lines


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
    lines = [t("chat.what_to_do", lang)]
    for i, rec in enumerate(recs[:MAX_REMEDIES], 1):
        line = f"{i}. {rec['text']}"
        effect = _effect(rec, lang)
        if effect:
            line += t("chat.effect_on_job", lang, effect=effect)
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
    return [t("chat.measure_next", lang)] + [f"- {x}" for x in texts]


def _recommendation_text(engine: Engine, rec_id: str, lang: str) -> str:
    rec = engine.recommendations.get(rec_id)
    text = rec.text if rec is not None else None
    if text and text.get(lang):
        return str(text[lang])
    return messages("chat_knowledge", lang).get(f"measure.{rec_id}", "")


def questions(missing: list[dict[str, Any]], lang: str, *, limit: int = MAX_QUESTIONS,
              first: list[str] | None = None) -> list[str]:
    """The facts that would decide the most, as questions (the engine orders them); `first`: what could not
    be reconciled, asked before anything else since a value was set aside until it is answered."""
    asked = [m["question"] for m in missing if m.get("question")][:limit]
    unreconciled = list(first or [])
    if not asked and not unreconciled:
        return []
    return ([t("chat.tell_me", lang)]
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
            piece += t("chat.was", lang, value=fact_value(u.fact, corrected[u.fact][0], lang))
        if u.source.startswith("pasted"):
            piece += t("chat.from_pasted", lang, text=u.text.replace("pasted", t("chat.pasted", lang)))
        elif u.inferred:
            piece += t("chat.taken_from", lang, text=u.text)
        else:
            piece += f" [“{u.text}”]"
        items.append(piece)
    lines = [t("chat.understood", lang)]
    lines += [f"- {x}" for x in items]
    lines += [f"- {n}" for n in notes]
    return lines


def join_sections(*sections: list[str]) -> str:
    """Sections separated by blank lines, empty ones dropped."""
    return "\n\n".join("\n".join(s).strip() for s in sections if s and "\n".join(s).strip()) + "\n"
