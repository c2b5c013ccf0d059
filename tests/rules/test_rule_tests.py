"""The promtool-style rule tests of rules/tests/*_test.yaml, one pytest case each, plus the coverage gate."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
import yaml

from bwdoctor.engine import CaseResult, Engine, coverage_gaps, load_rulebase, run_file

REPO = Path(__file__).resolve().parents[2]
RULES = REPO / "rules"
TEST_FILES = sorted((RULES / "tests").glob("*_test.yaml"))


@cache
def engine() -> Engine:
    base = load_rulebase([])
    assert not base.problems, [p.describe() for p in base.problems]
    return Engine(base)


@cache
def results(path: Path) -> tuple[CaseResult, ...]:
    return tuple(run_file(engine(), path))


def cases() -> list:
    params = []
    for path in TEST_FILES:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for index, case in enumerate(data.get("tests") or []):
            name = case.get("name", f"case {index}") if isinstance(case, dict) else f"case {index}"
            params.append(pytest.param(path, index, id=f"{path.stem}:{index}:{name}"))
    return params


def test_there_are_rule_test_files():
    assert TEST_FILES, "rules/tests/*_test.yaml is empty"


def test_each_test_file_belongs_to_a_rule_file():
    themes = {p.stem for p in RULES.glob("*.yaml")}
    orphans = [p.name for p in TEST_FILES if p.stem.removesuffix("_test") not in themes]
    assert orphans == []


@pytest.mark.parametrize(("path", "index"), cases())
def test_rule_case(path: Path, index: int):
    found = results(path)
    if index >= len(found):  # the file itself did not load: its one result says why
        pytest.fail(f"{path.name}: " + "; ".join(p for r in found for p in r.problems))
    result = found[index]
    assert result.passed, f"{path.name}:{result.line} {result.name}\n" + "\n".join(result.problems)


def test_every_rule_fires_somewhere_and_is_silent_somewhere():
    every = [r for path in TEST_FILES for r in results(path)]
    assert coverage_gaps(engine(), every, [r.id for r in engine().rules]) == []
