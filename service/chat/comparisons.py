"""Scaling comparisons: the most telling symptom there is, read as facts.

'Two machines are slower than one', 'it gets worse with every node I add', '3 hours on one box, 5 hours
on two', '单机一个 epoch 20 分钟，两台反而要 35 分钟', '慢了大约 8 倍' — each says how the job scales:
  job.negative_scaling  the larger run is slower than the smaller one (or worsens with every node)
  job.speedup           throughput of the job ÷ throughput of the baseline (baseline time ÷ job time)
  job.baseline_nodes / job.baseline_gpus   the size of the smaller run
The baseline side's counts are returned too, so the caller keeps them from overriding the job's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from service.chat import text as tx
from service.chat.counts import COUNT, _count
from service.chat.entities import GPU_MARK
from service.chat.extract import Understood
from service.chat.units import time_to_seconds

_IC = re.IGNORECASE

_SMALL = (r"(?:a single|single|one|1|单|一)\s*(?:-|\s)?(?:台|个)?\s*(?:node|machine|server|box|host|instance|GPU|card|"
          r"机器|服务器|节点|机|卡|张卡|GPU)|单机(?:单卡|多卡)?|单节点|单卡|单台|一台")
_SLOWER_THAN_ONE = re.compile(
    rf"(?:slower|worse|longer|less throughput|lower throughput)\s+(?:than|compared (?:to|with))\s+(?:on\s+|with\s+|using\s+|"
    rf"running on\s+|training on\s+)?(?:just\s+|only\s+)?(?:a\s+)?(?P<small>{_SMALL})"
    rf"|(?:比|不如|还不如|赶不上|没有)\s*(?P<small2>{_SMALL})\s*(?:的)?\s*(?:还|都|更)?\s*(?:慢|差|低|快)"
    rf"|(?:反而|竟然|居然|却)\s*(?:更|还|变)?(?:慢|低|差)(?:了)?", _IC)
_WORSE_WITH_MORE = re.compile(
    r"(?:gets?|got|getting|becomes?|grows?)\s+(?:even\s+)?(?:worse|slower|longer)\s+(?:with|for)\s+(?:every|each)\s+"
    r"(?:node|machine|server|GPU|worker)|(?:the more|more) (?:nodes|machines|GPUs|servers)[^.。]{0,30}(?:slower|worse|"
    r"longer)|slow(?:s)? down as (?:we|I) add|negative scaling|scales? negatively|越加越慢|越多越慢|加(?:了)?(?:机器|节点|卡)"
    r"(?:以后|之后|后)?(?:反而|却)?(?:更|变)慢|(?:机器|节点|卡)越多[^。，,]{0,8}(?:越慢|反而慢)|"
    r"(?:slower|worse) (?:on|with) (?:more|additional) (?:nodes|machines|GPUs)", _IC)
_TIMES_SLOWER = re.compile(
    r"(?P<k>\d+(?:\.\d+)?)\s*(?:x|×|times|倍)\s*(?:slower|longer|more time)|慢了?\s*(?:大约|约|近|将近|差不多)?\s*"
    r"(?P<k2>\d+(?:\.\d+)?)\s*倍|(?P<k3>\d+(?:\.\d+)?)\s*倍(?:的)?(?:时间|慢)", _IC)

# A duration or a rate, with the size of the run it belongs to nearby.
_DURATION = re.compile(r"(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>h|hrs?|hours?|小时|个小时|min|mins|minutes?|分钟|s|sec|secs|"
                       r"seconds?|秒|ms|毫秒|days?|天)(?![A-Za-z/])(?!\s*/\s*(?:it|step|iter))", _IC)
_RATE = re.compile(r"(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>(?:img|imgs|images|samples|sample|seq|sequences|tokens|tok|"
                   r"it|its|iters?|steps?|examples)\s*/\s*(?:s|sec|second)|(?:张|样本|条|tokens?)\s*/\s*(?:s|秒)|"
                   r"samples? per second|images? per second|tokens? per second|it/s|s/it)", _IC)
_SIZE = re.compile(rf"(?P<n>{COUNT})\s*(?:-|\s)?(?:台|个)?\s*(?P<w>nodes?|machines?|servers?|boxes|box|hosts?|instances?|"
                   rf"GPUs?|cards?|机器|服务器|节点|机|卡|张卡|{GPU_MARK}+)|(?P<single>单机|单节点|单卡|单台|一台|"
                   rf"a single (?:node|machine|server|box|GPU)|single[- ](?:node|machine|server|box|GPU)|one (?:node|machine|"
                   rf"server|box|GPU))", _IC)
_HOURS = {"h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600, "小时": 3600, "个小时": 3600,
          "day": 86400, "days": 86400, "天": 86400}


@dataclass
class Scaling:
    """What the question says about scaling, as facts, and the spans they came from."""

    hits: list[Understood] = field(default_factory=list)
    baseline_spans: list[tuple[int, int]] = field(default_factory=list)


def read_scaling(text: str) -> Scaling:
    """Negative scaling, a speed-up from a pair of times or rates, and the baseline's size."""
    found = Scaling()
    for m in _SLOWER_THAN_ONE.finditer(text):
        small = m["small"] or m["small2"] or ""
        if re.search(r"快", m.group(0)) and not re.search(r"没有|不如|赶不上", m.group(0)):
            continue  # '比单机快': scaling, just not negative
        found.hits.append(Understood("job.negative_scaling", True, m.group(0), m.start(), m.end()))
        if small:
            fact = "job.baseline_gpus" if re.search(r"GPU|card|卡", small, _IC) else "job.baseline_nodes"
            found.hits.append(Understood(fact, 1, m.group(0), m.start(), m.end()))
            found.baseline_spans.append((m.start(), m.end()))
    for m in _WORSE_WITH_MORE.finditer(text):
        found.hits.append(Understood("job.negative_scaling", True, m.group(0), m.start(), m.end()))
    for m in _TIMES_SLOWER.finditer(text):
        k = float(m["k"] or m["k2"] or m["k3"])
        sentence = tx.sentence(text, m.start())
        if k > 1 and re.search(rf"{_SMALL}|than (?:on )?one|比|单机|multi|多机|node|machine|台|两机", sentence, _IC):
            found.hits.append(Understood("job.speedup", round(1 / k, 4), m.group(0), m.start(), m.end()))
            found.hits.append(Understood("job.negative_scaling", True, m.group(0), m.start(), m.end()))
    found.hits.extend(_pairs(text, found))
    return found


