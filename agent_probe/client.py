"""HTTP client for ``PUT /api/v1/nodes/{node_id}/facts`` (httpx; ``transport=`` is the test seam).

Decides what a failure means for the spool: connection errors, timeouts, 408, 429 and 5xx
are worth retrying; 401/403 too (the operator will fix the token, the report must not be
lost); any other 4xx means this report itself is bad and will never be accepted.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx

from bwdoctor_probe import __version__
from bwdoctor_probe.errors import DeliveryError

RETRYABLE_STATUS = {401, 403, 408, 425, 429}


class ProbeClient:
    """One keep-alive connection to the service."""

    def __init__(self, server: str, token: str | None = None, *, timeout_s: float = 10.0,
                 transport: httpx.BaseTransport | None = None) -> None:
        headers = {"User-Agent": f"agent-probe/{__version__}"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.server = server.rstrip("/")
        self._http = httpx.Client(base_url=self.server, headers=headers, timeout=timeout_s, transport=transport)

    def facts_url(self, node_id: str) -> str:
        return f"/api/v1/nodes/{quote(node_id, safe='')}/facts"

    def put_report(self, node_id: str, body: dict[str, Any]) -> None:
        """Deliver one report or raise ``DeliveryError`` saying whether to retry."""
        try:
            response = self._http.put(self.facts_url(node_id), json=body)
        except httpx.HTTPError as exc:
            raise DeliveryError(f"{self.server} unreachable: {type(exc).__name__}: {exc}", retryable=True) from None
        status = response.status_code
        if 200 <= status < 300 or status == 409:  # 409: this report_id was already stored
            return
        message = f"{self.server} answered {status}: {_error_message(response)}"
        if status == 422 and _error_code(response) == "clock_skew":
            message = f"this machine's clock is off (reports are dated in the future): {message}"
        if status in RETRYABLE_STATUS or status >= 500:
            raise DeliveryError(message, retryable=True, retry_after_s=_retry_after(response))
        raise DeliveryError(message, retryable=False)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> ProbeClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _error_message(response: httpx.Response) -> str:
    """The ``{"error": {"message": ...}}`` of the service's error shape, else a short body excerpt."""
    try:
        data = response.json()
        message = data["error"]["message"]
        if isinstance(message, str):
            return message
    except (ValueError, KeyError, TypeError):
        pass
    return response.text[:200].strip() or response.reason_phrase


def _error_code(response: httpx.Response) -> str | None:
    """The error shape's ``code``, if the answer has one."""
    try:
        code = response.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None
    return code if isinstance(code, str) else None


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("Retry-After", "")
    try:
        return max(0.0, float(value))
    except ValueError:
        return None
