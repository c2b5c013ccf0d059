"""Comparisons of three runs or more, lists said 'respectively', and tables typed with column headers."""

import pytest

from bwdoctor.chat import understand
from bwdoctor.chat.comparisons import read_scaling, read_tables
from bwdoctor.chat.entities import find_entities, mask_entities


def _scaling(text: str) -> dict[str, object]:
    return {h.fact: h.value for h in read_scaling(mask_entities(text, find_entities(text))).hits}


@pytest.mark.parametrize("text", [
    "Throughput: 1 node 3000 tokens/s, 2 nodes 3500, 4 nodes 3600. Why so bad?",
    "3000 tok/s on 1 node, 3500 on 2, 3600 on 4 nodes. Why?",
    "1/2/4 机分别是 3000/3500/3600 tokens/s，扩展效率太差",
    "We tried 1, 2 and 4 nodes; throughput was 3000, 3500 and 3600 samples/s respectively.",
    "- 1 node: 3000 tokens/s\n- 2 nodes: 3500 tokens/s\n- 4 nodes: 3600 tokens/s\n",
])
def test_a_series_of_runs_compares_the_largest_with_the_smallest(text: str) -> None:
    facts = understand(text).facts
    assert facts.get("job.nodes") == 4 and facts.get("job.baseline_nodes") == 1, facts
    assert facts.get("job.speedup") == pytest.approx(1.2), facts
    assert "job.negative_scaling" not in facts


def test_a_numbered_list_of_runs_in_gpus_with_mixed_units() -> None:
    text = ("multi-node is unusable:\n  1. single P4 GPU: 1.8 it/sec\n  2. dual P4 (same host): 2.6 it/sec\n"
            "  3. quad P4 (two hosts): 285.15 sec/it\nSetup: two VMs.")
    facts = understand(text).facts
    assert facts["job.step_time_s"] == 285.15 and facts["job.baseline_gpus"] == 1
    assert facts["job.negative_scaling"] is True and facts["job.speedup"] < 0.01
    assert facts["job.nodes"] == 2 and facts["job.gpus_per_node"] == 2


def test_step_times_of_a_series_are_the_job_and_its_baseline() -> None:
    facts = understand("- 1 node: 0.5 s/it\n- 2 nodes: 0.6 s/it\n- 4 nodes: 0.9 s/it\n- 8 nodes: 1.8 s/it\n").facts
    assert facts["job.step_time_s"] == 1.8 and facts["job.step_time_baseline_s"] == 0.5
    assert facts["job.nodes"] == 8 and facts["job.baseline_nodes"] == 1


@pytest.mark.parametrize("text", [
    "1 node 3000 tokens/s, 1 node with fp8 3500, 2 nodes 3600",  # one size twice: not a scaling series
    "On 2 nodes we get 3000 tokens/s. The GPUs are 8 per node, the NICs 4, the switch 1.",
    "1 node 3000 tokens/s, 2 nodes 3500, 4 nodes 3600 MB of memory",  # the last figure is no rate
])
def test_no_series_where_none_is_said(text: str) -> None:
    assert "job.speedup" not in _scaling(text)


def test_every_number_of_a_series_is_accounted_for() -> None:
    u = understand("Throughput: 1 node 3000 tokens/s, 2 nodes 3500, 4 nodes 3600. 1/2/4 机分别是 1/2/3 s/it")
    assert not u.not_understood, u.not_understood


def test_a_pair_of_step_rates_gives_both_step_times() -> None:
    facts = understand("Single node: about 2 iterations/sec. Two nodes: 4 sec/iteration.").facts
    assert facts["job.step_time_baseline_s"] == 0.5 and facts["job.step_time_s"] == 4.0
    assert facts["job.baseline_nodes"] == 1 and facts["job.negative_scaling"] is True


def test_a_fixed_global_batch_makes_steps_per_second_the_throughput() -> None:
    text = "With the global batch size unchanged, 2 nodes give 2.35 steps/sec, a single node 2.94 steps/sec."
    facts = understand(text).facts
    assert facts["job.speedup"] == pytest.approx(0.7993, abs=1e-3) and facts["job.negative_scaling"] is True


