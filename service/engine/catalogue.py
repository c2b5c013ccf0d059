"""The fact catalogue: what each fact means, its type, unit and range, the question that asks for it, and
how people and pages speak of it (label, display format, how it aggregates over a cluster).

It is read from `rules/facts.yaml`, so the vocabulary is data a user can read, and the one place a
fact's name, label, unit or aggregation is written; the engine validates input against it and turns
undecided rules into questions from it; the chat, the pages and the cluster aggregate read it too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bwdoctor.engine.errors import FactValidationError, RuleLoadError
from bwdoctor.engine.render import format_value

FACT_TYPES = ("number", "int", "bool", "string", "enum", "list")
# How a fact's node values become the cluster's: min/max/median of numbers (median, or the most common
# value, by default), all/any of booleans, the worst of an enum (`worst_first`), or none (per node only).
AGGREGATIONS = ("min", "max", "median", "all", "any", "worst", "none")
OUTLIER_DIRECTIONS = ("low", "high")


@dataclass(frozen=True)
class ClusterRule:
    """How a fact aggregates over a cluster's nodes."""

    aggregate: str = "median"
    outlier: str | None = None  # which side of the median makes a node a straggler
    limits: bool = False  # its extreme value limits the ring: the nodes holding it are named
    worst_first: tuple[str, ...] = ()


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
    label: Mapping[str, str] = field(default_factory=dict)
    display: str = ""  # "{} Gb/s", "{}B", "{%}" (a share as per cent), "{upper}"; empty: the bare number
    cluster: ClusterRule = field(default_factory=ClusterRule)
    table_column: int | None = None  # its column in the node tables of the cluster and node pages

    def name_in(self, lang: str) -> str:
        """The fact's label in `lang` (English, then its name, when there is none)."""
        return self.label.get(lang) or self.label.get("en") or self.name

    def show(self, value: Any, number: Callable[[Any], str] = format_value) -> str:
        """A value as its display format writes it ('25 Gb/s', '70B', '54 %'), numbers by `number`."""
        if self.display == "{upper}":
            return str(value).upper()
        if isinstance(value, bool) or not isinstance(value, int | float):
            return format_value(value)
        if self.display == "{%}":
            return f"{number(100 * value)} %"
        return self.display.replace("{}", number(value)) if self.display else number(value)

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

    def label(self, name: str, lang: str) -> str:
        """A fact's label in `lang`; the name itself for a fact the catalogue does not know."""
        spec = self.specs.get(name)
        return name if spec is None else spec.name_in(lang)

    def table_columns(self) -> list[FactSpec]:
        """The facts shown as columns of the node tables, in order."""
        return sorted((s for s in self.specs.values() if s.table_column), key=lambda s: s.table_column or 0)

    def aggregated(self, how: str) -> frozenset[str]:
        """The facts that aggregate over a cluster as `how` (one of AGGREGATIONS)."""
        return frozenset(n for n, s in self.specs.items() if s.cluster.aggregate == how)

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
                label=_texts(body.get("label"), name, "label", file=file, line=line),
                display=str(body.get("display", "")),
                cluster=_cluster_rule(body.get("cluster"), name, file=file, line=line),
                table_column=body.get("table_column"),
            )
    return FactCatalogue(specs)


def _texts(value: Any, name: str, key: str, *, file: str, line: int | None) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(isinstance(value.get(lang), str) for lang in ("en", "zh")):
        raise RuleLoadError(f"fact {name!r}: '{key}' must give an en and a zh text", file=file, line=line)
    return {str(k): str(v) for k, v in value.items() if not str(k).startswith("__")}


def _cluster_rule(value: Any, name: str, *, file: str, line: int | None) -> ClusterRule:
    if value is None:
        return ClusterRule()
    if not isinstance(value, Mapping):
        raise RuleLoadError(f"fact {name!r}: 'cluster' must be a mapping", file=file, line=line)
    aggregate = value.get("aggregate", "median")
    outlier = value.get("outlier")
    if aggregate not in AGGREGATIONS:
        raise RuleLoadError(
            f"fact {name!r}: cluster aggregate must be one of {', '.join(AGGREGATIONS)}, got {aggregate!r}",
            file=file,
            line=line,
        )
    if outlier is not None and outlier not in OUTLIER_DIRECTIONS:
        raise RuleLoadError(
            f"fact {name!r}: cluster outlier must be low or high, got {outlier!r}", file=file, line=line
        )
    worst = tuple(str(v) for v in value.get("worst_first") or ())
    if (aggregate == "worst") != bool(worst):
        raise RuleLoadError(f"fact {name!r}: 'worst_first' goes with aggregate: worst", file=file, line=line)
    return ClusterRule(str(aggregate), outlier, bool(value.get("limits", False)), worst)


def _num(value: float) -> str:
    return f"{value:g}"
