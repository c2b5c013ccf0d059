"""Memory in use said as an amount: its share of the capacity, for GPU memory and for the host's.

Why: users and training logs give memory as an amount, not as the percent the catalogue asks for, and
utilisation() (extract.py) skips a percent with another figure between it and its subject, so these
numbers were left unread (scripts/unread_numbers.py counts them):

  - an amount with its share beside it: 'VRAM usage 20GB (83%)', '显存占用 78GB（97%）',
    torchtitan's 'memory: 29.16GiB(36.87%)', 'peak memory: 243.86 GiB (95.3%)' → the share
  - an amount over the capacity: '显存 20G/24G', 'GPU memory: 75000MiB / 81559MiB', 'memory used 60GB of
    80GB', '显存占用 22G（共 24G）' → used ÷ capacity × 100

The memory named before the amount decides the fact: GPU memory (显存, VRAM, HBM, GPU memory, the CUDA
allocator's peak / reserved / allocated memory, the 'memory:' of a line of a training log beside its loss)
→ gpu.mem_used_pct; the host's (内存, RAM, host / system / CPU memory, plain 'memory') → mem.used_pct.
An amount with no memory named ('A100 80GB', 'a 53 GB checkpoint (90% of the disk)') says nothing.
"""

from __future__ import annotations

import re

from bwdoctor.chat import text as tx
from bwdoctor.chat.extract import Understood, _hit_span, extractor
from bwdoctor.chat.units import parse_range_mid, size_to_gbytes

_IC = re.IGNORECASE
_GPU_MEMORY = re.compile(r"显存|(?<![A-Za-z])(?:VRAM|HBM|GPU\s*mem(?:ory)?|device\s+memory|CUDA\s+memory|"
                         r"(?:peak|max(?:imum)?|reserved|allocated|max_reserved|max_allocated)[\s_]+mem(?:ory)?|"
                         r"mem(?:ory)?[\s_]+(?:reserved|allocated))(?![A-Za-z])", _IC)
_HOST_MEMORY = re.compile(r"(?<!显)内存|(?<![A-Za-z])(?:RAM|(?:host|system|CPU)\s+mem(?:ory)?|memory|mem)(?![A-Za-z])",
                          _IC)
# another measure named between the memory and the amount ('显存 24G，利用率 40%'): the amount is not the memory's
_OTHER_MEASURE = re.compile(r"利用率|使用率|(?<![A-Za-z])(?:util\w*|GPUs?|CPUs?|disk|checkpoint|model|batch|NIC|"
                            r"network)"
                            r"(?![A-Za-z])|磁盘|硬盘|模型|网卡|带宽|[;；。]", _IC)
# 'peak memory: 243.86 GiB (95.3%) -> 249-252 GiB (97-98.6%)': a figure that changed to another is not the current one
_CHANGED_TO = re.compile(r"\s*(?:->|→|=>|⟶|变成了?|涨到了?|升到了?|降到了?|(?<![A-Za-z])(?:to|becomes|became|grows to|"
                         r"rises to|"
                         r"goes to|went to)(?![A-Za-z]))\s*(?:about\s+|~|约|大约)?\d", _IC)
_LOG_LINE = re.compile(r"(?<![A-Za-z])(?:loss|step|iter(?:ation)?)\s*[:=]", _IC)
_TO = r"(?:-|~|～|–)"
_UNIT = r"(?:[KMGT]i?B|[GMT])(?![A-Za-z])"
_AMOUNT = rf"(?<![\w./])(?<!/\s)(?P<a>\d+(?:\.\d+)?)\s*(?P<ua>{_UNIT})?"
_FORMS = [
    # 'VRAM usage 20GB (83%)', 'memory: 29.16GiB(36.87%)', '显存占用 78GB（97%）'
    # (ranges: '249-252 GiB (97-98.6%)' → the middle)
    re.compile(rf"(?<![\w.])(?P<a>\d+(?:\.\d+)?)(?:\s*{_TO}\s*\d+(?:\.\d+)?)?\s*(?P<ua>{_UNIT})\s*[(（]\s*"
               rf"(?P<pct>\d{{1,3}}(?:\.\d+)?)(?:\s*%?\s*{_TO}\s*(?P<hi>\d{{1,3}}(?:\.\d+)?))?\s*%\s*[)）]", _IC),
    # '20G/24G', '75000MiB / 81559MiB', '11.2/12 GB', '60GB of 80GB', '70 of its 80 GB', '22G（共 24G）'
    re.compile(rf"{_AMOUNT}\s*(?:/|of\s+(?:its\s+|the\s+|their\s+)?|[(（]\s*(?:共|总共|总|一共|total|of)\s*)"
               rf"\s*(?P<b>\d+(?:\.\d+)?)\s*(?P<ub>{_UNIT})(?!\s*/\s*\d)"
               # '显存 40G/80G 两种版本', 'GPU memory 40GB/80GB variants': capacities to choose from, not in use
               r"(?!\s*(?:的?版本|两种|或|(?:versions?|variants?|or|models?)(?![A-Za-z])))", _IC),
]


def _memory_before(text: str, start: int) -> str | None:
    """The memory named just before the amount at `start` (same sentence, 40 characters), as its fact."""
    a = max(tx.sentence_bounds(text, start)[0], start - 40)
    window = text[a:start]
    best: tuple[int, str] | None = None
    for fact, pattern in (("gpu.mem_used_pct", _GPU_MEMORY), ("mem.used_pct", _HOST_MEMORY)):
        for s in pattern.finditer(window):
            if best is None or s.end() > best[0]:
                best = (s.end(), fact)
    if best is None or _OTHER_MEASURE.search(window, best[0]):
        return None
    plain = re.search(r"(?<![A-Za-z])(?:memory|mem)\s*[:=]?\s*$", window[:best[0]] + " ", _IC)
    if best[1] == "mem.used_pct" and plain \
            and not re.search(r"host|system|CPU|RAM|内存", window, _IC):
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", start)
        if _LOG_LINE.search(text[line_start:line_end if line_end >= 0 else len(text)]):
            return "gpu.mem_used_pct"  # a training log's 'memory:' beside its loss is the device's
    return best[1]


@extractor
def memory_amount_share(text: str) -> list[Understood]:
    """'VRAM usage 20GB (83%)', '显存 20G/24G', 'RAM 120/256 GB' → gpu.mem_used_pct / mem.used_pct."""
    hits: list[Understood] = []
    taken: list[tuple[int, int]] = []
    for form in _FORMS:
        for m in form.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            fact = _memory_before(text, m.start())
            if fact is None:
                continue
            if _CHANGED_TO.match(text, m.end()):
                continue
            if "pct" in m.groupdict():
                value = parse_range_mid(m["pct"], m["hi"]) or float(m["pct"])
            else:
                unit_b = m["ub"]
                used = size_to_gbytes(float(m["a"]), m["ua"] or unit_b)
                total = size_to_gbytes(float(m["b"]), unit_b)
                if used is None or not total:
                    continue
                value = round(used / total * 100, 1)
            if 0 <= value <= 100:
                hits.append(_hit_span(fact, value, text, m.start(), m.end()))
                taken.append((m.start(), m.end()))
    return hits
