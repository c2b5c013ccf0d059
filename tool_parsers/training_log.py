"""Training logs → per-step time and how much it varies (jitter is a network symptom, H12).

Recognised, most trustworthy first: a configurable regular expression; Megatron-LM /
Megatron-DeepSpeed ``elapsed time per iteration (ms)``; NeMo ``train_step_timing in s``;
the wall time between consecutive timestamped step lines (DeepSpeed, torchtitan, ...);
a step function timed by hand (``self.run_step()=0.1298``); detectron2 / fast-reid / mmcv / mmengine metric lines
(``iter: 19  total_loss: 0.66  time: 0.4544  data_time: 0.0008``: ``time`` is seconds per iteration over the
logging window, ``data_time`` its wait for data); PaddlePaddle's ``reader_cost: 0.02 s, batch_cost: 1.84 s`` (the same
pair under other names); tqdm progress bars (Hugging Face Trainer, PyTorch Lightning) and
Rich progress bars (Lightning's RichProgressBar: ``Epoch 1/1 ━━━━ 98/100 0:00:02 • 0:00:01 40.26it/s``) in ``it/s``
or ``s/it``; a logged step's own rate (``step 100 | loss 2.31 | 3.2 s/it``, ``1.9 sec/step``) and TensorFlow's
``global_step/sec: 3.21``; the Trainer's final ``train_steps_per_second`` and ms-swift's
``'train_speed(iter/s)': 0.19`` (steps per second since the start). Only per-step sources give a coefficient of
variation: tqdm rates are smoothed averages and would understate the jitter.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

DEFAULT_LAST_N = 20
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_MEGATRON = re.compile(r"elapsed time per iteration \(ms\):\s*([0-9]+(?:\.[0-9]+)?)")
_MEGATRON_ITER = re.compile(r"\biteration\s+(\d+)\s*/")
_NEMO = re.compile(r"train_step_timing in s\s*[=:]\s*([0-9]+(?:\.[0-9]+)?(?:[eE][-+]?\d+)?)")
_GLOBAL_STEP = re.compile(r"\bglobal_step\s*[=:]\s*(\d+)")
_TIMESTAMP = re.compile(r"(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:[,.](\d{1,6}))?")
_STEP_COUNTERS = (
    re.compile(r"\bglobal_step=(\d+)"),  # DeepSpeed timer, 2023+
    re.compile(r"\[timer\.py:\d+:stop\]\s*\d+/(\d+),"),  # DeepSpeed ThroughputTimer "<epoch>/<step>,"
    re.compile(r"\bstep:\s*(\d+)\b"),  # torchtitan
    re.compile(r"\bstep=(\d+),"),  # DeepSpeed log_dist
)
_TQDM = re.compile(r"(\d+)/(\d+|\?)\s*\[[0-9:]+<[0-9:?]+,\s*([0-9]+(?:\.[0-9]+)?)\s*(it/s|s/it)")
_RICH = re.compile(r"(\d+)/(\d+)\s+\d+:\d{2}:\d{2}\s*•\s*(?:-?[\d:-]+\s+)?([0-9]+(?:\.[0-9]+)?)\s*(it/s|s/it)")
# A logged step's rate outside a progress bar ('step 100 | loss 2.31 | 3.2 s/it', 'iter 40 … 1.9 sec/step') and
# TensorFlow's 'INFO:tensorflow:global_step/sec: 3.21'. 'it' is the loop's unit; samples/s and tokens/s are not steps.
_RATE_LINE = re.compile(r"(?<![\w.])([0-9]+(?:\.[0-9]+)?)\s*(s/it|it/s|s/iter|iters?/s|sec/it|sec/iter|s/step|sec/step|"
                        r"steps?/s(?:ec)?)(?![\w/])", re.IGNORECASE)
_RATE_STEP = re.compile(r"\b(?:step|iter|iteration|it|batch)\b\s*[:#=]?\s*\d+", re.IGNORECASE)
_TF_STEPS_PER_S = re.compile(r"global_step/sec:\s*([0-9]+(?:\.[0-9]+)?(?:[eE][-+]?\d+)?)")
_TQDM_SKIP = ("Validation", "Sanity Checking", "Testing", "Predicting", "Evaluating")
_HF_STEPS_PER_S = re.compile(r"'train_steps_per_second':\s*'?([0-9.eE+-]+)'?|"
                             r"[\"']train_speed\(iter/s\)[\"']\s*:\s*'?([0-9.eE+-]+)'?")
# detectron2's CommonMetricPrinter, fast-reid, mmcv and mmengine: 'iter: 19 … time: 0.4544  last_time: 0.45
# data_time: 0.0008' / 'Epoch [1][50/1000] … time: 0.200, data_time: 0.050'. 'last_time' and 'data_time' are not it.
# prime-rl's and similar per-step lines say 'Step 702 | Time: 22.84s'. A total ('elapsed time: 3600s') is not a step.
_WINDOW_TIME = re.compile(r"(?<![\w.])(?<!elapsed )(?<!total )(?<!wall )(?<!run )time:\s*([0-9]+(?:\.[0-9]+)?)"
                          r"\s*(ms|s)?(?![\w.])", re.IGNORECASE)
_DATA_TIME = re.compile(r"(?<![\w.])data_time:\s*([0-9]+(?:\.[0-9]+)?)(?![\d.])")
_METRIC_LINE = re.compile(r"\bdata_time:\s*\d|\biter:\s*\d+\s|\b(?:Epoch|Iter)\s*(?:\(\w+\))?\s*\[\s*\d|"
                          r"\bstep\s*[:#]?\s*\d+\s*[|,]", re.IGNORECASE)
# A step function timed by hand and printed as 'name()=seconds' ('****self.run_step()=0.12989', 'train_step(): 1.2').
_STEP_CALL = re.compile(r"(?<![\w])[A-Za-z_]\w*step\w*\(\)\s*[=:]\s*([0-9]+(?:\.[0-9]+)?(?:[eE][-+]?\d+)?)"
                        r"\s*(ms|s|sec|seconds)?(?![\w.])", re.IGNORECASE)
_SAMPLES_PER_S = re.compile(r"CurrSamplesPerSec=([0-9.]+)")
_TPS = re.compile(r"\btps:\s*([0-9,]+)")
_MFU = re.compile(r"\bmfu:\s*([0-9.]+)%")
# The run's shape as trainers print it: Megatron's '| global batch size:   128 |', torchtitan's 'with local batch
# size 1, global batch size 32, sequence length 8192'; the last said stands.
_RUN_SETTINGS = (
    ("job.global_batch_size", re.compile(r"(?i)\bglobal[ _]batch[ _]size\s*[:=]?\s*(\d{1,7})(?![\d.])")),
    ("job.micro_batch_size", re.compile(r"(?i)\b(?:local|micro)[ _]batch[ _]size\s*[:=]?\s*(\d{1,5})(?![\d.])")),
    ("job.seq_len", re.compile(r"(?i)\b(?:sequence[ _]length|seq[ _]len(?:gth)?)\s*[:=]?\s*(\d{2,7})(?![\d.])")),
)
_MAX_GAP_S = 3600.0  # longer than an hour between step lines is a restart or a pause, not a step
# Per-phase timers that name the whole step. DeepSpeed's pipeline engine and GPT-NeoX print
# 'time (ms) | train_batch: 87510.72 | forward: 2844.74 | … | comms: 74766.41'; only a key that is the whole step
# counts (forward, backward and DeepSpeed's 'step', the optimizer's, are parts of it).
_TIMER_LINE = re.compile(r"\btime \((ms|s)\)\s*\|")
_TIMER_TOTAL = re.compile(r"\|\s*(?:train_batch|total|iteration)\s*:\s*([0-9]+(?:\.[0-9]+)?)(?![\d.])")
# Timing dicts printed per step (FunASR: "{'data_load': '0.000', 'forward_time': '0.294', …, 'total_time': '0.673'}";
# others 'iter_time' / 'batch_time' with 'data_time'): the total is the step, the data key its wait for data.
_DICT_TOTAL = re.compile(r"['\"]?\b(?:total_time|iter_time|iteration_time|batch_time|step_time)['\"]?\s*:\s*['\"]?"
                         r"([0-9]+(?:\.[0-9]+)?)['\"]?(?![\d.])")
_DICT_DATA = re.compile(r"['\"]?\b(?:data_load|data_time|data_load_time|dataload_time|data_wait)['\"]?\s*:\s*['\"]?"
                        r"([0-9]+(?:\.[0-9]+)?)['\"]?(?![\d.])")
_RANK = re.compile(r"\brank\s*[:=]\s*(\d+)")
# PaddlePaddle's suites (PaddleOCR, PaddleDetection, PaddleNLP, PaddleClas) print 'reader_cost: 0.02042 s, batch_cost:
# 1.83910 s, samples: 2880, ips: 521.99 samples/s' (or 'avg_reader_cost' / 'avg_batch_cost'): batch_cost is the seconds
# per iteration averaged over the print window, reader_cost the part of it spent waiting for data; ips is samples/s.
# Paddle Fluid's examples print 'Batch time: 15.881043, sample_per_second: 32.239696' (seconds a batch, then its rate).
_PADDLE_BATCH = re.compile(r"(?<![\w.])(?:(?:avg_)?batch_cost|batch time(?=\s*:\s*[0-9.]+\s*(?:s|sec)?\s*,\s*"
                           r"(?:samples?_per_sec(?:ond)?|samples?/s|examples?_per_sec(?:ond)?|ips)\b))"
                           r"\s*[:=]\s*([0-9]+(?:\.[0-9]+)?)\s*(ms|s|sec)?(?![\w.])",
                           re.IGNORECASE)
_PADDLE_READER = re.compile(r"(?<![\w.])(?:avg_)?reader_cost\s*[:=]\s*([0-9]+(?:\.[0-9]+)?(?:[eE][-+]?\d+)?)"
                            r"\s*(ms|s|sec)?(?![\w.])", re.IGNORECASE)
# PaddleDetection's ppdet.engine says 'data_cost' for the same wait ('batch_cost: 2.9940 data_cost: 2.7134 ips: …'),
# read when the line has no reader_cost of its own
_PADDLE_DATA_COST = re.compile(r"(?<![\w.])data_cost\s*[:=]\s*([0-9]+(?:\.[0-9]+)?(?:[eE][-+]?\d+)?)\s*"
                               r"(ms|s|sec)?(?![\w.])", re.IGNORECASE)
# The share of a step spent communicating as GPT-NeoX's timers print it ('%comms: 85.43695925203818').
_COMMS_PCT = re.compile(r"%\s*comms?\s*[:=]\s*([0-9]+(?:\.[0-9]+)?)")
# PyTorch's examples (imagenet/main.py, and the many scripts copied from it) print AverageMeters as 'value (average)':
# 'Epoch: [0][ 10/5005]\tTime  1.599 ( 2.648)\tData  1.296 ( 2.388)\tLoss …'. The average in brackets is the running
# mean since the epoch began; 'Test: [ 10/196]' lines are validation, not training steps.
_METER_LINE = re.compile(r"^\s*Epoch:\s*\[\s*\d+\s*\]\s*\[\s*\d+\s*/\s*\d+\s*\]")
_METER_TIME = re.compile(r"(?<![\w])Time\s+([0-9]+(?:\.[0-9]+)?)\s*\(\s*([0-9]+(?:\.[0-9]+)?)\s*\)")
_METER_DATA = re.compile(r"(?<![\w])Data\s+([0-9]+(?:\.[0-9]+)?(?:[eE][-+]?\d+)?)\s*"
                         r"\(\s*([0-9]+(?:\.[0-9]+)?(?:[eE][-+]?\d+)?)\s*\)")
# wav2letter / flashlight's epoch lines: 'epoch: 1 | lr: 0.1 | runtime: 01:34:59 | bch(ms): 557.78 | smp(ms): 538.41 |
# fwd(ms): 9.84 | …': bch is the mean time of a batch, smp the part of it spent sampling (loading) the data.
_W2L_BATCH = re.compile(r"(?<![\w.])bch\(ms\)\s*:\s*([0-9]+(?:\.[0-9]+)?)(?![\d.])")
_W2L_SAMPLE = re.compile(r"(?<![\w.])smp\(ms\)\s*:\s*([0-9]+(?:\.[0-9]+)?)(?![\d.])")
# Lines a router may look for to hand a block to this parser (the forms above that its older patterns miss).
ROUTE_HINT = re.compile(r"\btime \((?:ms|s)\)\s*\|[^\n]*\b(?:train_batch|total|iteration)\s*:|"
                        r"['\"]total_time['\"]\s*:\s*['\"]?\d|%\s*comms?\s*[:=]\s*\d|"
                        r"Epoch:\s*\[\s*\d+\s*\]\s*\[\s*\d+\s*/\s*\d+\s*\][^\n]*\bTime\s+\d|"
                        r"(?<![\w.])(?:avg_)?batch_cost\s*[:=]\s*\d|"
                        r"(?<![\w.])Batch time:\s*[0-9.]+\s*,\s*sample_per_second:|"
                        r"(?<![\w.])bch\(ms\)\s*:\s*\d")


@dataclass
class TrainingLogResult:
    """Step times in log order (seconds) and where they came from."""

    source: str | None = None
    step_times_s: list[float] = field(default_factory=list)
    per_step: bool = False
    last_n: int = DEFAULT_LAST_N
    extra: dict[str, float] = field(default_factory=dict)
    settings: dict[str, int] = field(default_factory=dict)  # batch sizes and sequence length the log states
    error: str | None = None

    @property
    def window(self) -> list[float]:
        return self.step_times_s[-self.last_n:] if self.last_n > 0 else list(self.step_times_s)

    @property
    def median_s(self) -> float | None:
        return statistics.median(self.window) if self.window else None

    @property
    def cv(self) -> float | None:
        """stddev / mean over the last N steps; None unless there are three or more per-step times."""
        values = self.window
        if not self.per_step or len(values) < 3:
            return None
        mean = statistics.fmean(values)
        return statistics.pstdev(values) / mean if mean > 0 else None

    def facts(self) -> dict[str, Any]:
        """``job.step_time_s`` (median) and ``job.step_time_cv`` where the log supports them, and the batch sizes and
        sequence length it states."""
        out: dict[str, Any] = dict(self.settings)
        median = self.median_s
        if median is not None and median > 0:
            out["job.step_time_s"] = _significant(median)
        cv = self.cv
        if cv is not None:
            out["job.step_time_cv"] = _significant(cv)
        if self.source in ("metric-lines", "timing-dicts", "average-meters", "paddle-costs", "wav2letter") \
                and (wait := self.extra.get("data_wait_pct")) is not None:
            out["job.data_wait_pct"] = wait
        if (comms := self.extra.get("comm_time_pct")) is not None:
            out["job.comm_time_pct"] = comms
        return out


def _significant(value: float, digits: int = 5) -> float:
    """Round to significant digits: sub-millisecond steps (tiny test models) keep their value."""
    return float(f"{value:.{digits}g}")


def _float(text: str) -> float | None:
    try:
        value = float(text.replace(",", ""))
    except ValueError:
        return None
    return value if value == value and value not in (float("inf"), float("-inf")) else None


def _lines(text: str) -> list[str]:
    """Split on newlines and on tqdm's carriage returns; drop ANSI colours."""
    return [part for part in re.split(r"[\r\n]+", _ANSI.sub("", text)) if part.strip()]


