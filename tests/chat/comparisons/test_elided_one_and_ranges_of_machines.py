"""Two shapes of run sizes said without a full count, generated over nouns, counts and languages:

  - 'one' with its noun left out after a comparison ('on several GPUs it is slower than on one', '两张卡比一张还慢') is
    one of what the job's side counts: one GPU after GPUs, one machine after machines — never a machine after GPUs;
  - a range of machine counts ('on 4 to 8 nodes', 'on four to eight nodes', '在两到四台机器上都很慢') is each of
    them: the job spans several machines, and neither end is its count; a move ('from 1 to 4 nodes', '(1 to 2
    nodes)') keeps its counts.

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read, facts that must
not be read).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.matching import read_problems

NODES, MULTI, NEG = "job.nodes", "job.multi_node", "job.negative_scaling"
BN, BG = "job.baseline_nodes", "job.baseline_gpus"
Case = tuple[str, dict[str, Any], dict[str, Any]]


def _elided() -> list[Case]:
    cases: list[Case] = []
    for gpus in ["several GPUs", "4 GPUs", "multiple GPUs", "2 cards", "8 V100s"]:
        for tail in ["slower than on one", "slower than with one", "way slower than on a single one"]:
            cases.append((f"Training on {gpus} is {tail}.", {BG: 1, NEG: True}, {BN: None}))
    for nodes in ["two nodes", "2 machines", "4 servers"]:
        cases.append((f"On {nodes} it is slower than on one.", {BN: 1, NEG: True}, {BG: None}))
    for zh, fact, other in [("两张卡比一张还慢", BG, BN), ("四块卡比一块还慢", BG, BN), ("两台机器比一台还慢", BN, BG),
                            ("两张卡比一张卡还慢", BG, BN)]:
        cases.append((zh, {fact: 1, NEG: True}, {other: None}))
    return cases


def _ranges() -> list[Case]:
    cases: list[Case] = []
    for a, b in [(2, 4), (4, 8), (16, 32)]:
        for said in [f"on {a} to {b} nodes", f"on {a}-{b} nodes", f"on {a}~{b} machines", f"across {a} to {b} servers"]:
            cases.append((f"Still 2x the MPI time, {said}.", {MULTI: True}, {NODES: None}))
        cases.append((f"在 {a} 到 {b} 台机器上都很慢", {MULTI: True}, {NODES: None}))
        cases.append((f"{a}-{b} 个节点训练都很慢", {MULTI: True}, {NODES: None}))
    for said in ["on four to eight nodes", "on two to four machines", "在两到四台机器上都很慢", "二到四台机器都慢"]:
        cases.append((f"Still slow, {said}.", {MULTI: True}, {NODES: None}))
    cases += [("scaling from 1 to 4 nodes drops efficiency", {NODES: 4, BN: 1}, {}),
              ("going from 8 to 16 GPUs (1 to 2 nodes) made it slower", {NODES: 2}, {}),
              ("we went from 2 to 4 nodes and it got slower", {NODES: 4, BN: 2}, {}),
              ("on 2 or 4 nodes it hangs", {MULTI: True}, {NODES: None})]
    return cases


CASES = _elided() + _ranges()


@pytest.mark.parametrize(("question", "want", "unwanted"), CASES, ids=[c[0][:70] for c in CASES])
def test_elided_one_and_ranges_of_machines(question: str, want: dict[str, Any], unwanted: dict[str, Any]) -> None:
    assert read_problems(question, {**want, **unwanted}) == []
