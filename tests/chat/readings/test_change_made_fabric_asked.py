"""Readings: a change already made is the job, a fabric asked for is not had, a rate right after a fabric
is its rating, placement denied, the figure now after the one before, and a checkpoint's write rate is no test's."""

from __future__ import annotations

import pytest

from bwdoctor.chat import understand
from tests.matching import stated_facts as facts


@pytest.mark.parametrize(("text", "expected"), [
    ("为了减少通信开销我们改成了异步训练，对最终模型精度有影响吗？", {"job.async": True}),
    ("我们把网卡换成了 100G，为什么训练还是慢？", {"nic.speed_gbps": 100.0}),
])
def test_a_change_made_is_the_job_as_it_is(text: str, expected: dict[str, object]) -> None:
    got = facts(text)
    assert {k: got.get(k) for k in expected} == expected


@pytest.mark.parametrize("text", ["要不要把网卡换成 100G？", "如果换成 IB 会快多少？"])
def test_a_change_asked_about_is_still_a_what_if(text: str) -> None:
    got = facts(text)
    assert "nic.speed_gbps" not in got and "nic.kind" not in got


@pytest.mark.parametrize("text", [
    "Does ZeRO-3 across 2 nodes need InfiniBand? We only have 10GbE and want to train a 7B model.",
    "We only have 10GbE. Do we need InfiniBand?",
    "Would a 2-node job require RDMA? Our nodes have 10GbE.",
    "两台机器只有万兆，需要 IB 吗",
])
def test_a_fabric_asked_for_is_not_the_one_had(text: str) -> None:
    got = facts(text)
    assert got.get("nic.kind") == "ethernet" and got.get("nic.rdma") is False and got.get("nic.speed_gbps") == 10


@pytest.mark.parametrize(("text", "measured", "rating"), [
    ("ib_write_bw between the two nodes shows 96 Gb/s on HDR 200G, is the link degraded?", 96.0, 200.0),
    ("ib_write_bw 跑到 190G，IB 是 200G", 190.0, 200.0),
])
def test_a_rate_right_after_the_fabric_is_its_rating(text: str, measured: float, rating: float) -> None:
    got = facts(text)
    assert got.get("net.rdma_bw_gbps") == measured and got.get("nic.speed_gbps") == rating


@pytest.mark.parametrize("text", [
    "We are NOT in different zones, all nodes are in us-west-2a. Still slow across 4 nodes.",
    "我们的机器没有跨可用区，都在同一个机房",
    "机器不是跨机房的",
])
def test_placement_denied_is_no_second_zone(text: str) -> None:
    assert facts(text).get("cluster.zones") in {None, 1}


@pytest.mark.parametrize("text", ["nodes are spread across different availability zones", "两台机器跨机房，ping 5ms"])
def test_placement_said_is_still_two_zones(text: str) -> None:
    assert facts(text).get("cluster.zones") == 2


def test_machines_said_all_in_one_room_are_not_one_machine() -> None:
    assert "job.nodes" not in facts("我们的机器都在同一个机房")


@pytest.mark.parametrize(("text", "fact", "now"), [
    ("升级驱动之前 busbw 有 20GB/s，升级之后只有 5GB/s 了", "nccl.allreduce_busbw_gbytes_per_s", 5.0),
    ("之前 iperf3 能跑 9.4 Gbits/sec，换了交换机以后只有 2 Gbits/sec", "net.iperf3_gbps", 2.0),
])
def test_the_figure_after_a_change_is_the_one_now(text: str, fact: str, now: float) -> None:
    assert facts(text).get(fact) == now


@pytest.mark.parametrize("text", [
    "nccl-tests busbw 是 20GB/s，模型 checkpoint 写入只有 1GB/s",
    "nccl-tests busbw 20 GB/s; checkpoint saving only gets 1 GB/s",
])
def test_a_checkpoint_write_rate_is_no_bus_bandwidth(text: str) -> None:
    assert facts(text).get("nccl.allreduce_busbw_gbytes_per_s") == 20.0


@pytest.mark.parametrize("text", [
    "ECN 没配置，RoCE 网络丢包严重，busbw 抖动很大",
    "all_reduce 带宽不稳定，本来应该有 10 GB/s 左右，时不时掉下去一大截",
    "the bus bandwidth is very unstable across runs",
])
def test_an_unsteady_all_reduce_bandwidth_in_words(text: str) -> None:
    assert facts(text).get("nccl.busbw_unstable") is True


@pytest.mark.parametrize("text", ["step time 抖动很大", "iperf3 抖动很大"])
def test_other_things_unsteady_say_nothing_of_busbw(text: str) -> None:
    assert "nccl.busbw_unstable" not in facts(text)