def compile_step_regex(pattern: str) -> re.Pattern[str]:
    """Compile a user's step-time expression; raises ``re.error`` (callers validate config with it)."""
    compiled = re.compile(pattern)
    if compiled.groups == 0:
        raise re.error("the expression needs a group that captures the step time")
    return compiled


def _custom(lines: list[str], pattern: re.Pattern[str]) -> list[float]:
    """Named group ``ms`` (milliseconds) or ``s``/``seconds``, else the first group, in seconds."""
    names = pattern.groupindex
    values: list[float] = []
    for line in lines:
        match = pattern.search(line)
        if not match:
            continue
        if "ms" in names and match.group("ms") is not None:
            value = _float(match.group("ms"))
            value = value / 1000.0 if value is not None else None
        else:
            key = "s" if "s" in names else ("seconds" if "seconds" in names else 1)
            raw = match.group(key)
            value = _float(raw) if raw is not None else None
        if value is not None and value > 0:
            values.append(value)
    return values


# NeMo-RL / many trainers' summaries: "Total step time: 0.85s", "step_time=412.3ms", "avg step time 1.2 s"
_STEP_TIME_LINE = re.compile(r"(?i)\b(?:total |avg |average |mean )?step[_ ]time\s*(?:\(s\))?\s*[=:]?\s*"
                             r"([0-9]+(?:\.[0-9]+)?)\s*(ms|s|sec|seconds)?\b")


