"""Network hardware and links said in words: the kind of network, its rate and rails, RDMA/EFA, bonds,
MTU, cloud instances and their caps, measured iperf3 / perftest figures, NVLink and availability zones, in English and
in Chinese as people write them in issues and forum posts; with negations, plans, reference figures and the numbers
of other things (GPU memory, disks, PCIe lanes, batch sizes, storage rates) that are no network fact."""

from __future__ import annotations

from typing import Any

import pytest

from bwdoctor.chat import answer_turn
from bwdoctor.engine import load_engine

_ENGINE = load_engine()

IB, ETH, ROCE = "infiniband", "ethernet", "roce"

# (question, facts that must be read with these values, facts that must not be read: {fact: value or None for any})
CASES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    # --- English: kinds and rates
    (
        "Two nodes with 8x A100 80GB each, connected over 10GbE. NCCL allreduce is slow.",
        {"nic.speed_gbps": 10, "nic.kind": ETH},
        {"nic.speed_gbps": 80},
    ),
    (
        "We have 4 servers linked with 25 Gbps Ethernet, training a 7B model.",
        {"nic.speed_gbps": 25, "nic.kind": ETH},
        {"nic.speed_gbps": 7},
    ),
    ("Cluster uses IB HDR 200G between nodes, 8 H100 per node.", {"nic.kind": IB, "nic.speed_gbps": 200}, {}),
    (
        "Our nodes have NDR InfiniBand (400Gb/s), 8 rails per node.",
        {"nic.kind": IB, "nic.speed_gbps": 400, "nic.count": 8},
        {},
    ),
    (
        "EDR 100Gb InfiniBand, 2 nodes, training is 3x slower than a single node.",
        {"nic.kind": IB, "nic.speed_gbps": 100},
        {},
    ),
    ("Each node has 4x ConnectX-6 200G HCAs.", {"nic.speed_gbps": 200, "nic.count": 4}, {"nic.speed_gbps": 6}),
    (
        "NICs are Mellanox CX-7 400G, 8 per node, InfiniBand.",
        {"nic.kind": IB, "nic.speed_gbps": 400, "nic.count": 8},
        {"nic.speed_gbps": 7},
    ),
    (
        "We run RoCE v2 on 100G ConnectX-6 Dx cards.",
        {"nic.kind": ROCE, "nic.speed_gbps": 100, "nic.rdma": True},
        {"nic.speed_gbps": 2},
    ),
    (
        "4*200G IB per node, 16 nodes, training a 70B model.",
        {"nic.kind": IB, "nic.speed_gbps": 200, "nic.count": 4},
        {},
    ),
    ("We use 8 x 400G NDR per node.", {"nic.kind": IB, "nic.speed_gbps": 400, "nic.count": 8}, {}),
    ("Each DGX H100 has 8 ConnectX-7 400Gb/s ports for compute traffic.", {"nic.speed_gbps": 400, "nic.count": 8}, {}),
    ("we have 2 NICs per node, each 200G", {"nic.speed_gbps": 200, "nic.count": 2}, {}),
    ("nodes are connected with a single 100 Gb/s InfiniBand link", {"nic.kind": IB, "nic.speed_gbps": 100}, {}),
    ("1GbE between the two workstations, each with 2 RTX 3090", {"nic.speed_gbps": 1, "nic.kind": ETH}, {}),
    ("Our nodes only have gigabit ethernet.", {"nic.speed_gbps": 1, "nic.kind": ETH}, {}),
    ("The link negotiated at 25000Mb/s according to ethtool.", {"nic.speed_gbps": 25}, {}),
    ("ethtool says Speed: 100000Mb/s on ens5", {"nic.speed_gbps": 100}, {}),
    ("The servers have Mellanox ConnectX-5 100GbE cards.", {"nic.speed_gbps": 100}, {"nic.speed_gbps": 5}),
    ("The fabric is InfiniBand EDR.", {"nic.kind": IB, "nic.speed_gbps": 100}, {}),
    ("We have HDR100 InfiniBand between the nodes.", {"nic.kind": IB, "nic.speed_gbps": 100}, {}),
    (
        "GPUs: 8x A800 80G. Network: 4x 200Gb/s RoCE.",
        {"nic.kind": ROCE, "nic.speed_gbps": 200, "nic.count": 4},
        {"nic.speed_gbps": 80},
    ),
    ("Network: 25GbE x2 per node.", {"nic.speed_gbps": 25, "nic.count": 2}, {}),
    ("We have 400 Gbps per node in total (4x 100G).", {"nic.speed_gbps": 100, "nic.count": 4}, {}),
    (
        "3 nodes with 8 A100 40GB, linked by 100Gb/s RoCEv2",
        {"nic.kind": ROCE, "nic.speed_gbps": 100},
        {"nic.speed_gbps": 40},
    ),
    ("The NIC is a 2-port 100G card but only one port is cabled.", {"nic.speed_gbps": 100}, {"nic.count": 2}),
    ("Our ethernet is 400G Spectrum-X with RoCE.", {"nic.kind": ROCE, "nic.speed_gbps": 400}, {}),
    ("We use 8 HCAs (mlx5_0..mlx5_7), HDR 200Gb/s each.", {"nic.kind": IB, "nic.speed_gbps": 200, "nic.count": 8}, {}),
    ("Two nodes each with one 10G NIC, GPUs are 4090 24G.", {"nic.speed_gbps": 10}, {"nic.speed_gbps": 24}),
    ("We're using 100 Gbit Ethernet without RDMA.", {"nic.speed_gbps": 100, "nic.kind": ETH, "nic.rdma": False}, {}),
    ("Is 10 Gbps enough for data-parallel training of ResNet-50 on 2 nodes?", {"nic.speed_gbps": 10}, {}),
    # --- English: negations, plans, references
    ("We don't have InfiniBand, just 25G Ethernet.", {"nic.kind": ETH, "nic.speed_gbps": 25}, {"nic.kind": IB}),
    (
        "Not using RoCE, plain TCP over 100GbE.",
        {"nic.kind": ETH, "nic.speed_gbps": 100, "nic.rdma": False},
        {"nic.kind": ROCE},
    ),
    ("No RDMA on these machines, only TCP.", {"nic.rdma": False}, {"nic.rdma": True}),
    ("InfiniBand isn't available here, so NCCL uses TCP sockets.", {}, {"nic.kind": IB, "nic.rdma": True}),
    (
        "If we upgrade to 100G, how much faster would it be? Right now it's 10GbE.",
        {"nic.speed_gbps": 10},
        {"nic.speed_gbps": 100},
    ),
    (
        "We're planning to move to InfiniBand; currently 25GbE.",
        {"nic.kind": ETH, "nic.speed_gbps": 25},
        {"nic.kind": IB},
    ),
    ("The datasheet says 200 Gb/s but iperf3 shows 90 Gbits/sec.", {"net.iperf3_gbps": 90}, {"net.iperf3_gbps": 200}),
    (
        "Another cluster reaches 20 GB/s busbw with the same config; ours is 100G Ethernet.",
        {"nic.speed_gbps": 100},
        {"nccl.allreduce_busbw_gbytes_per_s": 20},
    ),
    (
        "RDMA is disabled, so NCCL falls back to sockets over the 100G link.",
        {"nic.speed_gbps": 100},
        {"nic.rdma": True},
    ),
    ("Would switching from 25G Ethernet to 200G InfiniBand help?", {}, {"nic.speed_gbps": 200, "nic.kind": IB}),
    # --- English: distractors
    (
        "A100 40GB, 2TB NVMe, PCIe 4.0 x16, 25G network.",
        {"nic.speed_gbps": 25},
        {"nic.speed_gbps": 40, "nic.count": 16},
    ),
    (
        "Storage reads at 2 GB/s; the network is 100G RoCE.",
        {"nic.speed_gbps": 100, "nic.kind": ROCE},
        {"net.iperf3_gbps": None},
    ),
    (
        "batch size 32, 7B model, 2 nodes with 2x 100G NICs bonded",
        {"nic.speed_gbps": 100, "nic.bonded": True},
        {"nic.speed_gbps": 7},
    ),
    ("2 nodes, 4 V100 32GB each, 10Gb ethernet.", {"nic.speed_gbps": 10, "nic.kind": ETH}, {"nic.speed_gbps": 32}),
    ("Bandwidth between the nodes is only 1.2 GB/s.", {}, {"nic.speed_gbps": None}),
    (
        "We see 3 GB/s bus bandwidth with 200Gbps HDR.",
        {"nic.speed_gbps": 200, "nic.kind": IB},
        {"net.iperf3_gbps": None},
    ),
    # --- English: bonds, MTU, measured figures
    ("dual-port 25G bond (bond0, LACP)", {"nic.bonded": True}, {}),
    ("MTU is 9000 on all nodes (jumbo frames enabled).", {"nic.mtu": 9000}, {}),
    ("Interface MTU 1500, 25G Ethernet", {"nic.mtu": 1500, "nic.speed_gbps": 25}, {}),
    ("Jumbo frames are enabled on the switch and the hosts.", {"nic.mtu": 9000}, {}),
    ("MTU 4096 on the IB interfaces", {"nic.mtu": 4096, "nic.kind": IB}, {}),
    ("iperf3 between the nodes shows 9.4 Gbits/sec", {"net.iperf3_gbps": 9.4}, {}),
    ("iperf3 -P 8 gives 94 Gbits/sec in total", {"net.iperf3_gbps": 94}, {"nic.count": 8}),
    ("iperf3 says 940 Mbits/sec between the two boxes", {"net.iperf3_gbps": 0.94}, {}),
    ("iperf3 gets about 1.1 GB/s between nodes", {"net.iperf3_gbps": 8.8}, {}),
    ("ib_write_bw reaches 190 Gb/s between the two nodes", {"net.rdma_bw_gbps": 190}, {}),
    # perftest's MB is 2^20 bytes (format_factor 0x100000): 23000 MB/sec is 192.94 Gb/s (s14b)
    ("ib_write_bw reports 23000 MB/sec average", {"net.rdma_bw_gbps": 192.937984}, {}),
    ("ib_send_bw shows 11500 MB/s", {"net.rdma_bw_gbps": 96.468992}, {}),
    (
        "A 200G HDR IB network but ib_write_bw only gets 100 Gb/s",
        {"nic.speed_gbps": 200, "nic.kind": IB, "net.rdma_bw_gbps": 100},
        {},
    ),
    # --- English: cloud
    ("p4d.24xlarge instances with EFA, 2 nodes", {"node.instance_type": "p4d.24xlarge", "nic.efa": True}, {}),
    (
        "We're on p4d.24xlarge (400 Gbps) but NCCL gets 12 GB/s busbw",
        {"node.instance_type": "p4d.24xlarge", "node.instance_bandwidth_gbps": 400},
        {},
    ),
    (
        "g5.12xlarge nodes, 40 Gbps network, 4 A10G each",
        {"node.instance_type": "g5.12xlarge", "node.instance_bandwidth_gbps": 40},
        {},
    ),
    ("Using AWS EFA on p5.48xlarge", {"node.instance_type": "p5.48xlarge", "nic.efa": True}, {}),
    ("There is no EFA on our g5 instances.", {"nic.efa": False}, {"nic.efa": True}),
    ("The instances are Standard_ND96asr_v4 with 8x 200G HDR", {"nic.speed_gbps": 200, "nic.count": 8}, {}),
    ("GCP a3-highgpu-8g, 2 nodes", {"node.instance_type": "a3-highgpu-8g"}, {}),
    # --- English: NVLink and zones
    ("8x RTX 4090 per node, PCIe only, no NVLink", {"gpu.nvlink": False}, {}),
    ("H100 SXM with NVSwitch, 2 nodes over 400G IB", {"gpu.nvlink": True, "nic.kind": IB, "nic.speed_gbps": 400}, {}),
    ("NVLink bridge between pairs of 3090s", {"gpu.nvlink": True}, {}),
    ("There's no NVLink on L40S.", {"gpu.nvlink": False}, {"gpu.nvlink": True}),
    ("Nodes are spread over three AZs.", {"cluster.zones": 3}, {}),
    ("All nodes are in the same availability zone.", {"cluster.zones": 1}, {}),
    ("Servers in two different data centers connected by a 10G link", {"cluster.zones": 2, "nic.speed_gbps": 10}, {}),
    # --- Chinese: kinds and rates
    ("两台机器，每台8张A100，万兆网卡互联，训练很慢", {"nic.speed_gbps": 10, "nic.kind": ETH}, {}),
    ("千兆网络，两台服务器，每台两张4090", {"nic.speed_gbps": 1}, {}),
    ("节点间是 25G 以太网，没有 IB", {"nic.speed_gbps": 25, "nic.kind": ETH}, {"nic.kind": IB}),
    ("用的 IB HDR 200G，每台 8 张 H800", {"nic.kind": IB, "nic.speed_gbps": 200}, {}),
    ("每台机器 8 张 400G 网卡，NDR IB", {"nic.kind": IB, "nic.speed_gbps": 400, "nic.count": 8}, {}),
    ("4*200G IB，一共 16 台", {"nic.kind": IB, "nic.speed_gbps": 200, "nic.count": 4}, {}),
    ("RoCE v2 组网，100G 网卡", {"nic.kind": ROCE, "nic.speed_gbps": 100}, {"nic.speed_gbps": 2}),
    ("机器之间是 100Gb 的 InfiniBand EDR", {"nic.kind": IB, "nic.speed_gbps": 100}, {}),
    ("HDR 200Gb/s IB 网络，训练 13B 模型", {"nic.kind": IB, "nic.speed_gbps": 200}, {"nic.speed_gbps": 13}),
    ("每台机器两张 CX6 200G 网卡", {"nic.speed_gbps": 200, "nic.count": 2}, {"nic.speed_gbps": 6}),
    ("网卡是 ConnectX-7，400G，每节点 8 张", {"nic.speed_gbps": 400, "nic.count": 8}, {"nic.speed_gbps": 7}),
    ("两台 8 卡 A800，用 4 张 200G RoCE 网卡", {"nic.kind": ROCE, "nic.speed_gbps": 200, "nic.count": 4}, {}),
    ("IB 网卡是 mlx5，速率 200 Gb/sec", {"nic.kind": IB, "nic.speed_gbps": 200}, {}),
    ("每台服务器 8 个 400G 的 IB 口", {"nic.kind": IB, "nic.speed_gbps": 400, "nic.count": 8}, {}),
    ("8张 400G 网卡，两台机器", {"nic.speed_gbps": 400, "nic.count": 8}, {}),
    ("25G 双网卡，两台机器", {"nic.speed_gbps": 25, "nic.count": 2}, {}),
    ("万兆光口，两台机器直连", {"nic.speed_gbps": 10}, {}),
    ("千兆交换机连的三台服务器", {"nic.speed_gbps": 1}, {}),
    ("IB 卡是 CX-6，HDR 的", {"nic.kind": IB, "nic.speed_gbps": 200}, {"nic.speed_gbps": 6}),
    ("两台机器，每台 4 张 200G 网卡，InfiniBand", {"nic.kind": IB, "nic.speed_gbps": 200, "nic.count": 4}, {}),
    ("100G 的网卡，实际只协商到 40G", {"nic.speed_gbps": 40}, {}),
    ("节点之间是 400G 的 RoCE 网络，每台 8 张卡", {"nic.kind": ROCE, "nic.speed_gbps": 400}, {}),
    ("用的 25Gb 以太网，没有 RDMA", {"nic.kind": ETH, "nic.speed_gbps": 25, "nic.rdma": False}, {}),
    # --- Chinese: negations, plans, references
    ("只有以太网没有IB", {"nic.kind": ETH}, {"nic.kind": IB}),
    ("没有RDMA，走的普通TCP", {"nic.rdma": False}, {"nic.rdma": True}),
    ("RDMA 没开，NCCL 走的 socket", {"nic.rdma": False}, {"nic.rdma": True}),
    ("没用 IB，也没用 RoCE，就是普通以太网", {"nic.kind": ETH}, {"nic.kind": IB}),
    ("我们没有 InfiniBand，只有 100G 以太网", {"nic.kind": ETH, "nic.speed_gbps": 100}, {"nic.kind": IB}),
    ("如果升级到 100G 网卡能快多少？现在是 25G", {"nic.speed_gbps": 25}, {"nic.speed_gbps": 100}),
    ("打算换成 IB，目前是万兆以太网", {"nic.kind": ETH, "nic.speed_gbps": 10}, {"nic.kind": IB}),
    (
        "另一个集群能跑到 20GB/s，我们这个是 100G RoCE",
        {"nic.kind": ROCE, "nic.speed_gbps": 100},
        {"nccl.allreduce_busbw_gbytes_per_s": 20},
    ),
    (
        "如果换成 400G IB 会不会好很多？现在 100G RoCE",
        {"nic.kind": ROCE, "nic.speed_gbps": 100},
        {"nic.kind": IB, "nic.speed_gbps": 400},
    ),
    ("据说官方能跑到 180Gb/s，我们 ib_write_bw 只有 90Gb/s", {"net.rdma_bw_gbps": 90}, {"net.rdma_bw_gbps": 180}),
    ("带宽理论值 200Gb/s，实测 ib_write_bw 只有 96Gb/s", {"net.rdma_bw_gbps": 96}, {"net.rdma_bw_gbps": 200}),
    ("节点之间 100G 网线直连，RoCE 没开", {"nic.speed_gbps": 100}, {"nic.kind": ROCE}),
    ("RDMA 是开着的，走的 RoCE", {"nic.rdma": True, "nic.kind": ROCE}, {}),
    ("集群是 RoCE 组网，但是 NCCL 走的是 socket", {"nic.kind": ROCE}, {}),
    ("机器之间走的 TCP，没有 RDMA 网卡", {"nic.rdma": False}, {"nic.rdma": True}),
    # --- Chinese: distractors
    ("A100 40GB，2TB 硬盘，PCIe 4.0 x16，网络 25G", {"nic.speed_gbps": 25}, {"nic.speed_gbps": 40, "nic.count": 16}),
    ("模型 7B，batch size 16，两台机器 100G IB", {"nic.kind": IB, "nic.speed_gbps": 100}, {"nic.speed_gbps": 7}),
    ("我们的显卡是 4090 24G，网络是千兆", {"nic.speed_gbps": 1}, {"nic.speed_gbps": 24}),
    ("GPU 显存 80G，网络 200G IB", {"nic.kind": IB, "nic.speed_gbps": 200}, {"nic.speed_gbps": 80}),
    ("显存 24GB，网速 1Gbps", {"nic.speed_gbps": 1}, {"nic.speed_gbps": 24}),
    ("PCIe 4.0 x16 的 A100，网卡 100G", {"nic.speed_gbps": 100}, {"nic.count": 16, "nic.speed_gbps": 16}),
    ("存储读取 2 GB/s，网络是万兆", {"nic.speed_gbps": 10}, {"net.iperf3_gbps": None}),
    ("带宽 1.2GB/s，网卡是 25G 的", {"nic.speed_gbps": 25}, {"nic.speed_gbps": 1.2}),
    ("实测带宽只有 2GB/s", {}, {"nic.speed_gbps": None}),
    # --- Chinese: bonds, MTU, measured figures
    ("双口25G bond", {"nic.bonded": True}, {}),
    ("网卡做了 bond，两个 25G 口", {"nic.bonded": True}, {}),
    ("MTU 设置的 9000", {"nic.mtu": 9000}, {}),
    ("交换机和网卡都开了巨帧", {"nic.mtu": 9000}, {}),
    ("MTU 是 1500，没开 jumbo frame", {"nic.mtu": 1500}, {"nic.mtu": 9000}),
    ("iperf3 测出来 9.4 Gbits/sec", {"net.iperf3_gbps": 9.4}, {}),
    ("iperf3 测试只有 900 Mbits/sec", {"net.iperf3_gbps": 0.9}, {}),
    ("ib_write_bw 跑到 190 Gb/s", {"net.rdma_bw_gbps": 190}, {}),
    ("ib_write_bw 测出来 23 GB/s", {"net.rdma_bw_gbps": 184}, {}),
    ("网卡速率是 25Gb/s，但 iperf3 只能跑到 10Gb/s", {"nic.speed_gbps": 25, "net.iperf3_gbps": 10}, {}),
    ("测了一下 iperf3 大概 9.41 Gbits/sec，万兆网卡", {"net.iperf3_gbps": 9.41, "nic.speed_gbps": 10}, {}),
    ("iperf 跑出来 25Gbps，网卡标称 100G", {"net.iperf3_gbps": 25}, {}),
    # --- Chinese: cloud
    ("AWS p4d.24xlarge，开了 EFA", {"node.instance_type": "p4d.24xlarge", "nic.efa": True}, {}),
    ("实例是 g5.12xlarge，带宽 40 Gbps", {"node.instance_type": "g5.12xlarge", "node.instance_bandwidth_gbps": 40}, {}),
    ("云上 p5.48xlarge，EFA 3200 Gbps", {"node.instance_type": "p5.48xlarge", "nic.efa": True}, {}),
    ("我们是 EFA，p4d 两台", {"nic.efa": True}, {}),
    ("实例没有 EFA", {"nic.efa": False}, {"nic.efa": True}),
    # --- Chinese: NVLink and zones
    ("4090 没有 NVLink，只能走 PCIe", {"gpu.nvlink": False}, {"gpu.nvlink": True}),
    ("H100 机内是 NVLink/NVSwitch 互联", {"gpu.nvlink": True}, {}),
    ("8 卡 3090 有 NVLink 桥", {"gpu.nvlink": True}, {}),
    ("只有 PCIe，没有 NVLink 也没有 NVSwitch", {"gpu.nvlink": False}, {"gpu.nvlink": True}),
    ("跨可用区部署，两个 AZ", {"cluster.zones": 2}, {}),
    ("节点分布在三个可用区", {"cluster.zones": 3}, {}),
    ("跨机房训练，两个机房之间拉了专线", {"cluster.zones": 2}, {}),
    ("所有节点都在同一个可用区", {"cluster.zones": 1}, {}),
    ("两台机器在不同机房", {"cluster.zones": 2}, {}),
    ("跨 AZ 训练，速度很慢", {"cluster.zones": 2}, {}),
    ("三个 AZ 的节点一起训练", {"cluster.zones": 3}, {}),
    # --- more forms (second round of probes)
    ("The machines talk over 100GE, no RDMA.", {"nic.speed_gbps": 100, "nic.kind": ETH}, {}),
    ("100GE 网口，没有 RDMA", {"nic.speed_gbps": 100, "nic.kind": ETH}, {}),
    ("25GE 以太网，两台服务器", {"nic.speed_gbps": 25, "nic.kind": ETH}, {}),
    ("交换机是 10GE 的，服务器也是 10GE 网卡", {"nic.speed_gbps": 10}, {}),
    ("Our new cluster uses NDR400 with 8 rails per node.", {"nic.kind": IB, "nic.speed_gbps": 400, "nic.count": 8}, {}),
    ("NDR400 的 IB，每台 8 张", {"nic.kind": IB, "nic.speed_gbps": 400}, {}),
    ("HDR200 InfiniBand between the 4 nodes", {"nic.kind": IB, "nic.speed_gbps": 200}, {}),
    (
        "The fabric is 8-rail 400G InfiniBand, rail-optimized.",
        {"nic.kind": IB, "nic.speed_gbps": 400, "nic.count": 8},
        {},
    ),
    ("每台 8 块 CX7，400G", {"nic.speed_gbps": 400, "nic.count": 8}, {"nic.speed_gbps": 7}),
    ("ibstat 看到 8 个口都是 400 Gb/sec", {"nic.speed_gbps": 400}, {"net.iperf3_gbps": None}),
    ("ibstat shows all 4 ports at 200 Gb/sec", {"nic.speed_gbps": 200}, {"net.iperf3_gbps": None}),
    ("我们用 RoCE，不是 IB", {"nic.kind": ROCE, "nic.rdma": True}, {"nic.kind": IB}),
    ("It's RoCE, not InfiniBand.", {"nic.kind": ROCE, "nic.rdma": True}, {"nic.kind": IB}),
    ("IB 还没装好，现在先用 TCP 跑", {}, {"nic.kind": IB, "nic.rdma": True}),
    (
        "The IB cards aren't installed yet, so for now we run over TCP on 25GbE.",
        {"nic.speed_gbps": 25},
        {"nic.kind": IB, "nic.rdma": True},
    ),
    ("MTU 从 1500 改成 9000 之后没变化", {"nic.mtu": 9000}, {}),
    ("We changed the MTU from 1500 to 9000 and nothing improved.", {"nic.mtu": 9000}, {}),
    ("the cluster is multi-AZ", {"cluster.zones": 2}, {}),
    ("两个网口绑定成 bond0", {"nic.bonded": True}, {}),
    ("内网带宽 10Gbps，两台机器", {"nic.speed_gbps": 10}, {"net.iperf3_gbps": None}),
    # --- third round: totals and rails, a test's result, fibre, storage and memory beside the network
    ("We have 400 Gbps per node in total (4x 100G).", {"nic.speed_gbps": 100, "nic.count": 4}, {"nic.speed_gbps": 400}),
    ("800G aggregate per node (8x 100G)", {"nic.speed_gbps": 100, "nic.count": 8}, {"nic.speed_gbps": 800}),
    ("每台机器 4x200G (800G total)", {"nic.speed_gbps": 200, "nic.count": 4}, {"nic.speed_gbps": 800}),
    ("iperf3 -P 8 gives 94 Gbits/sec in total", {"net.iperf3_gbps": 94}, {}),
    ("ib_write_bw -d mlx5_0 结果平均 11.5 GB/s", {"net.rdma_bw_gbps": 92}, {"net.iperf3_gbps": None}),
    ("用 ib_write_bw 测两台之间的带宽，BW average 是 23.4GB/sec", {"net.rdma_bw_gbps": 187.2}, {}),
    ("机器之间是 2 根 100G 光纤", {"nic.speed_gbps": 100}, {}),
    ("the two boxes are linked with a 100G fiber", {"nic.speed_gbps": 100}, {}),
    ("Each GPU has 80 GB of HBM and the node has 400 Gb/s of network", {"nic.speed_gbps": 400}, {"nic.speed_gbps": 80}),
    (
        "存储是 CPFS，带宽 20GB/s，训练网络 RoCE 200G",
        {"nic.kind": ROCE, "nic.speed_gbps": 200},
        {"net.iperf3_gbps": None},
    ),
    ("The network bandwidth is 25 Gbps between nodes", {"nic.speed_gbps": 25}, {"net.iperf3_gbps": None}),
    ("网络带宽只有 1Gbps", {}, {"nic.speed_gbps": 10}),
    ("两个口聚合成一个逻辑口", {"nic.bonded": True}, {}),
    ("交换机和服务器之间开了 jumbo frame，MTU 9000", {"nic.mtu": 9000}, {}),
    ("Should we enable jumbo frames?", {}, {"nic.mtu": None}),
    ("没开巨帧", {}, {"nic.mtu": 9000}),
    ("每台机器 8 块 400G 网卡，其中 1 块给存储用", {"nic.speed_gbps": 400}, {}),
    (
        "Each node: 8x H100 80G, 2TB RAM, 100G networking; the checkpoint is 140G.",
        {"nic.speed_gbps": 100},
        {"nic.speed_gbps": 140},
    ),
    ("数据集 200G，放在 NFS 上，节点之间 25G 网络", {"nic.speed_gbps": 25}, {"nic.speed_gbps": 200}),
    ("训练数据 800G，用 100G 的网络从 OSS 拉数据", {"nic.speed_gbps": 100}, {"nic.speed_gbps": 800}),
    (
        "NVLink bandwidth is 600 GB/s, IB is 200G",
        {"nic.kind": IB, "nic.speed_gbps": 200},
        {"net.iperf3_gbps": None, "nccl.allreduce_busbw_gbytes_per_s": None},
    ),
]

XFAIL: dict[int, str] = {}


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) <= 1e-6 * max(1.0, abs(b))
    return bool(a == b)


def _params() -> list[Any]:
    out = []
    for i, (text, want, never) in enumerate(CASES):
        marks = [pytest.mark.xfail(strict=True, reason=XFAIL[i])] if i in XFAIL else []
        out.append(pytest.param(text, want, never, id=f"n{i:03d}", marks=marks))
    return out


@pytest.mark.parametrize(("text", "want", "never"), _params())
def test_network_facts_said_in_words(text: str, want: dict[str, Any], never: dict[str, Any]) -> None:
    facts = answer_turn(text, engine=_ENGINE)["facts"]
    wrong = {k: (facts.get(k), v) for k, v in want.items() if k not in facts or not _same(facts[k], v)}
    misread = {k: facts[k] for k, v in never.items() if k in facts and (v is None or _same(facts[k], v))}
    assert not wrong and not misread, f"wrong/missed {wrong}; misread {misread}; facts {facts}"
