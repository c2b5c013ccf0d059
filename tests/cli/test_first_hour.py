"""A new user's first hour, as processes: `make run PORT=…` serves there and says where and on which
database; the default database is one absolute file whatever folder a command runs in, so a token
created in one folder is accepted by a probe reporting to a service started in another."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from bwdoctor.paths import data_home, default_database_url
from tests.helpers import REPO, free_port, wait_healthy

BIN = Path(sys.executable).parent


def _env(home: Path) -> dict[str, str]:
    """No database URL at all: the default is what is under test."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BWDOCTOR_", "AGENT_PROBE_"))}
    return {**env, "BWDOCTOR_HOME": str(home), "PYTHONPATH": str(REPO)}


def _start(cmd: list[str], cwd: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
    )


def _stop(process: subprocess.Popen[str]) -> str:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
    try:
        out, _ = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, _ = process.communicate()
    return out


def test_the_default_database_is_absolute_and_follows_platform_conventions(tmp_path):
    assert data_home({"BWDOCTOR_HOME": str(tmp_path)}) == tmp_path.resolve()
    linux = data_home({"HOME": "/home/ada"}, platform="linux")
    assert linux == Path("/home/ada/.local/share/bwdoctor")
    assert data_home({"HOME": "/home/ada", "XDG_DATA_HOME": "/data"}, platform="linux") == Path("/data/bwdoctor")
    mac = data_home({"HOME": "/Users/ada"}, platform="darwin")
    assert mac == Path("/Users/ada/Library/Application Support/bwdoctor")
    url = default_database_url({"HOME": "/home/ada"})
    assert url.startswith("sqlite:////") and url.endswith("/bwdoctor.db")  # four slashes: an absolute path


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_run_serves_on_the_given_port_and_names_url_and_database(tmp_path):
    clone = tmp_path / "clone"
    clone.mkdir()
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(REPO / name, clone / name)
    # The runtime is already installed (this venv): the stamp says so, so `make run` only serves.
    (clone / ".venv" / "bin").mkdir(parents=True)
    (clone / ".venv" / "bin" / "bwdoctor").symlink_to(BIN / "bwdoctor")
    stamp = clone / ".venv" / ".runtime"
    stamp.touch()
    os.utime(stamp, (time.time() + 5, time.time() + 5))
    port = free_port()
    home = tmp_path / "home"
    make = _start(["make", "run", f"PORT={port}"], clone, _env(home))
    try:
        wait_healthy(f"http://127.0.0.1:{port}", timeout_s=60, process=make)
    finally:
        out = _stop(make)
    assert f"bwdoctor serve --host 127.0.0.1 --port {port}" in out
    assert f"serving http://127.0.0.1:{port}/" in out
    assert f"database sqlite:///{home.resolve()}/bwdoctor.db" in out
    assert (home / "bwdoctor.db").is_file()
    assert not (clone / ".venv" / ".installed").exists()  # no dev tools for `make run`


def test_a_token_created_in_another_folder_is_accepted_by_the_probe(tmp_path):
    home = tmp_path / "data"
    env = _env(home)
    elsewhere, server_dir, probe_dir = (tmp_path / d for d in ("ops", "srv", "node"))
    for folder in (elsewhere, server_dir, probe_dir):
        folder.mkdir()
    created = subprocess.run(
        [sys.executable, "-m", "bwdoctor.cli", "tokens", "create", "fleet"],
        cwd=elsewhere, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    shown = f"sqlite:///{home.resolve()}/bwdoctor.db"
    assert f"bwdoctor: database {shown}" in created.stdout
    token = created.stdout.strip().splitlines()[-1]

    port = free_port()
    server = _start([sys.executable, "-m", "bwdoctor.cli", "serve", "--port", str(port)], server_dir, env)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", timeout_s=60, process=server)
        probe = subprocess.run(
            [sys.executable, "-m", "bwdoctor_probe.cli", "run", "--once", "--server", f"http://127.0.0.1:{port}",
             "--token", token, "--window", "0", "--no-gpu", "--node-id", "first-hour",
             "--spool-dir", str(probe_dir / "spool")],
            cwd=probe_dir, env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert probe.returncode == 0, probe.stderr
        assert "unknown or revoked" not in probe.stderr
        node = httpx.get(f"http://127.0.0.1:{port}/api/v1/nodes/first-hour", timeout=10)
        assert node.status_code == 200
    finally:
        out = _stop(server)
    assert f"bwdoctor: database {shown}" in out and f"serving http://127.0.0.1:{port}/" in out
    assert not list(elsewhere.glob("*.db")) and not list(server_dir.glob("*.db"))


def test_serve_and_tokens_mask_the_password_of_the_database_they_name(tmp_path):
    env = {**_env(tmp_path), "BWDOCTOR_DATABASE_URL": "postgresql://admin:s3cret@127.0.0.1:1/bwd"}
    out = subprocess.run(
        [sys.executable, "-m", "bwdoctor.cli", "tokens", "list"], cwd=tmp_path, env=env,
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert "bwdoctor: database postgresql+psycopg://admin:***@127.0.0.1:1/bwd" in out.stdout
    assert "s3cret" not in out.stdout + out.stderr
