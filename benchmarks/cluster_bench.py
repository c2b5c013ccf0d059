#!/usr/bin/env python3
"""Cluster diagnosis benchmark: GET /api/v1/clusters/{name}/diagnosis over a 1,000-node cluster.

Creates a fresh schema on PostgreSQL (BWDOCTOR_TEST_DATABASE_URL, else the local test server),
migrates it, seeds N nodes of cluster "big" with one realistic report each (node 3 with a slow
iperf, node 7 with a 10 Gb/s NIC) and their findings already computed, as the background
diagnoser would have, then times the diagnosis in-process and over real HTTP (uvicorn, one
worker). Timing runs share the machine with other benchmarks, so wrap them in the lock:

    flock /tmp/bench.lock .venv/bin/python benchmarks/cluster_bench.py [--nodes 1000] [--runs 20]
    .venv/bin/python benchmarks/cluster_bench.py --profile        # cProfile of the in-process path
    .venv/bin/python benchmarks/cluster_bench.py --dump out.json  # the HTTP body, normalised, to diff

--stale N / --undiagnosed N add stale nodes and nodes whose findings are computed on read;
--gc-freeze runs both timings with gc.freeze() after start-up (the slowest requests are full
garbage collections over everything the process loaded; freezing takes those objects out of them).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.service_load import postgres_url, report_facts, uvicorn_process  # noqa: E402

if TYPE_CHECKING:
    from bwdoctor.engine import Engine

DEFAULT_PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
CLUSTER = "big"


def gc_frozen_create_app() -> Any:
    """The service's app, with everything alive after start-up moved out of the garbage collector's
    sight (gc.freeze), to see what that does to the slowest requests (--gc-freeze)."""
    import gc

    from bwdoctor.main import create_app

    app = create_app()
    gc.collect()
    gc.freeze()
    return app


def seed(url: str, nodes: int, *, stale: int, undiagnosed: int, engine: Engine) -> None:
    """One report per node; the last `stale` nodes reported two hours ago; the first `undiagnosed`
    fresh nodes have no findings yet (everyone else's were computed, as in production)."""
    from sqlalchemy import text

    from bwdoctor.config import Settings
    from bwdoctor.database import make_engine, make_sessionmaker, utcnow
    from bwdoctor.nodes.service import diagnose_report, ingest_report

    db = make_engine(url, Settings(_env_file=None, database_url=url))
    now = utcnow()
    try:
        with make_sessionmaker(db)() as db_session:
            for n in range(nodes):
                facts = report_facts(n, n, CLUSTER)
                facts["node.rack"] = f"rack-{n // 40:02d}"
                is_stale = n >= nodes - stale
                collected = now - timedelta(hours=2) if is_stale else now - timedelta(seconds=n % 60)
                result = ingest_report(facts["node.id"], facts, db_session=db_session, collected_at=collected)
                if is_stale or n >= undiagnosed:
                    diagnose_report(result.report_pk, db_session=db_session, engine=engine)
        # Fresh statistics, as a long-lived database has, and no autovacuum in the middle of the timing.
        with db.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text("VACUUM ANALYZE nodes, reports"))
    finally:
        db.dispose()


def time_in_process(url: str, runs: int, engine: Engine) -> list[float]:
    from bwdoctor.clusters.service import diagnose_cluster
    from bwdoctor.config import Settings
    from bwdoctor.database import make_engine, make_sessionmaker

    db = make_engine(url, Settings(_env_file=None, database_url=url))
    timings = []
    try:
        for _ in range(runs + 2):
            with make_sessionmaker(db)() as db_session:
                start = time.perf_counter()
                diagnose_cluster(CLUSTER, db_session=db_session, engine=engine, stale_after_s=900)
                timings.append(time.perf_counter() - start)
    finally:
        db.dispose()
    return timings[2:]  # the first runs warm the pool and the statement caches


