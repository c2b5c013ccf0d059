"""Bodies of the chat API and stored conversations."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

from bwdoctor.chat.understanding import MAX_QUESTION_CHARS

CONVERSATION_ID_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"


class AskIn(BaseModel):
    """A question, optionally continuing a conversation (its facts carry over)."""

    # Its length is checked in the view against the chat's own limit (422 question_too_long naming it).
    question: str = Field(min_length=1, description=f"at most {MAX_QUESTION_CHARS:,} characters")
    conversation_id: str | None = Field(default=None, pattern=CONVERSATION_ID_PATTERN)
    lang: Literal["en", "zh"] | None = Field(
        default=None, description="reply language; default: the question's"
    )

    @field_validator("question")
    @classmethod
    def _no_nul(cls, value: str) -> str:
        if "\x00" in value:
            raise ValueError("the question contains a NUL character")
        if not value.strip():
            raise ValueError("the question is empty")
        return value


class TurnOut(BaseModel):
    seq: int
    question: str
    language: str
    facts: dict[str, Any]
    answer: str
    findings: list[dict[str, Any]]
    created_at: datetime


class ConversationOut(BaseModel):
    conversation_id: str
    created_at: datetime
    updated_at: datetime
    turns: list[TurnOut]
