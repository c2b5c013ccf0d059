"""Hardware named in words: NICs by model, device and interface, GPUs by board, the path between GPUs in
nvidia-smi topo -m's words, and a load that swings between two figures — in English and Chinese, with the traps beside
them.

Sentences are written the way setups are stated in GitHub issues and Chinese forum posts (not copied from them, nor from
the corpus). Each names what must be read and what must not be (None).
"""

from __future__ import annotations

import pytest

from bwdoctor.chat import answer_turn
from bwdoctor.chat.entities import find_entities
from tests.matching import fact_problems

R, K, S, NV, M, U = "nic.rdma", "nic.kind", "nccl.transport", "gpu.nvlink", "gpu.model", "gpu.util_pct"

CASES: list[tuple[str, dict[str, object]]] = [
    # --- an RDMA adapter named by model: capable of RDMA, whatever NCCL fell back to
    ("NCCL_DEBUG=INFO shows 'NET/IB : No device found.' and then 'NET/Socket : Using [0]eth0'. We have ConnectX-6 "
     "cards. Why isn't IB used?", {R: True, S: "socket", K: None}),
    ("NCCL 日志里有 NET/Socket : Using [0]eth0:10.0.0.1<0>，我们的网卡是 Mellanox CX5 100G 的，为什么没有走 IB？",
     {R: True, S: "socket", K: None, "nic.speed_gbps": 100}),
    ("We have 2 nodes with ConnectX-6 Dx 100G NICs, NCCL all-reduce is only 5 GB/s", {R: True, K: None}),
    ("Our nodes have ConnectX-4 Lx 25GbE, is that enough for 8 V100s?", {R: True, "nic.speed_gbps": 25}),
    ("每台机器一张 ConnectX-5 100G，NCCL 走的是 Socket", {R: True, S: "socket"}),
    ("BlueField-3 DPUs as the NICs, 400G per node", {R: True, "nic.speed_gbps": 400}),
    ("Mellanox SN2700 switch, ConnectX-5 EN 100G NICs", {R: True}),
    ("we have Mellanox cards but NCCL uses sockets", {R: True, S: "socket"}),
    ("IB is not being used by NCCL even though we have ConnectX-7", {R: True, K: None}),
    ("每个节点 4 张 200G RoCE 网卡（Mellanox CX6），8 卡 A800", {R: True, K: "roce", "nic.count": 4}),
    ("ConnectX-6 VPI 200Gb HDR cards in each node, training across 4 nodes is slow", {R: True, K: "infiniband"}),
    ("Each node: 8x H100 SXM5, 8x ConnectX-7 400G NDR, rail-optimized", {R: True, K: "infiniband", "nic.count": 8}),
    # a ConnectX-3 run as plain 40GbE, and Mellanox's own switch, say nothing of RDMA
    ("two servers with Mellanox ConnectX-3 40 GbE NICs, gloo over tcp", {R: False, K: "ethernet"}),
    ("交换机是 Mellanox 的 SN2700，网卡是 25G 以太网", {R: False}),
    # --- interfaces: an IPoIB interface is InfiniBand; one said to sit unused is not the fabric in use
    ("We use ib0 for training traffic, busbw is 10 GB/s", {K: "infiniband", R: True}),
    ("训练走的是 ib0 接口，速度很慢", {K: "infiniband"}),
    ("走的是千兆网口。这两台机器上其实还有一个 ib0 接口，没用上。", {K: "ethernet", R: False}),
    ("有没有做 bond0？我们 8 台 H100", {"nic.bonded": None}),
    # --- Ethernet-only adapters
    ("Intel X710 10G NICs, 2 nodes of 8x A100, scaling is terrible", {K: "ethernet", R: False, "nic.speed_gbps": 10}),
    ("我们用的是 Intel X710 万兆网卡，两台 8 卡 A100", {K: "ethernet", R: False}),
    ("Intel E810 100G NIC, plain TCP, multi-node training is slow", {R: False}),
    ("Intel E810 100G RoCE between nodes", {K: "roce", R: True}),
    ("Broadcom BCM57508 100G NICs with RoCE v2", {K: "roce", R: True, "nic.speed_gbps": 100}),
    # --- cloud fabrics
    ("阿里云 ECS 实例，eRDMA 网卡，NCCL 走不了 IB", {R: True, K: None}),
    ("AWS p4d.24xlarge x 2 with EFA, NCCL busbw 20 GB/s", {R: True, "nic.efa": True}),
    ("We're on GCP a3-highgpu-8g with GPUDirect-TCPX, 4 nodes", {K: "ethernet", M: "H100"}),
    # --- the fabric's use denied is not the fabric denied; its absence is
    ("NCCL 没走 IB，走的 socket", {S: "socket", R: None, K: None}),
    ("no IB, just ethernet, 2 nodes 8x A100 each", {R: False, K: "ethernet"}),
    ("我们没有 IB 卡，只有万兆以太网", {R: False, K: "ethernet"}),
    ("机器之间没有 RDMA，普通 25G 以太网", {R: False, K: "ethernet", "nic.speed_gbps": 25}),
    ("we have no IB", {R: False}),
    # --- GPUs by board
    ("RTX 6000 Ada x4 in one workstation, DDP is slow", {M: "RTX 6000 Ada", "job.gpus_per_node": 4}),
    ("4 张 RTX 6000 Ada Generation 训练慢", {M: "RTX 6000 Ada"}),
    ("Quadro RTX 6000 两张，有 NVLink 桥", {M: "RTX 6000", NV: True}),
    ("8x A100-SXM4-80GB per node, 2 nodes, 100G ethernet", {M: "A100", "job.nodes": 2, "job.gpus_per_node": 8}),
    ("4 张 L40S 做训练，GPU 之间通信很慢", {M: "L40S", "job.gpus_per_node": 4}),
    ("昇腾 910B 8 卡，HCCL 通信慢", {M: "910B"}),
    # --- the path between GPUs, in topo -m's words and in prose
    ("我们只有一台 8 卡 A100 服务器，nvidia-smi topo -m 显示所有 GPU 之间是 SYS", {NV: False, "job.nodes": 1}),
    ("GPUs connected via PIX, training is slow", {NV: False}),
    ("nvidia-smi topo -m shows NV12 between all GPUs", {NV: True}),
    ("All GPUs show NV18 in nvidia-smi topo -m, single node 8 H100", {NV: True}),
    ("nvidia-smi topo -m shows PIX between GPU0 and GPU1 but SYS between GPU0 and GPU4", {NV: False}),
    ("GPU0 到 GPU1 是 NV4，GPU0 到 GPU5 是 SYS", {NV: True}),
    ("服务器是 8 卡 A100 40G PCIe 版本，GPU 之间走 PCIe", {NV: False}),
    ("the 4 cards talk over PCIe", {NV: False}),
    # a path to the NIC is not a path between GPUs
    ("topo shows PHB between GPU0 and mlx5_0", {"gpu.nic_path": "phb", NV: None, R: True}),
    ("topo -m 里 GPU 和 mlx5_0 之间是 SYS", {"gpu.nic_path": "sys", NV: None}),
    ("nvidia-smi topo -m shows SYS between GPU0 and mlx5_0", {"gpu.nic_path": "sys", NV: None}),
    ("GPU 和网卡之间是 PHB", {"gpu.nic_path": "phb", NV: None}),
    ("H800 PCIe 8 卡，没有 NVLink，单机训练 all-reduce 很慢", {NV: False, M: "H800"}),
    ("单机八卡 A800，nvlink 正常，跨机用的 2*100G RoCE", {NV: True, K: "roce", "nic.count": 2}),
    # --- a load that swings: neither end is its level
    ("GPU 利用率一会 0% 一会 100%", {U: 50}),
    ("GPU utilization fluctuates between 0 and 100%", {U: 50}),
    ("GPU 利用率在 30% 到 90% 之间波动", {U: 60}),
    ("GPU utilization jumps between 20% and 100%", {U: 60}),
    ("GPU 利用率 0% 和 100% 来回跳", {U: 50}),
    ("GPU 利用率在 0% 到 90% 之间来回跳，大部分时间是 0%，在等数据", {U: 0}),
    ("GPU 利用率在 0~100 之间跳，平均 50% 左右", {U: 50}),
    # a change is no swing
    ("GPU util went from 90% to 45%", {U: 45}),
    ("GPU 利用率从 95% 掉到了 40%", {U: 40}),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_hardware_read(engine, text: str, expected: dict[str, object]) -> None:
    assert fact_problems(answer_turn(text, engine=engine), expected) == []


@pytest.mark.parametrize(("name", "facts"), [
    ("ConnectX-6", {"nic.rdma": True}),
    ("CX6 Dx", {"nic.rdma": True}),
    ("BlueField-2", {"nic.rdma": True}),
    ("mlx5_0", {"nic.rdma": True}),
    ("ib0", {"nic.kind": "infiniband", "nic.rdma": True}),
    ("ibp12s0", {"nic.kind": "infiniband", "nic.rdma": True}),
    ("X710", {"nic.kind": "ethernet", "nic.rdma": False}),
    ("ConnectX-3", {}),
    ("E810", {}),
    ("bond0", {}),
    ("eth0", {}),
])
def test_nic_names_carry_their_facts(name: str, facts: dict[str, object]) -> None:
    found = find_entities(f"we use {name} here")
    assert [e.name for e in found] == [name]
    assert dict(found[0].facts) == facts
