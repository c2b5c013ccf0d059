"""Bodies of the diagnosis API."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field


class DiagnoseIn(BaseModel):
    """Facts to diagnose, in the vocabulary of docs/facts.md."""

    facts: dict[str, Any]
    lang: Literal["en", "zh"] = "en"
    strict: bool = Field(default=False, description="unknown fact names are a 422 (unknown_fact), not a warning")


class DiagnosisOut(BaseModel):
    """The diagnosis JSON shape: facts, derived, findings, missing, status."""

    facts: dict[str, Any]
    derived: dict[str, Any]
    findings: list[dict[str, Any]]
    missing: list[dict[str, Any]]
    status: str | None = None
    warnings: list[dict[str, Any]] = Field(
        default_factory=list, description="unknown fact names, each with the closest known one"
    )


class RulesOut(BaseModel):
    rules: list[dict[str, Any]] = Field(
        description="every loaded rule, built-in and from BWDOCTOR_RULES_DIRS"
    )
    total: int
