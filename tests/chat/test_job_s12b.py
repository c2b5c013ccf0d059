"""The job's own numbers, session 12b: a probe battery of the ways people give their step time from a pasted training
log, their batch sizes, GPU utilisation that changed, a parameter-server job's roles and a data pipeline that is the
bottleneck, in English and in Chinese, with the numbers beside them that are not the fact (a data wait taken for the
step, a setting's value taken for a count, a per-GPU batch taken for the global one).

Written for this battery (not copied from the corpus). Each row names what must be read and what must not be (None).
"""

from __future__ import annotations

import pytest

from bwdoctor.chat import answer_turn
from tests.matching import fact_problems

STEP, WAIT, G, N = "job.step_time_s", "job.data_wait_pct", "job.gpus_per_node", "job.nodes"

CASES: list[tuple[str, dict[str, object]]] = [
    # --- a Paddle metric line pasted inline: batch_cost is the step, reader_cost its wait for data
    ("训练日志：`epoch: [1/50], iter: 120, lr: 0.001, loss: 2.3, reader_cost: 0.50000 s, batch_cost: 2.00000 s, "
     "samples: 512, ips: 256.0` GPU 利用率很低", {STEP: 2.0, WAIT: 25.0}),
    ("Log line: `epoch: [2/10], iter: 40, loss: 1.1, reader_cost: 0.01 s, batch_cost: 0.95 s, ips: 310.2` on 8 GPUs, "
     "why is the GPU util so low?", {STEP: 0.95}),
    ("print_batch_step=5\n`epoch: [3/100], iter: 594, loss: 5.18, reader_cost: 0.02042 s, batch_cost: 1.83910 s, "
     "samples: 2880, ips: 521.99`\n显卡利用率一直在 40% 以下", {STEP: 1.8391, G: None, N: None}),
    ("batch_size=64\n`iter: 10, reader_cost: 0.3 s, batch_cost: 0.6 s, ips: 100`\n8 GPUs on one machine are idle",
     {STEP: 0.6, WAIT: 50.0, G: 8}),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_job_numbers_read(engine, text: str, expected: dict[str, object]) -> None:
    assert fact_problems(answer_turn(text, engine=engine), expected) == []
