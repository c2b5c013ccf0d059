"""What a new user sees, in a real browser (Debian chromium, Playwright) against the service as its own
process: the clusters list says which cluster is critical; a cluster with too few facts says what is
missing; source tags are readable links that lead somewhere; remedies show no raw markdown; the chat
answer fits a screen with its details folded and nothing repeated; the what-if link is a picture or a
readable page. With BWDOCTOR_UPDATE_DOCS_SCREENSHOTS=1 it also refreshes docs/images/*-{en,zh}.png."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests import prereqs
from tests.helpers import REPO, service_process
from tests.prereqs import needs

CHROMIUM = Path("/usr/bin/chromium")
IMAGES = REPO / "docs" / "images"
UPDATE_SCREENSHOTS = bool(os.environ.get("BWDOCTOR_UPDATE_DOCS_SCREENSHOTS"))
QUESTION = {
    "en": "8 machines, data parallel, a 100B model in fp16 on 10GbE, GPU utilisation 40%",
    "zh": "我们用8台机器做数据并行，训练一个100B参数的模型，FP16，网卡是10GbE，GPU利用率只有40%",
}
CRITICAL_NODE = {"node.cluster": "llm-train", "nic.speed_gbps": 10, "job.model_params_b": 100, "job.nodes": 8,
                 "job.precision": "fp16", "gpu.util_pct": 40, "cpu.util_pct": 20, "nic.kind": "ethernet"}
THIN_NODE = {"node.cluster": "fresh", "cpu.util_pct": 20}

pytestmark = [
    pytest.mark.browser,
    needs(prereqs.CHROMIUM, why="Debian chromium at /usr/bin/chromium drives the pages"),
]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home = tmp_path_factory.mktemp("first-hour")
    url = f"sqlite:///{home / 'bwdoctor.db'}"
    env = {**os.environ, "BWDOCTOR_DATABASE_URL": url, "PYTHONPATH": str(REPO)}
    created = subprocess.run([sys.executable, "-m", "bwdoctor.cli", "tokens", "create", "pages"], env=env,
                             cwd=home, capture_output=True, text=True, timeout=120, check=True)
    token = created.stdout.strip().splitlines()[-1]
    with service_process(url, {"BWDOCTOR_DIAGNOSE_REPORTS": "false"}) as base:
        auth = {"Authorization": f"Bearer {token}"}
        for node, facts in (("gpu-01", CRITICAL_NODE), ("gpu-02", CRITICAL_NODE), ("new-01", THIN_NODE)):
            r = httpx.put(f"{base}/api/v1/nodes/{node}/facts", json={"facts": facts}, headers=auth, timeout=30)
            assert r.status_code == 201, r.text
        job = {"facts": {"job.step_time_baseline_s": 2, "job.parallelism": "data"}}
        assert httpx.put(f"{base}/api/v1/clusters/llm-train/job", json=job, headers=auth).status_code == 200
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, errors


def _shoot(page: Any, name: str) -> None:
    if UPDATE_SCREENSHOTS:
        IMAGES.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(IMAGES / name))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_clusters_list_shows_each_clusters_status(page: Any, base_url: str, lang: str) -> None:
    page.goto(f"{base_url}/clusters?lang={lang}")
    row = page.locator('#cluster-list tr[data-cluster="llm-train"]')
    status = row.locator(".cv-list-status")
    assert status.get_attribute("data-status") == "critical"
    assert status.locator(".badge-critical").inner_text().strip() == ("CRITICAL" if lang == "en" else "严重")
    fresh = page.locator('#cluster-list tr[data-cluster="fresh"] .cv-list-status')
    assert fresh.get_attribute("data-status") == "undetermined"
    _shoot(page, f"clusters-{lang}.png")


def test_a_cluster_with_too_few_facts_says_what_the_probe_has_not_reported(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/clusters/fresh?lang=en")
    text = page.locator("#cv-not-enough").inner_text()
    assert text.startswith("Not enough facts yet: the probe has not reported") and "." in text
    assert page.locator("#cv-not-enough code").count() >= 1
    assert "nothing to judge yet, or nothing wrong" not in page.content()
    page.goto(f"{base_url}/clusters/fresh?lang=zh")
    assert "探针还没有上报" in page.locator("#cv-not-enough").inner_text()


def test_sources_are_readable_links_and_remedies_show_no_raw_markdown(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/clusters/llm-train?lang=zh")
    card = page.locator(".cv-findings .card.sev-critical").first
    links = card.locator("a.cv-source")
    assert links.count() >= 1
    first = links.first
    tag, name = first.get_attribute("data-tag"), first.inner_text()
    assert name != tag and len(name) > len(tag)  # "H21 · 100 亿–千亿跨机…", not "H21"
    card.locator("details.cv-recs > summary").click()
    for text in card.locator(".recommendations li").all_inner_texts():
        assert "`" not in text and "**" not in text
    first.click()
    page.wait_for_load_state()
    anchor = (first_href := page.url).split("#", 1)[1]
    assert "/sources" in first_href and page.locator(f"#{anchor}").inner_text().startswith(tag)


def test_the_whatif_link_draws_a_picture_and_never_shows_json(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/clusters/llm-train?lang=en")
    figure = page.locator("#cv-whatif")
    assert figure.locator("svg").count() == 1  # the cluster's job facts make the chart
    figure.locator("a").click()
    page.wait_for_load_state()
    assert page.locator("svg").count() >= 1 and '"error"' not in page.content()
    page.goto(f"{base_url}/charts/whatif.svg?job.model_params_b=70&lang=en")
    assert "not enough to draw" in page.locator("h1").inner_text() and "job.precision" in page.content()
    assert '{"error"' not in page.locator("body").inner_text()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_chat_answer_fits_a_screen_folded_and_says_nothing_twice(browser: Any, base_url: str, lang: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN" if lang == "zh" else "en")
    page = context.new_page()
    try:
        page.goto(f"{base_url}/?lang={lang}")
        page.locator("#question").fill(QUESTION[lang])
        page.locator("#question").press("Enter")
        answer = page.locator("#log .msg-doctor").first
        answer.wait_for(timeout=30_000)
        height = answer.bounding_box()["height"]
        assert height < 900, f"the answer is {height:.0f} px tall"
        assert answer.locator("details.answer-section").count() >= 2  # the rest folded under headings
        assert answer.locator("details.findings .card").count() >= 1  # the cards are there, folded
        assert answer.locator("details[open] .card").count() == 0
        text = answer.text_content() or ""
        result = httpx.post(f"{base_url}/api/v1/ask", json={"question": QUESTION[lang]}, timeout=60).json()
        for item in result["missing"][:3]:
            assert text.count(item["question"]) <= 1, f"asked twice: {item['question']}"
        assert answer.locator("section.missing").count() == 0 and answer.locator("details.understood").count() == 0
        answer.locator("details.answer-section > summary").first.click()  # unfolds on demand
        assert answer.bounding_box()["height"] > height
        answer.locator("details.answer-section > summary").first.click()
        _shoot(page, f"chat-{lang}.png")
    finally:
        context.close()