def _sizes(text: str, a: int, b: int) -> list[tuple[int, int, str, int, int]]:
    """(value, position, 'nodes'|'gpus', start, end) of the run sizes named in text[a:b]."""
    out = []
    for m in _SIZE.finditer(text, a, b):
        if m["single"]:
            kind = "gpus" if re.search(r"GPU|卡", m["single"], _IC) else "nodes"
            out.append((1, m.start(), kind, m.start(), m.end()))
            continue
        n = _count(m["n"])
        if not n:
            continue
        kind = "gpus" if re.search(rf"GPU|card|卡|{GPU_MARK}", m["w"], _IC) else "nodes"
        out.append((n, m.start(), kind, m.start(), m.end()))
    return out


def _pairs(text: str, found: Scaling) -> list[Understood]:
    """'3 hours on one box, 5 hours on two' / '单机 20 分钟，两台 35 分钟' / '128 img/s on one node, 17 on two'."""
    hits: list[Understood] = []
    for start, end in _sentence_spans(text):
        quantities = []
        for m in _DURATION.finditer(text, start, end):
            unit = m["unit"].lower()
            seconds = _HOURS.get(unit, 0) * float(m["num"]) or time_to_seconds(
                float(m["num"]), {"秒": "s", "毫秒": "ms", "分钟": "min"}.get(unit, unit))
            if seconds and not re.search(r"RTT|ping|latency|延迟|时延|timeout|超时", tx.before(text, m.start(), 14), _IC):
                quantities.append(("time", seconds, m.start(), m.end()))
        for m in _RATE.finditer(text, start, end):
            value = float(m["num"])
            if value <= 0:
                continue
            if re.match(r"s/it", m["unit"], _IC):
                quantities.append(("time", value, m.start(), m.end()))
            else:
                quantities.append(("rate", value, m.start(), m.end()))
        for kind in ("time", "rate"):
            same = [q for q in quantities if q[0] == kind]
            if len(same) != 2:
                continue
            (_, v1, a1, b1), (_, v2, a2, b2) = same
            s1, s2 = _size_near(text, a1, b1, start, a2), _size_near(text, a2, b2, b1, end)
            if s1 is None or s2 is None or s1[0] == s2[0] or s1[2] != s2[2]:
                continue
            (small_n, small_v, small_span), (big_n, big_v, big_span) = sorted(
                [(s1[0], v1, s1[3:]), (s2[0], v2, s2[3:])])
            speedup = small_v / big_v if kind == "time" else big_v / small_v
            span = (min(a1, a2), max(b1, b2))
            words = text[span[0]:span[1]]
            hits.append(Understood("job.speedup", round(speedup, 4), words, *span))
            fact = "job.baseline_gpus" if s1[2] == "gpus" else "job.baseline_nodes"
            hits.append(Understood(fact, small_n, text[small_span[0]:small_span[1]], *small_span))
            found.baseline_spans.append(small_span)
            if speedup < 1:
                hits.append(Understood("job.negative_scaling", True, words, *span))
            if s1[2] == "nodes":
                hits.append(Understood("job.nodes", big_n, text[big_span[0]:big_span[1]], *big_span))
    return hits


def _size_near(text: str, a: int, b: int, lo: int, hi: int) -> tuple[int, int, str, int, int] | None:
    """The run size closest to a quantity within its half of the sentence, preferring its own clause."""
    ca, cb = tx.clause_bounds(text, a)
    sizes = _sizes(text, max(lo, ca), min(hi, cb)) or _sizes(text, lo, hi)
    if not sizes:
        return None
    best = min(sizes, key=lambda s: min(abs(s[1] - a), abs(s[1] - b)))
    return best[0], best[1], best[2], best[3], best[4]


def _sentence_spans(text: str) -> list[tuple[int, int]]:
    spans, pos = [], 0
    while pos < len(text):
        a, b = tx.sentence_bounds(text, pos)
        spans.append((a, b))
        pos = max(b, pos + 1)
    # Two short sentences often hold the two sides ("On one box: 3 h. On two: 5 h."): pair neighbours too.
    return spans + [(spans[i][0], spans[i + 1][1]) for i in range(len(spans) - 1)]
