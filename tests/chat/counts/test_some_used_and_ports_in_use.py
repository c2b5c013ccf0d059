"""Two readings of what the job uses out of what is there, generated over counts, ports and languages:

  - some of a machine's GPUs said in use with the noun left out ('8 GPUs show in nvidia-smi but only 4 are used', '机器
    上有 8 张卡，但只有 4 张在用'): the job's GPUs are those, the machine's are gpu.count; a GPU count said between a
    machine count and an elided 'only 8 are used' is what the 8 counts (no 8 machines);
  - ports said with their speeds and the one NCCL uses ('eth0 is 1G, ib0 is 100G, NCCL uses eth0', 'eth0 is 1G and
    ib0 is 100G; NCCL is using eth0'): the link the job has is the used port's, each port taking the speed in its own
    clause (of two as near, the one after it).

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read, facts that must
not be read).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.matching import read_problems

GPN, COUNT, NODES, SPEED = "job.gpus_per_node", "gpu.count", "job.nodes", "nic.speed_gbps"
Case = tuple[str, dict[str, Any], dict[str, Any]]


def _some_used() -> list[Case]:
    cases: list[Case] = []
    for has, used in [(8, 4), (8, 2), (4, 1)]:
        cases += [(f"{has} GPUs show in nvidia-smi but only {used} are used", {GPN: used, COUNT: has}, {}),
                  (f"the box has {has} GPUs, only {used} of them are busy", {GPN: used, COUNT: has}, {}),
                  (f"机器上有 {has} 张卡，但只有 {used} 张在用", {GPN: used, COUNT: has}, {})]
    cases.append(("2 nodes with 8 GPUs each, only 8 are used", {NODES: 2}, {NODES: ("not", 8)}))
    cases.append(("works on 1 node, slow on 2", {NODES: 2}, {}))
    return cases


def _ports() -> list[Case]:
    cases: list[Case] = []
    for slow, fast in [("eth0", "ib0"), ("eno1", "ib0"), ("bond0", "ib1")]:
        for low, high in [(1, 100), (10, 200), (25, 400)]:
            cases += [(f"{slow} is {low}G, {fast} is {high}G, NCCL uses {slow}", {SPEED: float(low)}, {}),
                      (f"{slow} is {low}G and {fast} is {high}G; NCCL is using {slow}", {SPEED: float(low)}, {}),
                      (f"{slow} 是 {low}G，{fast} 是 {high}G，NCCL 走的是 {slow}", {SPEED: float(low)}, {})]
    return cases


CASES = _some_used() + _ports()


@pytest.mark.parametrize(("question", "want", "unwanted"), CASES, ids=[c[0][:70] for c in CASES])
def test_some_used_and_ports_in_use(question: str, want: dict[str, Any], unwanted: dict[str, Any]) -> None:
    assert read_problems(question, {**want, **unwanted}) == []
