"""Pre-flight verdicts: the same engine as diagnosis, read as pass / warning / critical."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy.orm import Session

from bwdoctor.clusters.service import diagnose_cluster
from bwdoctor.engine import Engine


def verdict(findings: Iterable[dict[str, Any]]) -> str:
    """critical if any finding is critical, warning if any is a warning, else pass."""
    severities = {f.get("severity") for f in findings}
    if "critical" in severities:
        return "critical"
    if "warning" in severities:
        return "warning"
    return "pass"


def run_preflight(
    job_facts: dict[str, Any],
    *,
    engine: Engine,
    lang: str = "en",
    cluster: str | None = None,
    db_session: Session | None = None,
    stale_after_s: float = 900.0,
) -> dict[str, Any]:
    """Check validated job facts alone, or merged over a cluster's live facts (job facts win)."""
    context = None
    if cluster is not None:
        if db_session is None:
            raise ValueError("a database session is needed to check against a cluster")
        result = diagnose_cluster(
            cluster,
            db_session=db_session,
            engine=engine,
            stale_after_s=stale_after_s,
            lang=lang,
            job_facts=job_facts,
        )
        context = {
            "name": cluster,
            "nodes_fresh": result["nodes_fresh"],
            "stale_nodes": [s["node_id"] for s in result["stale_nodes"]],
            "stragglers": result["stragglers"],
        }
    else:
        result = engine.diagnose(job_facts, lang=lang).to_dict()
    return {
        "status": verdict(result["findings"]),
        "findings": result["findings"],
        "facts": result["facts"],
        "derived": result["derived"],
        "missing": result["missing"],
        "cluster": context,
    }
