"""The scope check of the probe-token routes other than ingest (fabric tests, cluster settings, job
facts): the same rule as the report writer (TokenScope.refusal), so a token bound to a node or a
cluster acts only there, whichever route it calls."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from bwdoctor.errors import Forbidden, Unauthorized
from bwdoctor.nodes.models import Node
from bwdoctor.tokens.dependencies import bearer_token
from bwdoctor.tokens.service import TokenScope, active_token_scopes, hash_token


def _active_scope(authorization: str | None, db_session: Session) -> TokenScope:
    """The presented token's scope; 401 without a token or with an unknown or revoked one."""
    token_hash = hash_token(bearer_token(authorization))
    scope = active_token_scopes([token_hash], connection=db_session.connection()).get(token_hash)
    if scope is None:
        raise Unauthorized("the probe token is unknown or revoked", code="token_invalid")
    return scope


def require_node_scope(authorization: str | None, node_id: str, *, db_session: Session) -> None:
    """401 without an active token; 403 token_scope when it is bound to another node, or to a
    cluster this node is not stored in."""
    scope = _active_scope(authorization, db_session)
    if scope.node_id is None and scope.cluster is None:
        return
    stored = db_session.scalar(select(Node.cluster).where(Node.id == node_id)) if scope.cluster else None
    why = scope.refusal(node_id, reported_cluster=None, stored_cluster=stored)
    if why is not None:
        raise Forbidden(why, code="token_scope")


def require_cluster_scope(authorization: str | None, cluster: str, *, db_session: Session) -> None:
    """401 without an active token; 403 token_scope unless it is unbound or bound to this cluster.
    A node-bound token changes nothing cluster-wide: one node's probe does not speak for its cluster."""
    scope = _active_scope(authorization, db_session)
    if scope.node_id is not None:
        raise Forbidden(
            f"this probe token is bound to node {scope.node_id!r}; settings of cluster {cluster!r} need a token "
            f"bound to that cluster or an unbound one",
            code="token_scope",
        )
    if scope.cluster is not None and scope.cluster != cluster:
        raise Forbidden(f"this probe token is bound to cluster {scope.cluster!r}, not {cluster!r}", code="token_scope")
