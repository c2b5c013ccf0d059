"""The forms of the tuning slices s31/s32: machines compared with each other, batch sizes said with a verb or an
adverb, a step named before a hedge, a framework's per-iteration timer, figures quoted from a FAQ or docs, a driver
version no name holds, and systems timed side by side. Each family has its positive forms and its traps; None must
not be read."""

from __future__ import annotations

import pytest

from tests.matching import check_stated as _check
from tests.matching import stated_facts as facts


@pytest.mark.parametrize(("text", "expected"), [
    # two machines of different GPUs set against each other: two single-machine runs, no 2-node job
    ("我有两台服务器，一台 8×H100，一台 8×A100，两台上用同样的命令跑 YOLOX，H100 那台反而更慢。",
     {"job.nodes": None, "job.gpus_per_node": 8}),
    ("I have two servers, one with 8 H100s and another with 8 A100s. The same script is slower on the H100 one.",
     {"job.nodes": None, "job.gpus_per_node": 8}),
    ("Two boxes, one has 8 A100s and the other has 8 H100s; why is the H100 box slower than the A100 box?",
     {"job.nodes": None}),
    # traps: one job said to run across them keeps its machines
    ("我有两台服务器，一台 8×H100，一台 8×A100，想做多机训练，两台一起跑很慢。", {"job.nodes": 2}),
    ("Two nodes, one with 8 H100s and one with 8 A100s, multi-node training with torchrun is slow.", {"job.nodes": 2}),
    # … and machines of the same GPUs compared with one machine are the job's two nodes
    ("两台机器，一台 8 卡 A100，另一台 8 卡 A100，两台训练比单机慢。", {"job.nodes": 2}),
])
def test_machines_compared_with_each_other(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


@pytest.mark.parametrize("text", [
    "两台机器：一台是 4 张 V100，另一台是 4 张 A100，同样的配置 A100 那台只快了 10%。",
    "We compared an 8xH100 server with an 8xA100 server: H100 is slower than A100 on the same command.",
])
def test_each_compared_machine_is_a_run_of_one(text: str) -> None:
    assert facts(text).get("job.nodes") in (None, 1)


MBS = "job.micro_batch_size"


@pytest.mark.parametrize(("text", "expected"), [
    ("I can only set the batch size to 8, which makes training take much longer.", {MBS: 8}),
    ("I use 7 GPUs on each node with batch size 8.", {MBS: 8}),  # the figure ends the sentence
    ("batch_size 只能设置为 2，超过 2 就 out of memory。", {MBS: 2}),
    ("两边的 per device batch size 都是 8，梯度累积设为 1。", {MBS: 8}),
    ("batch size 也是 16，没有改。", {MBS: 16}),
    # traps: a figure that goes on ('8.5'), a size in tokens, a total
    ("with batch size 8.5", {MBS: None}),
    ("the batch size is set to 4096 tokens", {MBS: None}),
    ("global batch size 256", {MBS: None}),
])
def test_batch_size_said_with_a_verb_or_an_adverb(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


STEP, BASE = "job.step_time_s", "job.step_time_baseline_s"


@pytest.mark.parametrize(("text", "expected"), [
    # the step named as the subject, a hedge before the figure: the larger run's time is the job's
    ("One iteration takes about 4 seconds on 1 GPU, and about 5 seconds on 2 GPUs.", {STEP: 5, BASE: 4}),
    ("One step takes roughly 0.8 seconds on one node and 1.5 seconds on two nodes.", {STEP: 1.5, BASE: 0.8}),
    # trap: a whole epoch is no step
    ("An epoch takes about 40 minutes on 1 GPU and about 30 minutes on 2 GPUs.", {STEP: None}),
])
def test_step_named_before_a_hedge(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


@pytest.mark.parametrize(("text", "expected"), [
    # a framework's per-iteration timer named in words
    ("单卡 V100 训练识别模型，batch_cost 平均要 2 秒，有没有办法加快？", {STEP: 2}),
    ("batch_time is about 0.5 s per iteration on 8 GPUs", {STEP: 0.5}),
    # traps: the timer explained without a figure; the loader's share is no step
    ("batch_cost 包括模型前向和反向梯度更新的时间。", {STEP: None}),
    ("reader_cost 已经很小了，只有 0.01 秒。", {STEP: None}),
])
def test_a_frameworks_timer_named(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


@pytest.mark.parametrize(("text", "expected"), [
    # a figure quoted from a FAQ or the docs is their run's, not the job's
    ("单卡 V100 训练。FAQ 里说 4 卡 500W 数据训练 1 个星期，我这个要训练半年！", {"job.gpus_per_node": 1}),
    ("I train on 2 GPUs. The FAQ says 8 GPUs train it in 3 days.", {"job.gpus_per_node": 2}),
    ("我们只有单机 4 卡。教程里写的是 8 卡训练 2 天。", {"job.gpus_per_node": 4}),
    # traps: the asker's own run said beside the FAQ stays
    ("按照 FAQ 调了参数，4 卡训练还是很慢。", {"job.gpus_per_node": 4}),
    ("FAQ 里说要调 num_workers，我们 8 卡训练还是很慢。", {"job.gpus_per_node": 8}),
])
def test_figures_quoted_from_a_faq_or_docs(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


DRV = "gpu.driver_version"


@pytest.mark.parametrize(("text", "expected"), [
    ("7 卡 3090，NVIDIA-SMI 455.28，Driver Version: 455.28，CUDA Version: 11.1。", {DRV: "455.28"}),
    ("驱动版本 525.60，CUDA 12.0，两台机器训练很慢。", {DRV: "525.60"}),
    ("driver version is 470.57 on both nodes", {DRV: "470.57"}),
    ("Driver Version: 535.104.05   CUDA Version: 12.2", {DRV: "535.104.05"}),
    # traps: CUDA's version and the nvidia-smi tool's are no driver's said
    ("CUDA Version: 11.1", {DRV: None}),
    ("NVIDIA-SMI 455.28", {DRV: None}),
])
def test_driver_version_said(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


@pytest.mark.parametrize(("text", "expected"), [
    # systems timed side by side, none complained of: a benchmark of others, no step time of one job
    ("colossalai gemini 的 step_time：19.2s，Deepspeed 的 step time：24-25s，"
     "Deepspeed 开了 offload：step_time 为 27s 左右。", {STEP: None}),
    ("Megatron 1.2 s/it, DeepSpeed 2.5 s/it on the same 2 nodes.", {STEP: None}),
    # traps: the one complained of is the asker's; one system alone is the job's
    ("DeepRec 1.8s/step，Nvidia-TF 0.55s/step。DeepRec 的性能不符合预期。", {STEP: 1.8}),
    ("Deepspeed 的 step time：24s，显存占用 51438MB。", {STEP: 24}),
])
def test_systems_timed_side_by_side(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)
