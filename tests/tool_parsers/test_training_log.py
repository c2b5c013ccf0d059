import statistics

import pytest

from bwdoctor_parsers.training_log import parse_training_log

MEGATRON_MS = [4210.4, 4198.7, 4231.0, 4402.9, 4187.3, 4225.8, 6012.5, 4199.1, 4208.6, 4214.2]


def test_megatron_under_mpirun_counts_each_iteration_once(fixture_text):
    result = parse_training_log(fixture_text("megatron_core_mpirun.log"))
    assert result.source == "megatron"
    assert result.step_times_s == pytest.approx([t / 1000 for t in MEGATRON_MS])  # rank duplicates dropped
    seconds = [t / 1000 for t in MEGATRON_MS]
    facts = result.facts()
    assert facts["job.step_time_s"] == pytest.approx(4.2123)
    assert facts["job.step_time_cv"] == pytest.approx(statistics.pstdev(seconds) / statistics.fmean(seconds), abs=1e-4)


def test_last_n_limits_the_window(fixture_text):
    result = parse_training_log(fixture_text("megatron_core_mpirun.log"), last_n=4)
    assert result.window == pytest.approx([6.0125, 4.1991, 4.2086, 4.2142])
    assert result.facts()["job.step_time_s"] == pytest.approx((4.2086 + 4.2142) / 2)


def test_deepspeed_step_time_from_timestamps(fixture_text):
    result = parse_training_log(fixture_text("deepspeed_global_step_timer.log"))
    assert result.source == "timestamps"
    assert result.step_times_s == pytest.approx([0.498, 0.505, 0.731, 0.501, 0.499, 0.507])
    assert result.facts()["job.step_time_s"] == pytest.approx(0.503)
    assert result.facts()["job.step_time_cv"] > 0.1  # the 0.731 s step shows up as jitter
    assert result.extra["samples_per_s"] == pytest.approx(252.47)


def test_nemo_progress_bar_with_carriage_returns(fixture_text):
    result = parse_training_log(fixture_text("nemo_progress_raw.txt"))
    assert result.source == "nemo"
    assert result.step_times_s == [1.66, 1.64, 1.71, 1.65, 1.93, 1.66]  # each redrawn step once
    assert result.facts()["job.step_time_s"] == pytest.approx(1.66)


def test_tqdm_seconds_per_iteration_gives_no_variation(fixture_text):
    result = parse_training_log(fixture_text("hf_trainer_tqdm_s_per_it_raw.txt"))
    assert result.source == "tqdm"
    assert result.step_times_s == pytest.approx([3.91, 3.62, 3.55, 3.58, 3.57, 3.60])
    assert result.facts() == {"job.step_time_s": pytest.approx(3.59)}  # smoothed rates: no cv


def test_trainer_summary_when_nothing_else():
    text = "{'train_runtime': 21.51, 'train_samples_per_second': 35.7, 'train_steps_per_second': 0.25, 'epoch': 1.0}"
    result = parse_training_log(text)
    assert result.source == "trainer-summary"
    assert result.facts() == {"job.step_time_s": 4.0}


def test_custom_expression_in_milliseconds(fixture_text):
    result = parse_training_log(fixture_text("custom_step_log.txt"), step_regex=r"took (?P<ms>\d+) ms")
    assert result.source == "custom"
    assert result.step_times_s == pytest.approx([0.812, 0.799, 0.805, 1.210, 0.808])
    assert result.facts()["job.step_time_s"] == pytest.approx(0.808)


def test_custom_expression_first_group_in_seconds():
    result = parse_training_log("it 1: 2.5s\nit 2: 2.7s\n", step_regex=r"it \d+: ([\d.]+)s")
    assert result.step_times_s == [2.5, 2.7]
    assert "job.step_time_cv" not in result.facts()  # two steps are too few to judge variation


def test_bad_custom_expression_is_reported_not_raised():
    result = parse_training_log("step 1 took 3 s", step_regex="took (")
    assert result.error and result.facts() == {}


def test_restart_gap_is_not_a_step():
    text = (
        "2025-03-01 10:00:00,000 - root - INFO - step:  1  loss: 3.0\n"
        "2025-03-01 10:00:01,000 - root - INFO - step:  2  loss: 3.0\n"
        "2025-03-03 08:00:00,000 - root - INFO - step:  3  loss: 3.0\n"
        "2025-03-03 08:00:01,500 - root - INFO - step:  4  loss: 3.0\n"
    )
    assert parse_training_log(text).step_times_s == [1.0, 1.5]


