"""Chat API: POST /api/v1/ask (one turn, stored) and GET /api/v1/conversations/{id}."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path

from bwdoctor.conversations import service
from bwdoctor.conversations.schemas import CONVERSATION_ID_PATTERN, AskIn, ConversationOut
from bwdoctor.database import DbSession
from bwdoctor.errors import NotFound, Unprocessable
from bwdoctor.facts import EngineDep
from bwdoctor.metrics import count_findings
from bwdoctor.ratelimit import limit_chat

router = APIRouter(prefix="/api/v1", tags=["chat"])


@router.post("/ask", dependencies=[Depends(limit_chat)])
def ask(body: AskIn, db_session: DbSession, engine: EngineDep) -> dict[str, Any]:
    """One chat turn; facts from earlier turns of the same conversation carry over. A question past
    the chat's limit is a 422 question_too_long naming the limit, before any of it is read."""
    try:
        service.check_question_length(body.question)
    except service.QuestionTooLong as exc:
        details = {"length": exc.length, "limit": exc.limit}
        raise Unprocessable(str(exc), code="question_too_long", details=details) from None
    try:
        result = service.ask(
            body.question,
            engine=engine,
            db_session=db_session,
            conversation_id=body.conversation_id,
            lang=body.lang,
        )
    except service.ConversationNotFound:
        raise NotFound(f"no conversation {body.conversation_id!r}", code="conversation_not_found") from None
    count_findings(result["findings"], "ask")
    return result


@router.get("/conversations/{conversation_id}", response_model=ConversationOut)
def get_conversation(
    conversation_id: Annotated[str, Path(pattern=CONVERSATION_ID_PATTERN)], db_session: DbSession
) -> ConversationOut:
    """A stored conversation with every turn."""
    try:
        return service.get_conversation(conversation_id, db_session=db_session)
    except service.ConversationNotFound:
        raise NotFound(f"no conversation {conversation_id!r}", code="conversation_not_found") from None
