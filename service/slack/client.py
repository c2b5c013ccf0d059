"""Posting replies with slack_sdk's WebClient; the base URL comes from settings so tests use a local fake."""

from __future__ import annotations

import logging
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bwdoctor.config import Settings

log = logging.getLogger("bwdoctor.slack")


def web_client(settings: Settings) -> WebClient | None:
    """A WebClient with the bot token, or None when no token is configured."""
    token = settings.slack.bot_token
    if token is None or not token.get_secret_value():
        return None
    base_url = settings.slack.api_base_url
    return WebClient(
        token=token.get_secret_value(), base_url=base_url if base_url.endswith("/") else base_url + "/", timeout=10
    )


def post_reply(settings: Settings, *, channel: str, thread_ts: str, text: str, blocks: list[dict[str, Any]]) -> bool:
    """chat.postMessage in the thread; failures are logged (Slack already has its 200), never raised."""
    client = web_client(settings)
    if client is None:
        log.warning("BWDOCTOR_SLACK_BOT_TOKEN is not set: cannot reply in %s", channel)
        return False
    try:
        client.chat_postMessage(channel=channel, thread_ts=thread_ts, text=text, blocks=blocks, unfurl_links=False)
    except SlackApiError as exc:
        log.warning("chat.postMessage to %s failed: %s", channel, exc.response.get("error", exc))
        return False
    except Exception:
        log.warning("chat.postMessage to %s failed", channel, exc_info=True)
        return False
    return True
