"""Storing a batch of validated probe reports in the caller's transaction.

For each batch: upsert its nodes (placement from their reports), insert its reports unless
(node, report_id) is already stored (ON CONFLICT DO NOTHING makes racing retries safe), and
move each node's latest-report pointer forward only to a report collected later than the one
it points at (spooled reports may arrive late). Rows are written in (node, report) order, so
two replicas writing at once cannot deadlock.

PostgreSQL, where throughput matters, does all of it in one statement whose only parameter is
the batch as JSON: one round trip and almost no per-row Python work; being one statement, it
needs no transaction around it (the report writer runs it in autocommit mode). Other databases
(the embedded SQLite) use a few portable SQLAlchemy statements with the same effect.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

import orjson
from sqlalchemy import Connection, bindparam, func, or_, select, text, tuple_, update
from sqlalchemy.dialects import postgresql, sqlite

from bwdoctor.database import utcnow
from bwdoctor.nodes.models import Node, Report
from bwdoctor.nodes.schemas import ReportAck

PLACEMENT_FACTS = {
    "cluster": "node.cluster",
    "region": "node.region",
    "zone": "node.zone",
    "rack": "node.rack",
    "instance_type": "node.instance_type",
}


@dataclass(frozen=True)
class NewReport:
    """A validated report on its way into the database."""

    node_id: str
    facts: dict[str, Any]
    report_id: str | None = None
    collected_at: datetime | None = None


@dataclass(frozen=True)
class IngestResult:
    """A stored (or already stored) report."""

    ack: ReportAck
    report_pk: int


@dataclass(frozen=True)
class _Row:
    node_id: str
    report_id: str
    collected_at: datetime
    facts: dict[str, Any]


# (pk, collected_at, received_at, was already stored) of one (node, report_id)
Stored = tuple[int, datetime, datetime, bool]


def ingest_batch(connection: Connection, reports: Sequence[NewReport]) -> list[IngestResult]:
    """Store the reports (no commit); one result per report, in the order given.

    A report already stored, or repeated within the batch, is acknowledged as a duplicate
    with the stored report's times.
    """
    if not reports:
        return []
    now = utcnow()
    keys = [(r.node_id, r.report_id or uuid.uuid4().hex) for r in reports]
    rows: dict[tuple[str, str], _Row] = {}
    for (node_id, report_id), report in zip(keys, reports, strict=True):
        if (node_id, report_id) not in rows:
            # Never later than arrival: a clock ahead (within the allowed skew) cannot make a report
            # the node's latest over reports the service receives after it.
            collected_at = min(report.collected_at, now) if report.collected_at else now
            rows[(node_id, report_id)] = _Row(node_id, report_id, collected_at, report.facts)
    ordered = [rows[key] for key in sorted(rows)]
    nodes = _node_rows(reports)

    if connection.dialect.name == "postgresql":
        stored = _store_postgresql(connection, ordered, nodes, now)
    else:
        stored = _store_portable(connection, ordered, nodes, now)

    results = []
    seen: set[tuple[str, str]] = set()
    for key in keys:
        pk, collected_at, received_at, duplicate = stored[key]
        ack = ReportAck(
            node_id=key[0],
            report_id=key[1],
            collected_at=collected_at,
            received_at=received_at,
            duplicate=duplicate or key in seen,
        )
        seen.add(key)
        results.append(IngestResult(ack=ack, report_pk=pk))
    return results


def _placement(facts: dict[str, Any]) -> dict[str, str | None]:
    return {
        column: (value[:128] if isinstance(value := facts.get(key), str) and value else None)
        for column, key in PLACEMENT_FACTS.items()
    }


def _node_rows(reports: Sequence[NewReport]) -> list[dict[str, Any]]:
    """One row per node of the batch, in node order; a later report's placement wins."""
    nodes: dict[str, dict[str, Any]] = {}
    for report in reports:
        row = nodes.setdefault(report.node_id, {"id": report.node_id, **dict.fromkeys(PLACEMENT_FACTS)})
        for column, value in _placement(report.facts).items():
            if value is not None:
                row[column] = value
    return [nodes[node_id] for node_id in sorted(nodes)]


