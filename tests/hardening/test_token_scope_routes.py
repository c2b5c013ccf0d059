"""Bound probe tokens on every probe-token route besides ingest (issue 14, defect 5): the fabric
tests' routes and the cluster settings and job routes refuse a token bound elsewhere with 403
token_scope, admit it within its scope, and still answer 401 to no token. SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from tests.hardening.test_token_scope import make_token, put
from tests.helpers import assert_error_shape

JOB = {"job.model_params_b": 7, "job.precision": "bf16"}


@pytest.fixture
def fleet(client, db_session):
    """Nodes a1 (cluster a) and b1 (cluster b), and tokens: unbound, node a1, cluster a."""
    admin = make_token(db_session, "admin")
    for node, cluster in (("a1", "a"), ("b1", "b")):
        assert put(client, node, admin, cluster=cluster).status_code == 201
    return {
        "admin": admin,
        "node_a1": make_token(db_session, "a1-only", node_id="a1"),
        "cluster_a": make_token(db_session, "rack-a", cluster="a"),
    }


def next_test(client, node, headers):
    return client.get(f"/api/v1/nodes/{node}/tests/next", params={"address": "10.0.0.9"}, headers=headers)


def post_result(client, node, headers):
    return client.post(f"/api/v1/nodes/{node}/tests/1/result", json={"gbps": 1.0}, headers=headers)


@pytest.mark.parametrize("who", ["node_a1", "cluster_a"])
def test_node_routes_refuse_a_token_bound_elsewhere(client, fleet, who):
    assert next_test(client, "a1", fleet[who]).status_code == 200
    assert_error_shape(next_test(client, "b1", fleet[who]), 403, "token_scope")
    # A test id that does not exist is only looked up once the token may act for the node.
    assert_error_shape(post_result(client, "a1", fleet[who]), 404, "test_unknown")
    assert_error_shape(post_result(client, "b1", fleet[who]), 403, "token_scope")
    # A node nobody has placed yet is outside a cluster-bound token, and another node for a node-bound one.
    assert_error_shape(next_test(client, "new", fleet[who]), 403, "token_scope")


def test_an_unbound_token_and_no_token_are_as_before(client, fleet):
    assert next_test(client, "b1", fleet["admin"]).status_code == 200
    assert_error_shape(next_test(client, "b1", {}), 401, "token_required")
    assert_error_shape(next_test(client, "b1", {"Authorization": "Bearer bwd_nope"}), 401, "token_invalid")


def test_cluster_routes_take_only_that_clusters_token_or_an_unbound_one(client, fleet):
    bound = fleet["cluster_a"]
    assert client.put("/api/v1/clusters/a/fabric", json={"enabled": False}, headers=bound).status_code == 200
    r = client.put("/api/v1/clusters/b/fabric", json={"enabled": True}, headers=bound)
    assert_error_shape(r, 403, "token_scope")
    assert client.get("/api/v1/clusters/b/fabric").json()["settings"]["enabled"] is False
    assert_error_shape(client.post("/api/v1/clusters/b/fabric/runs", headers=bound), 403, "token_scope")
    # Within its scope the run route goes on to its own checks (the cluster is not opted in).
    assert_error_shape(client.post("/api/v1/clusters/a/fabric/runs", headers=bound), 422, "fabric_disabled")

    assert client.put("/api/v1/clusters/a/job", json={"facts": JOB}, headers=bound).status_code == 200
    assert_error_shape(client.put("/api/v1/clusters/b/job", json={"facts": JOB}, headers=bound), 403, "token_scope")
    assert client.get("/api/v1/clusters/b/job").status_code == 404
    assert client.put("/api/v1/clusters/b/job", json={"facts": JOB}, headers=fleet["admin"]).status_code == 200
    assert_error_shape(client.delete("/api/v1/clusters/b/job", headers=bound), 403, "token_scope")
    assert client.get("/api/v1/clusters/b/job").status_code == 200
    assert client.delete("/api/v1/clusters/a/job", headers=bound).status_code == 204


def test_a_node_bound_token_changes_nothing_cluster_wide(client, fleet):
    one_node = fleet["node_a1"]
    r = client.put("/api/v1/clusters/a/fabric", json={"enabled": True}, headers=one_node)
    assert_error_shape(r, 403, "token_scope")
    assert "a1" in r.json()["error"]["message"]
    assert client.get("/api/v1/clusters/a/fabric").json()["settings"]["enabled"] is False
    assert_error_shape(client.post("/api/v1/clusters/a/fabric/runs", headers=one_node), 403, "token_scope")
    assert_error_shape(client.put("/api/v1/clusters/a/job", json={"facts": JOB}, headers=one_node), 403, "token_scope")
    assert_error_shape(client.delete("/api/v1/clusters/a/job", headers=one_node), 403, "token_scope")
