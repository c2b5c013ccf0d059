"""Pure cluster-fact derivation: placement counts, weakest link, robust straggler detection."""

from __future__ import annotations

import statistics
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bwdoctor.clusters.aggregate import _number, aggregate, find_outliers
from bwdoctor.engine import builtin_catalogue

# How each fact aggregates is the catalogue's (rules/facts.yaml, `cluster:`).
CATALOGUE = builtin_catalogue()
ALL_TRUE_FACTS = CATALOGUE.aggregated("all")
ANY_TRUE_FACTS = CATALOGUE.aggregated("any")
MAX_FACTS = CATALOGUE.aggregated("max")
MIN_FACTS = CATALOGUE.aggregated("min")
PER_NODE_FACTS = CATALOGUE.aggregated("none")
WORST_VALUE = {n: CATALOGUE[n].cluster.worst_first for n in CATALOGUE.aggregated("worst")}
OUTLIER_FACTS = {n: CATALOGUE[n].cluster.outlier for n in CATALOGUE.names() if CATALOGUE[n].cluster.outlier}


def test_the_catalogue_says_how_link_facts_aggregate() -> None:
    """A ring runs at its weakest link: the slowest NIC, the longest round trip, any socket transport."""
    assert {"nic.speed_gbps", "net.iperf3_gbps", "nccl.allreduce_busbw_gbytes_per_s"} <= MIN_FACTS
    assert {"net.rtt_ms", "job.step_time_s"} <= MAX_FACTS
    # the worst GPU↔NIC path of any node is the cluster's (every ring crosses it)
    assert WORST_VALUE == {"nccl.transport": ("socket", "other", "ib"),
                           "gpu.nic_path": ("sys", "node", "phb", "pxb", "pix")}
    assert OUTLIER_FACTS["gpu.util_pct"] == "low" and OUTLIER_FACTS["job.step_time_s"] == "high"
    assert {"node.id", "node.zone", "nic.name"} <= PER_NODE_FACTS
    nodes = {"a": {"nccl.transport": "ib", "net.rtt_ms": 1}, "b": {"nccl.transport": "socket", "net.rtt_ms": 9}}
    assert aggregate(nodes).node_facts == {"job.nodes": 2, "nccl.transport": "socket", "net.rtt_ms": 9}


def node(zone: str = "a", **facts: object) -> dict[str, object]:
    base = {
        "node.zone": zone,
        "node.region": "r1",
        "nic.speed_gbps": 100,
        "net.iperf3_gbps": 94.0,
        "gpu.util_pct": 92.0,
        "job.step_time_s": 1.0,
        "nic.rdma": True,
    }
    base.update({k.replace("__", "."): v for k, v in facts.items()})
    return base


def test_healthy_cluster_has_no_stragglers_and_counts_placement():
    nodes = {f"n{i}": node(gpu__util_pct=90 + i % 3, net__iperf3_gbps=93 + i % 2) for i in range(8)}
    agg = aggregate(nodes)
    assert agg.cluster_facts["cluster.nodes"] == 8
    assert agg.cluster_facts["cluster.zones"] == 1
    assert agg.cluster_facts["cluster.regions"] == 1
    assert agg.cluster_facts["cluster.nic_speed_min_gbps"] == 100
    assert agg.cluster_facts["cluster.stragglers"] == []
    assert agg.outliers == {}


def test_two_zones_are_counted_and_grouped():
    nodes = {"n1": node("a"), "n2": node("a"), "n3": node("b"), "n4": node("b")}
    agg = aggregate(nodes)
    assert agg.cluster_facts["cluster.zones"] == 2
    assert agg.zones == {"a": ["n1", "n2"], "b": ["n3", "n4"]}


def test_degraded_link_node_is_the_straggler_and_sets_the_cluster_bandwidth():
    nodes = {f"n{i}": node() for i in range(6)}
    nodes["n3"]["net.iperf3_gbps"] = 23.0
    agg = aggregate(nodes)
    assert agg.cluster_facts["cluster.stragglers"] == ["n3"]
    [outlier] = agg.outliers["n3"]
    assert outlier.fact == "net.iperf3_gbps" and outlier.value == 23.0 and outlier.median == 94.0
    assert outlier.direction == "low"
    # The ring runs at its weakest link: representative bandwidth is the minimum.
    assert agg.node_facts["net.iperf3_gbps"] == 23.0


