"""The planner and the localiser on simulated fabrics (pure: no database, no network)."""

from __future__ import annotations

import random
import sys
from collections import Counter

import pytest

from bwdoctor.fabric.analysis import PairResult
from bwdoctor.fabric.localise import bad_link_answer, fix_worth, localisation_findings, localise
from bwdoctor.fabric.planner import Policy, assign, screen_ring, wanted_tests
from bwdoctor.fabric.topology import Placement, Topology
from tests.prereqs import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import fabric_sim  # noqa: E402


def fabric(nodes: int, leaves: int) -> Topology:
    return fabric_sim.build(nodes, leaves)


def run(topology: Topology, faults: dict[str, float], seed: int = 0, **kw):
    policy = Policy(max_parallel=len(topology.nodes) // 2)
    return fabric_sim.simulate(topology, faults, random.Random(seed), noise=kw.get("noise", 0.03),
                               transient=kw.get("transient", 0.0), policy=policy)


def test_the_screen_ring_tests_every_nic_twice_and_crosses_each_uplink_twice():
    topology = fabric(32, 4)
    ring = screen_ring(topology)
    assert len(ring) == 32 == len(set(ring))
    assert set(Counter(n for pair in ring for n in pair).values()) == {2}
    crossings = Counter(e for pair in ring for e in topology.path(*pair) if e.startswith("uplink:"))
    assert set(crossings.values()) == {2} and len(crossings) == 4


def test_assign_never_puts_a_node_in_two_tests_or_exceeds_the_parallel_limit():
    topology = fabric(16, 2)
    wanted = wanted_tests(topology, [])
    busy: set[str] = set()
    handed = []
    while (test := assign(wanted, busy=busy, running=len(handed), max_parallel=5)) is not None:
        assert test.a not in busy and test.b not in busy
        busy |= {test.a, test.b}
        handed.append(test)
        wanted = [w for w in wanted if w is not test]
    assert len(handed) == 5


@pytest.mark.parametrize("node", ["n000", "n017", "n063"])
def test_a_slow_nic_is_localised_with_two_slow_pairs_and_nothing_else_named(node):
    outcome = run(fabric(64, 8), {f"nic:{node}": 0.3})
    assert outcome.correct and outcome.false_positives == 0
    assert outcome.tests <= 0.1 * outcome.all_pairs


def test_a_slow_uplink_is_named_as_that_leafs_uplink():
    topology = fabric(64, 8)
    outcome = run(topology, {"uplink:leaf03": 0.2})
    assert outcome.correct


def test_with_two_leaves_the_uplinks_are_one_link_and_named_as_such():
    topology = fabric(8, 2)
    assert topology.canonical("uplink:leaf00") == topology.canonical("uplink:leaf01") == "link:leaf00|leaf01"
    assert run(topology, {"uplink:leaf01": 0.1}).correct


def test_a_healthy_fabric_is_healthy_and_a_lone_slow_pair_names_nothing():
    topology = fabric(16, 2)
    results = [PairResult(a, b, 10.0) for a, b in screen_ring(topology)]
    assert localise(topology, results).status == "healthy"
    a, b = screen_ring(topology)[3]
    results[3] = PairResult(a, b, 1.0)  # both NICs carried a full-speed test elsewhere: noise
    loc = localise(topology, results)
    assert loc.suspects == [] and loc.unexplained and loc.status == "healthy"
    assert any(t.pair == (a, b) and t.stage == "retest" for t in wanted_tests(topology, results))


def test_single_faults_at_scale_meet_the_target():
    """The benchmark's claim, smaller: >= 95 % of single faults with no healthy element named, <= 10 % of pairs."""
    rng = random.Random(11)
    topology = fabric(128, 8)
    outcomes = [run(topology, fabric_sim.random_faults(topology, 1, rng), seed=i, transient=0.02) for i in range(40)]
    assert sum(o.correct for o in outcomes) >= 0.95 * len(outcomes)
    assert max(o.tests for o in outcomes) <= 0.1 * outcomes[0].all_pairs


def test_findings_and_the_chat_answer_in_both_languages_name_the_element_and_the_what_if():
    topology = Topology({f"m{i}": Placement(leaf="leaf-x" if i < 4 else "leaf-y") for i in range(8)})
    results = [PairResult(a, b, 2.0 if "m2" in (a, b) else 10.0, stage="screen") for a, b in screen_ring(topology)]
    results.append(PairResult("m2", "m0", 2.0, stage="confirm"))
    loc = localise(topology, results, step_time_s=2.0, comm_time_s=0.2)
    assert loc.suspect_elements == ["nic:m2"]
    (finding,) = localisation_findings(loc)
    assert finding["category"] == "fabric-element-degraded" and "m2" in finding["title"]
    assert loc.suspects[0].what_if == {"collective_speedup": 5.0, "step_time_s": 2.0, "step_time_fixed_s": 1.2,
                                       "basis": "communication model"}
    assert "1.2 s" in finding["explanation"]
    assert "节点 m2 的网卡" in localisation_findings(loc, "zh")[0]["title"]
    assert "m2" in bad_link_answer(loc, "c1") and "m2" in bad_link_answer(loc, "c1", "zh")
    assert "no pair-test results" in bad_link_answer(None, "c1")


def test_fix_worth_without_a_communication_time_gives_the_bound():
    assert fix_worth(25.0, 100.0, step_time_s=4.0, comm_time_s=None) == {
        "collective_speedup": 4.0, "step_time_s": 4.0, "step_time_fixed_min_s": 1.0,
        "basis": "slowest-link bound (communication-bound step)"}
