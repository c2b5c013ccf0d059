"""Fabric tests: per-cluster opt-in, the probes' test addresses, runs and their pair tests."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from bwdoctor.database import Base, JsonType, UTCDateTime
from bwdoctor.nodes.models import BigIntPk


class FabricCluster(Base):
    """A cluster's opt-in to planned pair tests and what each test may cost (no row: off)."""

    __tablename__ = "fabric_clusters"

    cluster: Mapped[str] = mapped_column(String(128), primary_key=True)
    enabled: Mapped[bool] = mapped_column(Boolean, default=False)
    duration_s: Mapped[float] = mapped_column(Float, default=2.0)
    rate_gbps: Mapped[float | None] = mapped_column(Float)
    max_parallel: Mapped[int] = mapped_column(Integer, default=8)
    interval_s: Mapped[float | None] = mapped_column(Float)  # start a run this often; None: only on request
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


class FabricEndpoint(Base):
    """Where a node's iperf3 server listens, as its probe announced when it last asked for a test."""

    __tablename__ = "fabric_endpoints"

    node_id: Mapped[str] = mapped_column(ForeignKey("nodes.id", ondelete="CASCADE"), primary_key=True)
    cluster: Mapped[str] = mapped_column(String(128), index=True)
    address: Mapped[str] = mapped_column(String(64))
    port: Mapped[int] = mapped_column(Integer)
    polled_at: Mapped[datetime] = mapped_column(UTCDateTime())


class FabricRun(Base):
    """One campaign of pair tests over a cluster's nodes; the localisation is stored when it ends."""

    __tablename__ = "fabric_runs"
    __table_args__ = (Index("ix_fabric_runs_cluster_started_at", "cluster", "started_at"),)

    id: Mapped[int] = mapped_column(BigIntPk, primary_key=True, autoincrement=True)
    cluster: Mapped[str] = mapped_column(String(128))
    status: Mapped[str] = mapped_column(String(16))  # running | done
    started_at: Mapped[datetime] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    participants: Mapped[dict[str, Any]] = mapped_column(JsonType)  # node -> {leaf, rail, zone}
    policy: Mapped[dict[str, Any]] = mapped_column(JsonType)
    localisation: Mapped[dict[str, Any] | None] = mapped_column(JsonType)
    version: Mapped[int] = mapped_column(Integer, default=0)  # bumped to serialise test hand-outs


class FabricTest(Base):
    """One planned test: the client runs iperf3 against the server's announced address."""

    __tablename__ = "fabric_tests"
    __table_args__ = (Index("ix_fabric_tests_run_id_status", "run_id", "status"),)

    id: Mapped[int] = mapped_column(BigIntPk, primary_key=True, autoincrement=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("fabric_runs.id", ondelete="CASCADE"))
    client: Mapped[str] = mapped_column(String(128))
    server: Mapped[str] = mapped_column(String(128))
    server_address: Mapped[str] = mapped_column(String(64))
    server_port: Mapped[int] = mapped_column(Integer)
    stage: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str] = mapped_column(String(200))
    duration_s: Mapped[float] = mapped_column(Float)
    rate_gbps: Mapped[float | None] = mapped_column(Float)
    status: Mapped[str] = mapped_column(String(16))  # assigned | done | expired
    assigned_at: Mapped[datetime] = mapped_column(UTCDateTime())
    deadline: Mapped[datetime] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    gbps: Mapped[float | None] = mapped_column(Float)
    error: Mapped[str | None] = mapped_column(String(500))