def test_slow_nic_is_named_and_is_the_cluster_minimum():
    nodes = {f"n{i}": node() for i in range(4)}
    nodes["n2"]["nic.speed_gbps"] = 10
    agg = aggregate(nodes)
    assert agg.cluster_facts["cluster.nic_speed_min_gbps"] == 10
    assert agg.node_facts["nic.speed_gbps"] == 10
    assert "n2" in agg.cluster_facts["cluster.stragglers"]
    assert [o.fact for o in agg.outliers["n2"]] == ["nic.speed_gbps"]


def test_slow_step_and_idle_gpu_are_outliers_on_their_bad_side_only():
    nodes = {f"n{i}": node(job__step_time_s=1.0 + 0.01 * i, gpu__util_pct=90.0 + i) for i in range(7)}
    nodes["n5"]["job.step_time_s"] = 2.5
    nodes["n6"]["gpu.util_pct"] = 40.0
    nodes["n0"]["job.step_time_s"] = 0.5  # faster than the rest: not a straggler
    agg = aggregate(nodes)
    assert agg.cluster_facts["cluster.stragglers"] == ["n5", "n6"]
    assert agg.node_facts["job.step_time_s"] == 2.5  # the ring's step is the slowest node's


def test_noise_is_not_an_outlier():
    values = {"a": 93.0, "b": 94.0, "c": 92.5, "d": 95.0, "e": 88.0}
    assert find_outliers(values, "gpu.util_pct", "low") == []


def test_two_nodes_need_a_clear_gap():
    assert find_outliers({"a": 100.0, "b": 95.0}, "net.iperf3_gbps", "low") == []
    [o] = find_outliers({"a": 100.0, "b": 20.0}, "net.iperf3_gbps", "low")
    assert o.node_id == "b" and o.score is None


def test_representative_values_take_the_worst_case():
    nodes = {
        "n1": node(net__rtt_ms=0.2, nccl__transport="ib", nccl__ib_disabled=False),
        "n2": node(net__rtt_ms=2.5, nccl__transport="socket", nic__rdma=False, nccl__ib_disabled=True),
    }
    facts = aggregate(nodes).facts()
    assert facts["net.rtt_ms"] == 2.5
    assert facts["nccl.transport"] == "socket"
    assert facts["nic.rdma"] is False
    assert facts["nccl.ib_disabled"] is True
    assert facts["job.nodes"] == 2
    assert "node.zone" not in facts and "node.id" not in facts


def test_job_nodes_from_reports_wins_and_empty_cluster_is_empty():
    agg = aggregate({"n1": node(job__nodes=16), "n2": node(job__nodes=16)})
    assert agg.node_facts["job.nodes"] == 16
    empty = aggregate({})
    assert empty.cluster_facts == {"cluster.nodes": 0, "cluster.stragglers": []}
    assert empty.node_facts == {}


def test_no_placement_means_no_zone_count():
    agg = aggregate({"n1": {"nic.speed_gbps": 25}, "n2": {"nic.speed_gbps": 25}})
    assert "cluster.zones" not in agg.cluster_facts


# ---- the fast paths agree with the plain definition ------------------------------------------------
# aggregate() transposes the nodes' facts once and takes shortcuts when a fact's values are all plain
# numbers or all strings/bools; the reference below is the straightforward definition it replaced.


def _reference_representative(key: str, values: list[Any]) -> Any:
    numbers = [n for n in (_number(v) for v in values) if n is not None]
    if key in ALL_TRUE_FACTS:
        return all(v is True for v in values)
    if key in ANY_TRUE_FACTS:
        return any(v is True for v in values)
    if key in WORST_VALUE:
        for candidate in WORST_VALUE[key]:
            if candidate in values:
                return candidate
    if numbers and len(numbers) == len(values):
        if key in MIN_FACTS:
            best: float = min(numbers)
        elif key in MAX_FACTS:
            best = max(numbers)
        else:
            best = statistics.median(numbers)
        as_ints = all(isinstance(v, int) and not isinstance(v, bool) for v in values)
        return int(best) if as_ints and best == int(best) else best
    hashable = [v for v in values if isinstance(v, str | int | float | bool)]
    if not hashable:
        return None
    return Counter(hashable).most_common(1)[0][0]


