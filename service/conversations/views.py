"""Chat API: POST /api/v1/ask (one turn, stored) and GET /api/v1/conversations/{id}."""

from __future__ import annotations

import importlib
from typing import Annotated, Any

from fastapi import APIRouter, Path

from service.conversations import service
from service.conversations.schemas import CONVERSATION_ID_PATTERN, AskIn, ConversationOut
from service.database import DbSession
from service.errors import NotFound, ServiceUnavailable
from service.facts import EngineDep
from service.metrics import count_findings

router = APIRouter(prefix="/api/v1", tags=["chat"])


def _answer_turn() -> Any:
    """The chat core's pure answer_turn, imported late so storage works before the chat lands."""
    try:
        return importlib.import_module("service.chat.answer").answer_turn
    except (ImportError, AttributeError):
        return None


def _as_dict(result: Any) -> dict[str, Any]:
    return dict(result.to_dict() if hasattr(result, "to_dict") else result)


@router.post("/ask")
def ask(body: AskIn, db_session: DbSession, engine: EngineDep) -> dict[str, Any]:
    """One chat turn; facts from earlier turns of the same conversation carry over."""
    answer_turn = _answer_turn()
    if answer_turn is None:
        raise ServiceUnavailable("the chat is not available in this build", code="chat_unavailable")
    if body.conversation_id is None:
        conversation_id = service.create_conversation(db_session=db_session)
        previous_facts: dict[str, Any] = {}
        previous_findings: list[dict[str, Any]] = []
    else:
        conversation_id = body.conversation_id
        try:
            previous_facts, previous_findings = service.previous_state(conversation_id, db_session=db_session)
        except service.ConversationNotFound:
            raise NotFound(f"no conversation {conversation_id!r}", code="conversation_not_found") from None
    result = _as_dict(
        answer_turn(
            body.question,
            engine=engine,
            previous_facts=previous_facts,
            previous_findings=previous_findings,
            lang=body.lang,
        )
    )
    service.add_turn(
        conversation_id,
        db_session=db_session,
        question=body.question,
        language=str(result.get("language", body.lang or "en")),
        facts=dict(result.get("facts", {})),
        answer=str(result.get("answer", "")),
        findings=list(result.get("findings", [])),
    )
    count_findings(result.get("findings", []), "ask")
    return {**result, "conversation_id": conversation_id}


@router.get("/conversations/{conversation_id}", response_model=ConversationOut)
def get_conversation(
    conversation_id: Annotated[str, Path(pattern=CONVERSATION_ID_PATTERN)], db_session: DbSession
) -> ConversationOut:
    """A stored conversation with every turn."""
    try:
        return service.get_conversation(conversation_id, db_session=db_session)
    except service.ConversationNotFound:
        raise NotFound(f"no conversation {conversation_id!r}", code="conversation_not_found") from None
