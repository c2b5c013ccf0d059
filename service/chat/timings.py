"""Where the time of a step goes, in the forms the other readers leave.

Each reader follows extract.py's conventions: it runs over the masked prose and returns `Understood` hits made with
`_hit` / `_hit_span`; a clause that only asks ('is 40% communication normal?') says nothing.

  - communication's share said with the figure first ('42.6 % communication overhead', '85% comms time',
    '通信开销 30%' is extract's) → job.comm_time_pct
  - communication's share said with the figure after its name ('comm overhead ~50%', 'communication overhead of 55%
    per step'), or as what it takes of the step ('communication takes 40% of it') → job.comm_time_pct
  - a scaling efficiency said as a fraction ('线性度只有 0.6', 'scaling efficiency at 8 nodes is 0.55') →
    job.scaling_efficiency_pct in per cent
  - a communication op of a profile named by its op ('send_op', 'recv', 'send/recv', 'pipe_send_output', 'ncclSend')
    taking a share of each step or mini-batch ('`send_op` 占了每个 mini-batch 90% 的时间', 'the send op takes 70% of
    every mini-batch') → job.comm_time_pct
"""

from __future__ import annotations

import re

from bwdoctor.chat import text as tx
from bwdoctor.chat.extract import Understood, _hit_span, extractor
from bwdoctor.chat.units import MULTIPLE_WORDS, parse_number

_IC = re.IGNORECASE
_ASKS = re.compile(r"是否|是不是|正常吗|吗|[?？]|(?<![A-Za-z])(?:should|would|could|whether|is it normal|expected)"
                   r"(?![A-Za-z])", _IC)
_PCT = rf"(?P<pct>{tx.SHARE})"  # in per cent or in words ('通信时间占比三分之二')
_ABOUT = (r"(?:(?:about|around|roughly|nearly|almost|over|more than|~|≈|大约|大概|约|近|将近|差不多|超过|接近)\s*)?")
# what communicates, by name: the words, the collectives, and the send / receive ops a profiler lists
_COMM_OP = (r"(?:NCCL|通信|集合通信|梯度同步|communication|comms?|all[-_ ]?reduce|allreduce|reduce[-_ ]?scatter|"
            r"all[-_ ]?gather|"
            r"`?(?:send|recv|receive)(?:_op|_grad|_output|_activation)?`?(?:\s*/\s*(?:recv|receive)(?:_op)?)?|"
            r"`?pipe_(?:send|recv)\w*`?|nccl(?:Send|Recv|AllReduce|Kernel)\w*|p2p\s+(?:send|recv)\w*)")
# the unit of work the share is of: a step, an iteration, a (mini-)batch, the whole run
_OF_STEP = (r"(?:每个|每一个|每|整个|总的?|一个)?\s*(?:mini-?batch|batch|step|iteration|iter|迭代|训练|步|运行)?\s*"
            r"(?:时间|耗时)?")
_SHARE_FIGURE_FIRST = re.compile(
    rf"(?<![\d.]){_ABOUT}{_PCT}\s*(?:of\s+(?:the\s+|each\s+|every\s+)?(?:step|iteration|step time|time)\s+"
    rf"(?:is\s+|was\s+)?)?"
    rf"(?:communication|comms?|NCCL|all[-_ ]?reduce)\s*(?:overhead|time|share|cost)(?![A-Za-z])", _IC)
_OP_TAKES = [
    # '`send_op` 占了每个 mini-batch 90% 的时间', 'send/recv 占每个 step 的 60%'
    re.compile(rf"{_COMM_OP}[^，,。；;\n%\d]{{0,10}}?(?:占了?|占用了?|占到了?|花了|用了)\s*{_OF_STEP}\s*(?:的)?\s*{_ABOUT}"
               rf"{_PCT}\s*(?:的)?\s*(?:时间|耗时|时长)?", _IC),
    # 'the send op takes 70% of every mini-batch'
    re.compile(rf"(?<![A-Za-z]){_COMM_OP}(?:\s+op(?:eration)?s?)?\s+(?:takes?|took|accounts? for|occup(?:ies|y|ied)|"
               rf"consumes?|eats?(?: up)?)\s+{_ABOUT}{_PCT}\s*of\s+(?:(?:the\s+|each\s+|every\s+|a\s+)?"
               rf"(?:mini-?batch|batch|step|iteration)(?![A-Za-z])|"
               # 'step time 30s, communication takes 40% of it': the step named just before
               rf"(?:it|that|this|the (?:step )?time|the total|the runtime|total time|"
               rf"wall[- ]?(?:clock )?time)(?![A-Za-z]))",
               _IC),
]
# 'comm overhead ~50%', 'communication overhead of 55% per step', 'NCCL time: 35 %': the share after the name; a figure
# of change ('50% lower') or of another whole ('50% of the compute') is none
_SHARE_NAME_FIRST = re.compile(
    rf"(?<![A-Za-z])(?:communication|comms?|NCCL|all[-_ ]?reduce)\s+(?:overhead|time|share|cost)\s*"
    rf"(?:(?:is|was|of|at|:|：|=)\s*)*{_ABOUT}{_PCT}"
    r"(?!\s*(?:lower|higher|less|more|reduction|increase|faster|slower|improvement|drop|better|worse|"
    r"of (?:the )?(?:compute|computation|forward|backward|bandwidth|peak|line)))", _IC)
