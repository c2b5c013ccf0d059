"""Tables of links or measurements ('| link | spec | iperf3 |'), and scaling said in words."""

import pytest

from bwdoctor.chat import understand
from bwdoctor.chat.comparisons import read_scaling
from bwdoctor.chat.tables import read_link_tables


def _facts(text: str) -> dict[str, object]:
    return {fact: value for fact, value, _, _ in read_link_tables(text)}


def test_the_link_the_question_asks_about_gives_rating_and_measurement() -> None:
    text = ("Two nodes, once over a 10G LAN and once over a 40G Thunderbolt cable. "
            "I'm asking about the Thunderbolt link.\n"
            "| link        | spec  | iperf3 |\n| thunderbolt | 40G   | 16.2G  |\n| lan         | 10G   | 9.37G  |\n"
            "Why is training slower on the Thunderbolt link?")
    facts = understand(text).facts
    assert facts.get("nic.speed_gbps") == 40 and facts.get("net.iperf3_gbps") == 16.2, facts


def test_links_of_several_ratings_none_asked_about_say_nothing() -> None:
    text = "iperf3 results:\n| link | spec | iperf3 |\n| a | 40G | 16.2G |\n| b | 10G | 9.37G |\n"
    assert _facts(text) == {}


def test_the_cross_node_per_nic_rows_stand_for_the_job() -> None:
    text = ("ib_write_bw is almost at parity:\n```\n"
            "| Cross-node ALL 8 NICs | A.mlx5_[0-7] <-> B.mlx5_[0-7] | 3,160 Gb/s | 99.7%/NIC |\n"
            "| Cross-node fabric, 4 QP | Node A mlx5_0 <-> Node B mlx5_0 | 395.08 Gb/s | 99.7% |\n```\n"
            "NCCL all-reduce with an 8 GB message:\n```\n"
            "| Single node (Host 1) | 8 | 474.11 GB/s | NVLink/NVSwitch |\n"
            "| 2-node (16 GPUs)     | 16 | 154.925 GB/s | NVLink + IB fabric |\n```\nWhat else?")
    facts = understand(text).facts
    assert facts.get("net.rdma_bw_gbps") == 395.08 and facts.get("nic.count") == 8, facts
    assert facts.get("nccl.allreduce_busbw_gbytes_per_s") == 154.925, facts
    assert facts.get("job.nodes") == 2 and facts.get("job.gpus_per_node") == 8, facts


def test_the_worst_of_like_rows_is_the_job() -> None:
    text = "ib_write_bw between node pairs:\n| 节点对 | 带宽 |\n| node1-node2 | 180 Gb/s |\n| node1-node3 | 92 Gb/s |\n"
    assert _facts(text).get("net.rdma_bw_gbps") == 92


def test_a_table_of_runs_is_no_table_of_links() -> None:
    text = "| nodes | step time (s) | tokens/s |\n|---|---|---|\n| 1 | 0.5 | 3000 |\n| 4 | 0.9 | 6700 |\n"
    assert _facts(text) == {}


@pytest.mark.parametrize(("text", "facts"), [
    ("单机 8 卡 P40 训练 60h；\n2 台机器、每台 8 卡 P40 训练 40h，算正常吗？",
     {"job.speedup": 1.5, "job.baseline_nodes": 1, "job.nodes": 2}),
    ("With 2 workers it is still roughly 10 seconds slower than the non-distributed run. Expected?",
     {"job.negative_scaling": True}),
    ("一开始单机（一共 8 卡）训练，大约 20s 一个 step；换成多机（一共 16 卡）以后每个 step 要 40s 左右。",
     {"job.step_time_s": 40, "job.step_time_baseline_s": 20}),
    ("两台主机，每台 8 张 A100，两台一起跑非常慢；同样的代码在单台 8 卡上就很快。",
     {"job.baseline_nodes": 1, "job.nodes": 2}),
])
def test_scaling_said_in_words(text: str, facts: dict[str, object]) -> None:
    read = understand(text).facts
    for k, v in facts.items():
        assert read.get(k) == pytest.approx(v) if isinstance(v, float) else read.get(k) == v, (k, read)


def test_a_single_machine_said_slow_too_is_no_fine_baseline() -> None:
    hits = read_scaling("两台主机跑得很慢，单台也不快，瓶颈在哪？").hits
    assert not hits


def test_a_series_in_a_code_block_sized_in_gpus_of_whole_machines() -> None:
    text = ("Training on an HPC machine with 4 GPUs per node, 100 epochs each:\n```\n"
            "4 GPU: 2h, 30 min\n8 GPU: 2h 21 min\n"
            "16 GPU: 2h 25 min\n32 GPU: 2h 46 min\n```\nWhy doesn't training time scale?")
    facts = understand(text).facts
    assert facts.get("job.nodes") == 8 and facts.get("job.baseline_nodes") == 1, facts
    assert facts.get("job.baseline_gpus") == 4 and facts.get("job.negative_scaling") is True, facts
