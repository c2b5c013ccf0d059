"""Counts read as an expert reads them: machines named one by one, side runs, NICs per group, ordinals."""

import pytest

from bwdoctor.chat.counts import read_counts, read_nic_count
from bwdoctor.chat.entities import find_entities, mask_entities


def _hits(text: str) -> tuple[str, list]:
    masked = mask_entities(text, find_entities(text))
    return masked, read_counts(masked, text)


def _resolved(text: str, fact: str) -> object:
    """The value a fact resolves to: strong beats weak, otherwise the last said."""
    _, hits = _hits(text)
    chosen = None
    for h in hits:
        if h.fact == fact and (chosen is None or not h.weak or chosen.weak):
            chosen = h
    return None if chosen is None else chosen.value


def _nics(text: str) -> object:
    masked = mask_entities(text, find_entities(text))
    chosen = None
    for h in read_nic_count(masked, text):
        if chosen is None or not h.weak or chosen.weak:
            chosen = h
    return None if chosen is None else chosen.value


@pytest.mark.parametrize(
    ("text", "nodes"),
    [
        ("I tried two independent clusters (clusterA: m0, m1, m2; clusterB: m3, m4, m5) with the same result", 3),
        ("training on node1, node2 and node3 is slow", 3),
        ("our hosts gpu01-gpu04 each have 8 GPUs", 4),
        ("the job runs on node1-4", 4),
        ("Server 1、2 接在本地网络 1，Server 3、4 接在本地网络 2", 4),
        ("按 Server1-Server2-Server3-Server4 的顺序跑 ring", 4),
        ("比如一台在 Google Cloud、一台在 AWS，两边串成一个 pipeline", 2),
        ("one box on GCP and one on AWS, joined by a VPN", 2),
        ("a GCE SLURM cluster of 2x(8xA100) nodes", 2),
        ("DeepSeek V3 runs on 16 H100 GPU nodes", 16),
    ],
)
def test_machines_named_or_counted(text: str, nodes: int) -> None:
    assert _resolved(text, "job.nodes") == nodes


@pytest.mark.parametrize(
    "text",
    [
        "GPU0-GPU1、GPU3-GPU4 之间是 PHB，其它全是 SYS",  # GPUs, not machines
        "NCCL_IB_HCA 里写了 mlx5_0, mlx5_1, mlx5_2",  # NICs
        "tried TP2, TP4 and TP8 on the node",  # parallel degrees
        "step1, step2, step3 all slow on these machines",
    ],
)
def test_names_that_are_not_machines(text: str) -> None:
    _, hits = _hits(text)
    assert not [h for h in hits if h.fact == "job.nodes" and h.value > 1]


def test_host_list_yields_to_a_count_said_outright() -> None:
    _, hits = _hits("we have 4 nodes; node1 and node2 are the slow ones")
    strong = [h for h in hits if h.fact == "job.nodes" and not h.weak]
    assert [h.value for h in strong] == [4]


@pytest.mark.parametrize(
    ("text", "fact", "value"),
    [
        # a comparison run's GPUs are not the job's
        (
            "一开始单机多卡（一共 8 卡）训练，大约 20s 一个 step；换成多机多卡（一共 16 卡）以后每个 step 要 40s 左右；"
            "为了对比又只用 1 张卡跑，每步耗时反而更少。",
            "job.gpus_per_node",
            8,
        ),
        (
            "一开始单机多卡（一共 8 卡）训练，大约 20s 一个 step；"
            "换成多机多卡（一共 16 卡）以后每个 step 要 40s 左右。",
            "job.nodes",
            2,
        ),
        (
            "按 Server1-Server2-Server3-Server4 的顺序跑 32 卡 ring AllReduce。"
            "而只用一半的 rank，在 Server1 和 Server3 之间跑 16 卡 ring，busbw 是满的。",
            "job.gpus_per_node",
            8,
        ),
        ("每台配置：A100 * 8。另外单独设 NCCL_IB_HCA=mlx5_0 只用一张卡时能到理论值 24GB/s。", "job.gpus_per_node", 8),
        ("Two nodes with 8 GPUs each are slow. For comparison I also ran on a single GPU.", "job.gpus_per_node", 8),
    ],
)
def test_side_runs_are_not_the_job(text: str, fact: str, value: int) -> None:
    assert _resolved(text, fact) == value


def test_last_of_a_series_is_weak() -> None:
    _, hits = _hits("the speed stays the same with 1, 2 or 5 machines; two machines here are 5x slower")
    assert [h.value for h in hits if h.fact == "job.nodes" and not h.weak] == [2]


def test_dgx_boxes_are_machines() -> None:
    text = "multinode inference across 2x H100 DGX boxes with InfiniBand"
    masked, hits = _hits(text)
    got = {h.fact: h.value for h in hits if not h.weak}
    assert got == {"job.nodes": 2, "job.gpus_per_node": 8}
    # without the unmasked text the grammar keeps its old reading of '2xH100 nodes'
    assert {h.fact: h.value for h in read_counts(masked)}.get("job.nodes") is None


def test_a_rate_is_no_gpu_count() -> None:
    _, hits = _hits("What is the maximum bandwidth of a dual-port 10Gbit card in an x4 slot?")
    assert not [h for h in hits if h.fact == "job.gpus_per_node"]


@pytest.mark.parametrize(
    ("text", "nics"),
    [
        ("两台 H800 服务器，每台 4 张 CX7 IB 卡。8 个 rank 全都选了第一张网卡建连接，其他 3 张网卡没流量。", 4),
        ("两台 H100 服务器，RoCEv2，8 张 mlx5 网卡。", 8),
        ("三台服务器，每台 8 张卡，两个 PCIe switch，每个 switch 下挂 4 张 GPU + 1 张 400Gbps 网卡。", 2),
        ("two PCIe switches, each with 4 GPUs and one NIC", 2),
        ("想把两张 IB 卡都用上，perfquery 一看，NCCL 只用了一张 HCA。", 2),
        ("Every node has 8 GPU-NIC pairs.", 8),
        ("a dual-port 10Gbit card in a PCI Express 2.0 x4 slot", 2),
        ("IB 200Gb * 4（双口卡）", 4),
    ],
)
def test_nic_counts(text: str, nics: int) -> None:
    assert _nics(text) == nics


@pytest.mark.parametrize(
    "text",
    [
        "CX7 是单口还是双口？双口的话有没有做 bond0？",
        "看日志全都选了第一张网卡",
    ],
)
def test_no_nic_count(text: str) -> None:
    assert _nics(text) is None


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        ("两个节点之间用 RoCE 连，只用每台的 GPU0（GPU0 和网卡挂在同一个 CPU 下）", 1),
        ("two nodes, we only use GPU0 and GPU1 on each", 2),
    ],
)
def test_gpus_named_for_the_job(text: str, gpus: int) -> None:
    assert _resolved(text, "job.gpus_per_node") == gpus


@pytest.mark.parametrize("text", ["training only used GPU 3 and the rest sat idle", "NCCL 只用了 GPU0"])
def test_gpus_named_in_a_symptom(text: str) -> None:
    assert _resolved(text, "job.gpus_per_node") is None
