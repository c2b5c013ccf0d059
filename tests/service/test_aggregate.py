"""Pure cluster-fact derivation: placement counts, weakest link, robust straggler detection."""

from __future__ import annotations

from service.clusters.aggregate import aggregate, find_outliers


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
