"""Comparisons of three runs or more, lists said 'respectively', and tables typed with column headers."""

import pytest

from bwdoctor.chat import understand
from bwdoctor.chat.comparisons import read_scaling
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
