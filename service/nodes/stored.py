"""Reading stored reports defensively: what was accepted before today's checks must not break a read.

Before issue 14 a report could carry a fact the service later choked on (1e308, which PostgreSQL's
jsonb gives back as a 309-digit integer; integers beyond 64 bits; a value the fact catalogue has since
narrowed). Reads hold stored facts to today's shape check and drop what fails it, the engine gets
only the facts its catalogue accepts, and migration 0004 cleans such rows once (clean_poisoned_reports).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, text

from bwdoctor.engine import Engine, FactValidationError
from bwdoctor.facts import MAX_FACTS, MAX_KEY_LENGTH, MAX_LIST_LENGTH, scalar_is_storable

log = logging.getLogger("bwdoctor.nodes")


def _value_is_storable(value: Any) -> bool:
    if isinstance(value, list):
        return len(value) <= MAX_LIST_LENGTH and all(scalar_is_storable(v) for v in value)
    return scalar_is_storable(value)


def clean_facts(facts: Any) -> dict[str, Any]:
    """The stored facts that pass today's shape check (others dropped); {} for anything but a mapping."""
    if not isinstance(facts, Mapping):
        return {}
    if all(isinstance(k, str) and _value_is_storable(v) for k, v in facts.items()) and len(facts) <= MAX_FACTS:
        return dict(facts)  # the usual case: nothing to drop
    return {
        k: v
        for k, v in list(facts.items())[:MAX_FACTS]
        if isinstance(k, str) and 0 < len(k) <= MAX_KEY_LENGTH and scalar_is_storable(k) and _value_is_storable(v)
    }


def usable_facts(facts: Any, *, engine: Engine) -> dict[str, Any]:
    """Stored facts the engine can diagnose: clean, and each known fact valid in today's catalogue."""
    cleaned = clean_facts(facts)
    try:
        return engine.validate_facts(cleaned)
    except FactValidationError:
        pass
    usable: dict[str, Any] = {}
    for key, value in cleaned.items():
        try:
            usable.update(engine.validate_facts({key: value}))
        except FactValidationError:
            log.debug("stored fact %s dropped: no longer valid", key)
    return usable


# Rows that may hold a number beyond today's bounds: a run of 19 digits (PostgreSQL prints jsonb
# numbers in full, so 1e308 is 309 digits) or an exponent, infinity or NaN (SQLite keeps Python's
# JSON text). Only these are read and checked in Python: no full pass over a large table in Python.
_CANDIDATES = {
    "postgresql": "SELECT pk, facts::text FROM reports WHERE facts::text ~ '[0-9]{19}' AND pk > :after "
    "ORDER BY pk LIMIT :limit",
    "sqlite": "SELECT pk, facts FROM reports WHERE (facts GLOB '*[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]"
    "[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]*' OR facts LIKE '%e+%' OR facts LIKE '%Infinity%' "
    "OR facts LIKE '%NaN%') AND pk > :after ORDER BY pk LIMIT :limit",
}

_SET = "SET facts = {}, findings = NULL, diagnosed_at = NULL WHERE pk = :pk"
_UPDATE = {
    "postgresql": text("UPDATE reports " + _SET.format("CAST(:facts AS jsonb)")),
    "sqlite": text("UPDATE reports " + _SET.format(":facts")),
}


def clean_poisoned_reports(connection: Connection, *, batch_size: int = 1000) -> int:
    """Rewrite stored reports whose facts fail today's shape check without the failing facts (their
    findings are cleared, to be computed again); returns how many were rewritten."""
    query = _CANDIDATES.get(connection.dialect.name)
    if query is None:
        return 0
    fixed, after = 0, 0
    while True:
        rows = connection.execute(text(query), {"after": after, "limit": batch_size}).all()
        for pk, raw in rows:
            try:
                facts = json.loads(raw) if isinstance(raw, str) else raw
            except ValueError:  # e.g. a number of more digits than Python converts
                facts = None
            cleaned = clean_facts(facts)
            if cleaned != facts:
                connection.execute(_UPDATE[connection.dialect.name], {"facts": json.dumps(cleaned), "pk": pk})
                fixed += 1
        if len(rows) < batch_size:
            return fixed
        after = rows[-1][0]
