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
