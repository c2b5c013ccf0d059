"""What a job uses against what its machines have: the GPUs a
machine has against those the job runs on ('H800 8 卡 * 2 … 双节点单卡', 'h800*4 … 每台两块空卡'), a load said as a
bound and then its usual level, a whole node's fabric said as one figure, a model's size inside a launcher's model
id, the NCCL version said for every machine at once, data loading said as a wait or as a data time that rises, a
checkpoint's overhead and a change only weighed, and the cables of the links with their length.

Written for this battery (not copied from the corpus), in English and in Chinese, with the numbers and words beside
them that must not be read (None).
"""

from __future__ import annotations

import pytest

from bwdoctor.chat import answer_turn
from bwdoctor.chat.extract import extract_facts
from tests.matching import fact_problems

N, G, CNT = "job.nodes", "job.gpus_per_node", "gpu.count"
BN = "job.baseline_nodes"
UTIL, CPU = "gpu.util_pct", "cpu.util_pct"
SPEED, NICS = "nic.speed_gbps", "nic.count"
SIZE, VER = "job.model_params_b", "nccl.version"
DATA, CKPT, TARGET = "job.data_loading_slow", "job.checkpoint_slow", "job.checkpoint_target"
CABLE, LENGTH = "nic.cable", "nic.cable_length_m"

