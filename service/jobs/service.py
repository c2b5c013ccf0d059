"""Setting and reading a cluster's job facts; the one place that decides which facts a job may set."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from sqlalchemy.orm import Session

from bwdoctor.database import utcnow
from bwdoctor.engine import Engine
from bwdoctor.jobs.models import ClusterJob

JOB_PREFIXES = ("job.", "model.")
CLUSTER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$")


class JobFactsError(ValueError):
    """Facts that are not a job's (node measurements, a bad cluster name): says which."""


def split_job_facts(facts: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The job's facts (job.*, model.*) and the names of the others, which are not kept: node facts
    come from the probes' reports (a pre-flight job file may plan them, a cluster's job does not)."""
    kept = {k: v for k, v in facts.items() if k.startswith(JOB_PREFIXES)}
    return kept, sorted(k for k in facts if k not in kept)


def not_kept_message(names: list[str]) -> str:
    return f"not kept: {', '.join(names)} (a cluster's job holds job.* and model.* facts; the probes report the rest)"


def set_job(cluster: str, facts: Mapping[str, Any], *, engine: Engine, db_session: Session) -> ClusterJob:
    """Replace the cluster's job facts with the job.* and model.* facts of `facts` (validated)."""
    if not CLUSTER_NAME.match(cluster):
        raise JobFactsError(f"invalid cluster name {cluster!r}: letters, digits and . _ : @ - (max 128)")
    kept, _ = split_job_facts(facts)
    if not kept:
        raise JobFactsError("no job facts: give job.* or model.* facts, e.g. job.model_params_b: 70")
    checked = engine.validate_facts(kept)
    row = db_session.get(ClusterJob, cluster)
    if row is None:
        row = ClusterJob(cluster=cluster, facts=checked, updated_at=utcnow())
        db_session.add(row)
    else:
        row.facts, row.updated_at = checked, utcnow()
    db_session.flush()
    return row


def get_job(cluster: str, *, db_session: Session) -> ClusterJob | None:
    return db_session.get(ClusterJob, cluster)


def job_facts(cluster: str, *, db_session: Session) -> dict[str, Any]:
    """The cluster's job facts, or {} when none were set."""
    row = db_session.get(ClusterJob, cluster)
    return dict(row.facts) if row is not None else {}


def delete_job(cluster: str, *, db_session: Session) -> bool:
    row = db_session.get(ClusterJob, cluster)
    if row is None:
        return False
    db_session.delete(row)
    return True
