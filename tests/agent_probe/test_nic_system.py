"""NIC and CPU/memory collectors on fake /sys and /proc trees, and once on this machine's real ones.

ethtool is faked only at the process boundary: a script on disk that prints a real recorded
``ethtool`` output (tests/fixtures/tool_output/ethtool_*.txt) and exits as ethtool does.
"""

import shutil
import subprocess
from pathlib import Path

import pytest

from bwdoctor_probe.collectors import nic as nic_module
from bwdoctor_probe.collectors.nic import NicSampler
from bwdoctor_probe.collectors.system import SystemSampler
from tests import prereqs
from tests.prereqs import needs

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tool_output"


def recorded(name: str) -> str:
    """A recorded ethtool output as ethtool printed it (the fixture's ``# SOURCE:`` line dropped)."""
    return (FIXTURES / name).read_text(encoding="utf-8").split("\n", 1)[1]

ROUTE_HEADER = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
NET_DEV_HEADER = ("Inter-|   Receive                                                |  Transmit\n"
                  " face |bytes    packets errs drop fifo frame compressed multicast"
                  "|bytes    packets errs drop fifo colls carrier compressed\n")


class Machine:
    """A fake /sys + /proc: interfaces, RDMA devices, routes, counters."""

    def __init__(self, root: Path):
        self.root = root
        self.sys, self.proc = root / "sys", root / "proc"
        (self.sys / "class" / "net").mkdir(parents=True)
        (self.proc / "net").mkdir(parents=True)
        self.counters: dict[str, tuple[int, int]] = {}
        self.routes: list[str] = []
        self.write_net_dev()
        self.ethtool_calls = root / "ethtool.calls"
        self.ethtool(recorded("ethtool_virtio_not_reported.txt"))

    def ethtool(self, stdout: str = "", *, stderr: str = "", rc: int = 0, sleep_s: float = 0) -> Path:
        """An ``ethtool`` executable that prints `stdout` and `stderr`, exits `rc`, and logs its arguments."""
        (self.root / "ethtool.out").write_text(stdout)
        (self.root / "ethtool.err").write_text(stderr)
        script = self.root / "bin" / "ethtool"
        script.parent.mkdir(exist_ok=True)
        script.write_text(f"#!/bin/sh\necho \"$@\" >> '{self.ethtool_calls}'\n"
                          + (f"exec sleep {sleep_s}\n" if sleep_s else "")  # hangs as one process, killed whole
                          + f"cat '{self.root / 'ethtool.out'}'\ncat '{self.root / 'ethtool.err'}' >&2\nexit {rc}\n")
        script.chmod(0o755)
        return script

    def iface(self, name, speed="10000", operstate="up", kind="1", pci=None, mtu="1500"):
        base = self.sys / "class" / "net" / name
        base.mkdir()
        if speed is not None:
            (base / "speed").write_text(f"{speed}\n")
        if mtu is not None:
            (base / "mtu").write_text(f"{mtu}\n")
        (base / "operstate").write_text(f"{operstate}\n")
        (base / "type").write_text(f"{kind}\n")
        if pci:
            device = self.sys / "devices" / "pci0000:00" / pci
            device.mkdir(parents=True, exist_ok=True)
            (base / "device").symlink_to(device)
        self.counters[name] = (0, 0)
        self.write_net_dev()
        return base

    def rdma(self, dev, *, pci, link_layer, state="4: ACTIVE", rate="200 Gb/sec (4X HDR)", words=(0, 0),
             driver=None):
        device = self.sys / "devices" / "pci0000:00" / pci
        (device / "infiniband" / dev).mkdir(parents=True, exist_ok=True)
        if driver:  # /sys/bus/pci/devices/<pci>/driver -> ../../../bus/pci/drivers/<driver>
            (self.sys / "bus" / "pci" / "drivers" / driver).mkdir(parents=True, exist_ok=True)
            (device / "driver").symlink_to(self.sys / "bus" / "pci" / "drivers" / driver)
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

    def pci_function(self, address, vendor, device):
        """A PCI function in /sys/bus/pci/devices, with no driver bound."""
        base = self.sys / "bus" / "pci" / "devices" / address
        base.mkdir(parents=True)
        (base / "vendor").write_text(f"{vendor}\n")
        (base / "device").write_text(f"{device}\n")

    def sampler(self, **kwargs):
        kwargs.setdefault("ethtool", str(self.root / "bin" / "ethtool"))
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
    assert result.facts == {"nic.rdma": False, "nic.efa": False} and "no network interface is up" in result.notes[0]


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


