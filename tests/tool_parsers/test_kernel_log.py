"""The NIC drivers' lines of a kernel log, in the shapes each driver prints."""

from __future__ import annotations

import pytest

from bwdoctor_parsers.kernel_log import parse_kernel_log
from bwdoctor_parsers.nccl_log import parse_nccl_log


@pytest.mark.parametrize(("line", "gbps"), [
    ("[    5.123456] ixgbe 0000:01:00.0 eth0: NIC Link is Up 10 Gbps, Flow Control: RX/TX", 10.0),
    ("e1000e: eth0 NIC Link is Up 1000 Mbps Full Duplex, Flow Control: Rx/Tx", 1.0),
    ("i40e 0000:3b:00.0 enp59s0f0: NIC Link is Up, 40 Gbps Full Duplex, Flow Control: None", 40.0),
    ("ice 0000:17:00.0 ens785f0: NIC Link is up 100 Gbps Full Duplex, Requested FEC: RS-FEC, Negotiated FEC: RS-FEC, "
     "Autoneg Advertised: On, Autoneg Negotiated: False, Flow Control: None", 100.0),
    ("bnxt_en 0000:3b:00.0 eth0: NIC Link is Up, 25000 Mbps full duplex, Flow control: ON - receive & transmit", 25.0),
    ("tg3 0000:02:00.0 eth0: Link is up at 1000 Mbps, full duplex", 1.0),
    ("r8169 0000:03:00.0 enp3s0: Link is Up - 1Gbps/Full - flow control rx/tx", 1.0),
    ("Mar  3 10:01:02 gpu01 kernel: bond0: link status definitely up for interface eth1, 10000 Mbps full duplex", 10.0),
])
def test_the_speed_each_driver_says_the_link_came_up_at(line: str, gbps: float) -> None:
    result = parse_kernel_log(line)
    assert result.facts() == {"nic.speed_gbps": gbps}


def test_a_down_after_an_up_is_a_flap_and_the_note_names_the_port() -> None:
    log = """[ 1021.22] mlx5_core 0000:5e:00.0 ens1f0: Link up
[ 5234.11] mlx5_core 0000:5e:00.0 ens1f0: Link down
[ 5236.99] mlx5_core 0000:5e:00.0 ens1f0: Link up
[ 7001.01] mlx5_core 0000:5e:00.0 ens1f0: Link down
[ 7003.50] mlx5_core 0000:5e:00.0 ens1f0: Link up"""
    result = parse_kernel_log(log)
    assert result.facts()["nic.link_flaps"] is True
    assert [n.params for n in result.coded_notes()] == [{"interfaces": "ens1f0", "downs": 2}]


def test_a_down_while_the_driver_starts_is_not_a_flap() -> None:
    log = """[    9.80] mlx5_core 0000:5e:00.0 ens1f0: Link down
[   11.20] mlx5_core 0000:5e:00.0 ens1f0: Link up"""
    assert "nic.link_flaps" not in parse_kernel_log(log).facts()


def test_a_bond_member_going_down_after_it_was_up_is_a_flap() -> None:
    log = """bond0: link status definitely up for interface eth1, 25000 Mbps full duplex
bond0: link status definitely down for interface eth1, disabling it"""
    assert parse_kernel_log(log).facts() == {"nic.speed_gbps": 25.0, "nic.link_flaps": True}


def test_two_ports_at_different_speeds_leave_the_speed_open() -> None:
    log = """igb 0000:02:00.0 eno1: igb: eno1 NIC Link is Up 1000 Mbps Full Duplex, Flow Control: RX
ice 0000:17:00.0 ens785f0: NIC Link is up 100 Gbps Full Duplex, Flow Control: None"""
    assert "nic.speed_gbps" not in parse_kernel_log(log).facts()


@pytest.mark.parametrize("line", [
    "mlx5_core 0000:af:00.0: 63.008 Gb/s available PCIe bandwidth, limited by 8.0 GT/s PCIe x8 link at 0000:ae:00.0 "
    "(capable of 126.016 Gb/s with 8.0 GT/s PCIe x16 link)",
    "ixgbe 0000:82:00.0: This is not sufficient for optimal performance of this card.",
])
def test_the_kernels_and_the_drivers_pcie_warning(line: str) -> None:
    result = parse_kernel_log(line)
    assert result.facts() == {"nic.pcie_limited": True}
    assert result.coded_notes()[0].code == "kernel.pcie_limited"


@pytest.mark.parametrize("garbage", ["", "\x00\x01", "Link", "the link is fine", "x" * 10000, None])
def test_garbage_gives_nothing_and_never_raises(garbage) -> None:
    assert parse_kernel_log(garbage).facts() == {}  # type: ignore[arg-type]


def test_nccls_async_port_error_is_a_link_going_down() -> None:
    log = """node3:1234:1290 [2] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.3<0>
node3:1234:1300 [2] NCCL WARN NET/IB : Got async event : port error"""
    assert parse_nccl_log(log).all_facts()["nic.link_flaps"] is True
    quiet = log.splitlines()[0]
    assert "nic.link_flaps" not in parse_nccl_log(quiet).all_facts()
