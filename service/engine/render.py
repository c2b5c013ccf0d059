"""Filling text templates with observed values: `{nic.speed_gbps}` or `{comm.fraction:.0%}`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_.]*)(?::([^}]*))?\}")


def format_value(value: Any) -> str:
    """A number as a person would write it: 160, 2.875, 0.54 — never 160.0 or 2.8750000001."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        magnitude = abs(value)
        digits = 1 if magnitude >= 100 else 2 if magnitude >= 1 else 3
        return f"{value:.{digits}f}".rstrip("0").rstrip(".")
    if isinstance(value, list):
        return ", ".join(format_value(v) for v in value)
    return str(value)


def fill(template: str, values: Mapping[str, Any]) -> str:
    def replace(match: re.Match[str]) -> str:
        name, spec = match.group(1), match.group(2)
        if name not in values:
            return "?"
        value = values[name]
        if spec and isinstance(value, int | float) and not isinstance(value, bool):
            try:
                return format(value, spec)
            except ValueError:
                return format_value(value)
        return format_value(value)

    return _PLACEHOLDER.sub(replace, template)