# --- nic.max_speed_gbps: ethtool's fastest supported link mode --------------------------------
def test_connectx_negotiated_below_its_rating(machine):
    """A 100G ConnectX-4 whose link came up at 25G: both figures reach the report, so the rule can fire."""
    machine.iface("enp1s0np0", speed="25000")
    machine.default_route("enp1s0np0")
    machine.ethtool(recorded("ethtool_connectx4_100g_mlx5.txt"))
    result = run(machine.sampler())
    assert result.facts["nic.speed_gbps"] == 25.0 and result.facts["nic.max_speed_gbps"] == 100.0
    assert machine.ethtool_calls.read_text().split() == ["enp1s0np0"]
    assert result.details["ethtool"]["max_supported_gbps"] == 100.0
    assert not [n for n in result.notes if "max_speed" in n]


def test_gigabit_port_at_100m_keeps_the_partner_in_details(machine):
    machine.iface("enx123456789", speed="100")
    machine.default_route("enx123456789")
    machine.ethtool(recorded("ethtool_1g_at_100m_partner_10_100.txt"))
    result = run(machine.sampler())
    assert (result.facts["nic.speed_gbps"], result.facts["nic.max_speed_gbps"]) == (0.1, 1.0)
    assert result.details["ethtool"]["max_partner_gbps"] == 0.1  # the switch port offers no more


def test_missing_ethtool_leaves_the_rating_out_and_says_what_to_do(machine):
    machine.iface("ens5", speed="25000")
    machine.default_route("ens5")
    result = run(machine.sampler(ethtool="ethtool-not-installed-here"))
    assert "nic.max_speed_gbps" not in result.facts and result.facts["nic.speed_gbps"] == 25.0
    [note] = [n for n in result.notes if "max_speed" in n]
    assert "ethtool is not installed" in note and "set nic_max_speed_gbps" in note


def test_missing_ethtool_by_path(machine):
    machine.iface("ens5", speed="25000")
    machine.default_route("ens5")
    result = run(machine.sampler(ethtool=str(machine.root / "nowhere" / "ethtool")))
    assert "nic.max_speed_gbps" not in result.facts
    assert any("ethtool is not installed" in n for n in result.notes)


@pytest.mark.parametrize("name", ["ethtool_virtio_not_reported.txt", "ethtool_veth_not_reported.txt"])
def test_not_reported_is_unknown_not_the_speed(machine, name):
    machine.iface("eth0", speed="10000")
    machine.default_route("eth0")
    machine.ethtool(recorded(name))
    result = run(machine.sampler())
    assert "nic.max_speed_gbps" not in result.facts
    assert any("'Not reported'" in n and "nic_max_speed_gbps" in n for n in result.notes)


def test_ena_without_a_link_mode_list(machine):
    machine.iface("ens3", speed="-1")
    machine.default_route("ens3")
    machine.ethtool(recorded("ethtool_ena_no_link_settings.txt"))
    result = run(machine.sampler())
    assert "nic.max_speed_gbps" not in result.facts
    assert any("no 'Supported link modes' list" in n for n in result.notes)


def test_ethtool_failure_is_named(machine):
    """What real ethtool 6.1 does on an ifb device: "No data available" on stderr, exit 75."""
    machine.iface("ifb0", speed=None)
    machine.ethtool("", stderr="No data available\n", rc=75)
    result = run(machine.sampler(configured="ifb0"))
    assert "nic.max_speed_gbps" not in result.facts
    assert any("`ethtool ifb0` failed (exit 75: No data available)" in n for n in result.notes)


def test_a_nonzero_exit_with_a_full_list_still_counts(machine):
    """Unprivileged, ethtool may complain on stderr about wake-on-LAN yet print the link settings."""
    machine.iface("enp1s0np0", speed="100000")
    machine.default_route("enp1s0np0")
    machine.ethtool(recorded("ethtool_connectx4_100g_mlx5.txt"), stderr="netlink error: Operation not permitted\n",
                    rc=75)
    assert run(machine.sampler()).facts["nic.max_speed_gbps"] == 100.0


