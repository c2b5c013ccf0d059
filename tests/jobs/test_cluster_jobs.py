"""Job facts per cluster: set with PUT /api/v1/clusters/{name}/job (probe token), read back, merged
under the cluster's diagnosis and pre-flight, and drawn as the cluster page's what-if."""

from __future__ import annotations

from tests.helpers import assert_error_shape

JOB = {
    "job.model_params_b": 70,
    "job.precision": "bf16",
    "job.parallelism": "data",
    "job.step_time_baseline_s": 2,
    "nic.speed_gbps": 10,  # not a job's fact: not kept, said so
    "job.nodez": 4,  # a typo: warned about with the closest name
}
NODE = {"node.cluster": "llm", "nic.speed_gbps": 25, "gpu.util_pct": 50, "cpu.util_pct": 20}


def test_setting_needs_a_probe_token(client):
    assert_error_shape(client.put("/api/v1/clusters/llm/job", json={"facts": JOB}), 401, "token_required")
    bad = client.put("/api/v1/clusters/llm/job", json={"facts": JOB}, headers={"Authorization": "Bearer nope"})
    assert_error_shape(bad, 401, "token_invalid")


def test_set_read_and_use_a_clusters_job(client, auth):
    for node in ("a", "b"):
        assert client.put(f"/api/v1/nodes/{node}/facts", json={"facts": NODE}, headers=auth).status_code == 201
    assert_error_shape(client.get("/api/v1/clusters/llm/job"), 404, "job_not_found")
    assert 'id="cv-whatif"' not in client.get("/clusters/llm").text  # no job yet: no chart

    put = client.put("/api/v1/clusters/llm/job", json={"facts": JOB}, headers=auth)
    assert put.status_code == 200, put.text
    body = put.json()
    assert body["facts"]["job.model_params_b"] == 70 and "nic.speed_gbps" not in body["facts"]
    codes = {w["code"]: w for w in body["warnings"]}
    assert codes["unknown_fact"]["closest"] == "job.nodes" and "nic.speed_gbps" in codes["not_kept"]["message"]
    assert client.get("/api/v1/clusters/llm/job").json()["facts"] == body["facts"]

    facts = client.get("/api/v1/clusters/llm/diagnosis").json()["facts"]
    assert facts["job.model_params_b"] == 70 and facts["nic.speed_gbps"] == 25  # nodes' own facts stay theirs
    page = client.get("/clusters/llm").text
    assert 'id="cv-whatif"' in page and "<svg" in page.split('id="cv-whatif"', 1)[1]

    pre = client.post("/api/v1/preflight", json={"job": {"job.nodes": 2}, "cluster": "llm"}).json()
    assert pre["facts"]["job.model_params_b"] == 70 and pre["facts"]["job.nodes"] == 2  # the given job wins

    assert client.delete("/api/v1/clusters/llm/job", headers=auth).status_code == 204
    assert client.get("/api/v1/clusters/llm/job").status_code == 404


def test_bad_job_facts_are_a_clear_422(client, auth):
    for facts, code in (({"job.precision": "fp12"}, "invalid_job"), ({"nic.speed_gbps": 10}, "invalid_job")):
        r = client.put("/api/v1/clusters/llm/job", json={"facts": facts}, headers=auth)
        assert_error_shape(r, 422, code)
    strict = client.put("/api/v1/clusters/llm/job", json={"facts": JOB, "strict": True}, headers=auth)
    assert_error_shape(strict, 422, "unknown_fact")


def test_the_whatif_link_opened_in_a_browser_is_a_readable_page(client):
    html = client.get("/charts/whatif.svg?job.model_params_b=70", headers={"Accept": "text/html,*/*"})
    assert html.status_code == 422 and html.headers["content-type"].startswith("text/html")
    assert "job.precision" in html.text and "{&#34;error" not in html.text and '"error"' not in html.text
    assert 'id="whatif-example"' in html.text
    zh = client.get("/charts/whatif.svg?job.model_params_b=70&lang=zh", headers={"Accept": "text/html"})
    assert "无法绘制" in zh.text
    example = client.get("/charts/whatif.svg?job.model_params_b=70&job.precision=bf16&job.nodes=8"
                         "&job.step_time_baseline_s=2", headers={"Accept": "text/html"})
    assert example.status_code == 200 and example.headers["content-type"].startswith("image/svg+xml")
    assert_error_shape(client.get("/charts/whatif.svg?job.model_params_b=70"), 422, "missing_facts")  # scripts
