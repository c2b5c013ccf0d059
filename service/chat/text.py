"""Where a match sits in a question: its clause, its sentence, the words near it.

Extraction decides what a number means from the words around it ('iperf3 shows 3.2 Gbits/sec' is a
measurement, 'a 25GbE NIC' a rating), so every extractor needs the same notion of 'nearby'.
"""

import re
from bisect import bisect_left, bisect_right
from functools import lru_cache

# Sentence ends: Chinese and English full stops (not decimal points), question and exclamation marks,
# semicolons and line breaks. Clause ends add commas and the Chinese enumeration comma.
_SENTENCE_END = re.compile(r"[。！？!?；;\n]|\.(?!\d)(?=\s|$)")
_CLAUSE_END = re.compile(r"[。！？!?；;\n，,、—–]|\.(?!\d)(?=\s|$)")  # a dash sets a clause apart too
# Words that put what follows in the past ('used to', 'previously', '以前', '上次'): one table for the readers that set
# a past value aside (scopes' superseded values, extract's pronoun step times).
PAST = re.compile(r"(?<![A-Za-z])(?:used to|previously|before|earlier|formerly|last (?:week|month|time|year))"
                  r"(?![A-Za-z])|以前|之前|原来|原先|本来|过去|上周|上个月|上次", re.IGNORECASE)


_HARD_BREAK = re.compile(r"[。！？!?；;:：.]\s*$")
# en-s12b a launcher's line with its options ends there: the next line is the asker's ('… --node_rank=0 main.py' then
# 'GPU utilization is about 40%'), not more arguments
# (or the last of its lines, '  --nproc_per_node 8 a.py'; a line continued with a backslash goes on)
_COMMAND_LINE = re.compile(r"(?:\s*(?:\$\s*)?(?:torchrun|python3?|deepspeed|accelerate\s+launch|srun|mpirun|mpiexec|"
                           r"horovodrun)\s(?=(?:.*\s)?--?[A-Za-z])|\s+--[A-Za-z])(?!.*\\\s*$)")
# s13 thread: a line quoted as markdown ('> with 16 nodes we see 1.9 s per step') is a reply of its own: it ends there
_QUOTE_LINE = re.compile(r"[ \t]*>")
_LIST_ITEM = re.compile(r"\s*(?:[-*•>#|]|\d+[.)、]|[（(]?\d+[)）])\s|"
                        # s11 labelled lines: a template's 'GPU: 8 x H100', '网络：100G IB', '【问题】', '**Hardware**'
                        r"\s*(?:[【\[]|\*\*)|"
                        r"\s*(?-i:[A-Z\u4e00-\u9fff])[\w/()（）.+-]*(?:[ \t][\w/()（）.+-]+){0,2}[:：][ \t]*\S|"
                        # s14 a run's record, its label then a figure ('two nodes - 1500 samples/s', '2 nodes: 0.8 s')
                        r"\s*[\w()（）.+]+(?:[ \t][\w()（）.+]+){0,2}[ \t]*"
                        r"(?:[:：][ \t]*[~≈]?\d|[ \t][-–—][ \t](?=[^\n]{0,20}\d))")


# Apostrophes as people type them: curly ones (phones, word processors, forum copy) and none at all ('dont', 'isnt'),
# so that every reader's "don't" and "isn't" hear the same negation.
_CURLY = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\uff07": "'"})
_BARE_CONTRACTION = re.compile(r"(?<![A-Za-z'])(?P<stem>is|are|was|were|do|does|did|have|has|had|ca|wo|could|would|"
                               r"should|must|need)nt(?![A-Za-z'])", re.IGNORECASE)


def normalise_apostrophes(text: str) -> str:
    """Straight apostrophes, and the one left out of a negative contraction put back ('isnt' → "isn't")."""
    text = text.translate(_CURLY)
    return _BARE_CONTRACTION.sub(lambda m: f"{m['stem']}n't", text) if "nt" in text else text


# cnt 'graphics cards', 'video cards', 'a graphic card': a GPU said in a gamer's words (Chinese says 显卡, read already)
_GPU_IN_WORDS = re.compile(r"(?<![A-Za-z])(?:graphics?|video)[ -]cards?(?![A-Za-z])", re.IGNORECASE)


# cnt 'multi node training', 'multi machine', 'multi GPU': the prefix written apart from its noun, as 'multi-node'
_MULTI_APART = re.compile(r"(?<![A-Za-z])(multi) (?=(?:nodes?|machines?|hosts?|servers?|GPUs?)(?![A-Za-z]))",
                          re.IGNORECASE)


def gpu_words(text: str) -> str:
    """'3 graphics cards' read as '3 GPUs' (padded with spaces after: same length, so spans hold), so every count and
    comparison reader that knows 'GPUs' reads the gamer's word too; 'multi node' is read as 'multi-node' (same
    length)."""
    if "multi " in text.lower():
        text = _MULTI_APART.sub(r"\1-", text)
    if "card" not in text.lower():
        return text
    return _GPU_IN_WORDS.sub(lambda m: ("GPUs" if m.group(0)[-1] in "sS" else "GPU").ljust(len(m.group(0))), text)