@pytest.mark.parametrize("text", ["", "loss 2.3", "iteration 5/ 10 | elapsed time per iteration (ms): nan |",
                                  "elapsed time per iteration (ms): 0.0", "\r\r\r", "step: x"])
def test_garbage_gives_empty(text):
    assert parse_training_log(text).facts() == {}


def test_rich_progress_bar_of_lightning(recorded):
    # Recorded on an H200: Lightning 2.6.6 RichProgressBar, 20 ms sleep a step; with and without a terminal.
    raw = parse_training_log(recorded("lightning_2_6_rich_progress_pty_raw_h200.txt"))
    assert raw.source == "tqdm" and len(raw.step_times_s) > 100
    assert 0.02 < raw.facts()["job.step_time_s"] < 0.03
    plain = parse_training_log(recorded("lightning_2_6_rich_progress_notty_h200.txt"))
    assert 0.02 < plain.facts()["job.step_time_s"] < 0.03


def test_tqdm_recorded_with_carriage_returns(recorded):
    result = parse_training_log(recorded("tqdm_4_raw_cr_h200.txt"))
    assert len(result.step_times_s) == 30 and 0.05 <= result.facts()["job.step_time_s"] < 0.06


def test_step_time_summary_lines() -> None:
    """NeMo-RL and similar trainers print a step-time summary line per step, in s or ms."""
    result = parse_training_log("• Training FLOPS: 344.98 TFLOPS\n• Total step time: 0.85s\n"
                                "• Total step time: 0.87s\n• Total step time: 850ms\n")
    assert result.source == "step-time-lines"
    assert result.step_times_s == [0.85, 0.87, 0.85]


def test_detectron2_and_mmengine_metric_lines() -> None:
    d2 = ("[09/24 15:33:13 d2.utils.events]:  eta: 0:12:07  iter: 19  total_loss: 2.139  time: 0.3755  "
          "last_time: 0.3688  data_time: 0.0145  last_data_time: 0.0053   lr: 0.00039962  max_mem: 2710M\n"
          "[09/24 15:33:21 d2.utils.events]:  eta: 0:12:00  iter: 39  total_loss: 1.9  time: 0.3855  "
          "last_time: 0.39  data_time: 0.0155  last_data_time: 0.0053   lr: 0.0008  max_mem: 2710M\n")
    result = parse_training_log(d2)
    assert result.source == "metric-lines" and result.step_times_s == [0.3755, 0.3855] and not result.per_step
    assert result.facts()["job.data_wait_pct"] == pytest.approx(3.94, abs=0.01)
    mm = ("Epoch(train) [1][  50/1000]  lr: 2.0e-02  eta: 0:10:00  time: 0.6000  data_time: 0.3000  memory: 3000\n")
    assert parse_training_log(mm).facts() == {"job.step_time_s": 0.6, "job.data_wait_pct": 50.0}
    # a 'time:' in a line that is no trainer's metric line is not a step time
    assert parse_training_log("boot time: 12.5\nuptime: 3").facts() == {}


def test_hand_timed_step_and_ms_swift_speed() -> None:
    assert parse_training_log("****self.run_step()=0.5\n****self.run_step()=1.5\n").step_times_s == [0.5, 1.5]
    assert parse_training_log("train_step(): 250 ms").step_times_s == [0.25]
    line = "{'loss': 0.4, 'train_speed(iter/s)': 0.25, 'global_step/max_steps': '300/4491'}"
    assert parse_training_log(line).facts() == {"job.step_time_s": 4.0}


def test_step_lines_with_a_time_column() -> None:
    line = ("19:18:53 SUCCESS Step 702 | Time: 22.84s | Loss: -0.0000 | Entropy: 0.1259 | Throughput: 4932 tokens/s | "
            "MFU: 0.3%")
    assert parse_training_log(line).facts() == {"job.step_time_s": 22.84}
    assert parse_training_log("Step 5 | Time: 250ms | loss 1").facts() == {"job.step_time_s": 0.25}
    assert parse_training_log("step: 100, elapsed time: 3600s").facts() == {}
