"""Reader (the forms of tune_s33): which run, which step and which count a question is about.

  - a pace said for the past after the one said for now ('现在 4.04s/it（…以前每秒 3 个迭代）') is the old run's;
  - progress bars of several labelled runs pasted together give the slow run's pace, never their average;
  - a step named by its place ('第 1 个 batch', 'the first step') is a moment, not the step time;
  - GPUs given to a part of the job (vLLM, a reward model) beside the job's own count are a share of the cards;
  - a memory size between a count and its GPUs ('4 48GB GPUs') keeps the count;
  - workers counted bare in a clause about reading the data are the loader's.
None means the fact must not be read with that value (or at all, for a count set aside).
"""

from __future__ import annotations

import pytest

from tests.matching import check_stated as _check

STEP, GPN, WORKERS = "job.step_time_s", "job.gpus_per_node", "job.dataloader_workers"


@pytest.mark.parametrize(("text", "expected"), [
    ("升级之后慢了 7 倍：以前是 2.97it/s，现在变成 4.04s/it（每个迭代要 4 秒，以前每秒 3 个迭代）。", {STEP: 4.04}),
    ("现在每步 4 秒，之前每步 2 秒。", {STEP: 4.0}),
    ("Now a step takes 9 s; it used to take 5 s per step.", {STEP: 9.0}),
    ("以前是 2.97it/s，现在变成 4.04s/it", {STEP: 4.04}),
    # trap: no time said for now: the one figure stands
    ("每步 9 秒，以前也是 9 秒", {STEP: 9.0}),
])
def test_the_past_pace_said_after_the_present_one(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


_TWO_RUNS = ("用 8 张 A800 训练，batch size 4 比 1 每步慢很多：\n"
             "    train 4 batch 8 gpu:  18/20000 [23:57<403:54:45, 72.77s/it, loss=0.0777, lr=2.25e-6]\n"
             "    train 1 batch 8 gpu:  17/20000 [07:43<119:15:51, 21.49s/it, loss=0.118, lr=2.13e-6]\n"
             "为什么？")
_ONE_RUN_EPOCHS = ("训练很慢：\n"
                   "    Epoch 0:  45%|████▌     | 18/40 [00:36<00:44, 2.00s/it, loss=1.2]\n"
                   "    Epoch 1:  50%|█████     | 20/40 [00:40<00:40, 2.10s/it, loss=1.1]\n"
                   "怎么办？")
_ONE_RUN = ("Training is slow:\n"
            "    train:  18/200 [00:36<06:00, 2.00s/it, loss=1.2]\n"
            "    train:  19/200 [00:38<06:00, 2.00s/it, loss=1.1]\n"
            "Why?")


@pytest.mark.parametrize(("text", "expected"), [
    (_TWO_RUNS, {STEP: 72.77}),
    ("Two runs on 4 GPUs:\n"
     "    bs=1 run:  50/1000 [00:50<16:00, 1.00it/s]\n"
     "    bs=8 run:  20/1000 [01:20<65:00, 4.00s/it]\n"
     "Is bs=8 expected to be this slow?", {STEP: 4.0}),
    # traps: the bars of one run (its epochs, or one label) are still read as one run
    (_ONE_RUN_EPOCHS, {STEP: 2.05}),
    (_ONE_RUN, {STEP: 2.0}),
])
def test_progress_bars_of_several_runs(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


@pytest.mark.parametrize(("text", "expected"), [
    ("时间线：第 1 个 batch 完成（tar 下载完之后 613 秒），第 2 个 batch 在第 1 个之后 35 秒完成。", {STEP: None}),
    ("The first step takes 90 s, then each step takes 2 s.", {STEP: 2.0}),
    ("the 1st iteration takes 40 s because of compilation", {STEP: None}),
    # traps: one step, a step, each step are the step time
    ("一个 batch 2 秒", {STEP: 2.0}),
    ("one iteration takes 0.5 s", {STEP: 0.5}),
    ("each iter takes 300 ms on one GPU", {STEP: 0.3}),
])
def test_a_step_named_by_its_place(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


@pytest.mark.parametrize(("text", "expected"), [
    ("用 TRL 的 GRPO 训一个 13B 模型，8*A800 80GB。想把显存调大会 OOM；"
     "试过把 vLLM 放到 2 张卡上，结果 socket timeout。",
     {GPN: 8}),
    ("We train on 8 H100s and put vLLM on 2 GPUs.", {GPN: 8}),
    ("8 张 A100 训练 GRPO，vLLM 单独用 1 张卡", {GPN: 8}),
    ("We have 8 GPUs; 2 GPUs for the reward model.", {GPN: 8}),
    # traps: the part's count alone may be all the question is about; the job's own count said for training stays
    ("I run vLLM on 2 GPUs and it is slow", {GPN: 2}),
    ("用 8 张卡训练，生成很慢", {GPN: 8}),
])
def test_gpus_given_to_a_part_of_the_job(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


@pytest.mark.parametrize(("text", "expected"), [
    ("I am on 4 48GB GPUs (A6000), batch size 10.", {GPN: 4}),
    ("I have 4 80GB GPUs", {GPN: 4}),
    ("we use 8 80G cards", {GPN: 8}),
    ("2 nodes with 8 80GB GPUs each", {GPN: 8, "job.nodes": 2}),
    # traps: a memory size is no count
    ("allocated 48 GB GPUs memory", {GPN: None}),
    ("a 40GB GPU", {GPN: None}),
])
def test_a_memory_size_between_count_and_gpus(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


@pytest.mark.parametrize(("text", "expected"), [
    ("batch size 16、20 个 worker 遍历一遍数据集，很慢", {WORKERS: 20}),
    ("用 20 个 worker 读数据", {WORKERS: 20}),
    ("iterating the dataset with 16 workers is slow", {WORKERS: 16}),
    # traps: workers of a cluster, or workers with no data in their clause
    ("2 个 worker 节点训练", {WORKERS: None}),
    ("4 workers and 2 servers read the dataset", {WORKERS: None}),
    ("with 20 workers", {WORKERS: None}),
])
def test_workers_reading_the_data(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)
