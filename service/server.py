"""The HTTP server's own limits: how long a client may take to send a request, and how many
connections a worker holds (uvicorn has a keep-alive timeout and a concurrency cap, but no
deadline for a request's head or body).

Without deadlines a client that sends half a header, or half a body, or nothing at all, holds
its connection (and a file descriptor) for ever, and enough of them starve new requests. The
protocol below closes a connection whose request head has not fully arrived within
BWDOCTOR_HEADER_TIMEOUT_S (counted from the connection's start, or from the previous response)
or whose body has not fully arrived within BWDOCTOR_BODY_TIMEOUT_S of its head. Idle keep-alive
connections close after BWDOCTOR_KEEP_ALIVE_TIMEOUT_S, and past BWDOCTOR_MAX_CONNECTIONS per
worker new connections get 503 (uvicorn's limit_concurrency).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from bwdoctor.config import Settings, get_settings


class DeadlineHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline for each request's head and for its body."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        settings = get_settings()
        self._head_timeout_s = settings.header_timeout_s
        self._body_timeout_s = settings.body_timeout_s
        self._awaiting: str | None = None
        self._deadline: asyncio.TimerHandle | None = None

    def _expect(self, part: str | None) -> None:
        """Wait for `part` ("head" or "body") under its deadline, or for nothing (None)."""
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._awaiting = part
        if part is not None:
            timeout = self._head_timeout_s if part == "head" else self._body_timeout_s
            self._deadline = self.loop.call_later(timeout, self._deadline_passed, part)

    def _deadline_passed(self, part: str) -> None:
        if self._awaiting == part and not self.transport.is_closing():
            self.logger.debug("closing a connection whose request %s did not arrive in time", part)
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._expect("head")

    def connection_lost(self, exc: Exception | None) -> None:
        self._expect(None)
        super().connection_lost(exc)

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self._expect("body")

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._expect(None)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and not self.pipeline:
            self._expect("head")


def uvicorn_limits(settings: Settings) -> dict[str, Any]:
    """The uvicorn.run / uvicorn.Config arguments that bound connections."""
    return {
        "http": DeadlineHttpToolsProtocol,
        "timeout_keep_alive": settings.keep_alive_timeout_s,
        "limit_concurrency": settings.max_connections,
    }
