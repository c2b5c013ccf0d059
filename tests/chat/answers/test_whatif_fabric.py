"""What-if answers: a fabric proposed without its rate ('do I need InfiniBand?', '要不要上 IB') is weighed
at the rate it commonly comes at, said as an assumption, so the figures that decide move; a fabric whose rate is said,
or a rate the job already has, is taken as said; a need question gets its yes or no first, with the figure."""

from __future__ import annotations

import pytest

from bwdoctor.chat import answer_turn
from tests.matching import figures


@pytest.mark.parametrize(("text", "assumption"), [
    ("Do I need InfiniBand to train a 7B model on 2 nodes with 8 GPUs each? We only have 10GbE for now.", "200 Gb/s"),
    ("两台 8 卡机器训练 7B，现在是万兆，要不要上 IB？", "200 Gb/s"),
    ("We train a 13B model on 4 nodes over 25GbE. Would RoCE help?", "100 Gb/s"),
])
def test_a_fabric_without_its_rate_is_weighed_at_its_common_rate(engine, text: str, assumption: str) -> None:
    out = answer_turn(text, engine=engine)
    assert out["intent"] == "what_if"
    before, after = out["what_if"]["before"], out["what_if"]["after"]
    assert after["comm.allreduce_time_s"] < before["comm.allreduce_time_s"] / 3  # the decisive figure moves
    first = out["answer"].split("\n\n")[0]
    assert assumption in first  # and the answer says what it assumed
    assert "nic-undersized" in out["what_if"]["resolved"] or after["comm.allreduce_time_s"] < 1.0


def test_a_fabric_with_its_rate_is_taken_at_that_rate(engine) -> None:
    out = answer_turn("Two nodes of 8 A100 train a 7B model over 10GbE. Would 100G InfiniBand help?", engine=engine)
    assert out["what_if"]["changes"].get("nic.speed_gbps") == 100
    assert "200 Gb/s" not in out["answer"].split("\n\n")[0]


def test_a_fabric_no_faster_than_the_link_keeps_its_rate(engine) -> None:
    out = answer_turn("We have 2 nodes of 8 H100 with 400G Ethernet and a 70B model. Would InfiniBand help?",
                      engine=engine)
    assert out["what_if"]["changes"].get("nic.speed_gbps") in (None, 400)
    assert 200.0 not in figures(out["answer"].split("\n\n")[0], "Gb/s")


@pytest.mark.parametrize(("text", "first"), [
    ("Do I need InfiniBand to train a 7B model on 2 nodes with 8 GPUs each? We only have 10GbE for now.", "Yes"),
    ("两台 8 卡机器训练 7B，现在是万兆，要不要上 IB？", "需要"),
])
def test_a_need_question_about_a_fabric_gets_its_yes_or_no_first(engine, text: str, first: str) -> None:
    out = answer_turn(text, engine=engine)
    assert out["answer"].startswith(first)
    assert 11.2 in figures(out["answer"].splitlines()[0], "s|秒")  # with the figure that decides it
    assert out["verdict"]["network_is_problem"] is True


def test_a_need_question_on_one_machine_says_no_once(engine) -> None:
    answer = answer_turn("单机 8 卡 A100 训练 7B 模型，需要上 IB 吗？", engine=engine)["answer"]
    assert answer.count("NVLink 或 PCIe") == 1
