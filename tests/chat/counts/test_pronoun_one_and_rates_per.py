"""Words that look like counts of a machine's GPUs and are not, generated over subjects, GPUs and rates:

  - 'one' standing for a thing named before ('the new one has H100s', 'which one has 8 GPUs', 'one has V100s, the
    other A100s') is no machine with one GPU;
  - a rate's 'per' ('3.2B tokens per day on 64 GPUs', 'batch 4 per GPU on 64 GPUs', '1000 samples per second on 32
    GPUs') says nothing of one machine: the GPUs are the job's in all, never one machine's 64;
  - more GPUs than a machine holds beside machines they do not divide among ('3 nodes, 16 H20 GPUs', '3 机 16 卡') are
    the job's in all, never 16 on each machine.

Kept: 'one node has 8 GPUs', 'I use one GPU', '2 nodes, each with 8 GPUs', '8 GPUs per node'.

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read, facts that must
not be read).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.matching import read_problems

NODES, GPN, TOTAL = "job.nodes", "job.gpus_per_node", "job.total_gpus"
Case = tuple[str, dict[str, Any], dict[str, Any]]


def _pronouns() -> list[Case]:
    cases: list[Case] = []
    for who in ["the new one", "the second one", "the slow one", "this one", "the other one"]:
        for verb, gpu in [("has", "H100s"), ("uses", "A100s"), ("runs on", "V100s")]:
            cases.append((f"We have two clusters; {who} {verb} {gpu} and is slower.", {"gpu.model": gpu[:-1]},
                          {GPN: ("not", 1), NODES: ("not", 1)}))
    cases.append(("one has V100s, the other has A100s", {}, {GPN: ("not", 1)}))
    cases.append(("one uses 8 A100s, the other uses 8 H100s", {}, {GPN: ("not", 1)}))
    return cases


def _rates() -> list[Case]:
    cases: list[Case] = []
    for rate in ["3.2B tokens per day", "1000 samples per second", "batch 4 per GPU", "2 s per step",
                 "about 1.2 it per second", "90k tokens per s"]:
        for n in [32, 64, 128]:
            cases.append((f"We get {rate} on {n} GPUs.", {TOTAL: n}, {GPN: None, NODES: ("not", 1)}))
    return cases


_KEPT: list[Case] = [
    ("one node has 8 GPUs", {GPN: 8}, {}),
    ("I use one GPU", {GPN: 1}, {}),
    ("2 nodes, each with 8 GPUs", {NODES: 2, GPN: 8}, {}),
    ("8 GPUs per node, 4 nodes", {NODES: 4, GPN: 8}, {}),
    ("we have 2 nodes with 8 GPUs each", {NODES: 2, GPN: 8}, {}),
    ("each node has 4 GPUs and we use 3 nodes", {NODES: 3, GPN: 4}, {}),
]

def _undivided() -> list[Case]:
    cases: list[Case] = []
    for nodes, gpus in [(3, 16), (5, 32), (3, 64)]:
        cases += [(f"{nodes} nodes, {gpus} H20 GPUs, allreduce is slow", {NODES: nodes, TOTAL: gpus}, {GPN: None}),
                  (f"{nodes} nodes with {gpus} GPUs", {NODES: nodes, TOTAL: gpus}, {GPN: None}),
                  (f"集群测试 {nodes} 机 {gpus} 卡吞吐很低", {NODES: nodes, TOTAL: gpus}, {GPN: ("not", gpus)})]
    cases += [("2 nodes with 16 GPUs", {NODES: 2, GPN: 8}, {}), ("2机16卡", {NODES: 2, GPN: 8}, {}),
              ("6 nodes with 16 GPUs each", {NODES: 6, GPN: 16}, {}), ("3台8卡A800", {NODES: 3, GPN: 8}, {})]
    return cases


CASES = _pronouns() + _rates() + _KEPT + _undivided()


@pytest.mark.parametrize(("question", "want", "unwanted"), CASES, ids=[c[0][:70] for c in CASES])
def test_pronoun_one_and_rates_per(question: str, want: dict[str, Any], unwanted: dict[str, Any]) -> None:
    assert read_problems(question, {**want, **unwanted}) == []
