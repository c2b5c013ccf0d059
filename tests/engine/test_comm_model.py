"""The communication model of each parallelism (rules/facts.yaml, `derived`), checked against public worked examples.

Sources, each cited where it is used:
- nccl-tests doc/PERFORMANCE.md (NVIDIA/nccl-tests @ a0b82b2): bus-bandwidth factors — all-reduce
  algbw × 2(n−1)/n, reduce-scatter and all-gather algbw × (n−1)/n.
- ZeRO (Rajbhandari et al. 2020, arXiv:1910.02054, §7.2): DP all-reduce moves 2Ψ per rank; ZeRO-1/2 the
  same 2Ψ (reduce-scatter + all-gather); ZeRO-3 (P_os+g+p) 3Ψ — "a modest 1.5x" of the baseline.
- Megatron-LM (Narayanan et al. 2021, arXiv:2104.04473, §3.2): tensor parallelism all-reduces b·s·h twice
  forward and twice backward per layer — "8bsh((t−1)/t) per layer per device for each microbatch";
  pipeline parallelism sends b·s·h between consecutive stages per micro-batch (÷ t with scatter/gather);
  the pipeline bubble is (p−1)/m of the ideal time, i.e. (p−1)/(m+p−1) of the step.
"""

from __future__ import annotations

import pytest

from bwdoctor.engine.derived import derive

DP_BASE = {"job.model_params_b": 10, "job.precision": "bf16", "job.nodes": 8, "nic.speed_gbps": 100}


def test_ring_allreduce_follows_the_nccl_tests_busbw_factor():
    # PERFORMANCE.md: t = (S/B)·(2(n−1)/n). 20 GB over 8 nodes at 12.5 GB/s: 1.6 s × 1.75 = 2.8 s.
    d = derive(DP_BASE)
    assert d["comm.allreduce_time_s"] == pytest.approx(20 / 12.5 * 2 * 7 / 8)
    assert d["comm.dp_time_s"] == d["comm.allreduce_time_s"]


def test_busbw_from_algbw_uses_the_allreduce_factor():
    # PERFORMANCE.md: busbw = algbw × 2(n−1)/n; 16 ranks, algbw 12 GB/s → busbw 22.5 GB/s = 180 Gb/s.
    d = derive({"nccl.allreduce_algbw_gbytes_per_s": 12, "job.nodes": 2, "job.gpus_per_node": 8})
    assert d["nccl.busbw_gbps"] == pytest.approx(12 * 2 * 15 / 16 * 8)


@pytest.mark.parametrize("stage", [1, 2])
def test_zero_1_and_2_move_what_data_parallel_moves(stage):
    # ZeRO §7.2.1: P_os and P_os+g keep the 2Ψ of a reduce-scatter + all-gather, the same as all-reduce.
    assert derive({**DP_BASE, "job.zero_stage": stage})["comm.dp_time_s"] == derive(DP_BASE)["comm.dp_time_s"]


def test_zero_3_moves_one_and_a_half_times_data_parallel():
    # ZeRO §7.2.2: 3Ψ against 2Ψ. From nccl-tests' factors: 2 all-gathers + 1 reduce-scatter, each (n−1)/n,
    # against the all-reduce's 2(n−1)/n → 3/2.
    n = 8
    three_collectives = 3 * (n - 1) / n
    allreduce = 2 * (n - 1) / n
    dp = derive(DP_BASE)["comm.dp_time_s"]
    z3 = derive({**DP_BASE, "job.zero_stage": 3})["comm.dp_time_s"]
    assert z3 / dp == pytest.approx(three_collectives / allreduce) == pytest.approx(1.5)
    # FSDP's default FULL_SHARD is ZeRO-3 when no stage is given; a stated stage wins over the label.
    assert derive({**DP_BASE, "job.parallelism": "fsdp"})["comm.dp_time_s"] == pytest.approx(z3)
    assert derive({**DP_BASE, "job.parallelism": "fsdp", "job.zero_stage": 2})["comm.dp_time_s"] == pytest.approx(dp)


