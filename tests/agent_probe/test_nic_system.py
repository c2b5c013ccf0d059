"""NIC and CPU/memory collectors on fake /sys and /proc trees, and once on this machine's real ones."""

from pathlib import Path

import pytest

from agent_probe.collectors.nic import NicSampler
from agent_probe.collectors.system import SystemSampler

ROUTE_HEADER = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
NET_DEV_HEADER = ("Inter-|   Receive                                                |  Transmit\n"
                  " face |bytes    packets errs drop fifo frame compressed multicast"
                  "|bytes    packets errs drop fifo colls carrier compressed\n")


class Machine:
    """A fake /sys + /proc: interfaces, RDMA devices, routes, counters."""

    def __init__(self, root: Path):
        self.sys, self.proc = root / "sys", root / "proc"
        (self.sys / "class" / "net").mkdir(parents=True)
        (self.proc / "net").mkdir(parents=True)
        self.counters: dict[str, tuple[int, int]] = {}
        self.routes: list[str] = []
        self.write_net_dev()

    def iface(self, name, speed="10000", operstate="up", kind="1", pci=None):
        base = self.sys / "class" / "net" / name
        base.mkdir()
        if speed is not None:
            (base / "speed").write_text(f"{speed}\n")
        (base / "operstate").write_text(f"{operstate}\n")
        (base / "type").write_text(f"{kind}\n")
        if pci:
            device = self.sys / "devices" / "pci0000:00" / pci
            device.mkdir(parents=True, exist_ok=True)
            (base / "device").symlink_to(device)
        self.counters[name] = (0, 0)
        self.write_net_dev()
        return base

    def rdma(self, dev, *, pci, link_layer, state="4: ACTIVE", rate="200 Gb/sec (4X HDR)", words=(0, 0)):
        device = self.sys / "devices" / "pci0000:00" / pci
        (device / "infiniband" / dev).mkdir(parents=True, exist_ok=True)
        port = self.sys / "class" / "infiniband" / dev / "ports" / "1"
        (port / "counters").mkdir(parents=True)
        (port / "link_layer").write_text(f"{link_layer}\n")
        (port / "state").write_text(f"{state}\n")
        (port / "rate").write_text(f"{rate}\n")
        self.ib_counters(dev, *words)
        (self.sys / "class" / "infiniband" / dev / "device").symlink_to(device)

    def ib_counters(self, dev, rx_words, tx_words):
        counters = self.sys / "class" / "infiniband" / dev / "ports" / "1" / "counters"
        (counters / "port_rcv_data").write_text(f"{rx_words}\n")
        (counters / "port_xmit_data").write_text(f"{tx_words}\n")

    def default_route(self, name, metric=0):
        self.routes.append(f"{name}\t00000000\t0100000A\t0003\t0\t0\t{metric}\t00000000\t0\t0\t0\n")
        (self.proc / "net" / "route").write_text(ROUTE_HEADER + "".join(self.routes))

    def traffic(self, name, rx, tx):
        self.counters[name] = (rx, tx)
        self.write_net_dev()

    def write_net_dev(self):
        rows = "".join(f"{n:>6}: {rx} 10 0 0 0 0 0 0 {tx} 10 0 0 0 0 0 0\n" for n, (rx, tx) in self.counters.items())
        (self.proc / "net" / "dev").write_text(NET_DEV_HEADER + rows)

    def sampler(self, **kwargs):
        return NicSampler(sys_root=self.sys, proc_root=self.proc, **kwargs)


@pytest.fixture
def machine(tmp_path):
    return Machine(tmp_path)


def run(sampler, between=None, elapsed=2.0):
    sampler.start()
    if between:
        between()
    return sampler.finish(elapsed)


def test_virtio_speed_minus_one_is_unknown_not_zero(machine):
    machine.iface("lo", speed=None, operstate="unknown", kind="772")
    machine.iface("eth0", speed="-1", pci="virtio2")
    machine.default_route("eth0")
    result = run(machine.sampler())
    assert result.facts["nic.name"] == "eth0" and result.facts["nic.kind"] == "ethernet"
    assert "nic.speed_gbps" not in result.facts
    assert any("link speed unknown" in n and "'-1'" in n for n in result.notes)
    assert result.facts["nic.rdma"] is False


def test_declared_speed_is_used_and_said(machine):
    machine.iface("eth0", speed="-1")
    machine.default_route("eth0")
    result = run(machine.sampler(declared_speed_gbps=100))
    assert result.facts["nic.speed_gbps"] == 100.0
    assert any("as configured" in n for n in result.notes)


