"""Reader: forms found by a blind probe of short questions written in the shared sample's style — the work
a fabric is asked for, the machines a test ran between, a comparison ending 'on both', a figure that moved when the
second machine came, a GPU model times more GPUs than a machine holds, a factor a run gets said with its verb, a link
rate before a NIC's model.

Written for this battery (not copied from the corpus). Each row names what must be read and what must not be (None);
"total" stands for the derived job.total_gpus.
"""

from __future__ import annotations

import pytest

from bwdoctor.chat import answer_turn
from tests.matching import fact_problems

N, G, BN, M, SP, NEG, T = (
    "job.nodes",
    "job.gpus_per_node",
    "job.baseline_nodes",
    "job.model_params_b",
    "job.speedup",
    "job.negative_scaling",
    "total",
)
KIND, SPEED, EFF = "nic.kind", "nic.speed_gbps", "job.scaling_efficiency_pct"
BUSBW, TRANSPORT = "nccl.allreduce_busbw_gbytes_per_s", "nccl.transport"

CASES: list[tuple[str, dict[str, object]]] = [
    # --- the work a fabric is asked for is the job ('to train …', '才能训练 …'); the fabric asked for is not had
    ("Do I need InfiniBand to train a 7B model on 2 nodes with 8 GPUs each? We only have 10GbE for now.",
     {M: 7.0, N: 2, G: 8, SPEED: 10.0, KIND: "ethernet"}),
    ("Is 25GbE enough to train a 13B model on 4 nodes?", {M: 13.0, N: 4}),
    ("Do we need RoCE in order to fine-tune a 70B model across 4 machines?", {M: 70.0, N: 4, KIND: None}),
    ("需要 IB 才能训练 70B 的模型吗？我们 4 台机器万兆", {M: 70.0, N: 4, SPEED: 10, KIND: "ethernet"}),
    ("是不是必须要 IB 才能多机训练 70B 模型？", {M: 70.0, KIND: None}),
    ("需要 RDMA 才能跑 13B 的模型吗", {M: 13.0, KIND: None, "nic.rdma": None}),
    # (a change asked about before the purpose stays a change)
    ("Would moving to 100G help to train our 70B model on 4 nodes?", {M: 70.0, N: 4, SPEED: None}),
    ("Do we need to upgrade to 100G to train faster? We have 25G now and a 13B model.", {SPEED: 25.0, M: 13.0}),
    # --- the machines a test ran between are the test's, when the job's are said elsewhere
    ("We have 4 nodes, 8x H100 each, connected with 400Gb NDR. nccl-tests between two nodes gives ~370 GB/s busbw.",
     {N: 4, G: 8}),
    ("我们 8 台机器，每台 8 卡 H800。两台机器之间用 nccl-tests 测 busbw 只有 40 GB/s", {N: 8, G: 8, BUSBW: 40.0}),
    ("Training on 8 nodes is slow; iperf3 between 2 of the nodes shows 9 Gbits/sec", {N: 8, "net.iperf3_gbps": 9.0}),
    ("Our job runs on 16 nodes. ib_write_bw between any two nodes reaches 190 Gb/sec.", {N: 16}),
    # (the test alone says the machines it ran on)
    ("nccl-tests between two nodes gives 20 GB/s", {N: 2, BUSBW: 20.0}),
    # --- a comparison that ends 'on both' (of the two machines named)
    ("Hi, I'm training on 2 servers, each with 4x A100 40GB. Connection is 10Gbps ethernet. One epoch takes 40 min on "
     "a single server and 35 min on both. Model is ~350M params.",
     {N: 2, G: 4, BN: 1, SP: 1.1429, M: 0.35}),
    ("I have two machines with 2 GPUs each. Training on one machine takes 10 hours, on both of them 12 hours.",
     {N: 2, G: 2, BN: 1, SP: 0.8333, NEG: True}),
    ("We agreed on both points. 2 nodes, 8 GPUs each, 10GbE.", {N: 2, G: 8, SP: None, BN: None}),
    # --- a figure that moved when the second machine came: one machine, then two
    ("Throughput dropped from 5200 tokens/s to 2100 after we added the second node.",
     {N: 2, BN: 1, SP: 0.4038, NEG: True}),
    ("Our training throughput dropped from 5200 tokens/s/GPU to 2100 after we added the second node. It's a 7B llama "
     "with FSDP on 2x8 A100, network is 100G RoCE.", {N: 2, G: 8, BN: 1, SP: 0.8077, EFF: 40.4, M: 7.0}),
    ("加了第二台机器以后，吞吐从 3000 samples/s 掉到了 2500 samples/s", {N: 2, BN: 1, SP: 0.8333, NEG: True}),
    # (a machine added to a run of unsaid size names neither run)
    ("After adding another node throughput went from 3000 to 3500 samples/s; we now have 6 nodes.", {BN: None}),
    # --- a GPU model times more GPUs than a machine holds is a total, which the machines beside it divide
    ("A100 x 16（2 nodes），nccl 走的 IB", {N: 2, G: 8, T: 16}),
    ("H100 x 32 across 4 nodes", {N: 4, G: 8, T: 32}),
    ("训练用的 H800 x 16，两台机器", {N: 2, G: 8}),
    ("A100 x 8, 2 nodes", {N: 2, G: 8}),
    # --- a factor a run gets, said with its verb ('scales to 1.2x', 'give 1.2x', 'we get 1.3x'), not 'speed-up'
    ("DDP of a 3B model scales to only 1.2x on two servers.", {N: 2, BN: 1, SP: 1.2, M: 3.0}),
    ("Two servers only give 1.2x.", {N: 2, BN: 1, SP: 1.2}),
    ("We only get 1.3x on 2 nodes with 8 A100 each", {N: 2, G: 8, SP: 1.3}),
    ("We see 1.6x with 2 nodes of 8 A100", {N: 2, G: 8, SP: 1.6}),
    # (a count of GPUs, a pace said the other way and a factor over another GPU are no speed-up of the run)
    ("we get 8x H100 on 2 nodes", {N: 2, SP: None}),
    ("2 nodes give 3x slower training", {N: 2, SP: 0.3333, NEG: True}),
    ("H100 gives 3x over A100 on 2 nodes", {SP: None}),
    # --- a link rate before a NIC's model is that NIC's rating ('8 张 400G 的 CX7'); a memory size before a GPU is not
    ("两台 8 卡 H800，每台 8 张 400G 的 CX7，跑 nccl-tests 只有 180GB/s",
     {N: 2, G: 8, "nic.count": 8, SPEED: 400.0, BUSBW: 180.0}),
    ("每台 2 块 100G 的 CX5", {"nic.count": 2, SPEED: 100.0}),
    ("40G 的 A100，两台，万兆", {N: 2, SPEED: 10}),
    # --- NCCL's IB transport quoted in words as what it uses, never as what it should use
    ("Cross-node bandwidth is the bottleneck: NCCL_DEBUG shows NET/IB with GDRDMA disabled (GDR 0). 2x DGX H100.",
     {N: 2, G: 8, TRANSPORT: "ib", "nccl.gdr_disabled": True}),
    ("NCCL 日志里是 NET/IB，没有 GDRDMA", {TRANSPORT: "ib", "nccl.gdr_disabled": True}),
    ("NCCL logs say `NCCL INFO NET/Socket : Using [0]bond0:200.8.184.2<0>` instead of NET/IB over our mlx5 RoCE NICs",
     {TRANSPORT: "socket"}),
    ("How do I get NET/IB?", {TRANSPORT: None}),
    ("Why is it not NET/IB?", {TRANSPORT: None}),
    ("Our NCCL should be on NET/IB but it is slow", {TRANSPORT: None}),
    ("我希望 NCCL 走 NET/IB", {TRANSPORT: None}),
    # --- a rate before a LAN is the LAN's link speed
    ("When I run on 2 nodes with 1 GPU each over our 10Gb LAN, it's fast enough", {N: 2, G: 1, SPEED: 10.0}),
    ("两台机器在同一个 1G 局域网里，每台 2 张 3090", {N: 2, G: 2, SPEED: 1.0}),
    # --- machines counted as so many of those named, an aside between ('instances (10 Gbps networking) — 4 of them')
    ("Our AWS p3.8xlarge instances (10 Gbps networking) — 4 of them — train BERT 3x slower than expected.",
     {N: 4, G: 4, SPEED: 10.0}),
    ("We rent A100 servers (8 GPUs each), 3 of them, over 25GbE", {N: 3, G: 8}),
    # --- a speed-up hoped for before 'but' is a target; one larger than the machines could give is against one GPU
    ("With 16 GPUs I expected ~16x speedup but got 9x. 2 nodes of 8 A100, HDR 200G.",
     {N: 2, G: 8, SP: 9.0, "job.baseline_gpus": 1, BN: None}),
    ("2 台机器每台 8 卡，加速比只有 1.3", {N: 2, G: 8, SP: 1.3, BN: 1}),
    # --- the clause that turns to today after another cluster's is the asker's run (and slower than that cluster
    # is no negative scaling)
    ("我们之前在另一个集群上（4 台 8 卡 V100，100G IB）跑得很好，"
     "现在换到新集群 2 台 8 卡 A100，25G 以太网，速度反而慢了。",
     {N: 2, G: 8, SPEED: 25.0, KIND: None, NEG: None}),
    ("On another cluster with 100G IB it was fine, now on 2 nodes with 25GbE it is slow", {N: 2, SPEED: 25.0}),
    ("单机跑得好好的，两台机器反而慢了", {N: 2, BN: 1, NEG: True}),
    # --- slow compared to a smaller run: that run is the baseline, the job slower than it (its counts no job's)
    ("Very slow during multi GPU training compared to single GPU training",
     {"job.baseline_gpus": 1, NEG: True, N: None, G: None}),
    ("Multi-node training is slow compared to one node. 4 nodes, 8 GPUs each.", {N: 4, G: 8, BN: 1, NEG: True}),
    ("the speed is slow compared to the paper, 2 nodes of 8 V100", {N: 2, NEG: None}),
    # --- what is said after 'but we only have' in a conditional is the job as it is
    ("If we had 100G this would probably be fine, but we only have 10G between our 3 servers, each with 4 A6000.",
     {N: 3, G: 4, SPEED: 10.0}),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_blind_short_forms(engine, text: str, expected: dict[str, object]) -> None:
    assert fact_problems(answer_turn(text, engine=engine), expected, total=T) == []
