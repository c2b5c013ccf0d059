"""Lasting changes in a node's history, and periodic step-time spikes. Pure.

Change points: binary segmentation. For a series of n values, the split (at least `min_segment`
points on each side) that most reduces the squared error around the two sides' means is a change
point when Welch's two-sample t statistic there exceeds `t_threshold` and the means differ by at
least `min_relative_change`; each side is then searched again. The threshold is set
high (8 by default, not the 2 of a single textbook test) because the best of n splits is taken — a
maximum over many correlated tests — so a flat noisy history does not raise an alarm
(tests/fabric/test_regress.py checks both: known change points found, flat noise quiet).
This is the two-window test of the change-point literature (e.g. Basseville & Nikiforov 1993,
ch. 2); `ruptures` would add a dependency for what fifty lines do here.

Checkpoint contention: step times far above the median (modified z-score > 3.5) that recur at a
regular interval (the gaps between spikes vary by under 25 %) are reported with their period and
cost — the spikes' excess time as a share of all the time — and, when the job's checkpoint
interval is known, whether the period matches it.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

# Facts watched for lasting change, and whether higher is worse.
WATCHED: dict[str, bool] = {
    "job.step_time_s": True,
    "nccl.allreduce_busbw_gbytes_per_s": False,
    "net.iperf3_gbps": False,
    "nic.speed_gbps": False,
}
# Facts whose change at the same time is named as a likely cause.
CONTEXT_FACTS = (
    "nic.speed_gbps",
    "nic.mtu",
    "nccl.version",
    "nccl.transport",
    "gpu.driver_version",
    "node.leaf_switch",
    "nccl.socket_ifname",
)


@dataclass
class ChangePoint:
    """At index `index` (time `at`), the series' mean moved from `before` to `after`."""

    index: int
    at: Any
    before: float
    after: float
    t_statistic: float

    @property
    def relative_change(self) -> float:
        return (self.after - self.before) / self.before if self.before else math.inf


def _welch_t(left: Sequence[float], right: Sequence[float]) -> float:
    m1, m2 = statistics.fmean(left), statistics.fmean(right)
    v1, v2 = statistics.variance(left), statistics.variance(right)
    denom = math.sqrt(v1 / len(left) + v2 / len(right))
    if denom == 0:
        return math.inf if m1 != m2 else 0.0
    return (m2 - m1) / denom


def change_points(
    values: Sequence[float],
    times: Sequence[Any] | None = None,
    *,
    min_segment: int = 5,
    t_threshold: float = 8.0,
    min_relative_change: float = 0.1,
) -> list[ChangePoint]:
    """Lasting shifts of the mean, oldest first (see the module docstring for the method)."""
    times = list(times) if times is not None else list(range(len(values)))
    found: list[ChangePoint] = []

    def search(lo: int, hi: int) -> None:
        if hi - lo < 2 * min_segment:
            return
        # Where: the split that most reduces the squared error (least-squares binary segmentation,
        # which places a change well even when the segment holds another); whether: Welch's t there.
        total = sum(values[lo:hi])
        n = hi - lo
        best_gain, best_k, left_sum = -1.0, -1, sum(values[lo : lo + min_segment - 1])
        for k in range(lo + min_segment, hi - min_segment + 1):
            left_sum += values[k - 1]
            n1, n2 = k - lo, hi - k
            gap = left_sum / n1 - (total - left_sum) / n2
            gain = n1 * n2 / n * gap * gap
            if gain > best_gain:
                best_gain, best_k = gain, k
        if best_k < 0:
            return
        best_t = _welch_t(values[lo:best_k], values[best_k:hi])
        if abs(best_t) < t_threshold:
            return
        before, after = statistics.fmean(values[lo:best_k]), statistics.fmean(values[best_k:hi])
        if before == 0 or abs(after - before) / abs(before) < min_relative_change:
            return
        found.append(ChangePoint(best_k, times[best_k], before, after, best_t))
        search(lo, best_k)
        search(best_k, hi)

    search(0, len(values))
    return sorted(found, key=lambda c: c.index)


@dataclass
class Regression:
    """Since `since`, `fact` on `node` is `pct` % worse; the facts that changed at the same time."""

    node: str
    fact: str
    since: Any
    before: float
    after: float
    pct_worse: float
    changed_with: dict[str, tuple[Any, Any]] = field(default_factory=dict)

    def sentence(self, lang: str = "en") -> str:
        when = self.since.isoformat(timespec="minutes") if isinstance(self.since, datetime) else str(self.since)
        slower = self.fact == "job.step_time_s"
        also = ", ".join(f"{k} {a!r} → {b!r}" for k, (a, b) in self.changed_with.items())
        if lang == "zh":
            word = "变慢" if slower else "下降"
            values = f"{self.before:g} → {self.after:g}"
            text = f"自 {when} 起，节点 {self.node} 的 {self.fact} {word} {self.pct_worse:.0f}%（{values}）"
            return text + (f"；同时变化的有：{also}。" if also else "。")
        word = "slower" if slower else "lower"
        text = (
            f"Since {when}, node {self.node} is {self.pct_worse:.0f} % {word} on {self.fact} "
            f"({self.before:g} → {self.after:g})"
        )
        return text + (f"; at the same time {also}." if also else ".")


