"""Two scopes of a fabric or a figure, generated over fabrics, verbs and figures:

  - an intention denied ('我们不打算上 IB', '暂时不考虑 RDMA', '没计划买 IB') says the job has none of it
    now: the fabric is never read as the job's, and where it is RDMA's the job has no RDMA;
  - a measurement whose tool is named in the clause before ('iperf3 测了一下，大概 9.41 Gbits/sec') is the
    tool's result, never the link's rate as well.

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read with these values,
facts that must not be read: {fact: value, or None for any value}).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.matching import read_problems

KIND, RDMA, SPEED, IPERF = "nic.kind", "nic.rdma", "nic.speed_gbps", "net.iperf3_gbps"
Case = tuple[str, dict[str, Any], dict[str, Any]]

_DENIALS = ["不打算上", "没打算用", "暂时不考虑", "目前不考虑上", "没计划买", "不准备上", "不想用"]
_FABRICS = [("IB", "infiniband"), ("InfiniBand", "infiniband"), ("RoCE", "roce")]


def _denied() -> list[Case]:
    cases: list[Case] = []
    for i, denial in enumerate(_DENIALS):
        for fabric, kind in _FABRICS:
            tail = ["，预算有限。", "，先用 TCP 跑。", "。现在两台机器，每台 8 卡，25G 网卡。"][i % 3]
            cases.append((f"我们{denial} {fabric}{tail}", {}, {KIND: kind, RDMA: True}))
        cases.append((f"我们{denial} RDMA。", {}, {RDMA: True}))
    # the job's own fabric beside a denied one is still read
    cases.append(("我们暂时不考虑 IB，现在用的是 100G RoCE。", {KIND: "roce", SPEED: 100}, {}))
    return cases


def _tool_before() -> list[Case]:
    cases: list[Case] = []
    for tool in ["iperf3", "iperf", "iperf3 -P 8"]:
        for value in [9.41, 23.5, 1.2]:
            for said in ["{t} 测了一下，大概 {v} Gbits/sec", "只用 {t} 测了一下，结果 {v} Gbits/sec",
                         "We ran {t} between the nodes, about {v} Gbits/sec"]:
                cases.append((said.format(t=tool, v=value), {IPERF: value}, {SPEED: value}))
    return cases


CASES = _denied() + _tool_before()


@pytest.mark.parametrize(("text", "want", "never"), CASES)
def test_intent_denied_and_tool_clause(text: str, want: dict[str, Any], never: dict[str, Any]) -> None:
    expected = {**want, **{fact: None if value is None else ("not", value) for fact, value in never.items()}}
    assert read_problems(text, expected) == []
