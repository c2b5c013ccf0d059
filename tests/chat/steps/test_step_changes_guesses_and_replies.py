"""Three readings of a step time beside another one, generated over figures, units, verbs and languages:

  - the step gone from one time to another with the first qualified ('从预估的 15 秒左右涨到了 45 秒以上', 'from an
    expected ~1.5 s to 4 s', '由 1.2s 增加到 3.6s', 'grew from the original 2 s or so to 6 s'): the time now is the
    job's step; the time before is the baseline, unless it was only guessed (预估, expected, estimated) — never the
    step;
  - a step time guessed or wished for ('原本预计每个 iteration 15s，实际要 45s', 'we estimated 2 s per step, but it's
    6 s', 'it should take 1 s per step'): no time of the job's; what was seen beside it is. A run slower than
    expected is seen ('比预期慢，每步 3 秒', 'slower than expected at 3 s/it');
  - a reply said after what the replier did first ('（维护者看了 wall_clock_breakdown 之后说：…0.2 s）', '(The
    maintainer looked at the profile and said: …)', 'A maintainer ran the same script and said each step takes 0.2 s'):
    the replier's figures, not the job's; what the asker's own team says ('Our developers … said:') and the asker's
    machines named before the verb ('维护者看了我们 4 个节点的日志之后说：') stay the asker's.

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read with these values,
facts that must not be read: {fact: value, or None for any value}).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.matching import read_problems

STEP, BASE, NODES = "job.step_time_s", "job.step_time_baseline_s", "job.nodes"
Case = tuple[str, dict[str, Any], dict[str, Any]]


def _changes() -> list[Case]:
    cases: list[Case] = []
    for a, b in [(15, 45), (2, 6), (1.2, 3.6)]:
        for guess in ["预估的", "预计的", "估计的"]:
            cases.append((f"我们用 8 个节点训练，单次迭代时间从{guess} {a} 秒左右涨到了 {b} 秒以上。",
                          {STEP: b, NODES: 8}, {STEP: a, BASE: None}))
        for old in ["原来的", "之前的", ""]:
            for verb in ["变成了", "增加到", "上升到", "涨到了"]:
                cases.append((f"每个 step 从{old} {a} 秒{verb} {b} 秒", {STEP: b, BASE: a}, {STEP: a}))
        cases.append((f"迭代时间由 {a}s 增加到 {b}s", {STEP: b, BASE: a}, {}))
        for guess in ["an expected", "the estimated", "a predicted"]:
            for verb in ["went", "grew", "jumped"]:
                cases.append((f"The step time {verb} from {guess} ~{a} s to over {b} s on 4 nodes.",
                              {STEP: b, NODES: 4}, {STEP: a, BASE: None}))
        for old in ["the original ", "", "about "]:
            cases.append((f"The iteration time increased from {old}{a}s to {b}s.", {STEP: b, BASE: a}, {STEP: a}))
        # a drop after a fix: the time now, no baseline
        cases.append((f"After the fix the step time went from {b} s to {a} s.", {STEP: a}, {BASE: None}))
    # a change of something else in a sentence about steps is no step time
    cases.append(("每个 step 的 batch 从 16 增加到 32", {}, {STEP: None, BASE: None}))
    return cases


def _guesses() -> list[Case]:
    cases: list[Case] = []
    for guess, seen in [(2, 6), (15, 45), (1, 3)]:
        cases += [
            (f"原本预计每个 iteration {guess}s，实际要 {seen}s", {STEP: seen}, {STEP: guess}),
            (f"预计一步 {guess} 秒，实际跑下来一步 {seen} 秒", {STEP: seen}, {STEP: guess}),
            (f"理论上每个 step 应该 {guess}s，实际 {seen}s", {STEP: seen}, {STEP: guess}),
            (f"按理说每步 {guess} 秒，现在要 {seen} 秒", {STEP: seen}, {STEP: guess}),
            (f"expected ~{guess} s per step but it's actually {seen} s per step", {STEP: seen}, {STEP: guess}),
            (f"We estimated {guess} s per step, but it's {seen} s.", {STEP: seen}, {STEP: guess}),
            (f"It should take {guess} s per step, but takes {seen} s on 2 nodes.", {STEP: seen, NODES: 2},
             {STEP: guess}),
            (f"I expected ~{guess} s per step.", {}, {STEP: None}),
            (f"预计每个 iteration {guess}s", {}, {STEP: None}),
            # traps: slower than expected is a run seen
            (f"比预期慢很多，每步 {seen} 秒", {STEP: seen}, {}),
            (f"slower than expected at {seen} s/it", {STEP: seen}, {}),
            (f"The training is slower than I expected, {seen} s per step.", {STEP: seen}, {}),
            (f"训练速度不及预期，每个 step 要 {seen} 秒", {STEP: seen}, {}),
        ]
    return cases


def _replies() -> list[Case]:
    cases: list[Case] = []
    for theirs in [0.2, 0.5]:
        cases += [
            (f"4 个节点训练很慢。（维护者看了 wall_clock_breakdown 之后说：不 offload 的 step 时间大约是 "
             f"{theirs} s。）",
             {NODES: 4}, {STEP: None}),
            (f"4 nodes are slow. (The maintainer looked at the profile and said: without offload a step takes "
             f"{theirs} s.)", {NODES: 4}, {STEP: None}),
            (f"4 nodes are slow. A maintainer ran the same script and said each step takes {theirs} s for them.",
             {NODES: 4}, {STEP: None}),
            (f"训练很慢，每步 3 秒。维护者在他们的集群上跑了一下说：每步只要 {theirs} 秒。", {STEP: 3.0},
             {STEP: theirs}),
            (f"训练很慢，每步 3 秒。（作者在 A100 上复现后回复：每个 step {theirs}s 左右）", {STEP: 3.0},
             {STEP: theirs}),
            (f"4 nodes are slow, 3 s per step. The maintainer replied: I looked at it and got {theirs} s per step.",
             {NODES: 4, STEP: 3.0}, {STEP: theirs}),
        ]
    cases += [
        # traps: the asker's own team, the asker's machines named before the replier speaks, the asker's step in reply
        ("Our developers run 4 nodes and said: training is slow, 3 s per step.", {NODES: 4, STEP: 3.0}, {}),
        ("我们的开发者测试了 2 台机器后说：每步 3 秒，太慢了。", {NODES: 2, STEP: 3.0}, {}),
        ("维护者看了我们 4 个节点的日志之后说：换 IB 试试。", {NODES: 4}, {}),
        ("The maintainer looked at our 4-node log and said: try NCCL_IB_HCA.", {NODES: 4}, {}),
        ("(The maintainer looked at the log and said: your step takes 3 s, that is too slow.)", {STEP: 3.0}, {}),
    ]
    return cases


@pytest.mark.parametrize(("text", "want", "never"), _changes() + _guesses() + _replies())
def test_step_changes_guesses_and_replies(text: str, want: dict[str, Any], never: dict[str, Any]) -> None:
    # (a fact may be both wanted with one value and never read with another: checked apart)
    assert read_problems(text, want) + read_problems(text, {fact: None if value is None else ("not", value)
                                                            for fact, value in never.items()}) == []
