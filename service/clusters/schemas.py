"""Response body of the cluster diagnosis."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import orjson
from pydantic import BaseModel, Field
from pydantic_core import to_jsonable_python


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
    fabric: dict[str, Any] | None = Field(
        default=None, description="the latest pair-test run: which fabric element is at fault (bwdoctor.fabric)"
    )


_DIAGNOSIS_FIELDS = tuple(ClusterDiagnosis.model_fields)
_DIAGNOSIS_DEFAULTS = {
    name: field.get_default(call_default_factory=True)
    for name, field in ClusterDiagnosis.model_fields.items()
    if not field.is_required()
}


def cluster_diagnosis_json(result: dict[str, Any]) -> bytes:
    """The ClusterDiagnosis JSON of diagnose_cluster's result, the same bytes as
    `ClusterDiagnosis.model_validate(result).model_dump_json()` at a fraction of the cost: the
    service builds every nested value in the schema's shape and types already, so there is nothing
    to validate and orjson writes it directly (datetimes as pydantic does: ISO 8601, UTC as "Z").
    Anything orjson cannot write (an integer past 64 bits, a key that is not a string) goes the
    pydantic way."""
    body = {name: result[name] if name in result else _DIAGNOSIS_DEFAULTS[name] for name in _DIAGNOSIS_FIELDS}
    try:
        return orjson.dumps(body, default=to_jsonable_python, option=orjson.OPT_UTC_Z)
    except TypeError:
        return ClusterDiagnosis.model_validate(result).model_dump_json().encode()