def node_regressions(node: str, history: Sequence[tuple[Any, Mapping[str, Any]]], **kw: Any) -> list[Regression]:
    """Lasting worsening of each watched fact in a node's history [(time, facts)], oldest first,
    with the context facts whose value differs before and after the change."""
    out: list[Regression] = []
    for fact, higher_is_worse in WATCHED.items():
        points = [(t, float(f[fact])) for t, f in history if isinstance(f.get(fact), int | float)]
        if len(points) < 10:
            continue
        times, values = [p[0] for p in points], [p[1] for p in points]
        for cp in change_points(values, times, **kw):
            worse = cp.after > cp.before if higher_is_worse else cp.after < cp.before
            if not worse:
                continue
            pct = abs(cp.relative_change) * 100
            out.append(
                Regression(
                    node,
                    fact,
                    cp.at,
                    round(cp.before, 4),
                    round(cp.after, 4),
                    round(pct, 1),
                    _changed_with(history, cp.at),
                )
            )
    return out


def _changed_with(history: Sequence[tuple[Any, Mapping[str, Any]]], at: Any) -> dict[str, tuple[Any, Any]]:
    before = [f for t, f in history if t < at]
    after = [f for t, f in history if t >= at]
    changed: dict[str, tuple[Any, Any]] = {}
    if not before or not after:
        return changed
    for key in CONTEXT_FACTS:
        old, new = before[-1].get(key), after[0].get(key)
        if old is not None and new is not None and old != new:
            changed[key] = (old, new)
    return changed


@dataclass
class CheckpointContention:
    """Step-time spikes every `period_steps` steps, costing `cost_pct` % of the training time."""

    spikes: list[int]
    period_steps: float
    spike_excess_s: float
    cost_pct: float
    matches_interval: bool | None
    median_s: float = 0.0  # the usual step
    steps: int = 0  # how many step times were looked at
    interval_steps: int | None = None  # the job's checkpoint interval, when known

    def sentence(self, lang: str = "en") -> str:
        """What the spikes are and cost. Called checkpoint contention only when the period matches the
        checkpoint interval; with the interval unknown it is a likely cause, and with another interval
        something else recurs."""
        n, per_spike = len(self.spikes), self.spike_excess_s / max(len(self.spikes), 1)
        if lang == "zh":
            head = {
                True: "checkpoint 争用",
                None: "周期性的 step 变慢（很可能是保存 checkpoint）",
                False: "周期性的 step 变慢",
            }[self.matches_interval]
            text = (
                f"{head}：每 {self.period_steps:g} 步就有一步比平常的 {self.median_s:g} 秒多花 {per_spike:.1f} 秒"
                f"（最近 {self.steps} 步中 {n} 次），占训练时间的 {self.cost_pct:.1f}%"
            )
            if self.matches_interval:
                return text + (
                    f"，与每 {self.interval_steps} 步一次的 checkpoint 一致。异步保存或先写本地盘可省回大部分。"
                )
            if self.matches_interval is False:
                return text + f"；但 checkpoint 是每 {self.interval_steps} 步一次，应是别的周期性任务。"
            return text + "。告诉我 checkpoint 间隔（job.checkpoint_interval_steps）即可确认。"
        head = {True: "Checkpoint contention", None: "Periodic slow steps (likely checkpoint saves)",
                False: "Periodic slow steps"}[self.matches_interval]  # fmt: skip
        text = (
            f"{head}: every {self.period_steps:g} steps one step takes {per_spike:.1f} s longer than the usual "
            f"{self.median_s:g} s ({n} times in the last {self.steps} steps), costing {self.cost_pct:.1f} % of "
            "training time"
        )
        if self.matches_interval:
            return text + (
                f"; it matches the checkpoint interval ({self.interval_steps} steps). Saving asynchronously, "
                "or to local disk first, would win most of it back."
            )
        if self.matches_interval is False:
            return text + f"; checkpoints are every {self.interval_steps} steps, so something else recurs."
        return text + ". The checkpoint interval (job.checkpoint_interval_steps) would confirm it."


def checkpoint_spikes(
    step_times: Sequence[float], *, checkpoint_every_steps: int | None = None, min_spikes: int = 3
) -> CheckpointContention | None:
    """Regular step-time spikes (see the module docstring); None when there are none or they are irregular."""
    if len(step_times) < 10:
        return None
    median = statistics.median(step_times)
    mad = statistics.median(abs(v - median) for v in step_times) or median * 0.01
    spikes = [i for i, v in enumerate(step_times) if 0.6745 * (v - median) / mad > 3.5 and v > 1.2 * median]
    if len(spikes) < min_spikes:
        return None
    gaps = [b - a for a, b in zip(spikes, spikes[1:], strict=False)]
    period = statistics.fmean(gaps)
    if period < 2 or statistics.pstdev(gaps) / period > 0.25:
        return None
    excess = sum(step_times[i] - median for i in spikes)
    cost = 100.0 * excess / sum(step_times)
    matches = None
    if checkpoint_every_steps:
        matches = abs(period - checkpoint_every_steps) <= 0.1 * checkpoint_every_steps + 1
    return CheckpointContention(
        spikes,
        round(period, 1),
        round(excess, 3),
        round(cost, 1),
        matches,
        median_s=round(median, 4),
        steps=len(step_times),
        interval_steps=checkpoint_every_steps or None,
    )
