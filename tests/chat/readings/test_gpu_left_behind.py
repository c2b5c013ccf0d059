"""The GPU model of the job when another is named beside it, generated over models and verbs:

  - the one replaced ('we replaced the V100s with A100s', 'swapped our T4s for L4s', '把 V100 全换成了 A100') is left
    behind: the job runs on the new one;
  - the old cluster's against the new one's ('our old cluster had V100s, the new one has H100s', '旧集群是 V100，
    新集群是 H800'): the new one's.

Kept: a comparison of two models with no change made ('we compare V100 with A100') keeps the first named.

Written for this battery (not copied from the corpus). Each row: (question, expected gpu.model).
"""

from __future__ import annotations

import pytest

from tests.matching import read_problems

_PAIRS = [("V100", "A100"), ("T4", "L4"), ("A100", "H100"), ("RTX 3090", "RTX 4090"), ("A800", "H800")]


def _cases() -> list[tuple[str, str]]:
    cases: list[tuple[str, str]] = []
    for old, new in _PAIRS:
        cases += [(f"We replaced the {old} with {new} and multi-node training got slower.", new),
                  (f"we swapped our {old}s for {new}s last month", new),
                  (f"Our old cluster had {old}s, the new one has {new}s and scales worse.", new),
                  (f"把 {old} 全换成了 {new}，多机反而更慢", new),
                  (f"旧集群是 {old}，新集群是 {new}，新的更慢", new),
                  (f"从 {old} 换成了 {new} 之后两机训练变慢", new)]
    cases.append(("we compare V100 with A100 on two nodes", "V100"))
    return cases


CASES = _cases()


@pytest.mark.parametrize(("question", "model"), CASES, ids=[c[0][:70] for c in CASES])
def test_gpu_left_behind(question: str, model: str) -> None:
    assert read_problems(question, {"gpu.model": model}) == []