def _step_time_lines(lines: list[str]) -> list[float]:
    values: list[float] = []
    for line in lines:
        match = _STEP_TIME_LINE.search(line)
        if match and (value := _float(match.group(1))) is not None and value > 0:
            values.append(value / 1000.0 if (match.group(2) or "").lower() == "ms" else value)
    return values


def _megatron(lines: list[str]) -> list[float]:
    seen: set[int] = set()
    values: list[float] = []
    for line in lines:
        match = _MEGATRON.search(line)
        if not match:
            continue
        iteration = _MEGATRON_ITER.search(line)
        if iteration:  # every pipeline-last rank may print the same line
            number = int(iteration.group(1))
            if number in seen:
                continue
            seen.add(number)
        value = _float(match.group(1))
        if value is not None and value > 0:
            values.append(value / 1000.0)
    return values


def _nemo(lines: list[str]) -> list[float]:
    by_step: dict[int, float] = {}
    ordered: list[float] = []
    for line in lines:
        match = _NEMO.search(line)
        if not match:
            continue
        value = _float(match.group(1))
        if value is None or value <= 0:
            continue
        step = _GLOBAL_STEP.search(line)
        if step:  # a progress bar redraws the same step many times
            by_step[int(float(step.group(1)))] = value
        else:
            ordered.append(value)
    return [by_step[k] for k in sorted(by_step)] if by_step else ordered


