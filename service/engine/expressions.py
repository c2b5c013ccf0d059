"""Conditions are CEL expressions (Common Expression Language), compiled once at load time.

CEL is a small, side-effect-free language made for exactly this (policy conditions over
data); the engine never uses Python's `eval`. Dotted fact names (`nic.speed_gbps`) are CEL
field selections on nested maps, so the facts are handed to CEL as `{"nic": {"speed_gbps": …}}`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import cel

from bwdoctor.engine.cost import expression_cost_problem

_STRING_LITERAL = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_DOTTED_NAME = re.compile(r"(?<![\w.])([a-zA-Z_][a-zA-Z0-9_]*(?:\.[a-zA-Z_][a-zA-Z0-9_]*)+)(\s*\()?")


class ExpressionError(ValueError):
    """An expression that does not compile or does not evaluate to a boolean."""


@dataclass(frozen=True)
class Condition:
    text: str
    facts: frozenset[str]
    program: Any

    def evaluate(self, context: cel.Context) -> Any:
        return self.program.execute(context)


def referenced_facts(text: str) -> frozenset[str]:
    """The dotted fact names an expression reads (string literals and method calls excluded)."""
    without_strings = _STRING_LITERAL.sub("''", text)
    names = set()
    for match in _DOTTED_NAME.finditer(without_strings):
        name = match.group(1)
        if match.group(2):  # a method call: `x.y.startsWith(` reads the fact x.y
            name = name.rpartition(".")[0]
        if "." in name:
            names.add(name)
    return frozenset(names)


def compile_condition(text: str) -> Condition:
    if not isinstance(text, str) or not text.strip():
        raise ExpressionError("a condition must be a non-empty expression string")
    too_costly = expression_cost_problem(text)
    if too_costly is not None:
        raise ExpressionError(f"expression {text[:80]!r} costs too much: {too_costly}")
    try:
        program = cel.compile(text)
    except Exception as exc:  # the CEL binding raises its own parse error types
        raise ExpressionError(f"invalid expression {text!r}: {exc}") from exc
    return Condition(text=text, facts=referenced_facts(text), program=program)


def cel_context(facts: Mapping[str, Any]) -> cel.Context:
    """Facts as nested CEL maps; integers become doubles so arithmetic never truncates."""
    tree: dict[str, Any] = {}
    for name, value in facts.items():
        parts = name.split(".")
        node = tree
        for part in parts[:-1]:
            child = node.get(part)
            if not isinstance(child, dict):
                child = node[part] = {}
            node = child
        node[parts[-1]] = _cel_value(value)
    return cel.Context(tree)


def _cel_value(value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, int):
        return value
    return float(value)
