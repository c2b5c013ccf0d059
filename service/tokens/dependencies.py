"""Admitting a probe report only with an active probe token (Authorization: Bearer <token>)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from service.errors import Unauthorized
from service.tokens.service import verify_token

# Async, so reading the header costs no thread hop; it also documents the scheme in OpenAPI.
bearer = HTTPBearer(auto_error=False, description="a probe token from `bwdoctor tokens create NAME`")
ProbeCredentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def authorize_probe(credentials: HTTPAuthorizationCredentials | None, *, db_session: Session) -> str:
    """The token's name; 401 without a Bearer token or with an unknown or revoked one.

    Called inside the handler (on its thread) rather than as a sync dependency of its own,
    which would cost another thread hop on the hottest route.
    """
    if credentials is None or not credentials.credentials.strip():
        raise Unauthorized("a probe token is required: Authorization: Bearer <token>", code="token_required")
    name = verify_token(credentials.credentials.strip(), db_session=db_session)
    if name is None:
        raise Unauthorized("the probe token is unknown or revoked", code="token_invalid")
    return name