def _timestamp(line: str) -> datetime | None:
    match = _TIMESTAMP.search(line)
    if not match:
        return None
    fraction = (match.group(3) or "0").ljust(6, "0")
    try:
        return datetime.fromisoformat(f"{match.group(1)} {match.group(2)}.{fraction}")
    except ValueError:
        return None


def _timestamp_deltas(lines: list[str]) -> list[float]:
    """Wall time per step between consecutive timestamped step lines (one entry per step)."""
    points: list[tuple[int, datetime]] = []
    seen: set[int] = set()
    for line in lines:
        stamp = _timestamp(line)
        if stamp is None:
            continue
        for counter in _STEP_COUNTERS:
            match = counter.search(line)
            if match:
                step = int(match.group(1))
                if step not in seen:
                    seen.add(step)
                    points.append((step, stamp))
                break
    values: list[float] = []
    for (step_a, time_a), (step_b, time_b) in zip(points, points[1:], strict=False):
        steps = step_b - step_a
        seconds = (time_b - time_a).total_seconds()
        if steps <= 0 or seconds <= 0 or seconds / steps > _MAX_GAP_S:
            continue
        values.append(seconds / steps)
    return values


def _tqdm(lines: list[str]) -> list[float]:
    """One value per bar position; a bar redrawn at the same position keeps its latest rate."""
    values: list[float] = []
    last_count: int | None = None
    for line in lines:
        match = _TQDM.search(line) or _RICH.search(line)
        if not match or any(line.lstrip().startswith(skip) for skip in _TQDM_SKIP):
            continue
        rate = _float(match.group(3))
        if rate is None or rate <= 0:
            continue
        seconds = rate if match.group(4) == "s/it" else 1.0 / rate
        count = int(match.group(1))
        if count == last_count and values:
            values[-1] = seconds
        else:
            values.append(seconds)
        last_count = count
    return values


