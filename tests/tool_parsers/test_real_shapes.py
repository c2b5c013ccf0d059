"""Line shapes from real threads, as the tools' own format strings print them: NCCL's init.cc
("comm %p rank %d nRanks %d nNodes %d localRanks %d localRank %d MNNVL %d", "... nranks %d cudaDev %d ... - Init
COMPLETE"), net_ib ("NET/IB : Using [0]mlx5_2:1/RoCE"), rdma-core's iblinkinfo ("==(%3s %18s %6s/%8s)==>") and
ibstatus/sysfs rates ("50 Gb/sec (1X HDR)"); and every note code's English text is the catalogue's."""

import importlib

import pytest

from bwdoctor.i18n import catalogue
from bwdoctor_parsers.ibstat import parse_ib_ports
from bwdoctor_parsers.nccl_log import parse_nccl_log

COMM = "gpu-a:2313:2313 [0] NCCL INFO comm 0x55d1c8a0b2f0 rank 0 nRanks {n} nNodes {nodes} localRanks {local} " \
       "localRank 0 MNNVL 0\n"


def test_comm_line_of_nccl_2_20_gives_the_shape_of_the_largest_communicator():
    text = COMM.format(n=8, nodes=1, local=8) + COMM.format(n=16, nodes=2, local=8) + COMM.format(n=2, nodes=2, local=1)
    assert {k: v for k, v in parse_nccl_log(text).all_facts().items() if k.startswith("job.")} == {
        "job.nodes": 2, "job.gpus_per_node": 8}


def test_uneven_nodes_and_one_rank_communicators_give_no_shape():
    assert "job.nodes" not in parse_nccl_log(COMM.format(n=12, nodes=2, local=8)).all_facts()
    assert "job.nodes" not in parse_nccl_log(COMM.format(n=1, nodes=1, local=1)).all_facts()


