"""The switch's rate against the NICs', nccl-tests columns said with a space, a wrapped nccl-tests row, the PCIe bus:

  - a rate written against the switch's own noun ('the switch is only 10G', 'a 10G switch', 'the switch port is 40G',
    '交换机只有 25G') beside a faster NIC's rate in the same sentence is the link's rate (nic.speed_gbps: a link runs
    at its slower end) and the NIC's rate its rating (nic.max_speed_gbps), even when one clause names both
    ('25G NICs connected to a 10G switch'); a faster switch is none of the link's; a switch's rate with the NICs
    named but given no rate of their own ('4 NICs per node, 100G switch') stays no NIC speed;
  - 'alg bw' / 'algo bw' / 'bus bw' written with a space are nccl-tests' algbw and busbw columns;
  - 'the PCIe bus bandwidth is 12 GB/s', 'PCIe 总线带宽': the GPU's bus, no nccl-tests busbw;
  - an nccl-tests row whose last cell (its in-place #wrong) the terminal wrapped onto the next line keeps its columns:
    the root ('-1') is no time, so the algbw is no time figure.

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read with these values,
facts that must not be read: {fact: value, or None for any value}).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.matching import read_problems

SPEED, MAX = "nic.speed_gbps", "nic.max_speed_gbps"
BUSBW, ALGBW = "nccl.allreduce_busbw_gbytes_per_s", "nccl.allreduce_algbw_gbytes_per_s"
Case = tuple[str, dict[str, Any], dict[str, Any]]


def _switch_slower() -> list[Case]:
    cases: list[Case] = []
    for sw, nic in [(10, 100), (25, 100), (40, 100), (10, 25), (100, 200)]:
        for text in [
            f"The switch is only {sw}G but the NICs are {nic}G ConnectX-6.",
            f"Each node has a {nic}Gbps NIC but the switch port is {sw}G.",
            f"We have {nic}G NICs connected to a {sw}G switch.",
            f"The switch only supports {sw}G while the Mellanox NICs are {nic}G.",
            f"Our {sw}GbE switch connects the {nic}G NICs.",
            f"网卡是 {nic}G 的，但是交换机只有 {sw}G",
            f"网卡 {nic}G，交换机的端口是 {sw}G 的",
        ]:
            cases.append((text, {SPEED: sw, MAX: nic}, {SPEED: nic}))
    return cases


def _switch_not_slower() -> list[Case]:
    cases: list[Case] = []
    for sw, nic in [(100, 25), (400, 100), (100, 100)]:
        cases += [
            (f"Our NICs are {nic}G, the switch is {sw}G.", {SPEED: nic}, {MAX: None}),
            (f"The switch supports {sw}G and our NICs are {nic}G.", {SPEED: nic}, {MAX: None}),
        ]
    # trap: the NICs named with no rate of their own, a switch's rate only caps them
    cases += [
        ("4 NICs per node, 100G switch.", {}, {SPEED: None}),
        ("每台 2 张网卡，接 100G 交换机", {}, {SPEED: None}),
        ("千兆交换机连的三台服务器", {SPEED: 1}, {}),
    ]
    return cases


def _columns() -> list[Case]:
    cases: list[Case] = []
    for bus, alg in [(10.5, 5.6), (22.3, 11.9), (1.8, 0.95)]:
        cases += [
            (f"bus bw: {bus}GB/s, alg bw: {alg}GB/s", {BUSBW: bus, ALGBW: alg}, {}),
            (f"algo bw {alg} GB/s, bus bw {bus} GB/s", {BUSBW: bus, ALGBW: alg}, {}),
            (f"all_reduce_perf: alg bw {alg} GB/s", {ALGBW: alg}, {BUSBW: alg}),
            (f"bus_bw {bus}, alg_bw {alg}", {BUSBW: bus, ALGBW: alg}, {}),
        ]
    # traps: the GPU's PCIe bus is no collective's bus bandwidth
    for bw in [12, 25, 31.5]:
        cases += [
            (f"The PCIe bus bw is {bw} GB/s.", {}, {BUSBW: None}),
            (f"The PCIe bus bandwidth is only {bw} GB/s, is that why?", {}, {BUSBW: None}),
            (f"GPU 的 PCIe 总线带宽是 {bw}GB/s", {}, {BUSBW: None}),
        ]
    cases.append(("all_reduce_perf over NVLink: 230 GB/s busbw", {BUSBW: 230}, {}))
    return cases


_ROW = "   {size}   {count}   float   sum   -1   {t}   {alg}   {bus}   0   {t2}   {alg2}   {bus2}"


def _wrapped_rows() -> list[Case]:
    cases: list[Case] = []
    for size, t, alg, bus in [(268435456, 24567, 10.93, 20.49), (1073741824, 98000, 10.96, 20.55),
                              (536870912, 180000, 2.98, 5.59)]:
        row = _ROW.format(size=size, count=size // 4, t=t, alg=alg, bus=bus, t2=t - 50, alg2=alg, bus2=bus)
        for intro in ["result of all_reduce_perf:", "nccl-tests 跨机结果："]:
            cases.append((f"{intro}\n{row}\n  0\n", {ALGBW: alg, BUSBW: bus}, {ALGBW: float(t)}))
        header = "#  size  count  type  redop  root  time  algbw  busbw #wrong  time  algbw  busbw #wrong"
        cases.append((f"all_reduce_perf:\n{header}\n{row}\n  0\n", {ALGBW: alg, BUSBW: bus}, {ALGBW: float(t)}))
    # the old layout (no root column) with twelve cells is still read as such
    old = "   8388608   2097152   float   sum   3597.6   2.33   4.52   1e-06   3590.1   2.34   4.53   1e-06"
    cases.append((f"all_reduce_perf over TCP:\n{old}\n", {BUSBW: 4.53, ALGBW: 2.34}, {}))
    return cases


CASES = _switch_slower() + _switch_not_slower() + _columns() + _wrapped_rows()


@pytest.mark.parametrize(("text", "want", "never"), CASES)
def test_switch_rates_and_bench_columns(text: str, want: dict[str, Any], never: dict[str, Any]) -> None:
    expected = {**want, **{fact: None if value is None else ("not", value) for fact, value in never.items()}}
    assert read_problems(text, expected) == []
