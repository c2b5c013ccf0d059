"""Fabric routes: probes pull their next planned test and post its result (probe token); people
opt a cluster in, start a run and read the localisation.

    GET  /api/v1/nodes/{node_id}/tests/next?address=&port=     probe token; the test to run, or none
    POST /api/v1/nodes/{node_id}/tests/{test_id}/result        probe token; the test's Gb/s or error
    GET  /api/v1/clusters/{name}/fabric                        settings, test endpoints, latest run
    PUT  /api/v1/clusters/{name}/fabric                        probe token; opt in/out, bounds
    POST /api/v1/clusters/{name}/fabric/runs                   probe token; start a run now
    GET  /api/v1/clusters/{name}/fabric/localisation?lang=     latest run's localisation and findings
    GET  /api/v1/nodes/{node_id}/regressions?lang=             lasting changes for the worse, checkpoint contention
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from pydantic import ValidationError

from bwdoctor.config import Settings
from bwdoctor.database import DbSession
from bwdoctor.errors import Conflict, NotFound, Unprocessable
from bwdoctor.fabric import service
from bwdoctor.fabric.models import FabricRun
from bwdoctor.fabric.schemas import (
    Announce,
    FabricSettingsIn,
    FabricSettingsOut,
    NextTest,
    PlannedTestOut,
    RunOut,
    TestResultAck,
    TestResultIn,
)
from bwdoctor.nodes.models import Node
from bwdoctor.nodes.schemas import ID_PATTERN
from bwdoctor.tokens.dependencies import PROBE_TOKEN_REQUIRED
from bwdoctor.tokens.scope import require_cluster_scope, require_node_scope

router = APIRouter(tags=["fabric"])
NodeId = Annotated[str, Path(pattern=ID_PATTERN, description="stable node name")]
ClusterName = Annotated[str, Path(pattern=ID_PATTERN)]
_SECURED: dict[str, Any] = {"security": PROBE_TOKEN_REQUIRED}


def _require_node_token(request: Request, node_id: str, db_session: DbSession) -> None:
    """401 without an active probe token, 403 when it is bound to another node or cluster."""
    require_node_scope(request.headers.get("authorization"), node_id, db_session=db_session)


def _require_cluster_token(request: Request, cluster: str, db_session: DbSession) -> None:
    """401 without an active probe token, 403 unless it is unbound or bound to this cluster."""
    require_cluster_scope(request.headers.get("authorization"), cluster, db_session=db_session)


def _enabled_by_config(request: Request) -> list[str]:
    settings: Settings = request.app.state.settings
    return settings.fabric_cluster_list


def _raise(exc: service.FabricError) -> None:
    if exc.code in ("node_unknown", "test_unknown"):
        raise NotFound(str(exc), code=exc.code) from None
    if exc.code in ("run_in_progress", "test_closed"):
        raise Conflict(str(exc), code=exc.code) from None
    raise Unprocessable(str(exc), code=exc.code) from None


@router.get("/api/v1/nodes/{node_id}/tests/next", response_model=NextTest, openapi_extra=_SECURED)
def get_next_test(
    node_id: NodeId,
    request: Request,
    db_session: DbSession,
    address: Annotated[str, Query(max_length=64, description="the IP this node's iperf3 server listens on")],
    port: Annotated[int, Query(ge=1, le=65535)] = 5201,
) -> NextTest:
    """The next planned test this node runs as the client (none when nothing is planned for it).
    Asking also announces where this node's own iperf3 server listens, for its peers' tests."""
    _require_node_token(request, node_id, db_session)
    try:
        announced = Announce(address=address, port=port)
    except ValidationError as exc:
        raise Unprocessable(str(exc.errors()[0]["msg"]).removeprefix("Value error, "), code="invalid_address") from None
    try:
        test, poll_after = service.next_test(
            node_id,
            announced.address,
            announced.port,
            db_session=db_session,
            enabled_by_config=_enabled_by_config(request),
        )
    except service.FabricError as exc:
        _raise(exc)
        raise
    if test is None:
        return NextTest(test=None, poll_after_s=poll_after)
    run = db_session.get(FabricRun, test.run_id)
    return NextTest(
        test=PlannedTestOut(
            test_id=test.id,
            run_id=test.run_id,
            cluster=run.cluster if run is not None else "",
            client=test.client,
            peer=test.server,
            address=test.server_address,
            port=test.server_port,
            duration_s=test.duration_s,
            rate_gbps=test.rate_gbps,
            stage=test.stage,
            deadline=test.deadline,
        ),
        poll_after_s=poll_after,
    )


@router.post("/api/v1/nodes/{node_id}/tests/{test_id}/result", response_model=TestResultAck, openapi_extra=_SECURED)
def post_test_result(
    node_id: NodeId,
    test_id: Annotated[int, Path(ge=1)],
    body: TestResultIn,
    request: Request,
    db_session: DbSession,
) -> TestResultAck:
    """Store the result of a test this node was handed."""
    _require_node_token(request, node_id, db_session)
    try:
        run = service.record_result(node_id, test_id, gbps=body.gbps, error=body.error, db_session=db_session)
    except service.FabricError as exc:
        _raise(exc)
        raise
    return TestResultAck(test_id=test_id, accepted=True, run_status=run.status)


@router.get("/api/v1/clusters/{name}/fabric")
def get_fabric(name: ClusterName, request: Request, db_session: DbSession) -> dict[str, Any]:
    """The cluster's pair-test settings, the nodes ready for tests, and its latest run."""
    run = service.latest_run(name, db_session=db_session)
    return {
        "settings": FabricSettingsOut(
            **service.get_settings(name, db_session=db_session, enabled_by_config=_enabled_by_config(request))
        ).model_dump(mode="json"),
        "endpoints": service.endpoints(name, db_session=db_session),
        "latest_run": None
        if run is None
        else RunOut(**service.run_summary(run, db_session=db_session)).model_dump(mode="json"),
    }


