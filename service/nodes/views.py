"""Nodes API: probes PUT reports; people and dashboards GET nodes."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from sqlalchemy.orm import Session

from service.database import DbSession
from service.errors import NotFound, Unprocessable
from service.facts import EngineDep, validate_facts
from service.metrics import REPORTS
from service.nodes import service
from service.nodes.schemas import ID_PATTERN, NodeDetail, NodeList, ReportAck, ReportIn
from service.tokens.dependencies import ProbeCredentials, authorize_probe

router = APIRouter(prefix="/api/v1/nodes", tags=["nodes"])
NodeId = Annotated[str, Path(pattern=ID_PATTERN, description="stable node name")]


@router.put(
    "/{node_id}/facts",
    response_model=ReportAck,
    status_code=201,
    responses={200: {"model": ReportAck, "description": "a retry of a report already stored"}},
)
async def put_facts(
    node_id: NodeId,
    body: ReportIn,
    request: Request,
    response: Response,
    db_session: DbSession,
    engine: EngineDep,
    credentials: ProbeCredentials,
) -> ReportAck:
    """Store a probe report (Bearer probe token required); 201 when new, 200 for a retry."""
    # The hottest route: all blocking work in one thread hop (auth, validation, storage).
    result = await run_in_threadpool(_store_report, node_id, body, db_session, engine, credentials)
    REPORTS.labels(result="duplicate" if result.ack.duplicate else "stored").inc()
    if result.ack.duplicate:
        response.status_code = 200
    elif request.app.state.diagnoser is not None:
        request.app.state.diagnoser.submit(node_id, result.report_pk)
    return result.ack


def _store_report(
    node_id: str, body: ReportIn, db_session: Session, engine: Any, credentials: Any
) -> service.IngestResult:
    authorize_probe(credentials, db_session=db_session)
    facts = validate_facts(engine, body.facts)
    reported_id = facts.get("node.id")
    if reported_id is not None and reported_id != node_id:
        raise Unprocessable(
            f"fact node.id {reported_id!r} does not match the node in the path {node_id!r}",
            code="node_id_mismatch",
            details={"key": "node.id", "value": reported_id, "expected": node_id},
        )
    return service.ingest_report(
        node_id, facts, db_session=db_session, report_id=body.report_id, collected_at=body.collected_at
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
) -> NodeDetail:
    """A node's latest facts and findings, and its report history (newest first)."""
    settings = request.app.state.settings
    node = service.get_node(
        node_id,
        db_session=db_session,
        engine=engine,
        stale_after_s=settings.stale_after_s,
        history_limit=settings.history_limit if history is None else history,
    )
    if node is None:
        raise NotFound(f"no node {node_id!r} has reported", code="node_not_found")
    return node