# --- PostgreSQL: one statement ----------------------------------------------------------------

# The reports insert runs first (foreign keys are checked at the end of the statement, when the
# nodes exist); the node upsert then takes each node's newest new report as its latest, unless
# the node already points at one collected later. A report already stored is looked up in the
# statement's snapshot; one committed by another replica after that snapshot is looked up again.
_PG_INGEST = text(
    """
WITH batch AS (
    SELECT * FROM jsonb_to_recordset(CAST(:reports AS jsonb))
        AS b(node_id text, report_id text, collected_at timestamptz, facts jsonb)
), placement AS (
    SELECT * FROM jsonb_to_recordset(CAST(:nodes AS jsonb))
        AS p(id text, cluster text, region text, zone text, rack text, instance_type text)
), inserted AS (
    INSERT INTO reports (node_id, report_id, collected_at, received_at, facts)
    SELECT node_id, report_id, collected_at, :now, facts FROM batch ORDER BY node_id, report_id
    ON CONFLICT (node_id, report_id) DO NOTHING
    RETURNING pk, node_id, report_id, collected_at, received_at
), newest AS (
    SELECT DISTINCT ON (node_id) node_id, pk, collected_at
    FROM inserted ORDER BY node_id, collected_at DESC, pk DESC
), upserted AS (
    INSERT INTO nodes AS n (id, cluster, region, zone, rack, instance_type, first_seen, last_seen,
                            latest_report_pk, latest_collected_at)
    SELECT p.id, p.cluster, p.region, p.zone, p.rack, p.instance_type, :now, :now, w.pk, w.collected_at
    FROM placement p LEFT JOIN newest w ON w.node_id = p.id
    ORDER BY p.id
    ON CONFLICT (id) DO UPDATE SET
        last_seen = excluded.last_seen,
        cluster = coalesce(excluded.cluster, n.cluster),
        region = coalesce(excluded.region, n.region),
        zone = coalesce(excluded.zone, n.zone),
        rack = coalesce(excluded.rack, n.rack),
        instance_type = coalesce(excluded.instance_type, n.instance_type),
        latest_report_pk = CASE
            WHEN excluded.latest_report_pk IS NOT NULL
                 AND (n.latest_collected_at IS NULL OR n.latest_collected_at <= excluded.latest_collected_at)
            THEN excluded.latest_report_pk ELSE n.latest_report_pk END,
        latest_collected_at = CASE
            WHEN excluded.latest_report_pk IS NOT NULL
                 AND (n.latest_collected_at IS NULL OR n.latest_collected_at <= excluded.latest_collected_at)
            THEN excluded.latest_collected_at ELSE n.latest_collected_at END
)
SELECT b.node_id, b.report_id,
       coalesce(i.pk, r.pk) AS pk,
       coalesce(i.collected_at, r.collected_at) AS collected_at,
       coalesce(i.received_at, r.received_at) AS received_at,
       i.pk IS NULL AS duplicate
FROM batch b
LEFT JOIN inserted i ON i.node_id = b.node_id AND i.report_id = b.report_id
LEFT JOIN LATERAL (  -- only for duplicates, by the unique index (never a scan of the table)
    SELECT pk, collected_at, received_at FROM reports
    WHERE i.pk IS NULL AND reports.node_id = b.node_id AND reports.report_id = b.report_id
) r ON true
"""
)


def _iso(value: datetime) -> str:
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()


def _utc(value: datetime) -> datetime:
    return value.astimezone(UTC)


