"""Probe tokens, stored as SHA-256 hashes only."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from bwdoctor.database import Base, UTCDateTime


class ProbeToken(Base):
    """A named probe credential; the secret itself is never stored, only its hash."""

    __tablename__ = "probe_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(128), unique=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # A token may be bound to one node or one cluster (issue 14); both None: it may write any node.
    node_id: Mapped[str | None] = mapped_column(String(128))
    cluster: Mapped[str | None] = mapped_column(String(128))
