"""POST /api/v1/ask: chat turns stored as conversations, facts carried across turns."""

from __future__ import annotations

from tests.helpers import assert_error_shape


def test_conversation_carries_facts_between_turns(client):
    first = client.post("/api/v1/ask", json={"question": "We train a 100B model in fp16 on 8 nodes."})
    assert first.status_code == 200, first.text
    body = first.json()
    cid = body["conversation_id"]
    assert body["language"] == "en" and body["answer"]
    assert body["facts"]["job.model_params_b"] == 100
    second = client.post("/api/v1/ask", json={"question": "The NICs are 10GbE.", "conversation_id": cid})
    assert second.status_code == 200, second.text
    facts = second.json()["facts"]
    assert facts["job.model_params_b"] == 100 and facts["nic.speed_gbps"] == 10
    assert "nic-undersized" in {f["category"] for f in second.json()["findings"]}
    stored = client.get(f"/api/v1/conversations/{cid}").json()
    assert [t["seq"] for t in stored["turns"]] == [1, 2]
    assert stored["turns"][1]["facts"]["nic.speed_gbps"] == 10


def test_ask_errors(client):
    assert_error_shape(client.post("/api/v1/ask", json={"question": ""}), 422, "validation_error")
    assert_error_shape(client.post("/api/v1/ask", json={"question": "a\x00b"}), 422, "validation_error")
    r = client.post("/api/v1/ask", json={"question": "hi", "conversation_id": "unknown"})
    assert_error_shape(r, 404, "conversation_not_found")