def _store_postgresql(
    connection: Connection, rows: list[_Row], nodes: list[dict[str, Any]], now: datetime
) -> dict[tuple[str, str], Stored]:
    reports = orjson.dumps(
        [
            {"node_id": r.node_id, "report_id": r.report_id, "collected_at": _iso(r.collected_at), "facts": r.facts}
            for r in rows
        ]
    ).decode()
    params = {"reports": reports, "nodes": orjson.dumps(nodes).decode(), "now": now}
    stored: dict[tuple[str, str], Stored] = {}
    unseen: list[tuple[str, str]] = []
    for row in connection.execute(_PG_INGEST, params):
        if row.pk is None:  # stored by a transaction that committed after this statement began
            unseen.append((row.node_id, row.report_id))
        else:
            stored[(row.node_id, row.report_id)] = (
                row.pk,
                _utc(row.collected_at),
                _utc(row.received_at),
                row.duplicate,
            )
    stored.update(_find_stored(connection, unseen))
    return stored


def _find_stored(connection: Connection, keys: list[tuple[str, str]]) -> dict[tuple[str, str], Stored]:
    """Reports already in the database, by (node, report_id)."""
    if not keys:
        return {}
    found = connection.execute(
        select(Report.pk, Report.node_id, Report.report_id, Report.collected_at, Report.received_at).where(
            tuple_(Report.node_id, Report.report_id).in_(keys)
        )
    )
    return {(r.node_id, r.report_id): (r.pk, r.collected_at, r.received_at, True) for r in found}


# --- Portable: a few SQLAlchemy statements ----------------------------------------------------


@lru_cache(maxsize=4)
def _portable_statements(dialect: str) -> tuple[Any, Any, Any]:
    """Built once per dialect: constructing SQLAlchemy statements costs more than running them."""
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    node_insert = insert(Node)
    upsert_node = node_insert.on_conflict_do_update(
        index_elements=[Node.id],
        set_={
            "last_seen": node_insert.excluded.last_seen,
            **{col: func.coalesce(node_insert.excluded[col], Node.__table__.c[col]) for col in PLACEMENT_FACTS},
        },
    )
    insert_report = (
        insert(Report)
        .on_conflict_do_nothing(index_elements=[Report.node_id, Report.report_id])
        .returning(Report.pk, Report.node_id, Report.report_id)
    )
    advance_latest = (
        update(Node)
        .where(
            Node.id == bindparam("p_node"),
            or_(Node.latest_collected_at.is_(None), Node.latest_collected_at <= bindparam("p_collected")),
        )
        .values(latest_report_pk=bindparam("p_pk"), latest_collected_at=bindparam("p_collected"))
    )
    return upsert_node, insert_report, advance_latest


def _store_portable(
    connection: Connection, rows: list[_Row], nodes: list[dict[str, Any]], now: datetime
) -> dict[tuple[str, str], Stored]:
    upsert_node, insert_report, advance_latest = _portable_statements(connection.dialect.name)
    connection.execute(upsert_node, [{**node, "first_seen": now, "last_seen": now} for node in nodes])
    new_rows = [
        {
            "node_id": r.node_id,
            "report_id": r.report_id,
            "collected_at": r.collected_at,
            "received_at": now,
            "facts": r.facts,
        }
        for r in rows
    ]
    inserted = {(row.node_id, row.report_id): row.pk for row in connection.execute(insert_report, new_rows)}
    stored: dict[tuple[str, str], Stored] = {}
    for r in rows:
        if (key := (r.node_id, r.report_id)) in inserted:
            stored[key] = (inserted[key], r.collected_at, now, False)
    already = [(r.node_id, r.report_id) for r in rows if (r.node_id, r.report_id) not in inserted]
    stored.update(_find_stored(connection, already))

    newest: dict[str, tuple[datetime, int]] = {}
    for (node_id, _), (pk, collected_at, _, duplicate) in stored.items():
        if not duplicate and (node_id not in newest or (collected_at, pk) > newest[node_id]):
            newest[node_id] = (collected_at, pk)
    if newest:
        connection.execute(
            advance_latest,
            [{"p_node": n, "p_collected": newest[n][0], "p_pk": newest[n][1]} for n in sorted(newest)],
        )
    return stored
