"""Slack endpoints: POST /slack/events (url_verification, app mentions) and POST /slack/commands (/bwdoctor).

Every request's signature is checked on the raw body before it is parsed. Mentions are acknowledged at
once and answered in the thread from a background task (Slack wants its 200 within three seconds); the
slash command is answered in the response itself, since the chat core is fast and in-process. Neither
route lets an internal failure become a 500 that Slack would show as "dispatch_failed".
"""

from __future__ import annotations

import json
import logging
from typing import Any
from urllib.parse import parse_qs

from fastapi import APIRouter, BackgroundTasks, FastAPI, Request
from fastapi.concurrency import run_in_threadpool

from bwdoctor.conversations import service as conversations
from bwdoctor.errors import BadRequest
from bwdoctor.i18n import bilingual
from bwdoctor.slack.blocks import build_reply, escape
from bwdoctor.slack.client import post_reply
from bwdoctor.slack.service import clean_question, conversation_for_thread, too_long_reply
from bwdoctor.slack.verify import verify_slack_request

log = logging.getLogger("bwdoctor.slack")

router = APIRouter(prefix="/slack", tags=["slack"])

# Slack does not tell us the user's language: help and apology are said in both (service/messages/slack.yaml).
HELP_TEXT = bilingual("slack.help")
SORRY = bilingual("slack.sorry", sep=" ")


def _help_blocks() -> list[dict[str, Any]]:
    return [{"type": "section", "text": {"type": "mrkdwn", "text": HELP_TEXT}}]


def _text_block(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": escape(text)}}


def answer_mention(app: FastAPI, team_id: str, event: dict[str, Any]) -> None:
    """Answer an app mention in its thread; the thread's earlier turns carry their facts over."""
    settings = app.state.settings
    channel = str(event.get("channel") or "")
    thread_ts = str(event.get("thread_ts") or event.get("ts") or "")
    if not channel or not thread_ts:
        log.warning("app_mention without channel or ts ignored")
        return
    question = clean_question(str(event.get("text") or ""))
    if not question:
        post_reply(settings, channel=channel, thread_ts=thread_ts, text=HELP_TEXT, blocks=_help_blocks())
        return
    too_long = too_long_reply(question)
    if too_long is not None:
        post_reply(settings, channel=channel, thread_ts=thread_ts, text=too_long, blocks=[_text_block(too_long)])
        return
    try:
        with app.state.sessionmaker() as db_session:
            conversation_id = conversation_for_thread(
                db_session=db_session, team_id=team_id, channel_id=channel, thread_ts=thread_ts
            )
            result = conversations.ask(
                question, engine=app.state.engine, db_session=db_session, conversation_id=conversation_id
            )
        text, blocks = build_reply(result)
    except Exception:
        log.exception("answering a Slack mention in %s failed", channel)
        text, blocks = SORRY, [{"type": "section", "text": {"type": "mrkdwn", "text": escape(SORRY)}}]
    post_reply(settings, channel=channel, thread_ts=thread_ts, text=text, blocks=blocks)


def _parse_event(body: bytes) -> dict[str, Any]:
    try:
        payload = json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise BadRequest("the Slack event body is not JSON (or is nested too deeply)", code="invalid_json") from None
    if not isinstance(payload, dict):
        raise BadRequest("the Slack event body is not a JSON object", code="invalid_json")
    return payload


@router.post("/events")
async def slack_events(request: Request, background: BackgroundTasks) -> dict[str, Any]:
    """Slack's Events API: answers the url_verification challenge; app mentions are answered in thread."""
    body = await request.body()
    verify_slack_request(request.app.state.settings, request.headers, body)
    payload = _parse_event(body)
    kind = payload.get("type")
    if kind == "url_verification":
        challenge = payload.get("challenge")
        if not isinstance(challenge, str):
            raise BadRequest("url_verification without a challenge", code="invalid_event")
        return {"challenge": challenge}
    if kind != "event_callback":
        return {"ok": True}
    if request.headers.get("x-slack-retry-num"):
        # We acknowledge at once and answer in the background, so a retry repeats a delivered event.
        return {"ok": True}
    event = payload.get("event")
    if isinstance(event, dict) and event.get("type") == "app_mention" and not event.get("bot_id"):
        user = _slack_user(str(payload.get("team_id") or ""), str(event.get("user") or ""))
        if request.app.state.chat_limiter.retry_after(user) is not None:
            # Not 429: Slack would deliver the event again. The mention is left unanswered.
            log.warning("Slack user %s is over the chat rate limit; mention not answered", user)
            return {"ok": True}
        background.add_task(answer_mention, request.app, str(payload.get("team_id") or ""), event)
    return {"ok": True}


def _slack_user(team_id: str, user_id: str) -> str:
    """The rate limit's key for a Slack user (the request comes from Slack's addresses, not theirs)."""
    return f"slack:{team_id[:32]}:{user_id[:32]}"


def _answer_command(app: FastAPI, text: str) -> dict[str, Any]:
    """A slash command starts a conversation of its own (its reply is not a thread we can follow)."""
    with app.state.sessionmaker() as db_session:
        return conversations.ask(text, engine=app.state.engine, db_session=db_session)


@router.post("/commands")
async def slack_commands(request: Request) -> dict[str, Any]:
    """The /bwdoctor slash command, answered in the response (in_channel), or an ephemeral note on failure."""
    body = await request.body()
    verify_slack_request(request.app.state.settings, request.headers, body)
    form = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
    request.app.state.chat_limiter.check(_slack_user(form.get("team_id", [""])[0], form.get("user_id", [""])[0]))
    text = clean_question(form.get("text", [""])[0])
    if not text or text.lower() in {"help", "帮助", "?"}:
        return {"response_type": "ephemeral", "text": HELP_TEXT, "blocks": _help_blocks()}
    too_long = too_long_reply(text)
    if too_long is not None:  # 200 with a note only the asker sees: Slack shows no HTTP error body
        return {"response_type": "ephemeral", "text": too_long, "blocks": [_text_block(too_long)]}
    try:
        result = await run_in_threadpool(_answer_command, request.app, text)
        fallback, blocks = build_reply(result)
    except Exception:
        log.exception("answering /bwdoctor failed")
        return {"response_type": "ephemeral", "text": SORRY}
    return {"response_type": "in_channel", "text": fallback, "blocks": blocks}
