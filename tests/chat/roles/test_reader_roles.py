"""The roles numbers play, as the reader tells them apart: which run a figure belongs to, which count is the job's,
which speed is one NIC's, and what is said of another system. Each case is a sentence shaped like real questions."""

from __future__ import annotations

import pytest

from bwdoctor.chat import understand
from tests.matching import stated_facts as facts


def changes(text: str) -> dict[str, object]:
    return {u.fact: u.value for u in understand(text).changes}


@pytest.mark.parametrize(("text", "seconds"), [
    ("Two nodes with 8 GPUs each; every 2000 steps take about 35 s.", 0.0175),
    ("两台机器各 8 卡，每 100 步 35 秒。", 0.35),
    ("On 4 nodes it takes 12 s per 100 iterations.", 0.12),
    ("四台 8 卡，一个 step 要 30 多分钟。", 1800),
])
def test_time_over_several_steps_is_a_time_per_step(text: str, seconds: float) -> None:
    assert facts(text)["job.step_time_s"] == pytest.approx(seconds)


def test_gpus_the_job_runs_on_are_not_the_gpus_the_machine_has() -> None:
    got = facts("两台机器各用 1 张 GPU 跑 nccl-tests。每台机器 6 张 GPU、两张 IB 卡，每张 100Gbps。")
    assert got["job.gpus_per_node"] == 1
    assert got["gpu.count"] == 6
    ranks = facts("两个节点一共 16 张 A100，CUDA_VISIBLE_DEVICES=0,1,2,3 时每台 4 个 rank。")
    assert ranks["job.gpus_per_node"] == 4
    assert ranks["gpu.count"] == 8


def test_a_speed_that_is_the_sum_of_the_nics_is_not_one_nics() -> None:
    got = facts("每台两张 IB 卡，每张 100Gbps，两张卡理论上是 200Gbps，nccl-tests 只有 5.7 GB/s。")
    assert got["nic.count"] == 2
    assert got["nic.speed_gbps"] == 100


def test_a_measurement_of_a_smaller_run_is_not_the_jobs() -> None:
    got = facts("One server with 8 GPUs: all_reduce_perf gives busbw 28 GB/s with all 8 GPUs; with 4 GPUs I get "
                "35 GB/s. How do I get 35 GB/s with 8 GPUs?")
    assert got["nccl.allreduce_busbw_gbytes_per_s"] == 28


@pytest.mark.parametrize(("text", "fact", "wrong"), [
    ("We are on AWS p4d with EFA. Could EFA just be slower than real InfiniBand?", "nic.kind", "infiniband"),
    ("8 machines on EFA give 70% of the throughput of on-prem InfiniBand.", "nic.kind", "infiniband"),
    ("8x RTX 5090 in one server gives busbw 28 GB/s, hardly better than 8x RTX 4090.", "gpu.model", "RTX 4090"),
])
def test_the_far_side_of_a_comparison_is_not_the_jobs(text: str, fact: str, wrong: object) -> None:
    assert facts(text).get(fact) != wrong


def test_an_earlier_run_and_another_teams_run_are_set_aside() -> None:
    got = facts("A 2-node run for Qwen Math 7B is slow (an earlier 0.5B run on one node was fine).")
    assert got["job.model_params_b"] == 7
    paper = facts("We trained IDEFICS-80B with ZeRO-3 on nodes with 340Gbps of internode bandwidth, whereas "
                  "BLOOM-176B reached 150 TFLOPs on a cluster with only 140Gbps.")
    assert paper["job.model_params_b"] == 80
    assert paper["nic.speed_gbps"] == 340
    readme = facts("想复现 README 里 13B 的吞吐。README 说从 4机（32卡）扩展到 64机（512卡）线性度是 0.85。")
    assert readme.get("job.nodes") != 64


