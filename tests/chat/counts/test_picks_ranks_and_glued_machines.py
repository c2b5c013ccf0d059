"""Four forms of a job's size, generated over counts and wordings, with the near misses beside them:

  - fewer machines picked of those said before, the noun left out ('We have 8 nodes but only use 2 for this job', 'we
    have 10 machines but the job only uses 4'): the job's machines are the picked ones;
  - each machine's processes said after the machines times them or with 'procs' ('2 nodes x 8 ranks', '2 nodes * 8
    processes', 'on 2 nodes, 8 procs each'): so many GPUs a machine;
  - Open MPI's '--map-by ppr:8:node': so many processes on each machine;
  - GPUs glued before a machine word ('8卡机器共 3 台', '用的是 8 卡服务器，两台', '多台8卡机器'): each machine's GPUs,
    never a total of them, and '多台' before them is several machines;
  - one machine picked out of the job's ('两台机器中有一台特别慢', '4 台机器里有一台 GPU 利用率很低'): one of its
    machines, never a one-machine run compared with.

Traps: a pick of something else ('only use 2 GB', 'only use 2 workers'), a pick no fewer than the machines, a
socket's share ('ppr:4:socket'), a machine with a share of its own ('单台 8 卡服务器' is one machine).

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read with these values,
facts that must not be read: {fact: value, or None for any value}).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.matching import read_problems

NODES, GPN, TOTAL, MULTI = "job.nodes", "job.gpus_per_node", "job.total_gpus", "job.multi_node"
Case = tuple[str, dict[str, Any], dict[str, Any]]


def _picks() -> list[Case]:
    cases: list[Case] = []
    for have, use in [(8, 2), (10, 4), (16, 4), (4, 2)]:
        for form in ["We have {h} nodes but only use {u} for this job",
                     "we have {h} machines but the job only uses {u}",
                     "The cluster has {h} nodes, we only use {u} right now", "We have {h} nodes but only use {u}.",
                     "we have {h} servers, only using {u} because of the quota"]:
            cases.append((form.format(h=have, u=use), {NODES: use}, {NODES: ("not", have)}))
    cases += [
        # a pick of something else, or no fewer than there are: the machines said stay the job's
        ("we have 8 nodes but only use 2 GB of memory", {NODES: 8}, {}),
        ("we have 8 nodes and only use 2 workers", {NODES: 8}, {}),
        ("We have 4 nodes, it only uses 4", {NODES: 4}, {}),
        ("We have 2 nodes but only use 4 for the data loader", {NODES: 2}, {}),
    ]
    return cases


def _ranks_each() -> list[Case]:
    cases: list[Case] = []
    for n, m in [(2, 8), (4, 8), (2, 4)]:
        for form in ["{n} nodes * {m} processes", "{n} nodes x {m} ranks",
                     "we launch with torchrun on {n} nodes, {m} procs each", "{m} procs per node on {n} nodes",
                     "each node runs {m} procs, {n} nodes in all", "{n} 台 * {m} 进程"]:
            cases.append((form.format(n=n, m=m), {NODES: n, GPN: m}, {}))
    # ranks in all beside the machines: divided, never each machine's
    cases.append(("2 nodes, 16 ranks in total", {NODES: 2, GPN: 8}, {GPN: ("not", 16)}))
    return cases


def _map_by() -> list[Case]:
    return [
        ("mpirun -n 16 --map-by ppr:8:node python train.py", {NODES: 2, GPN: 8}, {}),
        ("mpirun -np 32 --map-by ppr:8:node:PE=4 --bind-to core ./train", {NODES: 4, GPN: 8}, {}),
        ("mpirun -np 8 --map-by ppr:4:node ./train", {NODES: 2, GPN: 4}, {}),
        # a socket's share is no machine's
        ("mpirun -np 8 --map-by ppr:4:socket ./train", {}, {GPN: 4}),
    ]


def _glued() -> list[Case]:
    cases: list[Case] = []
    for m, n, zn in [(8, 3, "3"), (8, 2, "两"), (4, 4, "四")]:
        cases += [
            (f"{m}卡机器共 {zn} 台", {NODES: n, GPN: m}, {TOTAL: m}),
            (f"我们用的是 {m} 卡服务器，{zn}台", {NODES: n, GPN: m}, {TOTAL: m}),
            (f"{m} 卡的节点一共 {zn} 个", {NODES: n, GPN: m}, {TOTAL: m}),
        ]
    cases += [
        ("多台8卡机器训练很慢", {MULTI: True, GPN: 8}, {NODES: 1}),
        ("多台 4 卡服务器做数据并行，速度上不去", {MULTI: True, GPN: 4}, {NODES: 1}),
        # one machine, said whole
        ("单台 8 卡服务器", {GPN: 8, NODES: 1}, {}),
        ("一台 8 卡的机器", {GPN: 8, NODES: 1}, {}),
        # the machines counted before stay counted
        ("2 台 8 卡机器", {NODES: 2, GPN: 8}, {}),
        ("有 3 台 4 卡机器", {NODES: 3, GPN: 4}, {}),
    ]
    return cases


def _one_of_them() -> list[Case]:
    cases: list[Case] = []
    for n, zn in [(2, "两"), (4, "4 "), (8, "八")]:
        for form in ["{z}台机器中有一台特别慢", "{z}台机器中的一台很慢", "{z}台机器里有一台 GPU 利用率很低",
                     "{z}台机器当中有 1 台 GPU 利用率很低"]:
            cases.append((form.format(z=zn), {NODES: n}, {"job.baseline_nodes": None}))
    # a one-machine run said beside it is still the baseline
    cases.append(("多机训练比单机慢，两台机器中有一台特别慢", {NODES: 2, "job.baseline_nodes": 1}, {}))
    return cases


CASES = _picks() + _ranks_each() + _map_by() + _glued() + _one_of_them()


@pytest.mark.parametrize(("text", "want", "never"), CASES)
def test_picks_ranks_and_glued_machines(text: str, want: dict[str, Any], never: dict[str, Any]) -> None:
    expected = {**want, **{fact: value if isinstance(value, tuple) else None if value is None else ("not", value)
                           for fact, value in never.items()}}
    assert read_problems(text, expected) == []
