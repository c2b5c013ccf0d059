"""Comparisons that are no scaling, and the stragglers and step times around them.

A battery of short questions (English and Chinese) for the forms a scaling reader used to misread or miss:
  - two settings compared on the same machines ('ZeRO-3 is 2x slower than ZeRO-2 on 2 nodes', '在 2 台机器上 TCP 比
    RDMA 慢 3 倍', '开了 gradient checkpointing 之后比不开慢 30%'): no speed-up, no negative scaling, no baseline;
  - a step now and then much slower than the others ('every few hundred steps one step is 10x slower', '隔一段时间就会
    有一次特别慢的 step，慢 10 倍左右'): step-time jitter (job.step_time_cv, inferred), no scaling;
  - machines added to reach a total ('最近加了两台机器，总共 6 台'): the total the job, the total less those added its
    baseline;
  - the second run's rate said bare ('one node does 2000 img/s, two nodes 2400', '单机每秒 2000 张图，两机只有
    2400 张');
  - communication's and the compute's (or the step's) times said apart → job.comm_time_pct;
  - two of the job's machines with far-apart loads or step times → job.straggler_suspected, and neither load the job's;
  - a run measured in one zone set beside a job in two ('Same AZ gets 90% of line rate') is no placement in one zone.
"""

import math

import pytest

from bwdoctor.chat import understand

NS, SP = "job.negative_scaling", "job.speedup"
BN, BG, N = "job.baseline_nodes", "job.baseline_gpus", "job.nodes"
CV, CT, ST = "job.step_time_cv", "job.comm_time_pct", "job.step_time_s"
SS, UTIL, ZONES = "job.straggler_suspected", "gpu.util_pct", "cluster.zones"


def _check(text: str, want: dict[str, object], absent: list[str]) -> None:
    facts = understand(text).facts
    for key, value in want.items():
        got = facts.get(key)
        assert got is not None, (key, facts)
        if isinstance(value, bool | str):
            assert got == value, (key, facts)
        else:
            assert math.isclose(float(got), float(value), rel_tol=2e-3), (key, got, value, facts)  # type: ignore[arg-type]
    for key in absent:
        assert key not in facts, (key, facts)


SETTINGS = [
    ("ZeRO-3 is 2x slower than ZeRO-2 on 2 nodes", {N: 2}, [SP, NS, BN]),
    ("用 zero3 比 zero2 慢一倍", {}, [SP, NS, BN]),
    ("2 台机器上 zero3 比 zero2 慢两倍", {N: 2}, [SP, NS, BN]),
    ("fp16 is 30% slower than bf16 on 4 nodes", {N: 4}, [SP, NS, BN]),
    ("With NCCL_ALGO=Tree it's 2x slower than Ring on 8 nodes", {N: 8}, [SP, NS, BN]),
    ("With DeepSpeed ZeRO-3 training is 40% slower than ZeRO-1 on 4 nodes", {N: 4}, [SP, NS, BN]),
    ("PyTorch 2.1 is 3x slower than PyTorch 1.13 on 2 nodes", {N: 2}, [SP, NS, BN]),
    ("Gloo is 5x slower than NCCL on 2 machines", {N: 2}, [SP, NS, BN]),
    ("在 2 台机器上 TCP 比 RDMA 慢 3 倍", {N: 2}, [SP, NS, BN]),
    ("开了 gradient checkpointing 之后比不开慢 30%，4 台机器", {N: 4}, [SP, NS, BN]),
    # negatives: runs of different sizes are still compared
    ("2 nodes are 3x slower than 1 node", {SP: 1 / 3, NS: True, BN: 1, N: 2}, []),
    ("两台机器比单机慢 2 倍", {SP: 0.5, NS: True, BN: 1, N: 2}, []),
    ("Training on 2 nodes is 2x slower than on a single node", {SP: 0.5, NS: True, BN: 1}, []),
    # a run named by its setting, its size right after the name, is still that run
    ("单机 4 张 3090 用 lora_finetune_distributed 训练，比 lora_finetune_single_device 单卡还慢",
     {NS: True, BG: 1}, []),
]

ODD_STEPS = [
    ("隔一段时间就会有一次特别慢的 step，慢 10 倍左右", {CV: 0.3}, [SP, NS, BN]),
    ("我们 4 台机器训练，隔一段时间就会有一次特别慢的 step，慢 10 倍左右", {CV: 0.3, N: 4}, [SP, NS, BN]),
    ("every few hundred steps one step is 10x slower", {CV: 0.3}, [SP, NS, BN]),
    ("Single node is fine. On 2 nodes, every few hundred steps one step is 10x slower.", {CV: 0.3, N: 2}, [SP, NS]),
    ("每隔 500 步就有一个 step 特别慢，大概是平时的 5 倍", {CV: 0.3}, [SP, NS, BN]),
    ("occasionally a step takes 10x longer than usual on our 4-node job", {CV: 0.3, N: 4}, [SP, NS, BN]),
    ("Some iterations are 3x slower than the rest on 8 nodes", {N: 8}, [SP, NS, BN]),
    ("偶尔有几个 step 慢 3 倍", {CV: 0.3}, [SP, NS, BN]),
    # negatives: a whole run slower is scaling, a step steady is no jitter
    ("On 2 nodes each step is 3x slower than on one node", {NS: True, BN: 1}, [CV]),
]

