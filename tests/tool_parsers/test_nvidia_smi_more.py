"""nvidia-smi topo -m NIC affinity, -q PCIe link, CSV PCIe columns.

Fixtures: real output pasted in the threads they cite, and captures recorded for this project on an H200.
"""

from bwdoctor_parsers.nvidia_smi import parse_nvidia_smi


def test_topo_nic_affinity_and_nvlink(recorded):
    result = parse_nvidia_smi(recorded("nvidia_smi_topo_nv18_nic_far_nccl1737.txt"))
    assert result.facts() == {"gpu.nvlink": True}
    # The GPU3 row is cut after its NIC0 cell: what is there is read.
    assert result.nic_paths == {"GPU0": "PIX", "GPU1": "NODE", "GPU2": "PIX", "GPU3": "NODE"}
    assert "GPU1 (NODE)" in result.notes()[0]


def test_dgx_a100_every_gpu_has_a_nic_on_its_switch(recorded):
    result = parse_nvidia_smi(recorded("nvidia_smi_topo_dgx_a100_nccl1505.txt"))
    assert result.nvlink is True and set(result.nic_paths.values()) == {"PXB"} and len(result.nic_paths) == 5
    assert "own PCIe switch" in result.notes()[0]


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