def test_hung_ethtool_times_out(machine, monkeypatch):
    monkeypatch.setattr(nic_module, "ETHTOOL_TIMEOUT_S", 0.3)
    machine.iface("ens5", speed="25000")
    machine.default_route("ens5")
    machine.ethtool(recorded("ethtool_connectx4_100g_mlx5.txt"), sleep_s=5)
    result = run(machine.sampler())
    assert "nic.max_speed_gbps" not in result.facts and result.facts["nic.speed_gbps"] == 25.0
    assert any("did not answer within 0.3 s" in n for n in result.notes)


@pytest.mark.parametrize("garbage", ["\x00\x01\x02 \xff", "Supported link modes: lots\nSpeed: fast\n",
                                     "Settings for ens5:\n\tSupported link modes:   \n"])
def test_garbled_ethtool_output_never_crashes(machine, garbage):
    machine.iface("ens5", speed="25000")
    machine.default_route("ens5")
    machine.ethtool(garbage)
    result = run(machine.sampler())
    assert "nic.max_speed_gbps" not in result.facts and result.facts["nic.speed_gbps"] == 25.0
    assert any("nic.max_speed_gbps left out" in n for n in result.notes)


def test_a_list_that_stops_below_the_negotiated_speed_is_not_a_rating(machine):
    """Older kernels list a ConnectX-5 only up to 40G while it runs at 100G: that is no rating."""
    machine.iface("ens3f0", speed="100000")
    machine.default_route("ens3f0")
    machine.ethtool("Settings for ens3f0:\n\tSupported link modes:   10000baseKR/Full\n"
                    "\t                        40000baseCR4/Full\n\tSpeed: 100000Mb/s\n")
    result = run(machine.sampler())
    assert "nic.max_speed_gbps" not in result.facts
    assert any("stop at 40 Gb/s, below the negotiated 100 Gb/s" in n for n in result.notes)


def test_declared_rating_wins_and_ethtool_is_not_run(machine):
    machine.iface("eth0", speed="-1")
    machine.default_route("eth0")
    result = run(machine.sampler(declared_speed_gbps=10, declared_max_speed_gbps=25))
    assert (result.facts["nic.speed_gbps"], result.facts["nic.max_speed_gbps"]) == (10.0, 25.0)
    assert any("rated speed 25 Gb/s as configured" in n for n in result.notes)
    assert not machine.ethtool_calls.exists()


# --- nic.mtu ----------------------------------------------------------------------------------
def test_mtu_from_sysfs(machine):
    machine.iface("ens5", mtu="9001")  # AWS's jumbo MTU
    machine.default_route("ens5")
    assert run(machine.sampler()).facts["nic.mtu"] == 9001


@pytest.mark.parametrize(("mtu", "said"), [(None, "cannot read /sys/class/net/ens5/mtu"), ("jumbo", "'jumbo'"),
                                           ("", "not a number"), ("70000", "outside 68–65536"), ("-1", "outside")])
def test_bad_mtu_is_left_out_with_a_note(machine, mtu, said):
    machine.iface("ens5", mtu=mtu)
    machine.default_route("ens5")
    result = run(machine.sampler())
    assert "nic.mtu" not in result.facts and result.facts["nic.name"] == "ens5"
    assert any(said in n and "nic.mtu left out" in n for n in result.notes)


def test_mtu_file_that_is_not_text(machine):
    base = machine.iface("ens5", mtu=None)
    (base / "mtu").write_bytes(b"\xff\xfe\x00")
    machine.default_route("ens5")
    result = run(machine.sampler())
    assert "nic.mtu" not in result.facts and result.facts["nic.name"] == "ens5"
    assert any("cannot read /sys/class/net/ens5/mtu" in n for n in result.notes)


def test_ethtool_that_cannot_execute(machine):
    machine.iface("ens5", speed="25000")
    machine.default_route("ens5")
    broken = machine.root / "bin" / "ethtool"
    broken.write_bytes(b"\x7fELF\x00not really")  # executable bit set, but no program the kernel can run
    result = run(machine.sampler())
    assert "nic.max_speed_gbps" not in result.facts and result.facts["nic.speed_gbps"] == 25.0
    assert any("`ethtool ens5` could not run" in n for n in result.notes), result.notes


