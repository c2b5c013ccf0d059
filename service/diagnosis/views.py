"""Diagnosis API: POST /api/v1/diagnose and GET /api/v1/rules (pure engine, no database)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from bwdoctor.diagnosis.schemas import DiagnoseIn, DiagnosisOut, RulesOut
from bwdoctor.facts import EngineDep, validate_facts
from bwdoctor.metrics import count_findings
from bwdoctor.unknown_facts import refuse_unknown, unknown_fact_warnings

router = APIRouter(prefix="/api/v1", tags=["diagnosis"])


@router.post("/diagnose", response_model=DiagnosisOut)
def diagnose(body: DiagnoseIn, engine: EngineDep) -> dict[str, Any]:
    """Findings for the given facts, most severe first."""
    facts = validate_facts(engine, body.facts)
    warnings = unknown_fact_warnings(facts, engine.catalogue, body.lang)
    if body.strict:
        refuse_unknown(warnings)
    result = engine.diagnose(facts, lang=body.lang).to_dict()
    result["warnings"] = warnings
    count_findings(result["findings"], "diagnose")
    return result


@router.get("/rules", response_model=RulesOut)
def list_rules(engine: EngineDep) -> RulesOut:
    """The loaded rules, so users can see what the service checks."""
    rules = [rule.to_dict() for rule in engine.rules]
    return RulesOut(rules=rules, total=len(rules))
