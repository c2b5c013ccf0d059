"""How well the chat understands and diagnoses real questions: the corpus pass rate, per file and overall.

Usage: python benchmarks/corpus_quality.py [--verbose] [--kinds] [--fail-under PCT] [FILE.yaml ...]
(default: every tests/corpus/*.yaml, the tuning files and the held-out files reported apart).

Each case is checked in-process with the semantics of the scenario checker that ships with the
acceptance scenarios (categories, categories_any, absent, top, derived, facts, not_facts, language,
answer_mentions, and no number left unfilled in an answer): an `ask` case goes through one chat turn
(`answer_turn`), a `facts` case through `Engine.diagnose`. Prints a line per file and the totals; the
held-out files (`holdout_*.yaml`) are the figure that says how well tuning generalises.
`--kinds` counts the shortfalls by kind (a category missing, a fact missed, a misread…) for each
part, so the held-out files show which layer is weakest without showing a single case; `--keys`
counts the fact shortfalls by fact name and kind (which facts the reader fails on, still no case).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bwdoctor.chat import answer_turn  # noqa: E402
from bwdoctor.engine import Engine, load_engine  # noqa: E402

SERIOUS = {"warning", "critical"}
UNFILLED = re.compile(r"(?<![\w?？])[?？]\s*(?:GB|Gb|MB|Mb|s\b|ms\b|秒|%|x\b|×)")


def _close(a: Any, b: Any) -> bool:
    try:
        fa, fb = float(a), float(b)
    except (TypeError, ValueError):
        return False
    return abs(fa - fb) <= 0.02 * max(abs(fb), 1e-9)


def _same(a: Any, b: Any) -> bool:
    if isinstance(b, bool) or isinstance(a, bool):
        return a is b or a == b
    if isinstance(b, int | float):
        return _close(a, b)
    return str(a).lower() == str(b).lower()


def problems_of(case: dict[str, Any], out: dict[str, Any]) -> list[str]:
    """What falls short in one case's output, as the scenario checker words it."""
    problems: list[str] = []
    exp = case.get("expect", {})
    findings = out.get("findings", [])
    cats = {f.get("category") for f in findings}
    serious = {f.get("category") for f in findings if f.get("severity") in SERIOUS}
    got = sorted(c for c in cats if c)
    problems += [f"missing category {c} (got {got})" for c in exp.get("categories", []) if c not in cats]
    problems += [f"none of categories {g} (got {got})" for g in exp.get("categories_any", [])
                 if not cats.intersection(g)]
    problems += [f"unexpected category {c}" for c in exp.get("absent", []) if c in serious]
    top = exp.get("top")
    if top and (not findings or findings[0].get("category") not in top):
        problems.append(f"first finding is {findings[0].get('category') if findings else None!r}, expected {top}")
    derived = out.get("derived", {})
    for k, v in exp.get("derived", {}).items():
        if k not in derived or not _close(derived[k], v):
            problems.append(f"derived {k} = {derived.get(k)!r}, expected {v}")
    facts = out.get("facts", {})
    for k, v in exp.get("facts", {}).items():
        if k not in facts:
            problems.append(f"fact {k} not understood (expected {v!r})")
        elif not _same(facts[k], v):
            problems.append(f"fact {k} = {facts[k]!r}, expected {v!r}")
    for k, v in exp.get("not_facts", {}).items():
        if k in facts and (v is None or _same(facts[k], v)):
            problems.append(f"fact {k} = {facts[k]!r} was read, but the question does not say so")
    if "language" in exp and out.get("language") != exp["language"]:
        problems.append(f"language {out.get('language')!r}, expected {exp['language']!r}")
    answer = str(out.get("answer", ""))
    hole = UNFILLED.search(answer)
    if hole:
        problems.append(f"answer has a number left unfilled: {hole.group(0)!r}")
    for alternatives in exp.get("answer_mentions", []):
        if not any(str(a).lower() in answer.lower() for a in alternatives):
            problems.append(f"answer mentions none of {alternatives}")
    return problems


