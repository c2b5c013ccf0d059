"""nvidia-smi topo -m NIC affinity, -q PCIe link, CSV PCIe columns.

Fixtures: real output pasted in the threads they cite, and captures recorded for this project on an H200.
"""

from bwdoctor_parsers.nvidia_smi import parse_nvidia_smi


def test_topo_nic_affinity_and_nvlink(recorded):
    result = parse_nvidia_smi(recorded("nvidia_smi_topo_nv18_nic_far_nccl1737.txt"))
    assert result.facts() == {"gpu.nvlink": True, "gpu.nic_path": "node"}  # GPU1/GPU3 reach a NIC only via NODE
    # The GPU3 row is cut after its NIC0 cell: what is there is read.
    assert result.nic_paths == {"GPU0": "PIX", "GPU1": "NODE", "GPU2": "PIX", "GPU3": "NODE"}
    assert "GPU1 (NODE)" in result.notes()[0]


def test_dgx_a100_every_gpu_has_a_nic_on_its_switch(recorded):
    result = parse_nvidia_smi(recorded("nvidia_smi_topo_dgx_a100_nccl1505.txt"))
    assert result.nvlink is True and set(result.nic_paths.values()) == {"PXB"} and len(result.nic_paths) == 5
    assert "own PCIe switch" in result.notes()[0]
    assert result.facts()["gpu.nic_path"] == "pxb"


# nvidia-smi topo -m of a two-socket PCIe box (the layout drivers ≥ 470 print, NIC Legend included): GPU0 sits on
# socket 0, the only NIC on socket 1, so GPU0's traffic to the network crosses the UPI link between the sockets.
TOPO_NIC_ACROSS_SOCKETS = """        GPU0    GPU1    NIC0    CPU Affinity    NUMA Affinity   GPU NUMA ID
GPU0     X      SYS     SYS     0-23,48-71      0               N/A
GPU1    SYS      X      PIX     24-47,72-95     1               N/A
NIC0    SYS     PIX      X

Legend:

  X    = Self
  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)
  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within a NUMA node
  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)
  PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host Bridge)
  PIX  = Connection traversing at most a single PCIe bridge
  NV#  = Connection traversing a bonded set of # NVLinks

NIC Legend:

  NIC0: mlx5_0
"""


def test_topo_gpu_whose_nic_is_across_the_sockets_is_sys():
    result = parse_nvidia_smi(TOPO_NIC_ACROSS_SOCKETS)
    assert result.nic_paths == {"GPU0": "SYS", "GPU1": "PIX"}
    assert result.facts() == {"gpu.nvlink": False, "gpu.nic_path": "sys"}  # the worst-placed GPU sets the pace
    assert "GPU0 (SYS)" in result.notes()[0]


def test_topo_old_driver_mlx_columns_through_the_host_bridge_is_phb():
    # Drivers before NIC0/NIC Legend named the NIC columns after the device ("mlx5_0").
    text = ("        GPU0    GPU1    mlx5_0  CPU Affinity\n"
            "GPU0     X      PHB     PHB     0-11\n"
            "GPU1    PHB      X      PHB     0-11\n"
            "mlx5_0  PHB     PHB      X\n")
    assert parse_nvidia_smi(text).facts() == {"gpu.nvlink": False, "gpu.nic_path": "phb"}


def test_two_pcie_gpus_without_nvlink(recorded):
    result = parse_nvidia_smi(recorded("nvidia_smi_topo_2gpu_phb_legend_club3090_1229.txt"))
    assert result.facts() == {"gpu.nvlink": False} and result.nic_paths == {}


def test_single_gpu_topo_with_ansi_header_says_nothing_about_nvlink(recorded):
    result = parse_nvidia_smi(recorded("nvidia_smi_topo_1gpu_ansi_h200.txt"))
    assert result.facts() == {} and result.notes() == []


def test_query_pcie_link(recorded):
    result = parse_nvidia_smi(recorded("nvidia_smi_q_h200.txt"))
    assert result.facts() == {"gpu.count": 1, "gpu.model": "H200", "gpu.pcie_gen": 5, "gpu.pcie_width": 16,
                              "gpu.pcie_gen_max": 5, "gpu.pcie_width_max": 16}


def test_csv_pcie_columns(recorded):
    facts = parse_nvidia_smi(recorded("nvidia_smi_query_pcie_csv_h200.txt")).facts()
    assert facts["gpu.pcie_gen"] == 5 and facts["gpu.pcie_width_max"] == 16 and facts["gpu.model"] == "H200"


def test_query_excerpt_with_a_slow_link_is_noted():
    excerpt = ("        GPU Link Info\n            PCIe Generation\n                Max                 : 4\n"
               "                Current             : 1\n            Link Width\n"
               "                Max                 : 16x\n                Current             : 8x\n")
    result = parse_nvidia_smi(excerpt)
    assert result.facts() == {"gpu.pcie_gen": 1, "gpu.pcie_width": 8, "gpu.pcie_gen_max": 4, "gpu.pcie_width_max": 16}
    assert len(result.notes()) == 2
