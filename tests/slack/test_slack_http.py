"""The Slack endpoints over real HTTP (uvicorn on a loopback port, httpx), on SQLite and PostgreSQL:
signatures, url_verification, app mentions answered in thread through a local fake of Slack's Web API,
a thread kept as one conversation, and the /bwdoctor slash command."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest
from sqlalchemy import create_engine, text

from bwdoctor.config import Settings
from bwdoctor.main import create_app
from tests.helpers import assert_error_shape, live_server
from tests.slack.conftest import FakeSlack, sign

FIRST = "We train a 100B parameter model with data parallelism on 8 nodes, FP16, and the NICs are 10GbE"
FOLLOW_UP = "GPU utilisation is only 40%"


@pytest.fixture
def service(slack_settings_factory: Callable[..., Settings], engine: Any) -> Iterator[str]:
    app = create_app(slack_settings_factory(), engine=engine)
    with live_server(app) as base:
        yield base


def post_event(base: str, payload: dict[str, Any], **sign_kwargs: Any) -> httpx.Response:
    body = json.dumps(payload).encode()
    headers = {"Content-Type": "application/json", **sign(body, **sign_kwargs)}
    return httpx.post(f"{base}/slack/events", content=body, headers=headers, timeout=30)


def mention(text_: str, *, ts: str, thread_ts: str | None = None, channel: str = "C0TRAIN") -> dict[str, Any]:
    event: dict[str, Any] = {
        "type": "app_mention",
        "user": "U0ALICE",
        "text": f"<@U0BWDOCTOR> {text_}",
        "ts": ts,
        "channel": channel,
        "event_ts": ts,
    }
    if thread_ts:
        event["thread_ts"] = thread_ts
    return {
        "token": "legacy-unused",
        "team_id": "T0TEAM",
        "api_app_id": "A0APP",
        "event": event,
        "type": "event_callback",
        "event_id": f"Ev{ts.replace('.', '')}",
        "event_time": int(time.time()),
    }


def all_text(blocks: list[dict[str, Any]]) -> str:
    """Every piece of text in a Block Kit payload, joined."""
    parts: list[str] = []
    for block in blocks:
        if "text" in block:
            parts.append(block["text"]["text"])
        for element in block.get("elements", []):
            parts.append(element.get("text", ""))
    return "\n".join(parts)


def test_url_verification_returns_the_challenge(service: str) -> None:
    response = post_event(service, {"type": "url_verification", "token": "x", "challenge": "3eZbrw1aBm2rZgRNFdxV"})
    assert response.status_code == 200
    assert response.json() == {"challenge": "3eZbrw1aBm2rZgRNFdxV"}


def test_wrong_signature_is_401(service: str) -> None:
    response = post_event(service, {"type": "url_verification", "challenge": "c"}, secret="not-the-secret")
    assert_error_shape(response, 401, "invalid_signature")


def test_body_changed_after_signing_is_401(service: str) -> None:
    body = json.dumps({"type": "url_verification", "challenge": "c"}).encode()
    headers = {"Content-Type": "application/json", **sign(body)}
    response = httpx.post(f"{service}/slack/events", content=body.replace(b'"c"', b'"d"'), headers=headers)
    assert_error_shape(response, 401, "invalid_signature")


def test_stale_timestamp_is_401_even_when_correctly_signed(service: str) -> None:
    response = post_event(service, {"type": "url_verification", "challenge": "c"}, timestamp=int(time.time()) - 6 * 60)
    assert_error_shape(response, 401, "stale_request")


def test_a_future_timestamp_is_refused_as_in_the_future_not_old(service: str) -> None:
    response = post_event(service, {"type": "url_verification", "challenge": "c"}, timestamp=int(time.time()) + 6 * 60)
    assert_error_shape(response, 401, "stale_request")
    message = response.json()["error"]["message"]
    assert "in the future" in message and "older" not in message


def test_missing_signature_headers_are_401(service: str) -> None:
    response = httpx.post(f"{service}/slack/events", json={"type": "url_verification", "challenge": "c"})
    assert_error_shape(response, 401, "invalid_signature")
    response = httpx.post(f"{service}/slack/commands", data={"text": "hi"})
    assert_error_shape(response, 401, "invalid_signature")


def test_signed_garbage_is_400_not_500(service: str) -> None:
    for body in (b"{not json", b"[1, 2]", b'{"type": "url_verification", "challenge": 7}'):
        response = httpx.post(f"{service}/slack/events", content=body, headers=sign(body))
        assert_error_shape(response, 400)
    body = b"\xff\xfe not utf-8"  # Slack only sends UTF-8, so this cannot be a genuine request
    assert_error_shape(httpx.post(f"{service}/slack/events", content=body, headers=sign(body)), 401)


def test_app_mention_is_answered_in_thread_and_the_thread_continues(
    service: str, fake_slack: FakeSlack, database_url: str
) -> None:
    response = post_event(service, mention(FIRST, ts="1700000000.000100"))
    assert response.status_code == 200, response.text

    call = fake_slack.wait_for(1)[0]
    assert call["method"] == "chat.postMessage"
    assert call["auth"] == "Bearer xoxb-test-0000-token"
    payload = call["payload"]
    assert payload["channel"] == "C0TRAIN"
    assert payload["thread_ts"] == "1700000000.000100"  # a top-level mention starts a thread on itself
    blocks = payload["blocks"] if isinstance(payload["blocks"], list) else json.loads(payload["blocks"])
    rendered = all_text(blocks)
    assert ":red_circle: *CRITICAL*" in rendered
    assert "nic.speed_gbps" in rendered or "comm.link_gbps" in rendered  # the evidence
    assert "→" in rendered  # a what-if figure: before → after
    assert blocks[-1]["type"] == "context" and "H2" in rendered  # sources
    assert payload["text"]  # notification fallback

    # A reply in the same thread (thread_ts = the first mention) continues the conversation.
    response = post_event(service, mention(FOLLOW_UP, ts="1700000050.000200", thread_ts="1700000000.000100"))
    assert response.status_code == 200
    second = fake_slack.wait_for(2)[1]["payload"]
    assert second["thread_ts"] == "1700000000.000100"

    db = create_engine(database_url)
    with db.connect() as conn:
        rows = conn.execute(text("SELECT conversation_id, thread_ts FROM slack_threads")).all()
        assert len(rows) == 1 and rows[0].thread_ts == "1700000000.000100"
        conversation_id = rows[0].conversation_id
    db.dispose()
    conversation = httpx.get(f"{service}/api/v1/conversations/{conversation_id}").json()
    assert [t["question"] for t in conversation["turns"]] == [FIRST, FOLLOW_UP]
    facts = conversation["turns"][1]["facts"]
    assert facts["job.model_params_b"] == 100 and facts["nic.speed_gbps"] == 10  # carried over from turn 1
    assert facts["gpu.util_pct"] == 40  # added by turn 2
    assert "gpu.util_pct" not in conversation["turns"][0]["facts"]


def test_a_different_thread_is_a_different_conversation(service: str, fake_slack: FakeSlack, database_url: str) -> None:
    post_event(service, mention(FIRST, ts="1700000100.000100"))
    post_event(service, mention(FOLLOW_UP, ts="1700000200.000100"))
    calls = fake_slack.wait_for(2)
    assert {c["payload"]["thread_ts"] for c in calls} == {"1700000100.000100", "1700000200.000100"}
    db = create_engine(database_url)
    with db.connect() as conn:
        assert conn.execute(text("SELECT count(DISTINCT conversation_id) FROM slack_threads")).scalar() == 2
    db.dispose()


def test_slack_retries_and_bot_messages_are_not_answered_twice(service: str, fake_slack: FakeSlack) -> None:
    payload = mention(FIRST, ts="1700000300.000100")
    body = json.dumps(payload).encode()
    retry = {"Content-Type": "application/json", "X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"}
    assert httpx.post(f"{service}/slack/events", content=body, headers={**retry, **sign(body)}).status_code == 200
    bot = mention("loop?", ts="1700000301.000100")
    bot["event"]["bot_id"] = "B0SELF"
    assert post_event(service, bot).status_code == 200
    assert post_event(service, {"type": "event_callback", "event": {"type": "reaction_added"}}).status_code == 200
    time.sleep(0.5)
    assert fake_slack.calls == []


def post_command(base: str, text_: str, **sign_kwargs: Any) -> httpx.Response:
    form = {
        "token": "legacy-unused",
        "team_id": "T0TEAM",
        "channel_id": "C0TRAIN",
        "user_id": "U0ALICE",
        "command": "/bwdoctor",
        "text": text_,
        "response_url": "https://hooks.slack.invalid/commands/1",
        "trigger_id": "1.2.3",
    }
    body = urlencode(form).encode()
    headers = {"Content-Type": "application/x-www-form-urlencoded", **sign(body, **sign_kwargs)}
    return httpx.post(f"{base}/slack/commands", content=body, headers=headers, timeout=30)


def test_slash_command_answers_in_channel_with_the_findings(service: str, fake_slack: FakeSlack) -> None:
    response = post_command(service, "我们用8台机器做数据并行，训练一个100B参数的模型，FP16，网卡是10GbE")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["response_type"] == "in_channel"
    rendered = all_text(body["blocks"])
    assert ":red_circle: *严重*" in rendered  # the reply follows the question's language
    assert "依据" in rendered and "首选建议" in rendered
    assert fake_slack.calls == []  # answered in the response itself


def test_slash_command_help_is_ephemeral(service: str) -> None:
    for text_ in ("", "help"):
        body = post_command(service, text_).json()
        assert body["response_type"] == "ephemeral" and "/bwdoctor" in body["text"]


def test_slash_command_signature_errors_are_401(service: str) -> None:
    assert_error_shape(post_command(service, "hi", secret="wrong"), 401, "invalid_signature")
    assert_error_shape(post_command(service, "hi", timestamp=int(time.time()) - 3600), 401, "stale_request")


def test_slash_command_never_500s(service: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import bwdoctor.slack.views as views

    def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("chat core exploded")

    monkeypatch.setattr(views.conversations, "ask", broken)
    response = post_command(service, "100B model, 8 nodes, 10GbE")
    assert response.status_code == 200
    assert response.json()["response_type"] == "ephemeral"
