"""Nodes API: probes PUT reports; people and dashboards GET nodes."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError

from bwdoctor.database import DbSession, utcnow
from bwdoctor.errors import NotFound, Unprocessable
from bwdoctor.facts import EngineDep, validate_facts
from bwdoctor.metrics import REPORTS
from bwdoctor.nodes import service
from bwdoctor.nodes.ingest import NewReport
from bwdoctor.nodes.schemas import ID_PATTERN, NodeDetail, NodeList, ReportAck, ReportIn
from bwdoctor.tokens.dependencies import PROBE_TOKEN_REQUIRED, bearer_token
from bwdoctor.tokens.service import hash_token

router = APIRouter(prefix="/api/v1/nodes", tags=["nodes"])
NodeId = Annotated[str, Path(pattern=ID_PATTERN, description="stable node name")]


# The path, the token and the body are read in the handler (the body by pydantic-core straight
# from bytes), not by FastAPI's dependency machinery, which costs more than the rest of this
# request together; OpenAPI still publishes all three, and errors keep the validation_error shape.
_NODE_ID = re.compile(ID_PATTERN)
_PUT_FACTS_DOCS = {
    "parameters": [
        {
            "name": "node_id",
            "in": "path",
            "required": True,
            "schema": {"type": "string", "pattern": ID_PATTERN},
            "description": "stable node name",
        }
    ],
    "requestBody": {"required": True, "content": {"application/json": {"schema": ReportIn.model_json_schema()}}},
    "security": PROBE_TOKEN_REQUIRED,
}


@router.put(
    "/{node_id}/facts",
    response_model=ReportAck,
    status_code=201,
    responses={200: {"model": ReportAck, "description": "a retry of a report already stored"}},
    openapi_extra=_PUT_FACTS_DOCS,
)
async def put_facts(request: Request) -> Response:
    """Store a probe report (Bearer probe token required); 201 when new, 200 for a retry.

    The hottest route: it checks the report here, on the event loop, and hands it to the
    process's ReportWriter, which checks the token and stores it with others in one commit.
    """
    node_id = request.path_params["node_id"]
    if not _NODE_ID.fullmatch(node_id):
        mismatch = {"loc": ("path", "node_id"), "msg": f"String should match pattern '{ID_PATTERN}'"}
        raise RequestValidationError([{**mismatch, "type": "string_pattern_mismatch"}])
    token = bearer_token(request.headers.get("authorization"))
    try:
        body = ReportIn.model_validate_json(await request.body())
    except ValidationError as exc:
        raise RequestValidationError([{**e, "loc": ("body", *e["loc"])} for e in exc.errors()]) from None
    state = request.app.state
    _check_clock(body.collected_at, state.settings.max_clock_skew_s)
    facts = validate_facts(state.engine, body.facts)
    reported_id = facts.get("node.id")
    if reported_id is not None and reported_id != node_id:
        raise Unprocessable(
            f"fact node.id {reported_id!r} does not match the node in the path {node_id!r}",
            code="node_id_mismatch",
            details={"key": "node.id", "value": reported_id, "expected": node_id},
        )
    report = NewReport(node_id=node_id, facts=facts, report_id=body.report_id, collected_at=body.collected_at)
    result = await state.report_writer.store(
        report, token_hash=hash_token(token), timeout_s=state.settings.ingest_timeout_s
    )
    duplicate = result.ack.duplicate
    REPORTS.labels(result="duplicate" if duplicate else "stored").inc()
    if not duplicate and state.diagnoser is not None:
        state.diagnoser.submit(node_id, result.report_pk)
    return Response(result.ack.model_dump_json(), status_code=200 if duplicate else 201, media_type="application/json")


def _check_clock(collected_at: datetime | None, max_skew_s: float) -> None:
    """422 clock_skew for a report dated further ahead than the allowed skew: it would stay the
    node's latest until real time caught up, hiding every genuine report in between."""
    if collected_at is None:
        return
    now = utcnow()
    ahead = (collected_at - now).total_seconds()
    if ahead > max_skew_s:
        raise Unprocessable(
            f"collected_at {collected_at:%Y-%m-%dT%H:%M:%SZ} is {ahead:.0f} s ahead of the service's clock "
            f"({now:%Y-%m-%dT%H:%M:%SZ}; at most {max_skew_s:g} s allowed): this machine's clock is off, check NTP",
            code="clock_skew",
            details={"key": "collected_at", "ahead_s": round(ahead, 1), "max_skew_s": max_skew_s},
        )


@router.get("", response_model=NodeList)
def list_nodes(
    request: Request,
    db_session: DbSession,
    cluster: Annotated[str | None, Query(max_length=128)] = None,
    limit: Annotated[int, Query(ge=1, le=10_000)] = 1000,
    offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
) -> NodeList:
    """Nodes with placement and freshness (optionally of one cluster)."""
    nodes, total = service.list_nodes(
        db_session=db_session,
        stale_after_s=request.app.state.settings.stale_after_s,
        cluster=cluster,
        limit=limit,
        offset=offset,
    )
    return NodeList(nodes=nodes, total=total)


@router.get("/{node_id}", response_model=NodeDetail)
def get_node(
    node_id: NodeId,
    request: Request,
    db_session: DbSession,
    engine: EngineDep,
    history: Annotated[int | None, Query(ge=0, le=1000, description="reports of history to include")] = None,
    lang: Annotated[Literal["en", "zh"], Query(description="language of the findings")] = "en",
) -> NodeDetail:
    """A node's latest facts and findings, and its report history (newest first)."""
    settings = request.app.state.settings
    node = service.get_node(
        node_id,
        db_session=db_session,
        engine=engine,
        stale_after_s=settings.stale_after_s,
        history_limit=settings.history_limit if history is None else history,
        lang=lang,
    )
    if node is None:
        raise NotFound(f"no node {node_id!r} has reported", code="node_not_found")
    return node
