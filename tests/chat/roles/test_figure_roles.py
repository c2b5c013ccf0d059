"""Roles and units of figures in prose: which tool or meaning a number belongs to (a NIC's rating, iperf3, perftest,
nccl-tests busbw/algbw, GPU utilisation, communication's share of a step, step times, MTU, RTT, storage reads) and in
which unit. Each case is a sentence shaped like real questions, with what must be read and what must not."""

from __future__ import annotations

import pytest

from tests.matching import stated_facts as facts

ANY = object()  # the fact must be absent, whatever its value




def check(text: str, must: dict[str, float | str], never: dict[str, object]) -> None:
    got = facts(text)
    for fact, value in must.items():
        assert fact in got, f"{fact} not read from {text!r}: {got}"
        if isinstance(value, str):
            assert got[fact] == value, (fact, got)
        else:
            assert got[fact] == pytest.approx(value, rel=0.02), (fact, got)
    for fact, value in never.items():
        if value is ANY:
            assert fact not in got, (fact, got)
        else:
            assert got.get(fact) != pytest.approx(value, rel=0.02), (fact, got)


# A figure said without its unit after the tool or column that printed it is in the tool's own unit.
@pytest.mark.parametrize(("text", "must", "never"), [
    ("the NIC is 100G but iperf3 gives 23", {"nic.speed_gbps": 100, "net.iperf3_gbps": 23}, {}),
    ("all_reduce_perf shows algbw 12 busbw 22",
     {"nccl.allreduce_algbw_gbytes_per_s": 12, "nccl.allreduce_busbw_gbytes_per_s": 22}, {}),
    ("nccl-tests 结果 busbw 6.3, algbw 3.4",
     {"nccl.allreduce_busbw_gbytes_per_s": 6.3, "nccl.allreduce_algbw_gbytes_per_s": 3.4}, {}),
    ("the busbw column shows 23.4 at the 8G size", {"nccl.allreduce_busbw_gbytes_per_s": 23.4},
     {"nic.speed_gbps": ANY}),
    ("官方说能到 400Gb/s，我们 ib_write_bw 只有 200", {"net.rdma_bw_gbps": 200}, {"net.iperf3_gbps": ANY}),
    ("ib_write_bw 只有 11800", {"net.rdma_bw_gbps": 98.99}, {}),  # perftest's MB/sec: 2^20 bytes
    ("iperf 测出来 940 多", {"net.iperf3_gbps": 0.94}, {}),
    ("iperf3 只有 4.2，太低了", {"net.iperf3_gbps": 4.2}, {}),
    ("busbw 一直在 11 左右", {"nccl.allreduce_busbw_gbytes_per_s": 11}, {}),
    ("busbw: 18.5", {"nccl.allreduce_busbw_gbytes_per_s": 18.5}, {}),
    ("network: 10 Gbps ethernet, measured 9.3 with iperf", {"nic.speed_gbps": 10, "net.iperf3_gbps": 9.3}, {}),
    ("We got 8.7 with iperf3 on the 25G link", {"net.iperf3_gbps": 8.7, "nic.speed_gbps": 25}, {}),
])
def test_a_figure_without_its_unit_is_in_its_tools_unit(text: str, must: dict[str, float],
                                                        never: dict[str, object]) -> None:
    check(text, must, never)


# ... and never a count, a version, a port, a flag's argument or a figure wanted.
@pytest.mark.parametrize("text", [
    "iperf3 用了 8 个并发流",
    "iperf3 -P 8 -t 30",
    "iperf3 3.9 版本",
    "iperf3 between node 1 and node 2",
    "iperf3 server on port 5201",
    "iperf 2 and iperf 3 give different numbers",
    "iperf 测试 60 秒",
    "nccl-tests 2 nodes 16 GPUs",
    "nccl-tests 跑了 20 次",
    "nccl-tests with 8 GPUs per node",
    "I ran all_reduce_perf on 2 nodes",
    "nccl-tests 的 -g 1 参数",
    "nccl-tests 参数 -b 8 -e 8G -f 2 -g 1",
    "用 all_reduce_perf -b 1M -e 4G 测的",
    "busbw 是 algbw 的 1.75 倍",
    "busbw 只有理论值的 30%",
    "ib_write_bw 测了 3 对机器",
    "What busbw should I expect on 4 nodes?",
    "iperf3 should give about 23 on this link",
    "busbw 应该能有 40 左右吧",
])
def test_numbers_near_a_tool_that_are_not_its_figure(text: str) -> None:
    got = facts(text)
    for fact in ("net.iperf3_gbps", "net.rdma_bw_gbps", "nccl.allreduce_busbw_gbytes_per_s",
                 "nccl.allreduce_algbw_gbytes_per_s", "nic.speed_gbps"):
        assert fact not in got, (fact, got)


