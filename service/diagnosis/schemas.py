"""Bodies of the diagnosis API."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field


class DiagnoseIn(BaseModel):
    """Facts to diagnose, in the vocabulary of docs/facts.md."""

    facts: dict[str, Any]
    lang: Literal["en", "zh"] = "en"


class DiagnosisOut(BaseModel):
    """The diagnosis JSON shape: facts, derived, findings, missing, status."""

    facts: dict[str, Any]
    derived: dict[str, Any]
    findings: list[dict[str, Any]]
    missing: list[dict[str, Any]]
    status: str | None = None


class RulesOut(BaseModel):
    rules: list[dict[str, Any]] = Field(
        description="every loaded rule, built-in and from BWDOCTOR_RULES_DIRS"
    )
    total: int
