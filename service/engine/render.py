"""Filling text templates with observed values: `{nic.speed_gbps}` or `{comm.fraction:.0%}`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bwdoctor.engine.cost import format_spec_problem

_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_.]*)(?::([^}]*))?\}")
# `[[ … ]]`: a part of a text shown only when every fact it names is known ("[[; one sync of
# {comm.grad_gbytes} GB takes {comm.sync_time_naive_s} s]]" needs the precision), dropped otherwise;
# `[[ … || … ]]` says the second part instead ("than on [[{job.baseline_multi_nodes} nodes||one]]").
OPTIONAL = re.compile(r"\[\[(.*?)\]\]", re.S)


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
    """The template with its placeholders filled; an optional `[[ … ]]` part is kept only when every
    fact it names is known (else its `|| …` part, if it has one), and a placeholder of an unknown fact
    elsewhere shows as '?'."""

    def optional(match: re.Match[str]) -> str:
        inner, _, otherwise = match.group(1).partition("||")
        return inner if all(name in values for name, _ in _PLACEHOLDER.findall(inner)) else otherwise

    template = OPTIONAL.sub(optional, template)

    def replace(match: re.Match[str]) -> str:
        name, spec = match.group(1), match.group(2)
        if name not in values:
            return "?"
        value = values[name]
        if spec and isinstance(value, int | float) and not isinstance(value, bool) and not format_spec_problem(spec):
            try:
                return format(value, spec)
            except ValueError:
                return format_value(value)
        return format_value(value)

    return _PLACEHOLDER.sub(replace, template)
