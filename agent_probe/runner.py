"""``agent-probe run``: collect every interval (with jitter), spool, deliver in order, back off.

Every report is spooled before it is sent and removed only once the service accepted it, so
a report survives a service outage and a probe restart; its ``report_id`` stays the same on
every retry, so the service can count it once. Sleeping is ``Event.wait``: between passes
the probe uses no CPU, and SIGTERM (which sets the event) ends it at once.
"""

from __future__ import annotations

import logging
import random
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from bwdoctor_probe.collect import Report, collect_pass
from bwdoctor_probe.collectors import CollectorResult
from bwdoctor_probe.config import ProbeConfig
from bwdoctor_probe.errors import DeliveryError
from bwdoctor_probe.spool import Spool

log = logging.getLogger("bwdoctor_probe")


class Sender(Protocol):
    """What the runner needs from a client (``ProbeClient`` fits)."""

    def put_report(self, node_id: str, body: dict[str, Any]) -> Any:  # pragma: no cover - protocol
        ...


@dataclass
class PeerCache:
    """The last peer measurement, reused between the (rare) peer tests."""

    result: CollectorResult | None = None
    measured_at: float | None = None


class Runner:
    """The loop behind ``agent-probe run``; ``stop`` ends it, ``once`` makes one pass."""

    def __init__(self, cfg: ProbeConfig, sender: Sender, spool: Spool, *, stop: threading.Event | None = None,
                 collect: Callable[..., Report] = collect_pass, clock: Callable[[], float] = time.monotonic,
                 rng: random.Random | None = None) -> None:
        self.cfg, self.sender, self.spool = cfg, sender, spool
        self.stop = stop or threading.Event()
        self.collect = collect
        self.clock = clock
        self.rng = rng or random.Random()
        self.failures = 0
        self.retry_at = 0.0
        self._once = False  # set by run(once=True): a failed delivery is not retried in this process
        self.peers = PeerCache()
        self.delivered = 0

    # --- peers, rate-limited -------------------------------------------------------------------
    def _peer_test_due(self, now: float) -> bool:
        if not self.cfg.peers:
            return False
        if self.peers.measured_at is None:
            return True
        spread = self.cfg.peer_interval_s * self.cfg.jitter
        return now - self.peers.measured_at >= self.cfg.peer_interval_s + self.rng.uniform(-spread, spread)

    def make_report(self) -> Report:
        now = self.clock()
        measure = self._peer_test_due(now)
        report = self.collect(self.cfg, measure_peers=measure, stop=self.stop)
        if measure:
            peer_facts = {k: v for k, v in report.facts.items() if k.startswith("net.")}
            self.peers = PeerCache(CollectorResult(facts=peer_facts, details={"peers": report.details.get("peers")}),
                                   now)
        elif self.peers.result is not None and self.peers.measured_at is not None:
            # Keep the node's last known peer figures in every report, saying how old they are.
            report.facts.update(self.peers.result.facts)
            report.details["peers"] = self.peers.result.details.get("peers")
            report.details["peers_age_s"] = round(now - self.peers.measured_at, 1)
        dropped = self.spool.dropped
        if dropped:
            report.facts["probe.reports_dropped"] = dropped
        return report

    # --- delivery ------------------------------------------------------------------------------
    def _backoff_s(self) -> float:
        base = min(self.cfg.backoff_max_s, self.cfg.backoff_initial_s * 2 ** max(0, self.failures - 1))
        return float(base * self.rng.uniform(0.5, 1.0))

    def flush(self) -> bool:
        """Send spooled reports oldest first; stop at the first retryable failure. True if emptied."""
        for path in self.spool.pending():
            if self.stop.is_set():
                return False
            item = self.spool.load(path)
            if item is None:
                continue
            if not isinstance(item.get("node_id"), str) or not isinstance(item.get("body"), dict):
                log.error("spooled file %s is not a report, dropped", path.name)
                self.spool.remove(path)
                continue
            try:
                self.sender.put_report(item["node_id"], item["body"])
            except DeliveryError as exc:
                if not exc.retryable:
                    log.error("report %s rejected, dropped: %s", item["body"].get("report_id"), exc)
                    self.spool.remove(path)
                    continue
                self.failures += 1
                wait = max(self._backoff_s(), exc.retry_after_s or 0.0)
                self.retry_at = self.clock() + wait
                if self._once:  # nothing will retry in this process: say where the report waits
                    log.warning("delivery failed (%d pending, kept for the next run): %s",
                                len(self.spool.pending()), exc)
                    return False
                log.warning("delivery failed (%d pending), retrying in %.1f s: %s",
                            len(self.spool.pending()), wait, exc)
                return False
            self.spool.remove(path)
            self.delivered += 1
            if self.failures:
                log.info("service reachable again")
            self.failures = 0
        return True

    def enqueue(self, report: Report) -> None:
        body = report.body(uuid.uuid4().hex)
        self.spool.put({"node_id": self.cfg.node_id, "body": body})
        for note in report.notes:
            log.debug("note: %s", note)

    def _next_interval(self) -> float:
        spread = self.cfg.interval_s * self.cfg.jitter
        return max(0.0, self.cfg.interval_s + self.rng.uniform(-spread, spread))

    def run(self, *, once: bool = False) -> bool:
        """Loop until stopped (or one pass with ``once``); True when nothing is left undelivered."""
        self._once = once
        next_collect = self.clock()
        while not self.stop.is_set():
            now = self.clock()
            if now >= next_collect:
                self.enqueue(self.make_report())
                # The window took time; schedule from the start of the pass.
                next_collect = now + self._next_interval()
                if self.clock() >= self.retry_at:
                    self.flush()
                if once:
                    break
            elif self.spool.pending() and now >= self.retry_at:
                self.flush()
            now = self.clock()
            wake = next_collect
            if self.spool.pending():
                wake = min(wake, max(self.retry_at, now))
            self.stop.wait(max(0.0, wake - now))
        return not self.spool.pending()
