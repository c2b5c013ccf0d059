"""Pre-flight API: POST /api/v1/preflight."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from bwdoctor.clusters.service import ClusterNotFound
from bwdoctor.database import DbSession
from bwdoctor.errors import NotFound
from bwdoctor.facts import EngineDep, validate_facts
from bwdoctor.metrics import count_findings
from bwdoctor.preflight.schemas import PreflightIn, PreflightOut
from bwdoctor.preflight.service import run_preflight
from bwdoctor.unknown_facts import refuse_unknown, unknown_fact_warnings

router = APIRouter(prefix="/api/v1", tags=["preflight"])


@router.post("/preflight", response_model=PreflightOut)
def preflight(
    body: PreflightIn, request: Request, db_session: DbSession, engine: EngineDep
) -> dict[str, Any]:
    """Check a planned job; with `cluster`, against that cluster's live facts."""
    job = validate_facts(engine, body.job, where="job fact")
    warnings = unknown_fact_warnings(job, engine.catalogue, body.lang)
    if body.strict:
        refuse_unknown(warnings)
    try:
        result = run_preflight(
            job,
            engine=engine,
            lang=body.lang,
            cluster=body.cluster,
            db_session=db_session,
            stale_after_s=request.app.state.settings.stale_after_s,
        )
    except ClusterNotFound:
        raise NotFound(
            f"no node has reported for cluster {body.cluster!r}", code="cluster_not_found"
        ) from None
    count_findings(result["findings"], "preflight")
    return {**result, "warnings": warnings}
