"""Network and NCCL readings: which figure is whose and which state is the job's — a bus inside the machine
rated in a long phrase ('NVLink's peak bidirectional bandwidth is 900 GB/s') against the busbw measured; two ratings
weighed in an 'is A enough, or B?' question; P2P switched on, and P2P off as the condition of a run compared with;
NCCL's transport said without NCCL's name ('所有 case 都走 IB'); PFC pause frames seen; a table of links with a column
of device names; a CPU-only helper instance beside the GPU ones. In English and in Chinese, with the figures beside
them that must not be read.

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read with these values,
facts that must not be read: {fact: value, or None for any value}).
"""

from __future__ import annotations

from typing import Any

import pytest

from bwdoctor.chat import answer_turn
from tests.matching import same_value

BUSBW, SPEED, P2P, TRANSPORT = ("nccl.allreduce_busbw_gbytes_per_s", "nic.speed_gbps", "nccl.p2p_disabled",
                                "nccl.transport")
PFC, RDMA_BW, INSTANCE, KIND = "nic.pfc", "net.rdma_bw_gbps", "node.instance_type", "nic.kind"
RDMA, COMM = "nic.rdma", "job.comm_pattern"

CASES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    # --- a bus inside the machine rated in a longer phrase is no busbw of the job's
    ("all_reduce_perf on one server with 8 H100 (NVLink): bus bandwidth tops out at ~360 GB/s. NVLink's peak "
     "bidirectional bandwidth is 900 GB/s, so do we only get one direction?", {BUSBW: 360}, {BUSBW: 900}),
    ("单机 8 卡 A100 跑 nccl-tests，busbw 只有 150 GB/s，"
     "NVLink 的理论双向带宽标称是 600 GB/s，正常吗？", {BUSBW: 150}, {BUSBW: 600}),
    ("nccl-tests busbw is 40 GB/s on 2 nodes; the PCIe Gen4 x16 slot's theoretical bandwidth is about 32 GB/s.",
     {BUSBW: 40}, {BUSBW: 32}),
    ("NCCL all_reduce busbw across 2 nodes is 45 GB/s over 4x 200G IB", {BUSBW: 45, SPEED: 200}, {}),
    # --- 'is A enough, or B?': two ratings weighed, neither the job's
    ("我们打算在 64 卡以上跑 ZeRO-3，节点之间 100Gbps 够不够，还是得上 400Gbps？", {"job.zero_stage": 3},
     {SPEED: None}),
    ("Is 100G enough for ZeRO-3 on 64 GPUs, or do we need 400G?", {}, {SPEED: None}),
    ("We plan to train on 8 nodes. Would 25GbE be enough, or should we go for 100G InfiniBand?", {},
     {SPEED: None, KIND: None, "nic.rdma": None}),
    ("打算用 4 台机器训练，万兆够不够用，还是要上 IB？", {}, {SPEED: None, KIND: None}),
    ("Would 200G RoCE be sufficient for 16 nodes, or should we get 400G?", {}, {SPEED: None}),
    # ... while a rating said as ours stays the job's
    ("Our nodes have 25GbE. Is that enough, or do we need 100G?", {SPEED: 25}, {SPEED: 100}),
    ("Is our 25GbE enough, or do we need 100G?", {SPEED: 25}, {SPEED: 100}),
    ("我们现在是 25G 网卡，够不够？", {SPEED: 25}, {}),
    ("Our 2 nodes have 100G RoCE, but busbw is only 5 GB/s. Is that enough bandwidth or is something wrong?",
     {SPEED: 100, KIND: "roce"}, {}),
    # ... and a rate asked as the one to expect is no rating either
    ("ib_write_bw shows 109 Gb/s per link. Is ~100 Gb/s per port what we should expect here, or is the fabric slow?",
     {RDMA_BW: 109}, {SPEED: None}),
    ("iperf3 gives 9.4 Gbits/sec. Is 10 Gb/s what we should expect?", {"net.iperf3_gbps": 9.4}, {SPEED: None}),
    ("Our NICs are 100 Gb/s; is 90 Gb/s what we should see in iperf3?", {SPEED: 100}, {SPEED: 90}),
    # --- P2P switched on; P2P off as the condition of the run compared with
    ("单机 8 张 RTX 4090，装了改过的驱动把 P2P 打开了，结果 alltoall_perf 比关掉 P2P 时还慢", {P2P: False},
     {P2P: True}),
    ("关闭 P2P 时两卡的测试很快，开了 P2P 以后 8 卡的带宽反而掉下来很多", {P2P: False}, {P2P: True}),
    ("After enabling P2P on our 4090s, all_reduce is slower than with P2P disabled.", {P2P: False}, {P2P: True}),
    ("When P2P was disabled it ran at 20 GB/s; now with P2P enabled it is 8 GB/s.", {P2P: False}, {P2P: True}),
    ("P2P is disabled on these GPUs and training is slow", {P2P: True}, {}),
    ("禁用了 P2P 之后反而快了", {P2P: True}, {}),
    ("We turned off P2P and DDP got faster", {P2P: True}, {}),
    ("不支持 P2P 的 4090，训练慢", {P2P: True}, {}),
    # --- NCCL's transport said without NCCL's name, in a question about NCCL
    ("nccl-tests 2 机，看 artifacts，所有 case 都走 IB、都有 GDRDMA 信号，但 busbw 只有 353 GB/s",
     {TRANSPORT: "ib"}, {}),
    ("我们的 nccl-tests 都走 socket，只有 2 GB/s", {TRANSPORT: "socket"}, {}),
    ("NCCL 2.18, all the runs went over IB, busbw is 40 GB/s", {TRANSPORT: "ib"}, {}),
    ("NCCL tests: all of the test cases go over RoCE but busbw is low", {TRANSPORT: "ib"}, {}),
    # ... asked or denied is none; no NCCL in the question, none either
    ("nccl 是不是都走 IB？", {}, {TRANSPORT: None}),
    ("NCCL 不是都走 IB 吗", {}, {TRANSPORT: None}),
    ("训练都走 IB，速度很慢", {}, {TRANSPORT: None}),
    ("nccl-tests 跑完了，怎么确认都走 IB 了吗？", {}, {TRANSPORT: None}),
    ("nccl-tests 都走 IB 了吗？busbw 很低", {}, {TRANSPORT: None}),
    ("how do I check that all the runs go over IB in nccl-tests?", {}, {TRANSPORT: None}),
    ("nccl-tests busbw 很低，流量确实走 IB 了", {TRANSPORT: "ib"}, {}),
    # --- PFC pause frames seen: PFC is on
    ("Intel E810 with RoCEv2; the PFC frames are reaching the ib_send_bw senders, but I still see drops.",
     {PFC: True, KIND: "roce"}, {}),
    ("RoCE 网络，交换机上能看到 PFC pause 帧在涨，但还是丢包", {PFC: True}, {}),
    ("PFC counters are increasing on the switch while busbw drops", {PFC: True}, {}),
    ("no PFC frames are seen on the NIC, RoCE v2", {}, {PFC: None}),
    ("PFC 没开，RoCE 丢包", {PFC: False}, {}),
    ("Is PFC configured on the switch? RoCE busbw is low", {}, {PFC: None}),
    # --- a table of links whose 'device' column names the ports
    ("Two RDMA-linked boxes:\n```\n| link  | device       | ib_write_bw |\n"
     "| rdma0 | rocep1s0f1   | 109.19 Gb/s |\n| rdma1 | roceP2p1s0f1 | 109.18 Gb/s |\n"
     "|       |              | 218.4 Gb/s aggregate |\n```\nIs ~109 per port normal?",
     {RDMA_BW: 109.18}, {RDMA_BW: 218.4}),
    ("perftest between the nodes:\n\n| port | device | ib_write_bw |\n| p0 | mlx5_0 | 370 Gb/s |\n"
     "| p1 | mlx5_1 | 180 Gb/s |\n\nwhy is one port slow?", {RDMA_BW: 180}, {RDMA_BW: 370}),
    # --- a CPU-only helper instance beside the GPU ones
    ("Horovod ran on 8x p3.16xlarge workers; BytePS on the same workers plus 8x c5n.4xlarge servers.",
     {INSTANCE: "p3.16xlarge"}, {INSTANCE: "c5n.4xlarge"}),
    ("4 台 g5.12xlarge 做 worker，另外 2 台 c5.18xlarge 跑 parameter server，训练很慢", {INSTANCE: "g5.12xlarge"},
     {INSTANCE: "c5.18xlarge"}),
    ("Standard_ND96asr_v4 nodes, and an m5.xlarge as the head node", {INSTANCE: "Standard_ND96asr_v4"},
     {INSTANCE: "m5.xlarge"}),
    ("We use a c5n.18xlarge for the data loading job and it is slow", {INSTANCE: "c5n.18xlarge"}, {}),
    # --- RDMA kept out by a setting, or TCP said as the kind of network
    ("BytePS gets 389 images/sec over TCP (DMLC_ENABLE_RDMA=0) on two VMs", {}, {RDMA: True}),
    ("BYTEPS_ENABLE_RDMA=1 on 100G RoCE", {RDMA: True, KIND: "roce"}, {}),
    ("use_rdma: false in the config, and the two nodes have 25G NICs", {SPEED: 25}, {RDMA: True}),
    ("while p3.16xlarge only has a 25Gbps traditional TCP network", {RDMA: False, SPEED: 25}, {}),
    ("两台机器之间是普通的 TCP 网络，25G，训练很慢", {RDMA: False, SPEED: 25}, {}),
    ("We have RDMA, but the job runs over a regular TCP connection for the rendezvous", {}, {RDMA: False}),
    # --- 'one' the pronoun is no machine count
    ("a single TCP connection can't fill 25Gbps, so one should launch more server instances", {}, {"job.nodes": 1}),
    ("one can run 8 workers on each of the 2 nodes", {"job.nodes": 2}, {}),
    ("one node with 8 GPUs, and all_reduce is slow", {"job.nodes": 1, "job.gpus_per_node": 8}, {}),
    # --- a ring of the job's machines: the exchange is a ring all-reduce
    ("对 MPI 这类分布式训练来说，整体性能由 ring 里最慢的那个节点决定，跨 AZ 的延迟很伤", {COMM: "allreduce"}, {}),
    ("Training speed is set by the slowest node in the ring, and one of our nodes is in another AZ",
     {COMM: "allreduce"}, {}),
    ("What is a ring topology?", {}, {COMM: None}),
    ("ring buffer 满了，日志丢了", {}, {COMM: None}),
    # --- message sizes listed in bare M are sizes, neither rates nor storage
    ("100Gbps 的 TCP 网络（没有 RDMA），32M、64M、128M 这几个 bucket 大小的性能都很差", {SPEED: 100},
     {"storage.read_gbps": None, "net.iperf3_gbps": None}),
    ("the 32M, 64M and 128M bucket sizes are all slow on 25GbE", {SPEED: 25}, {"storage.read_gbps": None}),
    ("iperf3 shows 940M, the NIC is 1G", {"net.iperf3_gbps": 0.94, SPEED: 1}, {}),
    ("存储读取只有 128M/s，网络 25G", {SPEED: 25, "storage.read_gbps": 1.024}, {}),
    # --- a cloud instance's run set against our own hardware is not the job's
    ("kv-store dist-sync. On AWS g2.2xlarge (K520) the speed per GPU stays at ~9-10 samples/sec with 1, 2 or 5 "
     "machines, as expected. On our own local network with GTX 1080 machines two machines are 5x slower.",
     {"gpu.model": "GTX 1080"}, {INSTANCE: None}),
    ("在 AWS 的 p3.16xlarge 上 4 台扩展很正常。在我们自己的机房里 4 台 A100 服务器就很慢。", {"gpu.model": "A100"},
     {INSTANCE: None}),
    ("We run on p4d.24xlarge; on our own cluster we have not tried yet.", {INSTANCE: "p4d.24xlarge"}, {}),
    ("We run on 4 p4d.24xlarge instances and scaling is poor.", {INSTANCE: "p4d.24xlarge"}, {}),
]



