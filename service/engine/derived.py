"""Derived facts: the arithmetic of the article, done properly.

Each formula is a small function from facts to one number, registered with the facts it
needs. `derive` applies them until nothing new appears, so a derived fact may build on
another (link rate → sync time → communication share). The catalogue (`rules/facts.yaml`,
section `derived`) documents each one and names the heuristics it encodes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

BYTES_PER_ELEMENT = {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int8": 1}

# Facts that each cap one NIC's path; the slowest one wins (a ring runs at its weakest link).
NIC_CAPS = ("nic.speed_gbps", "net.iperf3_gbps", "cluster.nic_speed_min_gbps")
# Every fact that caps the node's inter-node rate (the instance cap applies to the node as a whole).
LINK_CAPS = (*NIC_CAPS, "node.instance_bandwidth_gbps")

# ZeRO-3 / FSDP full shard moves 1.5x the data-parallel volume: an all-gather of the parameters in the
# forward pass, another in the backward pass, and a reduce-scatter of the gradients, each (N-1)/N of the
# model, against the reduce-scatter + all-gather (= all-reduce) of plain DP (ZeRO paper, section 7.2.2).
FULL_SHARD_FACTOR = 1.5
# Bounds when the model size is unknown: the sync should fit in a tenth of a step; a typical step is 1 s.
SYNC_BUDGET_SHARE = 0.1
TYPICAL_STEP_S = 1.0
# Mixture-of-experts routing when top-k is not given: top-2 (GShard, Mixtral).
DEFAULT_TOP_K = 2

Facts = Mapping[str, Any]


@dataclass(frozen=True)
class Formula:
    name: str
    needs: tuple[str, ...]
    compute: Callable[[Facts], Any]
    any_of: tuple[str, ...] = ()

    def ready(self, facts: Facts) -> bool:
        if not all(n in facts for n in self.needs):
            return False
        return not self.any_of or any(n in facts for n in self.any_of)


def _grad_gbytes(f: Facts) -> float:
    return f["job.model_params_b"] * BYTES_PER_ELEMENT[f["job.precision"]]


def _activation_bytes(f: Facts) -> int:
    # Activations travel in the compute precision: fp32 jobs in 4 bytes, mixed precision (bf16/fp16,
    # and fp8 recipes, which keep activations between layers in 16 bits) in 2.
    return 4 if f["job.precision"] == "fp32" else 2


def _link_gbps(f: Facts) -> float | None:
    """The node's inter-node rate: the slowest per-NIC cap x the rails, within the instance cap."""
    per_nic = [f[n] for n in NIC_CAPS if n in f and f[n] > 0]
    node = min(per_nic) * f.get("nic.count", 1) if per_nic else None
    cap = f.get("node.instance_bandwidth_gbps")
    if cap and cap > 0:
        node = min(node, cap) if node is not None else cap
    return node


def _ring(n: float) -> float:
    """Bytes each rank sends in a ring all-reduce, per byte of buffer: 2(n-1)/n (nccl-tests busbw factor)."""
    return 2 * (n - 1) / n


def _allreduce_time(f: Facts) -> float:
    # Ring all-reduce between nodes (hierarchical: reduced inside the node over NVLink first, so each node
    # sends and receives 2·(N−1)/N of the buffer over its NICs — H17: just under 2×, not "several times").
    return _ring(f["job.nodes"]) * f["comm.grad_gbytes"] / f["comm.link_gbytes_per_s"]


def _full_shard(f: Facts) -> bool:
    stage = f.get("job.zero_stage")
    if stage is not None:
        return stage == 3
    return f.get("job.parallelism") == "fsdp"  # FSDP's default strategy is FULL_SHARD


def _dp_time(f: Facts) -> float | None:
    """Data-parallel traffic of one sync: the gradients of one pipeline stage over the nodes holding that stage."""
    pp = f.get("job.pp_degree", 1)
    nodes = f["job.nodes"] / pp if pp > 1 else f["job.nodes"]
    if nodes <= 1:
        return 0.0
    factor = FULL_SHARD_FACTOR if _full_shard(f) else 1.0
    return factor * _ring(nodes) * f["comm.grad_gbytes"] / pp / f["comm.link_gbytes_per_s"]


def _dp_per_step(f: Facts) -> float:
    # Accumulating k micro-batches syncs once (DDP no_sync, ZeRO-1/2). ZeRO-3/FSDP full shard gathers the
    # parameters again for every micro-batch and reduce-scatters every micro-batch's gradients: no saving.
    if _full_shard(f):
        return f["comm.dp_time_s"]
    return f["comm.dp_time_s"] / f.get("job.grad_accum_steps", 1)


