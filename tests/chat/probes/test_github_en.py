"""English questions as GitHub issues and forum posts write them: a pasted NCCL line followed by the
asker's own sentence, a setting followed by a verb of saying, a load 'drops to' a figure, the all-reduce's bandwidth
spelled loosely ('All reduce bandwidth', 'bus bw'), NCCL named nearer a figure than the tool of another figure, an
Ethernet port NCCL picks over the fabric's, thousands written 'k' at a sentence's end, '~ 23' as 'about 23', a link
said after a measurement ('23 Gbps on 25G'), and a cloud's 'up to' ceiling."""

from __future__ import annotations

import pytest

from bwdoctor.chat import answer_turn
from tests.matching import stated_facts as facts


@pytest.mark.parametrize(("text", "expected"), [
    # a pasted NCCL line, then the asker's own words on the same line
    ("NCCL WARN NET/IB : No device found. Training on 2 nodes is super slow, like 10x slower than single node.",
     {"nccl.transport": "socket", "job.nodes": 2, "job.baseline_nodes": 1}),
    ("NCCL WARN NET/IB : Got completion with error 12, opcode 1, len 0, vendor err 129. "
     "Job hangs after that with 4 nodes.",
     {"job.nodes": 4}),
    ("node1:123:456 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>. We have 2 nodes with 100G RoCE.",
     {"nccl.transport": "socket", "job.nodes": 2, "nic.speed_gbps": 100.0, "nic.kind": "roce"}),
    # a setting, then a verb of saying: the words after it are read
    ('NCCL_DEBUG=INFO says "NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE" and "Channel 00/0 : 0[0] -> 8[0] [send] '
     'via NET/IB/0/GDRDMA". busbw is 40 GB/s on 2 nodes with 2x200G. OK?',
     {"nccl.transport": "ib", "job.nodes": 2, "nccl.allreduce_busbw_gbytes_per_s": 40.0, "nic.speed_gbps": 200.0}),
    ("NCCL_DEBUG=INFO shows NET/Socket. 2 nodes, busbw 2 GB/s",
     {"nccl.transport": "socket", "job.nodes": 2, "nccl.allreduce_busbw_gbytes_per_s": 2.0}),
    # a load that 'drops to' a figure is at that figure
    ("GPU util drops to 30%.", {"gpu.util_pct": 30.0}),
    ("GPU utilization dropped to ~20% when going multi-node.", {"gpu.util_pct": 20.0, "job.multi_node": True}),
    ("PyTorch Lightning with 2 nodes, devices=8, strategy=\"ddp\". GPU util falls to 30%.",
     {"gpu.util_pct": 30.0, "job.nodes": 2}),
    # the all-reduce's bandwidth as people spell it
    ("Two nodes connected via 40Gbps Infiniband (QDR). All reduce bandwidth around 2.5GB/s. What's the bottleneck?",
     {"nccl.allreduce_busbw_gbytes_per_s": 2.5, "nic.speed_gbps": 40.0, "job.nodes": 2}),
    ("our bus bw is like 22GB/s on 2 nodes w/ 8 x 200Gbps HDR each. seems low?",
     {"nccl.allreduce_busbw_gbytes_per_s": 22.0, "nic.count": 8, "nic.speed_gbps": 200.0}),
    ("allreduce bw ~2.5GB/s", {"nccl.allreduce_busbw_gbytes_per_s": 2.5}),
    # NCCL named after another tool's figure: the later figure is NCCL's
    ("ib_write_bw reports 97 Gb/sec on our 100G EDR link but NCCL only gets 4 GB/s busbw.",
     {"net.rdma_bw_gbps": 97.0, "nccl.allreduce_busbw_gbytes_per_s": 4.0, "nic.speed_gbps": 100.0}),
    ("NCCL all_reduce across 2 nodes only hits ~10 Gbps even though we have 100 Gbps Mellanox cards. iperf is fine "
     "(~95 Gbps).",
     {"nccl.allreduce_busbw_gbytes_per_s": 1.25, "net.iperf3_gbps": 95.0, "nic.speed_gbps": 100.0, "job.nodes": 2}),
    ("iperf3 shows 9.4 Gbps between the nodes, but NCCL busbw is only 0.6 GB/s. 10GbE, no RDMA, 2 nodes.",
     {"net.iperf3_gbps": 9.4, "nccl.allreduce_busbw_gbytes_per_s": 0.6, "nic.speed_gbps": 10.0}),
    # an Ethernet port NCCL picks over the fabric's: its sockets
    ("Slurm job with #SBATCH --nodes=2 and #SBATCH --gres=gpu:4. NCCL picks eth0 (10G) instead of ib0. "
     "How do I force IB?",
     {"nccl.transport": "socket", "job.nodes": 2}),
    ("NCCL is using eth0 rather than ib0, 2 nodes.", {"nccl.transport": "socket", "job.nodes": 2}),
    # a link said after the measurement made on it
    ("ping between nodes is ~0.2 ms, iperf3 ~ 23 Gbps on 25G. but all-reduce is slow (busbw 1.1 GB/s). "
     "NCCL uses Socket.",
     {"net.iperf3_gbps": 23.0, "nic.speed_gbps": 25.0, "net.rtt_ms": 0.2, "nccl.allreduce_busbw_gbytes_per_s": 1.1}),
    ("iperf gets 9.4 Gbps on a 10G link", {"net.iperf3_gbps": 9.4, "nic.speed_gbps": 10.0}),
    # thousands written 'k', the sentence ending right after
    ("Going from 1 to 2 nodes, tokens/sec goes from 45k to 52k. Is that bad scaling?",
     {"job.baseline_nodes": 1, "job.nodes": 2, "job.speedup": 1.1556}),
    ("1 node: 45k tokens/s, 2 nodes: 52k tokens/s", {"job.speedup": 1.1556}),
    # forms that already read well, kept so
    ("DDP slower on 2 nodes than 1. world_size 16, 2 nodes, 8 GPUs per node, 10GbE between them. Why?",
     {"job.nodes": 2, "job.gpus_per_node": 8, "nic.speed_gbps": 10.0, "job.negative_scaling": True}),
    ("nccl-tests all_reduce_perf across 2 nodes: # Avg bus bandwidth    : 3.9123. Single node gives 230. "
     "We have 100Gbps RoCEv2 NICs. What's wrong?",
     {"nccl.allreduce_busbw_gbytes_per_s": 3.9123, "job.nodes": 2, "nic.kind": "roce", "nic.speed_gbps": 100.0}),
    ("Our 8-node cluster (8xH100 each, 400G NDR IB) gets 3,200 MB/s busbw in nccl-tests. Shouldn't it be way higher?",
     {"job.nodes": 8, "job.gpus_per_node": 8, "nccl.allreduce_busbw_gbytes_per_s": 3.2, "nic.speed_gbps": 400.0}),
    ("inter-node bandwidth measured 12.5 GB/s with ib_write_bw on our 200Gb HDR link. nccl busbw is 20 GB/s.",
     {"net.rdma_bw_gbps": 100.0, "nccl.allreduce_busbw_gbytes_per_s": 20.0, "nic.speed_gbps": 200.0}),
    ("Horovod on 4 nodes w/ 1 GPU each over 1GbE. Scaling efficiency ~25%. ResNet-50.",
     {"job.nodes": 4, "job.gpus_per_node": 1, "nic.speed_gbps": 1.0, "job.scaling_efficiency_pct": 25.0}),
    ("We see the step time fluctuating between 0.8s and 2.5s on 4 nodes. Single node is stable at 0.7s. 100G IB.",
     {"job.nodes": 4, "job.step_time_s": 1.65}),
    ("ethtool shows Speed: 10000Mb/s on a NIC that should be 25G. iperf3 gives 9.41 Gbits/sec. Is the cable bad?",
     {"nic.speed_gbps": 10.0, "nic.max_speed_gbps": 25.0, "net.iperf3_gbps": 9.41}),
    ("MTU is 1500 on our 100G RoCE fabric. Could this cause low all_reduce bandwidth (around 6 GB/s busbw on 2 nodes)?",
     {"nic.mtu": 1500, "nccl.allreduce_busbw_gbytes_per_s": 6.0, "job.nodes": 2}),
])
def test_issue_style_questions_read_their_facts(text: str, expected: dict[str, object]) -> None:
    got = facts(text)
    assert {k: got.get(k) for k in expected} == expected


