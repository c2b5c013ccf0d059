"""The question corpus (questions.yaml): what must be understood, the intent, findings and reply words."""

from pathlib import Path
from typing import Any

import pytest
import yaml

from service.chat import answer_turn, understand

CASES: list[dict[str, Any]] = yaml.safe_load((Path(__file__).parent / "questions.yaml").read_text("utf-8"))["cases"]


def _same(actual: Any, expected: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return actual is expected
    if isinstance(expected, int | float) and isinstance(actual, int | float):
        return abs(actual - expected) <= 0.01 * max(abs(expected), 1e-9)
    return str(actual).lower() == str(expected).lower()


def _id(case: dict[str, Any]) -> str:
    return case["q"].splitlines()[0][:48]


def test_corpus_is_bilingual_and_large() -> None:
    langs = [c["lang"] for c in CASES]
    assert len(CASES) >= 60
    assert langs.count("zh") >= 30 and langs.count("en") >= 30


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_understanding(case: dict[str, Any]) -> None:
    u = understand(case["q"], previous_facts={})
    assert u.language == case["lang"]
    facts = u.facts
    for key, value in (case.get("facts") or {}).items():
        assert key in facts, f"{key} not understood from {case['q']!r}: got {facts}"
        assert _same(facts[key], value), f"{key} = {facts[key]!r}, expected {value!r}"
    for key in case.get("not_facts") or []:
        assert key not in facts, f"{key} should not be understood: got {facts[key]!r}"
    changes = u.change_facts
    for key, value in (case.get("changes") or {}).items():
        assert key in changes and _same(changes[key], value), f"change {key}: got {changes}"
    if "intent" in case:
        assert u.intent.value == case["intent"]


@pytest.mark.parametrize("case", [c for c in CASES if c.get("categories") or c.get("mentions")], ids=_id)
def test_findings_and_reply(case: dict[str, Any], engine: Any) -> None:
    result = answer_turn(case["q"], engine=engine)
    categories = {f["category"] for f in result["findings"]}
    for category in case.get("categories") or []:
        assert category in categories, f"missing {category}: got {sorted(categories)}\n{result['answer']}"
    answer = result["answer"].lower()
    for alternatives in case.get("mentions") or []:
        assert any(a.lower() in answer for a in alternatives), f"none of {alternatives} in:\n{result['answer']}"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_every_turn_answers(case: dict[str, Any], engine: Any) -> None:
    """Any question gets a non-empty reply in its own language and the JSON of interfaces.md."""
    result = answer_turn(case["q"], engine=engine)
    for key in ("facts", "derived", "findings", "missing", "question", "language", "answer", "intent"):
        assert key in result
    assert result["language"] == case["lang"]
    assert result["answer"].strip()
    assert answer_turn(case["q"], engine=engine) == result  # deterministic
