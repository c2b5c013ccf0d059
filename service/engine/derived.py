"""Derived facts: the arithmetic of the article, done properly.

Each formula is a small function from facts to one number, registered with the facts it
needs. `derive` applies them until nothing new appears, so a derived fact may build on
another (link rate → sync time → communication share). The catalogue (`rules/facts.yaml`,
section `derived`) documents each one and names the heuristics it encodes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

BYTES_PER_ELEMENT = {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int8": 1}

# Facts that each cap the inter-node link; the slowest one wins (a ring runs at its weakest link).
LINK_CAPS = ("nic.speed_gbps", "net.iperf3_gbps", "node.instance_bandwidth_gbps", "cluster.nic_speed_min_gbps")

Facts = Mapping[str, Any]


@dataclass(frozen=True)
class Formula:
    name: str
    needs: tuple[str, ...]
    compute: Callable[[Facts], float | None]
    any_of: tuple[str, ...] = ()

    def ready(self, facts: Facts) -> bool:
        if not all(n in facts for n in self.needs):
            return False
        return not self.any_of or any(n in facts for n in self.any_of)


def _grad_gbytes(f: Facts) -> float:
    return f["job.model_params_b"] * BYTES_PER_ELEMENT[f["job.precision"]]


def _link_gbps(f: Facts) -> float | None:
    caps = [f[n] for n in LINK_CAPS if n in f and f[n] > 0]
    return min(caps) if caps else None


def _allreduce_time(f: Facts) -> float:
    # Ring all-reduce: each rank sends and receives 2·(N−1)/N of the buffer (H17), not "several times".
    n = f["job.nodes"]
    return 2 * (n - 1) / n * f["comm.grad_gbytes"] / f["comm.link_gbytes_per_s"]


def _comm_fraction(f: Facts) -> float:
    per_step = f["comm.allreduce_time_s"] / f.get("job.grad_accum_steps", 1)
    return per_step / (per_step + f["job.step_time_baseline_s"])


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
    return None


def _scaling_efficiency(f: Facts) -> float | None:
    # Speed-up per unit of added hardware: 100 % is linear; below 100 / scale the larger run is slower.
    scale = _scale_factor(f)
    return 100 * f["job.speedup"] / scale if scale else None


def _ratio(num: str, den: str, scale: float = 1.0) -> Callable[[Facts], float | None]:
    def compute(f: Facts) -> float | None:
        return scale * f[num] / f[den] if f[den] else None

    return compute


FORMULAS: tuple[Formula, ...] = (
    Formula("comm.grad_gbytes", ("job.model_params_b", "job.precision"), _grad_gbytes),
    Formula("comm.link_gbps", (), _link_gbps, any_of=LINK_CAPS),
    Formula("comm.link_gbytes_per_s", ("comm.link_gbps",), lambda f: f["comm.link_gbps"] / 8),
    Formula(
        "comm.sync_time_naive_s",
        ("comm.grad_gbytes", "comm.link_gbytes_per_s"),
        _ratio("comm.grad_gbytes", "comm.link_gbytes_per_s"),
    ),
    Formula("comm.allreduce_time_s", ("comm.grad_gbytes", "comm.link_gbytes_per_s", "job.nodes"), _allreduce_time),
    Formula(
        "comm.allreduce_amortised_s",
        ("comm.allreduce_time_s",),
        lambda f: f["comm.allreduce_time_s"] / f.get("job.grad_accum_steps", 1),
    ),
    Formula("comm.fraction", ("comm.allreduce_time_s", "job.step_time_baseline_s"), _comm_fraction),
    Formula(
        "net.efficiency_pct", ("net.iperf3_gbps", "nic.speed_gbps"), _ratio("net.iperf3_gbps", "nic.speed_gbps", 100)
    ),
    Formula(
        "nccl.busbw_gbps", ("nccl.allreduce_busbw_gbytes_per_s",), lambda f: f["nccl.allreduce_busbw_gbytes_per_s"] * 8
    ),
    Formula(
        "nccl.efficiency_pct", ("nccl.busbw_gbps", "nic.speed_gbps"), _ratio("nccl.busbw_gbps", "nic.speed_gbps", 100)
    ),
    Formula(
        "job.step_slowdown",
        ("job.step_time_s", "job.step_time_baseline_s"),
        _ratio("job.step_time_s", "job.step_time_baseline_s"),
    ),
    Formula("job.total_gpus", ("job.nodes", "job.gpus_per_node"), lambda f: f["job.nodes"] * f["job.gpus_per_node"]),
    Formula(
        "job.scaling_efficiency_pct",
        ("job.speedup",),
        _scaling_efficiency,
        any_of=("job.baseline_gpus", "job.baseline_nodes"),
    ),
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


def derive(facts: Facts) -> dict[str, float]:
    """Every derived fact computable from `facts`, rounded for stable output."""
    known: dict[str, Any] = dict(facts)
    derived: dict[str, float] = {}
    for formula in FORMULAS:  # ordered so that each formula's inputs come before it
        if formula.name in known or not formula.ready(known):
            continue
        try:
            value = formula.compute(known)
        except (ZeroDivisionError, KeyError, TypeError):
            value = None
        if value is None:
            continue
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
