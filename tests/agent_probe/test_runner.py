"""The run loop with a fake clock, collector and sender: spooling, order, retries, peer rate limit."""

import threading

from bwdoctor_probe.collect import Report
from bwdoctor_probe.config import load_config
from bwdoctor_probe.errors import DeliveryError
from bwdoctor_probe.runner import Runner
from bwdoctor_probe.spool import Spool


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


class Sender:
    def __init__(self):
        self.up = True
        self.received: list[dict] = []
        self.attempts: list[str] = []
        self.reject = False

    def put_report(self, node_id, body):
        self.attempts.append(body["report_id"])
        if self.reject:
            raise DeliveryError("422 bad", retryable=False)
        if not self.up:
            raise DeliveryError("down", retryable=True)
        self.received.append(body)


class Collector:
    def __init__(self):
        self.calls: list[bool] = []

    def __call__(self, cfg, *, measure_peers, stop):
        self.calls.append(measure_peers)
        facts = {"n": len(self.calls)}
        if measure_peers:
            facts["net.iperf3_gbps"] = 9.0
        return Report(facts=facts)


def make(tmp_path, **overrides):
    cfg = load_config(env={}, overrides={"node_id": "n1", "server": "http://x", "interval_s": 60,
                                         "peer_interval_s": 600, "jitter": 0, **overrides})
    sender, collector, clock = Sender(), Collector(), Clock()
    runner = Runner(cfg, sender, Spool(tmp_path, max_bytes=1 << 20), collect=collector, clock=clock)
    return runner, sender, collector, clock


def test_once_delivers_one_report(tmp_path):
    runner, sender, _, _ = make(tmp_path)
    assert runner.run(once=True) is True
    body = sender.received[0]
    assert set(body) == {"facts", "report_id", "collected_at"} and body["facts"]["n"] == 1
    assert len(body["report_id"]) == 32 and runner.spool.pending() == []


def test_outage_spools_and_retries_with_the_same_ids_in_order(tmp_path):
    runner, sender, _, clock = make(tmp_path)
    sender.up = False
    for _ in range(3):
        runner.enqueue(runner.make_report())
        runner.flush()
    assert len(runner.spool.pending()) == 3 and sender.received == []
    first_try = sender.attempts[0]
    assert runner.retry_at > clock.now  # backing off
    sender.up = True
    assert runner.flush() is True
    assert [b["facts"]["n"] for b in sender.received] == [1, 2, 3]
    assert sender.received[0]["report_id"] == first_try  # a retry is the same report


def test_backoff_grows_and_is_capped(tmp_path):
    runner, sender, _, clock = make(tmp_path, backoff_initial_s=2, backoff_max_s=30)
    sender.up = False
    runner.enqueue(runner.make_report())
    waits = []
    for _ in range(7):
        runner.flush()
        waits.append(runner.retry_at - clock.now)
    assert waits[0] <= 2 and waits[3] > waits[0] and max(waits) <= 30
    assert all(1 <= w for w in waits)


def test_rejected_report_is_dropped_not_retried_forever(tmp_path):
    runner, sender, _, _ = make(tmp_path)
    sender.reject = True
    runner.enqueue(runner.make_report())
    assert runner.flush() is True and runner.spool.pending() == []


def test_peer_tests_are_rate_limited_and_results_carried(tmp_path):
    runner, _, collector, clock = make(tmp_path, peers="p1,p2")
    first = runner.make_report()
    clock.now += 60
    second = runner.make_report()
    clock.now += 600
    runner.make_report()
    assert collector.calls == [True, False, True]
    assert first.facts["net.iperf3_gbps"] == 9.0
    assert second.facts["net.iperf3_gbps"] == 9.0 and second.details["peers_age_s"] == 60.0


def test_no_peers_means_no_peer_tests(tmp_path):
    runner, _, collector, _ = make(tmp_path)
    runner.make_report()
    assert collector.calls == [False]


def test_dropped_reports_are_reported(tmp_path):
    runner, _, _, _ = make(tmp_path)
    (tmp_path / "dropped").write_text("4")
    assert runner.make_report().facts["probe.reports_dropped"] == 4


def test_stop_ends_the_loop_promptly(tmp_path):
    import time

    cfg = load_config(env={}, overrides={"node_id": "n1", "server": "http://x", "interval_s": 3600})
    stop = threading.Event()
    runner = Runner(cfg, Sender(), Spool(tmp_path, max_bytes=1 << 20), stop=stop, collect=Collector())
    thread = threading.Thread(target=runner.run)
    thread.start()
    time.sleep(0.2)
    started = time.monotonic()
    stop.set()
    thread.join(timeout=5)
    assert not thread.is_alive() and time.monotonic() - started < 1
