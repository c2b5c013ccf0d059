"""What belongs in this case's reply: questions only for facts that would change its answer, no how-to
for a tool whose output the user pasted, no finding stated as certain when it rests on an assumption,
and no number left unfilled.

Each function takes the engine's output and the Understanding's facts and returns a smaller or
softened copy; nothing here diagnoses.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from bwdoctor.chat.extract import Understood
from bwdoctor.chat.labels import fact_name, fact_value
from bwdoctor.engine import inputs_of
from bwdoctor.i18n import messages, t

# Facts about the network between machines: never asked of a job on one server.
_INTER_NODE_PREFIXES = ("nic.", "net.", "cluster.")
_INTER_NODE = frozenset({"nccl.transport", "nccl.socket_ifname", "nccl.net_plugin_missing", "nccl.ib_disabled",
                         "nccl.ib_hca", "nccl.gdr_disabled", "nccl.gdr_partial", "node.instance_bandwidth_gbps",
                         "node.zone", "node.region", "node.rack", "node.leaf_switch", "node.rail",
                         "job.baseline_nodes", "job.step_time_baseline_s"})
# Measurements that only make sense between machines.
_INTER_NODE_MEASURES = frozenset({"measure-iperf3", "measure-nccl-tests", "measure-step-times", "watch-nic-traffic",
                                  "check-link-negotiation"})
# A pasted tool's output (Pasted.kinds) or a fact already known makes its how-to pointless.
_MEASURED_BY = {"measure-nccl-tests": ({"nccl-tests"}, {"nccl.allreduce_busbw_gbytes_per_s",
                                                        "nccl.allreduce_algbw_gbytes_per_s"}),
                "measure-iperf3": ({"iperf3", "iperf3-json"}, {"net.iperf3_gbps"}),
                "measure-gpu-util": ({"nvidia-smi"}, {"gpu.util_pct"}),
                "measure-step-times": ({"training-log"}, {"job.step_time_baseline_s"})}
# Knowledge topics that are a how-to for one tool.
_TOPIC_TOOL = {"nccl-tests": "measure-nccl-tests", "iperf3": "measure-iperf3"}


def single_server(facts: Mapping[str, Any]) -> bool:
    """The job runs on one machine (said so, not guessed from silence)."""
    return facts.get("job.nodes") == 1


def inter_node(fact: str) -> bool:
    """A fact about the network between machines."""
    return fact.startswith(_INTER_NODE_PREFIXES) or fact in _INTER_NODE


def relevant_questions(missing: Iterable[Mapping[str, Any]], facts: Mapping[str, Any],
                       set_aside: Iterable[str] = ()) -> list[dict[str, Any]]:
    """The engine's missing facts that can still change this case's answer: none about the inter-node
    network for one server, none the conflict notes already ask about."""
    aside = set(set_aside)
    one = single_server(facts)
    return [dict(m) for m in missing
            if m.get("fact") not in aside and not (one and inter_node(str(m.get("fact", ""))))]


def skipped_measurements(facts: Mapping[str, Any], pasted_kinds: Iterable[str],
                         mentioned: Collection[str] = ()) -> set[str]:
    """Recommendation ids of measurements this case needs no how-to for: the tool's output was pasted or
    its figure given (`mentioned`: facts read this turn, also those set aside as unreconciled)."""
    kinds = set(pasted_kinds)
    said = set(facts) | set(mentioned)
    skip = {rec for rec, (tools, known) in _MEASURED_BY.items() if kinds & tools or said & known}
    if single_server(facts):
        skip |= _INTER_NODE_MEASURES
    return skip


def skipped_topics(mentioned: Collection[str], pasted_kinds: Iterable[str]) -> set[str]:
    """Knowledge topics that would only tell the user how to run a tool whose output they pasted or
    whose figure they gave."""
    kinds, said = set(pasted_kinds), set(mentioned)
    return {topic for topic, rec in _TOPIC_TOOL.items()
            if kinds & _MEASURED_BY[rec][0] or said & _MEASURED_BY[rec][1]}


# --------------------------------------------------------------------------- assumed facts
def assumption_phrase(u: Understood, lang: str) -> str:
    """'the network has no RDMA (my assumption from “GbE”)' / the same in Chinese."""
    phrase = messages("chat_facts", lang).get(f"assumed.{u.fact}={u.value}")
    if phrase is None:
        phrase = t("chat.fact_is", lang, name=fact_name(u.fact, lang), value=fact_value(u.fact, u.value, lang))
    return t("chat.assumed_from", lang, phrase=phrase, text=u.text)


_SEVERITY_RANK = {"critical": 0, "warning": 1, "info": 2}


def soften_assumed(findings: list[dict[str, Any]], assumed: Mapping[str, Understood],
                   lang: str) -> list[dict[str, Any]]:
    """Findings whose evidence includes an assumed fact: at most a warning, the title opened with "If …",
    and `assumed` naming those facts; the list re-ordered by severity (stable)."""
    out = []
    for f in findings:
        # an assumed fact counts also when the evidence is derived from it ('14 GB of gradients' from bf16 assumed)
        used = [base for ev in f.get("evidence", []) if ev.get("fact")
                for base in (ev["fact"], *inputs_of(ev["fact"])) if base in assumed]
        used = list(dict.fromkeys(used))
        if not used or f.get("category") == "healthy":
            out.append(f)
            continue
        g = dict(f)
        g["assumed"] = used
        if g.get("severity") == "critical":
            g["severity"] = "warning"
        phrases = [assumption_phrase(assumed[k], lang) for k in used]
        g["title"] = t("chat.if_assumed", lang, phrases=t("chat.and_list", lang).join(phrases),
                       title=_mid_sentence(str(f["title"])))
        out.append(g)
    return sorted(out, key=lambda f: _SEVERITY_RANK.get(str(f.get("severity")), 3))


# --------------------------------------------------------------------------- unfilled numbers
# The scenario checker's pattern: a number the answer meant to give but could not ("? GB", "约 ? 秒").
UNFILLED = re.compile(r"(?<![\w?？])[?？]\s*(?:GB|Gb|MB|Mb|s\b|ms\b|秒|%|x\b|×)")


def drop_unfilled(text: str) -> str:
    """The text without the sentences that hold an unfilled number (a rule's template missing a value)."""
    if not UNFILLED.search(text):
        return text
    lines = []
    for line in text.split("\n"):
        if UNFILLED.search(line):
            line = "".join(s for s in re.findall(r"[^.。;；]*(?:[.。;；]|$)", line) if not UNFILLED.search(s))
            if not line.strip() or re.fullmatch(r"\s*(?:[-•*]|\d+[.)])\s*", line):
                continue
        lines.append(line)
    return "\n".join(lines)


def _mid_sentence(title: str) -> str:
    """A title carried on after 'If …:' starts in lower case ('The gradient sync …' → 'the gradient sync …'), unless its
    first word is a name or an acronym ('NCCL …', 'GPUs …', 'InfiniBand …')."""
    first = title.split(" ", 1)[0]
    if len(first) > 1 and first[0].isupper() and first[1:].islower() and first.lower() in _COMMON_OPENERS:
        return title[0].lower() + title[1:]
    return title


# The words English titles open with that are no names: only these are put in lower case after 'If …:'.
_COMMON_OPENERS = {"the", "a", "an", "one", "two", "this", "that", "these", "those", "each", "every", "all", "some",
                   "most", "your", "gradient", "gradients", "communication", "passive", "traffic", "training", "data",
                   "checkpoints", "checkpoint", "nodes", "node", "links", "link", "cross-zone", "cross-node", "only",
                   "no", "more", "less", "too", "at", "with", "without", "on", "over", "between", "sync", "step",
                   "steps", "ring", "bandwidth", "throughput", "scaling", "sharded", "full", "tensor", "pipeline"}
