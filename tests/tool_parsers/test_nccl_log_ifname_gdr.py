"""NCCL_DEBUG=INFO lines: the echoed NCCL_SOCKET_IFNAME is the setting (a prefix such as 'en' is not the
interface it matched), and the communicator's 'use ring PXN _ GDR _' verdict says whether GPUDirect RDMA is used."""

from bwdoctor_parsers.nccl_log import parse_nccl_log

SOCKET_WITH_PREFIX = """\
node01:5512:5512 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to en
node01:5512:5512 [0] NCCL INFO Bootstrap : Using enp65s0f1:10.1.0.11<0>
node01:5512:5512 [0] NCCL INFO NET/Socket : Using [0]enp65s0f1:10.1.0.11<0>
node01:5512:5512 [0] NCCL INFO Using network Socket
NCCL version 2.14.3+cuda11.8
"""


def test_the_echoed_interface_prefix_is_the_setting_not_the_interface_it_matched():
    facts = parse_nccl_log(SOCKET_WITH_PREFIX).all_facts()
    assert facts["nccl.socket_ifname"] == "en" and facts["nccl.transport"] == "socket"


def test_without_an_echo_the_interface_nccl_uses_is_read():
    log = "\n".join(line for line in SOCKET_WITH_PREFIX.splitlines() if "set by environment" not in line)
    assert parse_nccl_log(log).all_facts()["nccl.socket_ifname"] == "enp65s0f1"


def test_ring_verdict_gdr_0_on_a_plugin_network_is_gdr_off():
    log = ("gb10-a:881:903 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Mesh/0\n"
           "gb10-a:881:903 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[0] [send] via NET/Mesh/1\n"
           "gb10-a:881:903 [0] NCCL INFO Connected all rings, use ring PXN 0 GDR 0\n")
    assert parse_nccl_log(log).all_facts()["nccl.gdr_disabled"] is True


def test_ring_verdict_gdr_1_on_roce_is_gdr_on():
    log = ("h1:77:77 [0] NCCL INFO NET/IB : Using [0]rocep161s0:1/RoCE [1]rocep162s0:1/RoCE [RO]; OOB eth0:10.0.0.1<0>"
           "\n"
           "h1:77:77 [0] NCCL INFO Using network IB\n"
           "h1:77:90 [0] NCCL INFO Connected all rings, use ring PXN 1 GDR 1\n")
    facts = parse_nccl_log(log).all_facts()
    assert facts["nccl.gdr_disabled"] is False and facts["nic.count"] == 2


def test_ring_verdict_without_a_network_chosen_says_nothing_of_gdr():
    log = "h1:77:90 [0] NCCL INFO Connected all rings, use ring PXN 0 GDR 0\n"
    assert "nccl.gdr_disabled" not in parse_nccl_log(log).all_facts()


def test_one_rank_gdr_1_another_gdr_0_is_partial():
    log = ("a:1:1 [0] NCCL INFO Using network IB\n"
           "a:1:2 [0] NCCL INFO Connected all rings, use ring PXN 0 GDR 1\n"
           "b:2:2 [0] NCCL INFO Connected all rings, use ring PXN 0 GDR 0\n")
    facts = parse_nccl_log(log).all_facts()
    assert facts["nccl.gdr_partial"] is True and "nccl.gdr_disabled" not in facts
