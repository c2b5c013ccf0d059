"""Answering Slack questions with the web's chat core, and remembering which conversation a thread is."""

from __future__ import annotations

import html
import re
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from service.chat.answer import answer_turn
from service.conversations import service as conversations
from service.database import utcnow
from service.engine import Engine
from service.slack.models import SlackThread

MAX_QUESTION_CHARS = 4000
_MENTION = re.compile(r"<@[A-Z0-9]+(?:\|[^>]*)?>")
_LINK = re.compile(r"<((?:https?|mailto):[^|>]+)(?:\|([^>]*))?>")
_SPECIAL = re.compile(r"<!([a-z]+)(?:\|[^>]*)?>")


def clean_question(text: str) -> str:
    """The question as the person typed it: bot mentions removed, links shown as text, entities decoded."""
    text = _MENTION.sub(" ", text or "")
    text = _LINK.sub(lambda m: m.group(2) or m.group(1), text)
    text = _SPECIAL.sub(lambda m: f"@{m.group(1)}", text)
    text = html.unescape(text).replace("\x00", "")
    return text.strip()[:MAX_QUESTION_CHARS]


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


def answer_in_conversation(
    question: str, *, db_session: Session, engine: Engine, conversation_id: str
) -> dict[str, Any]:
    """One chat turn exactly as POST /api/v1/ask does it: earlier facts carry over, the turn is stored."""
    previous_facts, previous_findings = conversations.previous_state(conversation_id, db_session=db_session)
    result = dict(
        answer_turn(
            question,
            engine=engine,
            previous_facts=previous_facts,
            previous_findings=previous_findings,
            lang=None,
        )
    )
    conversations.add_turn(
        conversation_id,
        db_session=db_session,
        question=question,
        language=str(result.get("language", "en")),
        facts=dict(result.get("facts", {})),
        answer=str(result.get("answer", "")),
        findings=list(result.get("findings", [])),
    )
    return {**result, "conversation_id": conversation_id}
