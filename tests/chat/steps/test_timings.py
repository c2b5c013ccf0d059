"""Step times, run comparisons and communication shares in the shapes real threads say them."""

import pytest

from bwdoctor.chat import understand


# --------------------------------------------------------------------------- communication's share, said otherwise
@pytest.mark.parametrize(("text", "pct"), [
    ("Two V100s with DDP: per step, compute 20.1 ms and communication 14.9 ms, i.e. 42.6 % communication overhead.",
     42.6),
    ("The profile says 85% comms time per iteration on 4 machines. Where do we start?", 85.0),
    ("多机训练时 profile 一下，`send_op` 占了每个 mini-batch 90% 的时间，参数服务器模式。", 90.0),
    ("看 timeline，recv_op 占每个 step 的 60% 左右，带宽只有 10G。", 60.0),
    ("On 8 nodes the send op takes 70% of every mini-batch in the profile.", 70.0),
])
def test_the_share_of_the_step_spent_communicating_is_read(text: str, pct: float) -> None:
    assert understand(text).facts.get("job.comm_time_pct") == pct


@pytest.mark.parametrize("text", [
    "Is 40% communication overhead normal for 2 nodes?",
    "send_op 占每个 step 的 60% 带宽，正常吗",
    "NCCL reaches 85% of line rate, communication time is fine.",
])
def test_a_share_asked_about_or_of_bandwidth_is_no_share_of_time(text: str) -> None:
    assert "job.comm_time_pct" not in understand(text).facts


# --------------------------------------------------------------------------- run comparisons
def test_both_gpus_are_the_two_gpu_run_against_one() -> None:
    facts = understand("Rented a box with 2x A100. One A100: 1.30 s/it.\nBoth A100s with DDP: 2.10 s/it. "
                       "No NVLink between them. Is that as good as it gets?").facts
    assert facts.get("job.step_time_s") == 2.1 and facts.get("job.step_time_baseline_s") == 1.3, facts
    assert facts.get("job.baseline_gpus") == 1 and facts.get("job.gpus_per_node") == 2, facts


def test_both_nodes_against_one_node() -> None:
    facts = understand("A single node trains at 0.8 s/it; both nodes together take 1.9 s/it.").facts
    assert facts.get("job.baseline_nodes") == 1 and facts.get("job.nodes") == 2, facts
    assert facts.get("job.negative_scaling") is True, facts


@pytest.mark.parametrize("text", [
    "GPT pretraining is much slower multi-node than single-node, on g4dn instances with 25 Gbps networking.",
    "Training is noticeably slower in distributed than on a single machine.",
])
def test_slower_multi_node_than_single_node_is_negative_scaling(text: str) -> None:
    facts = understand(text).facts
    assert facts.get("job.negative_scaling") is True and facts.get("job.baseline_nodes") == 1, facts


def test_a_count_glued_to_its_gpus_is_a_run_size() -> None:
    facts = understand("1xGPU runs at 900 img/s, 8xGPU across two nodes only 4000 img/s. Why?").facts
    assert facts.get("job.baseline_gpus") == 1, facts


# --------------------------------------------------------------------------- one machine against machines not counted
@pytest.mark.parametrize("text", [
    "mmdet training. On a single node an iteration takes `time: 0.512` (`data_time: 0.201`); across multiple nodes "
    "it becomes `time: 95.0` and the ETA explodes.",
    "On one node a step takes 0.6 s/it, but on multiple nodes it takes 4.2 s/it. Is the network too slow?",
])
def test_a_step_on_one_machine_against_one_on_several_uncounted(text: str) -> None:
    facts = understand(text).facts
    assert facts.get("job.baseline_nodes") == 1, facts
    assert facts.get("job.step_time_baseline_s") in (0.512, 0.6), facts
    assert facts.get("job.step_time_s") in (95.0, 4.2), facts


def test_a_quoted_data_time_is_not_the_step() -> None:
    facts = understand("On a single node an iteration takes `data_time: 0.3` only; on multiple nodes the same.").facts
    assert "job.step_time_baseline_s" not in facts and "job.step_time_s" not in facts
