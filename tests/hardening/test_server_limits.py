"""Connections that never finish (issue 14, defect 8), against `bwdoctor serve` as its own process:
a partial request head, a partial body and a silent socket are closed after their deadlines, and
past BWDOCTOR_MAX_CONNECTIONS a worker answers 503 instead of queueing without end."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import httpx
import pytest

from bwdoctor.migrations import upgrade_database
from tests.helpers import REPO, free_port, wait_healthy

LIMITS = {
    "BWDOCTOR_HEADER_TIMEOUT_S": "1",
    "BWDOCTOR_BODY_TIMEOUT_S": "1",
    "BWDOCTOR_KEEP_ALIVE_TIMEOUT_S": "1",
    "BWDOCTOR_MAX_CONNECTIONS": "4",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("serve")
    url = f"sqlite:///{folder / 'bwd.db'}"
    upgrade_database(url)
    port = free_port()
    env = {**os.environ, **LIMITS, "BWDOCTOR_DATABASE_URL": url, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "bwdoctor.cli", "serve", "--port", str(port), "--log-level", "warning"]
    proc = subprocess.Popen(command, cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, process=proc)
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=15)


def closed_within(sock: socket.socket, seconds: float) -> float | None:
    """Seconds until the server closed the socket (recv gives b'' or a reset), None if it stayed open."""
    started = time.monotonic()
    sock.settimeout(seconds)
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return time.monotonic() - started
    except TimeoutError:
        return None
    except ConnectionResetError:
        return time.monotonic() - started


@pytest.mark.parametrize(
    "sent",
    [
        b"",  # a silent socket
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ",  # half a header
        b"PUT /api/v1/nodes/n1/facts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Content-Length: 100\r\n\r\n{"facts"',  # half a body
    ],
    ids=["silent", "partial-head", "partial-body"],
)
def test_a_slow_client_is_disconnected(server, sent):
    with socket.create_connection(("127.0.0.1", server)) as sock:
        if sent:
            sock.sendall(sent)
        waited = closed_within(sock, 8)
    assert waited is not None and waited < 6, waited
    assert httpx.get(f"http://127.0.0.1:{server}/healthz").status_code == 200


def test_a_slow_head_does_not_escape_by_trickling(server):
    with socket.create_connection(("127.0.0.1", server)) as sock:
        started = time.monotonic()
        try:
            for _ in range(20):  # one byte every 0.3 s: each resets a keep-alive timer, not the deadline
                sock.sendall(b"X")
                time.sleep(0.3)
        except OSError:
            pass
        assert time.monotonic() - started < 5


def test_connections_past_the_cap_get_503_until_idle_ones_close(server):
    idle = [socket.create_connection(("127.0.0.1", server)) for _ in range(4)]
    try:
        time.sleep(0.2)
        assert httpx.get(f"http://127.0.0.1:{server}/healthz").status_code == 503
        time.sleep(2.5)  # their head deadline (1 s) has closed them
        assert httpx.get(f"http://127.0.0.1:{server}/healthz").status_code == 200
    finally:
        for sock in idle:
            sock.close()
