"""Slack's side of a chat turn: the question as typed, and which conversation a thread is (the turn itself
is `conversations.service.ask`, as for the API and the CLI)."""

from __future__ import annotations

import html
import re

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from bwdoctor.conversations import service as conversations
from bwdoctor.database import utcnow
from bwdoctor.i18n import bilingual
from bwdoctor.slack.models import SlackThread

_MENTION = re.compile(r"<@[A-Z0-9]+(?:\|[^>]*)?>")
_LINK = re.compile(r"<((?:https?|mailto):[^|>]+)(?:\|([^>]*))?>")
_SPECIAL = re.compile(r"<!([a-z]+)(?:\|[^>]*)?>")


def clean_question(text: str) -> str:
    """The question as the person typed it: bot mentions removed, links shown as text, entities decoded
    (never cut: a question past the chat's limit is refused whole, see too_long_reply)."""
    text = _MENTION.sub(" ", text or "")
    text = _LINK.sub(lambda m: m.group(2) or m.group(1), text)
    text = _SPECIAL.sub(lambda m: f"@{m.group(1)}", text)
    text = html.unescape(text).replace("\x00", "")
    return text.strip()


def too_long_reply(question: str) -> str | None:
    """What to tell a Slack user whose question is past the chat's limit (both languages, since it is
    not read), or None when it is within it. Slack shows an HTTP error to nobody, so this is a reply."""
    try:
        conversations.check_question_length(question)
    except conversations.QuestionTooLong as exc:
        return bilingual("slack.too_long", sep=" ", length=exc.length, limit=exc.limit)
    return None


def conversation_for_thread(*, db_session: Session, team_id: str, channel_id: str, thread_ts: str) -> str:
    """The conversation a thread continues, created on its first message; safe when two replicas race."""
    query = select(SlackThread.conversation_id).where(
        SlackThread.team_id == team_id, SlackThread.channel_id == channel_id, SlackThread.thread_ts == thread_ts
    )
    existing = db_session.scalar(query)
    if existing is not None:
        return existing
    conversation_id = conversations.create_conversation(db_session=db_session)
    db_session.add(
        SlackThread(
            team_id=team_id,
            channel_id=channel_id,
            thread_ts=thread_ts,
            conversation_id=conversation_id,
            created_at=utcnow(),
        )
    )
    try:
        db_session.commit()
    except IntegrityError:  # another replica mapped the thread first: use its conversation
        db_session.rollback()
        existing = db_session.scalar(query)
        if existing is None:
            raise
        return existing
    return conversation_id
