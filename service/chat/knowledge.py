"""Knowledge answers: the article's Q&A and explanations, picked from the engine's knowledge base.

The engine loads the entries (`engine.knowledge`: id, question, answer {en, zh}, keywords, source
H-ids). A question is matched by the topics the intent rules found (through the H-ids each topic draws
on) and by the entries' own keywords. The short built-in texts are only a fallback for a rule
base without a knowledge file (service/messages/chat_knowledge.yaml); the rule base's entries always win.
"""

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bwdoctor.chat.intents import topic_sources
from bwdoctor.i18n import messages, t


@dataclass(frozen=True)
class KnowledgeAnswer:
    """One answer to quote: where it came from and its text in the reply's language."""

    id: str
    source: tuple[str, ...]
    text: str
    from_rulebase: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for the turn's record."""
        return {"id": self.id, "source": list(self.source), "from_rulebase": self.from_rulebase}


def _field(entry: Any, name: str, default: Any = None) -> Any:
    if isinstance(entry, Mapping):
        return entry.get(name, default)
    return getattr(entry, name, default)


def _text(entry: Any, lang: str) -> str:
    answer = _field(entry, "answer") or _field(entry, "text") or {}
    if isinstance(answer, str):
        return answer
    return str(answer.get(lang) or answer.get("en") or "")


def _keywords(entry: Any) -> list[str]:
    raw = _field(entry, "keywords") or ()
    if isinstance(raw, Mapping):
        words: list[str] = []
        for values in raw.values():
            words.extend(values if not isinstance(values, str) else [values])
        return words
    return [raw] if isinstance(raw, str) else list(raw)


def _keyword_score(question: str, entry: Any) -> int:
    q = question.lower()
    return sum(1 for word in _keywords(entry) if word and str(word).lower() in q)


def find_answers(question: str, topics: list[str], entries: Iterable[Any], lang: str,
                 *, limit: int = 2) -> list[KnowledgeAnswer]:
    """The entries that answer the question best, rule base first, built-in fallback otherwise."""
    entries = list(entries or [])
    picked: list[KnowledgeAnswer] = []
    for topic in topics:
        wanted = set(topic_sources(topic))
        best: tuple[tuple[int, int, str], Any] | None = None
        for entry in entries:
            source = {str(s) for s in (_field(entry, "source") or ())}
            overlap = len(wanted & source)
            if not overlap:
                continue
            key = (overlap, _keyword_score(question, entry), str(_field(entry, "id", "")))
            if best is None or key[:2] > best[0][:2] or (key[:2] == best[0][:2] and key[2] < best[0][2]):
                best = (key, entry)
        if best is not None and _text(best[1], lang):
            entry = best[1]
            answer = KnowledgeAnswer(str(_field(entry, "id")), tuple(str(s) for s in _field(entry, "source") or ()),
                                     _text(entry, lang), True)
        elif f"topic.{topic}" in messages("chat_knowledge", lang):
            answer = KnowledgeAnswer(f"builtin:{topic}", tuple(topic_sources(topic)),
                                     t(f"chat_knowledge.topic.{topic}", lang), False)
        else:
            continue
        if all(a.id != answer.id for a in picked):
            picked.append(answer)
        if len(picked) >= limit:
            return picked
    if not picked:
        # No topic rule fired: an entry whose keywords the question uses twice or more still answers it.
        scored = sorted(((_keyword_score(question, e), str(_field(e, "id", ""))), e) for e in entries)
        scored = [s for s in scored if s[0][0] >= 2]
        scored.sort(key=lambda s: (-s[0][0], s[0][1]))
        for _, entry in scored[:limit]:
            sources = tuple(str(s) for s in _field(entry, "source") or ())
            picked.append(KnowledgeAnswer(str(_field(entry, "id")), sources,
                                          _text(entry, lang), True))
    return picked


def has_keyword_match(question: str, entries: Iterable[Any]) -> bool:
    """True when some entry's keywords appear at least twice in the question (a knowledge question)."""
    return any(_keyword_score(question, e) >= 2 for e in entries or [])


_SPACE = re.compile(r"\s+")