ADDED = [
    ("最近加了两台机器，总共 6 台", {BN: 4, N: 6}, []),
    ("最近加了两台机器，总共 6 台，训练反而变慢了", {BN: 4, N: 6, NS: True}, []),
    ("We recently added two more nodes, 6 in total, and it got slower.", {BN: 4, N: 6, NS: True}, []),
    ("added 2 nodes for a total of 6 nodes, now throughput is lower", {BN: 4, N: 6}, []),
    ("新增 4 个节点，现在一共 12 个节点，速度没怎么提升", {BN: 8, N: 12}, []),
    ("We added 4 more machines, bringing the cluster to 8, but scaling is poor.", {BN: 4, N: 8}, []),
    ("我们又加了 4 台，一共 8 台，吞吐只提升了 20%", {BN: 4, N: 8, SP: 1.2}, []),
    # negatives: asked about, or GPUs added to each machine
    ("如果再加两台机器，总共 6 台，会不会更快？", {}, [BN]),
    ("we have 6 nodes in total and added 2 GPUs to each", {N: 6}, [BN]),
]

ECHOED = [
    ("单机每秒 2000 张图，两机只有 2400 张", {SP: 1.2, BN: 1, N: 2}, []),
    ("one node does 2000 img/s, two nodes 2400", {SP: 1.2, BN: 1, N: 2}, []),
    ("单机吞吐 5000 samples/s，4 台机器 12000", {SP: 2.4, BN: 1, N: 4}, []),
    ("单机每秒 3000 tokens，两台只有 3500", {SP: 3500 / 3000, BN: 1, N: 2}, []),
    # negatives: one run's figure only, or a figure of another measure after it
    ("one node does 2000 img/s with 8 GPUs", {}, [SP, BN]),
    ("one node does 2000 img/s, batch size 256", {}, [SP, BN]),
]

TIMES_APART = [
    ("通信耗时 800ms，计算 400ms", {CT: 66.7}, []),
    ("一步 3 秒，通信要 1.8 秒", {CT: 60.0, ST: 3.0}, []),
    ("allreduce takes 1.8 s of a 3 s step", {CT: 60.0}, []),
    ("step time is 3s, of which NCCL allreduce is 1.8s", {CT: 60.0, ST: 3.0}, []),
    ("前向+反向 200ms，allreduce 300ms", {CT: 60.0}, []),
    ("一个 step 2 秒，其中 allreduce 1.5 秒", {CT: 75.0, ST: 2.0}, []),
    ("The step is 1.2 s and NCCL takes 0.9 s of it", {CT: 75.0}, []),
    ("通信 600ms，计算 200ms，8 台机器", {CT: 75.0, N: 8}, []),
    # negatives: supposed, longer than the step, not communication
    ("如果通信 1 秒，计算 2 秒，通信占比是多少？", {}, [CT]),
    ("allreduce should take 0.5 s of a 3 s step", {}, [CT]),
    ("每个 step 2 秒，数据加载 0.5 秒", {}, [CT]),
    ("一步 3 秒，通信要 5 秒", {}, [CT]),
]

TWO_MACHINES = [
    ("一台 GPU 利用率 95%，另一台只有 30%", {SS: True}, [UTIL, N]),
    ("node A at 95% GPU util, node B at 30%", {SS: True}, [UTIL]),
    ("one node shows 95% GPU utilization, the other only 40%", {SS: True}, [UTIL]),
    ("rank 0 GPU util 98%, rank 7 only 40%", {SS: True}, [UTIL]),
    ("机器 A 的 GPU 利用率是 90%，机器 B 只有 45%", {SS: True}, [UTIL]),
    ("一台机器 step 1 秒，另一台 3 秒", {SS: True}, [SP, NS]),
    # negatives: runs of different sizes, figures alike, a bandwidth between nodes
    ("单机 GPU 利用率 95%，两台机器只有 60%", {BN: 1, N: 2}, [SS]),
    ("node A at 95% GPU util, node B at 92%", {}, [SS]),
    ("node1 到 node2 的带宽 90%，node3 30%", {}, [SS]),
]

ZONES_CASES = [
    ("We run nodes in us-east-1a and us-east-1b and NCCL allreduce is slow. Same AZ gets 90% of line rate.", {},
     [(ZONES, 1)]),
    ("两台机器在不同可用区，NCCL 很慢，同一个可用区能跑到 90%", {ZONES: 2}, []),
    # negatives: the job's own zone
    ("All our nodes are in the same AZ and allreduce is slow", {ZONES: 1}, []),
    ("我们的机器都在同一个可用区，带宽只有 10G", {ZONES: 1}, []),
]


@pytest.mark.parametrize(("text", "want", "absent"), SETTINGS + ODD_STEPS + ADDED + ECHOED + TIMES_APART + TWO_MACHINES)
def test_leftovers(text: str, want: dict[str, object], absent: list[str]) -> None:
    _check(text, want, absent)


@pytest.mark.parametrize(("text", "want", "not_values"), ZONES_CASES)
def test_zones(text: str, want: dict[str, object], not_values: list[tuple[str, object]]) -> None:
    facts = understand(text).facts
    for key, value in want.items():
        assert facts.get(key) == value, (key, facts)
    for key, value in not_values:
        assert facts.get(key) != value, (key, facts)