def _tp_gbytes(f: Facts) -> float:
    # Megatron-LM (Narayanan et al. 2021, §3.2): per layer and micro-batch, two all-reduces of b·s·h in the
    # forward pass and two in the backward, each moving 2(t−1)/t of the buffer per rank: 8·b·s·h·(t−1)/t.
    t = f["job.tp_degree"]
    elements = 4 * f["model.layers"] * f["job.micro_batch_size"] * f["job.seq_len"] * f["model.hidden_size"]
    return elements * _activation_bytes(f) * _ring(t) / 1e9


def _tp_time(f: Facts) -> float | None:
    # Only a tensor-parallel group wider than a node crosses the NICs; inside a node it rides NVLink/PCIe.
    if f["job.tp_degree"] <= f["job.gpus_per_node"]:
        return 0.0
    return f["comm.tp_gbytes"] / f["comm.link_gbytes_per_s"]


def _pp_gbytes(f: Facts) -> float:
    # Point-to-point between stages: per micro-batch the activations b·s·h forward and their gradients
    # backward; with tensor parallelism each rank sends 1/t of it (Megatron's scatter/gather).
    t = f.get("job.tp_degree", 1)
    elements = 2 * f["job.micro_batch_size"] * f["job.seq_len"] * f["model.hidden_size"]
    return elements * _activation_bytes(f) / t / 1e9


def _pp_time(f: Facts) -> float | None:
    if f["job.pp_degree"] <= 1 or f["job.nodes"] <= 1:
        return 0.0
    per_node = f.get("job.gpus_per_node", f.get("job.tp_degree", 1))  # GPUs of a node each send their slice
    return f["comm.pp_gbytes"] * per_node / f["comm.link_gbytes_per_s"]


def _pp_bubble(f: Facts) -> float:
    # GPipe/1F1B bubble as a share of the step: (p−1)/(m+p−1) with m micro-batches per step.
    p, m = f["job.pp_degree"], f["job.grad_accum_steps"]
    return (p - 1) / (m + p - 1)


def _ep_gbytes(f: Facts) -> float:
    # MoE all-to-all: every token's hidden vector goes to its top-k experts and comes back (dispatch and
    # combine), forward and backward: 4 all-to-alls of b·s·h·k per MoE layer, (e−1)/e of it leaving the GPU.
    e = f["job.ep_degree"]
    k = f.get("job.moe_top_k", DEFAULT_TOP_K)
    elements = 4 * f["model.layers"] * f["job.micro_batch_size"] * f["job.seq_len"] * f["model.hidden_size"] * k
    return elements * _activation_bytes(f) * (e - 1) / e / 1e9


def _ep_time(f: Facts) -> float | None:
    e, g = f["job.ep_degree"], f["job.gpus_per_node"]
    if e <= g or e <= 1:
        return 0.0  # the expert group fits in one node
    leaving = (e - g) / (e - 1)  # share of each GPU's all-to-all bytes addressed to other nodes
    return f["comm.ep_gbytes"] * g * leaving / f["comm.link_gbytes_per_s"]


def _predicted_step(f: Facts) -> float | None:
    parts = ("comm.allreduce_amortised_s", "comm.tp_time_s", "comm.pp_time_s", "comm.ep_time_s")
    return sum(f[p] for p in parts if p in f)


def _comm_fraction(f: Facts) -> float:
    per_step = f["comm.predicted_step_s"]
    return per_step / (per_step + f["job.step_time_baseline_s"])


def _max_params(precision: str) -> Callable[[Facts], float | None]:
    """The largest model whose ring all-reduce fits in a tenth of a step (a baseline step, else 1 s)."""

    def compute(f: Facts) -> float | None:
        nodes = f.get("job.nodes")
        if nodes is not None and nodes <= 1:
            return None
        ring = _ring(nodes) if nodes else 2.0  # node count unknown: the large-N bound
        budget = SYNC_BUDGET_SHARE * f.get("job.step_time_baseline_s", TYPICAL_STEP_S)
        return budget * f["comm.link_gbytes_per_s"] / (ring * BYTES_PER_ELEMENT[precision])

    return compute


def _node_line_gbps(f: Facts) -> float:
    return f["nic.speed_gbps"] * f.get("nic.count", 1)