def _rate_lines(lines: list[str]) -> list[float]:
    """Seconds per step from step lines that print a rate, and from TensorFlow's global_step/sec."""
    values: list[float] = []
    for line in lines:
        if m := _TF_STEPS_PER_S.search(line):
            rate = _float(m.group(1))
            if rate is not None and rate > 0:
                values.append(1.0 / rate)
            continue
        if _TQDM.search(line) or _RICH.search(line) or not _RATE_STEP.search(line):
            continue
        found = _RATE_LINE.findall(line)
        if len(found) != 1:
            continue  # no rate, or two that could differ (a window's and the run's)
        rate = _float(found[0][0])
        if rate is None or rate <= 0:
            continue
        per = found[0][1].lower()
        values.append(rate if per.startswith(("s/", "sec/")) else 1.0 / rate)
    return [v for v in values if v <= _MAX_GAP_S]


def _step_calls(lines: list[str]) -> list[float]:
    values: list[float] = []
    for line in lines:
        for match in _STEP_CALL.finditer(line):
            value = _float(match.group(1))
            if value is not None and 0 < value <= _MAX_GAP_S * 1000:
                values.append(value / 1000.0 if (match.group(2) or "").lower() == "ms" else value)
    return [v for v in values if v <= _MAX_GAP_S]


