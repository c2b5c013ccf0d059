"""The chat page as HTML: security headers, language choice, accessibility hooks, static assets."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bwdoctor.config import Settings
from bwdoctor.main import create_app
from bwdoctor.web.i18n import UI, pick_language


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory, engine: Any) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("web") / "bwdoctor.db"
    settings = Settings(_env_file=None, database_url=f"sqlite:///{db}", diagnose_reports=False)  # type: ignore[call-arg]
    with TestClient(create_app(settings, engine=engine)) as test_client:
        yield test_client


def test_page_has_a_strict_content_security_policy(client: TestClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert response.headers["x-content-type-options"] == "nosniff"


def test_no_inline_script_and_nothing_from_another_origin(client: TestClient) -> None:
    html = client.get("/").text
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert 'src="/static/' in tag or 'type="application/json"' in tag, tag
    assert not re.search(r"<[^>]*\son[a-z]+\s*=", html)  # no onclick= or other inline handlers
    assert "http://" not in html.replace('"http://www.w3.org', "") and "https://" not in html
    assert "style=" not in html


def test_static_assets_are_served(client: TestClient) -> None:
    for name, kind in (("chat.js", "javascript"), ("chat.css", "text/css")):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200 and kind in response.headers["content-type"]
    assert client.get("/static/../config.py").status_code == 404


def test_static_js_never_uses_innerhtml() -> None:
    static = Path(__file__).resolve().parents[2] / "service" / "web" / "static"
    for script in ("chat.js", "clusters.js"):
        source = static.joinpath(script).read_text()
        code = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
        assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(", code), script


def test_the_chat_draws_no_arithmetic_of_its_own() -> None:
    """The all-reduce chart is the server's (the engine's what-if); the script holds no copy of the formula."""
    source = (Path(__file__).resolve().parents[2] / "service" / "web" / "static" / "chat.js").read_text()
    assert "/charts/allreduce.svg" in source
    assert not re.search(r"\(\s*\w+\s*-\s*1\s*\)|BYTES_PER_ELEMENT|/ 8\b", source)


def test_the_chat_chart_is_the_engines_what_if(client: TestClient) -> None:
    job = {"job.model_params_b": "100", "job.precision": "fp16", "job.nodes": "8", "nic.speed_gbps": "10"}
    response = client.get("/charts/allreduce.svg", params={**job, "gpu.util_pct": "40", "not.a.fact": "x"})
    assert response.status_code == 200 and response.headers["content-type"].startswith("image/svg+xml")
    rows = re.findall(r'class="chart-label">([\d.]+) Gb/s</text>.*?class="chart-value">([\d.]+) s', response.text)
    # 2·(8−1)/8 × 200 GB ÷ (Gb/s ÷ 8), the engine's comm.allreduce_time_s at each speed
    assert {float(g): float(s) for g, s in rows} == {10: 280, 25: 112, 100: 28, 200: 14, 400: 7}
    assert '<g class="chart-row chart-yours"><text x="76" y="25" text-anchor="end" class="chart-label">10 Gb/s' in (
        response.text
    )
    one_node = client.get("/charts/allreduce.svg", params={**job, "job.nodes": "1"})
    assert one_node.status_code == 204 and not one_node.content
    bad = client.get("/charts/allreduce.svg", params={**job, "job.nodes": "eight"})
    assert bad.status_code == 422 and "job.nodes" in bad.text


def test_language_follows_accept_language_and_the_toggle(client: TestClient) -> None:
    client.cookies.clear()
    english = client.get("/", headers={"Accept-Language": "en-GB,en;q=0.9"})
    assert '<html lang="en">' in english.text and UI["en"]["question_label"] in english.text
    chinese = client.get("/", headers={"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8"})
    assert '<html lang="zh-CN">' in chinese.text and UI["zh"]["question_label"] in chinese.text
    assert '<html lang="en">' in client.get("/?lang=fr", headers={"Accept-Language": "de"}).text

    toggled = client.get("/?lang=zh", headers={"Accept-Language": "en"})
    assert '<html lang="zh-CN">' in toggled.text and toggled.cookies.get("bwd_lang") == "zh"
    remembered = client.get("/", headers={"Accept-Language": "en"})  # the toggle's cookie is kept
    assert '<html lang="zh-CN">' in remembered.text
    client.cookies.clear()


def test_accessibility_hooks(client: TestClient) -> None:
    html = client.get("/?lang=en").text
    assert '<label for="question"' in html and 'id="question"' in html
    assert 'role="log"' in html and 'aria-live="polite"' in html and 'role="status"' in html
    assert 'aria-current="page"' in html and 'href="/clusters"' in html and ">Chat<" in html and ">Clusters<" in html
    assert 'class="skip-link"' in html and 'name="viewport"' in html


def test_data_islands_cannot_break_out_of_their_script_tag(client: TestClient) -> None:
    html = client.get("/").text
    islands = re.findall(r'<script type="application/json" id="[^"]+">(.*?)</script>', html, flags=re.S)
    assert len(islands) == 2
    assert all("<" not in island for island in islands)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("", "en"),
        ("zh-CN,zh;q=0.9,en;q=0.8", "zh"),
        ("en-US,en;q=0.9,zh;q=0.8", "en"),
        ("fr-FR,zh-TW;q=0.7,en;q=0.5", "zh"),
        ("de, fr", "en"),
        ("zh;q=0", "en"),
        ("zh;q=abc, en;q=0.1", "en"),
    ],
)
def test_pick_language(header: str, expected: str) -> None:
    assert pick_language(header) == expected