def _busbw_gbps(f: Facts) -> float | None:
    if "nccl.allreduce_busbw_gbytes_per_s" in f:
        return f["nccl.allreduce_busbw_gbytes_per_s"] * 8
    # nccl-tests PERFORMANCE.md: all-reduce busbw = algbw × 2(n−1)/n over its n ranks.
    ranks = f.get("job.total_gpus")
    if not ranks:
        return None
    return f["nccl.allreduce_algbw_gbytes_per_s"] * _ring(ranks) * 8


def _checkpoint_write_time(f: Facts) -> float | None:
    if f["job.checkpoint_target"] != "network":
        return None
    return f["job.checkpoint_size_gbytes"] / f["comm.link_gbytes_per_s"]


def _checkpoint_fraction(f: Facts) -> float:
    step = f.get("job.step_time_s") or f["job.step_time_baseline_s"]
    between = f["job.checkpoint_interval_steps"] * step
    return f["checkpoint.write_time_s"] / (between + f["checkpoint.write_time_s"])


def _scale_factor(f: Facts) -> float | None:
    """How many times larger the job is than its baseline run: GPUs when both counts are known, else nodes."""
    gpus, base_gpus = f.get("job.total_gpus"), f.get("job.baseline_gpus")
    if gpus and base_gpus:
        return gpus / base_gpus
    nodes, base_nodes = f.get("job.nodes"), f.get("job.baseline_nodes")
    if nodes and base_nodes:
        return nodes / base_nodes
    per_node = f.get("job.gpus_per_node")
    if nodes and per_node and base_gpus:
        return nodes * per_node / base_gpus
    if per_node and base_gpus and _single_node(f):  # no node count: one machine (see job.single_node)
        return per_node / base_gpus
    return None


def _scaling_efficiency(f: Facts) -> float | None:
    # Speed-up per unit of added hardware: 100 % is linear; below 100 / scale the larger run is slower.
    scale = _scale_factor(f)
    return 100 * f["job.speedup"] / scale if scale else None


# GPU models built without an NVLink connector: their peers always talk over PCIe (or through host memory when
# the driver disables P2P, as on GeForce RTX 40xx). Models that take an NVLink bridge (RTX 3090, A40, A5000/A6000,
# Quadro RTX 8000, A100/H100 PCIe) are not listed: for them only gpu.nvlink says.
PCIE_ONLY_GPU = re.compile(
    r"(?:^|[^0-9a-z])(?:rtx\s*)?(?:40[5-9]0|50[6-9]0|30[5-8]0|2060|1[06][5-8]0|titan\s*xp?|t4|l4|l40s?|a10g?|a16|a2|"
    r"p4|p40|k80|rtx\s*(?:a?[24]000|[456]000\s*ada))(?:\s*ti|\s*super)?(?:$|[^0-9a-z])",
    re.IGNORECASE,
)


def _p2p_over_pcie(f: Facts) -> bool | None:
    """The GPUs of a node talk over PCIe: NVLink said absent, or a GPU model that has no NVLink at all."""
    if "gpu.nvlink" in f:
        return not f["gpu.nvlink"]
    model = f.get("gpu.model")
    return True if isinstance(model, str) and PCIE_ONLY_GPU.search(model) else None


def _single_node(f: Facts) -> bool | None:
    """The job (and the run it is compared with) fit in one machine: said so, or only GPU counts that fit one
    node are compared and no second machine is mentioned. A baseline of fewer nodes means several."""
    nodes = f.get("job.nodes")
    if nodes is not None:
        return nodes == 1
    if "job.baseline_nodes" in f or f.get("job.multi_node") is True:
        return False  # a smaller run of fewer nodes, or several machines said without their count
    per_node, base_gpus = f.get("job.gpus_per_node"), f.get("job.baseline_gpus")
    if per_node and base_gpus and base_gpus < per_node:
        return True
    total = f.get("job.total_gpus")
    if not per_node and base_gpus and base_gpus >= 8 and total and total > base_gpus:
        return False  # 'from 8 to 16 GPUs': a full 8-GPU machine's worth grown past it is more than one machine
    return None


def _slower_than_baseline(f: Facts) -> bool | None:
    """Throughput went down as hardware was added: said in words, or a speed-up under 1."""
    if f.get("job.negative_scaling") is True:
        return True
    speedup = f.get("job.speedup")
    return None if speedup is None else speedup < 1.0