# '通信开销大约 40%', 'NCCL 耗时占比 35%' (what a change did to it, '通信时间降低了 30%', is none)
_SHARE_NAME_FIRST_ZH = re.compile(rf"(?:通信|NCCL|all[-_ ]?reduce)\s*(?:的)?\s*(?:开销|耗时|时间)\s*(?:占比)?\s*"
                                  rf"(?:是|为|有|:|：)?\s*{_ABOUT}{_PCT}", _IC)
_EFFICIENCY_FRACTION = re.compile(
    r"(?:(?<![A-Za-z])(?:scaling|parallel)\s+efficiency|扩展效率|并行效率|加速效率|线性度)\s*"
    r"(?:(?:at|on|with|for|across)\s+\d{1,4}\s*(?:nodes?|machines?|GPUs?|servers?)\s*)?"
    r"(?:(?:is|was|of|=|:|：|只有|仅有|仅|才|为|是|约|大约|大概|只|不到|掉到|降到|only|just|about|around|roughly|~)\s*)*"
    r"(?P<r>0?\.\d{1,3}|1\.0+)(?![\d.%]|\s*(?:x|×|倍|s\b|秒))", _IC)
_WANTED = re.compile(r"goal|target|aim|hope|want|expect|should|at least|ideally|"
                     r"达到|希望|期望|目标|至少|要求|理想|应该", _IC)
# a share of bandwidth or of a device's capacity is no share of time
_NOT_TIME = re.compile(r"line[- ]?rate|bandwidth|peak|busbw|algbw|Gb/s|GB/s|util|利用率|带宽|线速|theoretical|"
                       r"理论", _IC)


@extractor
def comm_share_said_otherwise(text: str) -> list[Understood]:
    """'42.6 % communication overhead', '`send_op` 占了每个 mini-batch 90% 的时间' → job.comm_time_pct."""
    hits: list[Understood] = []
    for pattern in [_SHARE_FIGURE_FIRST, _SHARE_NAME_FIRST, _SHARE_NAME_FIRST_ZH, *_OP_TAKES]:
        for m in pattern.finditer(text):
            pct = tx.share_value(m["pct"])
            if pct is None or not 0 < pct <= 100 or _NOT_TIME.search(m.group(0) + tx.after(text, m.end(), 8)) \
                    or _ASKS.search(tx.clause(text, m.start("pct"))):
                continue
            if any(h.start <= m.start("pct") < h.end for h in hits):
                continue
            hits.append(_hit_span("job.comm_time_pct", pct, text, m.start("pct"), m.end("pct")))
    return hits


@extractor
def efficiency_as_a_fraction(text: str) -> list[Understood]:
    """'线性度只有 0.6', 'scaling efficiency at 8 nodes is 0.55' → job.scaling_efficiency_pct 60, 55."""
    hits: list[Understood] = []
    for m in _EFFICIENCY_FRACTION.finditer(text):
        share = float(m["r"])
        clause = tx.clause(text, m.start())
        if 0 < share <= 1 and not _WANTED.search(clause) and not _ASKS.search(clause):
            hits.append(_hit_span("job.scaling_efficiency_pct", round(share * 100, 1), text, m.start("r"), m.end("r")))
    return hits


# cmp-s10 times apart: communication's and the compute's (or the whole step's) times said apart in a sentence:
# '通信耗时 800ms，计算 400ms', '一步 3 秒，通信要 1.8 秒', 'allreduce takes 1.8 s of a 3 s step', 'step time 3s, of
# which NCCL is 1.8s' → job.comm_time_pct, communication ÷ the step (÷ communication + compute when the step is
# unsaid, as if nothing overlapped). A time wished for or supposed ('should take 0.5 s', '如果通信 1 秒') is none.
_TIME = re.compile(r"(?<![\d.])(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>ms|毫秒|s|秒|secs?|seconds?)(?![A-Za-z/])", _IC)
_MILLISECONDS = re.compile(r"ms|毫秒")
_ROLE_COMM = re.compile(_COMM_OP, _IC)
_ROLE_COMPUTE = re.compile(r"计算|(?<![A-Za-z])(?:compute|computation|forward\s*(?:\+|and|/|&)\s*backward|"
                           r"fwd\s*(?:\+|/|&)\s*bwd)(?![A-Za-z])|前向\s*(?:\+|和|加)?\s*反向|前反向", _IC)
_ROLE_STEP = re.compile(r"一步|每步|每一步|(?:每|一)个?\s*(?:step|迭代|iter(?:ation)?)|一次迭代|"
                        r"(?<![A-Za-z])(?:(?:a|one|each|"
                        r"every|per)\s+)?(?:step|iteration|iter)(?:\s*time)?(?![A-Za-z])", _IC)
