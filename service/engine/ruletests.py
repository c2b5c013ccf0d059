"""Rule unit tests in the spirit of `promtool test rules`: facts in, expected findings (and absences) out.

A test file (`rules/tests/<theme>_test.yaml`) holds a list of cases:

    tests:
      - name: 100B on 10GbE
        facts: {job.model_params_b: 100, job.nodes: 8, nic.speed_gbps: 10}
        expect:
          fires: [nic-below-25g-for-10b-100b]     # rule ids that must fire
          not_fires: [tcp-for-over-100b]          # rule ids that must not
          categories: [nic-undersized]            # categories that must appear
          absent_categories: [healthy]            # categories that must not
          derived: {comm.grad_gbytes: 200}        # within 2 %
          missing: [job.precision]                # facts the engine must ask for
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bwdoctor.engine.engine import Engine
from bwdoctor.engine.errors import EngineError, RuleLoadError
from bwdoctor.engine.yamlfile import load_yaml_with_lines, strip_lines

EXPECT_KEYS = {"fires", "not_fires", "categories", "absent_categories", "derived", "missing"}


@dataclass
class CaseResult:
    file: str
    name: str
    line: int | None
    problems: list[str]
    fired: set[str] = field(default_factory=set)
    checked_absent: set[str] = field(default_factory=set)

    @property
    def passed(self) -> bool:
        return not self.problems


def find_test_files(paths: Iterable[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(path.glob("*_test.yaml")) + sorted(path.glob("tests/*_test.yaml")))
        else:
            files.append(path)
    return files


def run_file(engine: Engine, path: Path) -> list[CaseResult]:
    try:
        data = load_yaml_with_lines(path)
    except RuleLoadError as exc:
        return [CaseResult(str(path), "<file>", exc.line, [exc.message])]
    cases = data.get("tests") if isinstance(data, Mapping) else None
    if not isinstance(cases, list):
        return [CaseResult(str(path), "<file>", None, ["expected a mapping with a 'tests' list"])]
    return [run_case(engine, case, file=str(path)) for case in cases]


def run_case(engine: Engine, case: Any, *, file: str) -> CaseResult:
    line = case.get("__line__") if isinstance(case, Mapping) else None
    name = str(case.get("name", f"case at line {line}")) if isinstance(case, Mapping) else "?"
    result = CaseResult(file, name, line, [])
    if not isinstance(case, Mapping) or not isinstance(case.get("facts"), Mapping):
        result.problems.append("each test needs 'facts' (a mapping) and 'expect'")
        return result
    expect = strip_lines(case.get("expect") or {})
    unknown = set(expect) - EXPECT_KEYS
    if unknown:
        result.problems.append(f"unknown expectation(s): {', '.join(sorted(unknown))}")
        return result
    try:
        facts = engine.validate_facts(strip_lines(dict(case["facts"])))
    except EngineError as exc:
        result.problems.append(str(exc))
        return result
    diagnosis = engine.diagnose(facts, lang=case.get("lang", "en"))
    fired = {f.rule for f in diagnosis.findings}
    categories = {f.category for f in diagnosis.findings}
    result.fired = fired
    result.checked_absent = set(expect.get("not_fires", []))
    known_rules = {r.id for r in engine.rules}
    for rule_id in expect.get("fires", []) + expect.get("not_fires", []):
        if rule_id not in known_rules:
            result.problems.append(f"no rule {rule_id!r} is loaded")
    for rule_id in expect.get("fires", []):
        if rule_id in known_rules and rule_id not in fired:
            result.problems.append(f"expected rule {rule_id} to fire (fired: {', '.join(sorted(fired)) or 'none'})")
    for rule_id in expect.get("not_fires", []):
        if rule_id in fired:
            result.problems.append(f"expected rule {rule_id} not to fire")
    for category in expect.get("categories", []):
        if category not in categories:
            result.problems.append(f"expected a {category} finding (got {', '.join(sorted(categories)) or 'none'})")
    for category in expect.get("absent_categories", []):
        if category in categories:
            result.problems.append(f"expected no {category} finding")
    for name, value in (expect.get("derived") or {}).items():
        got = diagnosis.derived.get(name)
        if got is None:
            result.problems.append(f"derived {name} was not computed")
        elif abs(got - value) > 0.02 * max(abs(value), 1e-9):
            result.problems.append(f"derived {name} = {got}, expected {value}")
    asked = {m["fact"] for m in diagnosis.missing}
    for name in expect.get("missing", []):
        if name not in asked:
            result.problems.append(f"expected the engine to ask for {name}")
    return result


def coverage_gaps(engine: Engine, results: Iterable[CaseResult], rule_ids: Iterable[str]) -> list[str]:
    """Rules without a passing firing case or without a case asserting they stay silent."""
    fired: set[str] = set()
    silent: set[str] = set()
    for r in results:
        fired |= r.fired
        silent |= r.checked_absent
    gaps = []
    for rule_id in sorted(rule_ids):
        if rule_id not in fired:
            gaps.append(f"rule {rule_id} has no test where it fires")
        if rule_id not in silent:
            gaps.append(f"rule {rule_id} has no test asserting it does not fire (not_fires)")
    return gaps
