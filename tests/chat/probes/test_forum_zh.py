"""Chinese questions as engineers write them on 知乎, CSDN, GitHub issues and WeChat groups: a load
named with a word of its level and its figure in the next clause, a fabric asked about as a requirement, a setting on
the far side of a comparison, a test named before its bare figure, cards counted before their rate, the interface NCCL
is said to go over, '为 0' and 百兆 — with the traps beside them.

Written for this battery (not copied from the corpus). Each row names what must be read and what must not be (None);
a few rows also name the first finding's category where the engine should be sure.
"""

from __future__ import annotations

import pytest

from bwdoctor.chat import answer_turn
from tests.matching import fact_problems

U, C, MEM, K, R, V = "gpu.util_pct", "cpu.util_pct", "gpu.mem_used_pct", "nic.kind", "nic.rdma", "nic.speed_gbps"
IPERF, IF, Z = "net.iperf3_gbps", "nccl.socket_ifname", "job.zero_stage"

CASES: list[tuple[str, dict[str, object]]] = [
    # --- a load's level in words, then its figure in the next clause: the figure is that load's
    ("求助：两机十六卡 A800 训练 LLaMA-7B，机器之间是万兆网，GPU 利用率一直上不去，只有 30% 左右，是不是网络瓶颈？",
     {U: 30, "job.nodes": 2, "job.gpus_per_node": 8, V: 10}),
    ("GPU 利用率很低，只有 30%", {U: 30}),
    ("GPU 利用率跑不满，才 40% 左右", {U: 40}),
    ("GPU 利用率不高，大概 60%", {U: 60}),
    ("显卡利用率低，也就 20% 多", {U: 20}),
    ("CPU 利用率很高，有 90%", {C: 90}),
    ("GPU utilization is low, only 30%", {U: 30}),
    ("两机训练时 GPU 利用率上不去，只有 30%，单机能到 90%", {U: 30}),
    ("我们实验室两台服务器，每台 4 张 A6000，用千兆交换机连起来，训练 BERT 的时候 GPU 利用率跑不满，只有 40% 左右",
     {U: 40, "job.nodes": 2, "job.gpus_per_node": 4, V: 1}),
    # the figure of something else in the next clause is not the load's
    ("GPU 利用率一直上不去，只有 30% 的时间在计算", {U: 50}),
    ("GPU 利用率上不去，带宽只有 30%", {U: 50}),
    ("GPU 利用率上不去，扩展效率只有 60%", {U: 50}),
    # --- memory then utilisation: the second figure is the GPUs' load
    ("为什么多机训练时 GPU 显存占用 90%，利用率却只有 20%？网卡是 100G RoCE", {MEM: 90, U: 20, K: "roce"}),
    # --- zero said with 为/是
    ("训练数据放在 OSS 上，两机十六卡，每个 epoch 开头都要卡很久，GPU 利用率为 0",
     {U: 0, "job.data_source": "object_store", "job.nodes": 2}),
    ("GPU 利用率一直是 0", {U: 0}),
    ("GPU 利用率为 0.5", {U: None}),
    # --- iowait is no CPU load
    ("用 HDFS 读训练数据，4 机 32 卡，GPU 利用率只有 40%，CPU iowait 很高", {C: None, U: 40, "job.data_source": "nas"}),
    ("CPU 的 iowait 很高", {C: None}),
    # --- a fabric asked about as a requirement is not the one the job has
    ("是不是必须要 IB 才能多机训练？我们只有 10G 以太网，4 台机器 8 卡 A100，训练 13B",
     {K: "ethernet", R: False, V: 10, "job.nodes": 4}),
    ("多机训练一定得上 RDMA 吗？现在是 25G 以太网", {K: "ethernet", R: False, V: 25}),
    ("需要 IB 网卡吗？两台 8 卡 A100", {K: None, R: None}),
    ("Is InfiniBand required for multi-node training? We have 25GbE", {K: "ethernet", R: False}),
    ("两台机器的 GPU 利用率都只有 20% 多，网络 25G，模型 7B，是不是该上 100G？", {V: 25, U: 20}),
    ("我们用的是 IB，必须要 IB 才能跑吗", {K: "infiniband"}),
    # --- a setting on the far side of a comparison is not the job's
    ("LLaMA-Factory 用 deepspeed zero3 多机训练，两台 8 卡 A800，速度比 zero2 慢一倍，网络 100G IB",
     {Z: 3, "job.parallelism": "fsdp", "job.nodes": 2, V: 100}),
    ("zero3 相比 zero2 通信量大很多", {Z: 3}),
    ("用 zero2 训练，比单机慢", {Z: 2}),
    # --- a test named in the clause before a bare rate: the test's figure
    ("用 iperf 测了一下，两台机器之间只有 3Gb/s，网卡明明是 25G 的，为什么？", {IPERF: 3, V: 25}),
    ("ran iperf3 between the nodes, only 3 Gb/s", {IPERF: 3, V: None}),
    ("用 iperf 测了一下，25Gb/s 网卡", {IPERF: None, V: 25}),
    ("测了一下，NFS 读只有 200MB/s", {IPERF: None, "storage.read_gbps": 1.6}),
    # --- cards counted before their rate
    ("双机 16 卡 A800 跑 nccl-tests，busbw 只有 21GB/s，IB 是 4 张 200G 的，是不是哪里没配对？",
     {V: 200, "nic.count": 4, K: "infiniband", "nccl.allreduce_busbw_gbytes_per_s": 21}),
    ("IB 网卡 4 张，每张 200G", {V: 200, "nic.count": 4}),
    ("RoCE 有 8 个节点", {"nic.count": None}),
    # --- the interface NCCL is said to go over
    ("容器里跑多机训练，NCCL 走了 docker0 网卡，速度非常慢，怎么指定网卡？", {IF: "docker0", "job.multi_node": True}),
    ("NCCL 用的是 eth0", {IF: "eth0"}),
    ("NCCL picked docker0 instead of the IB interface", {IF: "docker0"}),
    ("怎么让 NCCL 走 eth1", {IF: None}),
    ("docker0 上有很多流量", {IF: None}),
    # --- 百兆
    ("机器之间用的是 100M/s 的网络（就是百兆），能做分布式训练吗？", {V: 0.1}),
    ("百兆交换机能做多机训练吗", {V: 0.1}),
    # --- forms that already read right, kept as guards
    ("单机八卡 A800 训练 13B 模型，GPU 利用率忽高忽低，有时候 0% 有时候 100%，怎么排查？", {U: 50, "job.nodes": 1}),
    ("iperf3 测两台机器之间只有 9.4 Gbits/sec，网卡是万兆的，训练时 GPU 利用率只有 40%", {IPERF: 9.4, V: 10, U: 40}),
    ("两台机器之间 iperf 测出来 1000Mb/s，跑 DDP 还不如单机快，求助", {IPERF: 1, "job.nodes": 2}),
    ("网卡协商成了 10000Mb/s，但是网卡标称 25G，训练很慢，怎么回事？", {V: 10, "nic.max_speed_gbps": 25}),
    ("训练时用 iftop 看网卡流量只有 100M/s，网卡是万兆的，GPU 利用率 30%", {"nic.rx_gbps": 0.8, V: 10, U: 30}),
    ("腾讯云星脉网络，16 台 8 卡 H800，训练千亿模型，allreduce 耗时占了 40%，正常吗？",
     {"job.nodes": 16, "job.model_params_b": 100, "job.comm_time_pct": 40}),
    ("每隔 500 步存一次 checkpoint，每次 140GB，存到 CPFS 上，存的时候训练就卡住好几分钟，正常吗？",
     {"job.checkpoint_interval_steps": 500, "job.checkpoint_size_gbytes": 140, "job.checkpoint_target": "network"}),
    ("没开 GDR，NCCL 日志显示 NET/IB/0，busbw 只有 12GB/s，网卡是 200G IB", {"nccl.gdr_disabled": True, V: 200}),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_zh_probe_read(engine, text: str, expected: dict[str, object]) -> None:
    assert fact_problems(answer_turn(text, engine=engine), expected) == []


FIRST: list[tuple[str, str]] = [
    ("用 HDFS 读训练数据，4 机 32 卡，GPU 利用率只有 40%，CPU iowait 很高", "remote-storage-io"),
    ("容器里跑多机训练，NCCL 走了 docker0 网卡，速度非常慢，怎么指定网卡？", "nccl-transport-fallback"),
    ("双机 16 卡 A800 跑 nccl-tests，busbw 只有 21GB/s，IB 是 4 张 200G 的，是不是哪里没配对？", "link-degraded"),
    ("是不是必须要 IB 才能多机训练？我们只有 10G 以太网，4 台机器 8 卡 A100，训练 13B", "nic-undersized"),
    ("求助：两机十六卡 A800 训练 LLaMA-7B，机器之间是万兆网，GPU 利用率一直上不去，只有 30% 左右，是不是网络瓶颈？",
     "nic-undersized"),
    ("训练数据放在 OSS 上，两机十六卡，每个 epoch 开头都要卡很久，GPU 利用率为 0", "remote-storage-io"),
    ("火山引擎上开了两台 8 卡 A800，NCCL 走的是 socket，没有走 RDMA，怎么让它走 RDMA？", "nccl-transport-fallback"),
    ("ColossalAI 训练，两台机器，每台 4 张 3090，千兆网，比单机慢三倍，怎么回事？", "comm-bound"),
    ("ping 两台机器延迟 2ms，跨机房训练，8 卡 A100 两台，速度很慢，是延迟的问题吗？", "latency-bound"),
    ("网卡是 CX7 400G，但是 ib_write_bw 只测到 180Gb/s，是不是光模块有问题？", "link-degraded"),
]


@pytest.mark.parametrize(("text", "category"), FIRST)
def test_zh_probe_first_finding(engine, text: str, category: str) -> None:
    findings = answer_turn(text, engine=engine)["findings"]
    assert findings and findings[0]["category"] == category, [f["category"] for f in findings]
