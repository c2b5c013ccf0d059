"""How long one diagnosis takes with the whole rule base, over thousands of varied fact sets.

Target (issue: the expert-system core): median under 1 ms on one core of the 2-core CI machine.
Run: .venv/bin/python benchmarks/diagnose_bench.py [--sets 5000] [--seed 7]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from bwdoctor.engine import load_engine

CHOICES = {
    "job.model_params_b": [0.35, 1.3, 7, 13, 34, 70, 100, 175, 405],
    "job.precision": ["fp32", "bf16", "fp16", "fp8"],
    "job.parallelism": ["data", "fsdp", "tensor", "pipeline", "hybrid"],
    "job.nodes": [1, 2, 4, 8, 16, 64],
    "job.gpus_per_node": [1, 4, 8],
    "nic.speed_gbps": [1, 10, 25, 100, 200, 400],
    "nic.rdma": [True, False],
    "nic.kind": ["ethernet", "roce", "infiniband"],
    "gpu.util_pct": [20, 45, 65, 85, 97],
    "cpu.util_pct": [10, 40, 90],
    "mem.used_pct": [30, 70, 97],
    "net.iperf3_gbps": [0.5, 9, 23, 90],
    "net.rtt_ms": [0.05, 0.3, 2.5],
    "job.step_time_s": [0.8, 2, 9.5],
    "job.step_time_baseline_s": [0.7, 1.5, 3],
    "job.step_time_cv": [0.02, 0.1, 0.35],
    "job.data_source": ["local", "nas", "object_store"],
    "job.checkpoint_interval_steps": [50, 100, 1000],
    "job.checkpoint_size_gbytes": [10, 300],
    "job.checkpoint_target": ["local", "network"],
    "nccl.transport": ["ib", "socket"],
    "cluster.zones": [1, 2],
    "job.async": [True, False],
    "job.comm_pattern": ["allreduce", "parameter_server"],
    # Issue 13: symptoms, parallelism shapes, several NICs and the cluster knowledge.
    "job.speedup": [0.3, 0.9, 1.6, 3.6],
    "job.baseline_nodes": [1, 2],
    "job.negative_scaling": [True, False],
    "job.zero_stage": [0, 2, 3],
    "job.tp_degree": [1, 8, 16],
    "job.pp_degree": [1, 4],
    "job.ep_degree": [8, 64],
    "job.moe": [True, False],
    "model.hidden_size": [4096, 12288],
    "model.layers": [32, 96],
    "job.seq_len": [2048, 8192],
    "job.micro_batch_size": [1, 4],
    "job.grad_accum_steps": [1, 8],
    "nic.count": [1, 2, 8],
    "nic.bonded": [True, False],
    "nic.gid_index": [0, 3],
    "nic.pfc": [True, False],
    "nic.mtu": [1500, 9000],
    "net.rdma_bw_gbps": [110, 190],
    "nccl.allreduce_busbw_gbytes_per_s": [3, 23, 48],
    "nccl.ib_hca": ["mlx5_0", "mlx5"],
    "nccl.p2p_disabled": [True, False],
    "pcie.acs_enabled": [True, False],
    "container.shm_gbytes": [0.064, 16],
    "container.ipc_host": [True, False],
}


def fact_sets(count: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    keys = list(CHOICES)
    sets = []
    for _ in range(count):
        chosen = rng.sample(keys, rng.randint(3, len(keys)))
        sets.append({k: rng.choice(CHOICES[k]) for k in chosen})
    return sets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, as the target says

    engine = load_engine([])
    sets = [engine.validate_facts(s) for s in fact_sets(args.sets, args.seed)]
    for facts in sets[:200]:  # warm-up
        engine.diagnose(facts)
    times = []
    findings = 0
    for facts in sets:
        start = time.perf_counter()
        result = engine.diagnose(facts)
        times.append(time.perf_counter() - start)
        findings += len(result.findings)
    times.sort()
    median_ms = statistics.median(times) * 1000
    p90_ms = times[int(len(times) * 0.9)] * 1000
    p99_ms = times[int(len(times) * 0.99)] * 1000
    print(f"rules: {len(engine.rules)}  recommendations: {len(engine.recommendations)}  fact sets: {len(sets)}")
    print(f"findings per set (mean): {findings / len(sets):.2f}")
    print(f"diagnose median: {median_ms:.3f} ms   p90: {p90_ms:.3f} ms   p99: {p99_ms:.3f} ms")
    print(f"target 1 ms median: {'met' if median_ms < 1 else 'NOT met'} ({median_ms / 1:.2f}× of target)")


if __name__ == "__main__":
    main()
