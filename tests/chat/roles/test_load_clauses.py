"""Loads: a share said in a clause of its own after the clause that names its subject
('只有运行内存占用较高，大约 60%（25G）', 'Memory usage is high, around 60% (25 GB)').
Written blind for this battery; None must not be read."""

from __future__ import annotations

import pytest

from tests.matching import same_value
from tests.matching import stated_facts as facts

MEM, GPU, CPU = "mem.used_pct", "gpu.util_pct", "cpu.util_pct"


@pytest.mark.parametrize(("text", "expected"), [
    ("训练时 GPU 和 CPU 占用率一直都很低，只有运行内存占用较高，大约 60%（25G）。", {MEM: 60.0}),
    ("Memory usage is high, around 60% (25 GB). GPU util is low.", {MEM: 60.0}),
    ("CPU 占用很高，90% 左右，GPU 才 10%", {CPU: 90.0, GPU: 10.0}),
    # two loads named before: whose figure it is stays unsaid
    ("GPU and CPU usage are both high, about 90%.", {MEM: None}),
    # a clause before with a figure of its own keeps its figure; the next share is not taken for the same subject
    ("显存占用 70%，大约 30 分钟一个 epoch", {"gpu.mem_used_pct": 70.0}),
])
def test_a_share_in_the_clause_after_its_subject(text: str, expected: dict[str, object]) -> None:
    read = facts(text)
    for key, want in expected.items():
        got = read.get(key)
        assert (got is None) if want is None else same_value(got, want), (key, got, want)


@pytest.mark.parametrize(("text", "least"), [
    ("不同机器的 GPU 利用率差别很大：节点 0 有 60%，节点 3 只有 20%。", 20.0),
    ("node A at 95% GPU util, node B at 30%", 30.0),
    ("node A at 95% CPU, node B at 30%", None),  # the CPUs' load is no GPU's
])
def test_the_least_busy_machines_gpus(text: str, least: float | None) -> None:
    got = facts(text).get("gpu.util_min_pct")
    assert (got is None) if least is None else same_value(got, least), got


@pytest.mark.parametrize(("text", "expected"), [
    # the two ends of a swing are neither the usual level
    ("训练过程中 GPU 峰值有 97%，但交替出现 47% 的低谷", {GPU: None}),
    ("GPU util peaks at 97% but keeps dropping to 47%", {GPU: None}),
    # a usual level said beside the peak stands
    ("GPU 利用率最高只有 19%，平时基本稳定在 10% 左右", {GPU: 10.0}),
    # a figure the asker corrects later: the actual one stands
    ("GPU 利用率基本在 1%，CPU 利用率在 20%。（补充：原来是任务管理器的显示问题，实际利用率 90+%。）",
     {GPU: 90.0, CPU: 20.0}),
    ("GPU util shows 0% in the task manager. Update: turns out the task manager was wrong, nvidia-smi actually "
     "says 85%.", {GPU: 85.0}),
    # 'actually' with no correction: nothing set aside
    ("GPU 利用率 30%，实际上是数据读取慢", {GPU: 30.0}),
])
def test_a_swing_and_a_correction(text: str, expected: dict[str, object]) -> None:
    read = facts(text)
    for key, want in expected.items():
        got = read.get(key)
        assert (got is None) if want is None else same_value(got, want), (key, got, want)