def _reference(nodes: dict[str, dict[str, Any]]) -> dict[str, Any]:
    keys = sorted({k for facts in nodes.values() for k in facts} - PER_NODE_FACTS)
    node_facts: dict[str, Any] = {}
    for key in keys:
        values = [facts[key] for facts in nodes.values() if facts.get(key) is not None]
        if values and (value := _reference_representative(key, values)) is not None:
            node_facts[key] = value
    if nodes and "job.nodes" not in node_facts:
        node_facts["job.nodes"] = len(nodes)
    outliers: dict[str, list[dict[str, Any]]] = {}
    for fact, direction in OUTLIER_FACTS.items():
        values = {nid: n for nid, f in nodes.items() if (n := _number(f.get(fact))) is not None}
        for o in find_outliers(values, fact, direction):
            outliers.setdefault(o.node_id, []).append(o.to_dict())
    nic_speeds = [n for f in nodes.values() if (n := _number(f.get("nic.speed_gbps"))) is not None]
    return {
        "node_facts": node_facts,
        "outliers": outliers,
        "nic_speed_min": min(nic_speeds) if nic_speeds else None,
    }


def _typed(value: Any) -> Any:
    """Values with their types, so that 10 and 10.0 and True differ."""
    if isinstance(value, dict):
        return {k: _typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return (type(value).__name__, value)


class _Float(float):
    pass


_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([10, 25, 100, 400, 2**60 + 1]),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6),
    st.sampled_from(["ib", "socket", "other", "roce", "H100", ""]),
    st.builds(_Float, st.floats(0, 100)),
    st.just([1, 2]),
)
_KEYS = st.sampled_from(
    [
        "nic.speed_gbps",
        "net.iperf3_gbps",
        "gpu.util_pct",
        "job.step_time_s",
        "net.rtt_ms",
        "nic.rdma",
        "nccl.ib_disabled",
        "nccl.transport",
        "node.zone",
        "node.id",
        "gpu.model",
        "gpu.count",
        "job.nodes",
    ]
)


@settings(max_examples=400, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from([f"n{i}" for i in range(12)]),
        st.dictionaries(_KEYS, _VALUES, max_size=10),
        max_size=12,
    )
)
def test_aggregate_matches_the_plain_definition(nodes: dict[str, dict[str, Any]]) -> None:
    agg = aggregate(nodes)
    expected = _reference(nodes)
    assert list(agg.node_facts) == list(expected["node_facts"])
    assert _typed(agg.node_facts) == _typed(expected["node_facts"])
    assert {nid: [o.to_dict() for o in found] for nid, found in agg.outliers.items()} == expected["outliers"]
    assert agg.cluster_facts.get("cluster.nic_speed_min_gbps") == expected["nic_speed_min"]
    assert agg.cluster_facts["cluster.stragglers"] == sorted(expected["outliers"])


def test_a_thousand_uniform_nodes_take_the_fast_paths_to_the_same_answer() -> None:
    nodes = {
        f"n{i:04d}": node(
            "a" if i % 3 else "b",
            nic__speed_gbps=10 if i == 7 else 100,
            net__iperf3_gbps=20.0 if i == 3 else 94.0,
            gpu__count=8,
            gpu__model="H100",
            gpu__nvlink=True,
        )
        for i in range(1000)
    }
    agg = aggregate(nodes)
    expected = _reference(nodes)
    assert _typed(agg.node_facts) == _typed(expected["node_facts"])
    assert agg.node_facts["gpu.count"] == 8 and type(agg.node_facts["gpu.count"]) is int
    assert agg.node_facts["nic.speed_gbps"] == 10 and type(agg.node_facts["nic.speed_gbps"]) is int
    assert agg.cluster_facts["cluster.stragglers"] == ["n0003", "n0007"]
