"""The test planner: which pairs to test next so that few tests find the faulty element.

Three stages, each asked again after every result (the plan adapts as results arrive):

1. **screen** — a ring over the nodes ordered by leaf switch (and rail): N tests for N nodes,
   each NIC tested twice and each leaf's uplink crossed twice. Most faults are pinned down here:
   a slow ring edge whose other elements the neighbouring edges prove healthy names the element.
2. **isolate** (bisection) — a slow pair that more than one unproven element could explain is
   split: each candidate is tested on a path where every other element is already proven healthy
   (a NIC against a healthy node on the same leaf; an uplink between healthy nodes of its leaf and
   of a leaf whose uplink is healthy). A test nobody can isolate yet waits for more results.
3. **confirm** — an element singled out by only one slow pair is tested once more against another
   known-healthy node, so no finding rests on a single measurement. A slow pair that nothing
   unproven explains any more (noise, a transient) is measured once again (**retest**).

Traffic is bounded: every test lasts `duration_s` at most `rate_gbps`, a node takes part in one
test at a time, at most `max_parallel` run at once, and a run stops after `max_tests`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bwdoctor.fabric.analysis import Analysis, PairResult, analyse
from bwdoctor.fabric.topology import Pair, Topology, pair_key, ring_order

MAX_RETESTS = 1  # a pair is measured at most this many extra times
MAX_ERROR_RETRIES = 1
MAX_ISOLATIONS = 2  # isolating tests per element before the planner gives up on it


def _isolations(analysis: Analysis, topology: Topology, element: str) -> int:
    """Tests in the isolate stage whose path holds `element`."""
    return sum(1 for key, stages in analysis.stages.items() if "isolate" in stages and element in topology.path(*key))


@dataclass(frozen=True)
class PlannedTest:
    """A test the planner wants: between `a` and `b` (either may be the client), and why."""

    a: str
    b: str
    stage: str
    reason: str

    @property
    def pair(self) -> Pair:
        return pair_key(self.a, self.b)


@dataclass(frozen=True)
class Policy:
    """How much a run may cost (documented in docs/fabric.md)."""

    duration_s: float = 2.0
    rate_gbps: float | None = None
    max_parallel: int = 8
    max_tests: int | None = None  # default: 2 × nodes + 16
    slow_fraction: float = 0.7

    def test_budget(self, nodes: int) -> int:
        return self.max_tests if self.max_tests is not None else 2 * nodes + 16


def screen_ring(topology: Topology) -> list[Pair]:
    """The screening ring's pairs (none for fewer than two nodes; one pair for two)."""
    order = ring_order(topology)
    if len(order) < 2:
        return []
    if len(order) == 2:
        return [pair_key(order[0], order[1])]
    return [pair_key(order[i], order[(i + 1) % len(order)]) for i in range(len(order))]


def _isolating_peer(topology: Topology, node: str, analysis: Analysis, avoid: set[str]) -> str | None:
    """A node whose test with `node` passes no unproven element but `node`'s own NIC (and those
    of its class): same leaf first, healthy NIC, not already used for this node."""
    target = topology.canonical(f"nic:{node}")
    best: str | None = None
    best_extra = 10**9
    for other in sorted(topology.nodes, key=lambda n: (topology.leaf(n) != topology.leaf(node), n)):
        if other == node or other in avoid:
            continue
        extra = len(topology.path(node, other) - analysis.healthy - {target})
        if extra == 0:
            return other
        if extra < best_extra:
            best, best_extra = other, extra
    return best if best_extra <= 1 else None


def _isolating_pair_for_group(topology: Topology, element: str, analysis: Analysis, used: set[Pair]) -> Pair | None:
    """A pair not tested yet whose path holds `element` (an uplink, link or rail) and otherwise only
    elements proven healthy; failing that, one with a single other unproven element."""
    inside = topology.nodes_of(element)
    best: Pair | None = None
    best_extra = 2
    for u in sorted(inside, key=lambda n: f"nic:{n}" not in analysis.healthy):
        for v in topology.nodes:
            if v == u:
                continue
            key = pair_key(u, v)
            if key in used:
                continue
            path = topology.path(u, v)
            if element not in path:
                continue
            extra = len(path - analysis.healthy - {element})
            if extra == 0:
                return key
            if extra < best_extra:
                best, best_extra = key, extra
    return best


