"""A per-client rate limit for the chat (POST /api/v1/ask and Slack), kept in each worker's memory.

A chat turn costs CPU and a stored row, and anyone who can reach the page can ask; a sliding
window per client (its address, or its Slack user) caps that. Each worker counts on its own, so
with N workers (or replicas) a client gets up to N times the limit: a bound, not an accounting.
The table of clients is capped too, so a flood of addresses cannot grow it without end.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable

from fastapi import Request

from bwdoctor.errors import TooManyRequests

MAX_CLIENTS = 50_000


class RateLimiter:
    """At most `limit` events per `window_s` per key; `limit` 0 turns it off."""

    def __init__(self, limit: int, window_s: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window_s = window_s
        self._clock = clock
        self._hits: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def retry_after(self, key: str) -> float | None:
        """Count one event for `key`; None when allowed, else seconds until the next is."""
        if self.limit <= 0:
            return None
        now = self._clock()
        with self._lock:
            hits = self._hits.pop(key, None) or deque()
            while hits and hits[0] <= now - self.window_s:
                hits.popleft()
            self._hits[key] = hits  # most recently seen last
            if len(self._hits) > MAX_CLIENTS:
                self._hits.popitem(last=False)
            if len(hits) >= self.limit:
                return float(hits[0] + self.window_s - now)
            hits.append(now)
            return None

    def check(self, key: str, what: str = "questions") -> None:
        """TooManyRequests (429 with Retry-After) when `key` is over its limit."""
        wait = self.retry_after(key)
        if wait is not None:
            raise TooManyRequests(
                f"too many {what}: at most {self.limit} per {self.window_s:g} s; retry in {math.ceil(wait)} s",
                retry_after_s=max(1, math.ceil(wait)),
            )


def client_key(request: Request) -> str:
    """The client's address (behind a proxy, uvicorn's proxy_headers has put the forwarded one here)."""
    return request.client.host if request.client else "unknown"


def limit_chat(request: Request) -> None:
    """FastAPI dependency: 429 when this client asks faster than the configured chat rate."""
    limiter: RateLimiter | None = getattr(request.app.state, "chat_limiter", None)
    if limiter is not None:
        limiter.check("ip:" + client_key(request))
