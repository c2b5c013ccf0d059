"""Scaling and comparison statements, and the roles of the numbers around them.

A grammar-style battery: each row is a short question (English or Chinese, shaped like the scaling complaints of
GitHub issues and forums) with the facts a user would check and those that must not be read. It covers a speed-up
said as a factor against a bare count ('4 machines are only 1.3x faster than one') or named without its baseline
('加速比只有 1.5'), a scaling efficiency said as a share or a fraction ('线性度只有 0.6'), each GPU's pace as a share of
the smaller run's (the efficiency, never the speed-up), communication's share of a step, pairs and moves of figures,
the size up to which a job scaled well, and the traps: a single machine named as the shape of each of the job's
machines, a comparison with another cluster or GPU, a figure wanted or asked about, a collective's slowdown.
"""

import math

import pytest

from bwdoctor.chat import understand

NS, SP = "job.negative_scaling", "job.speedup"
BN, BG, N = "job.baseline_nodes", "job.baseline_gpus", "job.nodes"
ST = "job.step_time_s"
EF, CT, GPN, PAR = "job.scaling_efficiency_pct", "job.comm_time_pct", "job.gpus_per_node", "job.parallelism"


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


BATTERY = [
    # a speed-up said as a factor between the job and a smaller run, the smaller run left as a bare count
    ("4 machines with 2 RTX 3090 each, 1 Gbps ethernet, training resnet50 with DDP. Scaling is terrible: 4 machines "
     "are only 1.3x faster than one.", {SP: 1.3, BN: 1, N: 4}, [NS]),
    ("8 GPUs are only 3x faster than one.", {SP: 3.0, BG: 1}, [NS]),
    ("Our 4 nodes train just 2x faster than 2.", {SP: 2.0, BN: 2, N: 4}, [NS]),
    ("4台机器训练只比1台快1.3倍", {SP: 1.3, BN: 1, N: 4}, [NS]),
    # a speed-up named, its baseline unsaid
    # (the smaller run unsaid is one machine, as an assumption: baseline_nodes may be read)
    ("多机训练加速比只有 1.5，8 台机器，每台 8 张 A100，IB 网络。", {SP: 1.5, N: 8}, [NS]),
    ("We get a speedup of only 2.1x on 4 nodes with 8 V100 each.", {SP: 2.1, N: 4}, [NS]),
    ("We expected near-linear scaling but got a speedup of 1.8x on 4 nodes.", {SP: 1.8, N: 4}, [NS]),
    ("8 台 A100 训练，加速比才 3.2，是不是网络的问题？", {SP: 3.2, N: 8}, [NS]),
    ("8 nodes, speedup 5.6x vs 1 node, 100G RoCE", {SP: 5.6, BN: 1, N: 8}, [NS]),
    ("4 机加速比 2.5（相对单机）", {SP: 2.5, BN: 1, N: 4}, [NS]),
    # scaling efficiency, as a share or a fraction
    ("8 nodes of A100, scaling efficiency 45%, what's wrong?", {EF: 45}, [SP]),
    ("4 台机器扩展效率只有 50%，用的 25G 以太网。", {EF: 50, N: 4}, [SP]),
    ("16 卡训练线性度只有 0.6，两台机器。", {EF: 60, N: 2}, [SP]),
    ("Scaling efficiency at 8 nodes is 0.55 with our 25G NICs.", {EF: 55}, [SP]),
    ("Our 8-node job reaches only 40% of linear scaling.", {EF: 40}, [SP]),
    # per-GPU pace: a share of the single run's is the efficiency, not the speed-up
    ("Throughput per GPU drops by 60% compared to a single node when we go to 4 nodes.", {EF: 40, N: 4},
     [SP, NS]),
    ("两台机器，每卡吞吐下降了一半，100G RoCE。", {EF: 50, N: 2}, [SP, NS]),
    ("On 2 nodes the per-GPU throughput halves.", {EF: 50, N: 2}, [SP, NS]),
    ("4 台机器的每卡吞吐只有单机的 60%", {EF: 60, N: 4}, [SP, NS]),
    ("Per-GPU throughput on 2 nodes is only 70% of single-node.", {EF: 70, N: 2}, [SP, NS]),
    ("per-GPU throughput: 150 img/s on 1 node, 90 img/s on 4 nodes", {SP: 2.4, BN: 1, N: 4}, [NS]),
    # communication's share of a step
    ("Training a 175B model on 64 nodes, step time 30s, communication takes 40% of it.", {CT: 40, N: 64, ST: 30},
     []),
    ("NCCL allreduce is 70% of the step time in the profiler, 4 nodes with 8 H100.", {CT: 70, N: 4}, []),
    ("8 nodes, comm overhead ~50%, is that normal for 100G ethernet?", {CT: 50, N: 8}, []),
    ("通信时间占了一个 step 的 60%", {CT: 60}, []),
    ("allreduce accounts for about 35% of each iteration on 4 nodes", {CT: 35, N: 4}, []),
    ("通信占比 45%，8 台 A100", {CT: 45, N: 8}, []),
    ("The profiler shows communication overhead of 55% per step on 2 nodes.", {CT: 55, N: 2}, []),
    # 单机 N 卡 describing each machine, no comparison
    ("单机八卡 A800，nvlink 正常，跨机用的 2*100G RoCE，训练 65B 模型，tp=8 pp=4 dp=2，8 机，MFU 只有 20%。",
     {GPN: 8, N: 8, PAR: "hybrid"}, [BN, BG, SP]),
    # pairs of runs with their figures
    ("Two machines are slower than one.", {NS: True, BN: 1, N: 2}, []),
    ("4 台比 1 台还慢", {NS: True, BN: 1, N: 4}, []),
    ("1 node: 1200 samples/s, 2 nodes: 1500 samples/s", {SP: 1.25, BN: 1, N: 2}, [NS]),
    ("We get 2400 img/s on one node and 2600 img/s on two.", {SP: 1.0833, BN: 1, N: 2}, [NS]),
    ("单机一个 epoch 3 小时，两台机器要 5 小时", {SP: 0.6, NS: True, BN: 1, N: 2}, []),
    ("step time is 0.8 s on one node and 1.6 s on 4 nodes", {SP: 2.0, BN: 1, N: 4}, [NS]),
    ("单机 8 卡每秒 3000 tokens，两机 16 卡每秒 4500 tokens", {SP: 1.5, BN: 1, N: 2}, [NS]),
    ("Throughput went from 1200 to 1500 img/s when going to 2 nodes.", {SP: 1.25, N: 2}, [NS]),
    ("the job runs at 1.2 it/s on 1 node and 0.9 it/s on 2 nodes", {SP: 1.5, BN: 1, N: 2}, [NS]),
    # a ratio between two named runs
    ("2 台机器的速度只有单机的 1.2 倍", {SP: 1.2, BN: 1, N: 2}, [NS]),
    ("8 卡相比单卡只有 5 倍的加速", {SP: 5.0, BG: 1}, [NS]),
    ("going from 1 to 4 nodes gives only 2.1x", {SP: 2.1, BN: 1, N: 4}, [NS]),
    ("从 4 卡扩展到 16 卡吞吐只涨了 30%", {SP: 1.3, BG: 4}, [NS]),
    ("With 2 nodes the training is 30% slower than 1 node.", {SP: 0.7, NS: True, BN: 1}, []),
    ("It is 8x slower on two nodes than on one.", {SP: 0.125, NS: True, BN: 1}, []),
    ("On 16 GPUs we only get 6x the throughput of a single GPU.", {SP: 6.0, BG: 1}, [NS]),
    ("速度只有单机的一半，两台机器，万兆网", {SP: 0.5, NS: True, BN: 1}, []),
    # slower, no figure
    ("两机比单机慢了好几倍", {NS: True, BN: 1}, [SP]),
    ("多机训练比单机慢很多", {NS: True, BN: 1}, [SP]),
    ("加了第二台机器以后训练反而变慢了", {NS: True}, [SP]),
    # no comparison of the job with a smaller run of it
    ("Our cluster is 2x faster than theirs.", {}, [SP, NS, BN]),
    ("Cluster B with IB is 3x faster than cluster A with ethernet, both 4 nodes.", {}, [SP, NS, BN]),
    ("If we add more nodes, will it be faster?", {}, [SP, NS]),
    ("如果再加 4 台机器，能快多少？", {}, [SP, NS, BN]),
    ("Should 4 nodes give a 4x speedup over 1 node?", {}, [SP, NS]),
    ("理论上 8 机应该有 7 倍以上的加速比", {}, [SP, NS]),
    ("the all-reduce is 3x slower across nodes", {}, [SP, NS]),
    ("Compared to another team's cluster ours is 40% slower.", {}, [SP, NS]),
    ("A100 is 2x faster than V100 for us, 4 nodes each.", {}, [SP, NS, BN]),
    # the size up to which the job scaled well: the run compared with, not the job
    ("Scaling falls off after 4 nodes", {BN: 4}, [N, SP]),
    ("It scales linearly up to 8 GPUs, then flattens on 4 nodes.", {BG: 8, N: 4}, [SP]),
    ("超过 4 台以后加速比就上不去了", {BN: 4}, [N, SP]),
    ("8 卡以内还是线性的，两机 16 卡就慢了", {BG: 8, N: 2}, [SP]),
    # more forms: moves, ratios, shares, and what is no scaling of the job
    ("epoch 3h → 5h after going from 1 to 2 nodes", {SP: 0.6, NS: True, BN: 1, N: 2}, []),
    ("单机 1 个 epoch 要 2 小时，4 机只要 40 分钟", {SP: 3.0, BN: 1, N: 4}, [NS]),
    ("两台机器的吞吐只有单机的 1.2 倍", {SP: 1.2, BN: 1, N: 2}, [NS]),
    ("The 2-node run is 8x slower than the single-node run.", {SP: 0.125, NS: True, BN: 1, N: 2}, []),
    ("多机比单机慢了 3 倍", {SP: 0.3333, NS: True, BN: 1}, []),
    ("16 GPUs across 2 nodes are slower than 8 GPUs on one node", {NS: True, BN: 1, BG: 8, N: 2}, []),
    ("我们 4 台机器的扩展效率才 0.45", {EF: 45, N: 4}, []),
    ("加速比 3.2，8 卡 vs 单卡", {SP: 3.2, BG: 1}, [NS]),
    ("8 nodes give only 3x the throughput of 1 node", {SP: 3.0, BN: 1, N: 8}, [NS]),
    ("From 2 to 8 nodes the speedup is only 1.6x", {SP: 1.6, BN: 2, N: 8}, [NS]),
    ("通信开销大约 40%，两台 4090 机器，千兆网", {CT: 40}, []),
    ("allreduce 占了每个 step 的 70%", {CT: 70}, []),
    ("In nsys, NCCL kernels take ~65% of each iteration on 2 nodes", {CT: 65, N: 2}, []),
    ("Communication is about 30% of the step time.", {CT: 30}, []),
    ("I reduced communication time by 30% with bucket tuning", {}, [CT]),
    ("comm overhead 50% lower after enabling NCCL_IB", {}, [CT]),
    ("If we go from 2 to 4 nodes, will the speedup be close to 2x?", {}, [SP, NS]),
    ("How much speedup should I expect going from 1 to 8 nodes?", {}, [SP]),
    ("Our training got a 2x speedup after enabling NCCL_IB on 4 nodes.", {}, [SP, NS]),
    ("H100 gives 3x speedup over A100 on our 8 nodes", {}, [SP, BN]),
    ("单机八卡 H800，32 台机器，400G IB，MFU 35%", {GPN: 8, N: 32}, [BN, BG]),
    ("每台机器 8 卡，单机 8 卡训练很快，两机就慢了", {BN: 1, N: 2}, []),
    ("On a single node with 8 GPUs, we train at 3000 samples/s; on 4 nodes at 6000 samples/s",
     {SP: 2.0, BN: 1, N: 4}, [NS]),
    ("scaling efficiency drops to 60% on 4 nodes", {EF: 60, N: 4}, [SP]),
    ("per-GPU throughput goes from 400 to 250 samples/s when going multi-node", {EF: 62.5}, [NS]),
    ("多机每卡吞吐只有单机每卡的一半", {EF: 50}, [SP, NS]),
    ("it's 8x slower with 2 nodes", {SP: 0.125, NS: True, N: 2}, []),
    ("2 机 16 卡比单机 8 卡快不了多少", {BN: 1, BG: 8, N: 2}, [NS]),
    ("4 台机器训练只有 1.3 倍加速", {SP: 1.3, N: 4}, [NS]),
]

@pytest.mark.parametrize(("text", "want", "absent"), BATTERY, ids=[t[:60] for t, _, _ in BATTERY])
def test_a_scaling_statement(text: str, want: dict[str, object], absent: list[str]) -> None:
    _check(text, want, absent)