# --- nic.efa ----------------------------------------------------------------------------------
def test_efa_attached_and_up(machine):
    machine.iface("ens32", speed="-1", pci="0000:00:06.0")  # the ENA carries IP; EFA is its own PCI function
    machine.default_route("ens32")
    machine.rdma("rdmap0s31", pci="0000:00:1f.0", link_layer="Unknown", rate="100 Gb/sec (4X EDR)", driver="efa")
    result = run(machine.sampler())
    assert result.facts["nic.efa"] is True and result.facts["nic.rdma"] is True
    assert result.facts["nic.kind"] == "ethernet"  # EFA is no RoCE port of the ENA


def test_efa_found_by_name_when_the_driver_link_is_unreadable(machine):
    machine.rdma("efa_0", pci="0000:00:1f.0", link_layer="Unknown")
    assert run(machine.sampler()).facts["nic.efa"] is True


def test_efa_down_is_false_with_a_note(machine):
    machine.rdma("efa_0", pci="0000:00:1f.0", link_layer="Unknown", state="1: DOWN", driver="efa")
    result = run(machine.sampler())
    assert result.facts["nic.efa"] is False
    assert any("EFA efa_0 is attached but not up (efa_0/1 Down)" in n for n in result.notes)


def test_mellanox_rdma_is_not_efa(machine):
    machine.iface("ens1f0np0", speed="200000", pci="0000:17:00.0")
    machine.rdma("mlx5_0", pci="0000:17:00.0", link_layer="Ethernet", driver="mlx5_core")
    machine.default_route("ens1f0np0")
    facts = run(machine.sampler()).facts
    assert facts["nic.rdma"] is True and facts["nic.efa"] is False


def test_no_rdma_at_all_is_no_efa(machine):
    machine.iface("eth0")
    machine.default_route("eth0")
    machine.pci_function("0000:00:05.0", "0x1d0f", "0xec20")  # an ENA: Amazon, but no EFA
    facts = run(machine.sampler()).facts
    assert facts["nic.efa"] is False and facts["nic.rdma"] is False


def test_efa_on_the_bus_without_its_driver_is_left_out(machine):
    machine.iface("ens32")
    machine.default_route("ens32")
    machine.pci_function("0000:00:1f.0", "0x1d0f", "0xefa1")
    result = run(machine.sampler())
    assert "nic.efa" not in result.facts
    assert any("0000:00:1f.0" in n and "efa kernel driver is not loaded" in n for n in result.notes)


# --- this machine's real ethtool ----------------------------------------------------------------
def _real_ethtool() -> str | None:
    return shutil.which("ethtool") or shutil.which("ethtool", path="/usr/sbin:/sbin")


@needs(prereqs.ETHTOOL, why="this machine's real ethtool")
def test_this_machine_with_real_ethtool():
    """The interface's real MTU is reported; the rating is either ethtool's or left out with a note."""
    result = run(NicSampler(), elapsed=0.1)
    if "nic.name" not in result.facts:
        pytest.skip("no interface is up")
    name = result.facts["nic.name"]
    assert result.facts["nic.mtu"] == int(Path(f"/sys/class/net/{name}/mtu").read_text())
    printed = subprocess.run([_real_ethtool(), name], capture_output=True, text=True, timeout=10).stdout
    if "nic.max_speed_gbps" in result.facts:
        assert result.facts["nic.max_speed_gbps"] > 0 and "base" in printed
    else:
        assert any("nic.max_speed_gbps left out" in n for n in result.notes), result.notes
    assert isinstance(result.facts.get("nic.efa"), bool) or any("Elastic Fabric Adapter" in n for n in result.notes)


@needs(prereqs.ETHTOOL, why="Debian's /usr/sbin/ethtool")
def test_ethtool_in_sbin_is_found_without_sbin_on_path(monkeypatch, tmp_path):
    """Debian installs ethtool in /usr/sbin, which an unprivileged user's PATH often leaves out."""
    monkeypatch.setenv("PATH", str(tmp_path))
    assert NicSampler().ethtool_binary() == "/usr/sbin/ethtool"
    assert NicSampler(ethtool="ethtool-not-installed-here").ethtool_binary() is None
