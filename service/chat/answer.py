"""One chat turn: understand the question, merge it into the conversation's facts, diagnose, reply.

`answer_turn` returns the JSON of `POST /api/v1/ask` (spec/interfaces.md): the diagnosis object
(facts, derived, findings, missing) plus question, language, answer, and what the service stores
with the turn (intent, understood with spans, the what-if, knowledge ids). Pure: the engine is passed
in, nothing is read or written.
"""

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from bwdoctor.chat import compose as c
from bwdoctor.chat.extract import Understood
from bwdoctor.chat.intents import Intent, which_link_cluster
from bwdoctor.chat.knowledge import find_answers
from bwdoctor.chat.labels import describe, fact_name, fact_value
from bwdoctor.chat.relevance import (
    drop_unfilled,
    relevant_questions,
    skipped_measurements,
    skipped_topics,
    soften_assumed,
)
from bwdoctor.chat.understanding import Understanding, understand
from bwdoctor.chat.verdict import Verdict, decide, yes_no_kind
from bwdoctor.engine import LINK_MEASUREMENTS, Engine, FactValidationError
from bwdoctor.i18n import messages, t

# Figures a what-if compares, in the order a reader wants them.
COMPARED = ("comm.grad_gbytes", "comm.link_gbytes_per_s", "comm.sync_time_naive_s", "comm.allreduce_time_s",
            "comm.allreduce_amortised_s", "comm.fraction")
# Topic → a computed what-if for the user's own job.
_TOPIC_WHAT_IFS: dict[str, list[dict[str, Any]]] = {
    "accumulation": [{"job.grad_accum_steps": 4}, {"job.grad_accum_steps": 8}],
    # Half the bytes per gradient element: fp32 → fp16, 16-bit → 8-bit (CEL over the facts; fails at 8 bits).
    "compression": [{"job.precision": "={'fp32': 'fp16', 'bf16': 'int8', 'fp16': 'int8'}"
                                      "[has(job.precision) ? job.precision : 'fp32']"}],
}

# Topic → the remedy that carries the same what-if for the user's job (said once, with the remedy).
_TOPIC_REMEDY = {"accumulation": "gradient-accumulation", "compression": "gradient-compression"}


#: The cluster fabric's answer to "which link is bad in cluster X?": (cluster, lang) -> text. The service's
#: ask flow binds bwdoctor.fabric.service.which_link_is_bad to its database session; offline there is none.
FabricLookup = Callable[[str, str], str]


