"""The NICs' rate said after a word that points back at them, and cards named by a NIC's model:

  - the NICs counted in one clause, their rate in the next after a word pointing back ('Each node has 8 RoCE NICs, all
    of which are 100Gb', 'all of them are 100G', '4 NICs per node, each is 200Gb', '2 ConnectX-6 cards which are
    100Gb each') is the NICs' speed; the same words after GPUs or servers ('8 GPUs per node, all of which are 80G',
    'two servers, both are 100G') are no NIC speed;
  - cards counted under a NIC's make or model ('each server has 2 ConnectX-6 cards', '2 BlueField-2 cards', '2 Mellanox
    cards', '两张 CX6 卡') are NICs, never the node's GPUs; the GPUs counted beside them still are;
  - NCCL pointed at an interface through the setting ('I pointed NCCL at ens3 with NCCL_SOCKET_IFNAME', 'we set NCCL to
    eth1 via NCCL_SOCKET_IFNAME') is nccl.socket_ifname; a question whether to ('should I point NCCL at ib0 …?') is not.

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read with these values,
facts that must not be read: {fact: value, or None for any value}).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.matching import read_problems

SPEED, COUNT, GPN, IFNAME = "nic.speed_gbps", "nic.count", "job.gpus_per_node", "nccl.socket_ifname"
Case = tuple[str, dict[str, Any], dict[str, Any]]


def _pointed_back() -> list[Case]:
    cases: list[Case] = []
    for n, rate in [(8, 100), (4, 200), (2, 25), (8, 400)]:
        for text in [
            f"Each node has {n} RoCE NICs, all of which are {rate}Gb.",
            f"Each node has {n} RoCE NICs, all of them are {rate}G.",
            f"There are {n} NICs per node, each is {rate}Gb.",
            f"{n} NICs per node, each is {rate}Gbps",
            f"each server has {n} ConnectX-6 cards which are {rate}Gb each",
        ]:
            cases.append((text, {SPEED: rate, COUNT: n}, {GPN: n}))
    # traps: the same words after GPUs or machines
    cases += [
        ("There are 8 GPUs per node, all of which are 80G", {GPN: 8}, {SPEED: None}),
        ("two servers, both are 100G", {}, {SPEED: None}),
        ("The GPUs are A100s, all of them are 80G", {}, {SPEED: None}),
    ]
    return cases


def _nic_cards() -> list[Case]:
    cases: list[Case] = []
    for n in [2, 4, 6]:
        for model in ["ConnectX-6", "ConnectX-7", "CX-6", "BlueField-2"]:
            cases.append((f"each server has {n} {model} cards", {COUNT: n}, {GPN: None}))
            cases.append((f"each node has {n} {model} cards and 8 H100 GPUs", {COUNT: n, GPN: 8}, {GPN: n}))
        cases.append((f"each server has {n} Mellanox cards", {}, {GPN: None}))
    cases.append(("每台服务器有两张 CX6 卡", {COUNT: 2}, {GPN: None}))
    # the GPUs called cards stay GPUs
    cases += [
        ("each server has 8 A100 cards", {GPN: 8}, {}),
        ("each node has 8 cards", {GPN: 8}, {}),
    ]
    return cases


def _pointed_at() -> list[Case]:
    cases: list[Case] = []
    for iface in ["ens3", "eth1", "ib0", "bond0", "enp65s0f1"]:
        cases += [
            (f"I pointed NCCL at {iface} with NCCL_SOCKET_IFNAME", {IFNAME: iface}, {}),
            (f"we set NCCL to {iface} via NCCL_SOCKET_IFNAME", {IFNAME: iface}, {}),
            (f"we pinned NCCL to {iface} via NCCL_SOCKET_IFNAME", {IFNAME: iface}, {}),
            (f"should I point NCCL at {iface} with NCCL_SOCKET_IFNAME?", {}, {IFNAME: None}),
        ]
    return cases


CASES = _pointed_back() + _nic_cards() + _pointed_at()


@pytest.mark.parametrize(("text", "want", "never"), CASES)
def test_nics_pointed_back_and_nic_cards(text: str, want: dict[str, Any], never: dict[str, Any]) -> None:
    expected = {**want, **{fact: None if value is None else ("not", value) for fact, value in never.items()}}
    assert read_problems(text, expected) == []