def _ratio(num: str, den: str, scale: float = 1.0) -> Callable[[Facts], float | None]:
    def compute(f: Facts) -> float | None:
        return scale * f[num] / f[den] if f[den] else None

    return compute


FORMULAS: tuple[Formula, ...] = (
    Formula("job.total_gpus", ("job.nodes", "job.gpus_per_node"), lambda f: f["job.nodes"] * f["job.gpus_per_node"]),
    Formula("comm.grad_gbytes", ("job.model_params_b", "job.precision"), _grad_gbytes),
    Formula("comm.link_gbps", (), _link_gbps, any_of=LINK_CAPS),
    Formula("comm.link_gbytes_per_s", ("comm.link_gbps",), lambda f: f["comm.link_gbps"] / 8),
    Formula(
        "comm.sync_time_naive_s",
        ("comm.grad_gbytes", "comm.link_gbytes_per_s"),
        _ratio("comm.grad_gbytes", "comm.link_gbytes_per_s"),
    ),
    Formula("comm.allreduce_time_s", ("comm.grad_gbytes", "comm.link_gbytes_per_s", "job.nodes"), _allreduce_time),
    Formula("comm.dp_time_s", ("comm.grad_gbytes", "comm.link_gbytes_per_s", "job.nodes"), _dp_time),
    Formula("comm.allreduce_amortised_s", ("comm.dp_time_s",), _dp_per_step),
    Formula(
        "comm.tp_gbytes",
        ("job.tp_degree", "model.layers", "job.micro_batch_size", "job.seq_len", "model.hidden_size", "job.precision"),
        _tp_gbytes,
    ),
    Formula("comm.tp_time_s", ("comm.tp_gbytes", "job.gpus_per_node", "comm.link_gbytes_per_s"), _tp_time),
    Formula(
        "comm.pp_gbytes",
        ("job.pp_degree", "job.micro_batch_size", "job.seq_len", "model.hidden_size", "job.precision"),
        _pp_gbytes,
    ),
    Formula("comm.pp_time_s", ("comm.pp_gbytes", "job.nodes", "comm.link_gbytes_per_s"), _pp_time),
    Formula("comm.pp_bubble_fraction", ("job.pp_degree", "job.grad_accum_steps"), _pp_bubble),
    Formula(
        "comm.ep_gbytes",
        ("job.ep_degree", "model.layers", "job.micro_batch_size", "job.seq_len", "model.hidden_size", "job.precision"),
        _ep_gbytes,
    ),
    Formula("comm.ep_time_s", ("comm.ep_gbytes", "job.gpus_per_node", "comm.link_gbytes_per_s"), _ep_time),
    Formula(
        "comm.predicted_step_s",
        (),
        _predicted_step,
        any_of=("comm.allreduce_amortised_s", "comm.tp_time_s", "comm.pp_time_s", "comm.ep_time_s"),
    ),
    Formula("comm.fraction", ("comm.predicted_step_s", "job.step_time_baseline_s"), _comm_fraction),
    Formula(
        "comm.step_overhead_s",
        ("job.step_time_s", "job.step_time_baseline_s"),
        lambda f: f["job.step_time_s"] - f["job.step_time_baseline_s"],
    ),
    Formula(
        "comm.unexplained_s",
        ("comm.step_overhead_s", "comm.predicted_step_s"),
        lambda f: f["comm.step_overhead_s"] - f["comm.predicted_step_s"],
    ),
    Formula(
        "comm.explained_pct",
        ("comm.step_overhead_s", "comm.predicted_step_s"),
        lambda f: (
            100 * f["comm.predicted_step_s"] / f["comm.step_overhead_s"] if f["comm.step_overhead_s"] > 0 else None
        ),
    ),
    Formula("comm.max_params_b_fp32", ("comm.link_gbytes_per_s",), _max_params("fp32")),
    Formula("comm.max_params_b_bf16", ("comm.link_gbytes_per_s",), _max_params("bf16")),
    Formula(
        "net.efficiency_pct", ("net.iperf3_gbps", "nic.speed_gbps"), _ratio("net.iperf3_gbps", "nic.speed_gbps", 100)
    ),
    Formula(
        "net.rdma_efficiency_pct",
        ("net.rdma_bw_gbps", "nic.speed_gbps"),
        _ratio("net.rdma_bw_gbps", "nic.speed_gbps", 100),
    ),
    Formula("nic.line_rate_gbps", ("nic.speed_gbps",), _node_line_gbps),
    Formula(
        "nccl.busbw_gbps",
        (),
        _busbw_gbps,
        any_of=("nccl.allreduce_busbw_gbytes_per_s", "nccl.allreduce_algbw_gbytes_per_s"),
    ),
    Formula(
        "nccl.efficiency_pct",
        ("nccl.busbw_gbps", "nic.line_rate_gbps"),
        _ratio("nccl.busbw_gbps", "nic.line_rate_gbps", 100),
    ),
    # the baseline's machines when the baseline run itself spans several (16 nodes against 8, not against one)
    Formula("job.baseline_multi_nodes", ("job.baseline_nodes",),
            lambda f: f["job.baseline_nodes"] if f["job.baseline_nodes"] > 1 else None),
    Formula(
        "job.step_slowdown",
        ("job.step_time_s", "job.step_time_baseline_s"),
        _ratio("job.step_time_s", "job.step_time_baseline_s"),
    ),
    Formula(
        "job.scaling_efficiency_pct",
        ("job.speedup",),
        _scaling_efficiency,
        any_of=("job.baseline_gpus", "job.baseline_nodes"),
    ),
    Formula("gpu.p2p_over_pcie", (), _p2p_over_pcie, any_of=("gpu.nvlink", "gpu.model")),
    Formula("job.single_node", (), _single_node,
            any_of=("job.nodes", "job.baseline_nodes", "job.baseline_gpus", "job.multi_node")),
    Formula("job.slower_than_baseline", (), _slower_than_baseline, any_of=("job.negative_scaling", "job.speedup")),
    Formula(
        "checkpoint.write_time_s",
        ("job.checkpoint_size_gbytes", "job.checkpoint_target", "comm.link_gbytes_per_s"),
        _checkpoint_write_time,
    ),
    Formula(
        "checkpoint.time_fraction",
        ("checkpoint.write_time_s", "job.checkpoint_interval_steps"),
        _checkpoint_fraction,
        any_of=("job.step_time_s", "job.step_time_baseline_s"),
    ),
    Formula(
        "nic.utilisation_pct",
        ("nic.speed_gbps",),
        lambda f: 100 * max(f.get("nic.rx_gbps", 0), f.get("nic.tx_gbps", 0)) / f["nic.speed_gbps"],
        any_of=("nic.rx_gbps", "nic.tx_gbps"),
    ),
)