@pytest.mark.parametrize("text", [
    "Only one of the two 100G ports is used during training, the other is idle.",
    "这张网卡有两个口。本来以为 all-to-all 会同时用上两个口，结果日志里跨机只走了一个",
    "网卡是两个虚拟网卡，我们只用上了其中一个",
])
def test_one_of_the_ports_used(text: str) -> None:
    assert facts(text).get("net.one_nic_used") is True


@pytest.mark.parametrize("text", ["8 张卡只用了一张卡", "我们有两个网口，只用了一个 GPU"])
def test_one_gpu_used_is_no_port(text: str) -> None:
    assert "net.one_nic_used" not in facts(text)


@pytest.mark.parametrize(("text", "today"), [
    ("Would moving from our 25GbE to 100GbE help?", 25.0),
    ("从 25G 升级到 100G 值得吗", 25.0),
    ("Would upgrading from 25G to 100G speed up our 4-node 13B training?", 25.0),
    ("Would it help to switch to InfiniBand from our 10GbE?", 10.0),
    ("把万兆换成 IB 有用吗", 10.0),
])
def test_the_link_moved_from_is_today_s(text: str, today: float) -> None:
    got = facts(text)
    assert got.get("nic.speed_gbps") == today and got.get("nic.kind") != "infiniband"


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("We moved from 25GbE to 100GbE last week and it is still slow", "nic.speed_gbps", 100.0),
    ("busbw went from 20 GB/s to 5 GB/s, why?", "nccl.allreduce_busbw_gbytes_per_s", 5.0),
    ("Would it help to go from 2 nodes to 4 nodes?", "job.nodes", 2),
])
def test_a_move_made_or_a_figure_now_keeps_the_later_value(text: str, fact: str, value: object) -> None:
    assert facts(text).get(fact) == value


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("多机训练的时候网卡带宽打不满，只有 3Gbps 左右，25G 网卡", "nic.rx_gbps", 3.0),
    ("iperf3 跑不满，只有 15Gbps，25G 网卡", "net.iperf3_gbps", 15.0),
])
def test_a_link_not_filled_carries_the_figure_said(text: str, fact: str, value: float) -> None:
    got = facts(text)
    assert got.get(fact) == value and got.get("nic.speed_gbps") == 25.0


@pytest.mark.parametrize(("text", "speedup"), [
    ("8 卡 H800 两机训练，MFU 只有 20%，单机 MFU 有 45%", 0.8889),
    ("We get 38% MFU on 1 node and 22% MFU on 8 nodes", 4.6316),
])
def test_mfu_of_two_runs_is_a_per_gpu_pace(text: str, speedup: float) -> None:
    got = facts(text)
    assert got.get("job.speedup") == pytest.approx(speedup, rel=1e-3) and got.get("job.baseline_nodes") == 1


def test_mfu_of_one_run_is_no_comparison() -> None:
    assert "job.speedup" not in facts("MFU 40% on 64 H100s")


def test_gpus_times_a_model_in_a_spec_line_is_no_speed_up() -> None:
    got = facts("服务器：3 台，每台 8×A100 40G PCIe\n【问题】\n3 机训练速度只有单机的 1.5 倍")
    assert got.get("job.speedup") == 1.5 and got.get("job.gpus_per_node") == 8


def test_an_issue_template_s_labelled_lines_are_sentences_of_their_own() -> None:
    got = facts("Environment:\nOS: Ubuntu 22.04\nGPU: 8 x H100 80GB HBM3 per node, 4 nodes\n"
                "Network: 8 x 400Gb/s NDR InfiniBand per node\nNCCL: 2.19.3\n"
                "all_reduce_perf busbw is only 45 GB/s across nodes.")
    assert {k: got.get(k) for k in ("job.nodes", "job.gpus_per_node", "nic.count", "nccl.version",
                                    "nccl.allreduce_busbw_gbytes_per_s")} == {
        "job.nodes": 4, "job.gpus_per_node": 8, "nic.count": 8, "nccl.version": "2.19.3",
        "nccl.allreduce_busbw_gbytes_per_s": 45.0}


def test_a_wrapped_sentence_whose_next_line_has_a_colon_stays_whole() -> None:
    from bwdoctor.chat.text import soften_line_breaks
    assert "\n" not in soften_line_breaks("a bucket in the\nsame region: saving takes ~17 seconds")
    assert soften_line_breaks("服务器：3 台\n网络：100G IB").count("\n") == 1


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("我们有 3 个节点，用 `NCCL_ALGO=RING mpiexec ... all_reduce_perf -b 1M -e 2048M -f 2 -g 1` 两两测："
     "节点 1 和节点 2 之间只有 25 GB/s", "nccl.allreduce_busbw_gbytes_per_s", 25.0),
    ("ran `iperf3 -c 10.0.0.2 -P 4` and it shows 9.4 Gbits/sec", "net.iperf3_gbps", 9.4),
])
def test_the_tool_a_command_runs_names_the_figure_after_it(text: str, fact: str, value: float) -> None:
    got = facts(text)
    assert got.get(fact) == value and got.get("job.nodes") != 2048  # the command's arguments stay unread


