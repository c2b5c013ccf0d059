"""GET /api/v1/clusters/{name}/diagnosis: cluster facts over the latest reports, node by node."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from bwdoctor.clusters import service as cluster_service
from bwdoctor.clusters import views as cluster_views
from bwdoctor.clusters.schemas import ClusterDiagnosis, cluster_diagnosis_json
from bwdoctor.main import create_app
from tests.helpers import assert_error_shape


def healthy(zone: str = "z-a", **overrides: object) -> dict[str, object]:
    facts: dict[str, object] = {
        "node.cluster": "gpu-a",
        "node.zone": zone,
        "node.region": "r-1",
        "nic.speed_gbps": 100,
        "nic.kind": "roce",
        "nic.rdma": True,
        "net.iperf3_gbps": 94,
        "gpu.util_pct": 93,
        "cpu.util_pct": 30,
        "job.model_params_b": 13,
        "job.precision": "bf16",
    }
    facts.update(overrides)
    return facts


def report(client, auth, node_id, facts, collected_at=None):
    body = {"facts": facts}
    if collected_at:
        body["collected_at"] = collected_at
    r = client.put(f"/api/v1/nodes/{node_id}/facts", json=body, headers=auth)
    assert r.status_code == 201, r.text


def diagnosis(client, name="gpu-a"):
    r = client.get(f"/api/v1/clusters/{name}/diagnosis")
    assert r.status_code == 200, r.text
    return r.json()


def categories(result):
    return {f["category"] for f in result["findings"]}


def test_two_zones_are_named_node_by_node(client, auth):
    for i in range(4):
        report(client, auth, f"n{i}", healthy("z-a" if i < 2 else "z-b"))
    result = diagnosis(client)
    assert result["facts"]["cluster.zones"] == 2
    assert result["zones"] == {"z-a": ["n0", "n1"], "z-b": ["n2", "n3"]}
    assert "latency-bound" in categories(result)
    assert {n["node_id"]: n["zone"] for n in result["nodes"]} == {"n0": "z-a", "n1": "z-a", "n2": "z-b", "n3": "z-b"}


def test_one_degraded_link_is_the_straggler(client, auth):
    for i in range(5):
        report(client, auth, f"n{i}", healthy(**({"net.iperf3_gbps": 21} if i == 3 else {})))
    result = diagnosis(client)
    assert result["stragglers"] == ["n3"]
    assert result["facts"]["cluster.stragglers"] == ["n3"]
    assert "straggler-node" in categories(result) and "link-degraded" in categories(result)
    by_node = {n["node_id"]: n for n in result["nodes"]}
    assert [o["fact"] for o in by_node["n3"]["outliers"]] == ["net.iperf3_gbps"]
    assert by_node["n0"]["outliers"] == []
    assert "link-degraded" in {f["category"] for f in by_node["n3"]["findings"]}
    assert result["limiting"]["net.iperf3_gbps"] == {"value": 21, "nodes": ["n3"]}


def test_one_slow_nic_is_named(client, auth):
    for i in range(4):
        report(client, auth, f"n{i}", healthy(**({"nic.speed_gbps": 10, "net.iperf3_gbps": 9.4} if i == 1 else {})))
    result = diagnosis(client)
    assert result["facts"]["cluster.nic_speed_min_gbps"] == 10
    assert "n1" in result["stragglers"]
    assert result["limiting"]["nic.speed_gbps"] == {"value": 10, "nodes": ["n1"]}
    assert {"straggler-node", "nic-undersized"} <= categories(result)
    by_node = {n["node_id"]: n for n in result["nodes"]}
    assert "nic.speed_gbps" in [o["fact"] for o in by_node["n1"]["outliers"]]


def test_stale_nodes_are_reported_not_used(client, auth):
    old = (datetime.now(UTC) - timedelta(hours=2)).isoformat()
    report(client, auth, "n0", healthy())
    report(client, auth, "n1", healthy())
    report(client, auth, "dead", healthy("z-b", **{"nic.speed_gbps": 1}), collected_at=old)
    result = diagnosis(client)
    assert result["nodes_total"] == 3 and result["nodes_fresh"] == 2
    assert [s["node_id"] for s in result["stale_nodes"]] == ["dead"]
    assert result["stale_nodes"][0]["age_s"] > 7000
    assert result["facts"]["cluster.nodes"] == 2
    assert result["facts"]["cluster.zones"] == 1  # the stale node's zone does not count
    assert result["facts"]["cluster.nic_speed_min_gbps"] == 100
    assert {n["node_id"]: n["stale"] for n in result["nodes"]}["dead"] is True
    assert client.get("/api/v1/nodes/dead").json()["stale"] is True


def test_unknown_cluster_and_bad_name(client):
    assert_error_shape(client.get("/api/v1/clusters/nope/diagnosis"), 404, "cluster_not_found")
    assert_error_shape(client.get("/api/v1/clusters/bad name/diagnosis"), 422)
    assert_error_shape(client.get("/api/v1/clusters/x/diagnosis?lang=fr"), 422)


def test_chinese_explanations(client, auth):
    for i in range(2):
        report(client, auth, f"n{i}", healthy("z-a" if i == 0 else "z-b"))
    result = client.get("/api/v1/clusters/gpu-a/diagnosis?lang=zh").json()
    assert any("可用区" in f["title"] for f in result["findings"])


def test_each_nodes_findings_follow_the_language_too(client, auth):
    for i in range(3):
        report(client, auth, f"n{i}", healthy(**({"net.iperf3_gbps": 20} if i == 2 else {})))
    en = {n["node_id"]: n for n in diagnosis(client)["nodes"]}
    zh = {n["node_id"]: n for n in client.get("/api/v1/clusters/gpu-a/diagnosis?lang=zh").json()["nodes"]}
    assert en["n2"]["findings"], "the degraded node has findings of its own"
    assert [f["rule"] for f in zh["n2"]["findings"]] == [f["rule"] for f in en["n2"]["findings"]]
    assert all(_has_chinese(f["title"]) for f in zh["n2"]["findings"])
    en_again = {n["node_id"]: n for n in diagnosis(client)["nodes"]}
    assert not any(_has_chinese(f["title"]) for f in en_again["n2"]["findings"])  # nothing stored changed


def _has_chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


# ---- the route writes its JSON itself (orjson); it must be what the response model would write ----


@pytest.fixture
def quiet_client(settings_factory, engine):
    """A service without the background diagnoser, so reports stay undiagnosed until read."""
    app = create_app(settings_factory(diagnose_reports=False), engine=engine)
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def test_response_is_the_response_model_byte_for_byte(quiet_client, auth, monkeypatch):
    served = []

    def recording(result):
        body = cluster_diagnosis_json(result)
        served.append((result, body))
        return body

    monkeypatch.setattr(cluster_views, "cluster_diagnosis_json", recording)
    monkeypatch.setattr(cluster_service, "MAX_NODE_DIAGNOSES_PER_REQUEST", 2)
    old = (datetime.now(UTC) - timedelta(hours=2)).isoformat()
    for i in range(6):
        slow = {"net.iperf3_gbps": 21.5} if i == 0 else {"nic.speed_gbps": 10} if i == 1 else {}
        report(quiet_client, auth, f"n{i}", healthy("z-a" if i % 2 else "z-b", **slow))
    report(quiet_client, auth, "dead", healthy("z-b", **{"nic.speed_gbps": 1}), collected_at=old)

    r = quiet_client.get("/api/v1/clusters/gpu-a/diagnosis")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/json"
    model = ClusterDiagnosis.model_validate_json(r.content)  # the schema the OpenAPI document promises
    [(result, body)] = served
    assert r.content == body == ClusterDiagnosis.model_validate(result).model_dump_json().encode()
    assert model.model_dump(mode="json") == r.json()
    # every part of the shape is exercised: stale node, outliers, per-node findings, pending findings
    data = r.json()
    assert [s["node_id"] for s in data["stale_nodes"]] == ["dead"]
    assert data["stale_nodes"][0]["collected_at"].endswith("Z") and data["stale_nodes"][0]["age_s"] > 7000
    by_node = {n["node_id"]: n for n in data["nodes"]}
    assert by_node["n0"]["outliers"][0] == {
        "fact": "net.iperf3_gbps",
        "value": 21.5,
        "median": 94.0,
        "direction": "low",
        "score": None,
    }
    assert [n["findings_pending"] for n in data["nodes"]].count(True) == 4  # 6 fresh, 2 diagnosed now
    assert {f["category"] for f in by_node["n0"]["findings"]} >= {"link-degraded"}  # diagnosed on the spot
    assert data["limiting"]["nic.speed_gbps"] == {"value": 10, "nodes": ["n1"]}

    # the next read finds them diagnosed (two more per request)
    assert [n["findings_pending"] for n in quiet_client.get(r.url).json()["nodes"]].count(True) == 2


def test_anything_orjson_cannot_write_goes_the_pydantic_way():
    base = {
        "cluster": "c",
        "nodes_total": 0,
        "nodes_fresh": 0,
        "stale_nodes": [],
        "stragglers": [],
        "zones": {},
        "regions": {},
        "limiting": {},
        "derived": {},
        "findings": [],
        "missing": [],
        "nodes": [],
    }
    for facts in ({"x.big": 2**70}, {"x.set": {3}}, {"x.when": datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=UTC)}):
        result = {**base, "facts": facts, "ignored": object()}
        expected = ClusterDiagnosis.model_validate(result).model_dump_json().encode()
        assert cluster_diagnosis_json(result) == expected  # status defaults to null, extra keys dropped


@pytest.mark.parametrize(
    "text",
    [
        '{"gpu.util_pct": 93.5, "nic.rdma": true, "x": null, "l": [1, "a", {"b": -0.0}]}',
        '{"a": 123456789012345678901234567890}',  # past 64 bits: orjson would give a float
        '{"a": -18446744073709551617, "b": 18446744073709551615}',
        '{"a": 1e400}',
        '{"s": "\\ud800"}',  # a lone surrogate: orjson refuses it
        '{"id": "node-000000000000000000000001"}',
        '{"s": "\ud800"}',  # the character itself, not its escape
        "[]",
        "null",
    ],
)
def test_json_columns_parse_exactly_as_json_loads(text):
    value, expected = cluster_service._loads(text), json.loads(text)
    assert repr(value) == repr(expected)
    assert cluster_service._loads(None) is None
