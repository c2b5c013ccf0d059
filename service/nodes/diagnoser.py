"""Computing reports' findings off the request path.

Acknowledging a report must stay cheap, so its findings are computed by one background thread
per process. Only the newest report of each node is queued (a node that reports ten times
before the thread comes round is diagnosed once), so under any load the work is bounded by
the number of nodes; any report left undiagnosed is diagnosed when it is first read.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from service.metrics import count_findings
from service.nodes.service import diagnose_report

log = logging.getLogger("bwdoctor.diagnoser")


class ReportDiagnoser:
    """A coalescing queue (node -> newest report pk) drained by a daemon thread every `interval_s`."""

    def __init__(self, session_factory: sessionmaker[Session], engine: Any, interval_s: float = 0.5) -> None:
        self._session_factory = session_factory
        self._engine = engine
        self._interval_s = interval_s
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

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="report-diagnoser", daemon=True)
            self._thread.start()

    def stop(self, timeout_s: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=timeout_s)
            self._thread = None

    def drain(self) -> int:
        """Diagnose everything queued now, in this thread; returns how many reports were diagnosed."""
        with self._lock:
            batch, self._pending = self._pending, {}
        done = 0
        if not batch:
            return 0
        with self._session_factory() as db_session:
            for report_pk in batch.values():
                try:
                    findings = diagnose_report(report_pk, db_session=db_session, engine=self._engine)
                except Exception:  # the database went away, say: the findings will be computed on read
                    db_session.rollback()
                    log.warning("could not diagnose report %s; will on read", report_pk, exc_info=True)
                    continue
                if findings:
                    count_findings(findings, "report")
                done += 1
        return done

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self._interval_s)
            try:
                self.drain()
            except Exception:  # never let the thread die
                log.warning("report diagnosis pass failed", exc_info=True)
