"""Pasted output: lspci link lines pasted without their device header are the GPU's when the words that
introduce them say so ('lspci -vvv shows for the GPU:'), never when they name a NIC; tools pasted inside a question
(ibstat, ethtool, ibv_devinfo, iperf3 -P, nvidia-smi topo, NCCL channel lines) read beside the asker's words."""

from __future__ import annotations

import pytest

from tests.matching import same_value
from tests.matching import stated_facts as facts

LINKS = ("        LnkCap: Port #0, Speed 16GT/s, Width x16, ASPM not supported\n"
         "        LnkSta: Speed 2.5GT/s (downgraded), Width x8 (downgraded)\n")


@pytest.mark.parametrize(("label", "expected"), [
    ("lspci -vvv shows for the GPU:\n", {"gpu.pcie_width": 8, "gpu.pcie_width_max": 16, "gpu.pcie_gen": 1}),
    ("显卡的 lspci -vvv 输出：\n", {"gpu.pcie_width": 8, "gpu.pcie_gen_max": 4}),
    ("lspci -vvv on the ConnectX NIC:\n", {"gpu.pcie_width": None}),
    # a label naming neither: the question's words decide (a GPU named and no NIC anywhere)
    ("lspci -vvv | grep Lnk\n", {"gpu.pcie_width": 8}),
])
def test_headless_link_lines_are_the_gpus_when_the_label_says(label: str, expected: dict[str, object]) -> None:
    read = facts(label + LINKS + "8 x A100 PCIe in one server, training is slower than expected")
    for key, want in expected.items():
        got = read.get(key)
        assert (got is None) if want is None else same_value(got, want), (key, got, want)


@pytest.mark.parametrize(("words", "expected"), [
    ("training is slower than expected", {"gpu.pcie_width": None}),  # nobody named: whose link it is stays unsaid
    ("8 x A100 and a ConnectX-6 per node, training is slow", {"gpu.pcie_width": None}),  # a NIC named too
])
def test_headless_link_lines_nobody_claims(words: str, expected: dict[str, object]) -> None:
    read = facts("lspci -vvv | grep Lnk\n" + LINKS + words)
    for key, want in expected.items():
        got = read.get(key)
        assert (got is None) if want is None else same_value(got, want), (key, got, want)


@pytest.mark.parametrize(("text", "expected"), [
    ("two nodes, 8 GPUs each, training is slow. ibstat on node1:\nCA 'mlx5_0'\n        CA type: MT4123\n"
     "        Port 1:\n                State: Active\n                Physical state: LinkUp\n"
     "                Rate: 100\n                Link layer: Ethernet\n",
     {"job.nodes": 2, "job.gpus_per_node": 8, "nic.speed_gbps": 100.0, "nic.kind": "roce"}),
    ("ethtool eth0 on both machines:\nSettings for eth0:\n        Supported link modes:   1000baseT/Full\n"
     "                                10000baseT/Full\n        Speed: 1000Mb/s\n        Duplex: Full\n"
     "is that why 2-node DDP is slow?", {"nic.speed_gbps": 1.0, "nic.max_speed_gbps": 10.0, "job.nodes": 2}),
    ("$ iperf3 -c 10.0.0.2 -P 4\n[SUM]   0.00-10.00  sec  10.9 GBytes  9.38 Gbits/sec  112             sender\n"
     "[SUM]   0.00-10.00  sec  10.9 GBytes  9.36 Gbits/sec                  receiver\n"
     "our nodes are supposed to have 25G NICs. 2 nodes x 4 V100.",
     {"net.iperf3_gbps": 9.36, "job.nodes": 2, "job.gpus_per_node": 4}),
    ("[Rank 0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/Socket/0\n"
     "[Rank 0] NCCL INFO Channel 01/0 : 0[0] -> 8[0] [send] via NET/Socket/0\n"
     "we have ConnectX-6 HDR on both servers (8 x A800 each). Why Socket?",
     {"nccl.transport": "socket", "job.nodes": 2, "job.gpus_per_node": 8, "nic.kind": "infiniband"}),
])
def test_a_tool_pasted_beside_the_words(text: str, expected: dict[str, object]) -> None:
    read = facts(text)
    for key, want in expected.items():
        assert same_value(read.get(key), want), (key, read.get(key), want)


@pytest.mark.parametrize(("words", "rdma"), [
    ("DDP hangs on the non-master node. NCCL log on that node:\n", False),
    # inside a container the devices may simply not be passed in: no verdict on the hosts
    ("The same script runs on the hosts; inside the docker container NCCL says:\n", None),
])
def test_no_rdma_device_found(words: str, rdma: bool | None) -> None:
    log = ("ibis:13595:13595 [3] NCCL INFO Bootstrap : Using [0]enp96s0f0:10.1.80.120<0>\n"
           "ibis:13595:13595 [3] NCCL INFO NET/IB : No device found.\n"
           "ibis:13595:13595 [3] NCCL INFO NET/Socket : Using [0]enp96s0f0:10.1.80.120<0>\n"
           "ibis:13595:13595 [3] NCCL INFO Using network Socket\n")
    assert facts(words + log).get("nic.rdma") is rdma


def test_numbers_not_understood_are_quoted_as_typed_never_masked() -> None:
    from bwdoctor.chat import understand

    u = understand("Rank 0 Group 0 Pid 127 on worker-0 device 0 [0x00] NVIDIA A10G, odd number 4242 here")
    contexts = " ".join(n["context"] for n in u.not_understood)
    assert "A10G" in contexts or "4242" in contexts
    assert "·" not in contexts and "Ｇ" not in contexts and "▪" not in contexts


def test_another_instance_named_beside_the_job_lends_it_nothing() -> None:
    read = facts("nccl-tests on a single g5.8xlarge reports Avg bus bandwidth = 0. It works on a single p4d.24xlarge "
                 "too; only the single g5.8xlarge shows this.")
    assert read.get("node.instance_type") == "g5.8xlarge"
    assert read.get("node.instance_bandwidth_gbps") is None  # p4d's 400 Gb/s is not the g5's
    assert read.get("gpu.model") == "A10G"
