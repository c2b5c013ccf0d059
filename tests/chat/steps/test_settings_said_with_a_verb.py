"""A batch size or the data loader's workers said with a verb of setting between the name and the figure, generated
over names, verbs and languages (one grammar, text.SET_TO, for every setting said in prose):

  - 'batch size 我设的是 32', 'bs 设置为 16', '我把 batch size 调到了 128', 'batch size is set to 32 per GPU', 'we set
    the batch size of each GPU to 8', 'batch=64' → job.micro_batch_size;
  - '--workers 设成 4', 'dataloader 用了 16 个 worker', 'the DataLoader runs 8 workers' → job.dataloader_workers.

Traps: a count of GPUs or machines after the verb ('batch size 用了 8 张卡' says no batch), a build's 'make -j 16' and a
bare 'workers=4' (a parameter server's as often as a loader's) are none.

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read, facts that must
not be read).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.matching import read_problems

MB, WORKERS = "job.micro_batch_size", "job.dataloader_workers"
Case = tuple[str, dict[str, Any], dict[str, Any]]


def _batches() -> list[Case]:
    cases: list[Case] = []
    for name in ["batch size", "batch_size", "bs"]:
        for verb in ["我设的是", "设置为", "设成", "调到了", "改成", "设为", "is set to", "was set to", "="]:
            for n in [8, 32]:
                cases.append((f"两台机器训练，{name} {verb} {n}，速度很慢", {MB: n}, {}))
    for n in [4, 16]:
        cases += [(f"我把 batch size 调到了 {n}，多机还是慢", {MB: n}, {}),
                  (f"batch size is set to {n} per GPU on 2 nodes", {MB: n}, {}),
                  (f"we set the batch size of each GPU to {n}", {MB: n}, {}),
                  (f"batch={n}, 2 nodes", {MB: n}, {})]
    return cases


def _workers() -> list[Case]:
    cases: list[Case] = []
    for n in [4, 8, 16]:
        cases += [(f"--workers 设成 {n} 之后 GPU 利用率还是低", {WORKERS: n}, {}),
                  (f"--num-workers {n}，GPU 利用率很低", {WORKERS: n}, {}),
                  (f"dataloader 用了 {n} 个 worker，GPU 还是在等数据", {WORKERS: n}, {}),
                  (f"The DataLoader runs {n} workers and the GPUs still wait", {WORKERS: n}, {}),
                  (f"DataLoader 的 num_workers 我设的是 {n}", {WORKERS: n}, {})]
    return cases


_TRAPS: list[Case] = [
    ("batch size 用了 8 张卡", {}, {MB: 8}),
    ("I built NCCL with make -j 16 src.build", {}, {WORKERS: None}),
    ("horovod job, workers=4, servers=2", {}, {WORKERS: None}),
]

CASES = _batches() + _workers() + _TRAPS


@pytest.mark.parametrize(("question", "want", "unwanted"), CASES, ids=[c[0][:70] for c in CASES])
def test_settings_said_with_a_verb(question: str, want: dict[str, Any], unwanted: dict[str, Any]) -> None:
    assert read_problems(question, {**want, **{k: v if v is None else ("not", v) for k, v in unwanted.items()}}) == []
