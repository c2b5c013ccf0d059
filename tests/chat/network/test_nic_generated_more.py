"""NIC descriptions: generated batteries of five forms a first pass left — a measured RDMA
figure with the link's rating in brackets ('ib_write_bw 96 Gb/s (100G line rate)'), a switch's rate beside NICs that
say none of their own ('4 NICs, 100G switch'), an RDMA port whose link layer is Ethernet ('link_layer: Ethernet' on
mlx5_0 = RoCE), a node's RDMA devices written as a range ('mlx5_0 … mlx5_7', 'mlx5_[0-7]'), and perftest's MB/sec,
which is 2^20 bytes a second (perftest's format_factor 0x100000; newer builds print it as MiB/sec) — each with the
traps beside it, in English and Chinese.

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read with these values,
facts that must not be read: {fact: value, or None for any value}).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from bwdoctor.chat import answer_turn
from tests.matching import same_value

S, C, K, R = "nic.speed_gbps", "nic.count", "nic.kind", "nic.rdma"
IPERF, RDMA_BW = "net.iperf3_gbps", "net.rdma_bw_gbps"
Case = tuple[str, dict[str, Any], dict[str, Any]]
MIB = 8 * 1048576 / 1e9  # Gb/s in one perftest MB/sec


def _rated_in_brackets() -> list[Case]:
    """The measured figure, then the link's rating in brackets with a rating word: both roles read."""
    en = ["ib_write_bw gives {m} Gb/s ({r}G line rate)", "ib_write_bw {m} Gb/s (line rate {r}G)",
          "ib_write_bw only reaches {m} Gb/s (NIC is {r}G)", "ib_send_bw: {m} Gb/s (rated {r}G)",
          "perftest ib_write_bw shows {m} Gbps (the port is {r}G)"]
    zh = ["ib_write_bw 跑出 {m} Gb/s（线速 {r}G）", "ib_write_bw 只有 {m} Gb/s（理论 {r}G）",
          "ib_write_bw 测到 {m} Gb/s（{r}G 网卡）", "ib_write_bw 实测 {m} Gbps（标称 {r}G）"]
    out: list[Case] = []
    for shape, (m, r) in itertools.product(en + zh, [(96, 100), (180, 200), (370, 400)]):
        tail = "，NCCL 却很慢" if shape in zh else ", NCCL is slow"
        out.append((shape.format(m=m, r=r) + tail, {RDMA_BW: m, S: r}, {RDMA_BW: r, S: m}))
    for m, r in [(23, 25), (9.4, 10)]:
        out.append((f"iperf3 gives {m} Gbit/s ({r}G line rate)", {IPERF: m, S: r}, {IPERF: r}))
        out.append((f"iperf3 测到 {m} Gbps（线速 {r}G）", {IPERF: m, S: r}, {IPERF: r}))
    # traps: a second figure in brackets is a second run, not a rating
    out += [("iperf3 单流 9.4 Gbps（多流 23 Gbps）", {IPERF: 23}, {S: None}),
            ("iperf3 gives 9.4 Gbit/s (23 Gbit/s with -P 8)", {IPERF: 23}, {S: None})]
    return out


def _switch_beside_nics() -> list[Case]:
    """A switch's rate with the NICs named but unrated: not the NICs' rate; with the NICs' own rate, the slower end."""
    out: list[Case] = []
    en = ["{n} NICs, {r}G switch", "each node has {n} NICs, all on a {r}G switch",
          "{n} NICs per node; the switch is {r}G", "We have {n} HCAs per server and a {r}G switch."]
    zh = ["每台 {n} 张网卡，接 {r}G 交换机", "网卡 {n} 张，交换机是 {r}G 的",
          "每台服务器 {n} 张网卡，都连在一台 {r}G 的交换机上"]
    for shape, n, r in itertools.product(en + zh, [2, 4], [100, 400]):
        out.append((shape.format(n=n, r=r), {C: n}, {S: None}))
    # the NICs' own rate said: it stands (a faster switch is none of the link's, a slower one is)
    out += [("two 100G NICs and a 400G switch", {S: 100}, {S: 400}),
            ("the switch is 100G but the NICs are 25G", {S: 25}, {S: 100}),
            ("交换机是 10GE 的，服务器也是 10GE 网卡", {S: 10}, {}),
            # no NIC named: the switch's rate is the network's as the poster says it
            ("千兆交换机连的三台服务器", {S: 1}, {}),
            ("a 100G switch, 2 nodes", {S: 100}, {}),
            # a gigabit switch caps any server NIC: the link's rate even with the NICs named
            ("每台一张网卡，接在千兆交换机上", {S: 1}, {})]
    return out