def answer_turn(question: str, *, engine: Engine, previous_facts: dict[str, Any] | None = None,
                previous_findings: list[dict[str, Any]] | None = None, lang: str | None = None,
                fabric: FabricLookup | None = None) -> dict[str, Any]:
    """Answer one question in the context of the conversation's facts and last findings. `fabric` answers
    questions about a cluster's links (None: offline, the reply says the question needs the service)."""
    previous_facts = dict(previous_facts or {})
    previous_findings = list(previous_findings or [])
    knowledge = engine.knowledge
    u = understand(question, lang=lang, previous_facts=previous_facts,
                   has_previous_findings=bool(previous_findings), knowledge=knowledge)
    lang = u.language
    merged, corrected = merge_facts(previous_facts, u.understood)
    merged, said = said_derived(engine, merged)
    facts, notes = validated(engine, merged, lang)
    facts.update(said)
    # An understood fact the engine rejected is not "understood": drop it from the echo.
    echo = [x for x in u.understood if x.fact in facts]
    diagnosis = _diagnose(engine, facts, lang)
    assumed = {x.fact: x for x in echo if x.inferred}
    diagnosis["findings"] = soften_assumed(list(diagnosis["findings"]), assumed, lang)
    set_aside = {k for conflict in u.conflicts for k in conflict.facts}
    diagnosis["missing"] = relevant_questions(diagnosis["missing"], facts, set_aside)
    mentioned = set(facts) | set_aside | {x.fact for x in u.understood}
    skip = skipped_measurements(facts, u.pasted.kinds, mentioned)
    result: dict[str, Any] = {
        **diagnosis,
        "question": question,
        "language": lang,
        "intent": u.intent.value,
        "understood": [x.to_dict() for x in echo],
        "corrected": {k: {"from": old, "to": new} for k, (old, new) in corrected.items()},
        "pasted": u.pasted.to_dict() if u.pasted.spans else None,
        "not_understood": u.not_understood,
        "unreconciled": [x.to_dict() for x in u.conflicts],
        "references": [x.to_dict() for x in u.references],
    }
    notes = notes + u.pasted.notes_in(lang)
    unreconciled = [x.zh if lang == "zh" else x.en for x in u.conflicts]
    if u.not_understood:
        words = "; ".join(f"“{n['context']}”" for n in u.not_understood[:6])
        notes.append(t("chat.not_understood", lang, words=words))
    cluster = which_link_cluster(_prose(u))
    if cluster is not None:
        result["intent"] = Intent.WHICH_LINK.value
        result["cluster"] = cluster
        result["answer"] = _which_link(cluster, fabric, lang).rstrip() + "\n"
        return result
    if u.intent is Intent.HELP:
        text = _help(lang)
    elif u.intent is Intent.OUT_OF_SCOPE:
        text = _out_of_scope(lang)
    elif u.intent is Intent.WHY:
        text = _why(question, previous_findings or diagnosis["findings"], facts, diagnosis, engine, lang)
    elif u.intent is Intent.WHAT_IF and any(facts.get(ch.fact) != ch.value for ch in u.changes):
        # ('How do we get NCCL back onto RoCE?' with the RoCE NICs said: no change to weigh, the diagnosis answers)
        what_if = _what_if(engine, facts, u.changes, lang)
        result["what_if"] = what_if
        result["findings"] = list(result["findings"]) + _if_findings(what_if, lang)
        text = _what_if_text(what_if, diagnosis, facts, lang)
        # 'Do I need InfiniBand?', '要不要上 IB？': a yes/no question about an upgrade gets its yes or no first, on the
        # job as it is, then the what-if's figures
        verdict = _verdict(u, facts, diagnosis, engine, lang, intents=(Intent.WHAT_IF,), kinds=("upgrade",))
        if verdict is not None and diagnosis["derived"].get("job.single_node") is not True:
            # (on one machine the what-if's own first line says the network does not carry the gradients)
            result["verdict"] = verdict.to_dict()
            text = verdict.text + "\n" + text
    else:
        verdict = _verdict(u, facts, diagnosis, engine, lang)
        if verdict is not None:
            result["verdict"] = verdict.to_dict()
        topics = [x for x in u.topics if x not in skipped_topics(mentioned, u.pasted.kinds)]
        if verdict is not None and facts:
            topics = [x for x in topics if x not in _ANSWERED_BY_VERDICT]
        if u.intent is Intent.KNOWLEDGE and (topics or not u.topics):
            answers = find_answers(question, topics, knowledge, lang)
            result["knowledge"] = [a.to_dict() for a in answers]
            text = _knowledge_text(answers, u, facts, diagnosis, engine, lang, verdict=verdict, skip=skip,
                                   unreconciled=unreconciled)
        else:
            text = _diagnosis_text(diagnosis, facts, engine, lang, corrected=bool(corrected) and
                                   u.intent is Intent.CORRECTION, verdict=verdict, skip=skip,
                                   unreconciled=unreconciled)
    if u.intent in (Intent.HELP, Intent.OUT_OF_SCOPE, Intent.WHY, Intent.WHAT_IF) and unreconciled:
        text = c.join_sections(text.strip().splitlines(), c.questions([], lang, first=unreconciled))
    echo_lines = c.understood_echo(echo, corrected, lang, notes)
    result["answer"] = drop_unfilled(c.join_sections(text.strip().splitlines(), echo_lines))
    return result


# Knowledge topics a yes/no verdict on the user's own numbers answers better than the general text.
_ANSWERED_BY_VERDICT = frozenset({"how-much", "procedure", "single-node"})


def _verdict(u: Understanding, facts: Mapping[str, Any], diagnosis: Mapping[str, Any], engine: Engine,
             lang: str, *, intents: Iterable[Intent] = (Intent.DIAGNOSE, Intent.KNOWLEDGE, Intent.CORRECTION),
             kinds: Iterable[str] = ("enough", "upgrade", "network")) -> Verdict | None:
    """Yes / no / not sure for a yes/no question about the network, else None."""
    if u.intent not in tuple(intents):
        return None
    kind = yes_no_kind(_prose(u))
    if kind is None or kind not in tuple(kinds):
        return None
    return decide(kind, facts, diagnosis["derived"], list(diagnosis["findings"]), list(diagnosis["missing"]),
                  engine, lang, assumed={x.fact for x in u.understood if x.inferred})


