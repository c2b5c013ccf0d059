from tests.service.conftest import assert_error_shape


def test_healthz_and_put_and_get(client, auth):
    assert client.get("/healthz").json() == {"status": "ok"}
    r = client.put("/api/v1/nodes/n1/facts", json={"facts": {"nic.speed_gbps": 100, "node.cluster": "c1"}}, headers=auth)
    assert r.status_code == 201, r.text
    r = client.get("/api/v1/nodes/n1")
    assert r.status_code == 200, r.text
    print(r.json())
    assert_error_shape(client.get("/api/v1/nodes/zz"), 404)
    print(client.get("/metrics").text[-3000:])
