"""Admitting a probe report only with an active probe token (Authorization: Bearer <token>)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from service.errors import Unauthorized

# Async, so reading the header costs no thread hop; it also documents the scheme in OpenAPI.
bearer = HTTPBearer(auto_error=False, description="a probe token from `bwdoctor tokens create NAME`")
ProbeCredentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def bearer_token(credentials: HTTPAuthorizationCredentials | None) -> str:
    """The presented token; 401 without one. Whether it is active is checked where the report is
    stored (nodes/writer.py), in one query for a whole batch of reports."""
    token = credentials.credentials.strip() if credentials is not None else ""
    if not token:
        raise Unauthorized("a probe token is required: Authorization: Bearer <token>", code="token_required")
    return token
