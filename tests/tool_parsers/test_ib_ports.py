"""ibstat / ibstatus / ibv_devinfo (fixtures: real outputs pasted in the threads they cite)."""

from bwdoctor_parsers.ibstat import parse_ib_ports, parse_ibv_devinfo


def test_ibstat_counts_the_rails_and_reads_the_rate(recorded):
    result = parse_ib_ports(recorded("ibstat_roce_200g_mgmt_down_mooncake1999.txt"))
    assert result.facts() == {"nic.rdma": True, "nic.kind": "roce", "nic.speed_gbps": 200.0, "nic.count": 2}
    assert "mlx5_10:1" in result.notes()[0]


def test_ibstatus_sections_and_a_cut_one(recorded):
    result = parse_ib_ports(recorded("ibstatus_roce_100g_nccl1866.txt"))
    assert [p.device for p in result.ports] == ["mlx5_0", "mlx5_1", "mlx5_2"]
    assert result.facts() == {"nic.rdma": True, "nic.kind": "roce", "nic.speed_gbps": 100.0, "nic.count": 2}
    assert result.partial and any("partial" in n for n in result.notes())


def test_ibv_devinfo_without_v_has_no_rate(recorded):
    result = parse_ib_ports(recorded("ibv_devinfo_roce_deepep38.txt"))
    assert [(p.device, p.state, p.link_layer) for p in result.ports] == [("mlx5_2", "Active", "Ethernet")]
    assert result.facts() == {"nic.rdma": True, "nic.kind": "roce"}


def test_ibv_devinfo_port_down(recorded):
    result = parse_ib_ports(recorded("ibv_devinfo_port_down_deepep60.txt"))
    assert result.facts() == {"nic.rdma": False}


def test_ibv_devinfo_v_width_times_speed():
    text = ("hca_id:\tmlx5_0\n\tphys_port_cnt:\t\t\t1\n\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n"
            "\t\t\tactive_width:\t\t4X (2)\n\t\t\tactive_speed:\t\t25.0 Gbps (32)\n\t\t\tlink_layer:\t\tInfiniBand\n")
    (port,) = parse_ibv_devinfo(text).ports
    assert port.rate_gbps == 100.0 and port.kind == "infiniband"


def test_garbage_is_empty():
    assert parse_ib_ports("hca_id\nport: x\nInfiniband device").facts() == {}
