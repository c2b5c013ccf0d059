"""Request body limits, enforced before anything parses the body: its size (before and while it is
read, chunked bodies too) and, for JSON, its nesting depth.

A deep JSON document costs a recursive parser its stack (Python's json raises RecursionError,
which no route expects), so a JSON body nested deeper than `max_json_depth` is refused with 400
here, whatever route it was meant for, by a scan that never recurses.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bwdoctor.documents import json_depth_exceeds
from bwdoctor.errors import error_body


def _replay(messages: list[Message], then: Receive | None = None) -> Receive:
    """A receive callable that hands out `messages`, then defers to `then` (for disconnects)."""
    queue = list(messages)

    async def receive() -> Message:
        if queue:
            return queue.pop(0)
        if then is not None:
            return await then()
        return {"type": "http.disconnect"}

    return receive


def _is_json(scope: Scope) -> bool:
    for name, value in scope.get("headers", ()):
        if name == b"content-type":
            media: bytes = value.split(b";", 1)[0].strip().lower()
            return media == b"application/json" or media.endswith(b"+json")
    return False


class BodySizeLimitMiddleware:
    """413 in the error shape for bodies over `max_bytes`: at once when Content-Length says so,
    otherwise as soon as the streamed body passes the limit. JSON bodies are read whole here and
    nested deeper than `max_json_depth` get 400 before any route parses them."""

    def __init__(self, app: ASGIApp, max_bytes: int, max_json_depth: int = 32) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.max_json_depth = max_json_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > self.max_bytes:
                    await self._reject(send)
                    return
                if not _is_json(scope):
                    # The server holds the client to its declared length, so no counting is needed.
                    await self.app(scope, receive, send)
                    return
                break
        # Chunked, or JSON to check: read up to the limit first, then replay the body to the app.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message]), send)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._reject(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if _is_json(scope) and json_depth_exceeds(body, self.max_json_depth):
            await self._reject(
                send,
                400,
                "json_too_deep",
                f"the JSON body is nested deeper than {self.max_json_depth} levels",
            )
            return
        await self.app(scope, _replay([{"type": "http.request", "body": body, "more_body": False}], receive), send)

    async def _reject(self, send: Send, status: int = 413, code: str = "payload_too_large", message: str = "") -> None:
        message = message or f"request body is larger than {self.max_bytes} bytes"
        body = json.dumps(error_body(code, message)).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