def test_default_route_wins_over_faster_interfaces(machine):
    machine.iface("ens5", speed="25000")
    machine.iface("ens6", speed="100000")
    machine.default_route("ens6", metric=200)
    machine.default_route("ens5", metric=100)  # the lower metric is the default route in use
    result = run(machine.sampler())
    assert result.facts["nic.name"] == "ens5" and result.facts["nic.speed_gbps"] == 25.0
    assert result.details["nic_chosen_by"] == "default route"


def test_fastest_up_without_a_default_route(machine):
    machine.iface("docker0", speed="100000")
    machine.iface("ens5", speed="25000")
    machine.iface("ens6", speed="100000", operstate="down")
    machine.iface("ens7", speed="50000")
    result = run(machine.sampler())
    assert result.facts["nic.name"] == "ens7" and result.details["nic_chosen_by"] == "fastest up"


def test_configured_interface(machine):
    machine.iface("ens5", speed="25000")
    machine.iface("ens6", speed="100000")
    machine.default_route("ens5")
    assert run(machine.sampler(configured="ens6")).facts["nic.name"] == "ens6"
    missing = run(machine.sampler(configured="ens9"))
    assert "nic.name" not in missing.facts and "does not exist" in missing.notes[0]


def test_rx_tx_rates_over_the_window(machine):
    machine.iface("ens5", speed="25000")
    machine.default_route("ens5")
    machine.traffic("ens5", 1_000_000, 2_000_000)
    result = run(machine.sampler(), between=lambda: machine.traffic("ens5", 2_501_000_000, 1_252_000_000), elapsed=2)
    assert result.facts["nic.rx_gbps"] == 10.0 and result.facts["nic.tx_gbps"] == 5.0


def test_roce_nic_uses_port_rate_and_rdma_counters(machine):
    machine.iface("ens1f0np0", speed="200000", pci="0000:17:00.0")
    machine.rdma("mlx5_0", pci="0000:17:00.0", link_layer="Ethernet", words=(0, 0))
    machine.default_route("ens1f0np0")
    # RDMA traffic does not appear in /proc/net/dev; the port counters count 4-byte words.
    result = run(machine.sampler(), between=lambda: machine.ib_counters("mlx5_0", 5_000_000_000, 2_500_000_000))
    facts = result.facts
    assert facts["nic.kind"] == "roce" and facts["nic.rdma"] is True and facts["nic.speed_gbps"] == 200.0
    assert facts["nic.rx_gbps"] == 80.0 and facts["nic.tx_gbps"] == 40.0
    assert result.details["nic_rate_source"] == "rdma port counters"


def test_ipoib_is_infiniband(machine):
    machine.iface("ib0", speed="100000", kind="32", pci="0000:3b:00.0")
    machine.rdma("mlx5_2", pci="0000:3b:00.0", link_layer="InfiniBand", rate="400 Gb/sec (4X NDR)")
    result = run(machine.sampler(configured="ib0"))
    assert result.facts["nic.kind"] == "infiniband" and result.facts["nic.speed_gbps"] == 400.0


def test_rdma_device_down_is_not_rdma(machine):
    machine.iface("ens5", speed="100000", pci="0000:17:00.0")
    machine.rdma("mlx5_0", pci="0000:17:00.0", link_layer="Ethernet", state="1: DOWN")
    machine.default_route("ens5")
    assert run(machine.sampler()).facts["nic.rdma"] is False


def test_no_interfaces(machine):
    result = run(machine.sampler())
    assert result.facts == {"nic.rdma": False} and "no network interface is up" in result.notes[0]


def test_this_machine():
    """Whatever this host has, the speed is never reported as 0 or negative."""
    result = run(NicSampler(), elapsed=0.1)
    if "nic.speed_gbps" in result.facts:
        assert result.facts["nic.speed_gbps"] > 0
    elif "nic.name" in result.facts:
        assert any("link speed unknown" in n for n in result.notes)


def test_cpu_and_memory_from_proc(tmp_path):
    proc = tmp_path / "proc"
    proc.mkdir()
    (proc / "stat").write_text("cpu  100 0 100 700 100 0 0 0 0 0\ncpu0 100 0 100 700 100 0 0 0 0 0\n")
    (proc / "meminfo").write_text("MemTotal: 1000 kB\nMemAvailable: 400 kB\n")
    sampler = SystemSampler(proc)
    sampler.start()
    (proc / "stat").write_text("cpu  160 0 120 800 120 0 0 0 0 0\n")
    result = sampler.finish(1.0)
    assert result.facts == {"cpu.util_pct": 40.0, "cpu.iowait_pct": 10.0, "mem.used_pct": 60.0}


def test_cpu_on_this_machine():
    sampler = SystemSampler()
    sampler.start()
    sum(i * i for i in range(300_000))  # let some CPU time pass
    result = sampler.finish(0.05)
    assert 0 <= result.facts["cpu.util_pct"] <= 100 and 0 < result.facts["mem.used_pct"] < 100
