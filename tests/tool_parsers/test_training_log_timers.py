"""Training logs whose step time is a per-phase timer's total or a per-step timing dict."""

import pytest

from bwdoctor_parsers.training_log import ROUTE_HINT, parse_training_log

PIPE_TIMERS = """\
%comms: 61.2044871
%optimizer_step 20.118
rank=0 time (ms) | train_batch: 4120.50 | forward: 310.22 | pipe_send_output: 402.10 | comms: 2521.93 | backward: 620.4
  | backward_inner: 500.1 | reduce_grads: 1400.7 | step: 812.33
rank=0 time (ms) | train_batch: 4080.25 | forward: 305.90 | pipe_send_output: 398.00 | comms: 2490.00 | backward: 611.0
"""

PER_RANK_DICTS = "".join(
    f"train, rank: {rank}, epoch: 1/20, step_in_slice: 1200/40000, {{'data_load': '{data}', 'forward_time': '0.201', "
    f"'backward_time': '0.188', 'optim_time': '0.050', 'total_time': '{total}'}}\n"
    for rank, data, total in ((3, "0.012", "0.480"), (7, "0.010", "0.480"), (0, "0.011", "0.481")))


def test_a_pipeline_timer_line_gives_the_whole_step_and_the_comms_share() -> None:
    facts = parse_training_log(PIPE_TIMERS).facts()
    # the step is train_batch (4.1 s), not the optimizer's 'step' (0.8 s) nor the comms part
    assert facts["job.step_time_s"] == pytest.approx(4.1004, rel=1e-3)
    assert facts["job.comm_time_pct"] == 61.2


def test_a_timer_line_without_a_total_is_no_step_time() -> None:
    log = "time (ms) | forward: 207.71 | backward: 3509.10 | optimizer: 38738.77 | batch generator: 4.65\n"
    assert "job.step_time_s" not in parse_training_log(log).facts()


def test_per_step_timing_dicts_give_the_step_and_the_data_wait() -> None:
    result = parse_training_log(PER_RANK_DICTS)
    facts = result.facts()
    assert facts["job.step_time_s"] == pytest.approx(0.48)
    assert facts["job.data_wait_pct"] == pytest.approx(2.29, abs=0.01)
    # three ranks printing one step: their spread says nothing of step-to-step jitter
    assert "job.step_time_cv" not in facts


def test_one_ranks_timing_dicts_are_steps_in_order() -> None:
    log = "".join(f"step {i}, {{'data_time': 0.0, 'iter_time': {t}}}\n" for i, t in enumerate([1.0, 1.1, 0.9, 1.0]))
    facts = parse_training_log(log).facts()
    assert facts["job.step_time_s"] == pytest.approx(1.0)
    assert facts["job.data_wait_pct"] == 0.0 and "job.step_time_cv" in facts


@pytest.mark.parametrize("block", [PIPE_TIMERS, PER_RANK_DICTS, "%comms: 40.1\n"])
def test_the_route_hint_recognises_these_logs(block: str) -> None:
    assert ROUTE_HINT.search(block)


def test_the_route_hint_leaves_other_output_alone() -> None:
    nccl_tests_row = "  8388608   2097152  float  sum  -1  1523.4  5.51  10.32  0  1519.8  5.52  10.34  0\n"
    assert not ROUTE_HINT.search(nccl_tests_row)
