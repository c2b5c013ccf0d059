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

from bwdoctor.engine import Engine
from bwdoctor.errors import Unprocessable

MAX_FACTS = 500
MAX_KEY_LENGTH = 200
MAX_STRING_LENGTH = 4096
MAX_LIST_LENGTH = 1000
# Every number a client sends must survive every database and every later computation: integers
# fit a signed 64-bit column (PostgreSQL's jsonb and orjson refuse more), floats stay far enough
# from the float limit that derived arithmetic (products of a few facts) cannot overflow to inf,
# and a value read back from jsonb as an exact integer still converts to a float.
MIN_INT, MAX_INT = -(2**63), 2**63 - 1
MAX_ABS_FLOAT = 1e18


def _number_problem(value: int | float) -> str | None:
    """Why a number cannot be a fact value, or None when it can."""
    if isinstance(value, int):
        return None if MIN_INT <= value <= MAX_INT else "an integer within 64 bits"
    if not math.isfinite(value):
        return "a finite number"
    return None if abs(value) <= MAX_ABS_FLOAT else f"a number between -{MAX_ABS_FLOAT:g} and {MAX_ABS_FLOAT:g}"


def _shown_number(value: int | float) -> str:
    """The number for an error message, short even for an integer of thousands of digits."""
    if isinstance(value, float) or abs(value) < 10**30:
        return str(value)
    return f"an integer of about {int(value.bit_length() * math.log10(2)) + 1} digits"


def _is_valid_unicode(text: str) -> bool:
    """False for lone surrogates (JSON's \\ud800), which no database or UTF-8 encoder accepts."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def scalar_is_storable(value: Any) -> bool:
    """Whether a fact value (or list item) passes today's shape check: what stored data is held to on reading."""
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, int | float):
        return _number_problem(value) is None
    if isinstance(value, str):
        return "\x00" not in value and len(value) <= MAX_STRING_LENGTH and _is_valid_unicode(value)
    return False


def _check_scalar(key: str, value: Any, where: str) -> None:
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int | float):
        expected = _number_problem(value)
        if expected is not None:
            shown = _shown_number(value)
            raise Unprocessable(
                f"{where} {key!r}: {shown} is out of range (expected {expected})",
                code="invalid_fact",
                details={"key": key, "value": shown[:60], "expected": expected},
            )
        return
    if isinstance(value, str):
        if "\x00" in value or len(value) > MAX_STRING_LENGTH or not _is_valid_unicode(value):
            raise Unprocessable(
                f"{where} {key!r}: text with a NUL character or a lone surrogate, "
                f"or longer than {MAX_STRING_LENGTH} characters",
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
        raise Unprocessable(f"{where}s: expected an object of fact name → value", code="invalid_facts")
    if len(raw) > MAX_FACTS:
        raise Unprocessable(f"too many {where}s: {len(raw)} (at most {MAX_FACTS})", code="invalid_facts")
    for key, value in raw.items():
        if (
            not isinstance(key, str)
            or not key
            or len(key) > MAX_KEY_LENGTH
            or "\x00" in key
            or not _is_valid_unicode(key)
        ):
            raise Unprocessable(
                f"{where} key {str(key)[:80]!r} is empty, too long or has a NUL character or a lone surrogate",
                code="invalid_fact",
                details={"key": ascii(key)[:MAX_KEY_LENGTH]},
            )
        if isinstance(value, list):
            if len(value) > MAX_LIST_LENGTH:
                raise Unprocessable(f"{where} {key!r}: list longer than {MAX_LIST_LENGTH}", code="invalid_fact")
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