@pytest.mark.parametrize(("text", "base"), [
    ("为什么两台反而每步更慢？", "job.negative_scaling"),
    ("训练时间跟只用一个 node 差不多，我有三个节点", "job.baseline_nodes"),
    ("4 nodes are no faster than a single node.", "job.baseline_nodes"),
    ("Two nodes run at about the same speed as one node.", "job.baseline_nodes"),
])
def test_comparisons_said_in_words(text: str, base: str) -> None:
    assert base in _scaling(text)


def test_sameness_of_a_setup_is_no_comparison_of_speed() -> None:
    assert "job.baseline_nodes" not in _scaling("每台机器跟单机一样的配置")


def test_a_standalone_run_is_the_baseline_of_a_slowdown() -> None:
    facts = _scaling("Standalone without kvstore: fast. On 3 machines with mpi, each node is 10 times slower.")
    assert facts["job.baseline_nodes"] == 1 and facts["job.speedup"] == 0.1


def test_a_markdown_table_of_runs_read_by_its_headers() -> None:
    text = ("Scaling looks bad:\n\n| nodes | step time (s) | tokens/s |\n|-------|---------------|----------|\n"
            "| 1     | 0.50          | 3000     |\n| 2     | 0.62          | 4800     |\n"
            "| 4     | 0.90          | 6700     |\n"
            "\nIs the network the problem?")
    u = understand(text)
    assert u.facts["job.nodes"] == 4 and u.facts["job.baseline_nodes"] == 1
    assert u.facts["job.speedup"] == pytest.approx(6700 / 3000, abs=1e-3)
    assert not u.not_understood


def test_a_table_cell_keeps_its_own_units() -> None:
    facts = _scaling("| GPUs | time per epoch |\n|---|---|\n| 8 | 1h 20 mins |\n| 16 | 50 mins |\n| 32 | 40 mins |\n")
    assert facts["job.baseline_gpus"] == 8 and facts["job.speedup"] == pytest.approx(2.0)


def test_a_table_typed_without_pipes_at_the_edges_is_read_from_its_lines() -> None:
    lines = "节点数 | 吞吐 (tokens/s)\n1 | 3000\n2 | 3500\n4 | 3600\n为什么扩展这么差？"
    hits = read_scaling(lines.replace("\n", " "), lines=lines).hits
    facts = {h.fact: h.value for h in hits}
    assert facts["job.baseline_nodes"] == 1 and facts["job.nodes"] == 4 and facts["job.speedup"] == 1.2


def test_a_pasted_table_without_headers_is_read_by_its_cells() -> None:
    text = ("```\n8 Gpus     750.3/gpu   6001.19/total    100%\n16 Gpus    693.3/gpu   11090.10/total   92.4%\n"
            "32 Gpus    584.3/gpu   18695.00/total   77.88%\n```")
    facts = {h.fact: h.value for h in read_tables(text, [(0, len(text))]).hits}
    assert facts["job.scaling_efficiency_pct"] == 77.88 and facts["job.baseline_gpus"] == 8
    assert facts["job.speedup"] == pytest.approx(18695.0 / 6001.19, abs=1e-3)


@pytest.mark.parametrize("text", [
    "| GPU | Temp | Util |\n|---|---|---|\n| 0 | 60C | 90% |\n| 1 | 61C | 95% |\n| 2 | 59C | 93% |\n",
    "| size | time | algbw | busbw |\n|---|---|---|---|\n| 8M | 120 | 70 | 131 |\n| 16M | 230 | 73 | 136 |\n",
    "| node | IP |\n|---|---|\n| 1 | 10.0.0.1 |\n| 2 | 10.0.0.2 |\n",
    "| GPU | step time |\n|---|---|\n| 0 | 0.5 |\n| 1 | 0.6 |\n| 2 | 0.9 |\n",  # one run's GPUs, numbered
    "| node | step time |\n|---|---|\n| 1 | 0.5 |\n| 2 | 0.6 |\n| 3 | 0.9 |\n",
])
def test_tables_that_are_no_runs_give_no_comparison(text: str) -> None:
    assert "job.speedup" not in _scaling(text)
