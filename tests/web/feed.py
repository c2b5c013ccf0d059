"""Feeding a cluster for the cluster-view tests: real `agent-probe collect` reports, PUT like a probe.

This machine has no GPU and no iperf3 peers, so the figures only a GPU node with peers can measure
(gpu.util_pct, net.iperf3_gbps) and the job's facts are added to what the probe really collected;
step times come from the probe parsing a training log written per node.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx


def probe_command() -> list[str]:
    """The installed `agent-probe` script, or the same CLI through this interpreter."""
    script = shutil.which("agent-probe", path=str(Path(sys.executable).parent))
    if script:
        return [script]
    return [sys.executable, "-c", "import sys; from bwdoctor_probe.cli import main; sys.exit(main())"]


def write_training_log(path: Path, step_s: float, steps: int = 8) -> Path:
    """A Megatron-style training log (one of the formats the probe recognises) with this step time."""
    lines = [
        f" [2026-01-01 12:00:{i:02d}] iteration {100 + i:8d}/   20000 | consumed samples: {512 * i:12d} | "
        f"elapsed time per iteration (ms): {step_s * 1000 * (1 + (i % 3 - 1) * 0.01):.1f} | "
        "learning rate: 3.0E-04 | global batch size:   512 | lm loss: 3.1E+00 |"
        for i in range(1, steps + 1)
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def start_probe(node_id: str, cluster: str, zone: str, training_log: Path, nic_speed_gbps: float) -> subprocess.Popen:
    """Start one `agent-probe collect --format json` pass (several run at once to save time)."""
    cmd = probe_command() + [
        "collect",
        "--format",
        "json",
        "--node-id",
        node_id,
        "--cluster",
        cluster,
        "--zone",
        zone,
        "--no-gpu",
        "--window",
        "0.5",
        "--nic-speed-gbps",
        str(nic_speed_gbps),
        "--training-log",
        str(training_log),
    ]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def probe_facts(process: subprocess.Popen, timeout_s: float = 60) -> dict[str, Any]:
    """The facts of a finished probe pass; fails the test with the probe's stderr otherwise."""
    out, err = process.communicate(timeout=timeout_s)
    if process.returncode != 0:
        raise AssertionError(f"agent-probe collect exited {process.returncode}: {err}")
    report = json.loads(out)
    return dict(report["facts"])


def put_report(
    http: httpx.Client | Any,
    token: str,
    node_id: str,
    facts: Mapping[str, Any],
    collected_at: datetime,
    report_id: str | None = None,
) -> None:
    """PUT a report the way the probe's client does; the service must store it (201)."""
    body: dict[str, Any] = {"facts": dict(facts), "collected_at": collected_at.isoformat()}
    if report_id:
        body["report_id"] = report_id
    response = http.put(f"/api/v1/nodes/{node_id}/facts", json=body, headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 201, response.text
