"""Every heuristic of the source article (H1–H39) is encoded somewhere in the rule base, and the check notices a gap."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from bwdoctor.engine.catalogue import FactCatalogue
from bwdoctor.engine.loader import RuleBase, load_rulebase
from tests.prereqs import SHARED, needs, shared_dir

REPO = Path(__file__).resolve().parents[2]
HEURISTICS_MD = shared_dir() / "spec" / "heuristics.md"
EXPECTED = frozenset(f"H{i}" for i in range(1, 40))
HEURISTIC_ID = re.compile(r"^H\d+$")


def sourced_items(base: RuleBase) -> Iterator[tuple[str, tuple[str, ...]]]:
    """(what, source) for every rule, recommendation, knowledge entry and derived-fact catalogue entry."""
    for rule in base.rules.values():
        yield f"rule {rule.id}", rule.source
    for rec in base.recommendations.values():
        yield f"recommendation {rec.id}", rec.source
    for entry in base.knowledge.values():
        yield f"knowledge {entry.id}", entry.source
    for name, spec in base.catalogue.specs.items():
        if spec.derived:
            yield f"derived {name}", spec.source


def covered(base: RuleBase) -> set[str]:
    return {s for _, source in sourced_items(base) for s in source if HEURISTIC_ID.match(s)}


def uncovered(base: RuleBase, expected: Iterable[str] = EXPECTED) -> list[str]:
    return sorted(set(expected) - covered(base), key=lambda h: int(h[1:]))


def without_source(base: RuleBase, heuristic: str) -> RuleBase:
    """A copy of the rule base in which no item names `heuristic` any more."""

    def drop(item):
        return dataclasses.replace(item, source=tuple(s for s in item.source if s != heuristic))

    return RuleBase(
        catalogue=FactCatalogue({name: drop(spec) for name, spec in base.catalogue.specs.items()}),
        rules={k: drop(v) for k, v in base.rules.items()},
        recommendations={k: drop(v) for k, v in base.recommendations.items()},
        knowledge={k: drop(v) for k, v in base.knowledge.items()},
    )


@pytest.fixture(scope="module")
def rulebase() -> RuleBase:
    base = load_rulebase([])
    assert not base.problems, [p.describe() for p in base.problems]
    return base


def test_every_heuristic_is_encoded(rulebase):
    assert uncovered(rulebase) == []


def test_sources_name_only_known_heuristics(rulebase):
    unknown = {
        (what, s)
        for what, source in sourced_items(rulebase)
        for s in source
        if HEURISTIC_ID.match(s) and s not in EXPECTED
    }
    assert unknown == set()


def test_every_knowledge_entry_and_rule_cites_a_source(rulebase):
    empty = [what for what, source in sourced_items(rulebase) if not source and not what.startswith("derived")]
    assert empty == []


@pytest.mark.parametrize("heuristic", ["H7", "H17", "H29", "H37"])
def test_the_check_fails_when_a_heuristic_loses_its_source(rulebase, heuristic):
    assert heuristic in covered(rulebase)
    assert uncovered(without_source(rulebase, heuristic)) == [heuristic]


def test_removing_one_item_that_alone_encodes_a_heuristic_is_caught(rulebase):
    """Take the heuristic with the fewest encodings and delete just those items from a copy."""
    counts: dict[str, list[str]] = {}
    for what, source in sourced_items(rulebase):
        for s in source:
            counts.setdefault(s, []).append(what)
    heuristic = min(EXPECTED, key=lambda h: (len(counts.get(h, [])), int(h[1:])))
    copy = dataclasses.replace(
        rulebase,
        rules={k: v for k, v in rulebase.rules.items() if f"rule {k}" not in counts[heuristic]},
        recommendations={
            k: v for k, v in rulebase.recommendations.items() if f"recommendation {k}" not in counts[heuristic]
        },
        knowledge={k: v for k, v in rulebase.knowledge.items() if f"knowledge {k}" not in counts[heuristic]},
        catalogue=FactCatalogue(
            {n: s for n, s in rulebase.catalogue.specs.items() if f"derived {n}" not in counts[heuristic]}
        ),
    )
    assert heuristic in uncovered(copy)


@needs(SHARED, why="the article's heuristics in spec/heuristics.md")
def test_the_heuristic_ids_match_the_spec(rulebase):
    text = HEURISTICS_MD.read_text(encoding="utf-8")
    in_spec = set(re.findall(r"\*\*(H\d+)\*\*", text))
    assert in_spec == EXPECTED
    assert uncovered(rulebase, in_spec) == []
