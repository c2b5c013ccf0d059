"""Understanding one turn: its language, its intent, the facts it states and the changes it proposes.

Rule-based and deterministic (no hosted model, no network): the same question always reads the same.
"""

import re
from dataclasses import dataclass, field
from typing import Any

from service.chat.extract import Understood, extract_facts, resolve
from service.chat.intents import Intent, classify, knowledge_topics
from service.chat.knowledge import has_keyword_match
from service.chat.language import detect_language, normalise_lang
from service.chat.pasted import Pasted, parse_pasted


@dataclass
class Understanding:
    """What one question says, ready for the answer composer and for storing with the turn."""

    question: str
    language: str
    intent: Intent
    understood: list[Understood] = field(default_factory=list)
    changes: list[Understood] = field(default_factory=list)
    pasted: Pasted = field(default_factory=Pasted)
    topics: list[str] = field(default_factory=list)

    @property
    def facts(self) -> dict[str, Any]:
        """Facts stated in this turn (words and pasted output), one value each."""
        return {u.fact: u.value for u in self.understood}

    @property
    def change_facts(self) -> dict[str, Any]:
        """The what-if: facts to change for a hypothetical run."""
        return {u.fact: u.value for u in self.changes}


def understand(question: str, *, lang: str | None = None, previous_facts: dict[str, Any] | None = None,
               has_previous_findings: bool = False, knowledge: Any = ()) -> Understanding:
    """Read one turn. `previous_facts` only sharpens ambiguous corrections ('不对，是25G')."""
    previous_facts = previous_facts or {}
    prose, pasted = parse_pasted(question)
    language = normalise_lang(lang) or detect_language(prose if prose.strip() else question)
    hits = extract_facts(prose)
    stated = resolve([h for h in hits if not h.hypothetical])
    proposed = resolve([h for h in hits if h.hypothetical])
    for key, value in pasted.facts.items():
        if key not in stated:
            stated[key] = Understood(key, value, _pasted_label(pasted), pasted.start, pasted.end,
                                     source="pasted:" + "+".join(pasted.kinds))
    if not stated and not proposed and previous_facts:
        stated.update(_bare_correction(prose, previous_facts))
    topics = knowledge_topics(prose)
    intent = classify(prose, has_facts=bool(stated), has_changes=bool(proposed), topics=topics,
                      has_previous_facts=bool(previous_facts), has_previous_findings=has_previous_findings)
    if intent is Intent.OUT_OF_SCOPE and pasted.kinds:
        intent = Intent.DIAGNOSE
    if intent is Intent.OUT_OF_SCOPE and has_keyword_match(prose, knowledge):
        intent = Intent.KNOWLEDGE
    return Understanding(
        question=question,
        language=language,
        intent=intent,
        understood=sorted(stated.values(), key=lambda u: (u.start, u.fact)),
        changes=sorted(proposed.values(), key=lambda u: (u.start, u.fact)),
        pasted=pasted,
        topics=topics,
    )


def _pasted_label(pasted: Pasted) -> str:
    return "pasted " + ", ".join(pasted.kinds) if pasted.kinds else "pasted output"


_BARE = re.compile(r"(?<![A-Za-z0-9.])(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>G|Gb|g|gb)?(?![A-Za-z0-9])")


def _bare_correction(prose: str, previous_facts: dict[str, Any]) -> dict[str, Understood]:
    """'不对，是25G' / 'no, 25G': a bare rate corrects the network fact the conversation already has."""
    m = _BARE.search(prose)
    if not m or not m["unit"]:
        return {}
    for fact in ("nic.speed_gbps", "net.iperf3_gbps", "node.instance_bandwidth_gbps"):
        if fact in previous_facts:
            return {fact: Understood(fact, float(m["num"]), m.group(0), m.start(), m.end())}
    return {}
