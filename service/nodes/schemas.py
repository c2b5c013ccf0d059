"""Request and response bodies of the nodes API."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import BaseModel, Field, field_validator

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$"
MAX_CLOCK_SKEW = timedelta(days=1)


class ReportIn(BaseModel):
    """A probe report: facts, an optional id that makes retries idempotent, and when it was taken."""

    facts: dict[str, Any] = Field(description="fact key -> value, in the vocabulary of docs/facts.md")
    report_id: str | None = Field(
        default=None,
        pattern=ID_PATTERN,
        description="unique per node; a retry with the same id is stored once",
    )
    collected_at: datetime | None = Field(default=None, description="ISO 8601; defaults to arrival time")

    @field_validator("collected_at")
    @classmethod
    def _utc_and_not_future(cls, value: datetime | None) -> datetime | None:
        if value is None:
            return None
        try:
            value = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
        except (OverflowError, ValueError) as exc:
            raise ValueError("collected_at is out of range") from exc
        if value.year < 2000:
            raise ValueError("collected_at is before the year 2000")
        if value > datetime.now(UTC) + MAX_CLOCK_SKEW:
            raise ValueError("collected_at is more than a day in the future; check the probe's clock")
        return value


class ReportAck(BaseModel):
    """What the service acknowledges once a report is durably stored."""

    node_id: str
    report_id: str
    collected_at: datetime
    received_at: datetime
    duplicate: bool = Field(description="true when this report_id was already stored (a retry)")


class ReportOut(BaseModel):
    """One stored report, with its findings once computed."""

    report_id: str
    collected_at: datetime
    received_at: datetime
    facts: dict[str, Any]
    findings: list[dict[str, Any]] | None = None


class NodeSummary(BaseModel):
    """A node in the list: where it is and how fresh its data is."""

    node_id: str
    cluster: str | None = None
    region: str | None = None
    zone: str | None = None
    rack: str | None = None
    instance_type: str | None = None
    first_seen: datetime
    last_seen: datetime
    latest_collected_at: datetime | None = None
    stale: bool


class NodeDetail(NodeSummary):
    """A node with its latest report, that report's findings, and its history (newest first)."""

    latest: ReportOut | None = None
    history: list[ReportOut] = Field(default_factory=list)


class NodeList(BaseModel):
    nodes: list[NodeSummary]
    total: int