# Full-width forms as Chinese input methods type them ('１００Ｇ', 'ｎｃｃｌ', 'IFNAME＝eth0', '９０％'): their
# ASCII letters, digits and the signs a figure or a setting is written with, one character for one so that every
# span read stays where it was. Full-width punctuation of the prose (，：（）；！？) stays: the readers hear it as such.
_WIDE = str.maketrans({**{chr(0xFF10 + i): chr(0x30 + i) for i in range(10)},
                       **{chr(0xFF21 + i): chr(0x41 + i) for i in range(26)},
                       **{chr(0xFF41 + i): chr(0x61 + i) for i in range(26)},
                       "\uff05": "%", "\uff1d": "=", "\uff0b": "+", "\uff0e": ".", "\uff0f": "/",
                       "\uff3f": "_",
                       "\uff0d": "-", "\uff03": "#", "\uff20": "@"})
_ANY_WIDE = re.compile(r"[\uff03\uff05\uff0b\uff0d-\uff19\uff1d\uff20-\uff3a\uff3f\uff41-\uff5a]")


def normalise_width(text: str) -> str:
    """Full-width letters, digits and figure signs as their ASCII forms, same length ('１００Ｇ' → '100G')."""
    return text.translate(_WIDE) if _ANY_WIDE.search(text) else text


# cnt a title: a short first line with no stop, the body after it starting a sentence of its own ('Multi-node
# training slower than single node' over 'Using 2 nodes x 8 H800, …'): its break ends a sentence, so 'than' never takes
# the body's first words as the run compared with
# (English only: Chinese prose wraps at about seventy characters, so a short first line there is no sign of a title)
_STARTS_A_SENTENCE = re.compile(r"\s*[A-Z](?![a-z]*\s+(?:and|or|of|with|to|in|on)\b)")
_CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def _a_title(line: str, following: str) -> bool:
    return len(line.strip()) <= 72 and not _CJK.search(line) and bool(_STARTS_A_SENTENCE.match(following))


def soften_line_breaks(text: str) -> str:
    """Line breaks inside a wrapped sentence become spaces (same length), so a sentence is read whole.

    A break stays when it ends a sentence, precedes a blank line or a list item, or follows a colon.
    """
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        out.append(line)
        if i == len(lines) - 1:
            break
        following = lines[i + 1]
        soft = (line.strip() and following.strip() and not _HARD_BREAK.search(line)
                and not _LIST_ITEM.match(following) and not _COMMAND_LINE.match(line)
                and not _QUOTE_LINE.match(line) and not (i == 0 and _a_title(line, following)))
        out.append(" " if soft else "\n")
    return "".join(out)


@lru_cache(maxsize=64)
def _ends(text: str, pattern: re.Pattern[str]) -> tuple[list[int], list[int]]:
    """Where each terminator starts and ends, computed once per text (every reader asks many times)."""
    starts, ends = [], []
    for m in pattern.finditer(text):
        starts.append(m.start())
        ends.append(m.end())
    return starts, ends


def _bounds(text: str, pos: int, pattern: re.Pattern[str]) -> tuple[int, int]:
    starts, ends = _ends(text, pattern)
    # the last terminator ending at or before pos opens this span; the first one at or after pos closes it
    i = bisect_right(ends, pos)
    start = ends[i - 1] if i else 0
    j = bisect_left(starts, pos)
    end = ends[j] if j < len(starts) else len(text)
    return start, end


def sentence_bounds(text: str, pos: int) -> tuple[int, int]:
    """Start and end of the sentence holding `pos` (the end includes its terminator)."""
    return _bounds(text, pos, _SENTENCE_END)


def clause_bounds(text: str, pos: int) -> tuple[int, int]:
    """Start and end of the comma-level clause holding `pos`."""
    return _bounds(text, pos, _CLAUSE_END)


def clause(text: str, pos: int) -> str:
    """The comma-level clause holding `pos`."""
    a, b = clause_bounds(text, pos)
    return text[a:b]


def sentence(text: str, pos: int) -> str:
    """The sentence holding `pos`."""
    a, b = sentence_bounds(text, pos)
    return text[a:b]


def before(text: str, pos: int, width: int, *, same_clause: bool = True) -> str:
    """Up to `width` characters before `pos`, cut at the clause start when asked."""
    a = clause_bounds(text, pos)[0] if same_clause else 0
    return text[max(a, pos - width):pos]


def after(text: str, pos: int, width: int, *, same_clause: bool = True) -> str:
    """Up to `width` characters after `pos`, cut at the clause end when asked."""
    b = clause_bounds(text, pos)[1] if same_clause else len(text)
    return text[pos:min(b, pos + width)]


