"""The article's figures are the acceptance test for the arithmetic (spec/facts.md, H17, H23)."""

from __future__ import annotations

import pytest

from bwdoctor.engine.derived import derive


@pytest.mark.parametrize(
    ("nic_gbps", "naive_s", "ring_s"),
    [(10, 160, 280), (100, 16, 28), (400, 4, 7)],
)
def test_100b_fp16_sync_times_match_the_article(nic_gbps, naive_s, ring_s):
    d = derive({"job.model_params_b": 100, "job.precision": "fp16", "job.nodes": 8, "nic.speed_gbps": nic_gbps})
    assert d["comm.grad_gbytes"] == 200
    assert d["comm.sync_time_naive_s"] == pytest.approx(naive_s)
    # Ring all-reduce moves 2·(N−1)/N of the buffer: 1.75× on 8 nodes, not "several times" (H17).
    assert d["comm.allreduce_time_s"] == pytest.approx(ring_s)


@pytest.mark.parametrize(("precision", "gbytes"), [("fp32", 400), ("bf16", 200), ("fp8", 100), ("int8", 100)])
def test_gradient_bytes_follow_precision(precision, gbytes):
    assert derive({"job.model_params_b": 100, "job.precision": precision})["comm.grad_gbytes"] == gbytes


def test_effective_link_is_the_slowest_cap():
    d = derive({"nic.speed_gbps": 25, "node.instance_bandwidth_gbps": 5, "net.iperf3_gbps": 20})
    assert d["comm.link_gbps"] == 5
    assert d["comm.link_gbytes_per_s"] == 0.625


def test_single_node_has_no_inter_node_allreduce():
    d = derive({"job.model_params_b": 7, "job.precision": "bf16", "job.nodes": 1, "nic.speed_gbps": 10})
    assert d["comm.allreduce_time_s"] == 0


def test_comm_fraction_is_amortised_over_accumulation():
    base = {
        "job.model_params_b": 10,
        "job.precision": "bf16",
        "job.nodes": 2,
        "nic.speed_gbps": 80,
        "job.step_time_baseline_s": 2.0,
    }
    # 20 GB, 10 GB/s, ring on 2 nodes → 2 s of all-reduce against 2 s of compute.
    assert derive(base)["comm.fraction"] == pytest.approx(0.5)
    assert derive({**base, "job.grad_accum_steps": 4})["comm.fraction"] == pytest.approx(0.5 / 2.5)


def test_efficiency_slowdown_and_checkpoint_share():
    d = derive(
        {
            "nic.speed_gbps": 100,
            "net.iperf3_gbps": 23,
            "job.step_time_s": 5,
            "job.step_time_baseline_s": 2,
            "job.checkpoint_size_gbytes": 400,
            "job.checkpoint_target": "network",
            "job.checkpoint_interval_steps": 100,
        }
    )
    assert d["net.efficiency_pct"] == pytest.approx(23)
    assert d["job.step_slowdown"] == pytest.approx(2.5)
    # 400 GB at 23 Gb/s (2.875 GB/s) → 139 s per write, every 100 × 5 s.
    assert d["checkpoint.write_time_s"] == pytest.approx(400 / 2.875, rel=1e-4)
    assert d["checkpoint.time_fraction"] == pytest.approx(139.13 / (500 + 139.13), rel=1e-3)


def test_local_checkpoints_cost_no_link_time():
    d = derive({"nic.speed_gbps": 10, "job.checkpoint_size_gbytes": 400, "job.checkpoint_target": "local"})
    assert "checkpoint.write_time_s" not in d