def _prose(u: Understanding) -> str:
    """The question without its pasted output (a '?' inside a log is not a question)."""
    text = u.question
    for a, b in u.pasted.spans:
        text = text[:a] + " " * (b - a) + text[b:]
    return text


def format_text(result: Mapping[str, Any]) -> str:
    """The reply for a terminal (`bwdoctor ask`): the answer text, as a person reads it (no final newline)."""
    return str(result.get("answer", "")).rstrip()


# --------------------------------------------------------------------------- facts
def merge_facts(previous: Mapping[str, Any], understood: list[Understood]
                ) -> tuple[dict[str, Any], dict[str, tuple[Any, Any]]]:
    """The conversation's facts with this turn's on top (newest wins), and what changed.

    A fact this turn only assumed ('CPU很闲' → 20, GbE → no RDMA) does not overwrite one the
    conversation already holds from a statement or a probe.
    """
    merged = dict(previous)
    corrected: dict[str, tuple[Any, Any]] = {}
    for u in understood:
        if u.fact in previous and u.inferred:
            continue
        if u.fact in previous and previous[u.fact] != u.value:
            corrected[u.fact] = (previous[u.fact], u.value)
        merged[u.fact] = u.value
    return merged, corrected


def said_derived(engine: Engine, facts: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the facts to validate, the figures the engine derives that the question stated itself).

    'Scaling efficiency 77.88 %' is what the user measured: it is kept as said (the engine's own derivation,
    where it can compute one, replaces it) rather than rejected as a value nobody may give."""
    rest, said = dict(facts), {}
    for key in list(rest):
        spec = engine.catalogue.get(key)
        if spec is not None and spec.derived and spec.type in ("number", "int"):
            value = rest.pop(key)
            if isinstance(value, int | float) and not isinstance(value, bool):
                said[key] = value
    return rest, said


def validated(engine: Engine, facts: Mapping[str, Any], lang: str) -> tuple[dict[str, Any], list[str]]:
    """Facts the engine accepts; each rejected one is dropped with a note naming key, value and expectation."""
    current = dict(facts)
    notes: list[str] = []
    for _ in range(len(current) + 1):
        try:
            return engine.validate_facts(current), notes
        except FactValidationError as exc:  # it names the key; anything else is a bug we must not hide
            key = exc.key
            if key not in current:
                raise
            value = current.pop(key)
            expected = exc.expected
            notes.append(t("chat.ignored_value", lang, fact=key, value=repr(value), expected=expected))
    return current, notes


def _diagnose(engine: Engine, facts: Mapping[str, Any], lang: str) -> dict[str, Any]:
    return engine.diagnose(facts, lang=lang).to_dict()


# --------------------------------------------------------------------------- diagnose
def _diagnosis_text(diagnosis: Mapping[str, Any], facts: Mapping[str, Any], engine: Engine, lang: str,
                    *, corrected: bool = False, verdict: Verdict | None = None, skip: Iterable[str] = (),
                    unreconciled: list[str] | None = None) -> str:
    findings = list(diagnosis["findings"])
    head = [t("chat.updated", lang)] if corrected else []
    if verdict is not None:
        head.append(verdict.text)
    if not facts:
        return c.join_sections(
            head or [t("chat.need_facts", lang)],
            c.questions(diagnosis["missing"], lang, first=unreconciled),
            c.measure_next([], {"job.nodes": 2}, engine, lang, skip=skip),
        )
    return c.join_sections(
        head + c.conclusion(findings, lang, under=verdict.text if verdict is not None else None),
        c.arithmetic(facts, diagnosis["derived"], lang),
        c.remedies(findings, lang),
        c.measure_next(findings, facts, engine, lang, skip=skip),
        c.questions(diagnosis["missing"], lang, first=unreconciled),
    )


# --------------------------------------------------------------------------- what-if
# A fabric proposed without its rate ('do we need InfiniBand?', '换成 IB 会快吗'): the rate it commonly comes at, so the
# what-if moves the figures that decide (a fabric's name alone changes no link rate)
_FABRIC_RATE = {"infiniband": (200.0, "HDR InfiniBand"), "roce": (100.0, "100G RoCE")}


def _what_if(engine: Engine, facts: Mapping[str, Any], changes: list[Understood], lang: str) -> dict[str, Any]:
    """The same job with the proposed changes, diagnosed and compared figure by figure."""
    wanted: dict[str, Any] = {}
    for ch in changes:
        if ch.inferred and ch.fact in facts:
            continue  # "100GbE" assumes no RDMA; do not undo a RoCE the user already told us about
        wanted[ch.fact] = ch.value
    assumed = [ch.fact for ch in changes if ch.inferred]
    rate, fabric = _FABRIC_RATE.get(str(wanted.get("nic.kind")), (0.0, ""))
    current = facts.get("nic.speed_gbps")
    rated = bool(rate) and "nic.speed_gbps" not in wanted and isinstance(current, int | float) and current < rate
    if rated:
        for key in ("nic.speed_gbps", "nic.max_speed_gbps"):
            if key == "nic.speed_gbps" or key in facts:  # a rating said stays no lower than the link
                wanted[key] = rate
                assumed.append(key)
    w = compute_what_if(engine, facts, wanted, lang, assumed=assumed)
    if rated and w["changes"]:
        w["notes"] = [t("chat.fabric_rate_assumed", lang, rate=f"{rate:g}", fabric=fabric), *w["notes"]]
    return w


def compute_what_if(engine: Engine, facts: Mapping[str, Any], wanted: Mapping[str, Any], lang: str,
                    *, assumed: Iterable[str] = ()) -> dict[str, Any]:
    """The engine's what-if (`Engine.what_if`) as the chat reports it: figures before and after, and the
    findings that change."""
    comparison = engine.what_if(facts, wanted, lang)
    changes = comparison.changes
    if "job.precision" in comparison.rejected and str(wanted.get("job.precision")).startswith("="):
        return {"changes": {}, "before": {}, "after": {}, "resolved": [], "new": [], "remaining": [],
                "missing": [], "missing_before": [], "assumed": [], "notes": ["already at 8 bits"]}
    before, after = comparison.before, comparison.after
    figures = [k for k in COMPARED if k in before.derived or k in after.derived]
    notes = []
    cap = facts.get("node.instance_bandwidth_gbps")
    if cap is not None and changes.get("nic.speed_gbps") and cap < changes["nic.speed_gbps"]:
        notes.append(t("chat.instance_cap", lang, cap=cap))
    return {
        "changes": changes,
        "before": {k: before.derived.get(k) for k in figures},
        "after": {k: after.derived.get(k) for k in figures},
        "findings_before": [f.title for f in before.findings],
        "findings_after": [f.title for f in after.findings],
        "resolved": comparison.categories("resolved"),
        "new": comparison.categories("new"),
        "new_findings": [f.to_dict() for f in after.findings if f.category in comparison.categories("new")
                         and f.severity in ("critical", "warning")],
        "remaining": comparison.categories("remaining"),
        # one title per category, the most serious first: what a person reads, not the category's id
        "titles_before": _titles_by_category(before.findings),
        "titles_after": _titles_by_category(after.findings),
        "missing": relevant_questions(after.missing, {**facts, **changes})[:c.MAX_QUESTIONS],
        "missing_before": relevant_questions(before.missing, {**facts, **changes})[:c.MAX_QUESTIONS],
        "assumed": sorted(assumed or ()),
        "notes": notes,
    }


def _titles_by_category(findings: Iterable[Any]) -> dict[str, str]:
    titles: dict[str, str] = {}
    for f in findings:  # the engine lists findings most serious first
        titles.setdefault(f.category, f.title)
    return titles


# Facts of the network between machines: on one machine none of them carries the gradients
_BETWEEN_MACHINES = ("nic.", "net.", "nccl.transport", "nccl.ib_disabled", "node.instance_bandwidth_gbps")


def _if_findings(w: Mapping[str, Any], lang: str) -> list[dict[str, Any]]:
    """The problems a proposed change would bring ('if we spread the nodes over two zones'), as findings marked
    conditional: a warning at most, since the change is not made, and titled with the change they depend on."""
    change = ", ".join(describe(k, v, lang) for k, v in w["changes"].items() if v is not None)
    return [{**f, "severity": "warning", "conditional": True,
             "title": t("chat.if_change", lang, change=change) + " " + f["title"]} for f in w.get("new_findings", [])]


def _what_if_lines(w: Mapping[str, Any], lang: str, *, changed_only: bool = False) -> list[str]:
    lines = []
    for key in w["before"]:
        a, b = w["before"].get(key), w["after"].get(key)
        if b is None or (changed_only and a == b):
            continue  # no figure after the change: nothing to show (never a '?')
        if a is None:
            lines.append(f"- {fact_name(key, lang)}: {fact_value(key, b, lang)}")
        else:
            lines.append(f"- {fact_name(key, lang)}: {fact_value(key, a, lang)} → {fact_value(key, b, lang)}")
    return lines


def _what_if_text(w: Mapping[str, Any], diagnosis: Mapping[str, Any], facts: Mapping[str, Any], lang: str) -> str:
    shown = {k: v for k, v in w["changes"].items() if v is not None and k not in w.get("assumed", ())}
    change = ", ".join(describe(k, v, lang) for k, v in (shown or w["changes"]).items() if v is not None)
    if not w["changes"]:
        return t("chat.change_alters_nothing", lang)
    lines = [t("chat.if_change", lang, change=change)]
    comparable = any(v is not None for v in w["before"].values())
    # only the figures the change moves ('effective link rate: 0.012 → 0.012' tells nothing)
    figures = _what_if_lines(w, lang, changed_only=True) if comparable else []
    if not comparable and w.get("new_findings"):
        # 'will spreading over zones hurt?': the change alone brings a problem, whatever the rest of the setup
        joiner = "；" if lang == "zh" else "; "
        lines.append(t("chat.new_concern", lang, titles=joiner.join(f["title"] for f in w["new_findings"])))
        lines += [f"- {f['explanation']}" for f in w["new_findings"][:2]]
        lines += c.questions(w["missing"], lang)
        return "\n".join(lines)
    if not comparable:
        lines.append(t("chat.need_current_setup", lang))
        lines += c.questions(w["missing_before"], lang)
        return "\n".join(lines)
    if diagnosis.get("derived", {}).get("job.single_node") is True and all(
            k.startswith(_BETWEEN_MACHINES) for k in w["changes"]):
        # 'single node, 8 GPUs: do we need IB?': the gradients never leave the machine
        lines = [t("chat.network_change_on_one_machine", lang)]
    else:
        lines += figures
    before, after = w.get("titles_before", {}), w.get("titles_after", {})
    joiner = "；" if lang == "zh" else "; "
    if w["resolved"]:
        lines.append(t("chat.that_clears", lang, titles=joiner.join(before.get(x, x) for x in w["resolved"])))
    if w["remaining"]:
        lines.append(t("chat.still_there", lang, titles=joiner.join(after.get(x, x) for x in w["remaining"])))
    if w["new"]:
        lines.append(t("chat.new_concern", lang, titles=joiner.join(after.get(x, x) for x in w["new"])))
    lines += w["notes"]
    if any(k in facts for k in LINK_MEASUREMENTS) and "nic.speed_gbps" in w["changes"]:
        lines.append(t("chat.assumes_rated_speed", lang))
    if "job.grad_accum_steps" in w["changes"]:
        lines.append(t("chat.accumulation_batch", lang))
    if not figures:
        lines += c.questions(w["missing"], lang)
    return "\n".join(lines)


# --------------------------------------------------------------------------- why
_CATEGORY_WORDS = {
    "nic-undersized": r"NIC|network|10G|25G|网卡|带宽|网络", "comm-bound": r"GPU|util|communication|通信|利用率|等",
    "no-rdma-at-scale": r"RDMA|InfiniBand|RoCE|TCP", "link-degraded": r"iperf|link|degrad|链路|实测",
    "latency-bound": r"latency|zone|region|延迟|可用区|地域", "network-jitter": r"jitter|fluct|抖动|波动",
    "remote-storage-io": r"storage|NAS|data|存储|数据", "checkpoint-contention": r"checkpoint|检查点",
    "cloud-instance-bandwidth": r"instance|cloud|实例|云", "input-pipeline-cpu": r"CPU|data ?load|数据加载",
    "param-server-topology": r"parameter server|参数服务器", "async-risk": r"async|异步",
    "pcie-topology": r"PCIe|NVLink", "nccl-transport-fallback": r"NCCL|socket",
}


def _why(question: str, findings: list[dict[str, Any]], facts: Mapping[str, Any], diagnosis: Mapping[str, Any],
         engine: Engine, lang: str) -> str:
    """The reasoning chain behind the last answer: each finding's conditions, the values seen, the rule."""
    if not findings:
        return c.join_sections(
            [t("chat.no_reasoning", lang)],
            c.questions(diagnosis["missing"], lang))
    chosen = [f for f in findings if re.search(_CATEGORY_WORDS.get(f.get("category", ""), r"(?!)"), question, re.I)]
    chosen = chosen or findings[:3]
    lines = [t("chat.reasoning", lang)]
    for f in chosen:
        lines.append("")
        severity = messages("chat_facts", lang).get(f"severity.{f.get('severity')}", "")
        lines.append(t("chat.reasoning_finding", lang, title=f["title"], category=f.get("category"),
                       severity=severity, confidence=f.get("confidence")))
        for ev in f.get("evidence", []):
            lines.append(t("chat.reasoning_evidence", lang, observed=describe(ev["fact"], ev["value"], lang),
                           condition=ev["condition"]))
        lines.append(t("chat.reasoning_rule", lang, rule=f.get("rule"), sources=", ".join(f.get("source", []))))
    arithmetic = c.arithmetic(facts, diagnosis.get("derived", {}), lang)
    return c.join_sections(lines, arithmetic)


