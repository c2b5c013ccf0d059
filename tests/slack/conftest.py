"""Slack test fixtures: the service's database fixtures (SQLite, and PostgreSQL when configured), a local
fake of Slack's Web API on loopback, and helpers that sign requests the way Slack does."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

import pytest

from bwdoctor.config import Settings

SIGNING_SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
BOT_TOKEN = "xoxb-test-0000-token"


def sign(body: bytes, *, secret: str = SIGNING_SECRET, timestamp: int | None = None) -> dict[str, str]:
    """The headers Slack sends: v0 HMAC-SHA256 over "v0:<timestamp>:<body>" with the signing secret."""
    ts = str(int(time.time()) if timestamp is None else timestamp)
    digest = hmac.new(secret.encode(), b"v0:" + ts.encode() + b":" + body, hashlib.sha256).hexdigest()
    return {"X-Slack-Request-Timestamp": ts, "X-Slack-Signature": f"v0={digest}"}


class FakeSlack:
    """A tiny real HTTP server answering Web API calls like Slack does; records every call it gets."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self._cond = threading.Condition()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                if "json" in (self.headers.get("Content-Type") or ""):
                    payload = json.loads(raw or b"{}")
                else:
                    payload = {k: v[0] for k, v in parse_qs(raw.decode()).items()}
                method = self.path.rsplit("/", 1)[-1]
                with fake._cond:
                    fake.calls.append({"method": method, "auth": self.headers.get("Authorization"), "payload": payload})
                    fake._cond.notify_all()
                answer = {"ok": True, "channel": payload.get("channel"), "ts": f"{time.time():.6f}"}
                body = json.dumps(answer).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/api/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def wait_for(self, count: int, timeout_s: float = 20.0) -> list[dict[str, Any]]:
        """Block until `count` calls have arrived (the mention is answered in the background)."""
        deadline = time.monotonic() + timeout_s
        with self._cond:
            while len(self.calls) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"fake Slack got {len(self.calls)} calls, expected {count}")
                self._cond.wait(left)
            return list(self.calls)


@pytest.fixture
def fake_slack() -> Iterator[FakeSlack]:
    fake = FakeSlack()
    fake.thread.start()
    try:
        yield fake
    finally:
        fake.server.shutdown()
        fake.server.server_close()


@pytest.fixture
def slack_settings_factory(database_url: str, fake_slack: FakeSlack) -> Callable[..., Settings]:  # noqa: F811
    def make(**overrides: Any) -> Settings:
        values: dict[str, Any] = {
            "database_url": database_url,
            "migrate_on_start": False,
            "diagnose_reports": False,
            "slack_signing_secret": SIGNING_SECRET,
            "slack_bot_token": BOT_TOKEN,
            "slack_api_base_url": fake_slack.base_url,
        }
        values.update(overrides)
        return Settings(_env_file=None, **values)  # type: ignore[call-arg]

    return make
