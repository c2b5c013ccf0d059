"""Bodies of the pre-flight API."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from bwdoctor.nodes.schemas import ID_PATTERN

Status = Literal["pass", "warning", "critical"]


class PreflightIn(BaseModel):
    """A planned job's facts and, optionally, the cluster whose live facts to check it against."""

    job: dict[str, Any] = Field(description="job facts, e.g. job.model_params_b, job.nodes")
    cluster: str | None = Field(default=None, pattern=ID_PATTERN)
    lang: Literal["en", "zh"] = "en"
    strict: bool = Field(default=False, description="unknown fact names are a 422 (unknown_fact), not a warning")


class ClusterContext(BaseModel):
    name: str
    nodes_fresh: int
    stale_nodes: list[str]
    stragglers: list[str]


class PreflightOut(BaseModel):
    """pass / warning / critical and the findings that decide it."""

    status: Status
    findings: list[dict[str, Any]]
    facts: dict[str, Any] = Field(default_factory=dict)
    derived: dict[str, Any] = Field(default_factory=dict)
    missing: list[dict[str, Any]] = Field(default_factory=list)
    cluster: ClusterContext | None = None
    warnings: list[dict[str, Any]] = Field(
        default_factory=list, description="unknown fact names, each with the closest known one"
    )
