"""The application factory and the server entry point used by `bwdoctor serve`."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.concurrency import run_in_threadpool
from sqlalchemy import text

from bwdoctor.clusters.views import router as clusters_router
from bwdoctor.config import Settings, get_settings
from bwdoctor.conversations.retention import prune_conversations
from bwdoctor.conversations.views import router as conversations_router
from bwdoctor.database import make_async_engine, make_engine, make_sessionmaker, utcnow, wait_for_database
from bwdoctor.diagnosis.views import router as diagnosis_router
from bwdoctor.engine import Engine, load_engine
from bwdoctor.errors import ServiceUnavailable, install_error_handlers
from bwdoctor.fabric.views import router as fabric_router
from bwdoctor.jobs.views import router as jobs_router
from bwdoctor.limits import BodySizeLimitMiddleware
from bwdoctor.metrics import NODES_REPORTING, MetricsMiddleware, render_metrics
from bwdoctor.migrations import upgrade_database
from bwdoctor.nodes.diagnoser import ReportDiagnoser
from bwdoctor.nodes.service import count_nodes_reporting, prune_reports
from bwdoctor.nodes.views import router as nodes_router
from bwdoctor.nodes.writer import ReportWriter
from bwdoctor.preflight.views import router as preflight_router
from bwdoctor.ratelimit import RateLimiter
from bwdoctor.readauth import ReadProtectionMiddleware
from bwdoctor.slack.views import router as slack_router
from bwdoctor.tokens.dependencies import document_probe_tokens
from bwdoctor.web.clusters import router as web_clusters_router
from bwdoctor.web.sources_page import router as sources_router
from bwdoctor.web.views import router as web_router

log = logging.getLogger("bwdoctor")

# Adding an adapter (web pages, Slack) is one line here. Routes are matched in this order, so
# the probes' route, a thousand requests a second on a fleet, comes first.
ROUTERS: list[APIRouter] = [
    nodes_router,
    diagnosis_router,
    clusters_router,
    jobs_router,
    fabric_router,
    preflight_router,
    conversations_router,
    web_clusters_router,
    web_router,
    sources_router,
    slack_router,
]

ops_router = APIRouter(tags=["operations"])


@ops_router.get("/healthz")
def healthz() -> dict[str, str]:
    """Liveness: the process answers (no database check, so a DB outage does not restart replicas)."""
    return {"status": "ok"}


@ops_router.get("/readyz")
def readyz(request: Request) -> dict[str, str]:
    """Readiness for a load balancer: 503 while the database is unreachable."""
    try:
        with request.app.state.db_engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except Exception as exc:
        raise ServiceUnavailable("the database is not reachable", code="database_unavailable") from exc
    return {"status": "ready"}


@ops_router.get("/metrics", include_in_schema=False)
def metrics(request: Request) -> Response:
    """Prometheus exposition; refreshes the nodes-reporting gauge from the database first."""
    settings: Settings = request.app.state.settings
    try:
        with request.app.state.sessionmaker() as db_session:
            since = utcnow() - timedelta(seconds=settings.stale_after_s)
            NODES_REPORTING.set(count_nodes_reporting(db_session=db_session, since=since))
    except Exception:  # metrics must still render while the database is away
        log.debug("nodes-reporting gauge not refreshed", exc_info=True)
    body, content_type = render_metrics()
    return Response(body, media_type=content_type)


def prune_once(app: FastAPI) -> int:
    """Delete reports older than the retention period (each node's latest is kept)."""
    settings: Settings = app.state.settings
    with app.state.sessionmaker() as db_session:
        older_than = utcnow() - timedelta(days=settings.retention_days)
        removed = prune_reports(db_session=db_session, older_than=older_than)
        chats_before = utcnow() - timedelta(days=settings.conversation_retention_days)
        chats = prune_conversations(db_session=db_session, older_than=chats_before)
    if removed:
        log.info("pruned %d reports older than %s days", removed, settings.retention_days)
    if chats:
        log.info("pruned %d conversations idle for %s days", chats, settings.conversation_retention_days)
    return removed


async def _prune_periodically(app: FastAPI, interval_s: float) -> None:
    while True:
        try:
            await run_in_threadpool(prune_once, app)
        except Exception:  # e.g. the database is away: try again next time
            log.warning("pruning old reports failed; will retry", exc_info=True)
        await asyncio.sleep(interval_s)


def create_app(settings: Settings | None = None, *, engine: Engine | None = None) -> FastAPI:
    """The service as an ASGI app; everything it keeps lives in the database, so replicas are equal."""
    settings = settings or get_settings()
    if engine is None:
        engine = load_engine(extra_dirs=settings.rules_dir_paths)
        for warning in engine.warnings:  # a broken or hostile user rule file: skipped, said once at start
            log.warning("user rules skipped: %s", warning)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.migrate_on_start:
            await run_in_threadpool(upgrade_database, settings.database_url)
        pruner = asyncio.create_task(_prune_periodically(app, settings.prune_interval_s))
        if app.state.diagnoser is not None:
            app.state.diagnoser.start()
        # What start-up loaded (rules, routes, models) lives as long as the process: moving it out
        # of the collector's sight keeps full collections from adding ~100 ms to a request.
        gc.collect()
        gc.freeze()
        try:
            yield
        finally:
            await app.state.report_writer.stop()  # store what is queued first
            if app.state.diagnoser is not None:
                app.state.diagnoser.stop()
            pruner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pruner
            app.state.db_engine.dispose()
            await app.state.async_db_engine.dispose()

    app = FastAPI(
        title="Bandwidth Doctor",
        version="0.1.0",
        description="Finds why distributed deep-learning training is slow: the network, the storage, "
        "or something else, with the numbers.",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.engine = engine
    app.state.db_engine = make_engine(settings.database_url, settings)
    app.state.sessionmaker = make_sessionmaker(app.state.db_engine)
    app.state.async_db_engine = make_async_engine(settings.database_url, settings)
    app.state.report_writer = ReportWriter(
        app.state.async_db_engine,
        max_batch=settings.ingest_batch_max,
        max_queue=settings.ingest_queue_max,
        linger_s=settings.ingest_linger_s,
    )
    app.state.diagnoser = (
        ReportDiagnoser(
            app.state.sessionmaker,
            engine,
            interval_s=settings.diagnose_interval_s,
            max_per_s=settings.diagnose_max_per_s,
        )
        if settings.diagnose_reports
        else None
    )

    app.state.chat_limiter = RateLimiter(settings.ask_rate_limit, settings.ask_rate_window_s)
    install_error_handlers(app, retry_after_s=settings.retry_after_s)
    app.add_middleware(
        BodySizeLimitMiddleware, max_bytes=settings.max_body_bytes, max_json_depth=settings.max_json_depth
    )
    if settings.read_token is not None or settings.trusted_auth_header:
        app.add_middleware(
            ReadProtectionMiddleware,
            read_token=settings.read_token.get_secret_value() if settings.read_token else None,
            trusted_header=settings.trusted_auth_header,
        )
    app.add_middleware(MetricsMiddleware)
    for router in ROUTERS:
        app.include_router(router)
    app.include_router(ops_router)
    _document_probe_tokens(app)
    return app


def _document_probe_tokens(app: FastAPI) -> None:
    """The probes' route reads its bearer token itself; its scheme is added to the OpenAPI document."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = document_probe_tokens(generate())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def run_server(
    host: str = "127.0.0.1", port: int = 8000, *, workers: int = 1, log_level: str = "info", access_log: bool = True
) -> None:
    """Migrate the database, then serve (the body of `bwdoctor serve`)."""
    import uvicorn

    from bwdoctor.server import uvicorn_limits

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = get_settings()
    wait_for_database(settings.database_url)
    upgrade_database(settings.database_url)
    os.environ["BWDOCTOR_MIGRATE_ON_START"] = "false"  # done once here, not again in each worker
    uvicorn.run(
        "bwdoctor.main:create_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level=log_level,
        access_log=access_log,
        proxy_headers=True,
        **uvicorn_limits(settings),  # request head/body deadlines, keep-alive, connections per worker
    )
