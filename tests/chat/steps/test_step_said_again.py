"""Step times: the step said again with a pronoun in the next sentence ('Now it takes 1.3 s'), the run grown
in that sentence first ('When I add a second node, it takes 2700ms': the step said before is the one-node run's), and
a step time that moved with its figures approximated ('jumps from ~0.8s to ~2.4s once we go multi-node').
Written blind for this battery; None must not be read."""

from __future__ import annotations

import pytest

from tests.matching import same_value
from tests.matching import stated_facts as facts

STEP, BASE, N, BN, NEG = "job.step_time_s", "job.step_time_baseline_s", "job.nodes", "job.baseline_nodes", \
    "job.negative_scaling"


@pytest.mark.parametrize(("text", "expected"), [
    ("Before, a step took 4.1 s. Now it takes 1.3 s on the same 2 nodes.", {STEP: 1.3}),
    ("A step takes 900ms. When I add a second node, it takes 2700ms.", {STEP: 2.7, BASE: 0.9, N: 2, BN: 1, NEG: True}),
    ("Each step takes 1.1 s. With 4 nodes it takes 3.9 s.", {STEP: 3.9, BASE: 1.1}),
    ("step time jumps from ~0.8s to ~2.4s once we go multi-node (2x8 H100, RoCE 4x200G)", {STEP: 2.4, BASE: 0.8}),
    # a pronoun's time that is not the step's
    ("A step takes 900ms. Saving a checkpoint is slow: it takes 40 s to save.", {STEP: 0.9}),
    ("A step takes 900ms. The job starts slowly, it takes 120 s to launch.", {STEP: 0.9}),
    # no step said before: the pronoun's time is nobody's
    ("The dataset is on NFS. It takes 3 s.", {STEP: None}),
])
def test_the_step_said_again(text: str, expected: dict[str, object]) -> None:
    read = facts(text)
    for key, want in expected.items():
        got = read.get(key)
        assert (got is None) if want is None else same_value(got, want), (key, got, want)


@pytest.mark.parametrize(("text", "expected"), [
    ("1 个 iter 从原来的 1.7s 变为 1.2s", {STEP: 1.2}),
    ("v100 单卡 30 分钟训练 1000 iter", {STEP: 1.8, BASE: None}),
    ("it takes 30 minutes to train 1000 iterations on 2 nodes", {STEP: 1.8}),
    # a baseline said beside a bigger run stays the baseline
    ("单机 30 分钟训练 1000 iter，两机要 50 分钟", {BASE: 1.8}),
])
def test_a_time_for_many_steps_and_a_time_that_moved(text: str, expected: dict[str, object]) -> None:
    read = facts(text)
    for key, want in expected.items():
        got = read.get(key)
        assert (got is None) if want is None else same_value(got, want), (key, got, want)


def test_a_moe_router_top_k_option() -> None:
    read = facts("pretrain_gpt.py --num-experts 16 --moe-router-topk 2 --expert-model-parallel-size 8")
    assert read.get("job.moe_top_k") == 2 and read.get("job.moe") is True


def test_paddle_detection_data_cost_is_the_wait() -> None:
    log = ("[07/12 22:31:55] ppdet.engine INFO: Epoch: [0] [ 340/2311] loss: 106.6 batch_cost: 2.9940 data_cost: "
           "2.7134 ips: 5.3440 images/s\n[07/12 22:33:03] ppdet.engine INFO: Epoch: [0] [ 360/2311] loss: 95.0 "
           "batch_cost: 3.2062 data_cost: 2.9550 ips: 4.9903 images/s\n")
    read = facts("模型训练很慢，日志：\n" + log)
    # 2.7134 of 2.9940 s and 2.9550 of 3.2062 s: about 91 % of each batch waits for data
    assert 90 <= float(read.get("job.data_wait_pct") or 0) <= 92, read


@pytest.mark.parametrize(("text", "expected"), [
    ("两机训练 step 8 秒，单机 step 3 秒", {STEP: 8.0, BASE: 3.0}),
    ("iteration 1.2s on 4 nodes", {STEP: 1.2, N: 4}),
    ("step: 2.8 s", {STEP: 2.8}),
    # a step's index is no time
    ("step 100: loss 2.31, lr 1e-4", {STEP: None}),
])
def test_the_step_named_bare_before_its_time(text: str, expected: dict[str, object]) -> None:
    read = facts(text)
    for key, want in expected.items():
        got = read.get(key)
        assert (got is None) if want is None else same_value(got, want), (key, got, want)