@pytest.mark.parametrize(("text", "nodes", "gpus"), [
    ("alltoall_perf on 8 H800 nodes (64 ranks) is unstable.", 8, 8),
    ("| 4 Pod 4 Cards 2 Machine | false | 125.607 |", 2, 2),
    ("One machine with 8 GPUs trains fine; multi-node (64 GPUs, same batch) is slow.", 8, 8),
    ("4 nodes with 4 GPUs each (with 8-GPU VMs it is horrible).", 4, 4),
    ("One node with 4x 1080 Ti gives 608 images/sec. Running on 2 nodes with 8 GPUs is much slower.", 2, 4),
])
def test_counts_in_their_context(text: str, nodes: int, gpus: int) -> None:
    got = facts(text)
    assert (got.get("job.nodes"), got.get("job.gpus_per_node")) == (nodes, gpus)


def test_a_lone_machine_is_the_job() -> None:
    got = facts("单机 8 卡 A800 上测 NCCL，看拓扑是 4 张卡挂一个 PCIe switch。")
    assert (got["job.nodes"], got["job.gpus_per_node"]) == (1, 8)


def test_ib_lane_width_is_not_a_nic_count() -> None:
    got = facts("4 servers with 8 GPUs each over 4xEDR InfiniBand; busbw 12.2 GB/s.")
    assert "nic.count" not in got
    assert got["nic.speed_gbps"] == 100


def test_a_message_size_is_not_a_rate() -> None:
    got = facts("alltoall_perf on 8 nodes shows a bandwidth drop at the 1G size.")
    assert "nic.speed_gbps" not in got and "net.iperf3_gbps" not in got


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("nccl-tests between two hosts with one GPU each. After the BIOS change I get up to 9GB/s.",
     "nccl.allreduce_busbw_gbytes_per_s", 9),
    ("The link speed is 2.5 Gbit/s, yet throughput during training plateaus around 1.4 Gbit/s.", "nic.speed_gbps", 2.5),
    ("iftop 看网卡收发都只有 20MB/s 左右，我们是万兆网卡。", "nic.rx_gbps", 0.16),
    ("大部分时间 GPU 利用率几乎是 0。", "gpu.util_pct", 0),
])
def test_measurement_roles(text: str, fact: str, value: float) -> None:
    assert facts(text)[fact] == pytest.approx(value)


@pytest.mark.parametrize("text", [
    "Single node with 8 GPUs gets 143k wps. On two nodes with 16 GPUs the wps is just over 10k.",
    "单节点一个 train step 几十秒，换成 3 个节点之后一个 train step 要半个小时。",
    "On 2 nodes the time grows with every worker we add.",
])
def test_scaling_said_in_other_words(text: str) -> None:
    assert facts(text).get("job.negative_scaling") is True


def test_rough_durations_give_no_speedup_figure() -> None:
    assert "job.speedup" not in facts("单节点一个 step 几十秒，3 个节点一个 step 要半个小时。")


def test_a_setting_asked_about_is_a_change_not_a_fact() -> None:
    text = "We train on 2 nodes x 8 A100 over 25GbE. Should I set --bf16?"
    assert "job.precision" not in facts(text)
    assert changes(text)["job.precision"] == "bf16"


@pytest.mark.parametrize("text", [
    "Two servers with 3 RTX 3090 each. Each has a 1G port (eno1) and a 10G port (enp37s0f0); I set "
    "NCCL_SOCKET_IFNAME=enp37s0f0, but the worker sends through eno1.",
    "两台服务器，每台 3 张 3090。eno1 是千兆口，enp37s0f0 是万兆口，iftop 一看发送走的是千兆 eno1。",
])
def test_traffic_on_the_slower_port_is_the_link_the_job_has(text: str) -> None:
    assert facts(text)["nic.speed_gbps"] == 1


def test_naming_two_ports_without_saying_which_carries_traffic_changes_nothing() -> None:
    got = facts("Each server has a 1G port (eno1) and a 10G port (enp37s0f0); training is slow.")
    assert got.get("nic.speed_gbps") != 1


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("两台 8×A800，不是 A100，TP=4。", "gpu.model", "A800"),
    ("It is 10x slower than with NCCL 2.14.3. We are on NCCL 2.16.2, driver 470.161.03.", "nccl.version", "2.16.2"),
    ("It is 10x slower than with NCCL 2.14.3. We are on NCCL 2.16.2, driver 470.161.03.", "gpu.driver_version",
     "470.161.03"),
    ("单机 8 张 5090，驱动 570.124.04 / CUDA 12.8。", "gpu.driver_version", "570.124.04"),
    ("每台 IB 200Gb * 4（双口卡）。", "nic.count", 4),
    ("I have two HGX-A100 with four ConnectX-6 IB cards each at 200Gbps rate.", "job.gpus_per_node", 8),
    ("每台 8 张 NVLink 的 A800，只有 1 张 HDR 200G IB 卡。", "job.gpus_per_node", 8),
    ("I get about 6x the throughput for 8x the compute compared with one 8-GPU node.", "job.speedup", 6),
])
def test_names_versions_and_multipliers(text: str, fact: str, value: object) -> None:
    assert facts(text)[fact] == value