def nearest_cue(text: str, start: int, end: int, cues: dict[str, re.Pattern[str]],
                *, window: int = 60, scope: str = "clause", barrier: re.Pattern[str] | None = None) -> str | None:
    """The label of the cue closest to text[start:end] within its clause (or sentence), or None.

    Used where one sentence holds two numbers of the same kind ('3 s on one node, 9.5 s on eight');
    a cue on the far side of `barrier` ('vs', 'but') belongs to the other number.
    """
    a, b = clause_bounds(text, start) if scope == "clause" else sentence_bounds(text, start)
    a, b = max(a, start - window), min(b, end + window)
    best: tuple[int, str] | None = None
    for label, pattern in cues.items():
        for m in pattern.finditer(text, a, b):
            if m.end() <= start:
                distance = start - m.end()
            elif m.start() >= end:
                distance = m.start() - end
            else:
                continue
            between = text[m.end():start] if m.end() <= start else text[end:m.start()]
            if barrier is not None and barrier.search(between):
                continue
            if best is None or distance < best[0]:
                best = (distance, label)
    return best[1] if best else None


# A line said to be missing is no line of the log: '日志里从来没有 `via NET/IB/0/GDRDMA`', 'never shows "Using
# network IB"' (searched in the few words before the line quoted)
ABSENT_BEFORE = re.compile(r"(?:没有|没|不是|而不是|(?<![A-Za-z])(?:no|not|never|without|instead of|rather than|n't))"
                           r"\s*(?:(?:any|even|once|ever)\s+)?(?:(?:see|seen|show|shows|showed|print|prints|printed|get|got|"
                           r"find|found|contain|contains|have|has|had)\s+(?:the\s+|a\s+|any\s+)?|看到|出现|显示|打印)?"
                           r"\W{0,3}(?:via\s+)?$", re.IGNORECASE)
_OPENING_QUOTE = re.compile(r"['\"`“‘][^'\"`“”‘’\n]{0,120}$")


def said_absent(text: str, start: int) -> bool:
    """Whether the words just before `start`, or before the quote `start` lies in, say the thing is missing."""
    if ABSENT_BEFORE.search(text, max(0, start - 40), start):
        return True
    quote = _OPENING_QUOTE.search(text, max(0, start - 121), start)
    return bool(quote and ABSENT_BEFORE.search(text, max(0, quote.start() - 40), quote.start()))


# A share of a whole said in per cent or in words: '40%', 'half', 'a third', '一半', '三分之二' (the value in per cent)
_SHARE_WORDS = {"half": 50.0, "a third": 33.3, "third": 33.3, "two thirds": 66.7, "a quarter": 25.0, "quarter": 25.0,
                "three quarters": 75.0, "一半": 50.0, "一大半": 60.0, "三分之一": 33.3, "三分之二": 66.7,
                "四分之一": 25.0, "四分之三": 75.0, "大半": 60.0}
SHARE = (r"(?:(?<![\d.])\d{1,3}(?:\.\d+)?\s*%|(?<![A-Za-z])(?:(?:a|one)\s+)?(?:half|third|quarter)(?![A-Za-z])|"
         r"(?<![A-Za-z])(?:two thirds|three quarters)(?![A-Za-z])|一大半|大半|一半|三分之[一二]|四分之[一三])")


def share_value(said: str) -> float | None:
    """The per cent a SHARE says ('40 %' → 40, 'a third' → 33.3, '一半' → 50); None for anything else."""
    said = re.sub(r"\s+", " ", said.strip().lower())
    if said.endswith("%"):
        return float(said[:-1].strip())
    return _SHARE_WORDS.get(said) or _SHARE_WORDS.get(said.removeprefix("a ").removeprefix("one "))


# The words that set a setting to its value, between its name and the figure: 'is', '=', 'set to', 'is set to',
# '设为', '设成', '我设的是', '调到了', '改成', '开到', '用的是' (after an adverb of limit or sameness: '只能设置为',
# '都是')
SET_TO = (r"(?:(?:都|也|只能|只|仅|最多|还是|一直|默认)\s*)?"
          r"(?:(?:我们?|我这边)?\s*(?:设(?:置|定)?|调(?:大|小|整)?|改|开|配(?:置)?)\s*(?:成|为|到|置为|置成)?\s*(?:了|的)?\s*"
          r"(?:是|为)?|用(?:的是|了)|(?<![A-Za-z])(?:(?:is|was|are|were)\s+(?:set|configured)\s+(?:to|at)|(?:set|configured)\s+"
          r"(?:to|at)|is|was|are|of)(?![A-Za-z])|=|:|：|为|是|"
          r"(?:(?<=size )|(?<=size)|(?<=GPU )|(?<=device )|(?<=card )|(?<=rank ))to(?![A-Za-z]))?\s*")