@router.put("/api/v1/clusters/{name}/fabric", response_model=FabricSettingsOut, openapi_extra=_SECURED)
def put_fabric(name: ClusterName, body: FabricSettingsIn, request: Request, db_session: DbSession) -> FabricSettingsOut:
    """Opt the cluster in or out of planned pair tests (off by default) and bound their cost."""
    _require_cluster_token(request, name, db_session)
    return FabricSettingsOut(**service.set_settings(name, body, db_session=db_session))


@router.post("/api/v1/clusters/{name}/fabric/runs", response_model=RunOut, status_code=201, openapi_extra=_SECURED)
def post_run(name: ClusterName, request: Request, db_session: DbSession) -> RunOut:
    """Start a run of pair tests now over the nodes whose probes asked for tests lately."""
    _require_cluster_token(request, name, db_session)
    try:
        run = service.start_run(name, db_session=db_session, enabled_by_config=_enabled_by_config(request))
    except service.FabricError as exc:
        _raise(exc)
        raise
    return RunOut(**service.run_summary(run, db_session=db_session))


@router.get("/api/v1/clusters/{name}/fabric/localisation", response_model=RunOut)
def get_localisation(
    name: ClusterName, db_session: DbSession, lang: Annotated[Literal["en", "zh"], Query()] = "en"
) -> RunOut:
    """The latest run's localisation (live while it runs) with its findings in `lang`."""
    summary = service.cluster_localisation(name, db_session=db_session, lang=lang)
    if summary is None:
        raise NotFound(f"cluster {name!r} has no pair-test run", code="no_fabric_run")
    return RunOut(**summary)


@router.get("/api/v1/nodes/{node_id}/regressions")
def get_regressions(
    node_id: NodeId, db_session: DbSession, lang: Annotated[Literal["en", "zh"], Query()] = "en"
) -> dict[str, Any]:
    """Lasting changes for the worse in the node's history (step time, busbw, iperf3, link speed), and
    checkpoint contention: regular spikes in the per-step times of its newest report, with their cost."""
    if db_session.get(Node, node_id) is None:
        raise NotFound(f"no node {node_id!r} has reported", code="node_not_found")
    return {
        "node_id": node_id,
        "regressions": service.node_regressions_of(node_id, db_session=db_session, lang=lang),
        "checkpoint_contention": service.node_checkpoint_contention_of(node_id, db_session=db_session, lang=lang),
    }
