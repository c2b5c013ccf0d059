"""What-if answers: a change of the network between machines asked about for a job on one machine is
answered as such, and the findings a change clears or leaves are named by their titles, not by category ids."""

from __future__ import annotations

import pytest

from bwdoctor.chat import answer_turn
from bwdoctor.engine import load_engine


@pytest.fixture(scope="module")
def engine():
    return load_engine()


@pytest.mark.parametrize(("text", "words"), [
    ("单机 8 卡 A100 训练 7B 模型，数据在 NAS 上，GPU 利用率 40%，需要上 IB 吗？", "不经过网卡"),
    ("One server with 8 A100s, 7B model, data on NFS, GPU util 40%. Would InfiniBand help?", "NVLink or PCIe"),
])
def test_a_network_change_for_one_machine_says_it_changes_nothing(engine, text: str, words: str) -> None:
    answer = answer_turn(text, engine=engine)["answer"]
    assert words in answer.splitlines()[0]
    assert "remote-storage-io" not in answer  # what remains is named by its finding's title


def test_what_a_change_clears_is_the_title_of_the_finding_before_it(engine) -> None:
    answer = answer_turn("If we moved from 25GbE to 100GbE, how much faster would our 2-node 8xA100 13B training be?",
                         engine=engine)["answer"]
    cleared = next(line for line in answer.splitlines() if line.startswith("That clears"))
    assert "25 Gb/s" in cleared and "nic-undersized" not in cleared


def test_a_how_do_we_get_back_question_about_a_fabric_we_have_is_diagnosed(engine) -> None:
    text = ("Our cross-node AllReduce is 4-5x slower than it should be. NCCL logs say `NCCL INFO NET/Socket : Using "
            "[0]bond0:200.8.184.2<0>` instead of NET/IB over our mlx5 RoCE NICs. How do we get NCCL back onto RoCE?")
    out = answer_turn(text, engine=engine)
    assert out["answer"].startswith("Conclusion:") and out["findings"][0]["category"] == "nccl-transport-fallback"


@pytest.mark.parametrize("text", [
    "A 32-GPU ring all-reduce over 4 servers across two sites loses about half of its bus bandwidth. What can we do?",
    "两机 16 卡 busbw 只有 5GB/s，100G RoCE，怎么办？",
])
def test_a_bus_bandwidth_said_as_a_symptom_is_no_nccl_tests_lesson(engine, text: str) -> None:
    out = answer_turn(text, engine=engine)
    assert not out["answer"].startswith(("Build it", "编译"))
    assert not any(str(k.get("id", "")).startswith("nccl-tests") for k in out.get("knowledge", []))


@pytest.mark.parametrize("text", ["How do I read the nccl-tests output?", "busbw 和 algbw 有什么区别？"])
def test_the_tool_asked_about_still_gets_its_lesson(engine, text: str) -> None:
    out = answer_turn(text, engine=engine)
    assert any(str(k.get("id", "")).startswith("nccl-tests") for k in out.get("knowledge", []))


def test_a_what_if_shows_only_the_figures_it_moves(engine) -> None:
    out = answer_turn("Two desktop nodes with one GPU each, LAN at 95 Mbit/s by iperf3. Will fp16 gradients fix it?",
                      engine=engine)
    assert "0.012 GB/s → 0.012 GB/s" not in out["answer"]


@pytest.mark.parametrize("text", [
    "我们 4 台机器每台 8 卡 H800，400G IB，训练 70B，需要开 GDR 吗？",
    "Do we need GPUDirect RDMA for 2 nodes of 8 A100 on 200G IB?",
])
def test_gpudirect_asked_about_is_answered_before_the_diagnosis(engine, text: str) -> None:
    out = answer_turn(text, engine=engine)
    assert [k["id"] for k in out["knowledge"]][:1] == ["gpudirect-rdma"]
    assert "nvidia-peermem" in out["answer"]


def test_gdr_said_off_is_a_diagnosis_not_a_lesson(engine) -> None:
    out = answer_turn("GDR is not enabled, IB HDR 200G, two nodes, busbw 15 GB/s.", engine=engine)
    assert out["intent"] == "diagnose" and out["findings"][0]["category"] == "nccl-transport-fallback"