def _ethernet_link_layer() -> list[Case]:
    """'link_layer: Ethernet' is an RDMA port's (only RDMA tools print a link layer): RoCE, RDMA on."""
    en = ["ibv_devinfo shows {d} with link_layer: Ethernet, training is slow",
          "ibv_devinfo says link_layer Ethernet on {d}", "{d} is Ethernet link layer",
          "ibstat: Link layer: Ethernet for {d}",
          "ib_write_bw banner says Link type : Ethernet, device {d}", "the link layer of {d} is Ethernet"]
    zh = ["ibv_devinfo 显示 {d} 的 link_layer: Ethernet，训练很慢", "{d} 的链路层是以太网",
          "ibstat 看 {d} 的 Link layer 是 Ethernet"]
    out: list[Case] = [(s.format(d=d), {K: "roce", R: True}, {K: "ethernet", R: False})
                       for s, d in itertools.product(en + zh, ["mlx5_0", "mlx5_2"])]
    # traps: Ethernet said of the network, not of a port's link layer; an InfiniBand link layer
    out += [("plain 25GbE Ethernet, no RDMA", {K: "ethernet", R: False}, {K: "roce"}),
            ("普通以太网，没有 RDMA", {R: False}, {K: "roce"}),
            ("link_layer: InfiniBand on mlx5_0", {K: "infiniband", R: True}, {K: "roce"})]
    return out


def _device_ranges() -> list[Case]:
    """A node's RDMA devices as a range from the first, or a list in NCCL_IB_HCA: as many NICs."""
    en = ["each node has {d}0 ... {d}{hi}", "node has {d}[0-{hi}]", "HCAs {d}0…{d}{hi}, training slow",
          "we have 2 nodes, {d}0 - {d}{hi} on each", "{d}{{0..{hi}}} on every host", "RDMA devices: {d}0 to {d}{hi}"]
    zh = ["每台机器有 {d}0 到 {d}{hi}", "网卡是 {d}0 ~ {d}{hi}，训练很慢", "每个节点 {d}[0-{hi}]"]
    out: list[Case] = [(s.format(d=d, hi=n - 1), {C: n}, {})
                       for s, d, n in itertools.product(en + zh, ["mlx5_"], [2, 4, 8])]
    out += [("NCCL_IB_HCA=mlx5_0,mlx5_1,mlx5_2,mlx5_3", {C: 4}, {}),
            ("export NCCL_IB_HCA=mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_7", {C: 8}, {})]
    # traps: two nodes' lists, a bonded pair, some of the devices, devices named one by one
    out += [("node1: mlx5_0 ... mlx5_3, node2: mlx5_0 ... mlx5_1", {}, {C: None}),
            ("mlx5_0 ~ mlx5_1 bonded into bond0", {}, {C: 2}),
            ("mlx5_0 到 mlx5_1 做了 bond", {}, {C: 2}),
            ("mlx5_2 ... mlx5_5 are idle", {}, {C: None}),
            ("only mlx5_0 … mlx5_3 carry traffic", {}, {C: 4}),
            ("GPU0 is close to mlx5_0, GPU7 to mlx5_7", {}, {C: None})]
    return out


def _perftest_mb() -> list[Case]:
    """perftest's MB/sec is 2^20 bytes a second: 11000 MB/sec is 92.27 Gb/s, not 88."""
    out: list[Case] = []
    for mb in (11000, 23000, 46000):
        want = {RDMA_BW: round(mb * MIB, 6)}
        out += [(f"ib_write_bw 只有 {mb}", want, {RDMA_BW: mb * 8 / 1000}),
                (f"ib_write_bw shows {mb} MB/sec", want, {RDMA_BW: mb * 8 / 1000}),
                (f"ib_write_bw BW average {mb} MB/sec, NCCL is slow", want, {})]
    # a figure in Gb/s (--report_gbits) stays as said
    out.append(("ib_write_bw --report_gbits gives 96 Gb/s", {RDMA_BW: 96}, {}))
    return out


CASES = _rated_in_brackets() + _switch_beside_nics() + _ethernet_link_layer() + _device_ranges() + _perftest_mb()


@pytest.mark.parametrize(("text", "want", "never"), [pytest.param(*c, id=f"n{i:03d}") for i, c in enumerate(CASES)])
def test_nic_forms_more(engine: Any, text: str, want: dict[str, Any], never: dict[str, Any]) -> None:
    facts = answer_turn(text, engine=engine)["facts"]
    wrong = {k: (facts.get(k), v) for k, v in want.items() if k not in facts or not same_value(facts[k], v)}
    misread = {k: facts[k] for k, v in never.items() if k in facts and (v is None or same_value(facts[k], v))}
    assert not wrong and not misread, f"wrong/missed {wrong}; misread {misread}; facts {facts}"


def test_perftest_table_mb_is_mebibytes() -> None:
    """The pasted table's parser and the prose agree: perftest divides by 0x100000 for its MB."""
    from bwdoctor_parsers.perftest import parse_perftest

    table = (" #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n"
             " 65536      5000             11000.00            11000.00            0.176000\n")
    assert parse_perftest(table).average_gbps == round(11000 * MIB, 3)
