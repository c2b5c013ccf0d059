"""The cluster-view pages and chart endpoints over HTTP (SQLite, and PostgreSQL when configured).

The pages must say what the API says: the same stragglers, stale nodes, findings and numbers.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import escape

from bwdoctor.web import svg
from tests.helpers import assert_error_shape
from tests.web.feed import put_report

NS = "{http://www.w3.org/2000/svg}"
JOB = {"job.model_params_b": 13, "job.precision": "bf16", "job.nodes": 5, "job.step_time_baseline_s": 1.5}
WHATIF_OK = "job.model_params_b=70&job.precision=bf16&job.nodes=8&job.step_time_baseline_s=2"


class Cells(HTMLParser):
    """Collects the text of every element carrying data-fact inside each data-node row."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, dict[str, dict[str, str]]] = {}
        self._node: str | None = None
        self._fact: str | None = None
        self._attrs: dict[str, str] = {}
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "tr" and "data-node" in a:
            self._node = a["data-node"]
            self.rows[self._node] = {}
        elif tag == "td" and self._node and "data-fact" in a:
            self._fact, self._attrs, self._text = a["data-fact"], a, []

    def handle_data(self, data: str) -> None:
        if self._fact:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._fact and self._node:
            self.rows[self._node][self._fact] = {**self._attrs, "text": "".join(self._text).strip()}
            self._fact = None
        elif tag == "tr":
            self._node = None


def table_cells(html: str) -> dict[str, dict[str, dict[str, str]]]:
    parser = Cells()
    parser.feed(html)
    return parser.rows


def feed_cluster(client: Any, token: str, cluster: str = "train-a") -> None:
    """Five nodes, three reports each: n1 lags in GPU and step time, n2's link is degraded, n4 is stale."""
    now = datetime.now(UTC)
    for i in range(5):
        for k in range(3):
            facts: dict[str, Any] = {
                "node.id": f"n{i}",
                "node.cluster": cluster,
                "node.zone": "z1",
                "gpu.util_pct": 90.0 + i * 0.5 - k,
                "nic.speed_gbps": 100,
                "net.iperf3_gbps": 93.0 + i * 0.2,
                "nic.rx_gbps": 30.0 + k,
                "nic.tx_gbps": 31.0,
                "job.step_time_s": 2.0 + i * 0.01,
                **JOB,
            }
            if i == 1:
                facts.update({"gpu.util_pct": 31.0 + k, "job.step_time_s": 4.2})
            if i == 2:
                facts["net.iperf3_gbps"] = 22.5
            at = now - timedelta(minutes=10 - 5 * k) - (timedelta(days=3) if i == 4 else timedelta(0))
            put_report(client, token, f"n{i}", facts, at, report_id=f"r{k}")


@pytest.fixture
def fed(client: Any, token: str) -> Any:
    feed_cluster(client, token)
    return client


def test_clusters_list_shows_each_cluster_with_counts(fed: Any, token: str) -> None:
    put_report(fed, token, "loose-1", {"gpu.util_pct": 50}, datetime.now(UTC))
    html = fed.get("/clusters").text
    assert 'href="/clusters/train-a"' in html
    row = re.search(r'<tr data-cluster="train-a">(.*?)</tr>', html, re.S).group(1)
    assert '<td class="num">5</td>' in row
    assert "1 stale" in row
    assert 'href="/nodes/loose-1"' in html  # a node without a cluster is still reachable


