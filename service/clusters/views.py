"""Clusters API: the cluster-wide diagnosis."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Request, Response

from bwdoctor.clusters.schemas import ClusterDiagnosis, cluster_diagnosis_json
from bwdoctor.clusters.service import ClusterNotFound, diagnose_cluster
from bwdoctor.database import DbSession
from bwdoctor.errors import NotFound
from bwdoctor.fabric.service import cluster_localisation
from bwdoctor.facts import EngineDep
from bwdoctor.metrics import count_findings
from bwdoctor.nodes.schemas import ID_PATTERN

router = APIRouter(prefix="/api/v1/clusters", tags=["clusters"])


@router.get("/{name}/diagnosis", response_model=ClusterDiagnosis)
def get_cluster_diagnosis(
    name: Annotated[str, Path(pattern=ID_PATTERN)],
    request: Request,
    db_session: DbSession,
    engine: EngineDep,
    lang: Annotated[Literal["en", "zh"], Query()] = "en",
) -> Response:
    """Diagnose the cluster over its nodes' latest facts, naming stragglers and stale nodes."""
    # The body is written here, once, in the ClusterDiagnosis shape (response_model still documents
    # it): FastAPI would validate every node of a thousand-node cluster again on the way out.
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
    result["fabric"] = cluster_localisation(name, db_session=db_session, lang=lang)
    count_findings(result["findings"], "cluster")
    return Response(cluster_diagnosis_json(result), media_type="application/json")
