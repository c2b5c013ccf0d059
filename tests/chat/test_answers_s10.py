"""What-if answers of session 10: a change of the network between machines asked about for a job on one machine is
answered as such, and the findings a change clears or leaves are named by their titles, not by category ids."""

from __future__ import annotations

import pytest

from bwdoctor.chat import answer_turn
from bwdoctor.engine import load_engine


@pytest.fixture(scope="module")
def engine():
    return load_engine()


@pytest.mark.parametrize(("text", "words"), [
    ("单机 8 卡 A100 训练 7B 模型，数据在 NAS 上，GPU 利用率 40%，需要上 IB 吗？", "不经过网卡"),
    ("One server with 8 A100s, 7B model, data on NFS, GPU util 40%. Would InfiniBand help?", "NVLink or PCIe"),
])
def test_a_network_change_for_one_machine_says_it_changes_nothing(engine, text: str, words: str) -> None:
    answer = answer_turn(text, engine=engine)["answer"]
    assert words in answer.splitlines()[0]
    assert "remote-storage-io" not in answer  # what remains is named by its finding's title


def test_what_a_change_clears_is_the_title_of_the_finding_before_it(engine) -> None:
    answer = answer_turn("If we moved from 25GbE to 100GbE, how much faster would our 2-node 8xA100 13B training be?",
                         engine=engine)["answer"]
    cleared = next(line for line in answer.splitlines() if line.startswith("That clears"))
    assert "25 Gb/s" in cleared and "nic-undersized" not in cleared