# Which tool measured a figure with a unit, and which figure is the NIC's rating.
@pytest.mark.parametrize(("text", "must", "never"), [
    ("iperf 测下来只有 9.4Gbps，网卡是 25G 的", {"net.iperf3_gbps": 9.4, "nic.speed_gbps": 25}, {}),
    ("perftest 的 ib_read_bw 只有 45Gb/s 左右，网卡 ConnectX-6 200G",
     {"net.rdma_bw_gbps": 45, "nic.speed_gbps": 200}, {"storage.read_gbps": ANY}),
    ("网卡 100G，iperf3 单流 30G，ib_write_bw 92G，busbw 10GB/s",
     {"nic.speed_gbps": 100, "net.iperf3_gbps": 30, "net.rdma_bw_gbps": 92,
      "nccl.allreduce_busbw_gbytes_per_s": 10}, {}),
    ("should be able to reach 90 Gb/s with ib_write_bw, we only see 35 Gb/s",
     {"net.rdma_bw_gbps": 35}, {"nic.speed_gbps": ANY}),
    ("ethtool 显示 Speed 是 25000Mb/s，但卡是 100G 的", {"nic.speed_gbps": 25, "nic.max_speed_gbps": 100},
     {"net.iperf3_gbps": ANY}),
    ("iperf 显示 2.35 GBytes/sec", {"net.iperf3_gbps": 18.8}, {}),
    ("千兆网，iperf 900Mb", {"nic.speed_gbps": 1, "net.iperf3_gbps": 0.9}, {}),
    ("万兆网卡，iperf 测出来 1.2G/s", {"nic.speed_gbps": 10, "net.iperf3_gbps": 9.6}, {}),
    ("the 25G link tops out at 3 GB/s in iperf3", {"nic.speed_gbps": 25, "net.iperf3_gbps": 24}, {}),
    ("HDR 200G 网卡，ib_write_bw 196Gb/s，busbw 却只有 19 GB/s",
     {"nic.speed_gbps": 200, "net.rdma_bw_gbps": 196, "nccl.allreduce_busbw_gbytes_per_s": 19}, {}),
])
def test_the_tool_and_the_rating(text: str, must: dict[str, float], never: dict[str, object]) -> None:
    check(text, must, never)


# A range is read as its middle; a change 'from A to B' as B.
@pytest.mark.parametrize(("text", "must"), [
    ("我们是 25G 的卡，iperf 大概 21-23G", {"nic.speed_gbps": 25, "net.iperf3_gbps": 22}),
    ("nccl-tests 的 busbw 在 8-10 GB/s 之间", {"nccl.allreduce_busbw_gbytes_per_s": 9}),
    ("iperf3 hovers between 3~5 Gbps on 10GbE", {"net.iperf3_gbps": 4, "nic.speed_gbps": 10}),
    ("busbw 从 20 到 6 GB/s 一路往下掉", {"nccl.allreduce_busbw_gbytes_per_s": 6}),
    ("Switched from 10G to 25G NICs and the step time went from 4.2 s to 2.9 s.",
     {"nic.speed_gbps": 25, "job.step_time_s": 2.9}),
    ("升级网卡后每步从 3 秒降到了 1.1 秒", {"job.step_time_s": 1.1}),
    ("iteration time dropped to 0.9 s from 2.4 s", {"job.step_time_s": 0.9}),
    ("GPU 利用率从 95% 掉到了 40%", {"gpu.util_pct": 40}),
])
def test_ranges_and_changes(text: str, must: dict[str, float]) -> None:
    check(text, must, {})


# Percentages of different things: a GPU's utilisation, its memory, a link's utilisation, communication's share.
@pytest.mark.parametrize(("text", "must", "never"), [
    ("GPU 利用率在 0~100 之间跳，平均 50% 左右", {"gpu.util_pct": 50}, {}),
    ("the job uses 80% of GPU memory", {"gpu.mem_used_pct": 80}, {"gpu.util_pct": ANY}),
    ("GPU 利用率 90% 以上，但是网卡只用了 10%", {"gpu.util_pct": 90}, {}),
    ("IB 卡占用 70%，GPU 利用率 50%", {"gpu.util_pct": 50}, {}),
    ("网卡带宽利用率只有 20%，GPU 利用率 60%", {"gpu.util_pct": 60}, {}),
    ("the link is only 40% utilised while GPUs sit at 55%", {"gpu.util_pct": 55}, {}),
    ("通信时间占比大约 30%，GPU 利用率 65%", {"job.comm_time_pct": 30, "gpu.util_pct": 65}, {}),
    ("profiler 显示 NCCL allreduce 占每个 step 的 45%", {"job.comm_time_pct": 45}, {"gpu.util_pct": ANY}),
    ("all-reduce takes 40-50% of each iteration", {"job.comm_time_pct": 45}, {}),
    ("NCCL 通信占比在 20~30% 之间", {"job.comm_time_pct": 25}, {}),
    ("allreduce 占了总时间的 70% 左右", {"job.comm_time_pct": 70}, {}),
    ("NCCL 带宽占比 80%", {}, {"job.comm_time_pct": ANY}),
    ("NCCL bandwidth utilization is 35%", {}, {"job.comm_time_pct": ANY, "gpu.util_pct": ANY}),
    ("scaling efficiency is 60% on 4 nodes", {}, {"gpu.util_pct": ANY, "job.comm_time_pct": ANY}),
])
def test_percentages_of_different_things(text: str, must: dict[str, float], never: dict[str, object]) -> None:
    check(text, must, never)