def test_gradient_accumulation_does_not_divide_full_shard_traffic():
    # ZeRO-3 gathers the parameters again for every micro-batch: accumulation saves nothing per step.
    z3 = derive({**DP_BASE, "job.zero_stage": 3, "job.grad_accum_steps": 8})
    assert z3["comm.allreduce_amortised_s"] == pytest.approx(z3["comm.dp_time_s"])
    z2 = derive({**DP_BASE, "job.zero_stage": 2, "job.grad_accum_steps": 8})
    assert z2["comm.allreduce_amortised_s"] == pytest.approx(z2["comm.dp_time_s"] / 8)


def test_tensor_parallel_volume_is_megatrons_8bsh():
    # Megatron-LM §3.2: 8·b·s·h·(t−1)/t elements per layer, device and micro-batch. GPT-3 175B shape:
    # h = 12288, s = 2048, 96 layers, b = 1, t = 8, fp16 activations (2 bytes).
    b, s, h, layers, t = 1, 2048, 12288, 96, 8
    facts = {
        "job.tp_degree": t,
        "model.layers": layers,
        "job.micro_batch_size": b,
        "job.seq_len": s,
        "model.hidden_size": h,
        "job.precision": "fp16",
    }
    expected_gb = 8 * b * s * h * (t - 1) / t * layers * 2 / 1e9
    assert derive(facts)["comm.tp_gbytes"] == pytest.approx(expected_gb)  # ≈ 33.8 GB per micro-batch
    assert expected_gb == pytest.approx(33.8, rel=0.01)


def test_tensor_parallel_costs_link_time_only_across_nodes():
    shape = {"model.layers": 32, "job.micro_batch_size": 1, "job.seq_len": 4096, "model.hidden_size": 4096}
    inside = derive(
        {**shape, "job.tp_degree": 8, "job.gpus_per_node": 8, "job.precision": "bf16", "nic.speed_gbps": 100}
    )
    assert inside["comm.tp_time_s"] == 0
    across = derive(
        {**shape, "job.tp_degree": 16, "job.gpus_per_node": 8, "job.precision": "bf16", "nic.speed_gbps": 100}
    )
    assert across["comm.tp_time_s"] == pytest.approx(across["comm.tp_gbytes"] / 12.5)


def test_pipeline_sends_bsh_per_stage_and_the_bubble():
    # Megatron-LM §2.2/§3.2: b·s·h forward and backward per micro-batch, ÷ t with scatter/gather; bubble (p−1)/m
    # of the ideal time → (p−1)/(m+p−1) of the step. p = 4, m = 8: 3/11.
    d = derive(
        {
            "job.pp_degree": 4,
            "job.tp_degree": 8,
            "job.micro_batch_size": 1,
            "job.seq_len": 2048,
            "model.hidden_size": 12288,
            "job.precision": "bf16",
            "job.grad_accum_steps": 8,
            "job.nodes": 4,
            "job.gpus_per_node": 8,
            "nic.speed_gbps": 200,
        }
    )
    assert d["comm.pp_gbytes"] == pytest.approx(2 * 2048 * 12288 * 2 / 8 / 1e9, rel=1e-4)  # derive rounds to 1e-6
    assert d["comm.pp_bubble_fraction"] == pytest.approx(3 / 11)
    assert d["comm.pp_time_s"] == pytest.approx(d["comm.pp_gbytes"] * 8 / 25, abs=1e-6)


def test_pipeline_stages_divide_the_data_parallel_sync():
    # Each node holds one stage: 1/pp of the gradients, all-reduced over the nodes holding the same stage.
    d = derive({**DP_BASE, "job.pp_degree": 2})
    assert d["comm.dp_time_s"] == pytest.approx(2 * 3 / 4 * 10 / 12.5)


