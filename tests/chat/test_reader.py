"""The evidence reader layer by layer: entities, counts, commands, scopes, comparisons, sanity, accounting."""

import re
from pathlib import Path

import pytest
import yaml

from bwdoctor.chat import understand
from bwdoctor.chat.commands import read_commands
from bwdoctor.chat.comparisons import read_scaling
from bwdoctor.chat.counts import read_counts
from bwdoctor.chat.entities import find_entities, mask_entities

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def _counts(text: str) -> dict[str, object]:
    masked = mask_entities(text, find_entities(text))
    strong = {h.fact: h.value for h in read_counts(masked) if not h.weak}
    return strong


@pytest.mark.parametrize(("text", "nodes", "gpus"), [
    ("4台8卡A100", 4, 8),
    ("两机十六卡", 2, 8),
    ("2机2卡", 2, 1),
    ("两机4卡", 2, 2),
    ("2机16卡", 2, 8),
    ("4台机器，每台8张卡", 4, 8),
    ("2 nodes x 8 GPUs", 2, 8),
    ("2x8 H100", 2, 8),
    ("two boxes with 4 RTX 4090 each", 2, 4),
    ("16 GPUs across 2 nodes", 2, 8),
    ("Six H100 nodes, each with 8 GPUs", 6, 8),
    ("we have 4 8-GPU nodes", 4, 8),
    ("共 4 个节点 32 张卡", 4, 8),
    ("32 GPUs (4 nodes)", 4, 8),
])
def test_count_grammar(text: str, nodes: int, gpus: int) -> None:
    got = _counts(text)
    assert got.get("job.nodes") == nodes and got.get("job.gpus_per_node") == gpus, got


@pytest.mark.parametrize("text", ["two boxes with 4 RTX 4090 each", "4xH100-80G nodes", "NCCL 2.18.3 on CUDA 12.1"])
def test_entity_digits_are_never_quantities(text: str) -> None:
    facts = understand(text).facts
    assert facts.get("job.nodes") not in {4090, 80, 18}
    assert facts.get("nic.speed_gbps") is None
    assert "job.step_time_s" not in facts


def test_gpu_model_keeps_memory_and_form() -> None:
    (gpu,) = [e for e in find_entities("8x A100-SXM4-80GB") if e.kind == "gpu"]
    assert (gpu.name, gpu.memory_gbytes, gpu.form) == ("A100", 80.0, "SXM")


def test_command_line_arguments_are_not_results() -> None:
    text = "I ran `mpirun -np 32 -N 8 ./build/all_reduce_perf -b 8M -e 8G -g 1` and busbw is low"
    found = read_commands(text)
    assert found.facts == {"job.nodes": 4, "job.gpus_per_node": 8}
    facts = understand(text).facts
    assert facts.get("job.nodes") == 4
    assert "net.iperf3_gbps" not in facts and "nccl.allreduce_busbw_gbytes_per_s" not in facts


def test_launchers_and_environment() -> None:
    text = "torchrun --nnodes 2 --nproc_per_node 8 train.py with NCCL_IB_DISABLE=1 and NCCL_SOCKET_IFNAME=eth0"
    facts = understand(text).facts
    assert facts["job.nodes"] == 2 and facts["job.gpus_per_node"] == 8
    assert facts["nccl.ib_disabled"] is True and facts["nccl.socket_ifname"] == "eth0"


def test_sentence_starting_with_a_tool_name_is_prose() -> None:
    facts = understand("iperf3 between our two boxes only shows 3.2 Gbits/sec").facts
    assert facts["net.iperf3_gbps"] == pytest.approx(3.2)


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("we don't have InfiniBand, plain 25GbE", "nic.kind", "ethernet"),
    ("我们没有 RDMA，万兆网卡", "nic.rdma", False),
    ("not using NVLink between the two GPUs", "gpu.nvlink", False),
    ("GDR is not enabled on these nodes", "nccl.gdr_disabled", True),
])
def test_negation(text: str, fact: str, value: object) -> None:
    assert understand(text).facts.get(fact) == value


def test_roce_is_a_word_not_letters_inside_one() -> None:
    assert "nic.kind" not in understand("the processes hang on 2 nodes").facts


@pytest.mark.parametrize("text", [
    "Would accumulating gradients over 4 steps help our 7B bf16 job on 2 nodes with 10GbE?",
    "4台机器13B模型10G网卡，用FP8会不会快一些？",
])
def test_setup_and_what_if_in_one_sentence(text: str) -> None:
    u = understand(text)
    assert u.facts.get("nic.speed_gbps") == 10
    assert u.facts.get("job.model_params_b") in {7, 13}
    assert set(u.change_facts) & {"job.grad_accum_steps", "job.precision"}
    assert "job.grad_accum_steps" not in u.facts and "job.precision" not in u.facts or \
        u.facts.get("job.precision") == "bf16"


