"""Matching words and figures in replies so that an assert can fail: "28" is not found inside "280".

`says` matches a phrase on word boundaries (ASCII letters and digits; a Chinese term, which has no
spaces around it, as is); `figures` parses the numbers written with a unit, in order.
"""

from __future__ import annotations

import re

CJK = re.compile(r"[\u4e00-\u9fff]")
ASCII_WORD = "[A-Za-z0-9_]"
NUMBER = r"(\d+(?:\.\d+)?)"


def says(text: str, phrase: str, *, ignore_case: bool = False) -> bool:
    """`phrase` in `text` as a whole word or figure: not "28" inside "280" or "2.8", not "-R" inside "-Rx"."""
    if CJK.fullmatch(phrase[0]) and CJK.fullmatch(phrase[-1]):
        return phrase in text  # a Chinese term: no spaces mark its boundaries
    before = r"(?<![A-Za-z0-9_.])" if phrase[0].isdigit() else f"(?<!{ASCII_WORD})"
    after = r"(?![A-Za-z0-9_]|\.\d)" if phrase[-1].isdigit() else f"(?!{ASCII_WORD})"
    flags = re.IGNORECASE if ignore_case else 0
    return re.search(before + re.escape(phrase) + after, text, flags) is not None


def figures(text: str, unit: str) -> list[float]:
    """Every number written with `unit` (a regex) right after it, in order."""
    return [float(m) for m in re.findall(rf"(?<![\d.]){NUMBER}\s*(?:{unit})(?![A-Za-z/])", text)]


def fact_problems(out: dict[str, object], expected: dict[str, object], *, total: str = "total") -> list[str]:
    """What a chat turn's `out` read wrong against `expected` facts: a value of None must not be read at all, and the
    key `total` stands for the derived job.total_gpus."""
    facts = out["facts"]
    derived = out.get("derived") or {}
    assert isinstance(facts, dict) and isinstance(derived, dict)
    problems = []
    for key, want in expected.items():
        got = derived.get("job.total_gpus") if key == total else facts.get(key)
        if want is None and got is not None:
            problems.append(f"{key} read as {got!r}")
        elif want is not None and got != want:
            problems.append(f"{key} = {got!r}, expected {want!r}")
    return problems


def read_problems(text: str, expected: dict[str, object], *, share: float = 0.0) -> list[str]:
    """The expected facts one question's readers get wrong: a value of None must not be read at all, ("not", v) must
    not be read as v, a number matches within `share` of it (a figure the reader rounds or derives)."""
    read = stated_facts(text)
    problems = []
    for key, want in expected.items():
        got = read.get(key)
        if isinstance(want, tuple):
            if got is not None and same_value(got, want[1], share=share):
                problems.append(f"{key} read as {got!r}")
        elif want is None:
            if got is not None:
                problems.append(f"{key} read as {got!r}")
        elif not same_value(got, want, share=share):
            problems.append(f"{key} = {got!r}, expected {want!r}")
    return problems


SEVERITY_RANK = {"info": 0, "warning": 1, "critical": 2}


def same_value(got: object, want: object, *, within: float = 1e-6, share: float = 0.0) -> bool:
    """A fact's value as read against the one wanted: booleans by identity, numbers within rounding (or `within`
    absolute, or a `share` of the value wanted, whichever is wider: a figure the reader rounds or derives)."""
    if isinstance(want, bool) or isinstance(got, bool):
        return got is want
    if isinstance(want, int | float) and isinstance(got, int | float):
        return abs(float(got) - float(want)) <= max(within, share * abs(float(want)))
    return got == want


def turn_problems(out: dict[str, object], facts: dict[str, object], expect: dict[str, object]) -> list[str]:
    """What a chat turn's `out` gets wrong against the `facts` it must read and `expect`: `not_facts` (names never
    read), `finding` ((category, least severity, rule or None) that must be reported), `not_rules`, `not_categories`."""
    read = out.get("facts") or {}
    assert isinstance(read, dict)
    wrong = {k: (read.get(k), v) for k, v in facts.items() if not same_value(read.get(k), v)}
    problems = [f"facts read (got, want): {wrong}"] if wrong else []
    problems += [f"{name} read as {read[name]!r}" for name in expect.get("not_facts", []) if name in read]
    findings = out.get("findings") or []
    assert isinstance(findings, list)
    seen = [(f.get("category"), f.get("severity"), f.get("rule")) for f in findings]
    if "finding" in expect:
        category, severity, rule = expect["finding"]
        if not any(s[0] == category and SEVERITY_RANK[s[1]] >= SEVERITY_RANK[severity]
                   and (rule is None or s[2] == rule) for s in seen):
            problems.append(f"wanted {expect['finding']}, got {seen}")
    problems += [f"{rule} fired: {seen}" for rule in expect.get("not_rules", []) if rule in {s[2] for s in seen}]
    problems += [f"{c} reported: {seen}" for c in expect.get("not_categories", []) if c in {s[0] for s in seen}]
    return problems


def stated_facts(text: str) -> dict[str, object]:
    """The facts one question states, by name (what the readers understood, before any engine)."""
    from bwdoctor.chat import understand

    return {u.fact: u.value for u in understand(text).understood}


def check_stated(text: str, expected: dict[str, object]) -> None:
    """Assert each fact of `expected` is stated with its value, or (value None) not stated at all."""
    read = stated_facts(text)
    for key, want in expected.items():
        got = read.get(key)
        assert (got is None) if want is None else same_value(got, want), (key, got, want)