# --------------------------------------------------------------------------- knowledge
def _knowledge_text(answers: list[Any], u: Understanding, facts: Mapping[str, Any], diagnosis: Mapping[str, Any],
                    engine: Engine, lang: str, *, verdict: Verdict | None = None, skip: Iterable[str] = (),
                    unreconciled: list[str] | None = None) -> str:
    sections: list[list[str]] = [[verdict.text]] if verdict is not None else []
    for i, a in enumerate(answers):
        if i == 0 and verdict is None:
            lead, rest = _lead(a.text)  # the answer first; its detail under a heading the web chat folds
            sections.append([lead])
            sections.append([t("chat.in_more_detail", lang), rest] if rest else [])
        else:
            sections.append([a.text])
    if not answers and verdict is None:
        sections.append([t("chat.no_prepared_answer", lang)])
    if u.understood:
        personal = []
        recs, _ = c.collect_recommendations(diagnosis["findings"])
        shown = {r["id"] for r in recs[:c.MAX_REMEDIES] if r.get("what_if")}
        for topic in u.topics:
            if _TOPIC_REMEDY.get(topic) in shown:
                continue  # the remedy below states the same figures for this job
            for wanted in _TOPIC_WHAT_IFS.get(topic, []):
                w = compute_what_if(engine, facts, wanted, lang)
                figures = _what_if_lines(w, lang, changed_only=True)
                if figures:
                    change = ", ".join(describe(k, v, lang) for k, v in w["changes"].items() if v is not None)
                    personal.append(t("chat.for_your_job_with", lang, change=change))
                    personal += figures
        findings = diagnosis["findings"]
        if findings:
            sections.append([t("chat.for_your_setup", lang)] + c.conclusion(findings, lang))
        sections.append(c.arithmetic(facts, diagnosis["derived"], lang))
        sections.append(personal)
        sections.append(c.remedies(findings, lang))
        sections.append(c.questions(diagnosis["missing"], lang, limit=2, first=unreconciled))
    elif unreconciled:
        sections.append(c.questions([], lang, first=unreconciled))
    return c.join_sections(*sections)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9“\"(`])|(?<=[。！？])")


def _lead(text: str, *, at_least: int = 120, at_most: int = 320) -> tuple[str, str]:
    """The opening sentences of a prepared answer (about `at_least` characters, never past `at_most` unless
    the first sentence is longer) and the rest."""
    text = text.strip()
    cut = 0
    for m in _SENTENCE_END.finditer(text):
        if m.end() > at_most and cut:
            break
        cut = m.end()
        if cut >= at_least:
            break
    if not cut or cut >= len(text) - 20:
        return text, ""
    return text[:cut].strip(), text[cut:].strip()


# --------------------------------------------------------------------------- which link is bad
def _which_link(cluster: str, fabric: FabricLookup | None, lang: str) -> str:
    """The fabric's localisation for the cluster, or why it cannot be had here."""
    if fabric is None:
        return t("chat.which_link_offline", lang, cluster=cluster)
    return fabric(cluster, lang)


# --------------------------------------------------------------------------- help and out of scope
def _help(lang: str) -> str:
    return t("chat.help", lang)


def _out_of_scope(lang: str) -> str:
    return t("chat.out_of_scope", lang)
