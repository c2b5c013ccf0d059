"""Cluster facts from the latest facts of each node: pure, no database, no engine.

A ring all-reduce runs at the pace of its weakest member, so the cluster's representative
facts take the worst value of each link metric (lowest bandwidth, highest latency), and a
robust outlier test (median absolute deviation) names the nodes that lag behind the rest.
How each fact aggregates, and which side of the median is an outlier, is the fact catalogue's
(`cluster:` in rules/facts.yaml).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from bwdoctor.engine import builtin_catalogue

Direction = Literal["low", "high"]

MAD_SCALE = 0.6745  # makes MAD comparable with a standard deviation under normality
MODIFIED_Z_THRESHOLD = 3.5  # Iglewicz & Hoaglin's cut-off for the modified z-score
MIN_RELATIVE_DEVIATION = 0.15  # ignore statistically odd but practically small differences
TWO_NODE_RELATIVE_DEVIATION = 0.3  # with two nodes there is no majority; demand a clear gap

_PLAIN_NUMBERS = frozenset({int, float})
_PLAIN_LABELS = frozenset({str, bool})


@dataclass(frozen=True)
class _Vocabulary:
    """The catalogue's cluster aggregation, gathered once into sets for the per-fact loop."""

    minimum: frozenset[str]
    maximum: frozenset[str]
    all_true: frozenset[str]
    any_true: frozenset[str]
    per_node: frozenset[str]
    worst_first: dict[str, tuple[str, ...]]  # one socket-transport node slows the whole ring
    outliers: dict[str, Direction]  # facts where one node lagging makes it a straggler, and the bad side


@cache
def _vocabulary() -> _Vocabulary:
    catalogue = builtin_catalogue()
    specs = [catalogue[name] for name in catalogue.names()]
    return _Vocabulary(
        minimum=catalogue.aggregated("min"),
        maximum=catalogue.aggregated("max"),
        all_true=catalogue.aggregated("all"),
        any_true=catalogue.aggregated("any"),
        per_node=catalogue.aggregated("none"),
        worst_first={s.name: s.cluster.worst_first for s in specs if s.cluster.aggregate == "worst"},
        outliers={s.name: "low" if s.cluster.outlier == "low" else "high" for s in specs if s.cluster.outlier},
    )


@dataclass(frozen=True)
class Outlier:
    """One node's value of one fact, far from the cluster's median on the bad side."""

    node_id: str
    fact: str
    value: float
    median: float
    direction: Direction
    score: float | None  # modified z-score; None when the spread is zero or there are two nodes

    def to_dict(self) -> dict[str, Any]:
        return {
            "fact": self.fact,
            "value": self.value,
            "median": self.median,
            "direction": self.direction,
            "score": None if self.score is None else round(self.score, 2),
        }


@dataclass
class ClusterAggregate:
    """Cluster facts, the representative node facts the rules see, and who lags behind."""

    cluster_facts: dict[str, Any]
    node_facts: dict[str, Any]
    outliers: dict[str, list[Outlier]] = field(default_factory=dict)
    zones: dict[str, list[str]] = field(default_factory=dict)
    regions: dict[str, list[str]] = field(default_factory=dict)

    def facts(self) -> dict[str, Any]:
        """What the engine diagnoses: representative node facts plus the cluster facts."""
        return {**self.node_facts, **self.cluster_facts}


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def find_outliers(values: Mapping[str, float], fact: str, direction: Direction) -> list[Outlier]:
    """Nodes whose value is an outlier on the bad side (robust: median absolute deviation)."""
    if len(values) < 2:
        return []
    if len(values) == 2:
        (a_id, a), (b_id, b) = values.items()
        median = (a + b) / 2
        worse_id, worse, better = (a_id, a, b) if (a < b) == (direction == "low") else (b_id, b, a)
        gap = abs(better - worse) / max(abs(better), 1e-9)
        if worse != better and gap >= TWO_NODE_RELATIVE_DEVIATION:
            return [Outlier(worse_id, fact, worse, median, direction, None)]
        return []
    median = statistics.median(values.values())
    mad = statistics.median(abs(v - median) for v in values.values())
    found = []
    for node_id, value in values.items():
        deviation = value - median
        if (direction == "low" and deviation >= 0) or (direction == "high" and deviation <= 0):
            continue
        if abs(deviation) / max(abs(median), 1e-9) < MIN_RELATIVE_DEVIATION:
            continue
        score = None if mad == 0 else MAD_SCALE * deviation / mad
        if score is not None and abs(score) < MODIFIED_Z_THRESHOLD:
            continue
        found.append(Outlier(node_id, fact, value, median, direction, score))
    return found


