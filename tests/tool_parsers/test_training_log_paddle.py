"""PaddlePaddle's metric lines (PaddleOCR, PaddleDetection, PaddleNLP, PaddleClas): batch_cost is the step, reader_cost
the part of it spent waiting for data."""

from __future__ import annotations

import pytest

from bwdoctor_parsers.training_log import parse_training_log

PADDLE_OCR = ("epoch: [3/100], iter: 594, lr: 0.000998, loss: 5.181252, acc: 0.655729, reader_cost: 0.02042 s, "
              "batch_cost: 1.83910 s, samples: 2880, ips: 521.99307")
PADDLE_DET = ("[08/12 10:01:02] ppdet.engine INFO: Epoch: [0] [ 20/500] learning_rate: 0.000100 loss: 2.1 "
              "eta: 1:02:03 batch_cost: 0.8000 data_cost: 0.0100 ips: 10.0 images/s, avg_reader_cost: 0.40000 sec")


def test_batch_cost_is_the_step_and_reader_cost_its_wait() -> None:
    facts = parse_training_log(PADDLE_OCR).facts()
    assert facts["job.step_time_s"] == pytest.approx(1.8391)
    assert facts["job.data_wait_pct"] == pytest.approx(1.11, abs=0.01)


def test_several_lines_give_the_median_and_no_jitter() -> None:
    lines = "\n".join(PADDLE_OCR.replace("1.83910", v) for v in ("1.5", "2.0", "1.7"))
    result = parse_training_log(lines)
    assert result.source == "paddle-costs"
    assert result.facts()["job.step_time_s"] == pytest.approx(1.7)
    assert "job.step_time_cv" not in result.facts()  # window averages, not per-step times


def test_avg_names_read_as_well() -> None:
    facts = parse_training_log(PADDLE_DET).facts()
    assert facts["job.step_time_s"] == pytest.approx(0.8)
    assert facts["job.data_wait_pct"] == pytest.approx(50.0)


@pytest.mark.parametrize("line", [
    "reader_cost: 0.02042 s, samples: 2880, ips: 521.99307",  # the wait alone is no step
    "the batch cost is high",  # words, not a metric line
])
def test_no_step_without_a_batch_cost(line: str) -> None:
    assert "job.step_time_s" not in parse_training_log(line).facts()


def test_fluid_batch_time_is_the_step() -> None:
    line = "Batch time: 15.881043, sample_per_second: 32.239696, py_reader_queue_size: 188"
    result = parse_training_log(line)
    assert result.source == "paddle-costs"
    assert result.facts()["job.step_time_s"] == pytest.approx(15.881)  # five significant digits


@pytest.mark.parametrize("line", ["Batch time: 15.88", "batch time: 2.0, loss: 0.3"])
def test_batch_time_without_its_rate_is_no_paddle_line(line: str) -> None:
    assert parse_training_log(line).source != "paddle-costs"


def test_paddle_detection_data_cost_is_the_wait_when_no_reader_cost_is_printed() -> None:
    line = ("[07/12 22:31:55] ppdet.engine INFO: Epoch: [0] [ 340/2311] loss: 106.6 eta: 54 days, 5:33:41 batch_cost: "
            "2.9940 data_cost: 2.7134 ips: 5.3440 images/s\n")
    facts = parse_training_log(line * 3).facts()
    assert facts["job.data_wait_pct"] == pytest.approx(90.63, abs=0.01)