DERIVED_NAMES = frozenset(f.name for f in FORMULAS)
_BY_NAME = {f.name: f for f in FORMULAS}


# Derived facts a formula reads with .get() besides its declared inputs (needed when deriving only some).
_SOFT_INPUTS = {
    "job.scaling_efficiency_pct": ("job.total_gpus",),
    "nccl.busbw_gbps": ("job.total_gpus",),
}


@cache
def _formulas_for(names: frozenset[str]) -> tuple[Formula, ...]:
    """The formulas `names` rest on, in evaluation order (a what-if needs a few figures, not all of them)."""
    wanted: set[str] = set()
    stack = [n for n in names if n in _BY_NAME]
    while stack:
        name = stack.pop()
        if name in wanted:
            continue
        wanted.add(name)
        formula = _BY_NAME[name]
        stack.extend(n for n in (*formula.needs, *formula.any_of, *_SOFT_INPUTS.get(name, ())) if n in _BY_NAME)
    return tuple(f for f in FORMULAS if f.name in wanted)


def derive(facts: Facts, only: frozenset[str] | None = None) -> dict[str, Any]:
    """Every derived fact computable from `facts` (or only those `only` rests on), rounded for stable output."""
    known: dict[str, Any] = dict(facts)
    derived: dict[str, float] = {}
    for formula in FORMULAS if only is None else _formulas_for(only):  # each formula's inputs come before it
        if formula.name in known or not formula.ready(known):
            continue
        try:
            value = formula.compute(known)
        except (ZeroDivisionError, KeyError, TypeError):
            value = None
        if value is None:
            continue
        if not isinstance(value, bool | str):  # a few derived facts are yes/no or a word, the rest numbers
            value = round(float(value), 6)
        known[formula.name] = value
        derived[formula.name] = value
    return derived


@cache
def inputs_of(name: str) -> tuple[str, ...]:
    """The base facts a derived fact ultimately rests on (for asking about the missing ones)."""
    formula = _BY_NAME.get(name)
    if formula is None:
        return (name,)
    out: list[str] = []
    for need in formula.needs + formula.any_of[:1]:
        for base in inputs_of(need):
            if base not in out:
                out.append(base)
    return tuple(out)
