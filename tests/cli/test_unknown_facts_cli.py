"""`bwdoctor diagnose` and `bwdoctor preflight` as processes: an unknown fact name is a warning naming
the key and the closest known one; `--strict` makes it exit 2 (CI pre-flight)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.helpers import REPO


def bwdoctor(*args: str, cwd) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "BWDOCTOR_HOME": str(cwd)}
    return subprocess.run([sys.executable, "-m", "bwdoctor.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_diagnose_and_preflight_warn_and_strict_fails(tmp_path):
    job = tmp_path / "job.yaml"
    job.write_text("job.nodez: 8\njob.model_params_b: 70\nnic.speed_gbps: 25\n")
    for command in (["diagnose"], ["preflight"]):
        loose = bwdoctor(*command, str(job), cwd=tmp_path)
        assert loose.returncode in (0, 3, 4), loose.stderr
        assert "unknown fact 'job.nodez'" in loose.stderr and "did you mean job.nodes?" in loose.stderr
        strict = bwdoctor(*command, "--strict", str(job), cwd=tmp_path)
        assert strict.returncode == 2, strict.stdout + strict.stderr
        assert "job.nodez" in strict.stderr and "job.nodes" in strict.stderr and "Traceback" not in strict.stderr

    as_json = json.loads(bwdoctor("diagnose", "--format", "json", str(job), cwd=tmp_path).stdout)
    assert as_json["warnings"][0]["closest"] == "job.nodes"
    clean = tmp_path / "clean.yaml"
    clean.write_text("job.nodes: 8\n")
    quiet = bwdoctor("diagnose", "--strict", str(clean), cwd=tmp_path)
    assert quiet.returncode == 0 and "warning" not in quiet.stderr
