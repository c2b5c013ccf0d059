#!/usr/bin/env python3
"""Load benchmark of the service: many simulated probes PUTting reports at once.

Starts PostgreSQL (a fresh schema on BWDOCTOR_TEST_DATABASE_URL, or a throw-away server),
the service (uvicorn, N workers) and, for comparison, a bare FastAPI endpoint that does
nothing, under the same uvicorn settings. A separate driver process opens `--probes` keep-alive
connections and sends reports as fast as answers come back, each connection speaking for many
of `--nodes` nodes in turn (the target: 10,000 nodes reporting every 10 s, 1,000 reports/s),
so the background diagnoser sees a fleet's worth of distinct nodes. It prints reports/s and
p50/p99 latency for both servers, and the ratio. Then it seeds a 1,000-node cluster and times
the cluster diagnosis.

    .venv/bin/python benchmarks/service_load.py [--probes 64] [--reports 200] [--nodes 10000] [--workers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from fastapi import FastAPI  # noqa: E402

# The baseline: the same route shape, doing nothing.
bare_app = FastAPI()


@bare_app.put("/api/v1/nodes/{node_id}/facts")
async def _bare_put(node_id: str) -> dict[str, str]:
    return {"node_id": node_id}


@bare_app.get("/healthz")
async def _bare_health() -> dict[str, str]:
    return {"status": "ok"}


def report_facts(node: int, i: int, cluster: str = "load") -> dict[str, Any]:
    """A realistic probe report (about 20 facts)."""
    return {
        "node.id": f"{cluster}-{node:05d}",
        "node.cluster": cluster,
        "node.zone": f"zone-{node % 2}" if cluster == "load" else "zone-a",
        "node.region": "region-1",
        "gpu.count": 8,
        "gpu.model": "H100",
        "gpu.util_pct": 90.0 + (i % 5),
        "gpu.util_min_pct": 85.0,
        "gpu.mem_used_pct": 70.0,
        "gpu.nvlink": True,
        "cpu.util_pct": 30.0,
        "cpu.iowait_pct": 1.0,
        "mem.used_pct": 40.0,
        "nic.name": "eth0",
        "nic.kind": "roce",
        "nic.speed_gbps": 10 if node == 7 else 100,
        "nic.rdma": True,
        "nic.rx_gbps": 40.0,
        "nic.tx_gbps": 41.0,
        "net.iperf3_gbps": 20.0 if node == 3 else 94.0,
        "net.rtt_ms": 0.05,
        "job.step_time_s": 1.0 + (i % 3) * 0.01,
    }


# --- the driver (runs in its own process) ----------------------------------------------------


async def _one_probe(
    host: str, port: int, token: str, nodes: list[int], reports: int, lat: list[float], cluster: str
) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    try:
        for i in range(reports):
            node = nodes[i % len(nodes)]
            body = json.dumps({"facts": report_facts(node, i, cluster), "report_id": uuid.uuid4().hex}).encode()
            head = (
                f"PUT /api/v1/nodes/{cluster}-{node:05d}/facts HTTP/1.1\r\nHost: {host}\r\n"
                f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n"
            ).encode()
            start = time.perf_counter()
            writer.write(head + body)
            header = await reader.readuntil(b"\r\n\r\n")
            status = int(header.split(b" ", 2)[1])
            length = 0
            for line in header.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            await reader.readexactly(length)
            lat.append(time.perf_counter() - start)
            if status not in (200, 201):
                raise RuntimeError(f"status {status}: {header[:200]!r}")
    finally:
        writer.close()


async def _drive(url: str, token: str, probes: int, reports: int, nodes: int, cluster: str) -> dict[str, float]:
    host, port = url.removeprefix("http://").split(":")
    latencies: list[float] = []
    nodes = max(nodes, probes)
    start = time.perf_counter()
    await asyncio.gather(
        *(
            _one_probe(host, int(port), token, list(range(n, nodes, probes)), reports, latencies, cluster)
            for n in range(probes)
        )
    )
    elapsed = time.perf_counter() - start
    latencies.sort()
    return {
        "requests": len(latencies),
        "per_s": len(latencies) / elapsed,
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": latencies[int(len(latencies) * 0.99) - 1] * 1000,
    }


def drive(url: str, token: str, probes: int, reports: int, nodes: int = 0, cluster: str = "load") -> dict[str, float]:
    """Run the driver in a separate process (so it does not share the service's CPU accounting)."""
    out = subprocess.run(
        [sys.executable, __file__, "--drive", url, token, str(probes), str(reports), str(nodes), cluster],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


# --- setup --------------------------------------------------------------------------------


@contextlib.contextmanager
def postgres_url() -> Iterator[str]:
    """A fresh schema on BWDOCTOR_TEST_DATABASE_URL, or else a throw-away PostgreSQL server."""
    from sqlalchemy import create_engine, text

    shared = os.environ.get("BWDOCTOR_TEST_DATABASE_URL") or os.environ.get("BWDOCTOR_BENCH_DATABASE_URL")
    if shared:
        schema = f"bwd_bench_{uuid.uuid4().hex[:8]}"
        admin = create_engine(shared, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        try:
            yield f"{shared}{'&' if '?' in shared else '?'}options=-csearch_path%3D{schema}"
        finally:
            with admin.connect() as conn:
                conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
            admin.dispose()
        return
    from tests.service.pg_tmp import temp_postgres

    with temp_postgres() as pg:
        yield pg.url


@contextlib.contextmanager
def uvicorn_process(target: str, port: int, workers: int, env: dict[str, str]) -> Iterator[str]:
    from tests.service.helpers import wait_healthy

    cmd = [sys.executable, "-m", "uvicorn", target, "--host", "127.0.0.1", "--port", str(port)]
    cmd += ["--workers", str(workers), "--log-level", "warning", "--no-access-log"]
    if target.endswith("create_app"):
        cmd.append("--factory")
    proc = subprocess.Popen(cmd, cwd=REPO, env={**os.environ, **env})
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, timeout_s=60, process=proc)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--probes", type=int, default=64, help="simulated probes (concurrent connections)")
    parser.add_argument("--reports", type=int, default=200, help="reports sent on each connection")
    parser.add_argument("--nodes", type=int, default=10_000, help="distinct nodes the connections speak for")
    parser.add_argument("--workers", type=int, default=2, help="uvicorn worker processes (both servers)")
    parser.add_argument("--cluster-nodes", type=int, default=1000)
    args = parser.parse_args()

    from service.config import Settings
    from service.database import session_scope
    from service.migrations import upgrade_database
    from service.tokens.service import create_token
    from tests.service.helpers import free_port

    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    with postgres_url() as url:
        upgrade_database(url)
        with session_scope(Settings(_env_file=None, database_url=url)) as db_session:
            token = create_token("bench", db_session=db_session)
        env = {"BWDOCTOR_DATABASE_URL": url, "BWDOCTOR_MIGRATE_ON_START": "false"}

        with uvicorn_process("benchmarks.service_load:bare_app", free_port(), args.workers, env) as base:
            drive(base, token, 8, 20)  # warm up
            bare = drive(base, token, args.probes, args.reports, args.nodes)
        with uvicorn_process("service.main:create_app", free_port(), args.workers, env) as base:
            import httpx

            # A 1,000-node cluster, one report per node; the background diagnoser catches up
            # before the cluster diagnosis is timed (its per-node findings are then at hand).
            drive(base, token, 50, args.cluster_nodes // 50, args.cluster_nodes, cluster="big")
            time.sleep(max(3.0, args.cluster_nodes / 300))
            timings = []
            for _ in range(20):
                start = time.perf_counter()
                r = httpx.get(f"{base}/api/v1/clusters/big/diagnosis", timeout=60)
                timings.append(time.perf_counter() - start)
                r.raise_for_status()
            result = r.json()

            drive(base, token, 8, 20)  # warm up
            service = drive(base, token, args.probes, args.reports, args.nodes)
            pending = sum(n["findings_pending"] for n in result["nodes"])

        # The same diagnosis in-process, without HTTP and JSON encoding.
        from service.clusters.service import diagnose_cluster
        from service.database import make_engine, make_sessionmaker
        from service.engine import load_engine

        engine = load_engine([])
        db = make_engine(url, Settings(_env_file=None, database_url=url))
        direct = []
        with make_sessionmaker(db)() as db_session:
            for _ in range(10):
                start = time.perf_counter()
                diagnose_cluster("big", db_session=db_session, engine=engine, stale_after_s=900)
                direct.append(time.perf_counter() - start)
        db.dispose()

    print(f"\nPUT /api/v1/nodes/{{id}}/facts: {args.probes} connections x {args.reports} reports for "
          f"{max(args.nodes, args.probes)} nodes, {args.workers} uvicorn workers, PostgreSQL")  # fmt: skip
    print(f"{'':22}{'reports/s':>12}{'p50 ms':>10}{'p99 ms':>10}")
    for name, figures in (("service", service), ("bare FastAPI (no-op)", bare)):
        print(f"{name:22}{figures['per_s']:12.0f}{figures['p50_ms']:10.1f}{figures['p99_ms']:10.1f}")
    print(f"{'service / bare':22}{service['per_s'] / bare['per_s']:12.2f}"
          f"{service['p50_ms'] / bare['p50_ms']:10.2f}{service['p99_ms'] / bare['p99_ms']:10.2f}")  # fmt: skip
    timings.sort()
    print(f"\ncluster diagnosis over {result['nodes_total']} nodes ({result['nodes_fresh']} fresh), "
          f"stragglers {result['stragglers']}, {len(result['findings'])} findings, "
          f"{pending} nodes' findings pending:")  # fmt: skip
    print(f"  GET /api/v1/clusters/big/diagnosis: median {statistics.median(timings) * 1000:.0f} ms, "
          f"max {timings[-1] * 1000:.0f} ms")  # fmt: skip
    print(f"  diagnose_cluster() in-process:     median {statistics.median(direct) * 1000:.0f} ms")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--drive":
        url, token, probes, reports, nodes, cluster = sys.argv[2:8]
        try:
            import uvloop  # the driver must not be the bottleneck

            run = uvloop.run
        except ImportError:
            run = asyncio.run
        print(json.dumps(run(_drive(url, token, int(probes), int(reports), int(nodes), cluster))))
    else:
        main()