def test_old_init_complete_needs_every_rank():
    line = ("host{h}:9{r}:9{r} [{d}] NCCL INFO comm 0x7f3c1c000e00 rank {r} nranks 4 cudaDev {d} nvmlDev {d} "
            "busId 18000 commId 0x5ab1c0e3b1c0e3 - Init COMPLETE\n")
    every = "".join(line.format(h=r // 2, r=r, d=r % 2) for r in range(4))
    assert parse_nccl_log(every).shape() == (2, 2)
    assert parse_nccl_log(every.split("\n", 1)[1]).shape() is None  # rank 0's line missing: unknown


@pytest.mark.parametrize(("line", "layer"), [
    ("NCCL INFO NET/IB : Using [0]mlx5_2:1/RoCE [RO]; OOB eth0:10.0.0.1<0>", "roce"),
    ("NCCL INFO NET/IB : Using [0]mlx5_0:1:0/RoCE [1]mlx5_1:1:1/RoCE [RO]; OOB eth0:10.0.0.1<0>", "roce"),
    ("NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB ib0:10.0.0.1<0>", "ib"),
])
def test_ib_device_link_layer(line, layer):
    result = parse_nccl_log(line)
    assert result.ib_link_layer == layer and result.transport == "ib"


def test_ib_disable_echoed_while_ibext_carries_traffic_is_not_in_effect():
    result = parse_nccl_log("h:1:1 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.\n"
                            "h:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB ib0:10.0.0.1<0>\n"
                            "h:1:1 [0] NCCL INFO Using network IBext\n")
    assert result.all_facts()["nccl.ib_disabled"] is False and result.transport == "ib"
    assert [n.code for n in result.coded_notes()] == ["nccl_log.ib_disable_ignored"]
    socket = parse_nccl_log("h:1:1 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.\n"
                            "h:1:1 [0] NCCL INFO Using network Socket\n")
    assert socket.all_facts()["nccl.ib_disabled"] is True


@pytest.mark.parametrize(("text", "speed", "rating"), [
    ("CA: node1 mlx5_0:\n      0x0c42a1030096a4f4     12    1[  ] ==( 4X      25.78125 Gbps Active/  LinkUp)==>"
     "       3   17[  ] \"switch1\" ( )\n", 100.0, None),
    ("CA: node1 mlx5_0:\n      0x0c42a1030096a4f4     12    1[  ] ==( 1X        53.125 Gbps Active/  LinkUp)==>"
     "       3   17[  ] \"switch1\" ( Could be 4X )\n", 50.0, 200.0),
    ("CA 'mlx5_0'\n\tCA type: MT4115\n\tPort 1:\n\t\tState: Active\n\t\tPhysical state: LinkUp\n\t\tRate: 100\n"
     "\t\tLink layer: InfiniBand\n", 100.0, None),
    ("Infiniband device 'mlx5_0' port 1 status:\n\tstate:\t\t 4: ACTIVE\n\tphys state:\t 5: LinkUp\n"
     "\trate:\t\t 200 Gb/sec (4X HDR)\n\tlink_layer:\t InfiniBand\n", 200.0, None),
    ("Infiniband device 'mlx5_0' port 1 status:\n\tstate:\t\t 4: ACTIVE\n\tphys state:\t 5: LinkUp\n"
     "\trate:\t\t 50 Gb/sec (1X HDR)\n\tlink_layer:\t InfiniBand\n", 50.0, 200.0),
])
def test_rdma_rates_and_narrow_links(text, speed, rating):
    facts = parse_ib_ports(text).facts()
    assert facts["nic.speed_gbps"] == speed and facts.get("nic.max_speed_gbps") == rating


def test_iblinkinfo_of_a_switch_counts_no_rails_and_skips_unused_ports():
    result = parse_ib_ports(
        "Switch: 0x7cfe900300a5a2c0 MF0;switch-ib1:MSB7700/U1:\n"
        "           3    1[  ] ==( 4X      53.125 Gbps Active/  LinkUp)==>      12    1[  ] \"node1 mlx5_0\" ( )\n"
        "           3    2[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )\n")
    assert result.facts() == {"nic.rdma": True, "nic.kind": "infiniband", "nic.speed_gbps": 200.0}
    assert result.notes() == []


# iblinkinfo lists every CA of the fabric, each described as "<host> <HCA>" (nccl-tests#71): one rail on each of
# two hosts, not two rails on one; the 4X of 25.78125 Gb/s lanes is a 100 Gb/s EDR port.
IBLINKINFO_TWO_HOSTS = (
    "  CA: gpu-v100-3 HCA-1:\n"
    "        0xb88303ffff7f61c4      6    1[  ] ==( 4X      25.78125 Gbps Active/  LinkUp)==>       3    3[  ] "
    "\"MF0;ibswitch254:MQM8700/U1\" ( )\n"
    "  CA: gpu-v100-0 HCA-1:\n"
    "        0xb88303ffff9f4f6c      1    1[  ] ==( 4X      25.78125 Gbps Active/  LinkUp)==>       3    1[  ] "
    "\"MF0;ibswitch254:MQM8700/U1\" ( )\n")


def test_iblinkinfo_cas_of_several_hosts_count_the_rails_of_one():
    facts = parse_ib_ports(IBLINKINFO_TWO_HOSTS).facts()
    assert facts["nic.count"] == 1 and facts["nic.speed_gbps"] == 100.0
    two_rails = IBLINKINFO_TWO_HOSTS.replace("gpu-v100-0 HCA-1", "gpu-v100-3 HCA-2")
    assert parse_ib_ports(two_rails).facts()["nic.count"] == 2


MODULES = ["bwdoctor.chat.pasted", "bwdoctor_parsers.nccl_log", "bwdoctor_parsers.nccl_tests",
           "bwdoctor_parsers.ibstat", "bwdoctor_parsers.lspci", "bwdoctor_parsers.ip_addr",
           "bwdoctor_parsers.nvidia_smi", "bwdoctor_parsers.perftest", "bwdoctor_parsers.kernel_log"]


@pytest.mark.parametrize("module", MODULES)
def test_every_note_code_is_in_the_catalogue_with_the_parsers_english(module):
    """The chat says a note from service/messages/pasted.yaml; its English must be the text the probe prints."""
    english = catalogue("pasted")["en"]
    templates = importlib.import_module(module).NOTES
    assert {code: english.get(code) for code in templates} == templates