def test_cluster_page_agrees_with_the_api(fed: Any) -> None:
    api = fed.get("/api/v1/clusters/train-a/diagnosis").json()
    response = fed.get("/clusters/train-a")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in response.headers["content-security-policy"]
    html = response.text

    assert api["stragglers"] == ["n1", "n2"]
    assert [s["node_id"] for s in api["stale_nodes"]] == ["n4"]
    stragglers = re.search(r'<dd id="cv-stragglers">(.*?)</dd>', html, re.S).group(1)
    assert re.findall(r'data-node="([^"]+)">STRAGGLER', stragglers) == api["stragglers"]
    stale = re.search(r'<dd id="cv-stale">(.*?)</dd>', html, re.S).group(1)
    assert re.findall(r'data-node="([^"]+)">STALE', stale) == ["n4"]
    status = re.search(r'<dd id="cv-status"[^>]*>(.*?)</dd>', html).group(1)
    assert status == api["status"].upper()
    titles = re.findall(r'<h3 class="card-title cv-finding-title">(.*?)</h3>', html)
    assert titles == [str(escape(f["title"])) for f in api["findings"]]
    assert re.search(r'<span id="cv-nodes-fresh">(\d+)</span>', html).group(1) == str(api["nodes_fresh"])

    cells = table_cells(html)
    assert sorted(cells) == [f"n{i}" for i in range(5)]
    for node_id, row in cells.items():
        latest = fed.get(f"/api/v1/nodes/{node_id}").json()["latest"]["facts"]
        for fact in ("gpu.util_pct", "nic.speed_gbps", "net.iperf3_gbps", "nic.rx_gbps", "job.step_time_s"):
            assert float(row[fact]["data-value"]) == latest[fact], (node_id, fact)
            assert row[fact]["text"] == svg.fmt(latest[fact]), (node_id, fact)
        assert row["nic.efficiency"]["text"].startswith(svg.fmt(100 * latest["net.iperf3_gbps"] / 100))

    # each straggler and the stale node say so in words in their table row and in the grid
    for node_id, word in (("n1", "STRAGGLER"), ("n2", "STRAGGLER"), ("n4", "STALE")):
        row_html = re.search(rf'<tr data-node="{node_id}".*?</tr>', html, re.S).group(0)
        assert f'<span class="cv-tag cv-tag-{word.lower()}">{word}</span>' in row_html
    grid = ET.fromstring(re.search(r"<svg .*?</svg>", html, re.S).group(0))
    grid_rows = {g.get("data-label"): "".join(g.itertext()) for g in grid.iter(f"{NS}g") if g.get("data-label")}
    assert "[STRAGGLER]" in grid_rows["n1"] and "33 % · outlier" in grid_rows["n1"]  # the latest of 31, 32, 33
    assert "[STALE]" in grid_rows["n4"] and "stale" in grid_rows["n4"]
    assert "22.5 % of 100G · outlier" in grid_rows["n2"]
    assert 'id="cv-whatif"' in html  # the job facts are known: the what-if is drawn


def test_fragment_is_the_live_part_only(fed: Any) -> None:
    html = fed.get("/clusters/train-a/fragment").text
    assert html.lstrip().startswith('<div class="cv-body"') and "<html" not in html
    assert 'data-node="n1"' in html


def test_unknown_cluster_and_node_pages_are_404_pages(client: Any) -> None:
    for path in ("/clusters/nowhere", "/nodes/nobody"):
        response = client.get(path)
        assert response.status_code == 404
        assert response.headers["content-type"].startswith("text/html")
        assert "Nothing has reported under this name" in response.text
    assert_error_shape(client.get("/clusters/nowhere/fragment"), 404, "cluster_not_found")
    assert_error_shape(client.get("/nodes/nobody/fragment"), 404, "node_not_found")
    assert_error_shape(client.get("/clusters/bad%20name"), 422)


def test_hostile_strings_from_probes_are_escaped(client: Any, token: str) -> None:
    evil = '<img src=x onerror="alert(1)">'
    put_report(
        client,
        token,
        "n-evil",
        {"node.cluster": "evil", "gpu.model": evil, "node.rack": "<script>alert(2)</script>", "gpu.util_pct": 50},
        datetime.now(UTC),
    )
    put_report(client, token, "n-evil2", {"node.cluster": evil, "gpu.util_pct": 50}, datetime.now(UTC))
    for path in ("/clusters", "/clusters/evil", "/nodes/n-evil"):
        html = client.get(path).text
        assert "<img src=x" not in html and "<script>alert" not in html, path
    assert "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;" in client.get("/nodes/n-evil").text
    assert "&lt;img src=x" in client.get("/clusters").text


