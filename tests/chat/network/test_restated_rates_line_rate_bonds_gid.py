"""A figure restated in words, the line rate, a figure a tool fell to, a GID index set to, a bond's make-up:

  - a rate restated right after it with a word that says so, without brackets ('busbw is ~22GB/s, which is ~176
    Gbps', '3 GB/s, i.e. 24 Gbps', '12.5GB/s 即 100Gbps') is one figure: the restatement is no NIC speed or second
    throughput; a different figure after 'which is' stays its own;
  - the rate called the line rate ('close to the 200G line rate', '远低于 100G 的线速') is the link's speed;
  - a tool's unit-less figure it fell to ('busbw drops to 0.5', 'busbw fell to 2.1', 'busbw 降到 3 左右') is its figure;
  - 'setting the GID index to 3' sets nic.gid_index (a move 'from 0 to 3' is left unread);
  - an interface said to be made of ports ('bond0 is made of two 10G NICs', 'bond0 consists of 2 x 25GbE ports',
    'bond0 (2x25G, mode 4)', 'bond0 with two slaves') is a bond; a bond's name alone (NCCL_SOCKET_IFNAME=bond0) is not.

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read with these values,
facts that must not be read: {fact: value, or None for any value}).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.matching import read_problems

SPEED, IPERF = "nic.speed_gbps", "net.iperf3_gbps"
BUSBW, GID, BONDED, COUNT = "nccl.allreduce_busbw_gbytes_per_s", "nic.gid_index", "nic.bonded", "nic.count"
Case = tuple[str, dict[str, Any], dict[str, Any]]


def _restated() -> list[Case]:
    cases: list[Case] = []
    for gbytes, line in [(22, 200), (11, 100), (45, 400), (2.9, 25)]:
        gbps = round(gbytes * 8)
        for said in [f"which is ~{gbps} Gbps", f"which is about {gbps}Gbps", f"i.e. {gbps} Gbps",
                     f"that's {gbps} Gb/s"]:
            cases.append((f"The all_reduce_perf busbw is ~{gbytes}GB/s, {said}, close to the {line}G line rate.",
                          {BUSBW: gbytes, SPEED: line}, {SPEED: gbps, IPERF: None}))
        cases.append((f"nccl-tests busbw 只有 {gbytes}GB/s，即 {gbps}Gbps，远低于 {line}G 的线速",
                      {BUSBW: gbytes, SPEED: line}, {SPEED: gbps}))
    # trap: another figure after 'which is' is not the same quantity, and stays
    cases.append(("iperf3 gives 9.4 Gbits/sec, which is close to the 10G link", {IPERF: 9.4, SPEED: 10}, {}))
    return cases


def _line_rate() -> list[Case]:
    cases: list[Case] = []
    for line, got in [(10, 9.4), (25, 23.5), (100, 90), (200, 180)]:
        cases += [
            (f"We get {got} Gbps with iperf3, close to the {line}G line rate.", {IPERF: got, SPEED: line},
             {SPEED: got}),
            (f"that is about 60% of the {line}G line rate", {SPEED: line}, {}),
        ]
    cases.append(("NCCL busbw 只有 5GB/s，远低于 100G 的线速", {BUSBW: 5, SPEED: 100}, {}))
    return cases


def _fell_to() -> list[Case]:
    cases: list[Case] = []
    for v in [0.5, 2.1, 4.5, 12]:
        cases += [
            (f"the busbw drops to {v} when I use 2 nodes", {BUSBW: v}, {}),
            (f"busbw fell to {v} after adding the third node", {BUSBW: v}, {}),
            (f"nccl-tests busbw dropped to {v} at 16 nodes", {BUSBW: v}, {}),
            (f"跨机后 busbw 降到 {v} 左右", {BUSBW: v}, {}),
        ]
    # traps: a count or a size follows, no figure
    cases += [
        ("busbw drops when we go to 16 nodes", {}, {BUSBW: None}),
        ("the busbw drops to half at 8 nodes", {}, {BUSBW: None}),
    ]
    return cases


def _gid() -> list[Case]:
    cases: list[Case] = []
    for n in [0, 1, 3, 5]:
        cases += [
            (f"setting the GID index to {n} fixed it", {GID: n}, {}),
            (f"after we set GID index to {n} it works", {GID: n}, {}),
            (f"we changed the GID index to {n}", {GID: n}, {}),
        ]
    cases.append(("changed the GID index from 0 to 3", {}, {GID: 0}))
    return cases


def _bonds() -> list[Case]:
    cases: list[Case] = []
    for n, word, speed in [(2, "two", 10), (2, "2 x", 25), (4, "four", 25)]:
        cases += [
            (f"bond0 is made of {word} {speed}G NICs", {BONDED: True, COUNT: n, SPEED: speed}, {}),
            (f"bond0 consists of {word} {speed}GbE ports", {BONDED: True, COUNT: n, SPEED: speed}, {}),
        ]
    cases += [
        ("bond0 (2x25G, mode 4)", {BONDED: True, COUNT: 2, SPEED: 25}, {}),
        ("we have bond0 with two slaves eth0 and eth1", {BONDED: True}, {}),
        # traps: a bond's name alone, and an interface made of no ports
        ("NCCL_SOCKET_IFNAME=bond0", {}, {BONDED: None}),
        ("the training traffic goes over bond0", {}, {BONDED: None}),
        ("eth0 is made of copper", {}, {BONDED: None}),
    ]
    return cases


CASES = _restated() + _line_rate() + _fell_to() + _gid() + _bonds()


@pytest.mark.parametrize(("text", "want", "never"), CASES)
def test_restated_rates_line_rate_bonds_gid(text: str, want: dict[str, Any], never: dict[str, Any]) -> None:
    expected = {**want, **{fact: None if value is None else ("not", value) for fact, value in never.items()}}
    assert read_problems(text, expected) == []