def test_a_threshold_and_a_run_that_behaves_the_same_are_not_the_job() -> None:
    assert facts("两台 HGX 每台 8 卡跑 nccl-tests 只有 44 GB/s，4 台的时候也差不多。")["job.nodes"] == 2
    assert "job.nodes" not in facts("超过 6 台以后 busbw 就掉了。")
    assert "nic.count" not in facts("每台 8 张 H100，网卡是单口还是双口有影响吗？")


def test_a_launcher_line_in_a_code_block_gives_the_counts() -> None:
    text = ("Is 91 GB/s right for these two boxes?\n```\nmpirun -np 16 -H node1:8,node2:8 -bind-to none \\\n"
            "  ./build/all_reduce_perf -b 1G -e 8G -f 2\n```\n")
    got = facts(text)
    assert (got["job.nodes"], got["job.gpus_per_node"]) == (2, 8)


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("用两台 A100 节点（每台 8 张 80G）跑 alpaca 微调。", "job.gpus_per_node", 8),
    ("设备是 32G 的 V100*8，节点间是 IB 网（40Gb）。", "job.gpus_per_node", 8),
    ("设备是 32G 的 V100*8，节点间是 IB 网（40Gb）。", "nic.speed_gbps", 40),
    ("现在单机用 swift 训 Qwen1.8B。", "job.model_params_b", 1.8),
    ("Megatron-LM 训 Mixtral 8x7B，吞吐只有 130 TFLOPS。", "job.moe", True),
])
def test_hardware_and_model_shorthand(text: str, fact: str, value: object) -> None:
    assert facts(text)[fact] == value


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("单机 4xA6000 训练很慢。", "gpu.model", "A6000"),
    ("单机 4xA6000 训练很慢。", "job.gpus_per_node", 4),
    ("a g5.12xlarge with 4x A10G", "gpu.model", "A10G"),
    ("NCCL 2.5 正常，升级到 2.18 之后变慢。", "nccl.version", "2.18"),
    ("两台机器之间是 TCP 网络（没有 RDMA）。", "nccl.transport", "socket"),
])
def test_model_names_versions_and_transport_in_words(text: str, fact: str, value: object) -> None:
    assert facts(text)[fact] == value


def test_tcp_beside_rdma_is_no_socket_transport() -> None:
    assert facts("RoCE v2 RDMA between the nodes; the TCP network is only for ssh.").get("nccl.transport") != "socket"


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("Performance drop from NCCL v2.22 to v2.25; with NCCL_PXN_DISABLE=1 I get ~34GB/s again.\n```\n"
     "# nccl-tests version 2.17.6 nccl-headers=22703\n```", "nccl.allreduce_busbw_gbytes_per_s", 34),
    ("Performance drop from NCCL v2.22 to v2.25 with the RING algorithm.", "nccl.version", "2.25"),
    ("用 KungFu 跑 mnist，单机一个 epoch 2s，两机一个 epoch 要 22s。分布式反而慢了 10 倍。", "job.negative_scaling",
     True),
])
def test_tools_versions_and_slowdowns_said_around_pasted_output(text: str, fact: str, value: object) -> None:
    assert facts(text)[fact] == value


def test_a_ddp_bucket_is_not_object_storage() -> None:
    assert facts("32M、64M、128M 这几个 bucket 大小的性能都很差。").get("job.data_source") != "object_store"