# MTU, RTT and storage reads in the words people use.
@pytest.mark.parametrize(("text", "must", "never"), [
    ("MTU 设的是 1500，交换机支持 9216", {"nic.mtu": 1500}, {}),
    ("MTU 默认 1500，没开 jumbo", {"nic.mtu": 1500}, {}),
    ("the MTU is set to 9000 on every host", {"nic.mtu": 9000}, {}),
    ("MTU 调大之后 iperf 到了 900Mbps", {"net.iperf3_gbps": 0.9}, {"nic.mtu": ANY}),
    ("latency between the two AZs is ~1.5 ms", {"net.rtt_ms": 1.5}, {}),
    ("between the nodes rtt min/avg/max/mdev = 0.081/0.120/0.310/0.020 ms", {"net.rtt_ms": 0.12}, {}),
    ("allreduce latency is about 8 ms for small messages", {}, {"net.rtt_ms": ANY}),
    ("推理延迟 30ms", {}, {"net.rtt_ms": ANY}),
    ("数据从 OSS 读，大约 500MB/s", {"storage.read_gbps": 4}, {"net.iperf3_gbps": ANY}),
    ("NAS 带宽只有 1Gbps", {"storage.read_gbps": 1}, {"net.iperf3_gbps": ANY, "nic.speed_gbps": ANY}),
    ("从 NAS 读数据 200MB/s", {"storage.read_gbps": 1.6}, {"net.iperf3_gbps": ANY}),
])
def test_mtu_rtt_and_storage(text: str, must: dict[str, float], never: dict[str, object]) -> None:
    check(text, must, never)


# A clause that goes on measuring is of the kind measured just before it, its unit said or not.
@pytest.mark.parametrize(("text", "must", "never"), [
    ("40GbE 的卡，iperf 单线程 12 Gbps，多线程 36 Gbps", {"nic.speed_gbps": 40, "net.iperf3_gbps": 36}, {}),
    ("目标是 iperf 跑到 90G 以上，现在只有 35G", {"net.iperf3_gbps": 35}, {}),
    ("按 NVIDIA 的说法 busbw 应该接近 190GB/s，我们实测 120", {"nccl.allreduce_busbw_gbytes_per_s": 120}, {}),
    ("iperf3 reverse mode gets 9.1 Gbps, forward only 3.3", {"net.iperf3_gbps": 3.3}, {}),
    ("换成 100G 之后 busbw 也就 9GB/s", {"nic.speed_gbps": 100, "nccl.allreduce_busbw_gbytes_per_s": 9}, {}),
    ("iperf 只有 9.4G，机房说是 25G 的", {"net.iperf3_gbps": 9.4}, {"net.iperf3_gbps": 25}),
    ("iperf reports 112 MBytes/sec on the gigabit link", {"net.iperf3_gbps": 0.896, "nic.speed_gbps": 1}, {}),
    ("a plain GigE switch between the boxes", {"nic.speed_gbps": 1}, {}),
    ("ten gigabit ethernet between the nodes", {"nic.speed_gbps": 10}, {}),
])
def test_a_clause_that_goes_on_measuring(text: str, must: dict[str, float], never: dict[str, object]) -> None:
    check(text, must, never)


# Step times and their rates in the words people use; shares of time are not utilisation.
@pytest.mark.parametrize(("text", "must", "never"), [
    ("单步耗时 1.2 秒左右", {"job.step_time_s": 1.2}, {}),
    ("每秒 2.5 个 step", {"job.step_time_s": 0.4}, {}),
    ("forward 200ms、backward 400ms，整个 step 1.5s", {"job.step_time_s": 1.5}, {}),
    ("每一步大概 900 毫秒", {"job.step_time_s": 0.9}, {}),
    ("one epoch takes 3 hours on 4 nodes", {}, {"job.step_time_s": ANY}),
    ("NCCL allreduce is 65% of the GPU time in the trace", {"job.comm_time_pct": 65}, {"gpu.util_pct": ANY}),
    ("ping 的 RTT 在 0.1 到 0.3ms 之间", {"net.rtt_ms": 0.2}, {}),
    ("跨可用区，ping 大概 1~2 毫秒", {"net.rtt_ms": 1.5}, {}),
])
def test_step_times_and_shares_of_time(text: str, must: dict[str, float], never: dict[str, object]) -> None:
    check(text, must, never)


