"""The FastAPI dependency that admits a request only with an active probe token."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from service.database import DbSession
from service.errors import Unauthorized
from service.tokens.service import verify_token


def require_probe_token(request: Request, db_session: DbSession) -> str:
    """The token's name; 401 without a Bearer token or with an unknown or revoked one."""
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise Unauthorized("a probe token is required: Authorization: Bearer <token>", code="token_required")
    name = verify_token(value.strip(), db_session=db_session)
    if name is None:
        raise Unauthorized("the probe token is unknown or revoked", code="token_invalid")
    return name


ProbeTokenName = Annotated[str, Depends(require_probe_token)]