def wanted_tests(
    topology: Topology,
    results: Sequence[PairResult],
    *,
    pending: Iterable[Pair] = (),
    policy: Policy | None = None,
) -> list[PlannedTest]:
    """Tests still needed, most useful first, leaving out pairs already pending."""
    policy = policy or Policy()
    pending_set = {pair_key(*p) for p in pending}
    analysis = analyse(topology, results, slow_fraction=policy.slow_fraction)
    out: list[PlannedTest] = []
    seen: set[Pair] = set(pending_set)

    def want(a: str, b: str, stage: str, reason: str) -> None:
        key = pair_key(a, b)
        if key not in seen:
            seen.add(key)
            out.append(PlannedTest(key[0], key[1], stage, reason))

    # Tests that failed with an error (peer not listening, timeout): once more, then give up.
    for key, errors in analysis.failed.items():
        if errors <= MAX_ERROR_RETRIES:
            want(*key, "retest", "the last test of this pair failed")

    for key in screen_ring(topology):
        if key not in analysis.attempts:
            want(*key, "screen", "ring screen")
    if analysis.baseline_gbps is None:
        return out
    # Isolate: slow pairs with more than one unproven element.
    for key, cands in analysis.candidates.items():
        if not cands:
            if analysis.attempts.get(key, 0) <= MAX_RETESTS:
                want(*key, "retest", "slow, but every element on its path has tested healthy")
            continue
        if len(cands) == 1:
            continue
        for element in sorted(cands):
            if analysis.supporting(element) or _isolations(analysis, topology, element) >= MAX_ISOLATIONS:
                continue  # already singled out (the confirm stage takes it) or tried enough
            _plan_isolation(topology, element, analysis, seen, want)
    # Confirm: each element singled out is tested once more against a known-healthy node.
    singled = {next(iter(c)) for c in analysis.candidates.values() if len(c) == 1}
    for element in sorted(singled):
        if analysis.confirmed(element):
            continue
        _plan_isolation(topology, element, analysis, seen, want, stage="confirm")
    return out


def _plan_isolation(topology, element, analysis, seen, want, stage: str = "isolate") -> None:  # type: ignore[no-untyped-def]
    kind, name = element.split(":", 1)
    if kind == "nic":
        node = name
        tested_with = {b if a == node else a for (a, b) in analysis.attempts if node in (a, b)}
        tested_with |= {b if a == node else a for (a, b) in seen if node in (a, b)}
        peer = _isolating_peer(topology, node, analysis, avoid=tested_with)
        if peer is not None:
            want(node, peer, stage, f"{element} against a healthy node")
        return
    pair = _isolating_pair_for_group(topology, element, analysis, seen | set(analysis.attempts))
    if pair is not None:
        want(*pair, stage, f"{element} between healthy nodes")


def run_finished(
    topology: Topology, results: Sequence[PairResult], *, pending: Iterable[Pair] = (), policy: Policy | None = None
) -> bool:
    """True when nothing is pending and nothing more is wanted, or the run spent its test budget."""
    policy = policy or Policy()
    pending_list = list(pending)
    if len(results) + len(pending_list) >= policy.test_budget(len(topology.nodes)):
        return not pending_list
    return not pending_list and not wanted_tests(topology, results, policy=policy)


def assign(
    wanted: Sequence[PlannedTest], *, busy: set[str], running: int, max_parallel: int, node: str | None = None
) -> PlannedTest | None:
    """The first wanted test whose nodes are both free (and that involves `node`, when given),
    within the parallel limit; None when there is none to hand out now."""
    if running >= max_parallel:
        return None
    for test in wanted:
        if node is not None and node not in (test.a, test.b):
            continue
        if test.a in busy or test.b in busy:
            continue
        return test
    return None