_SUPPOSED = re.compile(r"如果|假如|假设|应该|理论|预期|期望|"
                       r"(?<![A-Za-z])(?:if|should|would|expect\w*|ideally|in theory|"
                       r"supposed|target)(?![A-Za-z])", _IC)


def _role(text: str, lo: int, m: re.Match[str]) -> str | None:
    """Which time a duration is: the last role named in the few words before it, else a step named right after it."""
    before = text[max(lo, m.start() - 24):m.start()]
    roles = (("comm", _ROLE_COMM), ("compute", _ROLE_COMPUTE), ("step", _ROLE_STEP))
    found = [(r.end(), name) for name, pattern in roles for r in pattern.finditer(before)]
    if found:
        return max(found)[1]
    if re.match(r"\s*(?:的\s*)?(?:step|iteration|iter)(?![A-Za-z])|\s*(?:per|a|each)\s+(?:step|iteration)",
                text[m.end():], _IC):
        return "step"
    return None


@extractor
def comm_and_compute_times(text: str) -> list[Understood]:
    """'通信耗时 800ms，计算 400ms', 'allreduce takes 1.8 s of a 3 s step' → job.comm_time_pct 66.7, 60."""
    for sa, sb in _sentences(text):
        times: dict[str, tuple[float, re.Match[str]]] = {}
        lo = sa
        for m in _TIME.finditer(text, sa, sb):
            role = _role(text, lo, m)
            lo = m.end()
            unit = m["unit"].lower()
            seconds = float(m["num"]) / (1000 if _MILLISECONDS.fullmatch(unit) else 1)
            if role and role not in times and seconds > 0:
                times[role] = (seconds, m)
        if "comm" not in times or not times.keys() & {"step", "compute"} or _SUPPOSED.search(text, sa, sb) \
                or _ASKS.search(text[sa:sb]) and not re.search(r"[，,。.;；]", text[sa:sb]):
            continue
        comm, m = times["comm"]
        whole = times["step"][0] if "step" in times else comm + times["compute"][0]
        if 0 < comm < whole:
            pct = round(100 * comm / whole, 1)
            return [_hit_span("job.comm_time_pct", pct, text, m.start(), m.end(), inferred=True)]
    return []


# communication's time as a multiple of the compute's: 'NCCL time is 3x the compute time', 'comm takes twice as long as
# compute', '通信时间是计算时间的 3 倍' → job.comm_time_pct, r ÷ (r + 1), as if nothing overlapped
_RATIO = r"(?P<r>\d+(?:\.\d+)?)\s*(?:x|×|times|倍)|(?P<w>twice|two times|three times|thrice|four times)"
_COMM_TIMES_COMPUTE = re.compile(
    rf"(?<![A-Za-z]){_COMM_OP}\s*(?:time|耗时|时间|的时间)?\s*(?:is|was|takes?|took|are|were|是|要|有|约|大约|大概)?\s*"
    rf"(?:about\s+|around\s+|roughly\s+|nearly\s+|~\s*)?(?:{_RATIO})\s*(?:as long as|longer than|the|of)?\s*(?:the\s+)?"
    r"(?:compute|computation|forward\s*(?:\+|and|/)\s*backward|fwd\s*\+\s*bwd)(?:\s+time)?(?![A-Za-z])|"
    rf"(?:通信|NCCL|all[-_ ]?reduce)\s*(?:的)?\s*(?:时间|耗时)?\s*(?:是|约是|大约是|差不多是)\s*"
    r"(?:计算|前反向|前向\s*\+?\s*反向)\s*"
    r"(?:时间|耗时)?\s*的\s*(?:(?P<zr>\d+(?:\.\d+)?)|(?P<zw>[两三四五]))\s*倍", _IC)


@extractor
def comm_as_a_multiple_of_compute(text: str) -> list[Understood]:
    """'NCCL time is 3x the compute time' → job.comm_time_pct 75."""
    for m in _COMM_TIMES_COMPUTE.finditer(text):
        said = m["r"] or m["zr"]
        words = m["w"] or ""
        ratio = float(said) if said else parse_number(m["zw"]) if m["zw"] else MULTIPLE_WORDS.get(words.lower())
        clause = tx.clause(text, m.start())
        if not ratio or ratio <= 0 or _SUPPOSED.search(clause) or _ASKS.search(clause):
            continue
        at = m.start("r") if m["r"] else m.start("zr") if m["zr"] else m.start()
        return [_hit_span("job.comm_time_pct", round(100 * ratio / (ratio + 1), 1), text, at, m.end(), inferred=True)]
    return []


def _sentences(text: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for m in re.finditer(r"[。！？!?;；\n]|\.(?=\s|$)", text):
        spans.append((start, m.end()))
        start = m.end()
    if start < len(text):
        spans.append((start, len(text)))
    return spans
