"""Communication's share of a step in forms beside a bare per cent, generated over collectives, shares and languages:

  - the share in words ('half of the step time is spent waiting on all-reduce', 'a third of the time goes to
    communication', 'NCCL 占了一半的时间', '通信时间占比三分之二') is job.comm_time_pct in per cent;
  - the whole named first and the collective after ('in the trace, 70% of the time is NCCL');
  - collectives written with an underscore or a space ('all_gather/reduce_scatter', 'all reduce'), as profilers print
    them, are communication;
  - communication's time as a multiple of the compute's ('NCCL time is 3x the compute time', '通信时间是计算时间的
    3 倍') is r ÷ (r + 1) of the step.

Traps: a share of GPUs or of bandwidth ('half of the GPUs are idle', 'half of the bandwidth is used by allreduce'), a
question or a supposition ('is half of the time in allreduce normal?', 'if NCCL were 3x the compute time …') and a
slow-down ('the step is 3x slower than compute-only') are no share of time.

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read, facts that must
not be read).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.matching import read_problems

COMM = "job.comm_time_pct"
Case = tuple[str, dict[str, Any], dict[str, Any]]

_COLLECTIVES = ["all-reduce", "allreduce", "all_reduce", "all reduce", "NCCL", "communication", "reduce_scatter"]
_SHARES_EN = [("half", 50.0), ("about half", 50.0), ("a third", 33.3), ("two thirds", 66.7), ("40%", 40.0)]
_SHARES_ZH = [("一半", 50.0), ("三分之一", 33.3), ("三分之二", 66.7), ("大约 40%", 40.0)]


def _in_words() -> list[Case]:
    cases: list[Case] = []
    for i, coll in enumerate(_COLLECTIVES):
        for j, (share, pct) in enumerate(_SHARES_EN):
            whole = ["the step time", "each iteration", "the time", "every step"][(i + j) % 4]
            cases.append((f"Profiling shows {share} of {whole} is spent waiting on {coll}.", {COMM: pct}, {}))
            cases.append((f"In the trace, {share} of the time is {coll}.", {COMM: pct}, {}))
    for coll in ["NCCL", "通信", "allreduce", "all_reduce"]:
        for share, pct in _SHARES_ZH:
            cases.append((f"{coll} 占了{share}的时间", {COMM: pct}, {}))
            cases.append((f"{share}的时间都花在{coll}上", {COMM: pct}, {}))
    cases.append(("我们发现通信时间占比三分之二", {COMM: 66.7}, {}))
    return cases


def _underscored() -> list[Case]:
    return [(f"Step takes {step} s, of which nccl {coll} is ~{comm} s according to the profiler.",
             {COMM: pct, "job.step_time_s": float(step)}, {})
            for coll in ["all_gather/reduce_scatter", "all_reduce", "reduce scatter", "all gather"]
            for step, comm, pct in [(14, 9, 64.3), (4, 1, 25.0)]]


def _ratios() -> list[Case]:
    cases: list[Case] = []
    for said, pct in [("3x the compute time", 75.0), ("2x the compute time", 66.7), ("twice as long as compute", 66.7),
                      ("three times as long as the computation", 75.0), ("1.5x longer than the computation", 60.0)]:
        for coll in ["NCCL time is", "communication takes", "allreduce is", "all_reduce is"]:
            cases.append((f"{coll} {said}", {COMM: pct}, {}))
    for said, pct in [("计算时间的 3 倍", 75.0), ("前反向的两倍", 66.7), ("计算的 4 倍", 80.0)]:
        cases.append((f"通信时间是{said}", {COMM: pct}, {}))
        cases.append((f"NCCL 耗时大约是{said}", {COMM: pct}, {}))
    return cases


_TRAPS: list[Case] = [
    ("half of the GPUs are idle", {}, {COMM: None}),
    ("half of the bandwidth is used by allreduce", {}, {COMM: None}),
    ("is half of the time in allreduce normal?", {}, {COMM: None}),
    ("if NCCL were 3x the compute time we would see it", {}, {COMM: None}),
    ("is communication 2x the compute time?", {}, {COMM: None}),
    ("the step is 3x slower than compute-only", {}, {COMM: None}),
    ("一半的 GPU 都在空闲", {}, {COMM: None}),
    ("allreduce 带宽只有一半", {}, {COMM: None}),
]

CASES = _in_words() + _underscored() + _ratios() + _TRAPS


@pytest.mark.parametrize(("question", "want", "unwanted"), CASES, ids=[c[0][:70] for c in CASES])
def test_comm_share_in_words_and_ratios(question: str, want: dict[str, Any], unwanted: dict[str, Any]) -> None:
    assert read_problems(question, {**want, **unwanted}, share=0.01) == []
