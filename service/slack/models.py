"""A Slack thread is one conversation: (team, channel, thread_ts) -> conversation id."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bwdoctor.database import Base, UTCDateTime


class SlackThread(Base):
    """Which stored conversation a Slack thread continues; kept in the database so any replica can answer."""

    __tablename__ = "slack_threads"
    __table_args__ = (UniqueConstraint("team_id", "channel_id", "thread_ts"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    team_id: Mapped[str] = mapped_column(String(32), default="")
    channel_id: Mapped[str] = mapped_column(String(32))
    thread_ts: Mapped[str] = mapped_column(String(32))
    conversation_id: Mapped[str] = mapped_column(ForeignKey("conversations.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
