"""The probe installs alone: `pip install ./agent_probe` into a clean venv gives a working `agent-probe`
with httpx, PyYAML and nvidia-ml-py, and none of the service's dependencies (FastAPI, SQLAlchemy…).

It builds and installs a package (about half a minute with a warm pip cache), so it is marked slow;
the suite runs it everywhere, CI included.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SERVICE_ONLY = ("fastapi", "sqlalchemy", "uvicorn", "psycopg", "slack_bolt", "alembic", "jinja2", "pydantic")


@pytest.mark.slow
def test_the_probe_installs_alone_into_a_clean_venv_and_collects(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python, probe = venv / "bin" / "python", venv / "bin" / "agent-probe"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", str(REPO / "agent_probe")],
        capture_output=True, text=True, timeout=240, env=env, cwd=tmp_path,
    )
    assert install.returncode == 0, install.stdout + install.stderr

    # Run from a folder outside the checkout: only what pip installed can be imported.
    collected = subprocess.run(
        [str(probe), "collect", "--format", "text", "--window", "0.2"],
        capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path,
    )
    assert collected.returncode == 0, collected.stderr
    assert "cpu.util_pct" in collected.stdout and "mem.used_pct" in collected.stdout

    listed = subprocess.run(
        [str(python), "-m", "pip", "list", "--format", "json"], capture_output=True, text=True, check=True,
        timeout=60, env=env,
    )
    installed = {p["name"].lower().replace("-", "_") for p in json.loads(listed.stdout)}
    assert {"bandwidth_doctor_probe", "httpx", "pyyaml", "nvidia_ml_py"} <= installed
    assert not installed & set(SERVICE_ONLY), f"the probe pulled in the service's {installed & set(SERVICE_ONLY)}"
    assert "bandwidth_doctor" not in installed

    imports = subprocess.run(
        [str(python), "-c", "import importlib.util as u, bwdoctor_parsers.iperf3, bwdoctor_probe.cli; "
         "print(*(u.find_spec(m) is None for m in ('bwdoctor', 'fastapi', 'service', 'agent_probe', 'tool_parsers')))"],
        capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path,
    )
    # Only the import names: the service's package, and the folders' generic names, are absent.
    assert imports.stdout.split() == ["True"] * 5, imports.stdout + imports.stderr
