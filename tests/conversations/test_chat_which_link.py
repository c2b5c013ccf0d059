"""The chat's "which link is bad in cluster X?" through the one ask flow (POST /api/v1/ask) against a real
database: the fabric run's localisation names the slow NIC, in the user's language; a cluster without a
run says how to start one."""

from __future__ import annotations

from tests.fabric.test_fabric_api import drive_run, setup_clusters, start


def test_the_chat_names_the_slow_nic_from_the_latest_fabric_run(client, auth):
    setup_clusters(client, auth)
    start(client, auth)
    drive_run(client, auth, slow={"nic:a5"})
    en = client.post("/api/v1/ask", json={"question": "Which link is bad in cluster ca?"})
    assert en.status_code == 200, en.text
    body = en.json()
    assert body["intent"] == "which_link" and body["cluster"] == "ca"
    assert "Cluster ca:" in body["answer"] and "a5" in body["answer"] and "needs the" not in body["answer"]
    zh = client.post("/api/v1/ask", json={"question": "ca 集群哪条链路有问题？"}).json()
    assert zh["language"] == "zh" and "集群 ca" in zh["answer"] and "节点 a5 的网卡" in zh["answer"]
    stored = client.get(f"/api/v1/conversations/{zh['conversation_id']}").json()
    assert stored["turns"][0]["answer"] == zh["answer"]


def test_a_cluster_without_pair_tests_says_how_to_start_them(client, auth):
    setup_clusters(client, auth)
    body = client.post("/api/v1/ask", json={"question": "Which link is bad in cluster cb?"}).json()
    assert body["intent"] == "which_link" and "no pair-test results" in body["answer"]
    assert "/api/v1/clusters/cb/fabric" in body["answer"]
