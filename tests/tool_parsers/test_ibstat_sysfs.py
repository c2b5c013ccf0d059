import pytest

from bwdoctor_parsers.ibstat import parse_ibstat, parse_rate, parse_state
from bwdoctor_parsers.sysfs_net import parse_speed_mbps, parse_sysfs_snapshot, speed_gbps


def test_ibstat_infiniband(fixture_text):
    result = parse_ibstat(fixture_text("ibstat_infiniband_hdr.txt"))
    assert [(p.device, p.state, p.rate_gbps, p.kind) for p in result.ports] == [
        ("mlx5_0", "Active", 200.0, "infiniband"), ("mlx5_1", "Down", 10.0, "infiniband")]
    assert result.facts() == {"nic.rdma": True, "nic.kind": "infiniband", "nic.speed_gbps": 200.0, "nic.count": 1}


def test_ibstat_roce_is_link_layer_ethernet():
    text = "CA 'mlx5_4'\n\tPort 1:\n\t\tState: Active\n\t\tRate: 100\n\t\tLink layer: Ethernet\n"
    assert parse_ibstat(text).facts() == {"nic.rdma": True, "nic.kind": "roce", "nic.speed_gbps": 100.0,
                                          "nic.count": 1}


def test_ibstat_all_ports_down_means_no_rdma():
    text = "CA 'mlx5_0'\n\tPort 1:\n\t\tState: Down\n\t\tRate: 10\n\t\tLink layer: InfiniBand\n"
    assert parse_ibstat(text).facts() == {"nic.rdma": False}


@pytest.mark.parametrize(("text", "rate"), [("200", 200.0), ("200 Gb/sec (4X HDR)", 200.0),
                                            ("56 Gb/sec (4X FDR)", 56.0), ("", None), ("fast", None)])
def test_rates(text, rate):
    assert parse_rate(text) == rate


def test_states():
    assert parse_state("4: ACTIVE") == "Active"
    assert parse_state("1: DOWN") == "Down"
    assert parse_state("") is None


@pytest.mark.parametrize(("text", "mbps"), [("10000\n", 10000), ("-1\n", None), ("0", None), ("", None),
                                            ("cat: /sys/class/net/lo/speed: Invalid argument", None), (None, None)])
def test_speed_unknown_is_none_never_zero_or_negative(text, mbps):
    assert parse_speed_mbps(text) == mbps


def test_speed_in_gbps():
    assert speed_gbps("25000") == 25.0
    assert speed_gbps("-1") is None


def test_sysfs_snapshot_transcript():
    text = ("$ cat /sys/class/net/ens5/speed\n100000\n$ cat /sys/class/net/lo/speed\n"
            "cat: /sys/class/net/lo/speed: Invalid argument\n$ ls /sys/class/infiniband\nmlx5_0\n")
    assert parse_sysfs_snapshot(text) == {"ens5": {"speed": "100000"}, "lo": {"speed": None}}


def test_garbage():
    assert parse_ibstat("nothing here").facts() == {}
    assert parse_sysfs_snapshot("garbage") == {}
