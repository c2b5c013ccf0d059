"""`bwdoctor jobs set CLUSTER job.yaml` and `bwdoctor jobs show CLUSTER`: a cluster's job facts in the
database the service uses (the one `bwdoctor serve` names), as PUT /api/v1/clusters/{name}/job does."""

from __future__ import annotations

import json
import sys

import click

from bwdoctor.cli.common import db_session, fail, plain_errors, warn_unknown


@click.group()
def jobs() -> None:
    """Job facts per cluster (model size, precision, parallelism…) for its page and pre-flight."""


@jobs.command("set")
@click.argument("cluster")
@click.argument("job_file", metavar="JOB_FILE")
@click.option("--strict", is_flag=True, help="Unknown fact names are an error (exit 2), not a warning.")
def jobs_set(cluster: str, job_file: str, strict: bool) -> None:
    """Set CLUSTER's job facts from a YAML or JSON file (replaces what was set before)."""
    from bwdoctor.cli.jobfile import JobFileError, load_job_file
    from bwdoctor.engine import EngineError, load_engine
    from bwdoctor.jobs.service import JobFactsError, not_kept_message, set_job, split_job_facts
    from bwdoctor.unknown_facts import unknown_facts

    try:
        facts = load_job_file(job_file)
    except JobFileError as exc:
        fail(str(exc), 2)
    engine = load_engine()
    warn_unknown(unknown_facts(facts, engine.catalogue), strict)
    _, others = split_job_facts(facts)
    if others:
        click.echo(f"bwdoctor: warning: {not_kept_message(others)}", err=True)
    try:
        with plain_errors(), db_session() as session:
            row = set_job(cluster, facts, engine=engine, db_session=session)
            shown = dict(row.facts)
    except (JobFactsError, EngineError) as exc:
        fail(f"{job_file}: {exc}", 2)
    click.echo(f"job facts of cluster {cluster!r} set: " + ", ".join(f"{k}={v}" for k, v in sorted(shown.items())))


@jobs.command("show")
@click.argument("cluster")
@click.option("--format", "fmt", type=click.Choice(["yaml", "json"]), default="yaml", show_default=True)
def jobs_show(cluster: str, fmt: str) -> None:
    """Print CLUSTER's job facts (exit 1 when none are set)."""
    from bwdoctor.jobs.service import job_facts

    with plain_errors(), db_session() as session:
        facts = job_facts(cluster, db_session=session)
    if not facts:
        click.echo(f"no job facts set for cluster {cluster!r}; set them with: bwdoctor jobs set {cluster} job.yaml",
                   err=True)
        sys.exit(1)
    if fmt == "json":
        click.echo(json.dumps(facts, indent=2, ensure_ascii=False))
    else:
        for key, value in sorted(facts.items()):
            click.echo(f"{key}: {json.dumps(value, ensure_ascii=False)}")
