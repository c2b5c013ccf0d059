"""A run added after a move of the same figure is the run asked about: '… from 21h to 9h, but adding 2 GPUs from a
second server makes it 22h' compares the last two runs, not the first two."""

from __future__ import annotations

import pytest

from tests.matching import stated_facts as facts


@pytest.mark.parametrize("text", [
    "On one server, going from 1 to 4 GPUs cuts an epoch from 21h to 9h, but adding 2 GPUs from a second server makes "
    "it 22h.",
    "单机从 1 卡到 4 卡，一个 epoch 从 21 小时降到 9 小时；再加上第二台机器的 2 张卡，反而要 22 小时。",
])
def test_the_last_run_against_the_one_before(text: str) -> None:
    got = facts(text)
    assert got["job.speedup"] == pytest.approx(9 / 22, rel=1e-3) and got["job.negative_scaling"] is True
    assert (got["job.baseline_gpus"], got["job.baseline_nodes"], got["job.nodes"]) == (4, 1, 2)


def test_a_move_alone_is_still_read_between_its_two_runs() -> None:
    assert facts("epoch time went from 20 min on 1 node to 12 min on 2 nodes")["job.speedup"] == pytest.approx(20 / 12,
                                                                                                           rel=1e-3)
