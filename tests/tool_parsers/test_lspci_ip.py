"""lspci ACS/link lines and ip addr/route (fixtures: public threads they cite, and this project's VM)."""

from bwdoctor_parsers.ip_addr import parse_ip_addr
from bwdoctor_parsers.lspci import gen_of, parse_lspci


def test_acs_on(recorded):
    result = parse_lspci(recorded("lspci_acsctl_grep_nccl523.txt"))
    assert result.facts() == {"pcie.acs_enabled": True} and result.acs_lines == 12 and result.acs_redirecting == 7


def test_acs_off_with_a_cut_last_line(recorded):
    result = parse_lspci(recorded("lspci_acsctl_all_off_nccl1405.txt"))
    assert result.facts() == {"pcie.acs_enabled": False} and result.acs_lines == 15 and result.notes() == []


def test_link_lines_without_a_device_are_notes_not_gpu_facts(recorded):
    result = parse_lspci(recorded("lspci_lnk_downgraded_4090_jan183.txt"))
    (link,) = result.links
    assert (link.cap_gts, link.cap_width, link.sta_gts, link.sta_width, link.downgraded) == (16.0, 16, 2.5, 16, True)
    assert result.facts() == {} and "downgraded" in result.notes()[0]


def test_gpu_device_section_gives_gpu_facts():
    text = ("da:00.0 3D controller [0302]: NVIDIA Corporation GA100 [A100 SXM4 40GB] [10de:20b0] (rev a1)\n"
            "\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x16, ASPM not supported\n"
            "\t\tLnkSta:\tSpeed 16GT/s (ok), Width x16 (ok)\n")
    assert parse_lspci(text).facts() == {"gpu.pcie_gen": 4, "gpu.pcie_width": 16, "gpu.pcie_gen_max": 4,
                                         "gpu.pcie_width_max": 16}
    assert gen_of(2.5) == 1 and gen_of(3.0) is None


def test_prose_around_lspci_lines(recorded):
    result = parse_lspci(recorded("lspci_vvv_4090_header_tinygrad6.txt"))
    assert result.links and result.links[0].device is None and result.facts() == {}


def test_two_nics_in_one_subnet(recorded):
    result = parse_ip_addr(recorded("ip_addr_two_nics_one_subnet_nccl1580.txt"))
    assert [i.name for i in result.candidates] == ["eno1", "enp37s0f0"]
    assert result.facts() == {"nic.mtu": 1500}
    assert "eno1, enp37s0f0" in result.notes()[0] and "192.168.0.0/20" in result.notes()[0]


def test_this_vm(recorded):
    assert parse_ip_addr(recorded("ip_addr_vm_debian12.txt")).facts() == {"nic.name": "eth0", "nic.mtu": 1400}
    assert parse_ip_addr(recorded("ip_br_addr_vm_debian12.txt")).facts() == {"nic.name": "eth0"}
    route = parse_ip_addr(recorded("ip_route_vm_debian12.txt"))
    assert route.default_dev == "eth0" and ("192.0.2.0/24", "eth0") in route.routes


def test_bond_with_enslaved_ports():
    text = ("2: ens1f0: <BROADCAST,MULTICAST,SLAVE,UP,LOWER_UP> mtu 9000 qdisc mq master bond0 state UP\n"
            "3: ens1f1: <BROADCAST,MULTICAST,SLAVE,UP,LOWER_UP> mtu 9000 qdisc mq master bond0 state UP\n"
            "4: bond0: <BROADCAST,MULTICAST,MASTER,UP,LOWER_UP> mtu 9000 qdisc noqueue state UP\n"
            "    inet 10.0.0.5/24 brd 10.0.0.255 scope global bond0\n")
    assert parse_ip_addr(text).facts() == {"nic.name": "bond0", "nic.mtu": 9000, "nic.bonded": True}