CASES: list[tuple[str, dict[str, object]]] = [
    # --- the GPUs a machine has, and those the job uses
    ("想搭双节点单卡的多机训练，用 IB 通信，卡住不动。环境：H800 8 卡 * 2，cuda 12.1", {N: 2, G: 1, CNT: 8, BN: None}),
    ("环境：A800 8 卡 * 2。我们做两机单卡的测试，NCCL 初始化就挂了", {N: 2, G: 1, CNT: 8}),
    ("双机单卡训练很慢，走的是千兆网", {N: 2, G: 1, BN: None}),
    ("硬件：CUDA 11.8，GPU 是 h800*4，两台服务器，每台两块空卡，多机报错", {N: 2, G: 2, CNT: 4}),
    ("两台机器，每台 8 张 A100，每台只有两张空闲的卡可以用", {N: 2, G: 2, CNT: 8}),
    ("两台服务器，每台有两张空闲的卡", {N: 2, G: 2}),
    ("2 servers with 8 GPUs each, but only 2 free GPUs on each", {N: 2, G: 2, CNT: 8}),
    ("Two nodes with 4 A100s each; 2 idle GPUs per node are left for our job", {N: 2, G: 2, CNT: 4}),
    # (what stays: the machines' GPUs alone, and a plain shape with no inventory)
    ("两台服务器，每台两块卡", {N: 2, G: 2, CNT: None}),
    ("环境：2 台 8 卡 A100，每台只用 4 张", {N: 2, G: 4}),
    ("2 nodes x 8 H100, NCCL over 400G IB", {N: 2, G: 8, CNT: None}),
    # --- a load said as a bound, then its usual level
    ("the GPU usage is not above 55%, and most of the time it is less than 10%", {UTIL: 10.0, BN: None}),
    ("GPU utilization never goes above 60%, mostly around 20%", {UTIL: 20.0}),
    ("GPU 利用率最高不超过 55%，大部分时间低于 10%", {UTIL: 10.0}),
    ("GPU 利用率不到 30%，多数时候在 5% 左右", {UTIL: 5.0}),
    ("CPU usage doesn't go above 50%, usually about 20%", {CPU: 20.0}),
    # (a bound alone is the only figure there is)
    ("GPU 利用率不超过 50%", {UTIL: 50.0}),
    ("GPU util is at most 40%", {UTIL: 40.0}),
    # --- a whole node's fabric, one figure
    ("4 nodes of 8x H100 SXM5, 3.2 Tbps InfiniBand per node, NCCL 2.24.3", {N: 4, G: 8, SPEED: None}),
    ("each node has 3200 Gbps of InfiniBand, 2 nodes", {SPEED: None}),
    ("每台机器 3.2Tbps 的 IB 带宽，两台 8 卡 H800", {SPEED: None, N: 2}),
    ("2 nodes (8x H100 each) with 3.2 Tbps EFA", {N: 2, G: 8, SPEED: None}),
    # (the rails said one by one are read, and a single port at its rate)
    ("8x400G IB per node, 2 nodes", {SPEED: 400.0, NICS: 8}),
    ("NDR 400G InfiniBand between 2 nodes", {SPEED: 400.0}),
    ("800G XDR InfiniBand, 2 nodes", {SPEED: 800.0}),
    # --- the NCCL version said for every machine at once
    ("两台机器的 NCCL 版本都是 2.8.4，CUDA 版本主机是 11.2、从机 11.1", {VER: "2.8.4"}),
    ("nccl 版本均为 2.21.5，驱动 535", {VER: "2.21.5"}),
    ("NCCL versions are both 2.18.1, CUDA 12.1", {VER: "2.18.1"}),
    ("the NCCL version on both nodes is 2.19.3", {VER: "2.19.3"}),
    ("NCCL 版本都是最新的，cuda 12.1", {VER: None}),
    # --- slow data loading said as a wait, or as a data time that rises
    ("the model waits about 2 minutes for data loading every 20 batches", {DATA: True}),
    ("Profiling shows the GPU idle 70% of the time, waiting for data rather than computing", {DATA: True}),
    ("each step stalls for a second on the next batch", {DATA: True}),
    ("每 20 个 batch 要等 2 分钟加载数据", {DATA: True}),
    ("GPU 大部分时间在等待数据", {DATA: True}),
    ("the data time goes up after several iterations, from 0.04 s to 8.6 s", {DATA: True}),
    ("训练几百步之后 data_time 变得很大", {DATA: True}),
    ("数据加载时间突然变长，每个 step 从 0.2 秒变成 8 秒", {DATA: True}),
    # (the PyTorch ImageNet example's meter lines, pasted: their data time against the step)
    ("DALI ResNet-50 on 8 V100, the data time jumps:\n"
     "    Epoch: [1][80/5005]   Time 0.168 (0.176)   Data 0.046 (0.044)\n"
     "    Epoch: [1][120/5005]  Time 8.955 (1.784)   Data 8.831 (1.654)\nWhy?", {"job.data_wait_pct": 92.71}),
    ("两台机器训练很慢，日志：\nEpoch: [0][10/625]  Time 1.200 (1.150)  Data 0.010 (0.012)  Loss 6.9\n"
     "Epoch: [0][20/625]  Time 1.180 (1.160)  Data 0.011 (0.012)  Loss 6.8\n是网络的问题吗？",
     {"job.data_wait_pct": 1.03, N: 2, DATA: None}),
    # (no wait for data: another wait, one denied, or one asked about)
    ("the GPUs are not waiting for data", {DATA: None}),
    ("the ranks wait for the all-reduce to finish", {DATA: None}),
    ("we wait for the data parallel group to sync", {DATA: None}),
    ("is the GPU waiting for data, or for the network?", {DATA: None}),
    ("the all-reduce stalls on data transfer between nodes", {DATA: None}),
    ("jobs wait for batch jobs in the queue before they start", {DATA: None}),
    # --- a checkpoint's overhead, and a change only weighed
    ("checkpointing added a lot of overhead to the run", {CKPT: True}),
    ("保存 checkpoint 的开销很大", {CKPT: True}),
    ("checkpointing adds little overhead", {CKPT: None}),
    ("does checkpointing add a lot of overhead?", {CKPT: None}),
    ("We write checkpoints straight to a mounted cloud bucket. The change we are considering: checkpoint to the local "
     "disk instead", {TARGET: "network"}),
    # --- a model's size inside a launcher's model id (a family's version is no size)
    ("swift sft --model_type internvl2-26b --sft_type lora --deepspeed default-zero3", {SIZE: 26.0}),
    ("swift sft --model_type qwen2-7b-instruct --sft_type lora", {SIZE: 7.0}),
    ("swift sft --model_id_or_path qwen/Qwen1.5-32B-Chat --sft_type lora", {SIZE: 32.0}),
    ("swift sft --model_type internvl2 --sft_type lora", {SIZE: None}),
    ("python train.py --model_type llama --hidden_size 4096", {SIZE: None}),
    # --- the cables of the links, and how long they run
    ("NDR 400G InfiniBand cabled with passive copper DACs; on the runs longer than 5 meters all-reduce is 40% lower",
     {CABLE: "passive_copper", LENGTH: 5.0, SPEED: 400.0}),
    ("100G RoCE 用的 7 米 DAC 线，nccl-tests busbw 偏低", {CABLE: "passive_copper", LENGTH: 7.0}),
    ("交换机到服务器用的是无源铜缆，线长 3 米，200G HDR", {CABLE: "passive_copper", LENGTH: 3.0}),
    ("the 200G links use AOC cables, 10 m runs", {CABLE: "optical", LENGTH: 10.0}),
    ("we replaced the 5 m DACs with AOC and the 200G links are fine now", {CABLE: "optical"}),
    ("active copper cables between the leaf switch and the nodes", {CABLE: "active_copper"}),
    # (no cable said: a length is no reading; two kinds, none the one changed to, neither)
    ("the servers are 5 m apart, 100G RoCE", {CABLE: None, LENGTH: None}),
    ("some links are DAC and some are AOC", {CABLE: None}),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_usage_read(engine, text: str, expected: dict[str, object]) -> None:
    assert fact_problems(answer_turn(text, engine=engine), expected) == []


def _categories(out: dict[str, object]) -> set[str]:
    findings = out["findings"]
    assert isinstance(findings, list)
    return {f.get("category") for f in findings}


# The reasoning the readings lead to: a GPU waiting for data is the input pipeline, a passive copper run too long for
# its rate a degraded link; a short passive run, or optics, is no such finding.
REASONED: list[tuple[str, str, bool]] = [
    ("Profiling shows the GPU (an RTX 3090) idle 70-92% of the time, waiting for data rather than computing. "
     "num_workers=2, about 3 it/s.", "input-pipeline-cpu", True),
    ("When I use the ImageNet training code the model waits about 2 minutes for data loading every 20 batches.",
     "input-pipeline-cpu", True),
    ("单机 4 卡训练，每 20 个 batch 要等 2 分钟加载数据", "input-pipeline-cpu", True),
    ("NDR 400G InfiniBand, cabled with cheap passive copper DACs. On the cable runs longer than 5 meters, all-reduce "
     "throughput came out about 40% lower than expected, although every link comes up.", "link-degraded", True),
    ("两台 8 卡机器，100G RoCE，用的 7 米 DAC 线，nccl-tests busbw 只有预期的六成", "link-degraded", True),
    ("NDR 400G InfiniBand, 1 m passive copper DACs inside the rack, 2 nodes", "link-degraded", False),
    ("NDR 400G InfiniBand with 10 m AOC cables, 2 nodes", "link-degraded", False),
]


@pytest.mark.parametrize(("text", "category", "reached"), REASONED)
def test_usage_reasoned(engine, text: str, category: str, reached: bool) -> None:
    assert (category in _categories(answer_turn(text, engine=engine))) is reached


# The layer below: the extractors alone, on the masked prose as the reader sees it.
@pytest.mark.parametrize(("text", "fact", "value"), [
    ("the GPU usage is not above 55%, and most of the time it is less than 10%", UTIL, 10.0),
    ("GPU 利用率最高不超过 55%，大部分时间低于 10%", UTIL, 10.0),
    ("4 nodes, 3.2 Tbps InfiniBand per node", SPEED, None),
    ("8x400G IB per node", SPEED, 400.0),
    ("the model waits about 2 minutes for data loading", DATA, True),
    ("checkpointing added a lot of overhead to the run", CKPT, True),
    ("cabled with passive copper DACs, runs of 5 m", LENGTH, 5.0),
])
def test_usage_extractors(text: str, fact: str, value: object) -> None:
    got = [h.value for h in extract_facts(text) if h.fact == fact and not h.weak]
    assert (got[-1] if got else None) == value
