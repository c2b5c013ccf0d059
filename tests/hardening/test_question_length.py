"""Chat question length (issue 14, defect 1): a question past the chat's own limit
(bwdoctor.chat.understanding.MAX_QUESTION_CHARS) is refused whole, naming the limit, before any of it
is read — on POST /api/v1/ask (422 question_too_long), the Slack slash command and mentions (a reply
only the asker sees / in the thread: Slack shows no HTTP error body) and `bwdoctor ask` (exit 2, one line)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from sqlalchemy import func, select

from bwdoctor.chat.understanding import MAX_QUESTION_CHARS
from bwdoctor.conversations import service as conversations
from bwdoctor.conversations.models import Conversation
from bwdoctor.main import create_app
from tests.conftest import REPO
from tests.helpers import assert_error_shape
from tests.slack.conftest import FakeSlack
from tests.slack.test_slack_http import all_text, mention, post_command, post_event

LIMIT_EN = f"{MAX_QUESTION_CHARS:,}"
TOO_LONG = "8 nodes, 10GbE. " * (MAX_QUESTION_CHARS // 16) + "x" * (MAX_QUESTION_CHARS % 16 + 1)


@pytest.fixture
def unread(monkeypatch):
    """Any reading of a question fails the test: the refusal must come first."""

    def read(*_: Any, **__: Any) -> Any:
        raise AssertionError("the question was read")

    monkeypatch.setattr(conversations, "answer_turn", read)


def test_the_limit_is_one_past_what_the_fixture_sends():
    assert len(TOO_LONG) == MAX_QUESTION_CHARS + 1


def test_the_api_refuses_a_long_question_naming_the_limit_and_stores_nothing(client, db_session, unread):
    error = assert_error_shape(client.post("/api/v1/ask", json={"question": TOO_LONG}), 422, "question_too_long")
    assert LIMIT_EN in error["message"] and f"{MAX_QUESTION_CHARS + 1:,}" in error["message"]
    assert error["details"] == {"length": MAX_QUESTION_CHARS + 1, "limit": MAX_QUESTION_CHARS}
    assert db_session.scalar(select(func.count()).select_from(Conversation)) == 0
    # A long question in Chinese is counted in characters, not bytes.
    error = assert_error_shape(client.post("/api/v1/ask", json={"question": "八" * (MAX_QUESTION_CHARS + 1)}), 422)
    assert error["code"] == "question_too_long"


def test_a_question_at_the_limit_is_answered(client):
    at_limit = TOO_LONG[:MAX_QUESTION_CHARS]
    answer = client.post("/api/v1/ask", json={"question": at_limit})
    assert answer.status_code == 200, answer.text
    assert answer.json()["facts"]["nic.speed_gbps"] == 10


def test_the_web_chat_box_takes_as_much_as_the_api(client):
    assert f'maxlength="{MAX_QUESTION_CHARS}"' in client.get("/").text


def test_the_slash_command_says_so_to_the_asker_only(slack_settings_factory, engine, fake_slack: FakeSlack, unread):
    from tests.helpers import live_server

    with live_server(create_app(slack_settings_factory(), engine=engine)) as base:
        response = post_command(base, TOO_LONG)
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["response_type"] == "ephemeral"
        assert LIMIT_EN in body["text"] and str(MAX_QUESTION_CHARS) in all_text(body["blocks"])
        assert "最多只能读" in body["text"]  # both languages: the question was not read to tell which

        assert post_event(base, mention(TOO_LONG, ts="1700000300.000100")).status_code == 200
        reply = fake_slack.wait_for(1)[0]["payload"]
        assert reply["thread_ts"] == "1700000300.000100" and LIMIT_EN in reply["text"]


def test_bwdoctor_ask_exits_2_with_one_line():
    proc = subprocess.run(
        [sys.executable, "-m", "bwdoctor.cli", "ask", TOO_LONG], capture_output=True, text=True, cwd=REPO, timeout=60
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == "" and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("bwdoctor: error: ") and LIMIT_EN in proc.stderr
