"""Group commit for probe reports: one writer task stores whatever has queued, as one transaction.

Ten thousand nodes reporting every ten seconds is a thousand small writes a second. Giving
each its own session, token query and commit costs a few milliseconds of CPU apiece; here a
request only queues its validated report and waits. The writer takes everything that arrived
while the previous batch was being stored (lingering a few milliseconds for more), checks the
batch's tokens in one query, stores it (ingest.ingest_batch: one statement on PostgreSQL) and
commits once. Batches grow with load by themselves; nothing is acknowledged before its commit.

The writer is an asyncio task on the request's own event loop, talking to the database through
an async connection: a writer thread would compete with the event loop for the GIL at every
round trip, which cost more than the writing itself.

A report is still refused one by one: an inactive token fails only the reports that carry it,
and a batch the database rejects for a reason other than an outage is retried report by
report, so one bad report cannot fail its neighbours.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass

from sqlalchemy import Connection, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bwdoctor.database import is_database_unavailable
from bwdoctor.errors import Forbidden, ServiceError, ServiceUnavailable, Unauthorized
from bwdoctor.metrics import INGEST_BATCH
from bwdoctor.nodes.ingest import IngestResult, NewReport, ingest_batch
from bwdoctor.nodes.models import Node
from bwdoctor.tokens.service import active_token_scopes

log = logging.getLogger("bwdoctor.ingest")


@dataclass
class _Pending:
    report: NewReport
    token_hash: str
    result: asyncio.Future[IngestResult]


class ReportWriter:
    """A bounded queue of reports drained in batches by one task per event loop (per process)."""

    def __init__(
        self, db_engine: AsyncEngine, *, max_batch: int = 500, max_queue: int = 20_000, linger_s: float = 0.005
    ) -> None:
        self._db_engine = db_engine
        self._max_batch = max_batch
        self._max_queue = max_queue
        self._linger_s = linger_s
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[_Pending] | None = None
        self._task: asyncio.Task[None] | None = None
        self._connection: AsyncConnection | None = None

    async def store(self, report: NewReport, *, token_hash: str, timeout_s: float) -> IngestResult:
        """Queue a validated report and wait until it is committed (or refused)."""
        queue = self._start()
        pending = _Pending(report, token_hash, asyncio.get_running_loop().create_future())
        try:
            queue.put_nowait(pending)
        except asyncio.QueueFull:
            raise ServiceUnavailable(
                "too many reports are waiting to be stored; retry later", code="overloaded"
            ) from None
        try:
            return await asyncio.wait_for(asyncio.shield(pending.result), timeout_s)
        except TimeoutError:
            # The report may still be stored; its retry (same report_id) will then be a duplicate.
            raise ServiceUnavailable(
                f"the report was not stored within {timeout_s:g} s; retry it", code="database_unavailable"
            ) from None

    def _start(self) -> asyncio.Queue[_Pending]:
        """The queue of the running event loop, with its writer task (a new loop gets new ones)."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop or self._queue is None or self._task is None or self._task.done():
            self._loop = loop
            self._queue = asyncio.Queue(maxsize=self._max_queue)
            self._connection = None  # a connection belongs to the loop it was opened on
            self._task = loop.create_task(self._run(self._queue), name="report-writer")
        return self._queue

    async def stop(self) -> None:
        """Store what is queued, then end the task and close its connection."""
        task, queue = self._task, self._queue
        if task is None or queue is None or self._loop is not asyncio.get_running_loop():
            return
        await queue.join()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        self._task = None
        await self._close_connection()

    async def _run(self, queue: asyncio.Queue[_Pending]) -> None:
        while True:
            batch = [await queue.get()]
            # Linger a moment for the reports arriving right behind this one: a transaction
            # costs about as much as a dozen of its reports, so fuller batches save CPU.
            if self._linger_s:
                await asyncio.sleep(self._linger_s)
            while len(batch) < self._max_batch and not queue.empty():
                batch.append(queue.get_nowait())
            try:
                await self._write(batch)
            except Exception:  # never let the task die; _write has answered every report
                log.exception("storing a batch of %d reports failed", len(batch))
            finally:
                for _ in batch:
                    queue.task_done()

    async def _write(self, batch: list[_Pending]) -> None:
        INGEST_BATCH.observe(len(batch))
        try:
            refused, results = await self._store(batch)
        except Exception as exc:
            if len(batch) > 1 and not is_database_unavailable(exc):
                log.warning("a batch of %d reports failed (%s); storing them one by one", len(batch), exc)
                for pending in batch:
                    await self._write([pending])
                return
            if is_database_unavailable(exc):
                log.warning("database unavailable; %d reports not stored: %s", len(batch), exc)
                _answer([(p, None, _database_unavailable()) for p in batch])
            else:
                _answer([(batch[0], None, exc)])
            return
        admitted = [p for i, p in enumerate(batch) if i not in refused]
        answers: list[Answer] = [(p, result, None) for p, result in zip(admitted, results, strict=True)]
        answers += [(batch[i], None, error) for i, error in refused.items()]
        _answer(answers)

    async def _store(self, batch: list[_Pending]) -> tuple[dict[int, ServiceError], list[IngestResult]]:
        """Check the batch's tokens and store the admitted reports, on the writer's own connection.

        The connection is kept between batches (no checkout, no ping); if it turns out to be
        dead (the database restarted), the batch is tried once more on a new one.
        """
        reused = self._connection is not None
        try:
            return await self._store_on_connection(batch)
        except Exception as exc:
            await self._close_connection()
            if not (reused and is_database_unavailable(exc)):
                raise
        try:
            return await self._store_on_connection(batch)
        except Exception:
            await self._close_connection()
            raise

    async def _store_on_connection(self, batch: list[_Pending]) -> tuple[dict[int, ServiceError], list[IngestResult]]:
        if self._connection is None:
            connection = await self._db_engine.connect()
            if connection.dialect.name == "postgresql":
                # The batch is one atomic statement there: BEGIN and COMMIT would only add round trips.
                connection = await connection.execution_options(isolation_level="AUTOCOMMIT")
            self._connection = connection
        return await self._connection.run_sync(_store_batch, batch)

    async def _close_connection(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                await connection.close()
            except Exception:  # a dead connection: nothing to hand back
                log.debug("closing the writer's connection failed", exc_info=True)


def _store_batch(connection: Connection, batch: list[_Pending]) -> tuple[dict[int, ServiceError], list[IngestResult]]:
    """The batch's database work, as plain synchronous SQLAlchemy (run_sync bridges it to asyncio):
    refuse reports whose token is inactive (401) or bound elsewhere (403), store the others."""
    scopes = active_token_scopes({p.token_hash for p in batch}, connection=connection)
    refused: dict[int, ServiceError] = {i: _token_refused() for i, p in enumerate(batch) if p.token_hash not in scopes}
    cluster_bound = [p.report.node_id for p in batch if (scope := scopes.get(p.token_hash)) and scope.cluster]
    stored_clusters = _stored_clusters(connection, cluster_bound)
    for i, pending in enumerate(batch):
        scope = scopes.get(pending.token_hash)
        if scope is None or (scope.node_id is None and scope.cluster is None):
            continue
        report = pending.report
        reported = report.facts.get("node.cluster")
        why = scope.refusal(
            report.node_id,
            reported_cluster=reported if isinstance(reported, str) else None,
            stored_cluster=stored_clusters.get(report.node_id),
        )
        if why is not None:
            refused[i] = Forbidden(why, code="token_scope")
    results = ingest_batch(connection, [p.report for i, p in enumerate(batch) if i not in refused])
    connection.commit()
    return refused, results


def _stored_clusters(connection: Connection, node_ids: list[str]) -> dict[str, str | None]:
    """The cluster each of these nodes is stored in (only asked for reports with cluster-bound tokens)."""
    if not node_ids:
        return {}
    rows = connection.execute(select(Node.id, Node.cluster).where(Node.id.in_(sorted(set(node_ids)))))
    return {row.id: row.cluster for row in rows}


# A waiting request with what to tell it: a stored report, or why not.
Answer = tuple[_Pending, IngestResult | None, BaseException | None]


def _answer(answers: list[Answer]) -> None:
    """Resolve each request's future, skipping those that gave up (timed out, disconnected)."""
    for pending, result, exception in answers:
        if pending.result.done():
            continue
        if exception is not None:
            pending.result.set_exception(exception)
        else:
            pending.result.set_result(result)  # type: ignore[arg-type]


def _database_unavailable() -> ServiceUnavailable:
    return ServiceUnavailable("the database is not reachable; retry later", code="database_unavailable")


def _token_refused() -> Unauthorized:
    return Unauthorized("the probe token is unknown or revoked", code="token_invalid")
