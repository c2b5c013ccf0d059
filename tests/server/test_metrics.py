"""/metrics: requests by route template and status, latency, reports, nodes reporting, findings."""

from __future__ import annotations

import re


def sample(text: str, name: str, **labels: str) -> float:
    for line in text.splitlines():
        if not line.startswith(name + "{") and not line.startswith(name + " "):
            continue
        if all(f'{k}="{v}"' in line for k, v in labels.items()):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def test_metrics_count_by_template_not_raw_path(client, auth):
    before = client.get("/metrics").text
    route = "/api/v1/nodes/{node_id}/facts"
    stored = sample(before, "bwdoctor_reports_received_total", result="stored")
    puts = sample(before, "bwdoctor_http_requests_total", method="PUT", route=route, status="201")
    for i in range(3):
        body = {"facts": {"nic.speed_gbps": 100, "net.iperf3_gbps": 10}, "report_id": "same" if i else "first"}
        client.put(f"/api/v1/nodes/node-{i}/facts", json=body, headers=auth)
    client.put("/api/v1/nodes/x/facts", json={"facts": {}})  # 401
    client.get("/api/v1/nodes/ghost")  # 404 on a matched route
    client.get("/no/such/path")
    client.post("/api/v1/diagnose", json={"facts": {"job.model_params_b": 100, "nic.speed_gbps": 10, "job.nodes": 8}})
    text = client.get("/metrics").text
    assert sample(text, "bwdoctor_http_requests_total", method="PUT", route=route, status="201") == puts + 3
    assert sample(text, "bwdoctor_http_requests_total", method="PUT", route=route, status="401") >= 1
    assert sample(text, "bwdoctor_http_requests_total", route="/api/v1/nodes/{node_id}", status="404") >= 1
    assert sample(text, "bwdoctor_http_requests_total", route="unmatched", status="404") >= 1
    assert "node-1" not in text and "/no/such/path" not in text
    assert sample(text, "bwdoctor_reports_received_total", result="stored") == stored + 3
    assert sample(text, "bwdoctor_http_request_duration_seconds_count", method="PUT", route=route) >= 3
    assert sample(text, "bwdoctor_nodes_reporting") == 3
    assert (
        sample(text, "bwdoctor_findings_total", category="nic-undersized", severity="critical", source="diagnose") >= 1
    )
    assert re.search(r'bwdoctor_findings_total\{category="[a-z-]+",severity="(critical|warning|info)"', text)
