"""Clusters API: the cluster-wide diagnosis."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Request

from service.clusters.schemas import ClusterDiagnosis
from service.clusters.service import ClusterNotFound, diagnose_cluster
from service.database import DbSession
from service.errors import NotFound
from service.facts import EngineDep
from service.metrics import count_findings
from service.nodes.schemas import ID_PATTERN

router = APIRouter(prefix="/api/v1/clusters", tags=["clusters"])


@router.get("/{name}/diagnosis", response_model=ClusterDiagnosis)
def get_cluster_diagnosis(
    name: Annotated[str, Path(pattern=ID_PATTERN)],
    request: Request,
    db_session: DbSession,
    engine: EngineDep,
    lang: Annotated[Literal["en", "zh"], Query()] = "en",
) -> dict:
    """Diagnose the cluster over its nodes' latest facts, naming stragglers and stale nodes."""
    try:
        result = diagnose_cluster(
            name,
            db_session=db_session,
            engine=engine,
            stale_after_s=request.app.state.settings.stale_after_s,
            lang=lang,
        )
    except ClusterNotFound:
        raise NotFound(f"no node has reported for cluster {name!r}", code="cluster_not_found") from None
    count_findings(result["findings"], "cluster")
    return result
