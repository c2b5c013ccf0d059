"""Optional read protection (issue 14, defect 10): with BWDOCTOR_READ_TOKEN set, pages, API reads, the
chat and /metrics need it (Bearer, cookie, or ?token= once); probes and Slack keep their own
authentication; a trusted auth-proxy header lets a proxy-authenticated user through."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from bwdoctor.main import create_app
from tests.helpers import assert_error_shape

READ = "read-secret-123"
PROTECTED = ["/api/v1/nodes", "/api/v1/nodes/n1", "/metrics", "/clusters", "/", "/openapi.json"]


@pytest.fixture
def protected(settings_factory, engine):
    app = create_app(settings_factory(read_token=READ, trusted_auth_header="X-Forwarded-User"), engine=engine)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def test_reads_need_the_read_token(protected, auth):
    assert (
        protected.put("/api/v1/nodes/n1/facts", json={"facts": {"nic.speed_gbps": 100}}, headers=auth).status_code
        == 201
    )
    for path in PROTECTED:
        assert_error_shape(protected.get(path), 401, "read_token_required")
        assert protected.get(path, headers={"Authorization": f"Bearer {READ}"}).status_code == 200, path
    assert_error_shape(protected.post("/api/v1/ask", json={"question": "8 nodes"}), 401)
    assert protected.get("/api/v1/nodes", headers={"Authorization": "Bearer wrong"}).status_code == 401


def test_a_token_in_the_query_sets_a_cookie_for_the_browser(protected):
    first = protected.get(f"/clusters?token={READ}")
    assert first.status_code == 200 and "bwdoctor_read" in first.headers.get("set-cookie", "")
    assert protected.get("/api/v1/nodes").status_code == 200  # the client kept the cookie


def test_health_slack_and_probe_routes_keep_their_own_auth(protected):
    assert protected.get("/healthz").status_code == 200
    assert protected.post("/slack/commands", content=b"text=hi").status_code in (401, 503)  # Slack's signature
    refused = protected.put("/api/v1/nodes/n1/facts", json={"facts": {}})
    assert_error_shape(refused, 401, "token_required")  # the probe token, not the read token


def test_a_trusted_proxy_header_lets_the_user_through(protected):
    assert protected.get("/api/v1/nodes", headers={"X-Forwarded-User": "alice"}).status_code == 200
    assert protected.get("/api/v1/nodes", headers={"X-Forwarded-User": " "}).status_code == 401


def test_without_the_setting_reads_stay_open(client):
    assert client.get("/api/v1/nodes").status_code == 200 and client.get("/metrics").status_code == 200
