#!/usr/bin/env python3
"""Load benchmark of the service: many simulated probes PUTting reports at once.

Starts PostgreSQL (a fresh schema on BWDOCTOR_TEST_DATABASE_URL, or a throw-away server),
the service (uvicorn, N workers) and, for comparison, a bare FastAPI endpoint that does
nothing, under the same uvicorn settings. A separate driver process opens `--probes` keep-alive
connections and sends reports as fast as answers come back, each connection speaking for many
of `--nodes` nodes in turn (the target: 10,000 nodes reporting every 10 s, 1,000 reports/s),
so the background diagnoser sees a fleet's worth of distinct nodes. It prints reports/s and
p50/p99 latency for both servers, and the ratio. A second, paced run offers the target load
(--rate reports/s from --paced-connections probes, each on its own timer, latency counted
from when a report was due) and says whether 1,000 reports/s with p99 < 100 ms is met.
It also seeds a 1,000-node cluster and times the cluster diagnosis.

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


def _request(host: str, token: str, node: int, i: int, cluster: str) -> bytes:
    body = json.dumps({"facts": report_facts(node, i, cluster), "report_id": uuid.uuid4().hex}).encode()
    head = (
        f"PUT /api/v1/nodes/{cluster}-{node:05d}/facts HTTP/1.1\r\nHost: {host}\r\n"
        f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    return head + body


async def _put(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes) -> None:
    writer.write(request)
    header = await reader.readuntil(b"\r\n\r\n")
    status = int(header.split(b" ", 2)[1])
    length = 0
    for line in header.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    await reader.readexactly(length)
    if status not in (200, 201):
        raise RuntimeError(f"status {status}: {header[:200]!r}")


async def _one_probe(
    host: str,
    port: int,
    requests: list[bytes],
    lat: list[float],
    pace: float,
    first_due: float,
) -> None:
    """Send prepared requests on one keep-alive connection: back to back (pace 0), or one every
    `pace` seconds with latency counted from when each was due, so a slow answer that delays
    the next report is charged to the server (no coordinated omission).

    The connection is opened at `first_due`, staggered across probes: opened all at once, one
    uvicorn worker's accept loop would take most of them and the workers would not share
    the load (a load balancer in front of replicas spreads requests evenly)."""
    clock = time.perf_counter  # not loop.time(): uvloop's clock counts whole milliseconds
    await asyncio.sleep(max(0.0, first_due - clock()))
    reader, writer = await asyncio.open_connection(host, port)
    due = first_due
    try:
        for request in requests:
            if pace:
                await asyncio.sleep(max(0.0, due - clock()))
            else:
                due = clock()
            await _put(reader, writer, request)
            lat.append(clock() - due)
            due += pace
    finally:
        writer.close()


async def _drive(
    url: str, token: str, probes: int, reports: int, nodes: int, cluster: str, rate: float
) -> dict[str, float]:
    host, port = url.removeprefix("http://").split(":")
    latencies: list[float] = []
    nodes = max(nodes, probes)
    pace = probes / rate if rate else 0.0
    # Requests are built before the clock starts: the fleet's probes run on machines of their own.
    planned = [
        [_request(host, token, mine[i % len(mine)], i, cluster) for i in range(reports)]
        for mine in (list(range(n, nodes, probes)) for n in range(probes))
    ]
    t0 = time.perf_counter() + 0.2  # probes' timers start staggered over one period (1 ms apart back to back)
    await asyncio.gather(
        *(
            _one_probe(host, int(port), requests, latencies, pace, t0 + (pace * n / probes if pace else n * 0.001))
            for n, requests in enumerate(planned)
        )
    )
    elapsed = time.perf_counter() - t0
    latencies.sort()
    return {
        "requests": len(latencies),
        "per_s": len(latencies) / elapsed,
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": latencies[int(len(latencies) * 0.99) - 1] * 1000,
    }


def drive(
    url: str, token: str, probes: int, reports: int, nodes: int = 0, cluster: str = "load", rate: float = 0
) -> dict[str, float]:
    """Run the driver in a separate process (so it does not share the service's CPU accounting);
    `rate` > 0 paces the connections to that many reports a second in all, else as fast as answered."""
    out = subprocess.run(
        [sys.executable, __file__, "--drive", url, token, str(probes), str(reports), str(nodes), cluster, str(rate)],
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
    from tests.pg_tmp import temp_postgres

    with temp_postgres() as pg:
        yield pg.url


@contextlib.contextmanager
def uvicorn_process(target: str, port: int, workers: int, env: dict[str, str]) -> Iterator[str]:
    from tests.helpers import wait_healthy

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
    parser.add_argument("--rate", type=float, default=1000.0, help="reports/s offered in the paced run")
    parser.add_argument("--paced-connections", type=int, default=200, help="connections in the paced run")
    parser.add_argument("--paced-seconds", type=float, default=15.0, help="length of the paced run")
    parser.add_argument("--workers", type=int, default=2, help="uvicorn worker processes (both servers)")
    parser.add_argument("--cluster-nodes", type=int, default=1000)
    args = parser.parse_args()

    from bwdoctor.config import Settings
    from bwdoctor.database import session_scope
    from bwdoctor.migrations import upgrade_database
    from bwdoctor.tokens.service import create_token
    from tests.helpers import free_port

    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    with postgres_url() as url:
        upgrade_database(url)
        with session_scope(Settings(_env_file=None, database_url=url)) as db_session:
            token = create_token("bench", db_session=db_session)
        env = {"BWDOCTOR_DATABASE_URL": url, "BWDOCTOR_MIGRATE_ON_START": "false"}

        def load(base: str) -> dict[str, dict[str, float]]:
            drive(base, token, 8, 20)  # warm up
            # First the fleet's own pace (the target): --paced-connections probes sending --rate
            # reports/s in all; then as fast as the server answers.
            per_connection = max(1, int(args.rate * args.paced_seconds / args.paced_connections))
            paced = drive(base, token, args.paced_connections, per_connection, args.nodes, rate=args.rate)
            saturated = drive(base, token, args.probes, args.reports, args.nodes)
            return {"saturated": saturated, "paced": paced}

        with uvicorn_process("benchmarks.service_load:bare_app", free_port(), args.workers, env) as base:
            bare = load(base)
        with uvicorn_process("bwdoctor.main:create_app", free_port(), args.workers, env) as base:
            import httpx

            # A 1,000-node cluster, one report per node; the background diagnoser catches up
            # before the cluster diagnosis is timed (its per-node findings are then at hand).
            drive(base, token, 50, args.cluster_nodes // 50, args.cluster_nodes, cluster="big")
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:  # reads diagnose up to 100 nodes each, as does the background
                nodes_of_big = httpx.get(f"{base}/api/v1/clusters/big/diagnosis", timeout=60).json()["nodes"]
                if not any(n["findings_pending"] for n in nodes_of_big):
                    break
                time.sleep(1)
            timings = []
            for _ in range(20):
                start = time.perf_counter()
                r = httpx.get(f"{base}/api/v1/clusters/big/diagnosis", timeout=60)
                timings.append(time.perf_counter() - start)
                r.raise_for_status()
            result = r.json()
            pending = sum(n["findings_pending"] for n in result["nodes"])
            service = load(base)

        # The same diagnosis in-process, without HTTP and JSON encoding.
        from bwdoctor.clusters.service import diagnose_cluster
        from bwdoctor.database import make_engine, make_sessionmaker
        from bwdoctor.engine import load_engine

        engine = load_engine([])
        db = make_engine(url, Settings(_env_file=None, database_url=url))
        direct = []
        with make_sessionmaker(db)() as db_session:
            for _ in range(10):
                start = time.perf_counter()
                diagnose_cluster("big", db_session=db_session, engine=engine, stale_after_s=900)
                direct.append(time.perf_counter() - start)
        db.dispose()

    nodes = max(args.nodes, args.probes)
    print(f"\nPUT /api/v1/nodes/{{id}}/facts for {nodes} nodes, {args.workers} uvicorn workers, PostgreSQL")
    print(f"{'':34}{'reports/s':>10}{'p50 ms':>9}{'p99 ms':>9}")
    modes = (
        ("saturated", f"{args.probes} connections, back to back"),
        ("paced", f"{args.paced_connections} connections, {args.rate:g}/s offered"),
    )
    for mode, how in modes:
        print(f"{how}:")
        for name, figures in (("  service", service[mode]), ("  bare FastAPI (no-op)", bare[mode])):
            print(f"{name:34}{figures['per_s']:10.0f}{figures['p50_ms']:9.1f}{figures['p99_ms']:9.1f}")
        ratio = [service[mode][k] / bare[mode][k] for k in ("per_s", "p50_ms", "p99_ms")]
        print(f"{'  service / bare':34}{ratio[0]:10.2f}{ratio[1]:9.2f}{ratio[2]:9.2f}")
    paced = service["paced"]
    met = paced["per_s"] >= 0.98 * args.rate and paced["p99_ms"] < 100
    print(f"target: {args.rate:g} reports/s sustained with p99 < 100 ms: {'met' if met else 'NOT met'} "
          f"({paced['per_s']:.0f}/s, p99 {paced['p99_ms']:.0f} ms); "
          f"most the service took back to back: {service['saturated']['per_s']:.0f}/s")  # fmt: skip
    timings.sort()
    print(f"\ncluster diagnosis over {result['nodes_total']} nodes ({result['nodes_fresh']} fresh), "
          f"stragglers {result['stragglers']}, {len(result['findings'])} findings, "
          f"{pending} nodes' findings pending:")  # fmt: skip
    print(f"  GET /api/v1/clusters/big/diagnosis: median {statistics.median(timings) * 1000:.0f} ms, "
          f"max {timings[-1] * 1000:.0f} ms")  # fmt: skip
    print(f"  diagnose_cluster() in-process:     median {statistics.median(direct) * 1000:.0f} ms")
    print(f"target: under 200 ms over HTTP: {'met' if timings[-1] < 0.2 else 'NOT met'} (slowest of {len(timings)})")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--drive":
        url, token, probes, reports, nodes, cluster, rate = sys.argv[2:9]
        try:
            import uvloop  # the driver must not be the bottleneck

            run = uvloop.run
        except ImportError:
            run = asyncio.run
        print(json.dumps(run(_drive(url, token, int(probes), int(reports), int(nodes), cluster, float(rate)))))
    else:
        main()
