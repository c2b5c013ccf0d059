"""The probe's side of planned tests against the real service over real HTTP: it runs only tests
the service hands it, never two at once (nor a node in two tests), never outside its cluster, and
refuses a test that breaks its own limits. iperf3 is replaced by a recorder (the namespace test in
tests/agent_probe/test_fabric_netns.py runs the real one)."""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import select

from bwdoctor.fabric.models import FabricTest
from bwdoctor_probe.collectors.peers import PeerMeasurement
from bwdoctor_probe.config import ProbeConfig
from bwdoctor_probe.fabric_tests import PlannedTestWorker, RefusedTest, check_test, iperf_rate_cap
from tests.helpers import live_server

NODES = [f"q{i}" for i in range(6)]


class Recorder:
    """Stands in for iperf3: records who measured whom and when, and checks no overlap as it goes."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.active: set[str] = set()
        self.calls: list[tuple[str, str, float, float]] = []
        self.overlaps: list[str] = []

    def for_node(self, node: str, addresses: dict[str, str]):
        def measure(peer: str, **kw) -> PeerMeasurement:
            host = peer.rsplit(":", 1)[0]
            peer_node = addresses[host]
            with self.lock:
                for n in (node, peer_node):
                    if n in self.active:
                        self.overlaps.append(n)
                self.active |= {node, peer_node}
            started = time.monotonic()
            time.sleep(0.02)
            with self.lock:
                self.active -= {node, peer_node}
                self.calls.append((node, peer_node, started, time.monotonic()))
            return PeerMeasurement(host=peer, iperf3_gbps=9.5)

        return measure


def cfg(base: str, token: str, node: str, cluster: str = "cq") -> ProbeConfig:
    return ProbeConfig(server=base, token=token, node_id=node, cluster=cluster, fabric_tests=True,
                       fabric_address=address(node), fabric_poll_s=0.05)


def address(node: str) -> str:
    return f"10.3.0.{int(node[1:]) + 1}"


@pytest.fixture
def service(client, auth, token, app):
    for node in NODES:
        client.put(f"/api/v1/nodes/{node}/facts", json={"facts": {"node.cluster": "cq"}}, headers=auth)
    client.put("/api/v1/nodes/x0/facts", json={"facts": {"node.cluster": "other"}}, headers=auth)
    with live_server(app) as base:
        yield base


def test_a_probe_runs_nothing_while_tests_are_off(service, token):
    recorder = Recorder()
    addresses = {address(n): n for n in NODES}
    worker = PlannedTestWorker(cfg(service, token, "q0"), measure=recorder.for_node("q0", addresses))
    for _ in range(3):
        worker.once()
    assert recorder.calls == [] and worker.tests_run == 0


def test_probes_run_exactly_the_planned_tests_one_at_a_time_within_their_cluster(service, token, client, auth,
                                                                                 db_session):
    recorder = Recorder()
    addresses = {address(n): n for n in NODES} | {"10.3.9.9": "x0"}
    stop = threading.Event()
    workers = [PlannedTestWorker(cfg(service, token, n), measure=recorder.for_node(n, addresses), stop=stop)
               for n in NODES]
    outsider = PlannedTestWorker(ProbeConfig(server=service, token=token, node_id="x0", cluster="other",
                                             fabric_tests=True, fabric_address="10.3.9.9", fabric_poll_s=0.05),
                                 measure=recorder.for_node("x0", addresses), stop=stop)
    for w in [*workers, outsider]:
        w.once()  # announce
    client.put("/api/v1/clusters/cq/fabric", json={"enabled": True, "max_parallel": 3, "duration_s": 1},
               headers=auth)
    assert client.post("/api/v1/clusters/cq/fabric/runs", headers=auth).status_code == 201
    threads = [threading.Thread(target=w.run) for w in [*workers, outsider]]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if client.get("/api/v1/clusters/cq/fabric").json()["latest_run"]["status"] == "done":
            break
        time.sleep(0.1)
    stop.set()
    for t in threads:
        t.join(timeout=10)
    assert client.get("/api/v1/clusters/cq/fabric").json()["latest_run"]["status"] == "done"
    planned = sorted((t.client, t.server) for t in db_session.scalars(select(FabricTest)))
    ran = sorted((c, p) for c, p, _, _ in recorder.calls)
    assert ran == planned and len(ran) >= len(NODES)  # every test run was planned, and each planned one ran
    assert recorder.overlaps == []  # no node in two tests at once
    assert all(c in NODES and p in NODES for c, p in ran)  # never outside the cluster
    assert outsider.tests_run == 0


def test_a_probe_refuses_tests_that_break_its_limits():
    mine = ProbeConfig(node_id="q1", cluster="cq", fabric_max_duration_s=5, fabric_max_rate_gbps=1.0)
    good = {"test_id": 1, "client": "q1", "peer": "q2", "cluster": "cq", "address": "10.0.0.2", "port": 5201,
            "duration_s": 2.0, "rate_gbps": 4.0}
    check_test(good, mine)
    assert iperf_rate_cap(good, mine) == "1000M"  # the node's own cap wins
    for change in ({"cluster": "elsewhere"}, {"client": "q9"}, {"duration_s": 60}, {"address": "evil.example"},
                   {"peer": "q1"}, {"port": 0}):
        with pytest.raises(RefusedTest):
            check_test(good | change, mine)
    with pytest.raises(RefusedTest):
        check_test(good, ProbeConfig(node_id="q1", cluster=None))
