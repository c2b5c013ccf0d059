"""Prometheus metrics: requests by route template and status, latency, reports, nodes, findings.

Metrics live in the process-wide registry (each replica exposes its own /metrics; Prometheus
scrapes every replica), created once at import so several apps in one test process share them.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, Histogram, generate_latest
from starlette.types import ASGIApp, Message, Receive, Scope, Send

REQUESTS = Counter(
    "bwdoctor_http_requests_total",
    "HTTP requests by route template and status",
    ["method", "route", "status"],
)
LATENCY = Histogram(
    "bwdoctor_http_request_duration_seconds",
    "HTTP request latency by route template",
    ["method", "route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
INGEST_BATCH = Histogram(
    "bwdoctor_ingest_batch_reports",
    "Reports stored per database transaction (group commit grows batches under load)",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256, 512),
)
REPORTS = Counter("bwdoctor_reports_received_total", "Probe reports received", ["result"])
NODES_REPORTING = Gauge("bwdoctor_nodes_reporting", "Nodes whose latest report is not stale")
FINDINGS = Counter(
    "bwdoctor_findings_total",
    "Findings computed, by category and severity",
    ["category", "severity", "source"],
)


def count_findings(findings: Iterable[dict[str, Any]], source: str) -> None:
    """Count findings by category and severity; `source` says which path computed them."""
    for finding in findings:
        FINDINGS.labels(
            category=str(finding.get("category", "unknown")),
            severity=str(finding.get("severity", "unknown")),
            source=source,
        ).inc()


def render_metrics() -> tuple[bytes, str]:
    """The exposition text and its content type."""
    return generate_latest(), CONTENT_TYPE_LATEST


class MetricsMiddleware:
    """Pure ASGI middleware (cheaper than BaseHTTPMiddleware) that counts and times requests.

    The route label is the matched template (`/api/v1/nodes/{node_id}/facts`), never the raw
    path, so the number of series stays bounded whatever clients send.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def send_with_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_with_status)
        finally:
            route = scope.get("route")
            template = getattr(route, "path", None) or ("unmatched" if status == 404 else "other")
            method = scope.get("method", "")
            REQUESTS.labels(method=method, route=template, status=str(status)).inc()
            LATENCY.labels(method=method, route=template).observe(time.perf_counter() - start)