def _metric_lines(lines: list[str]) -> list[tuple[float, float | None]]:
    """(time, data_time) of each detectron2/mmcv metric line, in seconds."""
    out: list[tuple[float, float | None]] = []
    for line in lines:
        if not _METRIC_LINE.search(line) or not (match := _WINDOW_TIME.search(line)):
            continue
        value = _float(match.group(1))
        if value is None or value <= 0:
            continue
        if (match.group(2) or "").lower() == "ms":
            value /= 1000.0
        data = _DATA_TIME.search(line)
        out.append((value, _float(data.group(1)) if data else None))
    return out


def _window_times(lines: list[str]) -> list[float]:
    return [value for value, _ in _metric_lines(lines)]


def _data_wait_pct(lines: list[str]) -> float | None:
    """Share of the step spent waiting for data: median data_time ÷ median time over the lines that give both."""
    pairs = [(t, d) for t, d in _metric_lines(lines) if d is not None and 0 <= d <= t]
    if not pairs:
        return None
    return round(100.0 * statistics.median(d for _, d in pairs) / statistics.median(t for t, _ in pairs), 2)


def _meters(lines: list[str]) -> list[tuple[float, float | None]]:
    """(running average of Time, of Data) of each PyTorch-example training line, in seconds."""
    out: list[tuple[float, float | None]] = []
    for line in lines:
        if not _METER_LINE.match(line) or not (t := _METER_TIME.search(line)):
            continue
        avg = _float(t.group(2))
        if avg is None or avg <= 0:
            continue
        data = _METER_DATA.search(line)
        out.append((avg, _float(data.group(2)) if data else None))
    return out


def _meter_times(lines: list[str]) -> list[float]:
    """The last running average: the mean step time over the epoch so far (earlier ones hold the warm-up)."""
    rows = _meters(lines)
    return [rows[-1][0]] if rows else []


def _seconds(value: float, unit: str | None) -> float:
    return value / 1000.0 if (unit or "").lower() == "ms" else value


def _paddle_costs(lines: list[str]) -> list[tuple[float, float | None]]:
    """(batch_cost, reader_cost) of each Paddle metric line, in seconds."""
    out: list[tuple[float, float | None]] = []
    for line in lines:
        batch = _PADDLE_BATCH.search(line)
        value = _float(batch.group(1)) if batch else None
        if batch is None or value is None or value <= 0:
            continue
        reader = _PADDLE_READER.search(line) or _PADDLE_DATA_COST.search(line)
        wait = _float(reader.group(1)) if reader else None
        out.append((_seconds(value, batch.group(2)),
                    _seconds(wait, reader.group(2)) if reader and wait is not None else None))
    return out


def _w2l_meters(lines: list[str]) -> list[tuple[float, float | None]]:
    """(bch, smp) of each wav2letter epoch line, in seconds."""
    out: list[tuple[float, float | None]] = []
    for line in lines:
        batch = _W2L_BATCH.search(line)
        value = _float(batch.group(1)) if batch else None
        if value is None or value <= 0:
            continue
        sample = _W2L_SAMPLE.search(line)
        wait = _float(sample.group(1)) if sample else None
        out.append((value / 1000.0, wait / 1000.0 if wait is not None else None))
    return out


def _w2l_batch_times(lines: list[str]) -> list[float]:
    return [value for value, _ in _w2l_meters(lines)]


def _paddle_batch_costs(lines: list[str]) -> list[float]:
    return [value for value, _ in _paddle_costs(lines)]


def _timer_lines(lines: list[str]) -> list[float]:
    """The whole step from per-phase timer lines ('time (ms) | train_batch: 87510.72 | …'), in seconds."""
    values: list[float] = []
    for line in lines:
        head = _TIMER_LINE.search(line)
        match = _TIMER_TOTAL.search(line, head.end() - 1) if head else None
        if head and match and (value := _float(match.group(1))) is not None and value > 0:
            values.append(value / 1000.0 if head.group(1) == "ms" else value)
    return values


def _timing_dicts(lines: list[str]) -> list[tuple[float, float | None, str | None]]:
    """(total, data wait, rank) of each line printing a timing dict with a total ('total_time': '0.673')."""
    out: list[tuple[float, float | None, str | None]] = []
    for line in lines:
        match = _DICT_TOTAL.search(line)
        value = _float(match.group(1)) if match else None
        if value is None or value <= 0:
            continue
        data = _DICT_DATA.search(line)
        rank = _RANK.search(line)
        out.append((value, _float(data.group(1)) if data else None, rank.group(1) if rank else None))
    return out


def _dict_totals(lines: list[str]) -> list[float]:
    return [value for value, _, _ in _timing_dicts(lines)]


