"""Three forms of a comparison between runs and the misreads beside them, generated over runs, figures and languages:

  - each GPU's pace as a share of the smaller run's ('per-GPU throughput is half of what a single node gets',
    '多机的单卡吞吐只有单机的一半') is the scaling efficiency, and the run named after the share is the baseline —
    never the job's size, never a run on one GPU, never a speed-up below 1;
  - a factor after 'less than' bounds the speed-up ('4 nodes give less than 2x the throughput of one node'): no
    slower run;
  - a tie ('no faster than a single DGX', 'as fast as with 1 node', '跟单机差不多') is a speed-up of about 1,
    unless each one's pace is what stays the same ('每个节点的速度和单节点时一致' is linear scaling), and a
    pronoun ('as fast as the old one') is no run on one machine.

Also the PCIe link said with its generation ('PCIe Gen4 x16 cards'): a generation and a width, no 4 machines of 16 GPUs.

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read with these values,
facts that must not be read: {fact: value, or None for any value}).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.matching import read_problems

EFF, SP, NEG = "job.scaling_efficiency_pct", "job.speedup", "job.negative_scaling"
BN, BG, NODES, GPN = "job.baseline_nodes", "job.baseline_gpus", "job.nodes", "job.gpus_per_node"
Case = tuple[str, dict[str, Any], dict[str, Any]]

_SINGLE_EN = [("a single node", BN), ("one node", BN), ("a single machine", BN), ("one server", BN)]
_SHARES_EN = [("half of", 50.0), ("only half of", 50.0), ("60% of", 60.0), ("about 70% of", 70.0)]


def _shares() -> list[Case]:
    cases: list[Case] = []
    for i, (run, fact) in enumerate(_SINGLE_EN):
        for j, (share, pct) in enumerate(_SHARES_EN):
            verb = ["gets", "achieves", "does", "reaches"][(i + j) % 4]
            cases.append((f"GPU util is 100% on all GPUs, but the throughput is {share} what {run} {verb} per GPU.",
                          {EFF: pct, fact: 1}, {NODES: 1, NEG: None, SP: None}))
    for machines in ["多机", "两机", "4 机", "多节点", "8 台"]:
        for share, pct in [("一半", 50.0), ("60%", 60.0)]:
            cases.append((f"{machines}的单卡吞吐只有单机的{share}", {EFF: pct, BN: 1}, {GPN: 1, NEG: None, SP: None}))
    return cases


def _bounds() -> list[Case]:
    cases: list[Case] = []
    for n, k in [(4, "2x"), (8, "3x"), (2, "1.5x"), (16, "10x")]:
        for word in ["less than", "lower than"]:
            cases.append((f"{n} nodes give {word} {k} the throughput of one node.", {NODES: n, BN: 1}, {NEG: None}))
    return cases


def _ties() -> list[Case]:
    cases: list[Case] = []
    for n in [2, 4]:
        cases += [
            (f"Multi-node training with {n} DGX A100 is not faster than a single DGX.", {NODES: n, BN: 1, SP: 1.0},
             {NEG: None}),
            (f"With {n} nodes it is as fast as with 1 node.", {NODES: n, BN: 1, SP: 1.0}, {NEG: None}),
            (f"{n} nodes are about as fast as one node.", {BN: 1, SP: 1.0}, {}),
            (f"Training on {n} machines has the same throughput as on one machine.", {BN: 1, SP: 1.0}, {}),
            (f"单机 8 卡和{n}机 {8 * n} 卡速度差不多", {BN: 1, SP: 1.0, NODES: n}, {NEG: None}),
        ]
    cases += [
        # each one's pace the same: linear scaling, no speed-up of 1
        ("现在 20 个节点用 ZeRO stage1 训 7B 模型，每个节点的速度和只用单节点时基本一致", {NODES: 20, BN: 1},
         {SP: None, NEG: None}),
        ("On 4 nodes the per-GPU throughput is the same as on one node.", {BN: 1}, {SP: None, NEG: None}),
        # 'twice as fast', 'not as fast': no tie
        ("With 2 nodes it is twice as fast as with 1 node.", {BN: 1}, {SP: 1.0, NEG: None}),
        ("With 2 nodes it is not as fast as with 1 node.", {BN: 1, NEG: True}, {SP: 1.0}),
        # a pronoun is no run
        ("The new cluster is as fast as the old one.", {}, {BN: None, SP: None}),
        ("Our 4 nodes are slower than the previous one.", {NODES: 4}, {BN: None}),
    ]
    return cases


def _pcie() -> list[Case]:
    cases: list[Case] = []
    for gen, width in [(4, 16), (3, 16), (5, 16), (4, 8)]:
        for said in [f"PCIe Gen{gen} x{width} cards", f"PCIe Gen {gen} x{width} cards", f"Gen{gen} x{width} cards"]:
            cases.append((f"The 8 GPUs are {said}.", {"gpu.pcie_gen": gen, "gpu.pcie_width": width, GPN: 8},
                          {NODES: gen, "job.total_gpus": gen * width}))
            cases.append((f"The GPUs are {said}.", {"gpu.pcie_gen": gen, "gpu.pcie_width": width},
                          {NODES: None, GPN: None}))
    # a real count beside it is still read
    cases.append(("2 x 8 A100 nodes, PCIe Gen4 x16 NICs.", {NODES: 2, GPN: 8}, {}))
    return cases


CASES = _shares() + _bounds() + _ties() + _pcie()


@pytest.mark.parametrize(("text", "want", "never"), CASES)
def test_shares_bounds_and_ties(text: str, want: dict[str, Any], never: dict[str, Any]) -> None:
    expected = {**want, **{fact: None if value is None else ("not", value) for fact, value in never.items()}}
    assert read_problems(text, expected) == []
