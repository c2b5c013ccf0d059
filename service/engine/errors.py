"""Errors of the engine, one small hierarchy so the CLI and the API can map each to a clear message.

EngineError
├── RuleLoadError        a rule, recommendation or catalogue file is invalid (names file, rule id, line)
└── FactValidationError  a fact has the wrong type or is out of range (names key, value, expectation)
"""

from __future__ import annotations

from typing import Any


class EngineError(Exception):
    """Base class of everything the engine raises on purpose."""


class RuleLoadError(EngineError):
    def __init__(self, message: str, *, file: str = "", rule_id: str = "", line: int | None = None) -> None:
        self.file = file
        self.rule_id = rule_id
        self.line = line
        self.message = message
        super().__init__(self.describe())

    def describe(self) -> str:
        where = self.file or "<rules>"
        if self.line is not None:
            where += f":{self.line}"
        if self.rule_id:
            where += f" [{self.rule_id}]"
        return f"{where}: {self.message}"


class FactValidationError(EngineError):
    def __init__(self, key: str, value: Any, expected: str) -> None:
        self.key = key
        self.value = value
        self.expected = expected
        super().__init__(f"fact {key!r}: got {value!r}, expected {expected}")
