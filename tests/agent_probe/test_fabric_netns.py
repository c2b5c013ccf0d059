"""A simulated fabric in network namespaces, end to end: eight node namespaces under two leaf
switches (Linux bridges, each in a namespace of its own) joined by a spine veth; the real service
on the host, reached over a veth into leaf A; in every node namespace the real `agent-probe run
--fabric-tests` and `agent-probe serve-iperf`. The service plans the tests, the probes run them, the
service localises. Runs: nothing shaped (healthy), one node's port shaped with tc (both directions),
the spine link shaped. Addresses are 10.x inside these namespaces only; everything is deleted even
when a test fails.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest

from tests import prereqs
from tests.helpers import REPO
from tests.prereqs import needs

pytestmark = [
    pytest.mark.netns,
    needs(prereqs.ROOT, prereqs.IPROUTE2, prereqs.IPERF3, why="a fabric of network namespaces shaped with tc"),
]

NODES = 8
CLUSTER = "simfab"
SHAPED_RATE = "200mbit"
RUN_TIMEOUT_S = 60


def sh(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(list(args), capture_output=True, text=True, check=check, timeout=30)


class Fabric:
    """leaf-a and leaf-b (bridges), the spine veth between them, nodes n0..n7 (n0-n3 on leaf-a)."""

    def __init__(self, tmp: Path) -> None:
        self.tag = uuid.uuid4().hex[:5]
        self.tmp = tmp
        self.subnet = f"10.{random.randint(100, 199)}.{random.randint(0, 255)}"
        self.leaves = {"leaf-a": f"bfla{self.tag}", "leaf-b": f"bflb{self.tag}"}
        self.nodes = [f"n{i}" for i in range(NODES)]
        self.ns = {n: f"bfn{i}{self.tag}" for i, n in enumerate(self.nodes)}
        self.leaf_of = {n: "leaf-a" if i < NODES // 2 else "leaf-b" for i, n in enumerate(self.nodes)}
        self.port_on_leaf = {n: f"p{i}{self.tag}" for i, n in enumerate(self.nodes)}
        self.host_if = f"bfh{self.tag}"
        self.host_addr = f"{self.subnet}.254"
        self.procs: list[subprocess.Popen] = []
        self.base = ""
        self.token = ""

    def addr(self, node: str) -> str:
        return f"{self.subnet}.{self.nodes.index(node) + 1}"

    def create(self) -> None:
        for ns in self.leaves.values():
            sh("ip", "netns", "add", ns)
            sh("ip", "-n", ns, "link", "add", "br0", "type", "bridge")
            sh("ip", "-n", ns, "link", "set", "br0", "up")
        # The spine link: one veth, an end in each leaf, each end on its leaf's bridge.
        sh("ip", "link", "add", f"sa{self.tag}", "type", "veth", "peer", "name", f"sb{self.tag}")
        for end, leaf in ((f"sa{self.tag}", "leaf-a"), (f"sb{self.tag}", "leaf-b")):
            ns = self.leaves[leaf]
            sh("ip", "link", "set", end, "netns", ns)
            sh("ip", "-n", ns, "link", "set", end, "name", "spine", "master", "br0", "up")
        for node in self.nodes:
            ns, leaf_ns = self.ns[node], self.leaves[self.leaf_of[node]]
            sh("ip", "netns", "add", ns)
            port, node_end = self.port_on_leaf[node], f"e{self.port_on_leaf[node]}"
            sh("ip", "link", "add", node_end, "type", "veth", "peer", "name", port)
            sh("ip", "link", "set", node_end, "netns", ns)
            sh("ip", "-n", ns, "link", "set", node_end, "name", "eth0")
            sh("ip", "-n", ns, "addr", "add", f"{self.addr(node)}/24", "dev", "eth0")
            sh("ip", "-n", ns, "link", "set", "eth0", "up")
            sh("ip", "-n", ns, "link", "set", "lo", "up")
            sh("ip", "link", "set", self.port_on_leaf[node], "netns", leaf_ns)
            sh("ip", "-n", leaf_ns, "link", "set", self.port_on_leaf[node], "master", "br0", "up")
        # The host (the service) hangs off leaf A.
        sh("ip", "link", "add", self.host_if, "type", "veth", "peer", "name", f"bfx{self.tag}")
        sh("ip", "link", "set", f"bfx{self.tag}", "netns", self.leaves["leaf-a"])
        sh("ip", "-n", self.leaves["leaf-a"], "link", "set", f"bfx{self.tag}", "master", "br0", "up")
        sh("ip", "addr", "add", f"{self.host_addr}/24", "dev", self.host_if)
        sh("ip", "link", "set", self.host_if, "up")

    def shape(self, leaf_ns: str, dev: str, ns: str | None = None) -> None:
        prefix = ["ip", "netns", "exec", ns or leaf_ns]
        sh(*prefix, "tc", "qdisc", "add", "dev", dev, "root", "tbf", "rate", SHAPED_RATE, "burst", "64kb",
           "latency", "50ms")

    def unshape(self, ns: str, dev: str) -> None:
        sh("ip", "netns", "exec", ns, "tc", "qdisc", "del", "dev", dev, "root", check=False)

    def shape_node_port(self, node: str) -> list[tuple[str, str]]:
        """Both directions of the node's port: its own end and the switch's end."""
        leaf_ns = self.leaves[self.leaf_of[node]]
        self.shape(leaf_ns, "eth0", ns=self.ns[node])
        self.shape(leaf_ns, self.port_on_leaf[node])
        return [(self.ns[node], "eth0"), (leaf_ns, self.port_on_leaf[node])]

    def shape_spine(self) -> list[tuple[str, str]]:
        for ns in self.leaves.values():
            self.shape(ns, "spine")
        return [(ns, "spine") for ns in self.leaves.values()]

    def start_service(self) -> None:
        from bwdoctor.database import session_scope
        from bwdoctor.migrations import upgrade_database
        from bwdoctor.tokens.service import create_token

        url = f"sqlite:///{self.tmp / 'fabric.db'}"
        upgrade_database(url)
        from bwdoctor.config import Settings

        with session_scope(Settings(_env_file=None, database_url=url), migrate=False) as session:  # type: ignore[call-arg]
            self.token = create_token("fabric-probes", db_session=session)
        port = 18000 + random.randint(0, 999)
        env = {**os.environ, "BWDOCTOR_DATABASE_URL": url, "PYTHONPATH": str(REPO)}
        env.pop("BWDOCTOR_TEST_DATABASE_URL", None)
        self.spawn([sys.executable, "-m", "bwdoctor.cli", "serve", "--host", self.host_addr, "--port", str(port),
                    "--no-access-log", "--log-level", "warning"], env=env, cwd=self.tmp)
        self.base = f"http://{self.host_addr}:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise AssertionError("the service did not start")

    def start_probes(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("AGENT_PROBE_")}
        env |= {"AGENT_PROBE_TOKEN": self.token, "PYTHONPATH": str(REPO)}
        probe = [sys.executable, "-m", "bwdoctor_probe.cli"]
        for node in self.nodes:
            ns = ["ip", "netns", "exec", self.ns[node]]
            self.spawn([*ns, *probe, "serve-iperf", "--port", "5201", "--rtt-port", "0"], env=env, cwd=self.tmp)
            self.spawn([*ns, *probe, "run", "--server", self.base, "--node-id", node, "--cluster", CLUSTER,
                        "--leaf-switch", self.leaf_of[node], "--no-gpu", "--window", "0.2", "--interval", "120",
                        "--spool-dir", str(self.tmp / f"spool-{node}"), "--fabric-tests", "--fabric-poll", "0.5",
                        "--fabric-address", self.addr(node)], env=env, cwd=self.tmp)

    def spawn(self, command: list[str], *, env: dict[str, str], cwd: Path) -> None:
        log = open(self.tmp / f"proc-{len(self.procs)}.log", "w")  # noqa: SIM115 - closed with the process
        self.procs.append(subprocess.Popen(command, env=env, cwd=cwd, stdout=log, stderr=subprocess.STDOUT))

    def api(self, method: str, path: str, **kw) -> httpx.Response:
        headers = {"Authorization": f"Bearer {self.token}"}
        return httpx.request(method, self.base + path, headers=headers, timeout=10, **kw)

    def wait_endpoints(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if len(self.api("GET", f"/api/v1/clusters/{CLUSTER}/fabric").json()["endpoints"]) == NODES:
                return
            time.sleep(0.5)
        raise AssertionError(f"not every probe asked for tests; logs in {self.tmp}")

    def run_tests(self) -> dict:
        """Start a run and wait for its localisation."""
        started = self.api("POST", f"/api/v1/clusters/{CLUSTER}/fabric/runs")
        assert started.status_code == 201, started.text
        deadline = time.monotonic() + RUN_TIMEOUT_S
        while time.monotonic() < deadline:
            latest = self.api("GET", f"/api/v1/clusters/{CLUSTER}/fabric").json()["latest_run"]
            if latest["status"] == "done":
                diagnosis = self.api("GET", f"/api/v1/clusters/{CLUSTER}/diagnosis").json()
                fabric = diagnosis["fabric"]
                loc = fabric["localisation"]
                print(f"\n{loc['status']}: suspects {[s['element'] for s in loc['suspects']]}; "
                      f"tests used {loc['tests_used']} of {loc['all_pairs']} pairs (all pairs); "
                      f"baseline {loc['baseline_gbps']} Gb/s")
                return fabric
            time.sleep(0.5)
        raise AssertionError(f"the run did not finish in {RUN_TIMEOUT_S} s; logs in {self.tmp}")

    def destroy(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        for ns in [*self.ns.values(), *self.leaves.values()]:
            sh("ip", "netns", "del", ns, check=False)
        sh("ip", "link", "del", self.host_if, check=False)


@pytest.fixture(scope="module")
def fabric(tmp_path_factory):
    built = Fabric(tmp_path_factory.mktemp("fabric"))
    try:
        built.create()
        built.start_service()
        settings = {"enabled": True, "duration_s": 1, "rate_gbps": 2, "max_parallel": 2}
        assert built.api("PUT", f"/api/v1/clusters/{CLUSTER}/fabric", json=settings).status_code == 200
        built.start_probes()
        built.wait_endpoints()
        yield built
    finally:
        built.destroy()
    left = sh("ip", "netns", "list").stdout
    assert built.tag not in left, left


def test_an_unshaped_fabric_is_reported_healthy(fabric):
    result = fabric.run_tests()
    loc = result["localisation"]
    assert loc["status"] == "healthy", loc
    assert loc["suspects"] == [] and loc["tests_used"] < loc["all_pairs"]
    assert result["findings"][0]["rule"] == "fabric-healthy"


def test_a_shaped_node_port_is_localised_to_that_node(fabric):
    shaped = fabric.shape_node_port("n5")
    try:
        result = fabric.run_tests()
    finally:
        for ns, dev in shaped:
            fabric.unshape(ns, dev)
    loc = result["localisation"]
    assert [s["element"] for s in loc["suspects"]] == ["nic:n5"], loc
    assert loc["tests_used"] < loc["all_pairs"] // 2
    assert "n5" in result["findings"][0]["title"]


def test_a_shaped_spine_link_is_localised_to_the_link_between_the_leaves(fabric):
    shaped = fabric.shape_spine()
    try:
        result = fabric.run_tests()
    finally:
        for ns, dev in shaped:
            fabric.unshape(ns, dev)
    loc = result["localisation"]
    # With two leaf switches, leaf A's uplink and leaf B's are the same spine veth: one element.
    assert [s["element"] for s in loc["suspects"]] == ["link:leaf-a|leaf-b"], loc
    assert not any(s["element"].startswith("nic:") for s in loc["suspects"])
    assert "leaf-a" in result["findings"][0]["title"] and "leaf-b" in result["findings"][0]["title"]