@pytest.mark.parametrize(("text", "baseline", "total"), [
    ("GPU 从 8 张加到 16 张，吞吐只提升了 20%", 8, 16),
    ("显卡从 4 张增加到 8 张，训练速度反而变慢了", 4, 8),
])
def test_gpus_counted_by_a_bare_classifier_after_the_gpus_named(text: str, baseline: int, total: int) -> None:
    got = facts(text)
    assert got.get("job.baseline_gpus") == baseline and got.get("job.total_gpus") == total


def test_a_bare_classifier_of_something_else_counts_no_gpus() -> None:
    assert "job.baseline_gpus" not in facts("图片从 8 张加到 16 张，速度变慢")


def test_a_job_read_as_the_size_of_its_own_baseline_is_set_aside_and_asked() -> None:
    u = understand("单机 8 卡，加到 16 卡的时候速度只快了 10%")
    got = {x.fact: x.value for x in u.understood}
    assert got.get("job.baseline_gpus") == 8 and "job.gpus_per_node" not in got and "job.nodes" not in got
    assert any("job.gpus_per_node" in c.facts for c in u.conflicts)


@pytest.mark.parametrize("text", [
    "Training on 4 g4dn.12xlarge instances (4x T4 each), throughput barely improves over one instance.",
    "加了机器速度几乎没提升，两台 8 卡 V100，万兆",
    "两台机器和一台差不多快，25G 网络",
    "there is hardly any speed-up from the second node",
])
def test_more_machines_at_about_the_pace_of_one_is_poor_scaling(text: str) -> None:
    assert facts(text).get("diag.poor_scaling") is True


@pytest.mark.parametrize(("text", "nodes"), [
    ("Two of these machines with 1GbE between them", 2),
    ("We run on Azure NC24ads A100 v4 VMs, 2 of them, no InfiniBand", 2),
])
def test_machines_counted_as_so_many_of_those_named(text: str, nodes: int) -> None:
    assert facts(text).get("job.nodes") == nodes


def test_gpus_counted_as_so_many_of_them_are_no_machines() -> None:
    assert facts("8 GPUs, two of them are idle").get("job.nodes") != 2


@pytest.mark.parametrize("text", ["ibv_devices lists 4 devices", "ibstat shows 2 devices, mlx5_0 and mlx5_1"])
def test_rdma_devices_are_no_gpus(text: str) -> None:
    got = facts(text)
    assert "job.gpus_per_node" not in got and "gpu.count" not in got


def test_cuda_devices_are_gpus() -> None:
    assert facts("4 CUDA devices on one machine").get("job.gpus_per_node") == 4


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("With a 100MB vector that's roughly 6.4 Gbps, about 25% of the network's theoretical max, on c5.18xlarge (the "
     "cheapest instances with 25Gbps full-duplex network)", "net.iperf3_gbps", 6.4),
    ("训练时跑到 8Gbps，只有理论值的 30%，网卡 25G", "nic.rx_gbps", 8.0),
])
def test_a_figure_said_as_a_share_of_the_rate_is_no_rating(text: str, fact: str, value: float) -> None:
    got = facts(text)
    assert got.get(fact) == value and got.get("nic.speed_gbps") != value
    assert got.get("node.instance_bandwidth_gbps") != value


@pytest.mark.parametrize("text", [
    "Each node has 8 GPUs but we only use 4 per node for this run, 2 nodes.",
    "每台机器 8 张卡，我们每台只用了 4 张，两台机器",
    "2 nodes with 8 GPUs each, using only 4 GPUs per node",
])
def test_the_gpus_used_per_machine_outrank_those_it_has(text: str) -> None:
    got = facts(text)
    assert got.get("job.gpus_per_node") == 4 and got.get("job.nodes") in {None, 2}


def test_gpus_used_per_node_said_alone_are_still_read() -> None:
    assert facts("we use 8 GPUs per node on 2 nodes").get("job.gpus_per_node") == 8


def test_slower_than_the_others_compares_ranks_not_another_team() -> None:
    got = facts("有一个 rank 总是比别人慢很多，两台机器 8 卡")
    assert got.get("job.straggler_suspected") is True and got.get("job.nodes") == 2