def test_the_jobs_gpu_and_another_gpus_figure() -> None:
    got = facts("单机 8 卡 H800 跑 all_reduce_perf，测出来 allreduce busBW 是 215 GB/s。H800 的 NVLink 单向峰值是 "
                "200 GB/s。GTC 上讲 H100 的 NVLS busbw 能到 480 GB/s。这个 215 正常吗？")
    assert got["gpu.model"] == "H800"
    assert got["nccl.allreduce_busbw_gbytes_per_s"] == 215


@pytest.mark.parametrize("text", [
    "On one server 4 GPUs cut an epoch from 21 hours to 9. When I add 2 GPUs from a second machine the epoch goes up "
    "to about 22 hours.",
    "单机一个 epoch 20 分钟，加了一台机器以后 epoch 反而涨到 35 分钟。",
])
def test_time_that_grows_when_a_machine_is_added(text: str) -> None:
    assert facts(text)["job.negative_scaling"] is True


def test_the_figure_now_is_the_jobs_and_of_the_kind_it_was() -> None:
    got = facts("Early this year the max out-of-place algbw of nccl-tests was 104 Gbps. With EFA 1.7.1 it is 65 Gbps.")
    assert got["nccl.allreduce_algbw_gbytes_per_s"] == pytest.approx(8.125)
    assert "nic.speed_gbps" not in got


def test_one_machines_gpus_are_the_gpus_it_has() -> None:
    assert facts("单机 8 卡 H800 跑 all_reduce_perf，busbw 215 GB/s。")["gpu.count"] == 8
    assert facts("两台机器各用 1 张 GPU 跑 nccl-tests，每台机器 6 张 GPU。")["gpu.count"] == 6  # said apart
    assert "gpu.count" not in facts("2 nodes with 8 A100 each over 100G RoCE.")


def test_the_word_zero_is_no_zero_stage() -> None:
    assert "job.parallelism" not in facts("all_reduce_perf across 4 nodes prints Avg bus bandwidth : 0. Why zero?")
    assert facts("DeepSpeed ZeRO-3 on 2 nodes")["job.parallelism"] == "fsdp"


def test_an_instance_type_gives_its_gpus_unless_the_question_says_otherwise() -> None:
    assert facts("two p3dn.24xlarge over EFA")["job.gpus_per_node"] == 8
    assert facts("4 x p4d.24xlarge, each running 4 GPUs only")["job.gpus_per_node"] == 4


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("用 ib_write_bw 测出来 190 Gb/sec，但是 nccl-tests 只有 8 GB/s。", "net.rdma_bw_gbps", 190),
    ("Throughput: 1 node 3000 tokens/s, 2 nodes 3500 tokens/s.", "job.speedup", pytest.approx(1.1667, abs=1e-3)),
    ("两台机器各 4 张 3090", "gpu.model", "RTX 3090"),
    ("RTX3090 x 2", "gpu.model", "RTX 3090"),
    ("GTX1080 ti", "gpu.model", "GTX 1080 Ti"),
])
def test_units_lists_and_gpu_spellings(text: str, fact: str, value: object) -> None:
    assert facts(text)[fact] == value


def test_asking_how_to_fix_it_keeps_the_symptom_the_jobs() -> None:
    text = ("Two nodes, 8 H100 each; nccl-tests busbw is half of what we expect. We suspect the NIC and the GPU are "
            "on different NUMA nodes — how do we confirm and fix it?")
    assert facts(text).get("gpu.nic_path") == "sys"


@pytest.mark.parametrize(("text", "speed", "rating"), [
    ("网卡是 ConnectX-6 200Gb，但是 ethtool 看协商速率只有 100000Mb/s。", 100, 200),
    ("The link negotiated at 25000Mb/s instead of 100G.", 25, 100),
])
def test_a_negotiated_speed_below_the_rating(text: str, speed: float, rating: float) -> None:
    got = facts(text)
    assert (got["nic.speed_gbps"], got["nic.max_speed_gbps"]) == (speed, rating)


def test_instances_counted_after_the_type() -> None:
    got = facts("We're on GCP a3-highgpu-8g x 4, NCCL falls back to socket.")
    assert (got["job.nodes"], got["job.gpus_per_node"]) == (4, 8)
