"""PUT /api/v1/nodes/{id}/facts and GET /api/v1/nodes[/{id}]: storage, validation, idempotence, history."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.helpers import assert_error_shape


def put(client, auth, node_id="n1", **body):
    body.setdefault("facts", {"nic.speed_gbps": 100})
    return client.put(f"/api/v1/nodes/{node_id}/facts", json=body, headers=auth)


def test_report_is_stored_with_placement_and_findings(client, auth):
    facts = {
        "node.cluster": "gpu-a",
        "node.zone": "us-east-1a",
        "node.region": "us-east-1",
        "nic.speed_gbps": 100,
        "net.iperf3_gbps": 20,
        "job.nodes": 4,
    }
    r = put(client, auth, facts=facts, report_id="r-1")
    assert r.status_code == 201, r.text
    ack = r.json()
    assert ack["node_id"] == "n1" and ack["report_id"] == "r-1" and ack["duplicate"] is False
    node = client.get("/api/v1/nodes/n1").json()
    assert node["cluster"] == "gpu-a" and node["zone"] == "us-east-1a" and node["stale"] is False
    assert node["latest"]["facts"]["net.iperf3_gbps"] == 20
    categories = {f["category"] for f in node["latest"]["findings"]}
    assert "link-degraded" in categories
    listed = client.get("/api/v1/nodes", params={"cluster": "gpu-a"}).json()
    assert listed["total"] == 1 and listed["nodes"][0]["node_id"] == "n1"
    assert client.get("/api/v1/nodes", params={"cluster": "other"}).json()["total"] == 0


def test_retry_of_the_same_report_is_idempotent(client, auth):
    first = put(client, auth, report_id="abc", facts={"nic.speed_gbps": 100})
    again = put(client, auth, report_id="abc", facts={"nic.speed_gbps": 100})
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["duplicate"] is True
    assert again.json()["received_at"] == first.json()["received_at"]
    assert len(client.get("/api/v1/nodes/n1").json()["history"]) == 1


def test_history_is_kept_newest_first_and_latest_follows_collection_time(client, auth):
    now = datetime.now(UTC)
    for i, speed in enumerate([10, 25, 100]):
        at = (now - timedelta(minutes=10 - i)).isoformat()
        assert put(client, auth, report_id=f"r{i}", collected_at=at, facts={"nic.speed_gbps": speed}).status_code == 201
    # A spooled report collected earlier arrives last: history keeps it, latest does not move back.
    old = (now - timedelta(hours=1)).isoformat()
    assert put(client, auth, report_id="late", collected_at=old, facts={"nic.speed_gbps": 1}).status_code == 201
    node = client.get("/api/v1/nodes/n1").json()
    assert node["latest"]["report_id"] == "r2"
    assert [h["report_id"] for h in node["history"]] == ["r2", "r1", "r0", "late"]
    assert [h["report_id"] for h in client.get("/api/v1/nodes/n1?history=2").json()["history"]] == ["r2", "r1"]


def test_invalid_fact_names_key_value_and_expectation(client, auth):
    err = assert_error_shape(put(client, auth, facts={"nic.speed_gbps": "fast"}), 422, "invalid_fact")
    assert err["details"]["key"] == "nic.speed_gbps"
    assert "fast" in err["details"]["value"]
    assert err["details"]["expected"]
    err = assert_error_shape(put(client, auth, facts={"gpu.util_pct": 250}), 422, "invalid_fact")
    assert err["details"]["key"] == "gpu.util_pct"
    assert_error_shape(put(client, auth, facts={"x.nested": {"a": 1}}), 422, "invalid_fact")
    assert_error_shape(put(client, auth, facts={"note": "a\x00b"}), 422, "invalid_fact")
    assert_error_shape(put(client, auth, facts=[1, 2]), 422, "validation_error")


def test_non_finite_numbers_are_rejected(client, auth):
    body = '{"facts": {"net.rtt_ms": NaN}}'
    r = client.put("/api/v1/nodes/n1/facts", content=body, headers={**auth, "content-type": "application/json"})
    assert_error_shape(r, 422)
    body = '{"facts": {"custom.value": Infinity}}'
    r = client.put("/api/v1/nodes/n1/facts", content=body, headers={**auth, "content-type": "application/json"})
    assert_error_shape(r, 422)


def test_bad_ids_times_and_mismatches_are_422(client, auth):
    assert_error_shape(put(client, auth, node_id="bad%20id"), 422, "validation_error")
    assert_error_shape(put(client, auth, report_id="has space"), 422, "validation_error")
    future = (datetime.now(UTC) + timedelta(days=3)).isoformat()
    err = assert_error_shape(put(client, auth, collected_at=future), 422, "validation_error")
    assert "future" in err["message"]
    assert_error_shape(put(client, auth, collected_at="yesterday"), 422, "validation_error")
    assert_error_shape(put(client, auth, collected_at="0001-01-01T00:00:00+05:00"), 422, "validation_error")
    err = assert_error_shape(put(client, auth, facts={"node.id": "other"}), 422, "node_id_mismatch")
    assert err["details"]["key"] == "node.id"


def test_malformed_json_and_oversized_bodies(client, auth, app):
    r = client.put("/api/v1/nodes/n1/facts", content=b"{not json", headers={**auth, "content-type": "application/json"})
    assert_error_shape(r, 422)
    limit = app.state.settings.max_body_bytes
    big = {"facts": {"note": "x" * 1000}, "pad": "y" * limit}
    assert_error_shape(client.put("/api/v1/nodes/n1/facts", json=big, headers=auth), 413, "payload_too_large")

    def chunks():
        yield b'{"facts": {"note": "'
        for _ in range(limit // 10_000 + 2):
            yield b"z" * 10_000
        yield b'"}}'

    r = client.put("/api/v1/nodes/n1/facts", content=chunks(), headers={**auth, "content-type": "application/json"})
    assert_error_shape(r, 413, "payload_too_large")


def test_unknown_node_and_routes(client):
    assert_error_shape(client.get("/api/v1/nodes/ghost"), 404, "node_not_found")
    assert_error_shape(client.get("/api/v1/nowhere"), 404, "not_found")
    assert_error_shape(client.delete("/api/v1/nodes/ghost"), 405, "method_not_allowed")
    assert_error_shape(client.get("/api/v1/nodes?limit=0"), 422, "validation_error")


def _has_chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def test_findings_come_in_chinese_on_request_and_stay_stored_in_english(client, auth):
    now = datetime.now(UTC)
    for i, iperf in enumerate([30, 20]):  # a degraded link, in the latest report and in history
        at = (now - timedelta(minutes=2 - i)).isoformat()
        facts = {"nic.speed_gbps": 100, "net.iperf3_gbps": iperf, "job.nodes": 4}
        assert put(client, auth, report_id=f"r{i}", collected_at=at, facts=facts).status_code == 201
    client.get("/api/v1/nodes/n1")  # diagnoses the latest report if the background has not yet
    zh = client.get("/api/v1/nodes/n1", params={"lang": "zh"}).json()
    en = client.get("/api/v1/nodes/n1").json()
    zh_latest, en_latest = zh["latest"]["findings"], en["latest"]["findings"]
    assert [f["rule"] for f in zh_latest] == [f["rule"] for f in en_latest] and zh_latest
    assert all(_has_chinese(f["title"]) for f in zh_latest)
    assert not any(_has_chinese(f["title"]) for f in en_latest)  # a Chinese read changed nothing stored
    assert "20" in " ".join(f["title"] + f["explanation"] for f in zh_latest)  # with the node's own numbers
    for zh_report, en_report in zip(zh["history"], en["history"], strict=True):
        if en_report["findings"] is not None:
            assert [f["rule"] for f in zh_report["findings"]] == [f["rule"] for f in en_report["findings"]]
    err = assert_error_shape(client.get("/api/v1/nodes/n1", params={"lang": "fr"}), 422, "validation_error")
    assert "lang" in err["message"]
