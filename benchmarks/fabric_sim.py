"""Simulated fabrics for the test planner and the localiser (no namespaces, no network).

A leaf-spine fabric of N nodes under S leaf switches; faults degrade a node's NIC or a leaf's
uplink to 10-50 % of the healthy rate; every measurement carries noise (log-normal, 5 %) and a
share of tests hit transient congestion (30-70 % of the rate). The planner runs as the service
runs it (a node in one test at a time, `max_parallel` at once, results fed back after each round),
and the localiser names suspects. Prints accuracy, false positives and tests used against the
all-pairs count.

    .venv/bin/python benchmarks/fabric_sim.py            # 256 nodes, 16 switches, 200 trials each
    .venv/bin/python benchmarks/fabric_sim.py --nodes 64 --switches 8 --trials 50
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bwdoctor.fabric.analysis import PairResult  # noqa: E402
from bwdoctor.fabric.localise import localise  # noqa: E402
from bwdoctor.fabric.planner import Policy, assign, wanted_tests  # noqa: E402
from bwdoctor.fabric.topology import Placement, Topology  # noqa: E402

HEALTHY_GBPS = 100.0


@dataclass
class Outcome:
    correct: bool  # every fault localised, nothing else named
    found: int
    faults: int
    false_positives: int
    tests: int
    all_pairs: int
    status: str


def build(nodes: int, switches: int) -> Topology:
    per = nodes // switches
    return Topology({f"n{i:03d}": Placement(leaf=f"leaf{i // per:02d}") for i in range(nodes)})


def simulate(
    topology: Topology,
    faults: dict[str, float],
    rng: random.Random,
    *,
    noise: float,
    transient: float,
    policy: Policy,
) -> Outcome:
    """Run the planner to the end against a fabric with `faults` (element -> remaining share)."""
    results: list[PairResult] = []
    budget = policy.test_budget(len(topology.nodes))
    while len(results) < budget:
        wanted = wanted_tests(topology, results, policy=policy)
        if not wanted:
            break
        # One round: hand out tests as the service would, each node in one test at a time.
        busy: set[str] = set()
        batch = []
        while len(results) + len(batch) < budget:
            test = assign(wanted, busy=busy, running=len(batch), max_parallel=policy.max_parallel)
            if test is None:
                break
            busy |= {test.a, test.b}
            batch.append(test)
            wanted = [w for w in wanted if w is not test]
        for test in batch:
            capacity = min([faults.get(e, 1.0) for e in topology.raw_path(test.a, test.b)])
            gbps = HEALTHY_GBPS * capacity * rng.lognormvariate(0, noise)
            if rng.random() < transient:
                gbps *= rng.uniform(0.3, 0.7)
            results.append(PairResult(test.a, test.b, round(gbps, 2), stage=test.stage))
    loc = localise(topology, results)
    named = set(loc.suspect_elements)
    truth = {topology.canonical(e) for e in faults}
    found = len(named & truth)
    false_positives = len(named - truth)
    return Outcome(
        found == len(truth) and not false_positives,
        found,
        len(truth),
        false_positives,
        len(results),
        topology.all_pairs(),
        loc.status,
    )


def random_faults(topology: Topology, count: int, rng: random.Random) -> dict[str, float]:
    elements = [f"nic:{n}" for n in topology.nodes] + [f"uplink:{leaf}" for leaf in topology.leaves]
    faults: dict[str, float] = {}
    while len(faults) < count:
        element = rng.choice(elements)
        if element.startswith("uplink:") and rng.random() < 0.5:
            continue  # NIC faults are more common than uplink faults: about one uplink in six draws
        faults[element] = rng.uniform(0.1, 0.5)
    return faults


def scenario(name: str, topology: Topology, count: int, trials: int, rng: random.Random, **kw) -> dict:
    outcomes = [simulate(topology, random_faults(topology, count, rng), rng, **kw) for _ in range(trials)]
    tests = [o.tests for o in outcomes]
    row = {
        "scenario": name,
        "trials": trials,
        "correct_pct": 100.0 * sum(o.correct for o in outcomes) / trials,
        "faults_found_pct": 100.0 * sum(o.found for o in outcomes) / max(1, sum(o.faults for o in outcomes)),
        "runs_with_false_positive_pct": 100.0 * sum(o.false_positives > 0 for o in outcomes) / trials,
        "healthy_verdict_pct": 100.0 * sum(o.status == "healthy" for o in outcomes) / trials,
        "tests_median": statistics.median(tests),
        "tests_max": max(tests),
        "all_pairs": outcomes[0].all_pairs,
    }
    row["tests_pct_of_all_pairs"] = 100.0 * row["tests_median"] / row["all_pairs"]
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=256)
    parser.add_argument("--switches", type=int, default=16)
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--noise", type=float, default=0.05, help="log-normal sigma of every measurement")
    parser.add_argument("--transient", type=float, default=0.02, help="share of tests hit by transient congestion")
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    topology = build(args.nodes, args.switches)
    policy = Policy(max_parallel=args.nodes // 2)
    kw = {"noise": args.noise, "transient": args.transient, "policy": policy}
    started = time.perf_counter()
    rows = [
        scenario("no fault", topology, 0, args.trials, rng, **kw),
        scenario("one fault", topology, 1, args.trials, rng, **kw),
        scenario("two faults", topology, 2, args.trials, rng, **kw),
        scenario("three faults", topology, 3, args.trials, rng, **kw),
        scenario(
            "one fault, noise x3, 5 % transients",
            topology,
            1,
            args.trials,
            rng,
            noise=args.noise * 3,
            transient=0.05,
            policy=policy,
        ),
    ]
    elapsed = time.perf_counter() - started
    print(
        f"fabric: {args.nodes} nodes, {args.switches} leaf switches, {topology.all_pairs()} pairs; "
        f"noise sigma {args.noise}, transients {args.transient:.0%}; {args.trials} trials per scenario"
    )
    header = (
        "scenario",
        "correct %",
        "faults found %",
        "runs w/ false pos. %",
        "healthy verdict %",
        "tests (median)",
        "tests (max)",
        "% of all pairs",
    )
    print(" | ".join(header))
    for r in rows:
        print(
            f"{r['scenario']} | {r['correct_pct']:.1f} | {r['faults_found_pct']:.1f} | "
            f"{r['runs_with_false_positive_pct']:.1f} | {r['healthy_verdict_pct']:.1f} | {r['tests_median']:g} | "
            f"{r['tests_max']} | {r['tests_pct_of_all_pairs']:.2f}"
        )
    print(f"({elapsed:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
