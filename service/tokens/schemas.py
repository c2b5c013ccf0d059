"""Pydantic views of probe tokens (never the secret or its hash)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel


class TokenInfo(BaseModel):
    """What `bwdoctor tokens list` shows."""

    name: str
    created_at: datetime
    revoked_at: datetime | None = None

    @property
    def active(self) -> bool:
        return self.revoked_at is None
