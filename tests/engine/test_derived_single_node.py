"""job.single_node: several machines said without their count make the job multi-node."""

from __future__ import annotations

from bwdoctor.engine import load_engine


def test_several_machines_unsaid_count_is_not_one_machine() -> None:
    derived = load_engine().diagnose({"job.multi_node": True, "gpu.util_pct": 30.0}).to_dict()["derived"]
    assert derived["job.single_node"] is False


def test_a_count_of_one_said_outright_wins() -> None:
    derived = load_engine().diagnose({"job.multi_node": True, "job.nodes": 1}).to_dict()["derived"]
    assert derived["job.single_node"] is True


def test_a_full_eight_gpu_machine_grown_past_is_more_than_one_machine() -> None:
    from bwdoctor.engine.derived import derive
    assert derive({"job.baseline_gpus": 8, "job.total_gpus": 16, "job.speedup": 1.2})["job.single_node"] is False
    assert "job.single_node" not in derive({"job.baseline_gpus": 2, "job.total_gpus": 4, "job.speedup": 1.2})