def test_hypothetical_speed_is_a_change() -> None:
    u = understand("We have 8 nodes on 25GbE. What if we moved to 100GbE?")
    assert u.facts["nic.speed_gbps"] == 25 and u.change_facts["nic.speed_gbps"] == 100


def test_reference_figure_is_not_a_measurement() -> None:
    u = understand("the vendor datasheet says 50 GB/s busbw but our other cluster gets 20 GB/s")
    assert "nccl.allreduce_busbw_gbytes_per_s" not in u.facts
    assert u.references


@pytest.mark.parametrize(("text", "speedup", "baseline"), [
    ("3 hours on one box, 5 hours on two boxes", 0.6, 1),
    ("3 hours on one box, 5 hours on two", 0.6, 1),
    ("单机一个 epoch 20 分钟，两台反而要 40 分钟", 0.5, 1),
])
def test_scaling_pairs(text: str, speedup: float, baseline: int) -> None:
    facts = {h.fact: h.value for h in read_scaling(mask_entities(text, find_entities(text))).hits}
    assert facts["job.speedup"] == pytest.approx(speedup, rel=0.02)
    assert facts["job.baseline_nodes"] == baseline
    assert facts["job.negative_scaling"] is True


@pytest.mark.parametrize("text", ["two machines are slower than one", "it gets worse with every node I add",
                                  "Two nodes were faster than four.", "两台机器比四台还快",
                                  "两台机器比一台还慢", "机器越加越慢"])
def test_negative_scaling_in_words(text: str) -> None:
    assert understand(text).facts.get("job.negative_scaling") is True


def test_per_step_times_scale_with_the_run() -> None:
    facts = understand("7B模型，2机16卡，每步1.05秒，单机1秒").facts
    assert facts["job.speedup"] == pytest.approx(2 / 1.05, rel=0.02)
    assert "job.negative_scaling" not in facts


def test_impossible_measurement_is_asked_about_not_diagnosed() -> None:
    u = understand("2 nodes on 25G NICs, iperf3 shows 96 Gbps")
    assert "net.iperf3_gbps" not in u.facts
    assert u.conflicts and "384" in u.conflicts[0].en


def test_more_than_sixteen_gpus_per_machine_is_not_taken() -> None:
    u = understand("one machine with 64 GPUs per node")
    assert "job.gpus_per_node" not in u.facts and u.conflicts


def test_numbers_not_understood_are_listed() -> None:
    u = understand("2 nodes on 25GbE and the number 37 keeps showing up")
    assert [n["text"] for n in u.not_understood] == ["37"]


def _corpus_questions() -> list[str]:
    questions = []
    for path in sorted(CORPUS.glob("*.yaml")):
        for case in (yaml.safe_load(path.read_text("utf-8")) or {}).get("scenarios", []):
            if "ask" in case:
                questions.append(case["ask"])
    return questions


def test_every_number_in_every_corpus_question_is_used_or_reported() -> None:
    questions = _corpus_questions()
    assert len(questions) >= 150
    for q in questions:
        u = understand(q)
        # A number standing alone (not a part of a name such as GPU0, k8s or mlx5_0).
        for m in re.finditer(r"(?<![A-Za-z0-9_.\-=:/])\d+(?:\.\d+)?(?![A-Za-z0-9_])", q):
            assert any(a <= m.start() < b for a, b in u.accounted), (q, m.group(0), m.start())


def test_a_measurement_goes_to_the_tool_named_after_it() -> None:
    facts = understand("the vendor datasheet says 50 GB/s, we measured 12 GB/s with nccl-tests").facts
    assert facts == {"nccl.allreduce_busbw_gbytes_per_s": 12.0}


def test_a_bare_link_rate_after_on_or_to() -> None:
    u = understand("if we moved to 100G would it be faster? we have 8 nodes on 25G")
    assert u.facts["nic.speed_gbps"] == 25 and u.change_facts["nic.speed_gbps"] == 100


def test_a_typed_markdown_table_is_prose_not_tool_output() -> None:
    u = understand("single node vs 2 nodes:\n| setup | time |\n|---|---|\n| V100 (8 GPUs, single node) | 1h 20 mins |\n"
                   "| V100 (16 GPUs across nodes) | 1h 36 mins |\n")
    assert u.pasted.spans == [] and u.facts["job.gpus_per_node"] == 8 and u.facts["job.nodes"] == 2
