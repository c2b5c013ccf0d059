"""Few facts, a sure answer: short questions, English and Chinese, where one to five facts and a symptom
are all an expert needs, end to end through the chat (reader, then rules).

Each case names the facts the reader must take from the question (so a failure says whether the reading or the rules
moved), the finding that must come out (category, severity, and the rule where one rule is the point) and what must
not: negative cases at each rule's boundary (one machine, a real NIC name, sockets where they are all there is, a
link that already says what is wrong).

Shapes are modelled on how such questions are written in GitHub issues and Chinese forums, not copied from the corpus.
"""

from __future__ import annotations

from typing import Any

import pytest

from bwdoctor.chat import answer_turn
from bwdoctor.engine import load_engine
from tests.matching import turn_problems

# (question, facts that must be read, expectations)
#   finding: (category, lowest severity, rule or None) that must be among the findings
#   not_rules: rule ids that must not fire; not_categories: categories that must not appear
CASES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    # --- iperf3 against NCCL's bus bandwidth, the NIC's rate not said
    (
        "iperf3 -c 10.0.0.2 -P 8 gives 23.5 Gbits/sec between nodes but NCCL busbw is only 0.8 GB/s.",
        {"net.iperf3_gbps": 23.5, "nccl.allreduce_busbw_gbytes_per_s": 0.8},
        {"finding": ("nccl-transport-fallback", "warning", "nccl-slow-vs-iperf3")},
    ),
    (
        "iperf3 测两台机器之间 94 Gbits/sec，nccl-tests busbw 只有 2 GB/s，为什么？",
        {"net.iperf3_gbps": 94, "nccl.allreduce_busbw_gbytes_per_s": 2},
        {"finding": ("nccl-transport-fallback", "warning", "nccl-slow-vs-iperf3")},
    ),
    (
        "两台机器之间 iperf3 有 23 Gbits/sec，all_reduce_perf 的 busbw 才 0.5 GB/s。",
        {"net.iperf3_gbps": 23, "nccl.allreduce_busbw_gbytes_per_s": 0.5},
        {"finding": ("nccl-transport-fallback", "warning", "nccl-slow-vs-iperf3")},
    ),
    (
        "iperf3 between the two nodes shows 9.4 Gbits/sec, but all_reduce_perf busbw is 0.3 GB/s.",
        {"net.iperf3_gbps": 9.4, "nccl.allreduce_busbw_gbytes_per_s": 0.3},
        {"finding": ("nccl-transport-fallback", "warning", "nccl-slow-vs-iperf3")},
    ),
    (  # NCCL gets 94 % of the TCP figure: no fallback to report
        "iperf3 gives 9.41 Gbits/sec between nodes and nccl-tests busbw is 1.1 GB/s. Is that expected?",
        {"net.iperf3_gbps": 9.41, "nccl.allreduce_busbw_gbytes_per_s": 1.1},
        {"not_rules": ["nccl-slow-vs-iperf3"], "not_categories": ["nccl-transport-fallback"]},
    ),
    # --- NCCL_SOCKET_IFNAME on a loopback or virtual interface
    (
        "NCCL_SOCKET_IFNAME=docker0 被设置了，跨机通信很慢。",
        {"nccl.socket_ifname": "docker0"},
        {"finding": ("nccl-transport-fallback", "warning", None)},
    ),
    (
        "export NCCL_SOCKET_IFNAME=cni0 and our multi-node job is extremely slow.",
        {"nccl.socket_ifname": "cni0"},
        {"finding": ("nccl-transport-fallback", "warning", None)},
    ),
    (
        "We set NCCL_SOCKET_IFNAME=lo and the 2-node job hangs at init.",
        {"nccl.socket_ifname": "lo", "job.nodes": 2},
        {"finding": ("nccl-transport-fallback", "critical", "nccl-socket-on-loopback-or-bridge")},
    ),
    (
        "NCCL_SOCKET_IFNAME=virbr0，4 台机器训练，速度很慢。",
        {"nccl.socket_ifname": "virbr0", "job.nodes": 4},
        {"finding": ("nccl-transport-fallback", "critical", "nccl-socket-on-loopback-or-bridge")},
    ),
    (  # one machine: the interface carries nothing between machines
        "NCCL_SOCKET_IFNAME=docker0 on a single machine with 8 GPUs, is that a problem?",
        {"nccl.socket_ifname": "docker0", "job.nodes": 1},
        {
            "not_rules": ["nccl-socket-on-loopback-or-bridge", "nccl-socket-on-virtual-ifname-nodes-unsaid"],
            "not_categories": ["nccl-transport-fallback"],
        },
    ),
    (  # a real NIC
        "NCCL_SOCKET_IFNAME=eth0 across 2 nodes, and training is slow.",
        {"nccl.socket_ifname": "eth0"},
        {"not_rules": ["nccl-socket-on-loopback-or-bridge", "nccl-socket-on-virtual-ifname-nodes-unsaid"]},
    ),
    # --- NCCL on sockets over a fast NIC, RDMA not said
    (
        "NCCL 日志里有 NET/Socket : Using [0]eth0，我们的网卡是 100G 的，为什么没有走 IB？",
        {"nccl.transport": "socket", "nic.speed_gbps": 100},
        {"finding": ("nccl-transport-fallback", "warning", None)},
    ),
    (
        "8 台 H800 多机训练，NCCL 日志显示 Using network Socket，网卡是 400G 的。怎么回事？",
        {"nccl.transport": "socket", "nic.speed_gbps": 400, "job.nodes": 8},
        {"finding": ("nccl-transport-fallback", "warning", None)},
    ),
    (
        'Our 4-node job logs "NCCL INFO Using network Socket"; each node has a 200G NIC. Expected?',
        {"nccl.transport": "socket", "nic.speed_gbps": 200, "job.nodes": 4},
        {"finding": ("nccl-transport-fallback", "warning", None), "not_categories": ["healthy"]},
    ),
    (  # RDMA said: the critical fallback
        "NCCL says Using network Socket on 2 nodes, our NICs are 100G RoCE with RDMA enabled.",
        {"nccl.transport": "socket", "nic.speed_gbps": 100, "nic.rdma": True},
        {"finding": ("nccl-transport-fallback", "critical", None)},
    ),
    (  # sockets are all there is on plain Ethernet: no fallback
        "We see NET/Socket in the NCCL log on our 25GbE cluster (no RDMA). Is that bad?",
        {"nccl.transport": "socket", "nic.speed_gbps": 25, "nic.rdma": False},
        {"finding": ("healthy", "info", "nccl-socket-expected-on-plain-ethernet"),
         "not_categories": ["nccl-transport-fallback"]},
    ),
    (  # sockets on gigabit: the slow link is the point, not the transport
        "Two nodes with 1GbE, NCCL INFO NET/Socket : Using [0]eno1. Training is very slow.",
        {"nccl.transport": "socket", "nic.speed_gbps": 1, "job.nodes": 2},
        {"finding": ("nic-undersized", "warning", None),
         "not_rules": ["nccl-socket-on-fast-nic"], "not_categories": ["healthy", "nccl-transport-fallback"]},
    ),
    # --- "is this link enough for this model?": the sync time
    (
        "Is 25GbE enough for data-parallel training of a 1.3B parameter model on 2 nodes x 8 GPUs?",
        {"job.model_params_b": 1.3, "job.nodes": 2, "nic.speed_gbps": 25},
        {"finding": ("nic-undersized", "info", "gradient-sync-time-per-step"), "not_categories": ["healthy"]},
    ),
    (
        "用 25G 网卡做两机 16 卡数据并行训练 1.3B 模型够不够？",
        {"job.model_params_b": 1.3, "job.nodes": 2, "nic.speed_gbps": 25},
        {"finding": ("nic-undersized", "info", "gradient-sync-time-per-step")},
    ),
    (
        "Is 100G InfiniBand enough for 4 nodes of 8x A100 training a 13B model?",
        {"job.model_params_b": 13, "job.nodes": 4, "nic.speed_gbps": 100},
        {"finding": ("nic-undersized", "info", "gradient-sync-time-per-step")},
    ),
    (  # 10 GbE for 7B: the warning, not the info
        "Is 10GbE enough to train a 7B model on 2 nodes with 8 GPUs each?",
        {"job.model_params_b": 7, "job.nodes": 2, "nic.speed_gbps": 10},
        {"finding": ("nic-undersized", "warning", None), "not_rules": ["gradient-sync-time-per-step"]},
    ),
    (
        "Planning to train a 70B model on 8 nodes connected with 25GbE. Good idea?",
        {"job.model_params_b": 70, "job.nodes": 8, "nic.speed_gbps": 25},
        {"finding": ("nic-undersized", "warning", None), "not_rules": ["gradient-sync-time-per-step"]},
    ),
    (  # one machine: no gradient crosses the NIC
        "单机 8 卡训练 1.3B 模型，网卡 25G，够吗？",
        {"job.model_params_b": 1.3, "job.nodes": 1, "nic.speed_gbps": 25},
        {"not_rules": ["gradient-sync-time-per-step"], "not_categories": ["nic-undersized"]},
    ),
    # --- a profiled communication share
    (
        "Training a 13B model on 8 nodes, the profile shows communication takes 60% of each step.",
        {"job.comm_time_pct": 60, "job.nodes": 8},
        {"finding": ("comm-bound", "critical", "profiled-comm-share-high")},
    ),
    (
        "通信时间占了每步的 60%，8 机 64 卡，模型 13B。",
        {"job.comm_time_pct": 60, "job.nodes": 8},
        {"finding": ("comm-bound", "critical", "profiled-comm-share-high")},
    ),
    # --- NCCL_IB_DISABLE
    (
        "NCCL_IB_DISABLE=1 is set in our launch script for 4 nodes with ConnectX-6 InfiniBand.",
        {"nccl.ib_disabled": True, "job.nodes": 4},
        {"finding": ("nccl-transport-fallback", "critical", None)},
    ),
    (
        "我们设置了 NCCL_IB_DISABLE=1，两台机器训练，网卡是 100G 的。",
        {"nccl.ib_disabled": True, "job.nodes": 2},
        {"finding": ("nccl-transport-fallback", "warning", None)},
    ),
    # --- idle GPUs across machines with RDMA said
    (
        "GPU util is only 40% on our 4-node job; nodes have 8x A100 and 4x 200G InfiniBand each, CPU mostly idle.",
        {"gpu.util_pct": 40, "job.nodes": 4, "nic.rdma": True},
        {"finding": ("comm-bound", "warning", None), "not_categories": ["input-pipeline-cpu"]},
    ),
    (
        "4 机 32 卡训练，GPU 利用率只有 35%，CPU 很闲，网络是 100G RoCE。",
        {"gpu.util_pct": 35, "job.nodes": 4, "nic.rdma": True},
        {"finding": ("comm-bound", "warning", None), "not_categories": ["input-pipeline-cpu"]},
    ),
    # --- a gigabit link between machines
    (
        "两台机器各 8 张 A100，中间是千兆网线，多机训练比单机还慢，正常吗？",
        {"nic.speed_gbps": 1, "job.nodes": 2},
        {"finding": ("nic-undersized", "critical", None), "not_categories": ["healthy"]},
    ),
    (
        "We train on 4 machines connected by 1 Gbps Ethernet, 4x RTX 3090 each. Throughput barely improves over "
        "one machine.",
        {"nic.speed_gbps": 1, "job.nodes": 4},
        {"finding": ("nic-undersized", "warning", None), "not_categories": ["healthy"]},
    ),
    # --- machines in different zones
    (
        "Our nodes are in us-east-1a and us-east-1b, 4 nodes each. Distributed training is much slower than expected.",
        {"cluster.zones": 2},
        {"finding": ("latency-bound", "critical", "nodes-across-zones")},
    ),
    (
        "训练节点分布在两个可用区，跨可用区训练特别慢。",
        {"cluster.zones": 2},
        {"finding": ("latency-bound", "critical", "nodes-across-zones")},
    ),
    # --- a cloud instance with EFA, NCCL on sockets
    (
        "Our 8-node job on p4d.24xlarge shows NCCL INFO Using network Socket. Why is it slow?",
        {"nccl.transport": "socket", "job.nodes": 8},
        {"finding": ("nccl-transport-fallback", "warning", None)},
    ),
    # --- a step time that grows with the machines
    (
        "单机 8 卡每步 1.2 秒，两机 16 卡每步 3.5 秒，网卡 25G。",
        {"job.step_time_baseline_s": 1.2, "job.step_time_s": 3.5, "nic.speed_gbps": 25},
        {"finding": ("comm-bound", "critical", None), "not_rules": ["gradient-sync-time-per-step"]},
    ),
    (
        "The job uses 2 nodes with 8 GPUs each connected by 10GbE; GPU utilization hovers around 30%.",
        {"gpu.util_pct": 30, "job.nodes": 2, "nic.speed_gbps": 10},
        {"finding": ("comm-bound", "warning", None), "not_categories": ["healthy"]},
    ),
]


@pytest.fixture(scope="module")
def engine():
    return load_engine(extra_dirs=[])




@pytest.mark.parametrize(("text", "facts", "expect"), CASES, ids=[c[0][:60] for c in CASES])
def test_few_facts_sure_answer(engine, text: str, facts: dict[str, Any], expect: dict[str, Any]) -> None:
    assert not turn_problems(answer_turn(text, engine=engine), facts, expect)
