"""Issuing, listing, revoking and checking probe tokens.

Tokens are 256-bit secrets.token_urlsafe values; only their SHA-256 is stored, and a presented
token is looked up by its hash (a lookup that reveals nothing useful about any token: an
attacker who can time it learns only about hashes, which cannot be turned back into tokens).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from sqlalchemy import Connection, bindparam, select
from sqlalchemy.orm import Session

from bwdoctor.database import utcnow
from bwdoctor.tokens.models import ProbeToken
from bwdoctor.tokens.schemas import TokenInfo

TOKEN_PREFIX = "bwd_"
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$")


class TokenError(ValueError):
    """A token operation that cannot be done as asked (bad name, duplicate, unknown)."""


def hash_token(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class TokenScope:
    """Where a token may write: one node, one cluster's nodes, or (both None) any node."""

    node_id: str | None = None
    cluster: str | None = None

    def refusal(self, node_id: str, *, reported_cluster: str | None, stored_cluster: str | None) -> str | None:
        """Why this token may not write this node's report, or None when it may.

        A cluster-bound token writes a node only when the node ends up in its cluster and was not in
        another one before: a report cannot move a node out of someone else's cluster into its own.
        """
        if self.node_id is not None and node_id != self.node_id:
            return f"this probe token is bound to node {self.node_id!r}, not {node_id!r}"
        if self.cluster is not None:
            resulting = reported_cluster or stored_cluster
            if resulting != self.cluster or stored_cluster not in (None, self.cluster):
                return f"this probe token is bound to cluster {self.cluster!r}; node {node_id!r} is not in it"
        return None


def create_token(name: str, *, db_session: Session, node_id: str | None = None, cluster: str | None = None) -> str:
    """Issue a token named `name` (optionally bound to one node or one cluster) and return the secret;
    it cannot be recovered later."""
    if not NAME_PATTERN.match(name):
        raise TokenError(f"invalid token name {name!r}: use letters, digits and . _ : @ - (max 128)")
    if node_id is not None and cluster is not None:
        raise TokenError("bind a token to a node or to a cluster, not both")
    for what, value in (("node", node_id), ("cluster", cluster)):
        if value is not None and not NAME_PATTERN.match(value):
            raise TokenError(f"invalid {what} name {value!r}: use letters, digits and . _ : @ - (max 128)")
    if db_session.scalar(select(ProbeToken.id).where(ProbeToken.name == name)) is not None:
        raise TokenError(f"a token named {name!r} already exists; revoke it or choose another name")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    db_session.add(
        ProbeToken(name=name, token_hash=hash_token(token), created_at=utcnow(), node_id=node_id, cluster=cluster)
    )
    db_session.flush()
    return token


def list_tokens(*, db_session: Session) -> list[TokenInfo]:
    """Every token, active or revoked, by name."""
    rows = db_session.scalars(select(ProbeToken).order_by(ProbeToken.name))
    return [
        TokenInfo(name=t.name, created_at=t.created_at, revoked_at=t.revoked_at, node_id=t.node_id, cluster=t.cluster)
        for t in rows
    ]


def revoke_token(name: str, *, db_session: Session) -> bool:
    """Revoke the token `name`; True if it was active, False if it was already revoked."""
    token = db_session.scalar(select(ProbeToken).where(ProbeToken.name == name))
    if token is None:
        raise TokenError(f"no token named {name!r}")
    if token.revoked_at is not None:
        return False
    token.revoked_at = utcnow()
    db_session.flush()
    return True


# Built once: token checks run for every batch of probe reports.
_FIND_ACTIVE_HASHES = select(ProbeToken.token_hash).where(
    ProbeToken.token_hash.in_(bindparam("p_hashes", expanding=True)), ProbeToken.revoked_at.is_(None)
)


_FIND_ACTIVE_SCOPES = select(ProbeToken.token_hash, ProbeToken.node_id, ProbeToken.cluster).where(
    ProbeToken.token_hash.in_(bindparam("p_hashes", expanding=True)), ProbeToken.revoked_at.is_(None)
)


def active_token_hashes(hashes: Collection[str], *, connection: Connection) -> set[str]:
    """Which of these token hashes belong to active tokens: one query for a whole batch of reports."""
    if not hashes:
        return set()
    return set(connection.execute(_FIND_ACTIVE_HASHES, {"p_hashes": list(hashes)}).scalars())


def active_token_scopes(hashes: Collection[str], *, connection: Connection) -> Mapping[str, TokenScope]:
    """The scope of each of these token hashes that belongs to an active token (one query per batch)."""
    if not hashes:
        return {}
    rows = connection.execute(_FIND_ACTIVE_SCOPES, {"p_hashes": list(hashes)})
    return {row.token_hash: TokenScope(node_id=row.node_id, cluster=row.cluster) for row in rows}
