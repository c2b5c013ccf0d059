"""What a set of pair results says so far: the healthy baseline, which pairs are slow, which
elements the fast pairs prove healthy, and which elements could explain each slow pair.

Shared by the planner (what to test next) and the localiser (what to report). Pure.

A pair measured more than once counts by its best result: contention and noise only ever
lower a measurement, so one full-speed run proves the path healthy.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field

from bwdoctor.fabric.topology import Pair, Topology, pair_key

SLOW_FRACTION = 0.7  # a pair is slow below this share of the healthy baseline
MIN_RESULTS_FOR_BASELINE = 3


@dataclass(frozen=True)
class PairResult:
    """One finished test: Gb/s, or the error that stopped it."""

    client: str
    server: str
    gbps: float | None
    error: str | None = None
    stage: str = "screen"

    @property
    def pair(self) -> Pair:
        return pair_key(self.client, self.server)


@dataclass
class Analysis:
    """The state of knowledge after some tests."""

    baseline_gbps: float | None
    best: dict[Pair, float]  # pair -> best Gb/s measured
    failed: dict[Pair, int]  # pair -> tests that ended in an error and never succeeded
    attempts: dict[Pair, int]
    stages: dict[Pair, set[str]] = field(default_factory=dict)  # pair -> stages it was tested in
    slow: list[Pair] = field(default_factory=list)
    ok: list[Pair] = field(default_factory=list)
    healthy: set[str] = field(default_factory=set)  # element classes proven healthy
    candidates: dict[Pair, frozenset[str]] = field(default_factory=dict)  # slow pair -> unproven classes

    def is_slow(self, pair: Pair) -> bool:
        return pair in self.candidates

    def supporting(self, element: str) -> list[Pair]:
        """Slow pairs that only `element` can explain (every other element on them is healthy)."""
        return [p for p, c in self.candidates.items() if c == frozenset({element})]

    def confirmed(self, element: str) -> bool:
        """Singled out by at least two slow pairs, one of them a test run after the suspicion arose
        (isolate, confirm or retest stage): a screen coincidence alone never names an element."""
        support = self.supporting(element)
        return len(support) >= 2 and any(self.stages.get(p, set()) - {"screen"} for p in support)


def healthy_baseline(values: Iterable[float]) -> float | None:
    """What a healthy pair delivers: the median of the screened pairs' best results (most pairs are
    healthy; a fault touches few of the ring's pairs)."""
    numbers = [v for v in values if v > 0]
    if len(numbers) < MIN_RESULTS_FOR_BASELINE:
        return None
    return statistics.median(numbers)


def analyse(
    topology: Topology,
    results: Iterable[PairResult],
    *,
    slow_fraction: float = SLOW_FRACTION,
    expected_gbps: float | None = None,
) -> Analysis:
    """Classify the pairs tested so far and what they prove (expected_gbps overrides the baseline)."""
    best: dict[Pair, float] = {}
    failed: dict[Pair, int] = {}
    attempts: dict[Pair, int] = {}
    stages: dict[Pair, set[str]] = {}
    for r in results:
        key = r.pair
        attempts[key] = attempts.get(key, 0) + 1
        stages.setdefault(key, set()).add(r.stage)
        if r.gbps is not None and r.error is None:
            best[key] = max(best.get(key, 0.0), r.gbps)
        else:
            failed[key] = failed.get(key, 0) + 1
    for key in best:
        failed.pop(key, None)
    # The screen is a sample of the fabric that follows no suspicion; later stages concentrate on
    # suspects and would drag a median over every test down.
    screened = [gbps for key, gbps in best.items() if "screen" in stages[key]]
    baseline = expected_gbps or healthy_baseline(screened) or healthy_baseline(best.values())
    out = Analysis(baseline, best, failed, attempts, stages)
    if baseline is None:
        return out
    cut = slow_fraction * baseline
    for key, gbps in sorted(best.items()):
        (out.slow if gbps < cut else out.ok).append(key)
    for key in out.ok:
        out.healthy |= topology.path(*key)
    for key in out.slow:
        out.candidates[key] = topology.path(*key) - out.healthy
    return out