def _comms_pct(lines: list[str]) -> float | None:
    """The last '%comms: N' a timer printed, rounded to a tenth of a per cent."""
    found = [v for line in lines if (m := _COMMS_PCT.search(line)) and (v := _float(m.group(1))) is not None]
    return round(found[-1], 1) if found and 0 < found[-1] <= 100 else None


def _hf_summary(lines: list[str]) -> list[float]:
    values: list[float] = []
    for line in lines:
        match = _HF_STEPS_PER_S.search(line)
        if match:
            rate = _float(match.group(1) or match.group(2))
            if rate is not None and rate > 0:
                values.append(1.0 / rate)
    return values


def _extras(lines: list[str]) -> dict[str, float]:
    extra: dict[str, float] = {}
    for line in lines:
        for key, pattern in (("samples_per_s", _SAMPLES_PER_S), ("tokens_per_s", _TPS), ("mfu_pct", _MFU)):
            match = pattern.search(line)
            if match:
                value = _float(match.group(1))
                if value is not None:
                    extra[key] = value
    return extra


def _run_settings(lines: list[str]) -> dict[str, int]:
    settings: dict[str, int] = {}
    for line in lines:
        for fact, pattern in _RUN_SETTINGS:
            if (match := pattern.search(line)) and int(match.group(1)) > 0:
                settings[fact] = int(match.group(1))
    return settings


def parse_training_log(
    text: str, *, step_regex: str | re.Pattern[str] | None = None, last_n: int = DEFAULT_LAST_N
) -> TrainingLogResult:
    """Parse a training log (any of the formats above); unknown text gives an empty result."""
    result = TrainingLogResult(last_n=last_n)
    if not isinstance(text, str) or not text:
        return result
    lines = _lines(text)
    result.extra = _extras(lines)
    if (comms := _comms_pct(lines)) is not None:
        result.extra["comm_time_pct"] = comms
    result.settings = _run_settings(lines)
    if step_regex is not None:
        try:
            pattern = compile_step_regex(step_regex) if isinstance(step_regex, str) else step_regex
        except re.error as exc:
            result.error = f"bad step-time expression: {exc}"
            return result
        values = _custom(lines, pattern)
        if values:
            result.source, result.step_times_s, result.per_step = "custom", values, True
            return result
    for source, extractor, per_step in (
        ("megatron", _megatron, True),
        ("nemo", _nemo, True),
        ("timestamps", _timestamp_deltas, True),
        ("step-calls", _step_calls, True),
        ("average-meters", _meter_times, False),
        ("metric-lines", _window_times, False),
        ("paddle-costs", _paddle_batch_costs, False),
        ("wav2letter", _w2l_batch_times, False),
        ("tqdm", _tqdm, False),
        ("rate-lines", _rate_lines, False),
        ("step-time-lines", _step_time_lines, True),
        ("timer-lines", _timer_lines, True),
        ("timing-dicts", _dict_totals, True),
        ("trainer-summary", _hf_summary, False),
    ):
        values = extractor(lines)
        if values:
            result.source, result.step_times_s, result.per_step = source, values, per_step
            if source == "average-meters":
                t_avg, d_avg = _meters(lines)[-1]
                if d_avg is not None and 0 <= d_avg <= t_avg:
                    result.extra["data_wait_pct"] = round(100.0 * d_avg / t_avg, 2)
            if source == "metric-lines" and (wait := _data_wait_pct(lines)) is not None:
                result.extra["data_wait_pct"] = wait
            if source in ("paddle-costs", "wav2letter"):
                costs = _paddle_costs(lines) if source == "paddle-costs" else _w2l_meters(lines)
                waits = [(t, d) for t, d in costs if d is not None and 0 <= d <= t]
                if waits:
                    result.extra["data_wait_pct"] = round(100.0 * statistics.median(d for _, d in waits)
                                                          / statistics.median(t for t, _ in waits), 2)
            if source == "timing-dicts":
                rows = _timing_dicts(lines)
                # lines of several ranks are one step seen from each: their spread is no step-to-step jitter
                result.per_step = len({rank for _, _, rank in rows if rank is not None}) <= 1
                waits = [(t, d) for t, d, _ in rows if d is not None and 0 <= d <= t]
                if waits:
                    result.extra["data_wait_pct"] = round(100.0 * statistics.median(d for _, d in waits)
                                                          / statistics.median(t for t, _ in waits), 2)
            return result
    return result
