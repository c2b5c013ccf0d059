"""Readings found in real tuning threads in session 8: the figure wanted from a NIC, parts of a time beside the whole,
model sizes in config names, one server named in the singular, a scaling efficiency said as a share."""

from __future__ import annotations

import pytest

from bwdoctor.chat import answer_turn, understand


def facts(text: str) -> dict[str, object]:
    return {u.fact: u.value for u in understand(text).understood}


IPERF = """How do I actually get 100 Gb/s out of a Mellanox ConnectX-5? iperf3 stays at two thirds of the line rate:
```
[SUM]   0.00-360.00 sec  2.72 TBytes  66.4 Gbits/sec  19545340             sender
[SUM]   0.00-360.00 sec  2.72 TBytes  66.4 Gbits/sec                  receiver
```"""


def test_the_figure_wanted_from_a_nic_below_its_line_rate_is_its_speed() -> None:
    got = facts(IPERF)
    assert got["nic.speed_gbps"] == 100 and got["net.iperf3_gbps"] == 66.4


def test_a_figure_wanted_without_a_line_rate_is_no_link_speed() -> None:
    got = facts("How do I get 90 Gb/s with iperf3 between the two nodes? We measure 40 Gbits/sec.")
    assert got.get("nic.speed_gbps") is None and got["net.iperf3_gbps"] == 40


@pytest.mark.parametrize(("text", "whole"), [
    ("The whole save_checkpoint() took 427 seconds, and create_checkpoint_file() alone took 373 seconds (87% of the "
     "total).", 427),
    ("保存一次 checkpoint 总共要 600 秒，其中写文件就占了 480 秒。", 600),
])
def test_a_part_of_a_time_is_not_the_whole(text: str, whole: float) -> None:
    assert facts(text)["job.checkpoint_save_s"] == whole


@pytest.mark.parametrize(("text", "size"), [
    ("Training dmoe_760m on 16 GPUs (2 nodes) is very slow per iteration.", 0.76),
    ("We pretrain gpt2-1.5b with DDP on two machines.", 1.5),
    ("跑 pythia-410m，两台机器 16 卡，速度上不去。", 0.41),
])
def test_a_config_name_carries_the_model_size(text: str, size: float) -> None:
    assert facts(text)["job.model_params_b"] == size


def test_a_name_before_an_instance_type_keeps_its_own_words() -> None:
    out = understand("Reproducing the ResNet-50 benchmark on AWS p3.16xlarge (V100) instances.")
    light = next(u for u in out.understood if u.fact == "job.light_compute")
    assert light.text == "ResNet-50"


@pytest.mark.parametrize("text", [
    "Why is the NCCL all_reduce_perf so low on our RTX 4090 server? No NVLink, the GPUs sit behind two sockets.",
    "nccl-tests on my workstation with 4 RTX 3090 gives only 6 GB/s busbw.",
])
def test_one_server_named_in_the_singular_is_one_machine(text: str) -> None:
    assert facts(text)["job.nodes"] == 1


@pytest.mark.parametrize("text", [
    "After adding one more node, the step time went up.",
    "Our server talks to the other server over 25GbE and all-reduce is slow.",
    "The machine has 8 GPUs; iperf3 to its peer shows 9.4 Gbits/sec.",
])
def test_a_second_machine_in_view_is_no_single_machine(text: str) -> None:
    assert facts(text).get("job.nodes") != 1


@pytest.mark.parametrize(("text", "pct"), [
    ("4台机器扩展效率只有 55%，是不是网络的问题", 55),
    ("Scaling efficiency is only 62% on 4 nodes of 8 A100.", 62),
    ("We get 70% of linear scaling on 4 nodes.", 70),
])
def test_a_scaling_efficiency_said_is_read(text: str, pct: float) -> None:
    assert facts(text)["job.scaling_efficiency_pct"] == pct


@pytest.mark.parametrize("text", [
    "Our goal is 90% scaling efficiency past 160 GPUs.",
    "希望扩展效率能达到 90% 以上。",
])
def test_a_scaling_efficiency_wanted_is_not_measured(text: str) -> None:
    assert "job.scaling_efficiency_pct" not in facts(text)


def test_a_stated_efficiency_is_kept_and_not_reported_as_ignored(engine) -> None:
    out = answer_turn("4台机器扩展效率只有 55%，是不是网络的问题？", engine=engine)
    assert out["facts"]["job.scaling_efficiency_pct"] == 55
    assert "ignored" not in out["answer"] and "忽略" not in out["answer"]
    assert "comm-bound" in {f["category"] for f in out["findings"]}
