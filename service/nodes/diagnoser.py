"""Computing reports' findings off the request path.

Acknowledging a report must stay cheap, so its findings are computed by one background thread
per process. Only the newest report of each node is queued (a node that reports ten times
before the thread comes round is diagnosed once), so the queue never holds more than one entry
per node. A diagnosis costs about half a millisecond of CPU, more than storing the report, so
the thread diagnoses at most `max_per_s` reports a second: under a fleet's full load each
node's findings are refreshed less often (10,000 nodes on two processes at 50/s each: every
100 s) instead of ingest slowing down. Any report left undiagnosed is diagnosed when read.
"""

from __future__ import annotations

import logging
import threading
import time

from sqlalchemy.orm import Session, sessionmaker

from bwdoctor.engine import Engine
from bwdoctor.metrics import count_findings
from bwdoctor.nodes.service import report_findings, store_findings, undiagnosed_facts

log = logging.getLogger("bwdoctor.diagnoser")


class ReportDiagnoser:
    """A coalescing queue (node -> newest report pk) drained by a daemon thread every `interval_s`."""

    def __init__(
        self,
        session_factory: sessionmaker[Session],
        engine: Engine,
        interval_s: float = 0.5,
        max_per_s: float = 50.0,
    ) -> None:
        self._session_factory = session_factory
        self._engine = engine
        self._interval_s = interval_s
        self._max_per_pass = max(1, int(max_per_s * interval_s))
        self._pending: dict[str, int] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def submit(self, node_id: str, report_pk: int) -> None:
        """Queue a node's new report; replaces an older one of the same node still waiting."""
        with self._lock:
            if report_pk > self._pending.get(node_id, -1):
                self._pending[node_id] = report_pk

    @property
    def waiting(self) -> int:
        """Nodes whose newest report waits to be diagnosed."""
        return len(self._pending)

    def start(self) -> None:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="report-diagnoser", daemon=True)
            self._thread.start()

    def stop(self, timeout_s: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=timeout_s)
            self._thread = None

    def drain(self, limit: int | None = None) -> int:
        """Diagnose up to `limit` queued reports (oldest nodes first) in this thread, in one
        transaction; returns how many were diagnosed. The rest stay queued."""
        with self._lock:
            nodes = list(self._pending)[: limit or len(self._pending)]
            batch = [self._pending.pop(node_id) for node_id in nodes]
        if not batch:
            return 0
        with self._session_factory() as db_session:
            try:
                found = {}
                for report_pk, facts in undiagnosed_facts(batch, db_session=db_session):
                    found[report_pk] = report_findings(facts, engine=self._engine)
                    time.sleep(0)  # hand the GIL to the event loop between diagnoses: requests come first
                store_findings(found, db_session=db_session)
            except Exception:  # the database went away, say: the findings will be computed on read
                db_session.rollback()
                log.warning("could not diagnose %d reports; they will be on read", len(batch), exc_info=True)
                return 0
        for findings in found.values():
            if findings:
                count_findings(findings, "report")
        return len(found)

    def _run(self) -> None:
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                self.drain(self._max_per_pass)
            except Exception:  # never let the thread die
                log.warning("report diagnosis pass failed", exc_info=True)
            self._wake.wait(max(0.0, self._interval_s - (time.monotonic() - started)))
