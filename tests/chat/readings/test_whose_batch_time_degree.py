"""Reader (the forms of tune_s34): whose batch, whose time, which run and which degree a question is about.

  - a total said after the GPUs' batch ('每个卡 batch_size = 16，共 64') is the global batch; a share each GPU gets
    ('每个 GPU 只分到 16') makes the bare batch it divides the global one;
  - scripts grown from PyTorch's ImageNet example (`--multiprocessing-distributed`) take `-b` for all GPUs;
  - a part of the step named between the step's words and its figure ('每步梯度 AllReduce 要 557 ms') is that
    part's time;
  - the larger run said slower with the smaller unsaid ('分布式更慢了') is negative scaling;
  - a degree said before its letters ('256 EP on 32 nodes') is that degree;
  - 'seq_length 是 256' is a sequence length; 'most of the time is spent loading data' says the loader lags;
  - machines counted before a colon ('两台机器：一台做 ps …') stay counted; the roles with 'ps' name a PS job.
None means the fact must not be read with that value (or at all).
"""

from __future__ import annotations

import pytest

from tests.matching import check_stated as _check

MICRO, GLOBAL, STEP = "job.micro_batch_size", "job.global_batch_size", "job.step_time_s"
NEG, EP, TP, PP = "job.negative_scaling", "job.ep_degree", "job.tp_degree", "job.pp_degree"
SEQ, LOADING, NODES, PS = "job.seq_len", "job.data_loading_slow", "job.nodes", "job.comm_pattern"


@pytest.mark.parametrize(("text", "expected"), [
    ("4 卡（每个卡 batch_size = 16，共 64），预计耗时也是 4 天。", {MICRO: 16, GLOBAL: 64}),
    ("每卡 bs 16，共 64。", {MICRO: 16, GLOBAL: 64}),
    ("batch size 8 per GPU, 64 in total, on 8 GPUs.", {MICRO: 8, GLOBAL: 64}),
    ("batch size 32 per GPU (total 256).", {MICRO: 32, GLOBAL: 256}),
    ("batch_size 是 64，每个 GPU 只分到 16。", {GLOBAL: 64, MICRO: None}),
    ("batch size 64 on 4 GPUs, so each GPU only gets 16.", {GLOBAL: 64}),
    # traps: a count of GPUs, tokens or a figure that is no sum of the batch after the word
    ("batch size 16，共 64 张卡。", {GLOBAL: None}),
    ("batch size 16, total 4096 tokens.", {GLOBAL: None}),
    ("batch size 16，共 50 个 epoch。", {GLOBAL: None}),
    ("batch size 16，每个 GPU 分到 3 个进程。", {GLOBAL: None}),
])
def test_a_total_or_a_share_names_the_global_batch(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


@pytest.mark.parametrize(("text", "expected"), [
    ("python main_moco.py -a resnet18 -b 1024 --multiprocessing-distributed --world-size 1 --rank 0 ../data/",
     {GLOBAL: 1024, MICRO: None}),
    ("python main_simsiam.py -a resnet50 --batch-size 512 --multiprocessing-distributed --dist-url tcp://localhost:1",
     {GLOBAL: 512, MICRO: None}),
    # trap: without the ImageNet example's flag a bare -b in a DDP script is each process's
    ("torchrun --nproc_per_node 8 train.py -b 64", {GLOBAL: None}),
])
def test_the_imagenet_example_takes_the_batch_for_all_gpus(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


@pytest.mark.parametrize(("text", "expected"), [
    ("每步梯度 AllReduce 要 557 ms，而反向计算的窗口只有 336 ms。", {STEP: None}),
    ("每个 step 通信要 2 秒。", {STEP: None}),
    ("Each step the all-reduce takes 1.8 s.", {STEP: None}),
    ("每步反向 336 ms。", {STEP: None}),
    # the step's own time stays
    ("每步要 557 ms。", {STEP: 0.557}),
    ("Each step takes 1.8 s, of which NCCL is 0.9 s.", {STEP: 1.8}),
    ("step time 2.5 s", {STEP: 2.5}),
])
def test_a_part_of_the_step_is_not_the_step(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


@pytest.mark.parametrize(("text", "expected"), [
    ("分布式更慢了：相同数据、相同参数。", {NEG: True}),
    ("分布式反而更慢了。", {NEG: True}),
    ("多机训练变慢了，单机没问题。", {NEG: True}),
    ("Distributed training is even slower.", {NEG: True}),
    # traps: asked, wondered, negated, or short of a target
    ("分布式会不会更慢？", {NEG: None}),
    ("分布式更慢吗？", {NEG: None}),
    ("如果分布式更慢，怎么办？", {NEG: None}),
    ("分布式训练没有更慢。", {NEG: None}),
    ("Is distributed training slower?", {NEG: None}),
    ("Distributed training is slower than expected.", {NEG: None}),
])
def test_the_larger_run_said_slower_alone(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


@pytest.mark.parametrize(("text", "expected"), [
    ("With 256 EP on 32 nodes (8 GPUs per node) the bandwidth drops.", {EP: 256}),
    ("We run 8 TP and 4 PP on 4 nodes.", {TP: 8, PP: 4}),
    ("16 EP across 2 nodes", {EP: 16}),
    # traps: a figure of a degree named before it, a glued name, a lower-case word
    ("TP 8 PP 2 on 2 nodes", {TP: 8, PP: 2}),
    ("DP 4 TP 2 on 8 GPUs", {TP: 2}),
    ("we have 4 ep files", {EP: None}),
])
def test_a_degree_said_before_its_letters(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


@pytest.mark.parametrize(("text", "expected"), [
    ("batch_size 是 64，seq_length 是 256。", {SEQ: 256}),
    ("max_seq_length 512", {SEQ: 512}),
    ("sequence_length = 2048", {SEQ: 2048}),
    ("sequence length 2048 和 4096 哪个快？", {SEQ: None}),
    ("Most of the training time is spent loading data, so the GPUs idle.", {LOADING: True}),
    ("Most of the time is spent in the dataloader.", {LOADING: True}),
    ("Most of the time is not spent loading data.", {LOADING: None}),
    ("Is most of the time spent loading data?", {LOADING: None}),
])
def test_a_length_by_its_setting_name_and_time_spent_loading(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


@pytest.mark.parametrize(("text", "expected"), [
    ("两台机器：一台做 ps（CUDA_VISIBLE_DEVICES='0'，一块 Tesla K40c），另一台做 worker（--num_gpus=4）。",
     {NODES: 2, PS: "parameter_server"}),
    ("两台机器：一台做 ps，另一台做 worker。", {NODES: 2, PS: "parameter_server"}),
    ("两台机器：一台是 A100，另一台是 V100。", {NODES: 2}),
    ("三台服务器：一台做 scheduler，另外两台做 worker。", {PS: "parameter_server"}),
    # the label forms stay
    ("节点：4 台", {NODES: 4}),
    ("机器 4 台", {NODES: 4}),
    # trap: a ps word that is no role ('ps aux' lists processes)
    ("两台机器：一台跑 ps aux 看进程，另一台在训练。", {PS: None}),
])
def test_machines_counted_before_a_colon_and_roles(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)
