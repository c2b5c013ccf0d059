"""Change points on generated histories with known change points and noise; no alarm on flat noise;
checkpoint spikes found when regular, not when random."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from bwdoctor.fabric.regress import change_points, checkpoint_spikes, node_regressions


def noisy(rng: random.Random, level: float, n: int, cv: float = 0.05) -> list[float]:
    return [rng.gauss(level, level * cv) for _ in range(n)]


@pytest.mark.parametrize("seed", range(10))
def test_a_known_step_change_is_found_at_the_right_place(seed):
    rng = random.Random(seed)
    values = noisy(rng, 1.0, 40) + noisy(rng, 1.35, 40)
    found = change_points(values)
    assert len(found) == 1
    assert abs(found[0].index - 40) <= 2
    assert found[0].relative_change == pytest.approx(0.35, abs=0.05)


@pytest.mark.parametrize("seed", range(10))
def test_two_known_changes_are_both_found(seed):
    rng = random.Random(100 + seed)
    values = noisy(rng, 10.0, 30) + noisy(rng, 6.0, 30) + noisy(rng, 9.0, 30)
    found = change_points(values)
    assert [abs(c.index - k) <= 2 for c, k in zip(found, (30, 60), strict=True)] == [True, True]


@pytest.mark.parametrize("seed", range(50))
def test_flat_noisy_history_raises_no_alarm(seed):
    rng = random.Random(1000 + seed)
    assert change_points(noisy(rng, 1.0, 120, cv=0.15)) == []


def test_a_small_but_real_drift_below_ten_percent_is_not_reported():
    rng = random.Random(7)
    assert change_points(noisy(rng, 1.0, 50, cv=0.01) + noisy(rng, 1.05, 50, cv=0.01)) == []


def test_node_regression_names_the_time_the_size_and_what_changed_with_it():
    rng = random.Random(3)
    t0 = datetime(2026, 11, 3, 9, 0, tzinfo=UTC)
    history = []
    for i in range(60):
        slow = i >= 35
        facts = {
            "job.step_time_s": rng.gauss(1.35 if slow else 1.0, 0.03),
            "nccl.version": "2.21.5" if slow else "2.19.3",
            "nic.speed_gbps": 100,
        }
        history.append((t0 + timedelta(hours=i), facts))
    (found,) = node_regressions("gpu-a07", history)
    assert found.fact == "job.step_time_s" and found.since == t0 + timedelta(hours=35)
    assert 30 <= found.pct_worse <= 40
    assert found.changed_with == {"nccl.version": ("2.19.3", "2.21.5")}
    assert "Since 2026-11-04T20:00+00:00, node gpu-a07 is 3" in found.sentence()
    assert "nccl.version" in found.sentence() and "节点 gpu-a07" in found.sentence("zh")


def test_improvements_are_not_regressions():
    rng = random.Random(4)
    history = [(i, {"net.iperf3_gbps": rng.gauss(50 if i < 30 else 90, 2)}) for i in range(60)]
    assert node_regressions("n", history) == []


def test_regular_spikes_are_checkpoint_contention_with_their_cost():
    rng = random.Random(5)
    steps = [rng.gauss(1.0, 0.02) for _ in range(200)]
    for i in range(19, 200, 20):
        steps[i] += 4.0
    found = checkpoint_spikes(steps, checkpoint_every_steps=20)
    assert found is not None and found.period_steps == 20 and found.matches_interval is True
    assert 10 <= found.cost_pct <= 20  # 10 spikes × 4 s over ~240 s


def test_random_spikes_are_not_checkpoint_contention():
    rng = random.Random(6)
    steps = [rng.gauss(1.0, 0.02) for _ in range(200)]
    for i in rng.sample(range(200), 8):
        steps[i] += 4.0
    assert checkpoint_spikes(steps) is None
    assert checkpoint_spikes([rng.gauss(1.0, 0.02) for _ in range(200)]) is None
