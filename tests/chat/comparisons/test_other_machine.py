"""A figure said of ANOTHER machine set against OURS: generated batteries of the ways posters compare
their job with another machine, node, box, team or cluster ('On the other machine GPU util is 95%, ours is 40%',
'另一台机器上 GPU 利用率 95%，我们这台只有 40%'): the other side's figure is no figure of the job, and a bare figure on
our side ('ours is 40%', 'here it is 40%') takes the measure named on the other side — in both orders, for loads, step
times and bandwidths, English and Chinese. With the traps beside them: two of OUR nodes compared ('node 1 is at 95%,
node 2 at 40%' is a straggler pattern, not a reference), 'the other GPUs' (the job's own), no our side named at all.
Also the zero load said with how often ('GPU大部分时间利用率都为0').

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read with these values,
facts that must not be read: {fact: value, or None for any value}).
"""

from __future__ import annotations

from typing import Any

import pytest

from bwdoctor.chat.understanding import understand
from tests.matching import same_value

GPU, CPU, STEP = "gpu.util_pct", "cpu.util_pct", "job.step_time_s"
BUSBW, IPERF = "nccl.allreduce_busbw_gbytes_per_s", "net.iperf3_gbps"
Case = tuple[str, dict[str, Any], dict[str, Any]]

_OTHER_EN = ["On the other machine", "On the other node", "On another box", "On another server", "The other team says",
             "On our other cluster"]
_OURS_EN = ["ours is {v}", "here it is {v}", "on this one it is {v}", "our machine is at {v}", "mine is {v}"]
# (measure said on the other side, its figure, our bare figure, the fact, our value)
_MEASURES_EN = [("GPU util is", "95%", "40%", GPU, 40), ("CPU usage is", "100%", "20%", CPU, 20),
                ("the step time is", "1.2 s", "3.5 s", STEP, 3.5), ("step time is", "800 ms", "2400 ms", STEP, 2.4)]


def _english() -> list[Case]:
    """Other side first, our bare figure after; then our side first and the other's measure after."""
    cases: list[Case] = []
    for i, other in enumerate(_OTHER_EN):
        for j, (measure, theirs, ours, fact, value) in enumerate(_MEASURES_EN):
            said = _OURS_EN[(i + j) % len(_OURS_EN)].format(v=ours)
            cases.append((f"{other} {measure} {theirs}, {said}.", {fact: value}, {}))
    for measure, theirs, ours, fact, value in _MEASURES_EN:
        cases.append((f"Ours is {ours}, while on the other machine {measure} {theirs}.", {fact: value}, {}))
    cases.append(("The other node's CPU is 100%, ours is at 20%", {CPU: 20}, {}))
    return cases


_OTHER_ZH = ["在另一台机器上", "另一台服务器", "另外一台节点上", "别的机器上", "另一个集群"]
_OURS_ZH = ["我们这台只有 {v}", "这边才 {v}", "我们这边 {v}", "我这台是 {v}"]
_MEASURES_ZH = [("GPU 利用率", "95%", "40%", GPU, 40), ("CPU 利用率", "100%", "20%", CPU, 20),
                ("GPU 利用率是", "90%", "30%", GPU, 30)]


def _chinese() -> list[Case]:
    cases: list[Case] = []
    for i, other in enumerate(_OTHER_ZH):
        for j, (measure, theirs, ours, fact, value) in enumerate(_MEASURES_ZH):
            said = _OURS_ZH[(i + j) % len(_OURS_ZH)].format(v=ours)
            cases.append((f"{other} {measure} {theirs}，{said}", {fact: value}, {}))
    return cases


def _bandwidths() -> list[Case]:
    """A bandwidth with its unit on both sides is read on our side already; the other side's stays aside."""
    return [("On the other box busbw is 45 GB/s, here it is 12 GB/s", {BUSBW: 12}, {}),
            ("The other node gets 180 Gbps in iperf3, ours only 40 Gbps", {IPERF: 40}, {}),
            ("另一台节点 busbw 45 GB/s，我们这边只有 12 GB/s", {BUSBW: 12}, {})]


def _traps() -> list[Case]:
    """The job's own parts compared, or no side of ours named: nothing set aside, nothing inherited."""
    return [("node 1 is at 95% GPU util, node 2 at 40%", {"gpu.util_min_pct": 40, "job.straggler_suspected": True},
             {GPU: 95}),
            ("the other GPUs are at 95% util, one is at 40%", {GPU: 95}, {}),
            # no side of ours named: 'the other machine' may be the job's second one, its figure stays
            ("We train on two machines. On the other machine GPU util is 95%.", {GPU: 95}, {}),
            ("node 1 is at 40% GPU util, the other node at 95%", {"gpu.util_min_pct": 40}, {}),
            ("GPU util is 95% on both machines, ours is fine", {GPU: 95}, {})]


def _zero_load() -> list[Case]:
    return [("GPU大部分时间利用率都为0", {GPU: 0}, {}), ("GPU 利用率大部分时间都是 0", {GPU: 0}, {}),
            ("GPU多数时候利用率是 0", {GPU: 0}, {}), ("GPU 大部分时间的利用率为 0，偶尔跳到 30%", {GPU: 0}, {})]


CASES = _english() + _chinese() + _bandwidths() + _traps() + _zero_load()


@pytest.mark.parametrize(("text", "want", "never"), CASES, ids=[c[0][:60] for c in CASES])
def test_other_side(text: str, want: dict[str, Any], never: dict[str, Any]) -> None:
    facts = understand(text).facts
    wrong = {k: (facts.get(k), v) for k, v in want.items() if k not in facts or not same_value(facts[k], v)}
    misread = {k: facts[k] for k, v in never.items() if k in facts and (v is None or same_value(facts[k], v))}
    assert not wrong and not misread, f"wrong/missed {wrong}; misread {misread}; facts {facts}"