@pytest.mark.parametrize(("text", "want", "never"), [pytest.param(*c, id=f"n{i:03d}") for i, c in enumerate(CASES)])
def test_network_readings(engine: Any, text: str, want: dict[str, Any], never: dict[str, Any]) -> None:
    facts = answer_turn(text, engine=engine)["facts"]
    wrong = {k: (facts.get(k), v) for k, v in want.items() if k not in facts or not same_value(facts[k], v)}
    misread = {k: facts[k] for k, v in never.items() if k in facts and (v is None or same_value(facts[k], v))}
    assert not wrong and not misread, f"wrong/missed {wrong}; misread {misread}; facts {facts}"


# --- the layers changed, one by one

def test_a_device_column_of_names_labels_links_and_counts_nothing() -> None:
    from bwdoctor.chat.tables import read_link_tables

    table = ("| link | device | ib_write_bw |\n| rdma0 | rocep1s0f1 | 109.19 Gb/s |\n"
             "| rdma1 | roceP2p1s0f1 | 97.5 Gb/s |\n")
    assert [(f, v) for f, v, _a, _b in read_link_tables(table)] == [("net.rdma_bw_gbps", 97.5)]
    runs = "| run | devices | ib_write_bw |\n| a | 1 | 97.5 Gb/s |\n| b | 2 | 190 Gb/s |\n"  # counts: a table of runs
    assert read_link_tables(runs) == []