@pytest.mark.parametrize(("text", "not_read"), [
    # an interface's rating in brackets is no NCCL figure
    ("NCCL picks eth0 (10G) instead of ib0.", "nccl.allreduce_busbw_gbytes_per_s"),
    ("NCCL uses the eno1 (1G) interface instead of the 100G ens5f0.", "nccl.allreduce_busbw_gbytes_per_s"),
    # 'iperf3 ~ 23' is no list of machines 3 to 23
    ("ping between nodes is ~0.2 ms, iperf3 ~ 23 Gbps on 25G.", "job.nodes"),
    # a cloud's 'up to' ceiling is no measurement
    ('Training on 4 g5.12xlarge instances (4x A10G each) with DDP. Network bandwidth is "up to 40 Gbps".',
     "net.iperf3_gbps"),
    # 'drops by' is a change, not the level
    ("GPU util drops by 30% on 2 nodes.", "gpu.util_pct"),
    # a yes/no question about the port NCCL picks says nothing of its transport
    ("Does NCCL pick eth0 instead of ib0 when both are up?", "nccl.transport"),
    # another Ethernet port picked is no fallback from a fabric
    ("NCCL uses the eno1 (1G) interface instead of the 100G ens5f0.", "nccl.transport"),
])
def test_issue_style_questions_do_not_misread(text: str, not_read: str) -> None:
    assert not_read not in facts(text)


