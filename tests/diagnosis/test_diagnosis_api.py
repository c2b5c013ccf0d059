"""POST /api/v1/diagnose and GET /api/v1/rules, and the error shape of everything around them."""

from __future__ import annotations

from tests.helpers import assert_error_shape

ARTICLE = {
    "job.model_params_b": 100,
    "job.precision": "fp16",
    "job.parallelism": "data",
    "job.nodes": 8,
    "nic.speed_gbps": 10,
    "gpu.util_pct": 40,
    "cpu.util_pct": 20,
}


def test_diagnose_has_the_interface_shape_and_the_article_numbers(client):
    r = client.post("/api/v1/diagnose", json={"facts": ARTICLE})
    assert r.status_code == 200, r.text
    body = r.json()
    assert {"facts", "derived", "findings", "missing"} <= set(body)
    assert body["derived"]["comm.grad_gbytes"] == 200
    assert abs(body["derived"]["comm.sync_time_naive_s"] - 160) < 0.01
    categories = [f["category"] for f in body["findings"]]
    assert {"nic-undersized", "comm-bound"} <= set(categories)
    finding = body["findings"][0]
    assert {"rule", "category", "severity", "confidence", "title", "explanation", "evidence"} <= set(finding)
    severities = [f["severity"] for f in body["findings"]]
    order = {"critical": 0, "warning": 1, "info": 2}
    assert severities == sorted(severities, key=order.__getitem__)


def test_diagnose_in_chinese(client):
    body = client.post("/api/v1/diagnose", json={"facts": ARTICLE, "lang": "zh"}).json()
    assert any(any("\u4e00" <= ch <= "\u9fff" for ch in f["title"]) for f in body["findings"])


def test_diagnose_rejects_bad_input_clearly(client):
    err = assert_error_shape(client.post("/api/v1/diagnose", json={"facts": {"job.precision": "fp7"}}), 422)
    assert err["details"]["key"] == "job.precision" and "fp16" in err["details"]["expected"]
    assert_error_shape(client.post("/api/v1/diagnose", json={"facts": ARTICLE, "lang": "fr"}), 422)
    assert_error_shape(client.post("/api/v1/diagnose", json={"fact": ARTICLE}), 422, "validation_error")
    assert_error_shape(
        client.post("/api/v1/diagnose", content=b"\xff\xfe", headers={"content-type": "application/json"}), 422
    )
    assert_error_shape(client.post("/api/v1/diagnose", content=b"facts=1"), 422)


def test_rules_are_listed(client, engine):
    body = client.get("/api/v1/rules").json()
    assert body["total"] == len(engine.rules) > 0
    rule = body["rules"][0]
    assert {"id", "category", "severity"} <= set(rule)


def test_openapi_is_served(client):
    spec = client.get("/openapi.json").json()
    for path in (
        "/api/v1/diagnose",
        "/api/v1/preflight",
        "/api/v1/nodes/{node_id}/facts",
        "/api/v1/rules",
        "/api/v1/nodes",
        "/api/v1/nodes/{node_id}",
        "/api/v1/clusters/{name}/diagnosis",
        "/healthz",
    ):
        assert path in spec["paths"], path
    assert client.get("/docs").status_code == 200


def test_unexpected_errors_are_json_500_without_traceback(settings, engine):
    from fastapi.testclient import TestClient

    from bwdoctor.main import create_app

    class Broken:
        rules: list = []

        def validate_facts(self, raw):
            return raw

        def diagnose(self, facts, lang="en"):
            raise RuntimeError("secret internal detail")

    app = create_app(settings, engine=Broken())
    with TestClient(app, raise_server_exceptions=False) as client:
        r = client.post("/api/v1/diagnose", json={"facts": {}})
    err = assert_error_shape(r, 500, "internal_error")
    assert "secret" not in r.text and "Traceback" not in r.text
    assert err["details"] is None
