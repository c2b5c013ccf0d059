"""Nodes and their probe reports (facts with their time, so history can be shown)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, Dialect, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

from bwdoctor.database import Base, JsonType, UTCDateTime

# SQLite only auto-increments INTEGER PRIMARY KEY; PostgreSQL gets a 64-bit key.
BigIntPk = BigInteger().with_variant(Integer(), "sqlite")


class StoredFacts(TypeDecorator[dict[str, Any]]):
    """The facts column: JSON as stored, read back through today's shape check (service/nodes/stored.py),
    so a value accepted before a check existed cannot break a page, the API or the diagnoser."""

    impl = JsonType
    cache_ok = True

    def process_result_value(self, value: Any, dialect: Dialect) -> dict[str, Any] | None:
        from bwdoctor.nodes.stored import clean_facts  # the checks import the engine: load it lazily

        return None if value is None else clean_facts(value)


class Node(Base):
    """A machine with a probe; placement is copied from its latest report for cheap cluster queries."""

    __tablename__ = "nodes"

    id: Mapped[str] = mapped_column(String(128), primary_key=True)
    cluster: Mapped[str | None] = mapped_column(String(128), index=True)
    region: Mapped[str | None] = mapped_column(String(128))
    zone: Mapped[str | None] = mapped_column(String(128))
    rack: Mapped[str | None] = mapped_column(String(128))
    instance_type: Mapped[str | None] = mapped_column(String(128))
    first_seen: Mapped[datetime] = mapped_column(UTCDateTime())
    last_seen: Mapped[datetime] = mapped_column(UTCDateTime())
    # The newest report by collection time (not arrival: spooled reports may arrive late).
    latest_report_pk: Mapped[int | None] = mapped_column(BigIntPk)
    latest_collected_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class Report(Base):
    """One probe report; (node_id, report_id) is unique so a retried report is stored once."""

    __tablename__ = "reports"
    __table_args__ = (
        UniqueConstraint("node_id", "report_id"),
        Index("ix_reports_node_id_collected_at", "node_id", "collected_at"),
        Index("ix_reports_collected_at", "collected_at"),
    )

    pk: Mapped[int] = mapped_column(BigIntPk, primary_key=True, autoincrement=True)
    node_id: Mapped[str] = mapped_column(ForeignKey("nodes.id", ondelete="CASCADE"))
    report_id: Mapped[str] = mapped_column(String(128))
    collected_at: Mapped[datetime] = mapped_column(UTCDateTime())
    received_at: Mapped[datetime] = mapped_column(UTCDateTime())
    facts: Mapped[dict[str, Any]] = mapped_column(StoredFacts)
    # The engine's findings for this report's facts; filled after the report is acknowledged.
    findings: Mapped[list[dict[str, Any]] | None] = mapped_column(JsonType)
    diagnosed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
