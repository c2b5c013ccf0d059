"""A network rate said twice: restated in brackets, or a node's total broken down into its NICs.

Posters write one quantity two ways side by side — '56G (7G Byte)', '200Gb/s (25 GB/s)', '节点总带宽 1.6T（8×200G）',
'EFA 400 Gbps (4 × 100)', '8 × 200G (1.6 Tb/s per node)', or with a word between ('22 GB/s, which is ~176 Gbps').
Read one figure at a time, the second way is a second figure: the bytes restatement a throughput of its own, the
node's total one NIC's rate, or the breakdown's product a measured 1600 Gb/s. Here the pair is found once, so that the
rate reader keeps one reading of it: the breakdown's per-NIC rate and count, and the outer figure of a plain
restatement.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# between a figure and its restatement: an opening bracket, and at most a word saying it is the same ('i.e.', '约')
_OPENS = re.compile(r"\s*[(（]\s*(?:~|≈|=|about|approx\.?|roughly|i\.e\.,?|ie\.?|or|约|即|大约|合)?\s*$", re.IGNORECASE)
# or, without a bracket, a word that says so: '22 GB/s, which is ~180 Gbps', '3 GB/s, i.e. 24 Gbps', '12.5GB/s 即
# 100Gbps'
_SAYS_SAME = re.compile(r"\s*[,，]?\s*(?:which is|that is|that's|i\.e\.,?|ie\.?|=|≈|即|也就是|相当于|折合|"
                        r"换算(?:成|下来)?(?:是)?)\s*(?:~|≈|about|approx\.?|roughly|around|约|大约)?\s*$",
                        re.IGNORECASE)
# a breakdown without a unit after a rate: 'EFA 400 Gbps (4 × 100)', '800G（4x200）'
_BARE_SPLIT = re.compile(r"\s*[(（]\s*(?P<n>[1-9]|1[0-6])\s*[x×*]\s*(?P<s>\d{2,3})\s*(?:(?-i:G(?:bps|b/s|b)?)\s*)?"
                         r"(?:each|apiece|per (?:NIC|port|card|link|rail)|每张|每块|每个)?\s*[)）]", re.IGNORECASE)

# a node's total just before a breakdown in brackets, in the short ways the rate reader takes for no rate ('1.6T')
_TOTAL_BEFORE = re.compile(r"(?P<t>\d+(?:\.\d+)?)\s*(?P<u>T|G)(?:bps|b/s|bit/s|b|bits)?\s*[(（]\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Rate:
    """One rate as the reader found it: where it is, its value in Gb/s, and the count written before it ('8×')."""

    start: int
    end: int
    gbps: float
    mult: int | None


@dataclass
class Restated:
    """What the pairs say: rates to drop (the other way of writing one said beside them), breakdowns to read as NICs
    of a rate (never a measurement), and unit-less breakdowns after a total (start → count, per-NIC Gb/s, span)."""

    dropped: set[int] = field(default_factory=set)
    breakdowns: set[int] = field(default_factory=set)
    splits: dict[int, tuple[int, float, int, int]] = field(default_factory=dict)


# the rates a NIC port is sold at: a breakdown into NICs is so many of one of these ('4 × 9.4 Gbits/sec' is streams)
_PORT_RATES = {1.0, 10.0, 25.0, 40.0, 50.0, 56.0, 100.0, 200.0, 400.0, 800.0}


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 0.025 * max(a, b)


def restated_rates(text: str, rates: list[Rate]) -> Restated:
    """Pairs of rates that are one quantity written twice, the second in brackets right after the first."""
    out = Restated()
    for first, second in zip(rates, rates[1:], strict=False):
        between = text[first.end:second.start]
        if not (_OPENS.fullmatch(between) or _SAYS_SAME.fullmatch(between)) or second.start - first.end > 16:
            continue
        total_first, total_second = first.gbps * (first.mult or 1), second.gbps * (second.mult or 1)
        if not _same(total_first, total_second):
            continue
        if bool(first.mult) != bool(second.mult) and (first if first.mult else second).gbps in _PORT_RATES:
            # a node's total and its NICs: the breakdown is the NICs' rate and count, the total none of one NIC's
            split, total = (first, second) if first.mult else (second, first)
            out.dropped.add(total.start)
            out.breakdowns.add(split.start)
        elif not first.mult and not second.mult:
            out.dropped.add(second.start)  # '56G (7G Byte)': the same rate in bytes, no second figure
    for r in rates:
        said = _TOTAL_BEFORE.search(text, max(0, r.start - 16), r.start) if r.mult else None
        said_gbps = float(said["t"]) * (1000 if said["u"].upper() == "T" else 1) if said else 0.0
        if said and r.gbps in _PORT_RATES and _same(said_gbps, r.gbps * (r.mult or 1)):
            out.breakdowns.add(r.start)  # '节点总带宽 1.6T（8×200G）': a total read as no rate, then the NICs
        m = _BARE_SPLIT.match(text, r.end)
        if m and r.mult is None and float(m["s"]) in _PORT_RATES and _same(int(m["n"]) * float(m["s"]), r.gbps):
            out.splits[r.start] = (int(m["n"]), float(m["s"]), m.start("n"), m.end())
    return out
