"""Reliability over real HTTP: many probes at once, retries, and the database going away."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid

import httpx
import pytest
from sqlalchemy import create_engine, func, select

from bwdoctor.config import Settings
from bwdoctor.main import create_app
from bwdoctor.nodes.models import Report
from tests import pg_tmp, prereqs
from tests.helpers import live_server
from tests.prereqs import needs


async def _probe(client: httpx.AsyncClient, base: str, auth: dict, node: str, reports: int) -> list[int]:
    statuses = []
    for i in range(reports):
        body = {"facts": {"node.cluster": "load", "nic.speed_gbps": 100, "gpu.util_pct": 90}, "report_id": f"r{i}"}
        url = f"{base}/api/v1/nodes/{node}/facts"
        # The same report twice at once: a retry racing the original.
        first, second = await asyncio.gather(
            client.put(url, json=body, headers=auth), client.put(url, json=body, headers=auth)
        )
        statuses += [first.status_code, second.status_code]
    return statuses


def test_many_probes_at_once_lose_and_duplicate_nothing(app, auth, database_url):
    probes, reports = 20, 10

    async def main(base: str) -> list[list[int]]:
        async with httpx.AsyncClient(timeout=30, limits=httpx.Limits(max_connections=100)) as client:
            return await asyncio.gather(*(_probe(client, base, auth, f"p{n}", reports) for n in range(probes)))

    with live_server(app) as base:
        results = asyncio.run(main(base))
        statuses = [s for probe in results for s in probe]
        assert statuses.count(201) == probes * reports, statuses
        assert statuses.count(200) == probes * reports
        db = create_engine(database_url)
        with db.connect() as conn:
            assert conn.scalar(select(func.count()).select_from(Report)) == probes * reports
            per_node = conn.execute(select(Report.node_id, func.count()).group_by(Report.node_id)).all()
        db.dispose()
        assert {count for _, count in per_node} == {reports} and len(per_node) == probes
        cluster = httpx.get(f"{base}/api/v1/clusters/load/diagnosis", timeout=30).json()
        assert cluster["nodes_fresh"] == probes


@pytest.mark.postgres
@needs(prereqs.POSTGRES_SERVER, prereqs.ROOT, why="a throw-away server run as postgres through runuser")
def test_database_outage_gives_503_and_recovers_without_losing_acknowledged_reports(engine):
    with pg_tmp.temp_postgres() as pg:
        settings = Settings(_env_file=None, database_url=pg.url, retry_after_s=1, db_connect_timeout_s=2)
        app = create_app(settings, engine=engine)
        with live_server(app) as base:
            # The token lives in the fixture database; make one here.
            from bwdoctor.database import session_scope
            from bwdoctor.tokens.service import create_token

            with session_scope(settings) as db_session:
                probe_token = create_token("outage", db_session=db_session)
            auth = {"Authorization": f"Bearer {probe_token}"}
            acknowledged: set[str] = set()
            seen_503: list[httpx.Response] = []
            stop = threading.Event()

            def probe() -> None:
                with httpx.Client(timeout=10) as client:
                    while not stop.is_set():
                        report_id = uuid.uuid4().hex
                        while not stop.is_set():  # retry the same report until it is acknowledged
                            try:
                                r = client.put(
                                    f"{base}/api/v1/nodes/n1/facts",
                                    json={"facts": {"nic.speed_gbps": 100}, "report_id": report_id},
                                    headers=auth,
                                )
                            except httpx.HTTPError:
                                time.sleep(0.1)
                                continue
                            if r.status_code in (200, 201):
                                acknowledged.add(report_id)
                                break
                            assert r.status_code == 503, r.text
                            seen_503.append(r)
                            time.sleep(0.2)
                        time.sleep(0.02)

            worker = threading.Thread(target=probe)
            worker.start()
            try:
                time.sleep(1.0)
                before_outage = len(acknowledged)
                assert before_outage > 0
                pg.stop("fast")
                time.sleep(2.0)
                r = httpx.put(
                    f"{base}/api/v1/nodes/n1/facts", json={"facts": {"nic.speed_gbps": 1}}, headers=auth, timeout=10
                )
                assert r.status_code == 503 and r.headers["Retry-After"] == "1"
                assert r.json()["error"]["code"] == "database_unavailable"
                assert httpx.get(f"{base}/readyz").status_code == 503
                assert httpx.get(f"{base}/healthz").status_code == 200
                assert httpx.get(f"{base}/api/v1/nodes/n1").status_code == 503
                pg.start()
                deadline = time.monotonic() + 20
                recovered = len(acknowledged)
                while len(acknowledged) <= recovered + 5 and time.monotonic() < deadline:
                    time.sleep(0.2)
                assert len(acknowledged) > recovered + 5, "the service did not recover by itself"
                assert httpx.get(f"{base}/readyz").status_code == 200
            finally:
                stop.set()
                worker.join(timeout=30)
            assert seen_503, "the probe never saw the outage"
            stored = httpx.get(f"{base}/api/v1/nodes/n1?history=1000").json()["history"]
            assert {h["report_id"] for h in stored} >= acknowledged
            assert len(stored) == len({h["report_id"] for h in stored})
