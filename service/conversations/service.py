"""Conversations: the one `ask` flow (a chat turn for the API, Slack and `bwdoctor ask`), and the turns
kept in the database so any replica can continue a conversation."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from bwdoctor.chat.answer import answer_turn
from bwdoctor.chat.understanding import MAX_QUESTION_CHARS
from bwdoctor.conversations.models import Conversation, Turn
from bwdoctor.conversations.schemas import ConversationOut, TurnOut
from bwdoctor.database import utcnow
from bwdoctor.engine import Engine
from bwdoctor.fabric.service import which_link_is_bad


class ConversationNotFound(LookupError):
    """The client sent a conversation id the service does not know."""


class QuestionTooLong(ValueError):
    """A question longer than the chat reads (MAX_QUESTION_CHARS): refused whole rather than cut, so no
    answer ever rests on a question read only in part."""

    def __init__(self, length: int, limit: int = MAX_QUESTION_CHARS) -> None:
        self.length = length
        self.limit = limit
        super().__init__(
            f"the question is {length:,} characters long; the limit is {limit:,} characters "
            "(paste only the relevant part of a long log)"
        )


def check_question_length(question: str) -> None:
    """Raise QuestionTooLong past the chat's limit; cheap, so every way in calls it before any reading."""
    if len(question) > MAX_QUESTION_CHARS:
        raise QuestionTooLong(len(question))


def ask(
    question: str,
    *,
    engine: Engine,
    db_session: Session | None = None,
    conversation_id: str | None = None,
    lang: str | None = None,
) -> dict[str, Any]:
    """One chat turn, the same wherever it is asked: the facts of the conversation's earlier turns carry
    over and the turn is stored, in a new conversation unless one is given (raises ConversationNotFound
    for an unknown id). Without a session (`bwdoctor ask`) it is one turn on its own, stored nowhere, and
    a question about a cluster's links says it needs the service; with one, the fabric localisation answers.
    A question past the chat's limit raises QuestionTooLong before anything is read or stored."""
    check_question_length(question)
    if db_session is None:
        return answer_turn(question, engine=engine, lang=lang)
    if conversation_id is None:
        conversation_id = create_conversation(db_session=db_session)
        previous_facts: dict[str, Any] = {}
        previous_findings: list[dict[str, Any]] = []
    else:
        previous_facts, previous_findings = previous_state(conversation_id, db_session=db_session)
    result = answer_turn(
        question, engine=engine, previous_facts=previous_facts, previous_findings=previous_findings, lang=lang,
        fabric=lambda cluster, lang: which_link_is_bad(cluster, db_session=db_session, lang=lang),
    )
    add_turn(
        conversation_id,
        db_session=db_session,
        question=question,
        language=str(result["language"]),
        facts=dict(result["facts"]),
        answer=str(result["answer"]),
        findings=list(result["findings"]),
    )
    return {**result, "conversation_id": conversation_id}


def create_conversation(*, db_session: Session) -> str:
    """A new, empty conversation; returns its id."""
    now = utcnow()
    conversation = Conversation(id=uuid.uuid4().hex, created_at=now, updated_at=now)
    db_session.add(conversation)
    db_session.commit()
    return conversation.id


def last_turn(conversation_id: str, *, db_session: Session) -> Turn | None:
    """The newest turn, whose facts and findings the next turn builds on; raises if unknown."""
    if db_session.get(Conversation, conversation_id) is None:
        raise ConversationNotFound(conversation_id)
    return db_session.scalar(
        select(Turn).where(Turn.conversation_id == conversation_id).order_by(Turn.seq.desc()).limit(1)
    )


def previous_state(
    conversation_id: str, *, db_session: Session
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(facts understood so far, findings of the last turn) of a conversation."""
    turn = last_turn(conversation_id, db_session=db_session)
    if turn is None:
        return {}, []
    return dict(turn.facts), list(turn.findings)


def add_turn(
    conversation_id: str,
    *,
    db_session: Session,
    question: str,
    language: str,
    facts: dict[str, Any],
    answer: str,
    findings: list[dict[str, Any]],
) -> int:
    """Append a turn and return its number; two replicas appending at once both succeed, in order."""
    for _ in range(5):
        seq = (
            db_session.scalar(select(func.max(Turn.seq)).where(Turn.conversation_id == conversation_id)) or 0
        ) + 1
        db_session.add(
            Turn(
                conversation_id=conversation_id,
                seq=seq,
                question=question,
                language=language,
                facts=facts,
                answer=answer,
                findings=findings,
                created_at=utcnow(),
            )
        )
        conversation = db_session.get(Conversation, conversation_id)
        if conversation is None:
            raise ConversationNotFound(conversation_id)
        conversation.updated_at = utcnow()
        try:
            db_session.commit()
            return seq
        except IntegrityError:  # another replica took this seq first: take the next one
            db_session.rollback()
    raise RuntimeError(f"could not append a turn to conversation {conversation_id}")


def get_conversation(conversation_id: str, *, db_session: Session) -> ConversationOut:
    """A conversation with all its turns, oldest first."""
    conversation = db_session.get(Conversation, conversation_id)
    if conversation is None:
        raise ConversationNotFound(conversation_id)
    turns = db_session.scalars(select(Turn).where(Turn.conversation_id == conversation_id).order_by(Turn.seq))
    return ConversationOut(
        conversation_id=conversation.id,
        created_at=conversation.created_at,
        updated_at=conversation.updated_at,
        turns=[
            TurnOut(
                seq=t.seq,
                question=t.question,
                language=t.language,
                facts=t.facts,
                answer=t.answer,
                findings=t.findings,
                created_at=t.created_at,
            )
            for t in turns
        ],
    )
