"""Block Kit replies and question cleaning, as pure functions (no server)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from bwdoctor.chat.answer import answer_turn
from bwdoctor.config import Settings
from bwdoctor.slack.blocks import build_reply, top_recommendation
from bwdoctor.slack.service import clean_question
from tests.slack.test_slack_http import all_text

HOSTILE = "<@U0ADMIN> <!channel> <https://evil.example|click> & <script>alert(1)</script>"


def finding(**overrides: Any) -> dict[str, Any]:
    base = {
        "rule": "r1",
        "category": "nic-undersized",
        "severity": "warning",
        "confidence": 0.8,
        "title": "title",
        "explanation": "why",
        "evidence": [{"fact": "nic.speed_gbps", "value": 10, "condition": "nic.speed_gbps < 25"}],
        "recommendations": [],
        "source": ["H21"],
    }
    return {**base, **overrides}


def test_every_string_is_escaped_for_mrkdwn() -> None:
    result = {
        "language": "en",
        "answer": HOSTILE,
        "findings": [finding(title=HOSTILE, explanation=HOSTILE)],
        "missing": [{"fact": "x", "question": HOSTILE}],
    }
    fallback, blocks = build_reply(result)
    rendered = all_text(blocks) + fallback
    assert "<@" not in rendered and "<!" not in rendered and "<https" not in rendered and "<script" not in rendered
    assert "&lt;@U0ADMIN&gt;" in rendered and "&amp;" in rendered
    assert "`nic.speed_gbps &lt; 25`" in rendered


def test_severity_has_emoji_and_text_label_in_both_languages() -> None:
    for severity, emoji in (("critical", ":red_circle:"), ("warning", ":warning:"), ("info", ":information_source:")):
        _, blocks = build_reply({"language": "zh", "answer": "结论", "findings": [finding(severity=severity)]})
        text_ = all_text(blocks)
        assert emoji in text_ and {"critical": "严重", "warning": "警告", "info": "提示"}[severity] in text_


def test_long_text_answers_fit_slack_limits() -> None:
    answer = "\n\n".join("paragraph " + "x" * 900 for _ in range(30))
    fallback, blocks = build_reply({"language": "en", "answer": answer, "findings": []})
    assert len(blocks) <= 50 and len(fallback) <= 3000
    assert all(len(b["text"]["text"]) <= 3000 for b in blocks if "text" in b)


def test_many_findings_are_capped() -> None:
    _, blocks = build_reply({"language": "en", "answer": "a", "findings": [finding(rule=f"r{i}") for i in range(60)]})
    assert len(blocks) <= 50


def test_top_recommendation_is_the_first_quantified_one() -> None:
    recs = [{"id": "overlap", "text": "t"}, {"id": "compress", "text": "c", "what_if": [{"label": "x", "values": {}}]}]
    assert top_recommendation(recs)["id"] == "compress"
    assert top_recommendation([{"id": "only"}])["id"] == "only"
    assert top_recommendation([]) is None


def test_real_answer_has_a_section_per_finding_with_what_if_figures(engine: Any) -> None:
    result = answer_turn("100B model, FP16, 8 nodes, 10GbE NICs, data parallel", engine=engine)
    _, blocks = build_reply(result)
    sections = [b for b in blocks if b["type"] == "section" and "*Evidence:*" in b["text"]["text"]]
    assert len(sections) == len(result["findings"]) >= 1
    assert "280 s → 140 s" in sections[0]["text"]["text"]  # ring all-reduce before → after, from the engine


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("<@U0BWDOCTOR> 100B model on 8 nodes", "100B model on 8 nodes"),
        ("<@U0BWDOCTOR|bwdoctor> is x &lt; y &amp;&amp; z?", "is x < y && z?"),
        ("see <https://example.com/log|the log> please", "see the log please"),
        ("<@U0BWDOCTOR>", ""),
    ],
)
def test_clean_question(raw: str, expected: str) -> None:
    assert clean_question(raw) == expected


def test_unconfigured_slack_is_503_not_500(tmp_path: Any, engine: Any) -> None:
    from bwdoctor.main import create_app

    settings = Settings(_env_file=None, database_url=f"sqlite:///{tmp_path / 'x.db'}", diagnose_reports=False)
    with TestClient(create_app(settings, engine=engine)) as client:
        response = client.post("/slack/events", json={"type": "url_verification", "challenge": "c"})
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "slack_not_configured"