def test_weighed_candidates_are_hypothetical_and_ours_is_not() -> None:
    from bwdoctor.chat.extract import extract_facts
    from bwdoctor.chat.scopes import mark_hypothetical

    def speeds(text: str) -> list[tuple[float, bool]]:
        return [(h.value, h.hypothetical) for h in mark_hypothetical(text, extract_facts(text)) if h.fact == SPEED]

    assert speeds("我们打算跑 ZeRO-3，节点之间 100Gbps 够不够，还是得上 400Gbps？") == [(100.0, True), (400.0, True)]
    assert speeds("Our 25GbE links: is our 25GbE enough, or do we need 100GbE?") == [
        (25.0, False), (25.0, False), (100.0, True)]


def test_p2p_state_of_a_run_compared_with_is_not_the_jobs() -> None:
    from bwdoctor.chat.extract import fabric_features

    def states(text: str) -> list[bool]:
        return [h.value for h in fabric_features(text) if h.fact == P2P]

    assert states("把 P2P 打开了，结果比关掉 P2P 时还慢") == [False]
    assert states("slower than with P2P disabled") == []
    assert states("P2P is disabled") == [True]


def test_pause_frames_seen_say_pfc_is_on() -> None:
    from bwdoctor.chat.symptoms import roce_congestion

    def pfc(text: str) -> list[bool]:
        return [h.value for h in roce_congestion(text) if h.fact == PFC]

    assert pfc("the PFC frames are reaching the senders") == [True]
    assert pfc("PFC 计数在涨") == [True]
    assert pfc("no PFC frames arrive at all") == []
    assert pfc("a PFC storm took the fabric down") == []
