"""A NIC said for each GPU, generated over GPU counts, rates and languages:

  - 'one 400G NIC per GPU', 'each GPU has its own 200G NIC', '一卡一网卡', '每张 GPU 对应一张 200G 网卡', 'GPU 和网卡是
    1:1' beside a machine's GPUs: as many NICs a machine as GPUs (nic.count), never one NIC;
  - the NIC counted for one GPU ('一卡一网卡', '每张 GPU 对应一张网卡') is no count of the machine's NICs on its own:
    with no GPUs said, nic.count stays unread, and a count of the machine's NICs said beside it stands.

Traps: a question ('is it one NIC per GPU?'), a denial ('not one NIC per GPU but 4 NICs'), a wish ('we want one NIC
per GPU'), advice beside the real count ('one NIC per GPU is recommended; we have … 2 NICs per node').

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read with these values,
facts that must not be read: {fact: value, or None for any value}).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.matching import read_problems

NIC, GPN = "nic.count", "job.gpus_per_node"
Case = tuple[str, dict[str, Any], dict[str, Any]]

_EN = ["Each GPU has its own {r}G NIC, {g} GPUs per node, 2 nodes", "one {r}G NIC per GPU, {g} GPUs per node",
       "2 nodes with {g} GPUs each and a {r}G NIC for each GPU"]
_ZH = ["每台 {g} 张 H800，一卡一网卡", "每台机器 {g} 张 A800，每张 GPU 对应一张 {r}G 网卡",
       "每台 {g} 卡，GPU 和网卡是 1:1", "两台机器，每台 {g} 张卡，每张卡配一张 {r}G 的 IB 网卡"]


def _each_gpu() -> list[Case]:
    cases: list[Case] = []
    for i, form in enumerate(_EN + _ZH):
        g, r = [(8, 400), (4, 200), (8, 200), (2, 100)][i % 4]
        cases.append((form.format(g=g, r=r), {NIC: g, GPN: g}, {NIC: ("not", 1)}))
    # the machine's NICs said outright stand
    cases.append(("每台机器 8 张 H100，配 8 张 CX7 400G 网卡（一卡一网卡）", {NIC: 8, GPN: 8}, {}))
    cases.append(("每台 8 张 H100，4 张 400G 网卡，两卡一网卡", {NIC: 4, GPN: 8}, {}))
    # no GPUs said: the NIC for one GPU counts no machine's NICs
    cases.append(("每张 GPU 对应一张 200G 网卡", {}, {NIC: None}))
    cases.append(("我们是一卡一网卡的架构", {}, {NIC: None}))
    return cases


def _traps() -> list[Case]:
    return [
        ("2 nodes with 8 GPUs each; is it one NIC per GPU?", {GPN: 8}, {NIC: None}),
        ("2 nodes with 8 GPUs each, not one NIC per GPU but 4 NICs", {GPN: 8, NIC: 4}, {}),
        ("we want one NIC per GPU, 8 GPUs per node", {GPN: 8}, {NIC: None}),
        ("one NIC per GPU is recommended; we have 8 GPUs and 2 NICs per node", {GPN: 8, NIC: 2}, {}),
        ("每台 8 卡，是不是应该一卡一网卡？", {GPN: 8}, {NIC: None}),
    ]


CASES = _each_gpu() + _traps()


@pytest.mark.parametrize(("text", "want", "never"), CASES)
def test_nics_for_each_gpu(text: str, want: dict[str, Any], never: dict[str, Any]) -> None:
    expected = {**want, **{fact: value if isinstance(value, tuple) else None if value is None else ("not", value)
                           for fact, value in never.items()}}
    assert read_problems(text, expected) == []