def test_node_page_history_charts_and_findings(fed: Any) -> None:
    api = fed.get("/api/v1/nodes/n1").json()
    html = fed.get("/nodes/n1").text
    assert re.search(r'id="cv-node-gpu" data-value="([^"]*)"', html).group(1) == str(
        api["latest"]["facts"]["gpu.util_pct"]
    )
    rows = re.search(r'<table class="cv-table" id="cv-history">.*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    assert rows.count("<tr>") == len(api["history"]) == 3
    for chart in ("gpu", "nic", "step", "findings"):
        figure = re.search(rf'<figure class="cv-figure" id="cv-chart-{chart}">(<svg .*?</svg>)', html, re.S)
        ET.fromstring(figure.group(1))
    assert "rated 100" in html  # the NIC's rating is drawn against rx/tx
    for finding in api["latest"]["findings"]:
        assert f'data-rule="{finding["rule"]}"' in html
    stale = fed.get("/nodes/n4").text
    assert '<span class="cv-tag cv-tag-stale">STALE</span>' in stale


def test_node_and_cluster_chart_endpoints(fed: Any) -> None:
    for path in ("/charts/nodes/n1/gpu.svg", "/charts/nodes/n1/findings.svg", "/charts/clusters/train-a/grid.svg"):
        response = fed.get(path)
        assert response.status_code == 200, path
        assert response.headers["content-type"] == "image/svg+xml"
        ET.fromstring(response.text)
    assert_error_shape(fed.get("/charts/nodes/n1/cpu.svg"), 404, "chart_not_found")
    assert_error_shape(fed.get("/charts/clusters/none/grid.svg"), 404, "cluster_not_found")


def test_whatif_endpoint_draws_the_engines_numbers(client: Any) -> None:
    response = client.get("/charts/whatif.svg?" + WHATIF_OK)
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/svg+xml"
    words = ["".join(t.itertext()) for t in ET.fromstring(response.text).iter(f"{NS}text")]
    job = {"job.model_params_b": 70, "job.precision": "bf16", "job.nodes": 8, "job.step_time_baseline_s": 2}
    diagnosis = client.post("/api/v1/diagnose", json={"facts": {**job, "nic.speed_gbps": 10}})
    assert diagnosis.status_code == 200, diagnosis.text
    comm = diagnosis.json()["derived"]["comm.allreduce_time_s"]  # the same arithmetic through the public API
    assert f"2 s compute + {svg.fmt(comm)} s all-reduce · 99 % waiting" in words
    assert "2 s compute + 196 s all-reduce · 99 % waiting" in words


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("", "missing_facts"),
        ("job.precision=bf16", "missing_facts"),
        (WHATIF_OK + "&job.precision=fp16", "duplicate_parameter"),
        (WHATIF_OK + "&colour=red", "unknown_parameter"),
        (WHATIF_OK.replace("bf16", "bf17"), "invalid_fact"),
        (WHATIF_OK.replace("=70", "=seventy"), "invalid_fact"),
        (WHATIF_OK.replace("=70", "=-1"), "invalid_fact"),
        (WHATIF_OK.replace("=70", "=nan"), "invalid_fact"),
        (WHATIF_OK.replace("nodes=8", "nodes=8.5"), "invalid_fact"),
        (WHATIF_OK + "&nic.speed_gbps=inf", "invalid_fact"),
        (  # numbers past the service's bound (±1e18) are refused before any arithmetic can overflow
            "job.model_params_b=1e308&job.precision=fp32&job.nodes=8&job.step_time_baseline_s=1e-300"
            "&nic.speed_gbps=1e-300",
            "invalid_fact",
        ),
    ],
)
def test_whatif_bad_input_is_a_4xx_json_error(client: Any, query: str, code: str) -> None:
    error = assert_error_shape(client.get("/charts/whatif.svg?" + query), 422, code)
    assert error["message"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.tuples(
            st.sampled_from(
                [
                    "job.model_params_b",
                    "job.precision",
                    "job.nodes",
                    "job.step_time_baseline_s",
                    "job.grad_accum_steps",
                    "nic.speed_gbps",
                    "net.iperf3_gbps",
                    "x",
                ]
            ),
            st.one_of(st.text(max_size=12), st.floats(allow_nan=True).map(str), st.integers().map(str)),
        ),
        max_size=7,
    )
)
def test_whatif_never_answers_500(client: Any, params: list[tuple[str, str]]) -> None:
    response = client.get("/charts/whatif.svg", params=params)
    assert response.status_code in (200, 422), response.text
    if response.status_code == 200:
        ET.fromstring(response.text)
    else:
        assert_error_shape(response, 422)
