"""Two service processes on one PostgreSQL: no state of their own, so either can serve any request."""

from __future__ import annotations

import httpx
import pytest

from bwdoctor.config import Settings
from bwdoctor.database import session_scope
from bwdoctor.tokens.service import create_token
from tests.db_fixtures import _clean
from tests.helpers import service_process

pytestmark = pytest.mark.postgres


def test_two_replicas_share_conversations_and_probe_reports(pg_schema_url):
    _clean(pg_schema_url)
    with session_scope(Settings(_env_file=None, database_url=pg_schema_url)) as db_session:
        token = create_token("replicas", db_session=db_session)
    auth = {"Authorization": f"Bearer {token}"}
    with service_process(pg_schema_url) as a, service_process(pg_schema_url) as b:
        replicas = [a, b]
        # One probe's reports alternate between replicas; each is also retried on the other one.
        for i in range(10):
            body = {
                "facts": {"node.cluster": "shared", "nic.speed_gbps": 100, "gpu.util_pct": 90},
                "report_id": f"r{i}",
            }
            first = httpx.put(f"{replicas[i % 2]}/api/v1/nodes/n1/facts", json=body, headers=auth)
            retry = httpx.put(f"{replicas[(i + 1) % 2]}/api/v1/nodes/n1/facts", json=body, headers=auth)
            assert (first.status_code, retry.status_code) == (201, 200)
        for base in replicas:
            history = httpx.get(f"{base}/api/v1/nodes/n1?history=100").json()["history"]
            assert sorted(h["report_id"] for h in history) == sorted(f"r{i}" for i in range(10))
        assert httpx.get(f"{a}/api/v1/clusters/shared/diagnosis").json()["nodes_fresh"] == 1

        # One conversation, turn by turn on alternating replicas.
        r = httpx.post(f"{a}/api/v1/ask", json={"question": "We train a 100B model in fp16 on 8 nodes."}, timeout=30)
        assert r.status_code == 200, r.text
        cid = r.json()["conversation_id"]
        r = httpx.post(f"{b}/api/v1/ask", json={"question": "Our NICs are 10GbE.", "conversation_id": cid}, timeout=30)
        assert r.status_code == 200, r.text
        assert r.json()["facts"]["job.model_params_b"] == 100 and r.json()["facts"]["nic.speed_gbps"] == 10
        turns = httpx.get(f"{a}/api/v1/conversations/{cid}").json()["turns"]
        assert [t["seq"] for t in turns] == [1, 2]
