"""The fabric routes against a real database: opt-in, authentication, a whole run handed out test by
test to probes (simulated here by a fault model), and the localisation in the cluster diagnosis."""

from __future__ import annotations

import itertools

from tests.helpers import assert_error_shape

LEAVES = {f"a{i}": ("leaf-1" if i < 4 else "leaf-2") for i in range(8)}


def report(client, auth, node_id, cluster, leaf=None):
    facts = {"node.cluster": cluster, "gpu.count": 8}
    if leaf:
        facts["node.leaf_switch"] = leaf
    r = client.put(f"/api/v1/nodes/{node_id}/facts", json={"facts": facts}, headers=auth)
    assert r.status_code in (200, 201), r.text


def address(node_id: str) -> str:
    return f"10.9.{ord(node_id[0]) % 200}.{int(node_id[1:]) + 1}"


def next_test(client, auth, node_id):
    r = client.get(f"/api/v1/nodes/{node_id}/tests/next", params={"address": address(node_id)}, headers=auth)
    assert r.status_code == 200, r.text
    return r.json()


def setup_clusters(client, auth):
    for node_id, leaf in LEAVES.items():
        report(client, auth, node_id, "ca", leaf)
    for i in range(3):
        report(client, auth, f"b{i}", "cb", "leaf-9")


def test_tests_are_off_by_default_and_need_a_token(client, auth):
    setup_clusters(client, auth)
    assert next_test(client, auth, "a0")["test"] is None
    assert_error_shape(client.get("/api/v1/nodes/a0/tests/next", params={"address": "10.0.0.1"}), 401)
    assert_error_shape(client.put("/api/v1/clusters/ca/fabric", json={"enabled": True}), 401)
    assert_error_shape(client.post("/api/v1/clusters/ca/fabric/runs", headers=auth), 422, "fabric_disabled")
    assert client.get("/api/v1/clusters/ca/fabric").json()["settings"]["enabled"] is False
    assert_error_shape(client.get("/api/v1/clusters/ca/fabric/localisation"), 404, "no_fabric_run")


def test_bad_requests_are_named(client, auth):
    setup_clusters(client, auth)
    r = client.get("/api/v1/nodes/a0/tests/next", params={"address": "not-an-ip"}, headers=auth)
    assert_error_shape(r, 422, "invalid_address")
    r = client.get("/api/v1/nodes/ghost/tests/next", params={"address": "10.0.0.1"}, headers=auth)
    assert_error_shape(r, 404, "node_unknown")
    assert_error_shape(client.post("/api/v1/nodes/a0/tests/999/result", json={"gbps": 1}, headers=auth), 404)
    r = client.put("/api/v1/clusters/ca/fabric", json={"enabled": True, "duration_s": 60}, headers=auth)
    assert r.status_code == 422
    client.put("/api/v1/clusters/ca/fabric", json={"enabled": True}, headers=auth)
    r = client.post("/api/v1/clusters/ca/fabric/runs", headers=auth)
    assert_error_shape(r, 422, "too_few_nodes")


def fault_gbps(client_node: str, server_node: str, slow: set[str]) -> float:
    """10 Gb/s, unless the path passes a slow element (a NIC, or leaf-2's uplink)."""
    path = {f"nic:{client_node}", f"nic:{server_node}"}
    if LEAVES.get(client_node) != LEAVES.get(server_node):
        path |= {"uplink:leaf-1", "uplink:leaf-2"}
    return 2.0 if path & slow else 10.0


def drive_run(client, auth, slow: set[str], nodes=tuple(LEAVES)) -> list[dict]:
    """Every node asks in turn; tests handed out in a round run 'at once' (results after the round)."""
    handed: list[dict] = []
    for _ in range(60):
        running = []
        for node_id in itertools.chain(nodes, ["b0", "b1", "b2"]):
            body = next_test(client, auth, node_id)
            if body["test"] is not None:
                running.append(body["test"])
        busy = [n for t in running for n in (t["client"], t["peer"])]
        assert len(busy) == len(set(busy)), f"a node in two tests at once: {running}"
        for t in running:
            assert t["client"] in LEAVES and t["peer"] in LEAVES and t["cluster"] == "ca"
            assert t["address"] == address(t["peer"]) and t["duration_s"] == 1.0 and t["rate_gbps"] == 20.0
            r = client.post(
                f"/api/v1/nodes/{t['client']}/tests/{t['test_id']}/result",
                json={"gbps": fault_gbps(t["client"], t["peer"], slow)},
                headers=auth,
            )
            assert r.status_code == 200, r.text
        handed += running
        state = client.get("/api/v1/clusters/ca/fabric").json()["latest_run"]
        if state["status"] == "done":
            return handed
    raise AssertionError("the run did not finish")


def start(client, auth):
    for node_id in itertools.chain(LEAVES, ["b0", "b1", "b2"]):
        next_test(client, auth, node_id)  # announce
    settings = {"enabled": True, "duration_s": 1, "rate_gbps": 20, "max_parallel": 3}
    assert client.put("/api/v1/clusters/ca/fabric", json=settings, headers=auth).status_code == 200
    r = client.post("/api/v1/clusters/ca/fabric/runs", headers=auth)
    assert r.status_code == 201, r.text
    assert r.json()["nodes"] == 8
    assert_error_shape(client.post("/api/v1/clusters/ca/fabric/runs", headers=auth), 409, "run_in_progress")


