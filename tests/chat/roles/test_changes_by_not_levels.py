"""A load's change said by how much is no level of it, generated over subjects, verbs and languages:

  - 'GPU utilization dropped by 20%', 'throughput per GPU fell by 15%', 'GPU 利用率掉了 30%', '每卡 TFLOPS 掉了 4%':
    no GPU utilisation of 20, 15, 30 or 4 %;
  - the level it changed to is one ('dropped to 40%', '下降到 30%', 'went from 90% to 45%', '降了一半，只有 40%').

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read, facts that must
not be read).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.matching import read_problems

UTIL = "gpu.util_pct"
Case = tuple[str, dict[str, Any], dict[str, Any]]


def _changes_by() -> list[Case]:
    cases: list[Case] = []
    for subject in ["GPU utilization", "GPU util", "throughput per GPU", "per-GPU TFLOPS"]:
        for verb in ["dropped by", "fell by", "decreased by", "went down by", "is down by"]:
            for pct in [15, 20, 40]:
                cases.append((f"On 2 nodes the {subject} {verb} {pct}%.", {}, {UTIL: float(pct)}))
    for subject in ["GPU 利用率", "每卡 TFLOPS", "单卡吞吐", "显卡利用率"]:
        for verb in ["掉了", "降了", "下降了", "降低了", "少了"]:
            for pct in [4, 30]:
                cases.append((f"两机训练时{subject}{verb} {pct}% 左右", {}, {UTIL: float(pct)}))
    return cases


_LEVELS: list[Case] = [
    ("GPU utilization dropped to 40% on 2 nodes", {UTIL: 40.0}, {}),
    ("GPU 利用率下降到 30%", {UTIL: 30.0}, {}),
    ("GPU util went from 90% to 45%", {UTIL: 45.0}, {}),
    ("GPU 利用率从 95% 掉到了 40%", {UTIL: 40.0}, {}),
    ("多机时 GPU 利用率降了一半，只有 40%", {UTIL: 40.0}, {}),
    ("GPU 利用率掉了很多，只有 40%", {UTIL: 40.0}, {}),
    ("GPU 利用率只有 40%", {UTIL: 40.0}, {}),
]

CASES = _changes_by() + _LEVELS


@pytest.mark.parametrize(("question", "want", "unwanted"), CASES, ids=[c[0][:70] for c in CASES])
def test_changes_by_not_levels(question: str, want: dict[str, Any], unwanted: dict[str, Any]) -> None:
    assert read_problems(question, {**want, **{k: ("not", v) for k, v in unwanted.items()}}) == []
