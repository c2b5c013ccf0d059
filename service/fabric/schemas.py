"""Request and response bodies of the fabric routes."""

from __future__ import annotations

import ipaddress
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field, field_validator

MAX_DURATION_S = 10.0


class FabricSettingsIn(BaseModel):
    """Opt a cluster in or out of planned pair tests, and bound what they cost."""

    enabled: bool
    duration_s: float = Field(default=2.0, gt=0, le=MAX_DURATION_S, description="seconds per test")
    rate_gbps: float | None = Field(default=None, gt=0, le=1000, description="cap per test (iperf3 -b)")
    max_parallel: int = Field(default=8, ge=1, le=1024, description="tests running at once in the cluster")
    interval_s: float | None = Field(default=None, ge=600, description="start a run this often (None: on request)")


class FabricSettingsOut(FabricSettingsIn):
    cluster: str
    updated_at: datetime | None = None


class PlannedTestOut(BaseModel):
    """What a probe must run: iperf3 to the peer the service names, bounded in time and rate."""

    test_id: int
    run_id: int
    cluster: str
    client: str
    peer: str
    address: str
    port: int
    duration_s: float
    rate_gbps: float | None
    stage: str
    deadline: datetime


class NextTest(BaseModel):
    test: PlannedTestOut | None = None
    poll_after_s: float = Field(description="when to ask again")


class TestResultIn(BaseModel):
    """A probe's result of one planned test: Gb/s, or the error that stopped it."""

    gbps: float | None = Field(default=None, ge=0, le=10_000)
    error: str | None = Field(default=None, max_length=500)
    retransmits: int | None = Field(default=None, ge=0)


class TestResultAck(BaseModel):
    test_id: int
    accepted: bool
    run_status: str


class RunOut(BaseModel):
    run_id: int
    cluster: str
    status: str
    started_at: datetime
    finished_at: datetime | None = None
    nodes: int
    tests_done: int
    tests_running: int
    localisation: dict[str, Any] | None = None
    findings: list[dict[str, Any]] = Field(default_factory=list)


def check_address(value: str) -> str:
    """An IP address (a probe announces where its iperf3 server listens; no host names)."""
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        raise ValueError(f"not an IP address: {value!r}") from None


class Announce(BaseModel):
    address: str
    port: int = Field(default=5201, ge=1, le=65535)

    @field_validator("address")
    @classmethod
    def _address(cls, value: str) -> str:
        return check_address(value)