def test_moe_all_to_all_counts_top_k_and_what_leaves_the_node():
    shape = {"model.layers": 32, "job.micro_batch_size": 1, "job.seq_len": 4096, "model.hidden_size": 4096}
    facts = {**shape, "job.ep_degree": 16, "job.gpus_per_node": 8, "job.precision": "bf16", "nic.speed_gbps": 400}
    d = derive({**facts, "job.moe_top_k": 2})
    per_gpu = 4 * 32 * 1 * 4096 * 4096 * 2 * 2 * 15 / 16 / 1e9
    assert d["comm.ep_gbytes"] == pytest.approx(per_gpu)
    assert d["comm.ep_time_s"] == pytest.approx(per_gpu * 8 * (8 / 15) / 50)
    assert derive({**facts, "job.ep_degree": 8})["comm.ep_time_s"] == 0  # the experts fit in one node


def test_multi_rail_multiplies_the_node_rate():
    one = derive({**DP_BASE})
    four = derive({**DP_BASE, "nic.count": 4})
    assert four["comm.link_gbps"] == 400
    assert four["comm.allreduce_time_s"] == pytest.approx(one["comm.allreduce_time_s"] / 4)
    # ... but never beyond the instance's cap.
    assert derive({**DP_BASE, "nic.count": 4, "node.instance_bandwidth_gbps": 200})["comm.link_gbps"] == 200


def test_busbw_is_compared_with_every_rail_of_the_node():
    # 23 GB/s busbw with two 100 Gb/s NICs per node: 184 of 200 Gb/s, 92 % of line rate.
    d = derive({"nccl.allreduce_busbw_gbytes_per_s": 23, "nic.speed_gbps": 100, "nic.count": 2})
    assert d["nic.line_rate_gbps"] == 200
    assert d["nccl.efficiency_pct"] == pytest.approx(92)


def test_predicted_step_adds_the_parallelisms_and_the_gap_is_measured_minus_predicted():
    facts = {
        **DP_BASE,
        "job.gpus_per_node": 8,
        "job.tp_degree": 16,
        "model.layers": 32,
        "job.micro_batch_size": 1,
        "job.seq_len": 4096,
        "model.hidden_size": 4096,
        "job.step_time_baseline_s": 2.0,
        "job.step_time_s": 9.0,
    }
    d = derive(facts)
    assert d["comm.predicted_step_s"] == pytest.approx(d["comm.allreduce_amortised_s"] + d["comm.tp_time_s"])
    assert d["comm.step_overhead_s"] == pytest.approx(7.0)
    assert d["comm.unexplained_s"] == pytest.approx(7.0 - d["comm.predicted_step_s"])
    assert d["comm.fraction"] == pytest.approx(d["comm.predicted_step_s"] / (d["comm.predicted_step_s"] + 2.0))


def test_bounds_without_a_model_size():
    # 25 Gb/s between 6 nodes, a typical 1 s step: a tenth of it moves 0.3125 GB through a ring of
    # 2·5/6 → 0.1875 GB of gradients → 94 M parameters in bf16, 47 M in fp32.
    d = derive({"job.nodes": 6, "nic.speed_gbps": 25})
    assert d["comm.max_params_b_bf16"] == pytest.approx(0.1 * 3.125 / (2 * 5 / 6) / 2)
    assert d["comm.max_params_b_fp32"] == pytest.approx(d["comm.max_params_b_bf16"] / 2)
    # A measured compute step sets the budget instead of the typical second.
    assert derive({"job.nodes": 6, "nic.speed_gbps": 25, "job.step_time_baseline_s": 0.2})[
        "comm.max_params_b_bf16"
    ] == pytest.approx(d["comm.max_params_b_bf16"] * 0.2)
    assert "comm.max_params_b_bf16" not in derive({"job.nodes": 1, "nic.speed_gbps": 25})


def test_scaling_efficiency_counts_gpus_else_nodes():
    assert derive({"job.speedup": 1.6, "job.nodes": 2, "job.baseline_nodes": 1})["job.scaling_efficiency_pct"] == 80
    d = derive({"job.speedup": 0.8, "job.nodes": 6, "job.gpus_per_node": 8, "job.baseline_gpus": 8})
    assert d["job.scaling_efficiency_pct"] == pytest.approx(100 * 0.8 / 6)
