"""Response body of the cluster diagnosis."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field


class NodeOutlier(BaseModel):
    fact: str
    value: float
    median: float
    direction: str
    score: float | None = None


class ClusterNode(BaseModel):
    """One node of the cluster: placement, freshness, what makes it lag, its own findings."""

    node_id: str
    zone: str | None = None
    region: str | None = None
    rack: str | None = None
    collected_at: datetime | None = None
    stale: bool
    outliers: list[NodeOutlier] = Field(default_factory=list)
    findings: list[dict[str, Any]] = Field(default_factory=list)
    findings_pending: bool = Field(default=False, description="this node's findings are still being computed")


class StaleNode(BaseModel):
    node_id: str
    collected_at: datetime | None = None
    age_s: float | None = None


class ClusterDiagnosis(BaseModel):
    """The diagnosis JSON shape plus the cluster's nodes, stragglers, placement and weakest links."""

    cluster: str
    nodes_total: int
    nodes_fresh: int
    stale_nodes: list[StaleNode]
    stragglers: list[str]
    zones: dict[str, list[str]]
    regions: dict[str, list[str]]
    limiting: dict[str, dict[str, Any]] = Field(description="fact -> worst value and the nodes that hold it")
    status: str | None = None
    facts: dict[str, Any]
    derived: dict[str, Any]
    findings: list[dict[str, Any]]
    missing: list[dict[str, Any]]
    nodes: list[ClusterNode]
