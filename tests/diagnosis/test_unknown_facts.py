"""A typo in a fact name is not silently ignored: the API names the key and the closest known one
in `warnings`, and `strict` makes it a 422 for CI pre-flight."""

from __future__ import annotations

from bwdoctor.engine import load_engine
from bwdoctor.unknown_facts import closest_fact, unknown_fact_warnings

TYPO = {"job.nodez": 8, "job.model_params_b": 70, "nic.speed_gbps": 25}


def test_the_closest_known_name_is_suggested():
    catalogue = load_engine().catalogue
    assert closest_fact("job.nodez", catalogue) == "job.nodes"
    assert closest_fact("gpu.utilisation", catalogue) == "gpu.util_pct"
    assert closest_fact("zzz", catalogue) is None
    assert unknown_fact_warnings({"job.nodes": 8, "comm.fraction": 1}, catalogue) == []  # known, derived too
    (zh,) = unknown_fact_warnings({"job.nodez": 8}, catalogue, "zh")
    assert "job.nodez" in zh["message"] and "job.nodes" in zh["message"] and "未知" in zh["message"]


def test_diagnose_warns_about_an_unknown_fact_and_strict_refuses_it(client):
    body = client.post("/api/v1/diagnose", json={"facts": TYPO}).json()
    (warning,) = body["warnings"]
    assert warning["key"] == "job.nodez" and warning["closest"] == "job.nodes"
    assert "did you mean job.nodes" in warning["message"]
    assert body["findings"] is not None  # still answered

    clean = client.post("/api/v1/diagnose", json={"facts": {"job.nodes": 8}}).json()
    assert clean["warnings"] == []

    strict = client.post("/api/v1/diagnose", json={"facts": TYPO, "strict": True})
    assert strict.status_code == 422
    error = strict.json()["error"]
    assert error["code"] == "unknown_fact" and error["details"]["closest"] == "job.nodes"
    assert "job.nodez" in error["message"]


def test_preflight_warns_too_and_strict_refuses(client):
    body = client.post("/api/v1/preflight", json={"job": TYPO, "lang": "zh"}).json()
    assert [w["key"] for w in body["warnings"]] == ["job.nodez"] and "job.nodes" in body["warnings"][0]["message"]
    strict = client.post("/api/v1/preflight", json={"job": TYPO, "strict": True})
    assert strict.status_code == 422 and strict.json()["error"]["code"] == "unknown_fact"
