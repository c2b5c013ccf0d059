"""Checking incoming facts before the engine sees them, and the engine dependency.

The engine checks types and ranges against the fact catalogue; this module first makes sure a
payload is a flat mapping of JSON scalars that every database can store (no NaN or infinity,
no NUL characters), so nothing a client sends can fail later in the database or in JSON output.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import Depends, Request

from service.engine import Engine
from service.errors import Unprocessable

MAX_FACTS = 500
MAX_KEY_LENGTH = 200
MAX_STRING_LENGTH = 4096
MAX_LIST_LENGTH = 1000


def _check_scalar(key: str, value: Any, where: str) -> None:
    if value is None or isinstance(value, bool | int):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise Unprocessable(
                f"{where} {key!r}: {value!r} is not a finite number",
                code="invalid_fact",
                details={"key": key, "value": str(value), "expected": "a finite number"},
            )
        return
    if isinstance(value, str):
        if "\x00" in value or len(value) > MAX_STRING_LENGTH:
            raise Unprocessable(
                f"{where} {key!r}: string has a NUL character or is longer than {MAX_STRING_LENGTH}",
                code="invalid_fact",
                details={"key": key, "expected": f"text without NUL, at most {MAX_STRING_LENGTH} characters"},
            )
        return
    raise Unprocessable(
        f"{where} {key!r}: a {type(value).__name__} is not a fact value",
        code="invalid_fact",
        details={"key": key, "expected": "a string, number, boolean or a list of them"},
    )


def check_fact_shape(raw: Any, *, where: str = "fact") -> dict[str, Any]:
    """A flat {key: scalar-or-list-of-scalars} mapping, or Unprocessable naming the first bad key."""
    if not isinstance(raw, Mapping):
        raise Unprocessable(f"{where}s must be a JSON object of key: value", code="invalid_facts")
    if len(raw) > MAX_FACTS:
        raise Unprocessable(f"too many {where}s: {len(raw)} (at most {MAX_FACTS})", code="invalid_facts")
    for key, value in raw.items():
        if not isinstance(key, str) or not key or len(key) > MAX_KEY_LENGTH or "\x00" in key:
            raise Unprocessable(
                f"{where} key {str(key)[:80]!r} is empty, too long or has a NUL character",
                code="invalid_fact",
                details={"key": str(key)[:MAX_KEY_LENGTH]},
            )
        if isinstance(value, list):
            if len(value) > MAX_LIST_LENGTH:
                raise Unprocessable(
                    f"{where} {key!r}: list longer than {MAX_LIST_LENGTH}", code="invalid_fact"
                )
            for item in value:
                _check_scalar(key, item, where)
        else:
            _check_scalar(key, value, where)
    return dict(raw)


def validate_facts(engine: Engine, raw: Any, *, where: str = "fact") -> dict[str, Any]:
    """Shape check, then the engine's catalogue check (types, ranges); returns the normalised facts."""
    return dict(engine.validate_facts(check_fact_shape(raw, where=where)))


async def get_engine(request: Request) -> Engine:
    """The application's loaded rule engine (async: no thread hop for a plain attribute)."""
    engine: Engine = request.app.state.engine
    return engine


EngineDep = Annotated[Engine, Depends(get_engine)]
