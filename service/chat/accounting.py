"""Every number in a question is used or said to be not understood: never dropped, never misassigned in silence.

After the readers have run, the numbers of the prose that no fact, change, reference or comparison
claimed are listed, each with the words around it, so the reply can say 'I did not understand …' and
the user can restate it. Numbers inside pasted tool output, command lines and named things (GPU
models, versions, addresses) are accounted for by those layers and are not listed.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any

from bwdoctor.chat import text as tx

_CN = "一二两三四五六七八九十百千"
# ('一个' / '一次' alone is the article 'a', 'once': no figure to place)
_NUMBER = re.compile(rf"(?<![\w.])\d+(?:,\d{{3}})*(?:\.\d+)?|"
                     rf"(?<![{_CN}])(?!一(?:个|次)(?!小时|钟头))[{_CN}]{{1,6}}(?=\s*(?:台|张|块|个|卡|倍|小时|"
                     r"分钟|秒|机|节点|步|次|G|T|M|B))")


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def unaccounted(prose: str, used: list[tuple[int, int]], original: str | None = None) -> list[dict[str, Any]]:
    """The numbers of `prose` outside every used span, with the clause they sit in, quoted from `original` (the
    question as typed, of which `prose` is a masked copy of the same length) so that no mask reaches the reply."""
    covered = _merged(used)
    starts = [a for a, _ in covered]
    out = []
    for m in _NUMBER.finditer(prose):
        i = bisect_right(starts, m.start()) - 1
        if i >= 0 and m.start() < covered[i][1]:
            continue
        a, b = tx.clause_bounds(prose, m.start())
        source = original if original is not None and len(original) == len(prose) else prose
        context = _window(source, a, b, m.start(), m.end()).strip(" ，,。.;；\n")
        out.append({"text": m.group(0), "start": m.start(), "end": m.end(),
                    "context": re.sub(r"\s+", " ", context)})
    return out


def _window(source: str, a: int, b: int, start: int, end: int, reach: int = 30) -> str:
    """About `reach` characters either side of a number, within its clause [a, b), cut between words: a quote that
    begins inside a word ('00G IB NIC …' of '100G IB NIC …') reads as a different number. A cut side is marked '…'."""
    lo, hi = max(a, start - reach), min(b, end + reach)
    if lo > a and source[lo - 1].isascii() and source[lo - 1].isalnum() and source[lo].isalnum():
        space = source.find(" ", lo, start)
        lo = space + 1 if space >= 0 else start
    if hi < b and source[hi - 1].isascii() and source[hi - 1].isalnum() and source[hi].isalnum():
        space = source.rfind(" ", end, hi)
        hi = space if space >= 0 else end
    return ("…" if lo > a else "") + source[lo:hi] + ("…" if hi < b else "")
