import json

import httpx
import pytest

from bwdoctor_probe.client import ProbeClient
from bwdoctor_probe.errors import ConfigError, DeliveryError
from bwdoctor_probe.spool import Spool


def report(n: int, pad: int = 0) -> dict:
    return {"node_id": "n1", "body": {"facts": {"x": n}, "report_id": f"r{n}", "pad": "." * pad}}


def test_spool_keeps_order_across_instances(tmp_path):
    spool = Spool(tmp_path, max_bytes=1 << 20)
    for n in range(1, 4):
        spool.put(report(n))
    again = Spool(tmp_path, max_bytes=1 << 20)  # a restarted probe
    assert [again.load(p)["body"]["report_id"] for p in again.pending()] == ["r1", "r2", "r3"]
    again.remove(again.pending()[0])
    again.put(report(4))
    assert [again.load(p)["body"]["report_id"] for p in again.pending()] == ["r2", "r3", "r4"]


def test_full_spool_drops_the_oldest_and_counts_them(tmp_path):
    one = len(json.dumps(report(1, 400), separators=(",", ":")))
    spool = Spool(tmp_path, max_bytes=3 * one + 10)
    for n in range(1, 7):
        spool.put(report(n, 400))
    assert [spool.load(p)["body"]["report_id"] for p in spool.pending()] == ["r4", "r5", "r6"]
    assert spool.dropped == 3
    assert spool.size_bytes() <= spool.max_bytes
    assert Spool(tmp_path, max_bytes=1 << 20).dropped == 3  # the count survives a restart


def test_report_bigger_than_the_spool_is_dropped_and_counted(tmp_path):
    spool = Spool(tmp_path, max_bytes=1024)
    assert spool.put(report(1, 5000)) is None and spool.dropped == 1 and spool.pending() == []


def test_corrupt_file_is_dropped(tmp_path):
    spool = Spool(tmp_path, max_bytes=1 << 20)
    path = spool.put(report(1))
    path.write_text("{half")
    assert spool.load(path) is None and spool.pending() == [] and spool.dropped == 1


def test_spool_lock_is_exclusive(tmp_path):
    first = Spool(tmp_path, max_bytes=1 << 20)
    first.lock()
    with pytest.raises(ConfigError, match="another agent-probe"):
        Spool(tmp_path, max_bytes=1 << 20).lock()
    first.unlock()
    Spool(tmp_path, max_bytes=1 << 20).lock()


def client_answering(status: int, seen: list, **kwargs) -> ProbeClient:
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(status, **kwargs)

    return ProbeClient("http://bwd.test:8000/", "tok-123", transport=httpx.MockTransport(handler))


def test_put_shape_url_and_token():
    seen: list[httpx.Request] = []
    client_answering(200, seen).put_report("gpu a01", {"facts": {"gpu.count": 8}, "report_id": "r1"})
    request = seen[0]
    assert request.method == "PUT"
    assert str(request.url) == "http://bwd.test:8000/api/v1/nodes/gpu%20a01/facts"
    assert request.headers["Authorization"] == "Bearer tok-123"
    assert json.loads(request.content) == {"facts": {"gpu.count": 8}, "report_id": "r1"}


@pytest.mark.parametrize(("status", "retryable"), [(500, True), (503, True), (429, True), (401, True),
                                                   (422, False), (400, False), (404, False)])
def test_failures_say_whether_to_retry(status, retryable):
    client = client_answering(status, [], json={"error": {"code": "x", "message": "bad facts"}})
    with pytest.raises(DeliveryError) as caught:
        client.put_report("n1", {"facts": {}})
    assert caught.value.retryable is retryable
    assert f"answered {status}" in str(caught.value)


def test_duplicate_report_is_success_and_retry_after_is_read():
    client_answering(409, []).put_report("n1", {"facts": {}})
    with pytest.raises(DeliveryError) as caught:
        client_answering(503, [], headers={"Retry-After": "7"}).put_report("n1", {"facts": {}})
    assert caught.value.retry_after_s == 7.0


def test_unreachable_is_retryable():
    def refuse(request):
        raise httpx.ConnectError("connection refused", request=request)

    client = ProbeClient("http://bwd.test", None, transport=httpx.MockTransport(refuse))
    with pytest.raises(DeliveryError) as caught:
        client.put_report("n1", {"facts": {}})
    assert caught.value.retryable and "unreachable" in str(caught.value)
