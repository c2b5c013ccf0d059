"""Categories from few facts: short questions, English and Chinese, one or two per finding category an
expert names with confidence — cloud-instance-bandwidth, param-server-topology, latency-bound, pcie-topology,
straggler-node, no-rdma-at-scale, link-degraded, nic-undersized, healthy — end to end through the chat (reader, then
rules).

Each case names the facts the reader must take from the question (so a failure says whether the reading or the rules
moved), the finding that must come out (category, lowest severity, and the rule where one rule is the point) and what
must not: look-alike cases at each rule's boundary (one machine, a fixed-rate instance, a link fast enough for the
model, a measurement at line rate). Rows marked xfail are reading gaps: the rules would decide once the fact is read.

Shapes are modelled on how such questions are written in GitHub issues and Chinese forums, not copied from the corpus.
"""

from __future__ import annotations

from typing import Any

import pytest

from bwdoctor.chat import answer_turn
from bwdoctor.engine import load_engine
from tests.matching import turn_problems


def _gap(text: str, facts: dict[str, Any], expect: dict[str, Any], why: str) -> Any:
    return pytest.param(text, facts, expect, marks=pytest.mark.xfail(reason=f"reading gap: {why}", strict=False))


# (question, facts that must be read, expectations)
#   finding: (category, lowest severity, rule or None) that must be among the findings
#   not_rules: rule ids that must not fire; not_categories: categories that must not appear
CASES: list[Any] = [
    # --- cloud-instance-bandwidth
    (
        "We run 4 p3.8xlarge instances (10 Gbps network) for data-parallel training of a 1.3B model. "
        "Is the instance network the limit?",
        {"node.instance_type": "p3.8xlarge", "job.nodes": 4},
        {"finding": ("cloud-instance-bandwidth", "warning", "aws-p2-p3-instance-network-cap")},
    ),
    (
        "2 台阿里云 ecs.gn6v-c8g1.16xlarge 做多机训练，实例带宽只有 10 Gbps，7B 模型，每步很慢，是实例带宽的问题吗？",
        {"node.instance_bandwidth_gbps": 10, "job.nodes": 2, "job.model_params_b": 7},
        {"finding": ("cloud-instance-bandwidth", "critical", "low-bandwidth-instance-for-multinode")},
    ),
    (
        "Training across 8 g4dn.xlarge nodes (up to 25 Gbps) is much slower than expected. "
        "Is the instance bandwidth the problem?",
        {"node.instance_type": "g4dn.xlarge", "job.nodes": 8},
        {"finding": ("cloud-instance-bandwidth", "warning", "aws-burst-bandwidth-instance-multinode")},
    ),
    (
        "多机训练用的是 g5.2xlarge，每台一张 A10G，跨机同步特别慢。",
        {"node.instance_type": "g5.2xlarge"},
        {"finding": ("cloud-instance-bandwidth", "warning", "aws-burst-bandwidth-instance-multinode")},
    ),
    (  # one instance: its network carries no gradients
        "One g5.xlarge, single GPU, fine-tuning a 7B model with LoRA. Is the instance network a problem?",
        {"node.instance_type": "g5.xlarge"},
        {"not_rules": ["aws-burst-bandwidth-instance-multinode"], "not_categories": ["cloud-instance-bandwidth"]},
    ),
    (
        "We have 4 nodes with 8 V100s each on AWS p3.16xlarge (25 Gbps). Scaling from 1 to 4 nodes only gives 1.5x.",
        {"node.instance_type": "p3.16xlarge", "job.nodes": 4, "job.speedup": 1.5},
        {"finding": ("cloud-instance-bandwidth", "warning", None)},
    ),
    # --- param-server-topology
    (
        "TensorFlow 参数服务器模式，2 个 ps，32 个 worker，加 worker 后吞吐不涨了，是 ps 的带宽瓶颈吗？",
        {"job.comm_pattern": "parameter_server"},
        {"finding": ("param-server-topology", "warning", "parameter-server-funnel")},
    ),
    (
        "训练用的是 ps-worker 架构，ps 节点网卡 10G，worker 40 个，gpu 利用率 30%。",
        {"job.comm_pattern": "parameter_server", "nic.speed_gbps": 10},
        {"finding": ("param-server-topology", "warning", "parameter-server-funnel")},
    ),
    _gap(
        "We use a parameter server setup with 1 PS and 16 workers for a ResNet-152, scaling is poor. Why?",
        {"job.comm_pattern": "parameter_server"},
        {"finding": ("param-server-topology", "warning", "parameter-server-funnel"), "not_facts": ["job.nodes"]},
        "'1 PS' is read as job.nodes 1, which silences the funnel rule",
    ),
    # --- latency-bound
    (
        "Our nodes are in us-east-1a and us-east-1b and the all-reduce is slow. Does cross-AZ matter?",
        {"cluster.zones": 2},
        {"finding": ("latency-bound", "critical", "nodes-across-zones")},
    ),
    (
        "训练集群的机器分在两个可用区，节点间 ping 2ms，同步很慢。",
        {"cluster.zones": 2, "net.rtt_ms": 2},
        {"finding": ("latency-bound", "critical", "nodes-across-zones")},
    ),
    (
        "We train across two regions (us-west and eu-central) with DDP. It is extremely slow.",
        {"cluster.regions": 2},
        {"finding": ("latency-bound", "critical", "nodes-across-regions")},
    ),
    (
        "ping between our two training nodes is 5 ms, each all-reduce step is slow even though the model is small",
        {"net.rtt_ms": 5, "job.nodes": 2},
        {"finding": ("latency-bound", "warning", "high-rtt-between-nodes")},
    ),
    (
        "I compared ResNet-50 on CIFAR-10 with DDP on 8 GPUs against a single GPU with the same batch size: "
        "the 8-GPU run is about 2x slower. Is this expected for small models?",
        {"job.light_compute": True, "job.nodes": 1},
        {"finding": ("latency-bound", "warning", "light-compute-slower-in-one-machine")},
    ),
    (
        "单机 8 卡跑 CIFAR-10 上的 ResNet-18，DDP 比单卡还慢一倍，这正常吗？",
        {"job.light_compute": True},
        {"finding": ("latency-bound", "warning", "light-compute-slower-in-one-machine")},
    ),
    (
        "MNIST on 2 nodes with 1 GPU each is 5x slower than on one GPU. Is my network bad?",
        {"job.light_compute": True, "job.nodes": 2},
        {"finding": ("latency-bound", "warning", "light-compute-poor-scaling"), "not_categories": ["nic-undersized"]},
    ),
    (
        "两台机器各 1 张卡训练一个很小的 CNN，万兆网络，比单卡慢 3 倍。",
        {"job.nodes": 2, "nic.speed_gbps": 10},
        {"finding": ("latency-bound", "warning", "poor-scaling-small-model-latency"),
         "not_categories": ["nic-undersized"]},
    ),
    # --- pcie-topology
    (
        "8x RTX 4090 in one server, DDP training is slower with 8 GPUs than with 4. P2P is not supported.",
        {"job.nodes": 1, "gpu.model": "RTX 4090"},
        {"finding": ("pcie-topology", "warning", None), "not_categories": ["nic-undersized", "link-degraded"]},
    ),
    (
        "单机 8 张 4090 跑张量并行 tp=8，非常慢，没有 NVLink。",
        {"job.tp_degree": 8, "gpu.nvlink": False},
        {"finding": ("pcie-topology", "warning", "tensor-parallel-without-nvlink")},
    ),
    (
        "Single node, 8x A100 PCIe without NVLink, data-parallel training. "
        "The all-reduce between GPU0 and GPU4 is slow.",
        {"job.nodes": 1, "gpu.nvlink": False},
        {"finding": ("pcie-topology", "info", None), "not_categories": ["nic-undersized", "comm-bound"]},
    ),
    # --- straggler-node
    (
        "32 台机器训练，其中一台的 step time 比其他慢 3 倍，整体被拖慢了。",
        {"job.nodes": 32, "job.straggler_suspected": True},
        {"finding": ("straggler-node", "warning", "straggler-suspected")},
    ),
    _gap(
        "One of our 16 nodes has GPU utilization at 40% while the others are at 95%. The whole job is slow.",
        {"job.nodes": 16, "job.straggler_suspected": True},
        {"finding": ("straggler-node", "warning", "straggler-suspected")},
        "one node's figure against the others' ('one of our 16 nodes … while the others') is not read as a straggler",
    ),
    # --- no-rdma-at-scale
    (
        "We train a 175B model on 64 nodes over 100GbE TCP, no RDMA. Is that OK?",
        {"job.model_params_b": 175, "nic.rdma": False, "job.nodes": 64},
        {"finding": ("no-rdma-at-scale", "critical", "tcp-for-over-100b")},
    ),
    (
        "Planning to train a 200B-parameter model on 32 nodes with 8x H100 each over plain Ethernet (no RoCE). "
        "Good idea?",
        {"job.model_params_b": 200, "nic.rdma": False},
        {"finding": ("no-rdma-at-scale", "critical", "tcp-for-over-100b")},
    ),
    (  # 100B is the tier's edge: the 10–100B rules speak, not the >100B one
        "千亿参数模型，128 台机器，用的普通 25G 以太网，没有 RDMA，能训吗？",
        {"job.model_params_b": 100, "nic.rdma": False, "nic.speed_gbps": 25},
        {"finding": ("nic-undersized", "warning", None), "not_rules": ["tcp-for-over-100b"]},
    ),
    # --- link-degraded
    (
        "NCCL_DEBUG=INFO 打出来是 NET/IB : Using [0]mlx5_0:1/RoCE，但是 busbw 只有 2GB/s 左右，100G 的卡",
        {"nccl.transport": "ib", "nccl.allreduce_busbw_gbytes_per_s": 2.0, "nic.speed_gbps": 100},
        {"finding": ("link-degraded", "warning", "nccl-busbw-far-below-nic-on-rdma"),
         "not_categories": ["nccl-transport-fallback"]},
    ),
    (
        "我们的集群是 100G RoCE，交换机没开 PFC 和 ECN，大规模训练时丢包严重",
        {"nic.kind": "roce", "nic.pfc": False},
        {"finding": ("link-degraded", "warning", "roce-without-pfc")},
    ),
    (
        "Out of 8 nodes, node-5 shows iperf3 of 20 Gbit/s while the others get 95 Gbit/s on 100G NICs.",
        {"net.iperf3_gbps": 20, "nic.speed_gbps": 100},
        {"finding": ("link-degraded", "critical", "iperf3-far-below-rating")},
    ),
    # --- nic-undersized, from the step time or the link
    (
        "My model is 1.5B params, fp32, training on 2 nodes with 8 GPUs each over 10GbE. Each step takes 8 seconds",
        {"job.model_params_b": 1.5, "job.step_time_s": 8, "nic.speed_gbps": 10},
        {"finding": ("nic-undersized", "critical", "sync-most-of-measured-step"),
         "not_rules": ["model-outgrows-link-no-step-time"]},
    ),
    (
        "1.5B 参数的模型，fp32，2 台机器每台 8 卡，万兆网络，每步 12 秒。",
        {"job.model_params_b": 1.5, "job.step_time_s": 12},
        {"finding": ("nic-undersized", "warning", "sync-share-of-measured-step")},
    ),
    (  # 100 Gb/s moves the same gradients in half a second of the step
        "My model is 1.5B params, fp32, on 2 nodes over 100GbE. Each step takes 8 seconds. Is the network the limit?",
        {"job.model_params_b": 1.5, "nic.speed_gbps": 100},
        {"not_rules": ["sync-most-of-measured-step", "sync-share-of-measured-step"],
         "not_categories": ["nic-undersized"]},
    ),
    (
        "我们在 PyTorch DDP 上训练 ResNet50，4 台机器每台 2 张 V100，"
        "节点之间的链路只有 3Gbit 左右，加节点后加速比上不去。",
        {"job.light_compute": True, "nic.speed_gbps": 3, "job.nodes": 4},
        {"finding": ("nic-undersized", "warning", None)},
    ),
    # --- healthy
    (
        "Our 70B model trains on 16 nodes with 400G InfiniBand, GPU utilization 95%, scaling efficiency 92%. "
        "Anything to improve?",
        {"job.scaling_efficiency_pct": 92},
        {"finding": ("healthy", "info", None), "not_categories": ["nic-undersized", "comm-bound", "link-degraded"]},
    ),
    (
        "iperf3 between nodes gives 98 Gbits/sec on our 100G NICs, nccl-tests busbw 11.5 GB/s. All good?",
        {"net.iperf3_gbps": 98, "nccl.allreduce_busbw_gbytes_per_s": 11.5},
        {"finding": ("healthy", "info", "nccl-busbw-near-line-rate"), "not_categories": ["link-degraded"]},
    ),
    (
        "两台机器 100G RoCE，ib_write_bw 测出来 97 Gb/s，nccl-tests busbw 11 GB/s，网络有问题吗？",
        {"net.rdma_bw_gbps": 97, "nccl.allreduce_busbw_gbytes_per_s": 11},
        {"finding": ("healthy", "info", None), "not_categories": ["link-degraded", "nccl-transport-fallback"]},
    ),
    (
        "单机 8 卡每秒 2000 样本，4 机 32 卡每秒 7600 样本，扩展性正常吗？",
        {"job.nodes": 4, "job.speedup": 3.8},
        {"finding": ("healthy", "info", "scaling-efficiency-good"), "not_categories": ["nic-undersized"]},
    ),
    (
        "Single node, 8x H100 SXM, nccl-tests all_reduce_perf busbw 480 GB/s. Is that healthy?",
        {"job.nodes": 1, "nccl.allreduce_busbw_gbytes_per_s": 480},
        {"finding": ("healthy", "info", "single-node-busbw-at-nvlink"), "not_categories": ["pcie-topology"]},
    ),
]


@pytest.fixture(scope="module")
def engine():
    return load_engine(extra_dirs=[])




def _id(case: Any) -> str:
    text = case.values[0] if hasattr(case, "values") else case[0]
    return str(text)[:60]


@pytest.mark.parametrize(("text", "facts", "expect"), CASES, ids=[_id(c) for c in CASES])
def test_category_from_few_facts(engine, text: str, facts: dict[str, Any], expect: dict[str, Any]) -> None:
    assert not turn_problems(answer_turn(text, engine=engine), facts, expect)
