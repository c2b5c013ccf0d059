"""Group commit for probe reports: one writer thread stores whatever has queued, as one transaction.

Ten thousand nodes reporting every ten seconds is a thousand small writes a second. Giving
each its own session, token query and commit costs a few milliseconds of CPU apiece; here a
request only queues its validated report and waits. The writer thread takes everything that
arrived while the previous batch was being committed, checks the batch's tokens in one query,
stores it with a handful of statements (service.ingest_batch) and commits once. Batches grow
with load by themselves, and nothing is acknowledged before its commit.

A report is still refused one by one: an inactive token fails only the reports that carry it,
and a batch the database rejects for a reason other than an outage is retried report by
report, so one bad report cannot fail its neighbours.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from dataclasses import dataclass

from sqlalchemy import Connection, Engine

from service.database import is_database_unavailable
from service.errors import ServiceUnavailable, Unauthorized
from service.metrics import INGEST_BATCH
from service.nodes.ingest import IngestResult, NewReport, ingest_batch, open_ingest_connection
from service.tokens.service import active_token_hashes

log = logging.getLogger("bwdoctor.ingest")


@dataclass
class _Pending:
    report: NewReport
    token_hash: str
    result: asyncio.Future[IngestResult]


# A waiting request with what to tell it: a stored report, or why not.
Answer = tuple[_Pending, IngestResult | None, BaseException | None]

_STOP = object()


class ReportWriter:
    """A bounded queue of reports drained in batches by one daemon thread per process."""

    def __init__(
        self, db_engine: Engine, *, max_batch: int = 500, max_queue: int = 20_000, linger_s: float = 0.005
    ) -> None:
        self._db_engine = db_engine
        self._max_batch = max_batch
        self._linger_s = linger_s
        self._queue: queue.Queue[_Pending | object] = queue.Queue(maxsize=max_queue)
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._connection: Connection | None = None  # used only by the writer thread

    async def store(self, report: NewReport, *, token_hash: str, timeout_s: float) -> IngestResult:
        """Queue a validated report and wait until it is committed (or refused)."""
        pending = _Pending(report, token_hash, asyncio.get_running_loop().create_future())
        self.start()
        try:
            self._queue.put_nowait(pending)
        except queue.Full:
            raise ServiceUnavailable(
                "too many reports are waiting to be stored; retry later", code="overloaded"
            ) from None
        try:
            return await asyncio.wait_for(pending.result, timeout_s)
        except TimeoutError:
            # The report may still be stored; its retry (same report_id) will then be a duplicate.
            raise ServiceUnavailable(
                f"the report was not stored within {timeout_s:g} s; retry it", code="database_unavailable"
            ) from None

    def start(self) -> None:
        """Start the writer thread (idempotent; store() calls it, so an app without lifespan works)."""
        if self._thread is not None:
            return
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="report-writer", daemon=True)
                self._thread.start()

    def stop(self, timeout_s: float = 10.0) -> None:
        """Store what is queued, then end the thread."""
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(_STOP)
            thread.join(timeout=timeout_s)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            batch: list[_Pending] = []
            stopping = item is _STOP
            if not stopping:
                batch.append(item)  # type: ignore[arg-type]
            # Linger a moment for the reports arriving right behind this one: a transaction
            # costs about as much as a dozen of its reports, so fuller batches save CPU.
            deadline = time.monotonic() + (0 if stopping else self._linger_s)
            while len(batch) < self._max_batch:
                try:
                    item = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    break
                if item is _STOP:
                    stopping = True
                    deadline = 0.0
                else:
                    batch.append(item)  # type: ignore[arg-type]
            if batch:
                try:
                    self._write(batch)
                except Exception:  # never let the thread die; _write has answered every report
                    log.exception("storing a batch of %d reports failed", len(batch))
            if stopping and self._queue.empty():
                self._close_connection()
                return

    def _write(self, batch: list[_Pending]) -> None:
        INGEST_BATCH.observe(len(batch))
        try:
            active, results = self._store(batch)
        except Exception as exc:
            if len(batch) > 1 and not is_database_unavailable(exc):
                log.warning("a batch of %d reports failed (%s); storing them one by one", len(batch), exc)
                for pending in batch:
                    self._write([pending])
                return
            if is_database_unavailable(exc):
                log.warning("database unavailable; %d reports not stored: %s", len(batch), exc)
                _answer([(p, None, _database_unavailable()) for p in batch])
            else:
                _answer([(batch[0], None, exc)])
            return
        admitted = [p for p in batch if p.token_hash in active]
        answers: list[Answer] = [(p, result, None) for p, result in zip(admitted, results, strict=True)]
        answers += [(p, None, _token_refused()) for p in batch if p.token_hash not in active]
        _answer(answers)

    def _store(self, batch: list[_Pending]) -> tuple[set[str], list[IngestResult]]:
        """Check the batch's tokens and store the admitted reports, on the writer's own connection.

        The connection is kept between batches (no pool checkout, no ping); if it turns out to
        be dead (the database restarted), the batch is tried once more on a new one.
        """
        reused = self._connection is not None
        try:
            return self._store_on_connection(batch)
        except Exception as exc:
            self._close_connection()
            if not (reused and is_database_unavailable(exc)):
                raise
        try:
            return self._store_on_connection(batch)
        except Exception:
            self._close_connection()
            raise

    def _store_on_connection(self, batch: list[_Pending]) -> tuple[set[str], list[IngestResult]]:
        if self._connection is None:
            self._connection = open_ingest_connection(self._db_engine)
        connection = self._connection
        active = active_token_hashes({p.token_hash for p in batch}, connection=connection)
        results = ingest_batch(connection, [p.report for p in batch if p.token_hash in active])
        connection.commit()
        return active, results

    def _close_connection(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                connection.rollback()
                connection.close()
            except Exception:  # a dead connection: the pool discards it
                log.debug("closing the writer's connection failed", exc_info=True)


def _database_unavailable() -> ServiceUnavailable:
    return ServiceUnavailable("the database is not reachable; retry later", code="database_unavailable")


def _token_refused() -> Unauthorized:
    return Unauthorized("the probe token is unknown or revoked", code="token_invalid")


def _answer(answers: list[Answer]) -> None:
    """Hand results back to the waiting requests: one wake-up per event loop, not one per report."""
    by_loop: dict[asyncio.AbstractEventLoop, list[Answer]] = {}
    for answer in answers:
        by_loop.setdefault(answer[0].result.get_loop(), []).append(answer)
    for loop, group in by_loop.items():
        try:
            loop.call_soon_threadsafe(_settle, group)
        except RuntimeError:  # that loop has closed: nobody is waiting any more
            pass


def _settle(answers: list[Answer]) -> None:
    """On the event loop: resolve each request's future, skipping those that gave up (timed out)."""
    for pending, result, exception in answers:
        if pending.result.done():
            continue
        if exception is not None:
            pending.result.set_exception(exception)
        else:
            pending.result.set_result(result)  # type: ignore[arg-type]
