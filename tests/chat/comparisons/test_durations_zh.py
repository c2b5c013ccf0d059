"""Durations in Chinese numerals: '单机一个 epoch 两个半小时，两机要四个小时' compares two runs as
plainly as '2.5 小时 … 4 小时' does. A generated battery of numerals × measure words × units × the two sides'
orders, with the traps beside it (a fraction '三分之一', an ordinal '第三天', a round '十几个小时'); and the
reply's list of numbers it could not place quotes whole words, never '00G …' cut out of '100G', and does not
list the article '一个'.

Written for this battery (not copied from the corpus).
"""

from __future__ import annotations

import itertools

import pytest

from bwdoctor.chat.accounting import unaccounted
from bwdoctor.chat.understanding import understand
from bwdoctor.chat.units import cn_durations_as_digits

# (as written, its value, the unit's seconds)
_NUMERALS = [("两", 2), ("三", 3), ("四", 4), ("十", 10), ("十二", 12), ("二十", 20), ("两个半", 2.5), ("三个半", 3.5)]
_UNITS = [("个小时", 3600), ("小时", 3600), ("天", 86400), ("分钟", 60)]


def _written(numeral: str, unit: str) -> str:
    return numeral + unit[1:] if numeral.endswith("个半") and unit.startswith("个") else numeral + unit


_FORMS = [(n, v, u) for (n, v), (u, _) in itertools.product(_NUMERALS, _UNITS)
          if not (n.endswith("半") and u not in ("个小时", "小时")) and not (n == "十" and not u.startswith("个"))]


@pytest.mark.parametrize(("numeral", "value", "unit"), _FORMS)
def test_a_duration_in_numerals_reads_as_its_digits(numeral: str, value: float, unit: str) -> None:
    text = "单机要" + _written(numeral, unit)
    rendered = cn_durations_as_digits(text)
    assert len(rendered) == len(text)
    figure = rendered[3:].split()[0].rstrip("个小时天分钟")
    assert float(figure) == value


# ('十天': '10' has no room in one character without a measure word; left as written, as a rough figure would be)
@pytest.mark.parametrize("text", ["三分之一的时间在通信", "第三天开始变慢", "十几个小时", "几个小时", "一个 epoch",
                                  "十天"])
def test_no_duration_where_there_is_none(text: str) -> None:
    assert cn_durations_as_digits(text) == text


_PAIRS = [("两", "四", 0.5), ("十", "八", 1.25), ("三", "五", 0.6), ("两个半", "四", 0.625)]
_SHAPES = ["单机一个 epoch {a}{u}，两机要{b}{u}", "一台机器训练要{a}{u}，两台机器要{b}{u}",
           "两机训练一个 epoch 需要{b}{u}，而单机只要{a}{u}"]


@pytest.mark.parametrize(("a", "b", "speedup", "unit", "shape"),
                         [(a, b, s, u, sh) for (a, b, s), u, sh in itertools.product(_PAIRS, ["个小时", "天"], _SHAPES)
                          if not (a.endswith("半") and u == "天") and not (a == "十" and u == "天")])
def test_runs_compared_in_numerals(a: str, b: str, speedup: float, unit: str, shape: str) -> None:
    text = shape.format(a=a, b=b, u=unit).replace("两个半个小时", "两个半小时")
    facts = understand(text).facts
    assert facts.get("job.nodes") == 2 and facts.get("job.baseline_nodes") == 1
    assert facts.get("job.speedup") == pytest.approx(speedup, rel=0.02)
    assert facts.get("job.negative_scaling", False) is (speedup < 1)


def test_an_unplaced_number_is_quoted_in_whole_words() -> None:
    text = "Each node has a 100G IB NIC for training and a 25G ethernet NIC for storage"
    start = text.index("25G")
    [entry] = unaccounted(text, [(0, start), (start + 3, len(text))])
    assert entry["text"] == "25"
    assert entry["context"].startswith("…") and entry["context"].split()[0] != "…00G"
    assert all(word in text for word in entry["context"].strip("…").split())


def test_the_article_yi_ge_is_no_number_to_place() -> None:
    assert [n["text"] for n in unaccounted("单机一个epoch要3小时，跑一次要很久", [(9, 12)])] == []
    assert [n["text"] for n in unaccounted("一个小时后看 3 台", [])] == ["一", "3"]
