"""The fact catalogue: what each fact means, its type, unit and range, and the question that asks for it.

It is read from `rules/facts.yaml`, so the vocabulary is data a user can read; the engine
validates input against it and turns undecided rules into questions from it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from service.engine.errors import FactValidationError, RuleLoadError

FACT_TYPES = ("number", "int", "bool", "string", "enum", "list")


@dataclass(frozen=True)
class FactSpec:
    name: str
    type: str
    unit: str = ""
    description: str = ""
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: bool = False
    values: tuple[str, ...] = ()
    aliases: Mapping[str, str] = field(default_factory=dict)
    question: Mapping[str, str] = field(default_factory=dict)
    derived: bool = False
    inputs: tuple[str, ...] = ()
    source: tuple[str, ...] = ()

    def expectation(self) -> str:
        """A phrase naming what a valid value looks like, for error messages."""
        if self.type == "enum":
            return "one of " + ", ".join(self.values)
        if self.type == "bool":
            return "true or false"
        if self.type == "string":
            return "a string"
        if self.type == "list":
            return "a list"
        kind = "an integer" if self.type == "int" else "a number"
        bounds = []
        if self.minimum is not None:
            bounds.append(f"{'>' if self.exclusive_minimum else '≥'} {_num(self.minimum)}")
        if self.maximum is not None:
            bounds.append(f"≤ {_num(self.maximum)}")
        return kind + (" " + " and ".join(bounds) if bounds else "")

    def coerce(self, value: Any) -> Any:
        """The value in canonical form, or FactValidationError naming the key and what was expected."""
        if self.type in ("number", "int"):
            return self._coerce_number(value)
        if self.type == "bool":
            if isinstance(value, bool):
                return value
            raise FactValidationError(self.name, value, self.expectation())
        if self.type == "string":
            if isinstance(value, str) and value.strip():
                return value.strip()
            raise FactValidationError(self.name, value, "a non-empty string")
        if self.type == "enum":
            if isinstance(value, str):
                key = value.strip().lower()
                key = self.aliases.get(key, key)
                if key in self.values:
                    return key
            raise FactValidationError(self.name, value, self.expectation())
        if self.type == "list":
            if isinstance(value, list) and all(isinstance(v, str | int | float) for v in value):
                return list(value)
            raise FactValidationError(self.name, value, "a list of names")
        raise FactValidationError(self.name, value, self.expectation())  # pragma: no cover

    def _coerce_number(self, raw: Any) -> float | int:
        if isinstance(raw, bool) or not isinstance(raw, int | float) or not math.isfinite(raw):
            raise FactValidationError(self.name, raw, self.expectation())
        value: float | int = raw
        if self.type == "int":
            if float(value) != int(value):
                raise FactValidationError(self.name, value, self.expectation())
            value = int(value)
        if self.minimum is not None:
            if value < self.minimum or (self.exclusive_minimum and value == self.minimum):
                raise FactValidationError(self.name, value, self.expectation())
        if self.maximum is not None and value > self.maximum:
            raise FactValidationError(self.name, value, self.expectation())
        return value


class FactCatalogue:
    """Every known fact by name, base facts and derived ones alike."""

    def __init__(self, specs: Mapping[str, FactSpec]) -> None:
        self.specs = dict(specs)

    def __contains__(self, name: object) -> bool:
        return name in self.specs

    def __getitem__(self, name: str) -> FactSpec:
        return self.specs[name]

    def get(self, name: str) -> FactSpec | None:
        return self.specs.get(name)

    def names(self) -> list[str]:
        return sorted(self.specs)

    def base_names(self) -> list[str]:
        return sorted(n for n, s in self.specs.items() if not s.derived)

    def validate(self, raw: Any) -> dict[str, Any]:
        """Known facts coerced and range-checked; unknown keys kept as they are (rules ignore them)."""
        if not isinstance(raw, Mapping):
            raise FactValidationError("<facts>", type(raw).__name__, "an object of fact name → value")
        facts: dict[str, Any] = {}
        for key in sorted(raw, key=str):
            value = raw[key]
            if not isinstance(key, str):
                raise FactValidationError(str(key), value, "fact names to be strings")
            if value is None:
                continue
            spec = self.specs.get(key)
            if spec is None:
                facts[key] = value
            elif spec.derived:
                raise FactValidationError(key, value, "no value: it is derived by the engine, not given")
            else:
                facts[key] = spec.coerce(value)
        return facts

    def question(self, name: str, lang: str) -> str:
        spec = self.specs.get(name)
        if spec is None:
            return name
        return spec.question.get(lang) or spec.question.get("en") or spec.description or name


def parse_catalogue(data: Any, *, file: str) -> FactCatalogue:
    """Build the catalogue from the parsed `facts.yaml`; any mistake is a RuleLoadError with its line."""
    if not isinstance(data, Mapping) or not isinstance(data.get("facts"), Mapping):
        raise RuleLoadError("expected a mapping with a 'facts' key", file=file)
    specs: dict[str, FactSpec] = {}
    for section, derived in (("facts", False), ("derived", True)):
        for name, body in (data.get(section) or {}).items():
            if name.startswith("__"):
                continue
            line = body.get("__line__") if isinstance(body, Mapping) else None
            if not isinstance(body, Mapping):
                raise RuleLoadError(f"fact {name!r}: expected a mapping", file=file, line=line)
            kind = body.get("type", "number")
            if kind not in FACT_TYPES:
                raise RuleLoadError(f"fact {name!r}: unknown type {kind!r}", file=file, line=line)
            aliases = {str(k).lower(): str(v) for k, v in (body.get("aliases") or {}).items() if not k.startswith("__")}
            specs[name] = FactSpec(
                name=name,
                type=kind,
                unit=str(body.get("unit", "")),
                description=str(body.get("description", "")),
                minimum=body.get("min"),
                maximum=body.get("max"),
                exclusive_minimum=bool(body.get("exclusive_min", False)),
                values=tuple(str(v) for v in body.get("values", ())),
                aliases=aliases,
                question={k: v for k, v in (body.get("question") or {}).items() if not k.startswith("__")},
                derived=derived,
                inputs=tuple(body.get("inputs", ())),
                source=tuple(body.get("source", ())),
            )
    return FactCatalogue(specs)


def _num(value: float) -> str:
    return f"{value:g}"
