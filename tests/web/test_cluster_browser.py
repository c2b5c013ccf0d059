"""The cluster view in a real headless Chromium against the real service (uvicorn on loopback).

Six nodes report through real `agent-probe collect` passes (see feed.py for what is added to
them): one straggler with low GPU utilisation and slow steps, one degraded link, one node stale
by a report from days ago. The pages must render, agree with the API, mark stragglers and stale
nodes in words, refresh in place, and never run a string a probe sent.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from bwdoctor.web import svg
from bwdoctor.web.i18n import CLUSTER_UI
from tests import prereqs
from tests.helpers import REPO, live_server
from tests.prereqs import needs
from tests.web.feed import probe_facts, put_report, start_probe, write_training_log

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = REPO / "test-artifacts"
DOCS_SCREENSHOT = REPO / "docs" / "images" / "clusters.png"
CLUSTER = "rack-7"
JOB = {"job.model_params_b": 13, "job.precision": "bf16", "job.nodes": 6, "job.step_time_baseline_s": 1.6}
FAVICON_404 = "Failed to load resource: the server responded with a status of 404"  # /favicon.ico only
EVIL = '<img src=x onerror="window.__xss=1">'

pytestmark = [
    pytest.mark.browser,
    needs(prereqs.CHROMIUM, why="Debian chromium at /usr/bin/chromium drives the pages"),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as p:
        instance = p.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield instance
        instance.close()


# node id -> (step time in its training log, facts a GPU node with peers would add)
NODES: dict[str, tuple[float, dict[str, Any]]] = {
    "gpu-a01": (2.0, {"gpu.util_pct": 91.0, "net.iperf3_gbps": 94.1}),
    "gpu-a02": (4.3, {"gpu.util_pct": 28.0, "net.iperf3_gbps": 93.7}),  # straggler: idle GPUs, slow steps
    "gpu-a03": (2.05, {"gpu.util_pct": 89.5, "net.iperf3_gbps": 23.0}),  # degraded link
    "gpu-a04": (1.98, {"gpu.util_pct": 92.0, "net.iperf3_gbps": 94.6, "gpu.model": EVIL}),
    "gpu-a05": (2.02, {"gpu.util_pct": 90.5}),  # no iperf3 peer: efficiency from observed rx/tx
    "gpu-a06": (2.0, {"gpu.util_pct": 90.0, "net.iperf3_gbps": 94.0}),  # stale: last report days ago
}


def feed(base: str, token: str, tmp_path: Path) -> None:
    """One real probe pass per node (in parallel), sent three times as a short history."""
    processes = {
        node_id: start_probe(
            node_id, CLUSTER, f"zone-{i % 2}", write_training_log(tmp_path / f"{node_id}.log", step_s), 100
        )
        for i, (node_id, (step_s, _)) in enumerate(NODES.items())
    }
    now = datetime.now(UTC)
    with httpx.Client(base_url=base, timeout=10) as http:
        for node_id, process in processes.items():
            collected = probe_facts(process)
            assert collected["node.id"] == node_id and collected["node.cluster"] == CLUSTER
            assert "job.step_time_s" in collected, "the probe did not read the training log"
            extra = NODES[node_id][1]
            for k in range(3):
                facts = {**collected, **JOB, **extra}
                if "gpu.util_pct" in extra:
                    facts["gpu.util_pct"] = extra["gpu.util_pct"] - 2 + k  # a little movement over time
                at = now - timedelta(minutes=10 - 5 * k)
                if node_id == "gpu-a06":
                    at -= timedelta(days=2)
                put_report(http, token, node_id, facts, at, report_id=f"{node_id}-{k}")


def console_problems(page: Any) -> list[str]:
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"pageerror: {exc}"))
    page.on(
        "console",
        lambda msg: (
            problems.append(msg.text)
            if msg.type == "error" and "favicon" not in msg.text and "404" not in msg.text
            else None
        ),
    )
    return problems


def test_cluster_and_node_pages_in_a_real_browser(browser: Any, app: Any, token: str, tmp_path: Path) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    with live_server(app) as base:
        feed(base, token, tmp_path)
        api = httpx.get(f"{base}/api/v1/clusters/{CLUSTER}/diagnosis", timeout=10).json()
        latest = {n: httpx.get(f"{base}/api/v1/nodes/{n}", timeout=10).json() for n in NODES}
        assert "gpu-a02" in api["stragglers"] and "gpu-a03" in api["stragglers"]
        assert [s["node_id"] for s in api["stale_nodes"]] == ["gpu-a06"]

        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        problems = console_problems(page)
        page.clock.install()  # the refresh timer is driven by the test, not by waiting

        # --- the list of clusters
        page.goto(f"{base}/clusters")
        row = page.locator(f'tr[data-cluster="{CLUSTER}"]')
        assert row.locator("td.num").nth(0).inner_text() == "6"  # nodes (after the status column)
        assert "1 stale" in row.inner_text()
        page.screenshot(path=str(ARTIFACTS / "clusters-list.png"), full_page=True)
        row.get_by_role("link", name=CLUSTER).click()
        page.wait_for_url(f"{base}/clusters/{CLUSTER}")

        # --- the cluster page says what the API says
        assert page.locator("#cv-status").inner_text() == api["status"].upper()
        assert page.locator("#cv-nodes-fresh").inner_text() == str(api["nodes_fresh"]) == "5"
        shown_stragglers = page.locator("#cv-stragglers .cv-tag").evaluate_all("els => els.map(e => e.dataset.node)")
        assert shown_stragglers == api["stragglers"]
        assert page.locator("#cv-stale .cv-tag").inner_text() == "STALE gpu-a06"
        titles = page.locator(".cv-cluster-findings .cv-finding-title").all_inner_texts()
        assert titles == [f["title"] for f in api["findings"]]
        first = api["findings"][0]
        evidence = page.locator(".cv-cluster-findings > ol > li").first.locator(".evidence li").all_inner_texts()
        assert [e.split(" = ")[0] for e in evidence] == [e["fact"] for e in first["evidence"]]

        for node_id, detail in latest.items():
            facts = detail["latest"]["facts"]
            tr = page.locator(f'#cv-nodes tr[data-node="{node_id}"]')
            for fact in ("gpu.util_pct", "nic.speed_gbps", "nic.rx_gbps", "nic.tx_gbps", "job.step_time_s"):
                assert tr.locator(f'td[data-fact="{fact}"]').inner_text() == svg.fmt(facts[fact]), (node_id, fact)
            state = tr.locator("td.cv-state").inner_text()
            assert ("STRAGGLER" in state) == (node_id in api["stragglers"]), node_id
            assert ("STALE" in state) == (node_id == "gpu-a06"), node_id
        efficiency = page.locator('#cv-nodes tr[data-node="gpu-a03"] td[data-fact="nic.efficiency"]').inner_text()
        assert efficiency == "23 (iperf3)"
        assert (
            "(rx/tx)" in page.locator('#cv-nodes tr[data-node="gpu-a05"] td[data-fact="nic.efficiency"]').inner_text()
        )

        grid = page.locator("#cv-grid svg")
        assert grid.get_attribute("role") == "img"
        grid_text = grid.text_content()
        assert grid_text.count("[STRAGGLER]") == len(api["stragglers"])
        assert "[STALE]" in grid_text and "· stale" in grid_text
        assert "23 % of 100G · outlier" in grid_text
        assert page.locator("#cv-whatif svg").count() == 1
        assert page.evaluate("window.__xss") is None
        page.screenshot(path=str(ARTIFACTS / "cluster.png"), full_page=True)
        if os.environ.get("BWDOCTOR_UPDATE_DOCS_SCREENSHOT") or not DOCS_SCREENSHOT.exists():
            DOCS_SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(DOCS_SCREENSHOT), full_page=True)

        # --- it refreshes in place: a new report shows up without a reload
        page.evaluate("window.__notReloaded = true")
        put_report(
            httpx.Client(base_url=base, timeout=10),
            token,
            "gpu-a01",
            {**latest["gpu-a01"]["latest"]["facts"], "gpu.util_pct": 77.7},
            datetime.now(UTC),
        )
        page.clock.fast_forward(16_000)  # past the 15 s refresh period
        cell = page.locator('#cv-nodes tr[data-node="gpu-a01"] td[data-fact="gpu.util_pct"]')
        page.wait_for_function(
            '() => document.querySelector(\'#cv-nodes tr[data-node="gpu-a01"] td[data-fact="gpu.util_pct"]\')'
            ".textContent.trim() === '77.7'",
            timeout=10_000,
        )
        assert cell.inner_text() == "77.7"
        assert page.evaluate("window.__notReloaded") is True
        assert int(page.locator("#cv-live").get_attribute("data-refreshes")) >= 1
        assert page.locator("#cv-updated").inner_text().startswith("Updated ")
        assert page.evaluate("window.__xss") is None

        # --- a node page: its history over time, in words and pictures
        page.locator('#cv-nodes tr[data-node="gpu-a02"] th a').click()
        page.wait_for_url(f"{base}/nodes/gpu-a02")
        node = latest["gpu-a02"]
        assert page.locator("#cv-node-gpu").get_attribute("data-value") == str(node["latest"]["facts"]["gpu.util_pct"])
        assert page.locator("#cv-history tbody tr").count() == len(node["history"]) == 3
        for chart in ("gpu", "nic", "step", "findings"):
            assert page.locator(f"#cv-chart-{chart} svg").count() == 1, chart
        assert "rated 100" in page.locator("#cv-chart-nic svg").text_content()
        shown_rules = page.locator(".cv-findings > li").evaluate_all("els => els.map(e => e.dataset.rule)")
        assert shown_rules == [f["rule"] for f in node["latest"]["findings"]]
        page.screenshot(path=str(ARTIFACTS / "node.png"), full_page=True)

        page.goto(f"{base}/nodes/gpu-a04")  # the node whose gpu.model is markup: shown as text, never run
        assert page.locator('#cv-node-facts div[data-fact="gpu.model"] dd').inner_text() == EVIL
        assert page.evaluate("window.__xss") is None

        page.goto(f"{base}/nodes/gpu-a06")
        assert "STALE" in page.locator("#cv-node-state").inner_text()
        page.screenshot(path=str(ARTIFACTS / "node-stale.png"), full_page=True)

        # --- in Chinese: the toggle switches the cluster page, and the live refresh keeps it Chinese
        check_chinese_cluster_page(page, context, base, token, api, latest)

        # --- the what-if chart on its own
        page.goto(
            f"{base}/charts/whatif.svg?job.model_params_b=70&job.precision=bf16&job.nodes=8&job.step_time_baseline_s=2"
        )
        assert "196 s all-reduce" in page.locator("svg").text_content()
        assert problems == [], problems  # no script errors, no CSP violations, no failed loads
        response = page.goto(f"{base}/charts/whatif.svg?job.precision=bf16")
        # opened in a browser: a readable page naming what is missing, never raw JSON
        assert response.status == 422 and response.headers["content-type"].startswith("text/html")
        assert "job.model_params_b" in page.locator("#whatif-missing").inner_text()
        context.close()


def check_chinese_cluster_page(page: Any, context: Any, base: str, token: str, api: dict, latest: dict) -> None:
    """Switch a cluster page to Chinese with the header's toggle; everything a user reads follows, and
    so does the live refresh, even once the toggle's cookie is gone (the fragment URL carries ?lang=)."""
    zh = CLUSTER_UI["zh"]
    page.goto(f"{base}/clusters/{CLUSTER}")
    assert page.locator("html").get_attribute("lang") == "en"
    page.get_by_role("link", name="切换到中文").click()
    page.wait_for_url(f"{base}/clusters/{CLUSTER}?lang=zh")  # the same page, in the other language
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    assert page.locator("h1").inner_text() == f"{zh['cv_cluster']} {CLUSTER}"
    assert page.locator("#cv-findings-h").inner_text() == zh["cv_cluster_findings"]
    assert page.locator("#cv-status").inner_text() == zh["cv_level_" + api["status"]]
    chinese = httpx.get(f"{base}/api/v1/clusters/{CLUSTER}/diagnosis?lang=zh", timeout=10).json()
    assert page.locator(".cv-cluster-findings .cv-finding-title").all_inner_texts() == [
        f["title"] for f in chinese["findings"]
    ]
    assert page.locator("#cv-stale .cv-tag").inner_text() == f"{zh['cv_tag_stale']} gpu-a06"
    grid = page.locator("#cv-grid svg").text_content()
    assert grid.count(f"[{zh['ch_badge_straggler']}]") == len(api["stragglers"])
    assert zh["ch_legend"] in grid and "Legend:" not in grid and "STRAGGLER" not in grid
    assert page.locator("#cv-pause").inner_text() == zh["cv_pause"]
    page.locator("#cv-pause").click()  # the script's own words are Chinese too
    assert page.locator("#cv-pause").inner_text() == zh["cv_resume"]
    page.locator("#cv-pause").click()
    assert page.locator("#cv-pause").inner_text() == zh["cv_pause"]
    page.screenshot(path=str(ARTIFACTS / "cluster-zh.png"), full_page=True)

    context.clear_cookies()  # the refresh must not depend on the toggle's cookie
    put_report(
        httpx.Client(base_url=base, timeout=10),
        token,
        "gpu-a01",
        {**latest["gpu-a01"]["latest"]["facts"], "gpu.util_pct": 66.6},
        datetime.now(UTC),
    )
    before = int(page.locator("#cv-live").get_attribute("data-refreshes") or 0)
    with page.expect_response(lambda r: "/fragment" in r.url) as fetched:
        page.evaluate("window.bwdClustersRefresh()")
    assert "lang=zh" in fetched.value.url
    page.wait_for_function(
        f"() => Number(document.getElementById('cv-live').getAttribute('data-refreshes')) > {before}", timeout=10_000
    )
    cell = page.locator('#cv-nodes tr[data-node="gpu-a01"] td[data-fact="gpu.util_pct"]')
    assert cell.inner_text() == "66.6"
    assert page.locator("#cv-findings-h").inner_text() == zh["cv_cluster_findings"]
    assert page.locator("#cv-updated").inner_text().startswith(zh["cv_updated"].split("{")[0])
    assert f"[{zh['ch_badge_straggler']}]" in page.locator("#cv-grid svg").text_content()
    assert page.evaluate("window.__xss") is None
