"""Optional read protection: with BWDOCTOR_READ_TOKEN (or a trusted auth-proxy header) set, pages,
API reads, the chat and /metrics need it; probes and Slack keep their own authentication.

Node pages, /api/v1/nodes and /metrics show host names, zones, racks and instance types. On a
private network that is Prometheus's own default, but the service is often reachable from further
(Slack needs a public ingress), so a deployment can require a read token: `Authorization: Bearer
<token>`, a `bwdoctor_read` cookie, or `?token=<token>` once (which sets the cookie for a browser).
Behind an authenticating reverse proxy, BWDOCTOR_TRUSTED_AUTH_HEADER names the header it sets
(e.g. X-Forwarded-User); the proxy must strip that header from what clients send.

Always public: /healthz, /readyz, /slack/* (Slack signs its requests), and the routes probes call
with their probe token (reports, fabric tests, cluster jobs), which check that token themselves.
"""

from __future__ import annotations

import hmac
import json
import re
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bwdoctor.errors import error_body

COOKIE = "bwdoctor_read"
_PUBLIC = re.compile(r"^/(healthz|readyz)$|^/slack/")
# Routes a probe calls with its own token (each checks it): reports, fabric tests, cluster jobs.
_PROBE_ROUTES = re.compile(r"^/api/v1/nodes/[^/]+/(facts|tests/.+)$|^/api/v1/clusters/[^/]+/(job|fabric|fabric/runs)$")


class ReadProtectionMiddleware:
    """401 in the error shape for a protected request without the read token or the proxy header."""

    def __init__(self, app: ASGIApp, *, read_token: str | None, trusted_header: str | None) -> None:
        self.app = app
        self.read_token = read_token or None
        self.trusted_header = trusted_header.lower().encode() if trusted_header else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self._public(scope):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers", ()))
        if self.trusted_header is not None and headers.get(self.trusted_header, b"").strip():
            await self.app(scope, receive, send)
            return
        if self.read_token is not None:
            from_query = self._query_token(scope)
            if (
                self._matches(from_query)
                or self._matches(self._bearer(headers))
                or self._matches(self._cookie(headers))
            ):
                await self.app(scope, receive, self._set_cookie(send) if self._matches(from_query) else send)
                return
        await self._refuse(send)

    def _public(self, scope: Scope) -> bool:
        path, method = scope.get("path", ""), scope.get("method", "GET")
        if _PUBLIC.search(path):
            return True
        return method in ("PUT", "POST") and bool(_PROBE_ROUTES.search(path))

    def _matches(self, presented: str | None) -> bool:
        if not presented or self.read_token is None:
            return False
        return hmac.compare_digest(presented.encode(), self.read_token.encode())

    @staticmethod
    def _bearer(headers: dict[bytes, bytes]) -> str | None:
        scheme, _, token = headers.get(b"authorization", b"").decode("latin-1").partition(" ")
        return token.strip() if scheme.lower() == "bearer" else None

    @staticmethod
    def _cookie(headers: dict[bytes, bytes]) -> str | None:
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get(b"cookie", b"").decode("latin-1"))
        except Exception:  # a malformed cookie header is no credential
            return None
        morsel = cookie.get(COOKIE)
        return morsel.value if morsel else None

    @staticmethod
    def _query_token(scope: Scope) -> str | None:
        values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token")
        return values[0] if values else None

    def _set_cookie(self, send: Send) -> Send:
        """Remember a ?token= in a cookie so the page's own links and scripts carry it."""
        value = f"{COOKIE}={self.read_token}; Path=/; HttpOnly; SameSite=Lax".encode("latin-1")

        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", value)]}
            await send(message)

        return wrapped

    @staticmethod
    async def _refuse(send: Send) -> None:
        body = json.dumps(
            error_body("read_token_required", "this service requires a read token (BWDOCTOR_READ_TOKEN)")
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"www-authenticate", b"Bearer"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
