"""The API's error shape and the handlers that guarantee it.

Every error leaves the service as {"error": {"code", "message", "details"}}:

    ServiceError                (status, code, message, details)
    ├── BadRequest              400
    ├── Unauthorized            401  missing, unknown or revoked probe token
    ├── Forbidden               403  a bound token writing outside its node/cluster; a missing read token
    ├── NotFound                404
    ├── Conflict                409
    ├── PayloadTooLarge         413
    ├── Unprocessable           422  well-formed JSON that says something invalid
    ├── TooManyRequests         429  a client over its chat rate; Retry-After says when to retry
    └── ServiceUnavailable      503  the database is away; Retry-After tells clients when to retry

Anything else is caught last, logged with its traceback, and answered with a plain JSON 500
that reveals nothing.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DataError, IntegrityError, SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from bwdoctor.database import is_database_unavailable
from bwdoctor.engine import EngineError, FactValidationError

log = logging.getLogger("bwdoctor.errors")


class ServiceError(Exception):
    """An error the service raises on purpose, with the status and code clients see."""

    status_code = 400
    code = "bad_request"

    def __init__(self, message: str, *, details: Any = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details
        if code:
            self.code = code


class BadRequest(ServiceError):
    status_code, code = 400, "bad_request"


class Unauthorized(ServiceError):
    status_code, code = 401, "unauthorized"


class Forbidden(ServiceError):
    status_code, code = 403, "forbidden"


class TooManyRequests(ServiceError):
    """429 with Retry-After (seconds) so a client knows when to try again."""

    status_code, code = 429, "rate_limited"

    def __init__(self, message: str, *, retry_after_s: int, code: str | None = None) -> None:
        super().__init__(message, code=code)
        self.retry_after_s = retry_after_s


class NotFound(ServiceError):
    status_code, code = 404, "not_found"


class Conflict(ServiceError):
    status_code, code = 409, "conflict"


class PayloadTooLarge(ServiceError):
    status_code, code = 413, "payload_too_large"


class Unprocessable(ServiceError):
    status_code, code = 422, "invalid"


class ServiceUnavailable(ServiceError):
    status_code, code = 503, "unavailable"


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    """The one error shape of interfaces.md."""
    return {"error": {"code": code, "message": message, "details": details}}


def error_response(
    status: int, code: str, message: str, details: Any = None, headers: dict[str, str] | None = None
) -> JSONResponse:
    """A JSON error response; details are made JSON-safe so reporting an error never fails."""
    safe = _valid_text(jsonable_encoder(details, custom_encoder={bytes: lambda b: b.decode("utf-8", "replace")}))
    return JSONResponse(error_body(code, _valid_text(message), safe), status_code=status, headers=headers)


def _valid_text(value: Any) -> Any:
    """The value with lone surrogates (which cannot be encoded as UTF-8) replaced, so the answer renders."""
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, dict):
        return {_valid_text(k): _valid_text(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_valid_text(v) for v in value]
    return value


def fact_error_details(exc: FactValidationError) -> dict[str, Any]:
    """Which fact was wrong, what it was, and what was expected."""
    return {"key": exc.key, "value": repr(exc.value)[:200], "expected": exc.expected}


def install_error_handlers(app: FastAPI, *, retry_after_s: int = 5) -> None:
    """Map every exception to the error shape; database outages become 503 with Retry-After."""

    @app.exception_handler(ServiceError)
    async def _service_error(_: Request, exc: ServiceError) -> JSONResponse:
        headers = {"Retry-After": str(retry_after_s)} if exc.status_code == 503 else None
        if exc.status_code == 401:
            headers = {"WWW-Authenticate": "Bearer"}
        if isinstance(exc, TooManyRequests):
            headers = {"Retry-After": str(exc.retry_after_s)}
        return error_response(exc.status_code, exc.code, exc.message, exc.details, headers)

    @app.exception_handler(FactValidationError)
    async def _fact_error(_: Request, exc: FactValidationError) -> JSONResponse:
        return error_response(422, "invalid_fact", str(exc), fact_error_details(exc))

    @app.exception_handler(EngineError)
    async def _engine_error(_: Request, exc: EngineError) -> JSONResponse:
        return error_response(422, "engine_error", str(exc))

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        details = [
            {"loc": list(err.get("loc", ())), "msg": err.get("msg", ""), "type": err.get("type", "")}
            for err in exc.errors()
        ]
        first = details[0] if details else {"loc": [], "msg": "invalid request"}
        where = ".".join(str(p) for p in first["loc"])
        return error_response(422, "validation_error", f"{where}: {first['msg']}", details)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {401: "unauthorized", 404: "not_found", 405: "method_not_allowed", 413: "payload_too_large"}
        code = codes.get(exc.status_code, "http_error")
        message = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
        return error_response(exc.status_code, code, message, headers=getattr(exc, "headers", None))

    @app.exception_handler(SQLAlchemyError)
    async def _database_error(request: Request, exc: SQLAlchemyError) -> JSONResponse:
        if is_database_unavailable(exc):
            log.warning("database unavailable during %s %s: %s", request.method, request.url.path, exc)
            return error_response(
                503,
                "database_unavailable",
                "the database is not reachable; retry later",
                headers={"Retry-After": str(retry_after_s)},
            )
        if isinstance(exc, IntegrityError):
            return error_response(409, "conflict", "the request conflicts with stored data")
        if isinstance(exc, DataError):
            return error_response(422, "invalid", "a value could not be stored")
        log.error("database error during %s %s", request.method, request.url.path, exc_info=exc)
        return error_response(500, "internal_error", "unexpected error; it has been logged")

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error during %s %s", request.method, request.url.path)
        return error_response(500, "internal_error", "unexpected error; it has been logged")