def test_a_run_localises_a_slow_nic_within_the_cluster(client, auth):
    setup_clusters(client, auth)
    start(client, auth)
    handed = drive_run(client, auth, slow={"nic:a5"})
    assert len(handed) < 28  # all pairs of 8 nodes
    result = client.get("/api/v1/clusters/ca/diagnosis").json()
    fabric = result["fabric"]
    assert fabric["status"] == "done"
    loc = fabric["localisation"]
    assert [s["element"] for s in loc["suspects"]] == ["nic:a5"], loc
    assert loc["tests_used"] == len(handed) and loc["all_pairs"] == 28
    assert fabric["findings"][0]["category"] == "fabric-element-degraded"
    zh = client.get("/api/v1/clusters/ca/diagnosis", params={"lang": "zh"}).json()["fabric"]["findings"][0]
    assert "节点 a5 的网卡" in zh["title"]
    # The other cluster's nodes never got a test.
    assert all(t["client"] in LEAVES for t in handed)


def test_a_run_localises_the_link_between_two_leaves_and_a_healthy_run_says_so(client, auth):
    setup_clusters(client, auth)
    start(client, auth)
    drive_run(client, auth, slow={"uplink:leaf-2"})
    loc = client.get("/api/v1/clusters/ca/fabric/localisation").json()["localisation"]
    # With two leaf switches, one leaf's uplink and the other's are one link: named as such.
    assert [s["element"] for s in loc["suspects"]] == ["link:leaf-1|leaf-2"], loc
    r = client.post("/api/v1/clusters/ca/fabric/runs", headers=auth)
    assert r.status_code == 201
    drive_run(client, auth, slow=set())
    healthy = client.get("/api/v1/clusters/ca/fabric/localisation").json()
    assert healthy["localisation"]["status"] == "healthy" and healthy["localisation"]["suspects"] == []
    assert healthy["findings"][0]["rule"] == "fabric-healthy"


def test_a_result_is_taken_once_and_only_from_the_node_it_was_handed_to(client, auth):
    setup_clusters(client, auth)
    start(client, auth)
    test = None
    for node_id in LEAVES:
        test = next_test(client, auth, node_id)["test"]
        if test:
            break
    assert test is not None
    other = next(n for n in LEAVES if n != test["client"])
    r = client.post(f"/api/v1/nodes/{other}/tests/{test['test_id']}/result", json={"gbps": 1.0}, headers=auth)
    assert_error_shape(r, 404, "test_unknown")
    url = f"/api/v1/nodes/{test['client']}/tests/{test['test_id']}/result"
    assert_error_shape(client.post(url, json={}, headers=auth), 422, "result_empty")
    assert client.post(url, json={"gbps": 9.5}, headers=auth).status_code == 200
    assert_error_shape(client.post(url, json={"gbps": 9.5}, headers=auth), 409, "test_closed")
    # Turning tests off ends the run; nothing more is handed out.
    client.put("/api/v1/clusters/ca/fabric", json={"enabled": False}, headers=auth)
    assert all(next_test(client, auth, n)["test"] is None for n in LEAVES)


def test_a_nodes_history_shows_a_lasting_regression_with_what_changed(client, auth):
    from datetime import UTC, datetime, timedelta

    t0 = datetime(2026, 11, 2, tzinfo=UTC)
    for i in range(40):
        slow = i >= 25
        facts = {"node.cluster": "ca", "job.step_time_s": (1.4 if slow else 1.0) + 0.01 * (i % 3),
                 "nccl.version": "2.21.5" if slow else "2.19.3"}
        body = {"facts": facts, "report_id": f"r{i}", "collected_at": (t0 + timedelta(hours=i)).isoformat()}
        assert client.put("/api/v1/nodes/h1/facts", json=body, headers=auth).status_code == 201
    found = client.get("/api/v1/nodes/h1/regressions").json()["regressions"]
    assert len(found) == 1 and found[0]["fact"] == "job.step_time_s"
    assert found[0]["since"].startswith("2026-11-03T01:00")
    assert found[0]["changed_with"] == {"nccl.version": ["2.19.3", "2.21.5"]}
    assert "% slower" in found[0]["text"]
    zh = client.get("/api/v1/nodes/h1/regressions", params={"lang": "zh"}).json()["regressions"]
    assert "节点 h1" in zh[0]["text"]
    assert client.get("/api/v1/nodes/ghost/regressions").status_code == 404


def test_the_cluster_page_shows_the_matrix_the_suspect_and_the_leaf_groups_in_both_languages(client, auth):
    setup_clusters(client, auth)
    page = client.get("/clusters/ca", params={"lang": "en"}).text
    assert "Nodes by leaf switch" in page and "No pair-test run yet" in page
    start(client, auth)
    drive_run(client, auth, slow={"nic:a6"})
    page = client.get("/clusters/ca", params={"lang": "en"}).text
    assert 'id="cv-fabric-matrix"' in page and 'data-suspects="nic:a6"' in page
    assert 'class="suspect"' in page and "Suspect: the NIC/port of node a6" in page
    assert "tests of 28 pairs" in page
    zh = client.get("/clusters/ca", params={"lang": "zh"}).text
    assert "节点对带宽矩阵" in zh and "嫌疑: 节点 a6 的网卡/端口" in zh
    assert "按叶交换机分组的节点" in zh