def _group(nodes: Mapping[str, Mapping[str, Any]], key: str) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for node_id, facts in nodes.items():
        value = facts.get(key)
        if isinstance(value, str) and value:
            groups.setdefault(value, []).append(node_id)
    return {name: sorted(ids) for name, ids in sorted(groups.items())}


def _numbers_by_node(nodes: Mapping[str, Mapping[str, Any]], fact: str) -> dict[str, float]:
    """Each node's value of `fact` as a float, for the nodes where it is a number (not a bool)."""
    out: dict[str, float] = {}
    for node_id, facts in nodes.items():
        value = facts.get(fact)
        if value is None:
            continue
        kind = type(value)
        if kind is float or kind is int:  # the common case, without _number's isinstance checks
            out[node_id] = float(value)
        elif (number := _number(value)) is not None:
            out[node_id] = number
    return out


def _representative(key: str, values: list[Any]) -> Any:
    v = _vocabulary()
    if key in v.all_true:
        return all(value is True for value in values)
    if key in v.any_true:
        return any(value is True for value in values)
    if key in v.worst_first:
        for candidate in v.worst_first[key]:
            if candidate in values:
                return candidate
    kinds = set(map(type, values))
    if kinds <= _PLAIN_NUMBERS:
        # Every value a plain int or float (the usual case): the same result as the general path
        # below, which checks each value one by one.
        numbers = values if kinds == {float} else [float(v) for v in values]
        if key in v.minimum:
            best: float = min(numbers)
        elif key in v.maximum:
            best = max(numbers)
        else:
            best = statistics.median(numbers)
        return int(best) if kinds == {int} and best == int(best) else best
    if kinds <= _PLAIN_LABELS:  # strings and bools only: no numbers, every value hashable
        return Counter(values).most_common(1)[0][0]
    numbers = [n for n in (_number(v) for v in values) if n is not None]
    if numbers and len(numbers) == len(values):
        if key in v.minimum:
            best = min(numbers)
        elif key in v.maximum:
            best = max(numbers)
        else:
            best = statistics.median(numbers)
        as_ints = all(isinstance(v, int) and not isinstance(v, bool) for v in values)
        return int(best) if as_ints and best == int(best) else best
    hashable = [v for v in values if isinstance(v, str | int | float | bool)]
    if not hashable:
        return None
    return Counter(hashable).most_common(1)[0][0]


def aggregate(nodes: Mapping[str, Mapping[str, Any]]) -> ClusterAggregate:
    """Cluster facts (cluster.nodes, zones, regions, nic_speed_min_gbps, stragglers) and the
    representative node facts, from each node's latest facts keyed by node id."""
    # One pass over every node's facts, column by column (values in node order, None left out).
    columns: dict[str, list[Any]] = {}
    for facts in nodes.values():
        for key, value in facts.items():
            if value is not None:
                column = columns.get(key)
                if column is None:
                    columns[key] = [value]
                else:
                    column.append(value)
    node_facts: dict[str, Any] = {}
    for key in sorted(columns.keys() - _vocabulary().per_node):
        value = _representative(key, columns[key])
        if value is not None:
            node_facts[key] = value
    if nodes and "job.nodes" not in node_facts:
        node_facts["job.nodes"] = len(nodes)

    outliers: dict[str, list[Outlier]] = {}
    numbers: dict[str, dict[str, float]] = {}
    for fact, direction in _vocabulary().outliers.items():
        numbers[fact] = values = _numbers_by_node(nodes, fact)
        for outlier in find_outliers(values, fact, direction):
            outliers.setdefault(outlier.node_id, []).append(outlier)

    zones = _group(nodes, "node.zone")
    regions = _group(nodes, "node.region")
    cluster_facts: dict[str, Any] = {"cluster.nodes": len(nodes), "cluster.stragglers": sorted(outliers)}
    # Placement counts only when some node reported placement: 0 zones would be a false statement.
    if zones:
        cluster_facts["cluster.zones"] = len(zones)
    if regions:
        cluster_facts["cluster.regions"] = len(regions)
    nic_speeds = numbers.get("nic.speed_gbps")
    if nic_speeds is None:
        nic_speeds = _numbers_by_node(nodes, "nic.speed_gbps")
    if nic_speeds:
        cluster_facts["cluster.nic_speed_min_gbps"] = min(nic_speeds.values())
    return ClusterAggregate(cluster_facts, node_facts, outliers, zones, regions)
