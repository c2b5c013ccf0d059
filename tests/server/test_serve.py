"""`bwdoctor serve`, the README's first command, as a person runs it: its own process, a fresh
SQLite file, the chat page served, one access-log line per request unless told otherwise."""

from __future__ import annotations

import os
import subprocess
import sys

import httpx
import pytest

from tests.helpers import REPO, free_port, wait_healthy


def _serve(tmp_path, *options: str) -> tuple[str, str]:
    """Run `bwdoctor serve` on a fresh SQLite file, fetch the chat page, stop it; (page, log)."""
    port = free_port()
    env = {**os.environ, "BWDOCTOR_DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.db'}"}
    env.pop("BWDOCTOR_TEST_DATABASE_URL", None)
    command = [sys.executable, "-m", "bwdoctor.cli", "serve", "--port", str(port), *options]
    env["PYTHONPATH"] = str(REPO)
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_healthy(base, timeout_s=60, process=proc)
        page = httpx.get(base + "/", timeout=10)
        assert page.status_code == 200
    finally:
        proc.terminate()
        log, _ = proc.communicate(timeout=30)
    return page.text, log


def test_serve_migrates_a_fresh_sqlite_file_and_serves_the_chat(tmp_path):
    page, log = _serve(tmp_path)
    assert "<form" in page
    assert (tmp_path / "fresh.db").exists()
    assert '"GET / HTTP/1.1" 200' in log  # the access log is on by default


def test_serve_without_access_log_logs_no_requests(tmp_path):
    _, log = _serve(tmp_path, "--no-access-log")
    assert "GET / HTTP/1.1" not in log
    assert "Uvicorn running" in log or "Application startup complete" in log


def test_serve_rejects_an_unknown_log_level(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "bwdoctor.cli", "serve", "--log-level", "loud"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert "--log-level" in out.stderr and "'loud'" in out.stderr


@pytest.fixture(autouse=True)
def _no_env_file(tmp_path, monkeypatch):
    """The service reads `.env` from its working directory; the test's is empty."""
    monkeypatch.chdir(tmp_path)
