"""Bodies of the cluster job API."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field


class JobIn(BaseModel):
    """The job that runs on a cluster, as job.* and model.* facts (replaces what was set before)."""

    facts: dict[str, Any] = Field(description="e.g. job.model_params_b, job.precision, job.parallelism, job.nodes")
    strict: bool = Field(default=False, description="unknown fact names are a 422 (unknown_fact), not a warning")


class JobOut(BaseModel):
    cluster: str
    facts: dict[str, Any]
    updated_at: datetime
    warnings: list[dict[str, Any]] = Field(default_factory=list)
