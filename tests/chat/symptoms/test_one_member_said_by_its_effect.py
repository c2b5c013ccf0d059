"""A straggler named by what it does to the whole job, generated over members, verbs and languages:

  - only it is slow ('only machine B is slow', '只有 node3 慢'); taking it out fixes the job ('when I remove node 7 from
    the hostfile, everything is fast again', '去掉 gpu05 就正常了'); taking it in slows it ('只要带上 gpu05 这台机器就
    变慢'); some wait for the rest ('some ranks wait a long time in allreduce for the others'); one GPU throttles ('one
    of the GPUs is throttling', '其中一张卡温度很高而且降频了'); one pair of machines tests slow beside a fine one;
    one of the machines counted before ('4 个节点里有 1 个特别慢') → job.straggler_suspected;
  - 'the slowest node' names several machines: no job on one machine.

Also a link's speed said against its rating with 'instead of' ('running at 100G instead of 200G', '协商到 25G 而不是
100G'): the first is the link's speed, the second the NIC's rating.

Traps: a straggler asked about or denied ('is only node 3 slow?', '不是某台机器慢') is none.

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read, facts that must
not be read).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.matching import read_problems

STRAGGLER, NODES, SPEED, RATED = "job.straggler_suspected", "job.nodes", "nic.speed_gbps", "nic.max_speed_gbps"
Case = tuple[str, dict[str, Any], dict[str, Any]]


def _members() -> list[Case]:
    cases: list[Case] = []
    for member in ["node 7", "node7", "gpu05", "host-3", "worker 2"]:
        cases += [(f"only {member} is slow, the other machines are fine", {STRAGGLER: True}, {}),
                  (f"when I remove {member} from the hostfile, everything is fast again", {STRAGGLER: True}, {}),
                  (f"Without {member} the job runs at full speed.", {STRAGGLER: True}, {}),
                  (f"去掉 {member} 这台机器就正常了", {STRAGGLER: True}, {}),
                  (f"只要带上 {member} 这台机器就变慢", {STRAGGLER: True}, {}),
                  (f"只有 {member} 特别慢", {STRAGGLER: True}, {})]
    for zh in ["4 个节点", "8 台机器", "两台机器"]:
        cases.append((f"{zh}里有 1 个特别慢", {STRAGGLER: True}, {}))
    cases += [("some ranks wait a long time in allreduce for the others", {STRAGGLER: True}, {}),
              ("a few GPUs keep waiting for the rest at every step", {STRAGGLER: True}, {}),
              ("one of the GPUs is throttling", {STRAGGLER: True}, {}),
              ("one GPU keeps overheating and the step time jumps", {STRAGGLER: True}, {}),
              ("其中一张卡温度很高而且降频了", {STRAGGLER: True}, {NODES: 1}),
              ("nccl-tests between node1 and node2 is fine but node1 and node3 is slow", {STRAGGLER: True}, {}),
              ("the job runs at the speed of the slowest node", {STRAGGLER: True}, {NODES: 1})]
    return cases


def _instead_of() -> list[Case]:
    cases: list[Case] = []
    for low, high in [(100, 200), (25, 100), (200, 400)]:
        cases += [(f"the NIC is running at {low}G instead of {high}G", {SPEED: float(low), RATED: float(high)}, {}),
                  (f"our NICs run at {low}G rather than {high}G", {SPEED: float(low), RATED: float(high)}, {}),
                  (f"网卡协商到 {low}G 而不是 {high}G", {SPEED: float(low), RATED: float(high)}, {})]
    return cases


_TRAPS: list[Case] = [
    ("is only node 3 slow, or all of them?", {}, {STRAGGLER: True}),
    ("不是某台机器慢，所有机器都一样慢", {}, {STRAGGLER: True}),
    ("one node has 8 GPUs", {NODES: 1}, {STRAGGLER: None}),
]

CASES = _members() + _instead_of() + _TRAPS


@pytest.mark.parametrize(("question", "want", "unwanted"), CASES, ids=[c[0][:70] for c in CASES])
def test_one_member_said_by_its_effect(question: str, want: dict[str, Any], unwanted: dict[str, Any]) -> None:
    assert read_problems(question, {**want, **{k: v if v is None else ("not", v) for k, v in unwanted.items()}}) == []
