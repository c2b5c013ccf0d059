"""Conversation retention: conversations untouched for BWDOCTOR_CONVERSATION_RETENTION_DAYS are deleted.

Every anonymous chat turn is stored (several KB each), so without this the table grows for
ever. Deleted a batch at a time, oldest first, like reports; their turns and Slack thread
mappings go with them (ON DELETE CASCADE).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from bwdoctor.conversations.models import Conversation


def prune_conversations(*, db_session: Session, older_than: datetime, batch_size: int = 1000) -> int:
    """Delete conversations last updated before `older_than`; returns how many."""
    oldest = (
        select(Conversation.id)
        .where(Conversation.updated_at < older_than)
        .order_by(Conversation.updated_at)
        .limit(batch_size)
    )
    removed = 0
    while True:
        ids = list(db_session.scalars(oldest))
        if not ids:
            return removed
        result = db_session.execute(delete(Conversation).where(Conversation.id.in_(ids)))
        db_session.commit()
        removed += int(getattr(result, "rowcount", 0) or 0)
        if len(ids) < batch_size:
            return removed
