"""Admitting a probe report only with an active probe token (Authorization: Bearer <token>).

The probes' route reads the header itself (FastAPI's dependency machinery costs more than the
rest of that request); PROBE_TOKEN_SCHEME and PROBE_TOKEN_REQUIRED document it in OpenAPI.
Whether a token is active is checked where the report is stored (nodes/writer.py), in one
query for a whole batch of reports.
"""

from __future__ import annotations

from typing import Any

from bwdoctor.errors import Unauthorized

PROBE_TOKEN_SCHEME: dict[str, Any] = {
    "type": "http",
    "scheme": "bearer",
    "description": "a probe token from `bwdoctor tokens create NAME`",
}
PROBE_TOKEN_REQUIRED: list[dict[str, list[str]]] = [{"ProbeToken": []}]


def bearer_token(authorization: str | None) -> str:
    """The token of an `Authorization: Bearer <token>` header; 401 without one."""
    scheme, _, token = (authorization or "").strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise Unauthorized("a probe token is required: Authorization: Bearer <token>", code="token_required")
    return token


def document_probe_tokens(openapi_schema: dict[str, Any]) -> dict[str, Any]:
    """Add the probe token scheme to an OpenAPI document's components."""
    components = openapi_schema.setdefault("components", {})
    components.setdefault("securitySchemes", {})["ProbeToken"] = PROBE_TOKEN_SCHEME
    return openapi_schema