def test_a_k_figure_is_never_read_against_a_bare_one() -> None:
    got = facts("Going from 1 to 2 nodes, tokens/sec goes from 45k to 52k.")
    assert "job.negative_scaling" not in got and got["job.speedup"] > 1


@pytest.mark.parametrize("text", [
    "node1 ~ node8 are slow",
    "we run on node1-node4",
])
def test_a_host_range_is_still_counted(text: str) -> None:
    assert facts(text)["job.nodes"] in {4, 8}


@pytest.mark.parametrize(("text", "category"), [
    ("NCCL all_reduce across 2 nodes only hits ~10 Gbps even though we have 100 Gbps Mellanox cards. iperf is fine "
     "(~95 Gbps).", "nccl-transport-fallback"),
    ("ping between nodes is ~0.2 ms, iperf3 ~ 23 Gbps on 25G. but all-reduce is slow (busbw 1.1 GB/s). "
     "NCCL uses Socket.",
     "nccl-transport-fallback"),
    ("Slurm job with #SBATCH --nodes=2 and #SBATCH --gres=gpu:4. NCCL picks eth0 (10G) instead of ib0. "
     "How do I force IB?",
     "nccl-transport-fallback"),
    ("node1:123:456 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>. We have 2 nodes with 100G RoCE.",
     "nccl-transport-fallback"),
    ("DDP slower on 2 nodes than 1. world_size 16, 2 nodes, 8 GPUs per node, 10GbE between them. Why?", "comm-bound"),
    ("p5.48xlarge x 2, EFA, nccl-tests busbw only 50 GB/s. Expected ~ 300+. NCCL_DEBUG shows NET/Socket. Any ideas?",
     "nccl-transport-fallback"),
    ("ethtool shows Speed: 10000Mb/s on a NIC that should be 25G. iperf3 gives 9.41 Gbits/sec. Is the cable bad?",
     "link-degraded"),
])
def test_issue_style_questions_end_to_end(engine, text: str, category: str) -> None:  # type: ignore[no-untyped-def]
    findings = answer_turn(text, engine=engine)["findings"]
    assert findings and findings[0]["category"] == category
