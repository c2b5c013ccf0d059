"""Data loading named as the cause, by the poster or in a reply ('目前已经确定是数据载入的问题', '问题出在数据加载上',
'it turned out to be a data loading problem', 'the slowdown is caused by the dataloader'): job.data_loading_slow True;
denied ('不是数据加载的问题', 'it is not a data loading issue'): False; asked ('是不是数据加载的问题？'): nothing.

Written for this battery (not copied from the corpus). Each row: (question, the value read, or None for nothing).
"""

from __future__ import annotations

import pytest

from bwdoctor.chat.understanding import understand

_ZH_WORDS = ["数据加载", "数据载入", "数据读取", "dataloader"]
_EN_WORDS = ["data loading", "dataloader", "input pipeline"]


def _cases() -> list[tuple[str, bool | None]]:
    cases: list[tuple[str, bool | None]] = []
    for w in _ZH_WORDS:
        cases += [(f"6 张 A100 训练很慢。目前已经确定是{w}的问题", True),
                  (f"8 卡训练，GPU 利用率忽高忽低，问题出在{w}上", True),
                  (f"4 卡训练慢。（维护者回复：已经确定是{w}导致的）", True),
                  (f"不是{w}的问题，GPU 利用率一直 100%", False),
                  (f"训练很慢，是不是{w}的问题？", None)]
    for w in _EN_WORDS:
        cases += [(f"Training on 8 GPUs is slow. It turned out to be a {w} problem.", True),
                  (f"The slowdown on 2 nodes is caused by the {w}.", True),
                  (f"GPU util is low. Maintainer: it was a {w} issue.", True),
                  (f"We checked, it is not a {w} issue; the GPUs stay at 100%.", False),
                  (f"Could this be a {w} problem?", None)]
    return cases


@pytest.mark.parametrize(("text", "value"), _cases())
def test_loading_named_as_cause(text: str, value: bool | None) -> None:
    got = {u.fact: u.value for u in understand(text).understood}
    assert got.get("job.data_loading_slow") is value, got