def profile_in_process(url: str, engine: Engine, runs: int = 10, top: int = 35) -> None:
    from bwdoctor.clusters.service import diagnose_cluster
    from bwdoctor.config import Settings
    from bwdoctor.database import make_engine, make_sessionmaker

    db = make_engine(url, Settings(_env_file=None, database_url=url))
    try:
        with make_sessionmaker(db)() as db_session:
            diagnose_cluster(CLUSTER, db_session=db_session, engine=engine, stale_after_s=900)
        profiler = cProfile.Profile()
        for _ in range(runs):
            with make_sessionmaker(db)() as db_session:
                profiler.enable()
                diagnose_cluster(CLUSTER, db_session=db_session, engine=engine, stale_after_s=900)
                profiler.disable()
    finally:
        db.dispose()
    stats = pstats.Stats(profiler)
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)


def time_http(url: str, runs: int, dump: str | None, *, gc_freeze: bool = False) -> tuple[list[float], dict[str, Any]]:
    import httpx

    from tests.helpers import free_port

    env = {
        "BWDOCTOR_DATABASE_URL": url,
        "BWDOCTOR_MIGRATE_ON_START": "false",
        "BWDOCTOR_DIAGNOSE_REPORTS": "false",  # findings are seeded; nothing else runs in the server
    }
    timings = []
    target = "benchmarks.cluster_bench:gc_frozen_create_app" if gc_freeze else "bwdoctor.main:create_app"
    with uvicorn_process(target, free_port(), 1, env) as base, httpx.Client(timeout=60) as client:
        for i in range(runs + 3):
            start = time.perf_counter()
            r = client.get(f"{base}/api/v1/clusters/{CLUSTER}/diagnosis")
            elapsed = time.perf_counter() - start
            r.raise_for_status()
            if i >= 3:  # warm-up: connection, caches, and the undiagnosed nodes' first diagnosis
                timings.append(elapsed)
        body = r.json()
        size = len(r.content)
    if dump:
        for stale in body["stale_nodes"]:  # depends on the clock, not on the code
            stale["age_s"] = None
        Path(dump).write_text(json.dumps(body, indent=1, sort_keys=True))
    body["_bytes"] = size
    return timings, body


def ms(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    return (
        f"median {statistics.median(values) * 1000:6.1f} ms, p90 {p90 * 1000:6.1f} ms, "
        f"max {ordered[-1] * 1000:6.1f} ms (min {ordered[0] * 1000:.1f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--stale", type=int, default=0, help="nodes whose report is two hours old")
    parser.add_argument("--undiagnosed", type=int, default=0, help="fresh nodes seeded without findings")
    parser.add_argument("--profile", action="store_true", help="cProfile the in-process path instead of timing")
    parser.add_argument("--no-http", action="store_true", help="skip the HTTP timing")
    parser.add_argument("--dump", help="write the (normalised) HTTP response body here")
    parser.add_argument("--gc-freeze", action="store_true", help="gc.freeze() after start-up, in both timings")
    args = parser.parse_args()

    os.environ.setdefault("BWDOCTOR_TEST_DATABASE_URL", DEFAULT_PG)
    from bwdoctor.engine import load_engine
    from bwdoctor.migrations import upgrade_database

    engine = load_engine([])
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    with postgres_url() as url:
        upgrade_database(url)
        start = time.perf_counter()
        seed(url, args.nodes, stale=args.stale, undiagnosed=args.undiagnosed, engine=engine)
        print(f"seeded {args.nodes} nodes in {time.perf_counter() - start:.1f} s")
        if args.profile:
            profile_in_process(url, engine)
            return
        if args.gc_freeze:
            import gc

            gc.collect()
            gc.freeze()
        direct = time_in_process(url, args.runs, engine)
        if not args.no_http:
            over_http, body = time_http(url, args.runs, args.dump, gc_freeze=args.gc_freeze)
    print(f"\ncluster {CLUSTER!r}: {args.nodes} nodes, {args.runs} runs each")
    print(f"  diagnose_cluster() in-process:      {ms(direct)}")
    if not args.no_http:
        print(f"  GET /api/v1/clusters/{CLUSTER}/diagnosis: {ms(over_http)}")
        print(
            f"  response: {body['_bytes']} bytes, {body['nodes_fresh']}/{body['nodes_total']} fresh, "
            f"stragglers {body['stragglers']}, {len(body['findings'])} findings"
        )


if __name__ == "__main__":
    main()
