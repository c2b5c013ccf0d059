"""Quantified what-ifs: the same job with one remedy applied, recomputed with the engine's own formulas."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bwdoctor.engine.derived import DERIVED_NAMES, derive
from bwdoctor.engine.expressions import cel_context, compile_condition
from bwdoctor.engine.model import Recommendation
from bwdoctor.engine.render import fill


def apply_changes(known: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any] | None:
    """Base facts with the changes applied; `=expr` values are CEL over the current facts; None removes."""
    base = {k: v for k, v in known.items() if k not in DERIVED_NAMES}
    context = None
    for name, value in changes.items():
        if isinstance(value, str) and value.startswith("="):
            context = context or cel_context(known)
            try:
                value = compile_condition(value[1:]).evaluate(context)
            except Exception:
                return None
        if value is None:
            base.pop(name, None)
        else:
            base[name] = value
    return base


def what_ifs(rec: Recommendation, known: Mapping[str, Any], lang: str) -> list[dict[str, Any]]:
    """Each scenario of the recommendation that can be computed from the facts and changes something."""
    results = []
    for scenario in rec.what_ifs:
        changed = apply_changes(known, scenario.changes)
        if changed is None:
            continue
        if all(known.get(k) == changed.get(k) for k in scenario.changes):
            continue  # already so: nothing to gain
        after = {**changed, **derive(changed, only=frozenset((*scenario.report, *WALL_TIME_SHARES)))}
        values = {name: after[name] for name in scenario.report if name in after}
        if not values:
            continue
        before = {name: known[name] for name in scenario.report if name in known}
        values, before = _without_repeats(values, before)
        if not _improves(before, values):
            continue  # a remedy that would make things worse is no remedy (e.g. fp16 when already int8)
        result: dict[str, Any] = {
            "label": fill(scenario.label[lang], {**known, **after}),
            "set": {k: changed.get(k) for k in scenario.changes},
            "values": values,
            "before": before,
        }
        saves = _saves_pct(known, after)
        if saves is not None:
            result["saves_pct"] = saves
        results.append(result)
    return results


def _without_repeats(values: dict[str, Any], before: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Drop a figure whose before and after equal a later one's: on two nodes the naive sync and the ring all-reduce
    are the same seconds, and saying both reads as a stutter (the later, more exact figure stays)."""
    names = list(values)
    repeated = {a for i, a in enumerate(names) for b in names[i + 1:]
                if a in before and b in before and values[a] == values[b] and before[a] == before[b]}
    return ({k: v for k, v in values.items() if k not in repeated},
            {k: v for k, v in before.items() if k not in repeated})


# Shares of wall time the engine predicts; what a remedy takes off them is the time it saves.
WALL_TIME_SHARES = ("comm.fraction", "checkpoint.time_fraction")


def _saves_pct(before: Mapping[str, Any], after: Mapping[str, Any]) -> float | None:
    """Percentage points of wall time the change saves, from the first share both sides know."""
    for name in WALL_TIME_SHARES:
        if name in before and name in after:
            return round(100 * (before[name] - after[name]), 2)
    return None


def _improves(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """True when the first figure both sides know went down (all reported figures are costs)."""
    for name, value in after.items():
        if name in before:
            return value < before[name]
    return True
