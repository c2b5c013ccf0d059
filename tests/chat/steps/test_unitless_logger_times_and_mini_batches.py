"""A step's time printed by a logger without its unit, and a batch called a mini-batch, generated over names and values:

  - 'INFO: Step time: 22.885', 'step time: 1.53', 'time per iteration = 0.83' are seconds; 'step_time (ms): 830' says
    milliseconds in its name; a bare figure of 100 or more ('step_time=830') may be either and is left;
  - fairseq's updates per second in its log line ('wps=15000, ups=0.8, wpb=3000') are steps per second: 1.25 s a step;
  - 'mini-batch 64', 'minibatch of 32', 'mini-batch size 16' are each process's batch.

Traps: a timer in scientific notation ('iter_time=1.570e-04'), another part's time ('forward_time=0.071') and a figure
with a unit of its own after it (a rate, a share) are no step time read this way.

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read, facts that must
not be read).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.matching import read_problems

STEP, MB = "job.step_time_s", "job.micro_batch_size"
Case = tuple[str, dict[str, Any], dict[str, Any]]


def _times() -> list[Case]:
    cases: list[Case] = []
    for name in ["Step time", "step time", "step_time", "iteration time", "iter_time", "time per iteration",
                 "time per step", "time/step"]:
        for sep in [": ", " = ", "="]:
            for value in [22.885, 1.53, 0.83]:
                cases.append((f"2 nodes x 8 GPUs. Log: INFO: {name}{sep}{value}", {STEP: value}, {}))
    cases += [("step_time (ms): 830", {STEP: 0.83}, {}), ("step_time_ms = 1200", {STEP: 1.2}, {})]
    cases += [(f"| epoch 001:    100 / 5000 loss=9.1, wps=15000, ups={ups}, {after}=3000",
               {STEP: round(1 / ups, 6)}, {})
              for ups in [0.8, 0.35, 2.0] for after in ["wpb", "bsz", "wall"]]
    return cases


def _batches() -> list[Case]:
    return [(f"ResNet-101, fp32, {said}: 1 GPU 202 img/s, 4 GPUs 650 img/s", {MB: n}, {})
            for said, n in [("mini-batch 64", 64), ("minibatch of 32", 32), ("mini-batch size 16", 16),
                            ("mini_batch_size=8", 8)]]


_TRAPS: list[Case] = [
    ("iter_time=1.570e-04, forward_time=0.071, backward_time=0.096", {}, {STEP: None}),
    ("step time: 35% of it is communication", {}, {STEP: None}),
    ("time per step = 12 GB/s of traffic", {}, {STEP: None}),
    ("step_time=830, 2 nodes", {}, {STEP: None}),  # 830 ms or 830 s: the logger's unit is unsaid
    ("we had ups=3 downs=2 in the last run", {}, {STEP: None}),
]

CASES = _times() + _batches() + _TRAPS


@pytest.mark.parametrize(("question", "want", "unwanted"), CASES, ids=[c[0][:70] for c in CASES])
def test_unitless_logger_times_and_mini_batches(question: str, want: dict[str, Any], unwanted: dict[str, Any]) -> None:
    assert read_problems(question, {**want, **unwanted}, share=0.001) == []
