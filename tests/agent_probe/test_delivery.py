"""Delivery against a real HTTP server on loopback: stop it, let the probe spool, start it again.

Every report must arrive exactly once, in the order it was collected.
"""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from bwdoctor_probe.client import ProbeClient
from bwdoctor_probe.collect import Report
from bwdoctor_probe.config import load_config
from bwdoctor_probe.runner import Runner
from bwdoctor_probe.spool import Spool


class Service:
    """A stand-in for PUT /api/v1/nodes/{id}/facts that records what arrives (not the service package)."""

    def __init__(self):
        self.received: list[dict] = []
        self.port = 0
        self.server: ThreadingHTTPServer | None = None
        self.lock = threading.Lock()

    def start(self):
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_PUT(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                ok = self.path == "/api/v1/nodes/n1/facts" and self.headers["Authorization"] == "Bearer t0k"
                if ok:
                    with service.lock:
                        service.received.append(body)
                self.send_response(200 if ok else 400)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b'{"duplicate": false}')

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def wait_for(condition, timeout=15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.02)
    raise AssertionError("timed out waiting")


def test_reports_survive_an_outage_exactly_once_in_order(tmp_path):
    service = Service()
    service.start()
    produced: list[int] = []

    def collect(cfg, *, measure_peers, stop):
        produced.append(len(produced) + 1)
        return Report(facts={"node.id": "n1", "seq": produced[-1]})

    cfg = load_config(env={}, overrides={
        "node_id": "n1", "server": f"http://127.0.0.1:{service.port}", "token": "t0k", "interval_s": 0.1,
        "jitter": 0, "backoff_initial_s": 0.05, "backoff_max_s": 0.2, "http_timeout_s": 2})
    stop = threading.Event()
    spool = Spool(tmp_path / "spool", max_bytes=1 << 20)
    client = ProbeClient(cfg.server, cfg.token, timeout_s=2)
    runner = Runner(cfg, client, spool, stop=stop, collect=collect)
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    try:
        wait_for(lambda: len(service.received) >= 3)
        service.stop()
        wait_for(lambda: len(spool.pending()) >= 4)  # the outage: reports pile up on disk
        assert runner.failures > 0
        service.start()  # same port
        wait_for(lambda: len(spool.pending()) == 0 and len(service.received) >= 8)
    finally:
        stop.set()
        thread.join(timeout=5)
        client.close()
        service.stop()
    assert not thread.is_alive()
    ids = [body["report_id"] for body in service.received]
    assert len(ids) == len(set(ids)), "a report arrived twice"
    seqs = [body["facts"]["seq"] for body in service.received]
    assert seqs == sorted(seqs) == produced[: len(seqs)], "out of order or missing"
    assert len(seqs) == len(produced) - len(spool.pending())
    assert all(body["collected_at"].endswith("+00:00") for body in service.received)
