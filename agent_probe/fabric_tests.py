"""Planned pair tests: ask the service for the next test, run exactly that test, post its result.

The probe never decides what to test: it runs only tests the service hands it for this node, to
the peer address the service names (a peer of its own cluster), one at a time (this worker is a
single thread that waits for each test to end), and never longer or faster than this node's own
limits (`fabric_max_duration_s`, `fabric_max_rate_gbps`) allow. A test that breaks those rules is
refused and reported as an error, not run.

    GET  /api/v1/nodes/{node_id}/tests/next?address=&port=   (bearer token)
    POST /api/v1/nodes/{node_id}/tests/{test_id}/result
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, urlsplit

import httpx

from bwdoctor_probe import __version__
from bwdoctor_probe.collectors.peers import PeerMeasurement, measure_peer
from bwdoctor_probe.config import ProbeConfig

log = logging.getLogger("bwdoctor_probe.fabric")
MIN_POLL_S = 0.2


class RefusedTest(ValueError):
    """A planned test this probe will not run (not for it, outside its cluster, over its limits)."""


def local_address(server: str) -> str:
    """The address this node uses towards the service (no packet is sent: a UDP connect picks a route)."""
    host = urlsplit(server).hostname or "127.0.0.1"
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_DGRAM) as sock:
        sock.connect((host, 9))
        return str(sock.getsockname()[0])


def check_test(test: dict[str, Any], cfg: ProbeConfig) -> None:
    """RefusedTest unless the test is this node's, within its cluster, and within its limits."""
    if test.get("client") != cfg.node_id:
        raise RefusedTest(f"test {test.get('test_id')} is for {test.get('client')!r}, not this node")
    if not cfg.cluster or test.get("cluster") != cfg.cluster:
        raise RefusedTest(f"test {test.get('test_id')} is in cluster {test.get('cluster')!r}, not {cfg.cluster!r}")
    if test.get("peer") == cfg.node_id:
        raise RefusedTest("a test against this node itself")
    try:
        ipaddress.ip_address(str(test.get("address")))
    except ValueError:
        raise RefusedTest(f"peer address {test.get('address')!r} is not an IP address") from None
    duration = test.get("duration_s")
    if not isinstance(duration, int | float) or not 0 < duration <= cfg.fabric_max_duration_s:
        raise RefusedTest(f"duration {duration!r} s is over this node's limit of {cfg.fabric_max_duration_s:g} s")
    port = test.get("port")
    if not isinstance(port, int) or not 0 < port < 65536:
        raise RefusedTest(f"port {port!r} is not a TCP port")


def iperf_rate_cap(test: dict[str, Any], cfg: ProbeConfig) -> str | None:
    """The iperf3 -b cap: the stricter of the plan's and this node's, as iperf3 writes it (e.g. 2.5G)."""
    caps = [r for r in (test.get("rate_gbps"), cfg.fabric_max_rate_gbps) if isinstance(r, int | float) and r > 0]
    return f"{min(caps) * 1000:g}M" if caps else None


class PlannedTestWorker:
    """Asks, runs, reports; `run()` loops until `stop` is set."""

    def __init__(self, cfg: ProbeConfig, *, transport: httpx.BaseTransport | None = None,
                 measure: Callable[..., PeerMeasurement] = measure_peer,
                 stop: threading.Event | None = None) -> None:
        self.cfg = cfg
        self.stop = stop or threading.Event()
        self.measure = measure
        headers = {"User-Agent": f"agent-probe/{__version__}"}
        if cfg.token:
            headers["Authorization"] = f"Bearer {cfg.token}"
        self.http = httpx.Client(base_url=(cfg.server or "").rstrip("/"), headers=headers,
                                 timeout=cfg.http_timeout_s, transport=transport)
        self.address = cfg.fabric_address or local_address(cfg.server or "")
        self.node_path = f"/api/v1/nodes/{quote(cfg.node_id, safe='')}"
        self.tests_run = 0

    def ask(self) -> tuple[dict[str, Any] | None, float]:
        """The next test for this node (or None) and how long to wait before asking again."""
        response = self.http.get(f"{self.node_path}/tests/next",
                                 params={"address": self.address, "port": self.cfg.iperf_port})
        if response.status_code != 200:
            log.info("no planned test: the service answered %s", response.status_code)
            return None, self.cfg.fabric_poll_s
        body = response.json()
        wait = float(body.get("poll_after_s") or self.cfg.fabric_poll_s)
        return body.get("test"), max(MIN_POLL_S, min(wait, self.cfg.fabric_poll_s))

    def execute(self, test: dict[str, Any]) -> dict[str, Any]:
        """Run one checked test; the result body for the service."""
        try:
            check_test(test, self.cfg)
        except RefusedTest as exc:
            log.warning("refused planned test: %s", exc)
            return {"error": f"refused by the probe: {exc}"}
        host = test["address"] if ":" not in test["address"] else f"[{test['address']}]"
        peer = f"{host}:{test['port']}"
        measured = self.measure(peer, iperf_port=test["port"], rtt_port=0, duration_s=float(test["duration_s"]),
                                bitrate=iperf_rate_cap(test, self.cfg), binary=self.cfg.iperf3_path)
        self.tests_run += 1
        if measured.error or measured.iperf3_gbps is None:
            return {"error": (measured.error or "no result")[:500]}
        return {"gbps": measured.iperf3_gbps, "retransmits": measured.retransmits}

    def once(self) -> float:
        """Ask once, run what was handed out, post it; the wait before the next ask."""
        try:
            test, wait = self.ask()
            if test is None:
                return wait
            result = self.execute(test)
            self.http.post(f"{self.node_path}/tests/{int(test['test_id'])}/result", json=result)
            return MIN_POLL_S
        except (httpx.HTTPError, ValueError, KeyError, TypeError) as exc:
            log.info("planned tests: %s: %s", type(exc).__name__, exc)
            return self.cfg.fabric_poll_s

    def run(self) -> None:
        while not self.stop.is_set():
            self.stop.wait(self.once())
        self.http.close()


def start_worker(cfg: ProbeConfig, *, stop: threading.Event) -> threading.Thread:
    """The worker on a thread of its own beside the reporting loop."""
    worker = PlannedTestWorker(cfg, stop=stop)
    thread = threading.Thread(target=worker.run, name="planned-tests", daemon=True)
    thread.start()
    log.info("running planned pair tests; peers reach this node at %s:%d", worker.address, cfg.iperf_port)
    return thread
