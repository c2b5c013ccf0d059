"""The cluster page's regressions section (issue 16): a node whose step time lasted 40 % higher since a
driver upgrade is listed with since when, how much slower and what changed at the same time, in English
and Chinese; a steady cluster says it found none; the refreshed fragment carries the same section.
SQLite and PostgreSQL."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from html import unescape

T0 = datetime(2026, 11, 2, tzinfo=UTC)


def feed(client, auth, node: str, *, slow_from: int | None, cluster: str = "train") -> None:
    """40 hourly reports; from report `slow_from` on, steps 0.4 s longer and a newer driver."""
    for i in range(40):
        slow = slow_from is not None and i >= slow_from
        facts = {
            "node.cluster": cluster,
            "job.step_time_s": (1.4 if slow else 1.0) + 0.01 * (i % 3),
            "gpu.driver_version": "550.54" if slow else "535.104",
            "nic.speed_gbps": 100,
        }
        body = {"facts": facts, "report_id": f"{node}-{i}", "collected_at": (T0 + timedelta(hours=i)).isoformat()}
        assert client.put(f"/api/v1/nodes/{node}/facts", json=body, headers=auth).status_code == 201


def section(page: str) -> str:
    found = re.search(r'<section class="cv-regressions".*?</section>', page, re.S)
    assert found, "no regressions section on the page"
    return found.group(0)


def rows(html: str) -> list[str]:
    return [unescape(re.sub(r"<[^>]+>", " ", r)) for r in re.findall(r"<tr data-node=.*?</tr>", html, re.S)]


def test_the_cluster_page_lists_a_regression_with_when_how_much_and_what_changed(client, auth):
    feed(client, auth, "g1", slow_from=25)
    feed(client, auth, "g2", slow_from=None)
    en = section(client.get("/clusters/train", params={"lang": "en"}).text)
    assert "Regressions over time" in en
    [row] = rows(en)  # g2 is steady: only g1
    assert 'data-node="g1"' in en and 'data-fact="job.step_time_s"' in en
    assert "2026-11-03 01:00 UTC" in row  # report 25, an hour apart from 2026-11-02 00:00
    assert re.search(r"\b(39\.\d|40(\.\d)?) % slower \(1\.01 → 1\.41\)", row), row  # 1.01 s → 1.41 s
    assert "535.104 → 550.54" in row and "nic" not in row.split("550.54")[1].lower()  # the NIC did not change

    zh = section(client.get("/clusters/train", params={"lang": "zh"}).text)
    assert "随时间的性能退化" in zh and "同时发生的变化" in zh
    [row_zh] = rows(zh)
    assert re.search(r"慢了 (39\.\d|40(\.\d)?)%", row_zh) and "535.104 → 550.54" in row_zh

    fragment = client.get("/clusters/train/fragment", params={"lang": "en"}).text
    assert rows(section(fragment)) == [row]  # the live refresh keeps it


def test_a_steady_cluster_says_it_found_none(client, auth):
    feed(client, auth, "s1", slow_from=None, cluster="calm")
    en = section(client.get("/clusters/calm", params={"lang": "en"}).text)
    assert 'id="cv-regressions-none"' in en and "No lasting change for the worse" in en
    zh = section(client.get("/clusters/calm", params={"lang": "zh"}).text)
    assert "没有持续变差的变化" in zh


def test_a_regression_the_api_finds_is_the_one_the_page_shows(client, auth):
    feed(client, auth, "g1", slow_from=25)
    api = client.get("/api/v1/nodes/g1/regressions").json()["regressions"]
    page = section(client.get("/clusters/train", params={"lang": "en"}).text)
    assert [(r["fact"], f'data-pct-worse="{r["pct_worse"]}"') for r in api] == [
        ("job.step_time_s", re.search(r'data-pct-worse="[^"]+"', page).group(0))
    ]


def test_the_node_page_shows_step_times_as_a_count_and_range(client, auth):
    times = [4.2] * 150 + [34.0] + [4.2] * 49
    body = {"facts": {"node.cluster": "train", "job.step_times_s": times}}
    assert client.put("/api/v1/nodes/g9/facts", json=body, headers=auth).status_code == 201
    page = client.get("/nodes/g9").text
    assert re.search(r'data-fact="job.step_times_s">.*?<dd>200 × 4.2 … 34</dd>', page, re.S)
