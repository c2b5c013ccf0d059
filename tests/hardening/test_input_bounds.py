"""Bounded input (issue 14, defects 2, 3 and 6): numbers out of range, lone surrogates, deep JSON and
hostile Slack headers are refused with a 4xx naming what was wrong, before anything is stored or
computed, and nothing that was accepted can break a read afterwards. On SQLite and PostgreSQL."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from bwdoctor.facts import MAX_INT
from tests.helpers import assert_error_shape
from tests.slack.conftest import SIGNING_SECRET, sign

JSON = {"content-type": "application/json"}
HUGE_INT = "1" + "0" * 309  # 310 digits: parses, but fits no 64-bit column and no float


def put(client: TestClient, auth: dict[str, str], node: str, raw_facts: str) -> object:
    body = '{"facts": {"node.cluster": "c1", ' + raw_facts + "}}"
    return client.put(f"/api/v1/nodes/{node}/facts", content=body, headers={**auth, **JSON})


def assert_reads_work(client: TestClient, node: str = "n1", cluster: str = "c1") -> None:
    for path in (
        f"/api/v1/nodes/{node}",
        f"/nodes/{node}",
        f"/clusters/{cluster}",
        f"/api/v1/clusters/{cluster}/diagnosis",
    ):
        assert client.get(path).status_code == 200, path
    response = client.post("/api/v1/preflight", json={"cluster": cluster, "job": {"job.nodes": 2}})
    assert response.status_code == 200, response.text


def test_a_huge_float_for_a_known_fact_is_a_422_naming_it_and_reads_stay_up(client, auth):
    assert put(client, auth, "n1", '"job.nodes": 2').status_code == 201
    response = put(
        client,
        auth,
        "n1",
        '"job.model_params_b": 1e308, "job.precision": "bf16", "job.nodes": 2, "nic.speed_gbps": 100',
    )
    error = assert_error_shape(response, 422, "invalid_fact")
    assert error["details"]["key"] == "job.model_params_b"
    assert_reads_work(client)


@pytest.mark.parametrize("value", [HUGE_INT, str(2**64), str(MAX_INT + 1), str(-(2**63) - 1)])
def test_integers_beyond_64_bits_are_refused_even_for_unknown_facts(client, auth, value):
    response = put(client, auth, "n1", f'"foo.bar": {value}')
    error = assert_error_shape(response, 422, "invalid_fact")
    assert error["details"]["key"] == "foo.bar"
    assert client.get("/api/v1/nodes/n1").status_code == 404  # nothing stored


def test_the_largest_64_bit_integer_is_stored_and_read_back(client, auth):
    assert put(client, auth, "n1", f'"foo.bar": {MAX_INT}, "foo.small": -1e18').status_code == 201
    node = client.get("/api/v1/nodes/n1").json()
    assert node["latest"]["facts"]["foo.bar"] == MAX_INT
    assert_reads_work(client)


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/api/v1/diagnose", f'{{"facts": {{"job.nodes": {HUGE_INT}}}}}'),
        ("POST", "/api/v1/preflight", f'{{"job": {{"job.nodes": {HUGE_INT}}}}}'),
        ("POST", "/api/v1/diagnose", '{"facts": {"x.s": "\\ud800"}}'),
        ("POST", "/api/v1/preflight", '{"job": {"x.s": "\\udfff tail"}}'),
        ("POST", "/api/v1/diagnose", '{"facts": {"\\ud800": 1}}'),
        ("PUT", "/api/v1/nodes/n1/facts", '{"facts": {"x.s": "\\ud800"}}'),
    ],
)
def test_json_routes_answer_422_for_huge_integers_and_lone_surrogates(client, auth, method, path, body):
    response = client.request(method, path, content=body, headers={**auth, **JSON})
    assert response.status_code == 422, response.text
    assert_error_shape(response, 422)


@pytest.mark.parametrize("path", ["/api/v1/diagnose", "/api/v1/preflight", "/api/v1/ask", "/api/v1/nodes/n1/facts"])
def test_json_nested_deeper_than_the_limit_is_a_400_before_parsing(client, auth, path):
    body = '{"facts": ' + "[" * 100_000 + "]" * 100_000 + "}"
    method = "PUT" if path.endswith("/facts") else "POST"
    response = client.request(method, path, content=body, headers={**auth, **JSON})
    assert_error_shape(response, 400, "json_too_deep")


def test_json_within_the_depth_limit_is_still_parsed(client):
    # Brackets inside strings do not count: only the document's own nesting does.
    response = client.post("/api/v1/diagnose", json={"facts": {"note.text": "[{" * 2000}}, headers=JSON)
    assert response.status_code == 200, response.text


@pytest.fixture
def slack_client(settings_factory, engine):
    from bwdoctor.main import create_app

    app = create_app(settings_factory(slack_signing_secret=SIGNING_SECRET), engine=engine)
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.mark.parametrize("path", ["/slack/commands", "/slack/events"])
def test_an_oversized_slack_timestamp_is_refused_before_any_arithmetic(slack_client, path):
    headers = {"X-Slack-Request-Timestamp": "9" * 400, "X-Slack-Signature": "v0=" + "0" * 64}
    response = slack_client.post(path, content=b"text=hi", headers=headers)
    assert_error_shape(response, 401, "invalid_signature")


def test_a_correctly_signed_deep_slack_event_is_a_400(slack_client):
    body = ('{"type": "event_callback", "event": ' + "[" * 100_000 + "]" * 100_000 + "}").encode()
    response = slack_client.post("/slack/events", content=body, headers={**sign(body), **JSON})
    assert response.status_code == 400, response.text
    # ... and one just under Python's recursion limit but past ours, parsed by json.loads, too.
    body = json.dumps({"type": "event_callback", "event": {"x": json.loads("[" * 900 + "]" * 900)}}).encode()
    response = slack_client.post("/slack/events", content=body, headers={**sign(body), **JSON})
    assert response.status_code == 400, response.text
