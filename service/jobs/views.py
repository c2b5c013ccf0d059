"""Cluster job API: PUT/GET/DELETE /api/v1/clusters/{name}/job.

Setting a job needs a probe token (the same bearer as reports), unbound or bound to that cluster:
whoever may report for the cluster may describe its job; reading it is as open as the cluster
diagnosis."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Response

from bwdoctor.database import DbSession
from bwdoctor.engine import EngineError
from bwdoctor.errors import NotFound, Unprocessable
from bwdoctor.facts import EngineDep, check_fact_shape
from bwdoctor.jobs.schemas import JobIn, JobOut
from bwdoctor.jobs.service import JobFactsError, delete_job, get_job, not_kept_message, set_job, split_job_facts
from bwdoctor.nodes.schemas import ID_PATTERN
from bwdoctor.tokens.dependencies import PROBE_TOKEN_REQUIRED
from bwdoctor.tokens.scope import require_cluster_scope
from bwdoctor.unknown_facts import refuse_unknown, unknown_fact_warnings

router = APIRouter(prefix="/api/v1/clusters", tags=["clusters"])
ClusterName = Annotated[str, Path(pattern=ID_PATTERN, description="the node.cluster fact of its nodes")]


@router.put("/{name}/job", response_model=JobOut, openapi_extra={"security": PROBE_TOKEN_REQUIRED})
def put_job(
    name: ClusterName,
    body: JobIn,
    db_session: DbSession,
    engine: EngineDep,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """Set the job facts of a cluster; its page and pre-flight checks use them for what-ifs."""
    require_cluster_scope(authorization, name, db_session=db_session)
    facts = check_fact_shape(body.facts, where="job fact")
    warnings = unknown_fact_warnings(facts, engine.catalogue)
    if body.strict:
        refuse_unknown(warnings)
    try:
        row = set_job(name, facts, engine=engine, db_session=db_session)
    except (JobFactsError, EngineError) as exc:
        raise Unprocessable(str(exc), code="invalid_job") from None
    db_session.commit()
    _, others = split_job_facts(facts)
    if others:
        warnings.append({"code": "not_kept", "key": others[0], "closest": None, "message": not_kept_message(others)})
    return {"cluster": row.cluster, "facts": row.facts, "updated_at": row.updated_at, "warnings": warnings}


@router.get("/{name}/job", response_model=JobOut)
def read_job(name: ClusterName, db_session: DbSession) -> dict[str, Any]:
    """The job facts set for a cluster."""
    row = get_job(name, db_session=db_session)
    if row is None:
        raise NotFound(f"no job facts set for cluster {name!r}", code="job_not_found")
    return {"cluster": row.cluster, "facts": row.facts, "updated_at": row.updated_at}


@router.delete("/{name}/job", status_code=204, openapi_extra={"security": PROBE_TOKEN_REQUIRED})
def remove_job(
    name: ClusterName, db_session: DbSession, authorization: Annotated[str | None, Header()] = None
) -> Response:
    """Forget a cluster's job facts."""
    require_cluster_scope(authorization, name, db_session=db_session)
    if not delete_job(name, db_session=db_session):
        raise NotFound(f"no job facts set for cluster {name!r}", code="job_not_found")
    db_session.commit()
    return Response(status_code=204)
