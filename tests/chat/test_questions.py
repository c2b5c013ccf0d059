"""The question corpus (questions.yaml): what must be understood and what must not, the intent, findings and reply.

Fact names in the corpus are checked against the catalogue, so a misspelt `not_facts` entry cannot make
an assert that never fails. A case whose misread is known carries `xfail_reason` (understanding) or
`reply_xfail_reason` (findings and reply): a strict xfail, so fixing the chat turns it into a failure
until the line is removed.
"""

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from bwdoctor.chat import answer_turn, understand
from bwdoctor.engine.loader import builtin_catalogue
from tests.matching import says

CASES: list[dict[str, Any]] = yaml.safe_load((Path(__file__).parent / "questions.yaml").read_text("utf-8"))["cases"]
# A figure the reply meant to give but could not ("? GB", "约 ? 秒"), as ../shared/tools/check-scenarios sees it.
UNFILLED = re.compile(r"(?<![\w?？])[?？]\s*(?:GB|Gb|MB|Mb|s\b|ms\b|秒|%|x\b|×)")


def _same(actual: Any, expected: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return actual is expected
    if isinstance(expected, int | float) and isinstance(actual, int | float):
        return abs(actual - expected) <= 0.01 * max(abs(expected), 1e-9)
    return str(actual).lower() == str(expected).lower()


def _id(case: dict[str, Any]) -> str:
    return case["q"].splitlines()[0][:48]


def _cases(xfail_key: str, wanted: Any = None) -> list[Any]:
    """The cases (those `wanted` keeps), a strict xfail where the case names a known misread under `xfail_key`."""
    params = []
    for case in CASES:
        if wanted is not None and not wanted(case):
            continue
        marks = [pytest.mark.xfail(strict=True, reason=case[xfail_key])] if case.get(xfail_key) else []
        params.append(pytest.param(case, marks=marks, id=_id(case)))
    return params


def test_corpus_is_bilingual_and_large() -> None:
    langs = [c["lang"] for c in CASES]
    assert len(CASES) >= 60
    assert langs.count("zh") >= 30 and langs.count("en") >= 30


def test_every_case_says_what_must_not_be_read_and_checks_its_reply() -> None:
    known = set(builtin_catalogue().specs)
    for case in CASES:
        assert case.get("not_facts"), f"no not_facts: {case['q']!r}"
        assert case.get("categories") or case.get("not_categories") or case.get("mentions"), \
            f"nothing checks the reply to {case['q']!r}"
        named = [*(case.get("facts") or {}), *case["not_facts"], *(case.get("changes") or {})]
        assert set(named) <= known, f"not in the fact catalogue: {set(named) - known} ({case['q']!r})"
        assert not set(case["not_facts"]) & set(case.get("facts") or {}), case["q"]


@pytest.mark.parametrize("case", _cases("xfail_reason"))
def test_understanding(case: dict[str, Any]) -> None:
    u = understand(case["q"], previous_facts={})
    assert u.language == case["lang"]
    facts = u.facts
    for key, value in (case.get("facts") or {}).items():
        assert key in facts, f"{key} not understood from {case['q']!r}: got {facts}"
        assert _same(facts[key], value), f"{key} = {facts[key]!r}, expected {value!r}"
    for key in case["not_facts"]:
        assert key not in facts, f"{key} should not be understood: got {facts[key]!r}"
    changes = u.change_facts
    for key, value in (case.get("changes") or {}).items():
        assert key in changes and _same(changes[key], value), f"change {key}: got {changes}"
    if "intent" in case:
        assert u.intent.value == case["intent"]


@pytest.mark.parametrize("case", _cases("reply_xfail_reason"))
def test_findings_and_reply(case: dict[str, Any], engine: Any) -> None:
    result = answer_turn(case["q"], engine=engine)
    categories = {f["category"] for f in result["findings"]}
    for category in case.get("categories") or []:
        assert category in categories, f"missing {category}: got {sorted(categories)}\n{result['answer']}"
    for category in case.get("not_categories") or []:
        assert category not in categories, f"{category} should not be found:\n{result['answer']}"
    answer = result["answer"]
    for alternatives in case.get("mentions") or []:
        assert any(says(answer, a, ignore_case=True) for a in alternatives), f"none of {alternatives} in:\n{answer}"
    assert not UNFILLED.search(answer), f"an unfilled figure in:\n{answer}"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_every_turn_answers(case: dict[str, Any], engine: Any) -> None:
    """Any question gets a non-empty reply in its own language and the JSON of interfaces.md."""
    result = answer_turn(case["q"], engine=engine)
    for key in ("facts", "derived", "findings", "missing", "question", "language", "answer", "intent"):
        assert key in result
    assert result["language"] == case["lang"]
    assert result["answer"].strip()
    assert answer_turn(case["q"], engine=engine) == result  # deterministic
