"""Per-step times for checkpoint contention (issue 16): the training-log collector sends the last
`step_times_sent` per-step times as job.step_times_s — only when the log has per-step times (a tqdm
rate is an average) — and the service finds the regular spikes in them, matched against the
checkpoint interval, with their cost (GET /api/v1/nodes/{id}/regressions, en and zh)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from bwdoctor_probe.collectors.files import collect_training_log
from bwdoctor_probe.config import ConfigError, load_config
from tests.agent_probe.test_report_accepted import service  # noqa: F401  (the service on a fresh SQLite file)
from tests.conftest import REPO


def megatron_log(path: Path, *, steps: int = 200, every: int = 25, save_s: float = 30.0, seed: int = 3) -> Path:
    """A Megatron-LM log: ~4.2 s iterations, and the iteration after each checkpoint save `save_s` longer."""
    rng = random.Random(seed)
    lines = []
    for i in range(1, steps + 1):
        ms = rng.gauss(4200.0, 40.0) + (save_s * 1000 if i % every == 1 and i > 1 else 0.0)
        if i % every == 0:
            lines.append(f" saving checkpoint at iteration {i:8d} to /ckpt")
        lines.append(
            f" [2025-03-04 10:00:44] iteration {i:8d}/   20000 | consumed samples: {512 * i:13d} | "
            f"elapsed time per iteration (ms): {ms:.1f} | learning rate: 2.990000E-04 | global batch size:   512 |"
        )
    path.write_text("\n".join(lines) + "\n")
    return path


def test_the_collector_sends_the_last_per_step_times(tmp_path):
    log = megatron_log(tmp_path / "train.log")
    result = collect_training_log(log, max_bytes=1 << 20, step_regex=None, last_n=20, times_sent=150)
    times = result.facts["job.step_times_s"]
    assert len(times) == 150 and max(times) > 30 and min(times) > 4
    assert result.facts["job.step_time_s"] == pytest.approx(4.2, abs=0.1)  # the median still ignores spikes
    off = collect_training_log(log, max_bytes=1 << 20, step_regex=None, last_n=20, times_sent=0)
    assert "job.step_times_s" not in off.facts and "job.step_time_s" in off.facts


def test_an_average_rate_sends_no_step_times(fixtures_dir):
    tqdm = collect_training_log(
        fixtures_dir / "hf_trainer_tqdm_s_per_it_raw.txt", max_bytes=1 << 20, step_regex=None, last_n=20, times_sent=200
    )
    assert "job.step_time_s" in tqdm.facts and "job.step_times_s" not in tqdm.facts


def test_step_times_sent_is_a_setting_within_the_services_list_limit(tmp_path):
    assert load_config(env={}).step_times_sent == 200
    assert load_config(env={"AGENT_PROBE_STEP_TIMES_SENT": "0"}).step_times_sent == 0
    with pytest.raises(ConfigError, match="step_times_sent: at most 1000"):
        load_config(env={"AGENT_PROBE_STEP_TIMES_SENT": "5000"})


def probe_collect(log: Path) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "bwdoctor_probe.cli", "collect", "--format", "json", "--window", "0", "--no-gpu",
         "--training-log", str(log)],
        capture_output=True, text=True, cwd=REPO, timeout=60, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["facts"]


def test_checkpoint_contention_from_a_real_probe_pass_through_the_service(service, tmp_path):  # noqa: F811
    client, auth = service
    facts = probe_collect(megatron_log(tmp_path / "train.log"))
    assert len(facts["job.step_times_s"]) == 200
    facts = {**facts, "node.id": "gpu-07", "node.cluster": "llm"}
    body = {"facts": facts, "report_id": uuid.uuid4().hex}
    assert client.put("/api/v1/nodes/gpu-07/facts", json=body, headers=auth).status_code == 201

    # Without the checkpoint interval: periodic spikes, likely checkpoints, and what they cost.
    found = client.get("/api/v1/nodes/gpu-07/regressions").json()["checkpoint_contention"]
    assert found["period_steps"] == 25 and found["spikes"] == 7 and found["matches_interval"] is None
    assert 15 <= found["cost_pct"] <= 25  # 7 × 30 s over ~1,050 s
    assert "likely checkpoint" in found["text"] and f"{found['cost_pct']:.1f} %" in found["text"]

    # The cluster's job says checkpoints are every 25 steps: checkpoint contention, in both languages.
    job = {"facts": {"job.checkpoint_interval_steps": 25}}
    assert client.put("/api/v1/clusters/llm/job", json=job, headers=auth).status_code == 200
    en = client.get("/api/v1/nodes/gpu-07/regressions").json()["checkpoint_contention"]
    assert en["matches_interval"] is True and en["text"].startswith("Checkpoint contention: every 25 steps")
    zh = client.get("/api/v1/nodes/gpu-07/regressions", params={"lang": "zh"}).json()["checkpoint_contention"]
    assert zh["text"].startswith("checkpoint 争用：每 25 步") and f"{en['cost_pct']:.1f}%" in zh["text"]

    # Another interval: the spikes are something else, and not called checkpoint contention.
    job = {"facts": {"job.checkpoint_interval_steps": 100}}
    client.put("/api/v1/clusters/llm/job", json=job, headers=auth)
    other = client.get("/api/v1/nodes/gpu-07/regressions").json()["checkpoint_contention"]
    assert other["matches_interval"] is False and "something else recurs" in other["text"]


def test_steady_steps_report_no_contention(service, tmp_path):  # noqa: F811
    client, auth = service
    facts = probe_collect(megatron_log(tmp_path / "steady.log", save_s=0.0))
    body = {"facts": {**facts, "node.id": "gpu-08"}, "report_id": uuid.uuid4().hex}
    assert client.put("/api/v1/nodes/gpu-08/facts", json=body, headers=auth).status_code == 201
    assert client.get("/api/v1/nodes/gpu-08/regressions").json()["checkpoint_contention"] is None