# What goes on measuring and what does not: a link 'we only have', traffic during training, a NIC's monitored peak.
@pytest.mark.parametrize(("text", "must", "never"), [
    ("iperf3 shows 9.4 Gbps, but we only have 10G", {"net.iperf3_gbps": 9.4, "nic.speed_gbps": 10}, {}),
    ("iperf 测出来 9G，实际训练只用了 2G", {"net.iperf3_gbps": 9}, {"nic.speed_gbps": ANY}),
    ("busbw 3GB/s，现在只有 2 台机器", {"nccl.allreduce_busbw_gbytes_per_s": 3}, {}),
    ("busbw 12GB/s，实际训练的时候网卡流量只有 3GB/s", {"nccl.allreduce_busbw_gbytes_per_s": 12}, {}),
    ("流量监控看网卡峰值 2.5Gbps，平均 800Mbps", {"nic.rx_gbps": 0.8}, {"nic.speed_gbps": ANY}),
    ("8 rails of 400G, 3.2T per node", {"nic.speed_gbps": 400, "nic.count": 8}, {}),
    ("一个 iter 5s 左右，单机才 1.2s", {"job.step_time_s": 5, "job.step_time_baseline_s": 1.2}, {}),
    ("从 HDFS 拉数据只有 30MB/s", {"storage.read_gbps": 0.24}, {"net.iperf3_gbps": ANY}),
    ("I'm only seeing 2.1 GB/s bus bandwidth on a 200G fabric",
     {"nccl.allreduce_busbw_gbytes_per_s": 2.1, "nic.speed_gbps": 200}, {}),
    ("nccl-test 结果里 busbw 最大也就 2.3，网络是 25G RoCE",
     {"nccl.allreduce_busbw_gbytes_per_s": 2.3, "nic.speed_gbps": 25}, {}),
])
def test_what_goes_on_measuring_and_what_does_not(text: str, must: dict[str, float], never: dict[str, object]) -> None:
    check(text, must, never)


# A percentage in another run's clause is the same subject's; a share of GPUs is no utilisation; a sweep's sizes
# are no rate.
@pytest.mark.parametrize(("text", "must", "never"), [
    ("单机 GPU 利用率 95%，多机只有 40%", {"gpu.util_pct": 40}, {}),
    ("GPU util is 90% on one node, on 4 nodes only 35%", {"gpu.util_pct": 35}, {}),
    ("GPU 利用率 80%，显存 70%", {"gpu.util_pct": 80, "gpu.mem_used_pct": 70}, {}),
    ("80% of the GPUs are idle", {}, {"gpu.util_pct": 80}),
    ("busbw 在 1G 以上的消息就稳定了", {}, {"nccl.allreduce_busbw_gbytes_per_s": ANY}),
    ("busbw 在 2M 以下很低", {}, {"nccl.allreduce_busbw_gbytes_per_s": ANY}),
    ("nccl-tests 测了 3 遍，busbw 都在 7 左右", {"nccl.allreduce_busbw_gbytes_per_s": 7}, {}),
    ("latency of the checkpoint save is 300 ms", {}, {"net.rtt_ms": ANY}),
    ("NCCL 的延迟大概 20 us 左右，ping 是 0.2 ms", {"net.rtt_ms": 0.2}, {}),
])
def test_percentages_and_sizes_in_other_roles(text: str, must: dict[str, float], never: dict[str, object]) -> None:
    check(text, must, never)


# Throughput as time per step in every spelling, and model sizes in millions named after the model word.
@pytest.mark.parametrize(("text", "must", "never"), [
    ("training runs at 2.1 sec/it", {"job.step_time_s": 2.1}, {}),
    ("about 450 ms/step on 2 nodes", {"job.step_time_s": 0.45}, {}),
    ("0.8 it/sec", {"job.step_time_s": 1.25}, {}),
    ("12.5 samples/sec per GPU", {}, {"job.step_time_s": ANY}),
    ("model: 340M, data: 20M samples", {"job.model_params_b": 0.34}, {}),
    ("模型大小 350M", {"job.model_params_b": 0.35}, {}),
    ("模型 300M 的权重文件", {}, {"job.model_params_b": ANY}),
    ("模型文件 300M", {}, {"job.model_params_b": ANY}),
    ("we train a 13B llama on 2T tokens", {"job.model_params_b": 13}, {}),
    ("训练数据 3000亿 tokens，模型 65B", {"job.model_params_b": 65}, {}),
])
def test_step_rates_and_model_sizes(text: str, must: dict[str, float], never: dict[str, object]) -> None:
    check(text, must, never)
