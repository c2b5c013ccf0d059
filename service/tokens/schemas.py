"""Pydantic views of probe tokens (never the secret or its hash)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel


class TokenInfo(BaseModel):
    """What `bwdoctor tokens list` shows."""

    name: str
    created_at: datetime
    revoked_at: datetime | None = None
    node_id: str | None = None
    cluster: str | None = None

    @property
    def scope(self) -> str:
        """Where the token may write, in words."""
        if self.node_id:
            return f"node {self.node_id}"
        return f"cluster {self.cluster}" if self.cluster else "any node"

    @property
    def active(self) -> bool:
        return self.revoked_at is None
