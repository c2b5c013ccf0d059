"""A GPU's PCIe link said in words: the generation and width it runs at, and the ones it could run at, told apart by
the nearest cue before each figure (service/chat/pcie.py)."""

from __future__ import annotations

import pytest

from bwdoctor.chat.pcie import read_pcie
from tests.matching import stated_facts as facts


@pytest.mark.parametrize(("text", "expected"), [
    ("GPUs are running at PCIe Gen3 x8 instead of Gen4 x16",
     {"gpu.pcie_gen": 3, "gpu.pcie_width": 8, "gpu.pcie_gen_max": 4, "gpu.pcie_width_max": 16}),
    ("nvidia-smi -q 显示 PCIe Link Gen 当前是 Gen1 x16，最大 Gen4",
     {"gpu.pcie_gen": 1, "gpu.pcie_width": 16, "gpu.pcie_gen_max": 4}),
    ("lspci: LnkSta: Speed 8GT/s (downgraded), Width x8 (downgraded)", {"gpu.pcie_gen": 3, "gpu.pcie_width": 8}),
    ("LnkCap: Speed 16GT/s, Width x16; LnkSta: Speed 16GT/s, Width x8",
     {"gpu.pcie_gen_max": 4, "gpu.pcie_width_max": 16, "gpu.pcie_gen": 4, "gpu.pcie_width": 8}),
    ("the GPU link is PCIe 4.0 x16", {"gpu.pcie_gen": 4, "gpu.pcie_width": 16}),
    ("PCIe link width is x8 (should be x16)", {"gpu.pcie_width": 8, "gpu.pcie_width_max": 16}),
    ("GPU 的 PCIe 降到了 x8，正常应该是 x16", {"gpu.pcie_width": 8, "gpu.pcie_width_max": 16}),
    ("The card supports PCIe Gen5 but the slot only runs Gen4 x16",
     {"gpu.pcie_gen_max": 5, "gpu.pcie_gen": 4, "gpu.pcie_width": 16}),
])
def test_the_link_now_and_at_most_are_told_apart(text: str, expected: dict[str, int]) -> None:
    assert {h.fact: h.value for h in read_pcie(text)} == expected


@pytest.mark.parametrize("text", [
    "our 8x A100 PCIe nodes, 4x 200G",          # a count of GPUs and of NICs, no link width
    "2 nodes x 8 GPUs, Gen3 Xeon CPUs",         # no PCIe said: 'Gen3' names something else
    "we use 8x H100 with NVLink",
])
def test_counts_and_other_generations_are_no_pcie_link(text: str) -> None:
    assert read_pcie(text) == []


def test_a_link_below_what_it_supports_is_a_finding() -> None:
    from bwdoctor.chat import answer_turn
    from bwdoctor.engine import load_engine

    out = answer_turn("GPUs are running at PCIe Gen3 x8 instead of Gen4 x16, 8 GPUs in one server, training is slow",
                      engine=load_engine())
    assert out["findings"][0]["category"] == "pcie-topology" and out["findings"][0]["severity"] == "warning"


def test_the_figures_reach_the_facts_of_the_turn() -> None:
    got = facts("nvidia-smi -q 显示 PCIe Link Gen 当前是 Gen1 x16，最大 Gen4，单机 4 卡训练很慢。")
    assert (got["gpu.pcie_gen"], got["gpu.pcie_gen_max"], got["gpu.pcie_width"]) == (1, 4, 16)


@pytest.mark.parametrize("text", [
    "用 dmidecode 查插槽，发现其中一块网卡插在 Type: x4 PCI Express 2 的槽上",
    "GB10 的 QSFP 口在系统里是两个虚拟网卡（两个 PCIe x4 控制器），我们只用上了其中一个",
    "the ConnectX-6 sits in a PCIe Gen3 x8 slot",
])
def test_a_nics_slot_is_not_the_gpus_link(text: str) -> None:
    assert read_pcie(text) == []