def kind_of(problem: str) -> str:
    """The coarse kind of one problem: what layer fell short, never which case or fact."""
    if problem.startswith(("missing category", "none of categories")):
        return "category not reached"
    if problem.startswith("unexpected category"):
        return "category that should not be"
    if problem.startswith("first finding"):
        return "wrong first finding"
    if problem.startswith("fact") and "not understood" in problem:
        return "fact missed"
    if problem.startswith("fact") and "was read" in problem:
        return "fact misread (not_facts)"
    if problem.startswith("fact"):
        return "fact with the wrong value"
    return problem.split(" ", 1)[0]


def key_of(problem: str) -> str | None:
    """The fact name a fact problem is about, or None for any other problem."""
    m = re.match(r"fact (\S+) ", problem)
    return f"{m.group(1)} ({kind_of(problem)})" if m else None


def run_case(engine: Engine, case: dict[str, Any]) -> list[str]:
    """Run one case and return its problems; a crash is a problem, never the end of the run."""
    try:
        if "ask" in case:
            out = answer_turn(case["ask"], engine=engine)
        else:
            diagnosis = engine.diagnose(case.get("facts", {}))
            out = diagnosis.to_dict() if hasattr(diagnosis, "to_dict") else dict(diagnosis)
        return problems_of(case, out)
    except Exception as exc:  # noqa: BLE001 - reported as the case's failure
        return [f"error: {type(exc).__name__}: {exc}"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--verbose", "-v", action="store_true", help="print every failing case and its problems")
    ap.add_argument("--kinds", action="store_true", help="count the shortfalls by kind for each part")
    ap.add_argument("--keys", action="store_true", help="count the fact shortfalls by fact name for each part")
    ap.add_argument("--fail-under", type=float, default=None, help="exit 1 when the overall pass rate is lower")
    opts = ap.parse_args()
    files = opts.files or sorted((ROOT / "tests" / "corpus").glob("*.yaml"))
    engine = load_engine()
    totals: dict[str, list[int]] = {"tuning": [0, 0], "held-out": [0, 0]}
    kinds: dict[str, Counter[str]] = {"tuning": Counter(), "held-out": Counter()}
    keys: dict[str, Counter[str]] = {"tuning": Counter(), "held-out": Counter()}
    for path in files:
        cases = (yaml.safe_load(path.read_text("utf-8")) or {}).get("scenarios", [])
        part = "held-out" if path.name.startswith("holdout") else "tuning"
        passed = 0
        for case in cases:
            problems = run_case(engine, case)
            passed += not problems
            kinds[part].update({kind_of(p) for p in problems})
            keys[part].update({k for k in map(key_of, problems) if k})
            if problems and opts.verbose:
                print(f"FAIL {path.name}:{case.get('id')}")
                for p in problems:
                    print(f"     - {p}")
        totals[part][0] += passed
        totals[part][1] += len(cases)
        print(f"{path.name:40s} {passed:4d}/{len(cases):<4d} {100 * passed / max(len(cases), 1):5.1f} %")
    overall = [sum(v[0] for v in totals.values()), sum(v[1] for v in totals.values())]
    for part, (p, n) in totals.items():
        if n:
            print(f"{part:40s} {p:4d}/{n:<4d} {100 * p / n:5.1f} %")
    if opts.kinds:
        for part, counter in kinds.items():
            for kind, n in counter.most_common():
                print(f"{part:10s} cases with {kind:30s} {n:4d}")
    if opts.keys:
        for part, counter in keys.items():
            for key, n in counter.most_common():
                print(f"{part:10s} {key:60s} {n:4d}")
    rate = 100 * overall[0] / max(overall[1], 1)
    print(f"{'all':40s} {overall[0]:4d}/{overall[1]:<4d} {rate:5.1f} %")
    return 1 if opts.fail_under is not None and rate < opts.fail_under else 0


if __name__ == "__main__":
    sys.exit(main())
