"""Two runs of different sizes named side by side, generated over sizes, kinds and languages:

  - a smaller run said to go well and a larger one of the same kind said to go slowly ('8卡训练正常，16卡训练很慢',
    '4卡没问题，8卡就很慢', '8 GPU training is fine, 16 GPU training is slow', 'runs fine on 8 GPUs but slows down on
    32 GPUs', 'the 16-GPU run is slow, the 8-GPU run is fine'): the smaller run is the baseline and its count is no
    count of the job's (never eight GPUs on one machine);
  - a run set against a run with no figures ('16 GPU run vs 8 GPU run', '2 nodes vs 4 nodes', '16卡对比8卡'): the
    smaller is the baseline;
  - 'multi node' written apart ('Single node training is fine but multi node is slow'): several machines, the single
    node the baseline, never the job's one machine;
  - a hyphened total ('a 16-GPU run') is the job's GPUs in all, never sixteen on one machine;
  - the larger run said inside a tie ('the same speed on 8 GPUs as on 4 GPUs'): the smaller is the baseline, whichever
    side it is on, never the job's GPUs;
  - a bare 'one' after 'than' takes the kind of the run before it ('Using 2 GPUs is slower than using one' is one GPU,
    '2 nodes are slower than one' one node);
  - a title on the first line with no stop ('Multi-node training slower than single node' over 'Using 2 nodes x 8 H800,
    …'): the run compared with ends with the title, so the body's machines are the job's, never the baseline's.

Traps: the larger run said fine and the smaller slow, a question, the same count twice, a machine's share ('每台 8 卡'),
which name no baseline.

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read with these values,
facts that must not be read: {fact: value, or None for any value}).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.matching import read_problems

BN, BG, NODES, GPN = "job.baseline_nodes", "job.baseline_gpus", "job.nodes", "job.gpus_per_node"
TOTAL, MULTI = "job.total_gpus", "job.multi_node"
Case = tuple[str, dict[str, Any], dict[str, Any]]

_SIZES = [(4, 8), (8, 16), (8, 32), (16, 64)]
_FINE_SLOW_ZH = [
    "{s}卡训练正常，{b}卡训练很慢",
    "{s} 卡正常，{b} 卡慢",
    "用{s}张卡训练速度正常，用{b}张卡速度反而下降",
    "{s}卡没问题，{b}卡就很慢",
    "{s}卡训练很快，{b}卡训练很慢",
]
_FINE_SLOW_EN = [
    "{s} GPU training is fine, {b} GPU training is slow",
    "training with {s} GPUs is fine, but with {b} GPUs it gets much slower",
    "{s} GPUs are fine, {b} GPUs are slow",
    "Training runs fine on {s} GPUs but slows down on {b} GPUs",
    "It trains fine with {s} GPUs but is slow with {b} GPUs",
    "{s} GPUs is fine, but {b} GPUs is slow",
]


def _fine_and_slow() -> list[Case]:
    cases: list[Case] = []
    for i, form in enumerate(_FINE_SLOW_ZH + _FINE_SLOW_EN):
        s, b = _SIZES[i % len(_SIZES)]
        # the job's GPUs are the larger run's: never the smaller count (eight or fewer may be one machine's)
        if b <= 8:
            cases.append((form.format(s=s, b=b), {BG: s, GPN: b}, {GPN: s, "gpu.count": s}))
        else:
            cases.append((form.format(s=s, b=b), {BG: s, TOTAL: b}, {GPN: s, NODES: 1, "gpu.count": s}))
    # the larger run said first
    for s, b in [(8, 16), (16, 32)]:
        cases.append((f"the {b}-GPU run is slow, the {s}-GPU run is fine", {BG: s, TOTAL: b}, {GPN: None, NODES: None}))
    # machines against machines
    for s, b, zh in [(2, 4, "两机正常，四机很慢"), (2, 4, "2台机器正常，4台机器就慢了"),
                     (2, 8, "用两台机器训练没问题，换成八台就很慢")]:
        cases.append((zh, {BN: s, NODES: b}, {}))
        cases.append((f"{s} nodes work fine, {b} nodes are very slow", {BN: s, NODES: b}, {}))
    return cases


def _versus() -> list[Case]:
    cases: list[Case] = []
    for s, b in [(8, 16), (16, 32)]:
        for form in ["{b} GPU run vs {s} GPU run", "{b}-GPU run vs {s}-GPU run: 1.2x", "{b} GPUs vs {s} GPUs",
                     "the {b} GPU job versus the {s} GPU job", "{b}卡对比{s}卡"]:
            cases.append((form.format(s=s, b=b), {BG: s, TOTAL: b}, {GPN: None, NODES: None}))
    for s, b in [(1, 4), (2, 4), (2, 8)]:
        cases.append((f"{b} nodes vs {s} node{'s' if s > 1 else ''}", {BN: s, NODES: b}, {}))
        cases.append((f"the {s}-node job versus the {b}-node job", {BN: s, NODES: b}, {}))
    return cases


def _multi_apart() -> list[Case]:
    return [
        ("Single node training is fine but multi node is slow", {BN: 1, MULTI: True}, {NODES: None}),
        ("Multi node training is slow, single node is fine", {BN: 1, MULTI: True}, {NODES: None}),
        ("The multi machine setup is slow", {MULTI: True}, {NODES: None}),
        ("We see slow multi node all-reduce", {MULTI: True}, {NODES: None}),
        # 'multi GPU' is no machine count
        ("multi GPU training on one box is fine", {}, {MULTI: None, BN: None}),
    ]


def _hyphened_totals() -> list[Case]:
    return [
        ("the 16-GPU run is slow", {TOTAL: 16}, {GPN: None, NODES: None, "gpu.count": None}),
        ("I use a 16-GPU setup and NCCL is slow", {TOTAL: 16}, {GPN: None, NODES: None}),
        ("an 8-GPU node is slow", {GPN: 8}, {TOTAL: ("not", 16)}),
    ]


def _inner_and_bare() -> list[Case]:
    cases: list[Case] = []
    for s, b in [(4, 8), (8, 16), (2, 4)]:
        for form in ["we get the same speed on {b} GPUs as on {s} GPUs",
                     "we get the same speed on {s} GPUs as on {b} GPUs",
                     "throughput is the same with {b} GPUs as with {s} GPUs"]:
            cases.append((form.format(s=s, b=b), {BG: s}, {GPN: s, "gpu.count": s}))
    for n in [2, 4]:
        cases += [
            (f"the same step time on {n} nodes as on one node", {BN: 1, NODES: n}, {}),
            (f"Using {n} GPUs is slower than using one", {BG: 1}, {BN: None}),
            (f"{n} GPUs are slower than one", {BG: 1}, {BN: None}),
            (f"{n} nodes are slower than one", {BN: 1, NODES: n}, {BG: None}),
            (f"Training on {n} nodes is slower than on 1", {BN: 1, NODES: n}, {BG: None}),
        ]
    return cases


def _titles() -> list[Case]:
    cases: list[Case] = []
    for title in ["Multi-node training slower than single node", "Training slower than on one node",
                  "[Bug] 2 nodes slower than a single node", "DDP across nodes much slower than one machine"]:
        for body, n, g in [("Using 2 nodes x 8 H800, the step is 3.2 s vs 1.9 s on a single node.", 2, 8),
                           ("We have 4 nodes with 8 A100 each.", 4, 8),
                           ("Setup: 2 machines, each with 4 RTX 3090.", 2, 4)]:
            cases.append((f"{title}\n{body}", {NODES: n, GPN: g, BN: 1}, {BG: g}))
    # a wrapped sentence (a long first line) runs on: 'than' still takes the words after the break
    cases.append(("We trained the same model with the same data and the same settings and it got much slower than\n"
                  "a single node with 8 GPUs when we moved to 2 nodes.", {BN: 1, BG: 8, NODES: 2}, {}))
    return cases


def _traps() -> list[Case]:
    return [
        # the larger run fine, the smaller slow: no baseline of the larger
        ("16卡正常，8卡很慢", {}, {BG: None}),
        ("32 GPUs are fine, 8 GPUs are slow", {}, {BG: None}),
        # a question of whether the smaller is fine
        ("8卡正常吗？16卡很慢", {}, {BG: None}),
        ("Is 8 GPUs fine? 16 GPUs is slow", {}, {BG: None}),
        # the same count twice
        ("8卡正常，8卡也慢", {}, {BG: None}),
        # a machine's share, not a smaller run
        ("每台 8 卡正常，16 卡很慢", {}, {BG: None}),
        ("each node has 8 GPUs and runs fine, 16 GPUs in total is slow", {}, {BG: None}),
        # GPUs against machines: no one kind
        ("8 GPUs are fine, 2 nodes are slow", {}, {BG: None}),
        # a run against a setting
        ("16 GPUs vs 8 NICs", {}, {BG: None}),
    ]


CASES = _fine_and_slow() + _versus() + _multi_apart() + _hyphened_totals() + _inner_and_bare() + _titles() + _traps()


@pytest.mark.parametrize(("text", "want", "never"), CASES)
def test_fine_and_slow_runs(text: str, want: dict[str, Any], never: dict[str, Any]) -> None:
    expected = {**want, **{fact: value if isinstance(value, tuple) else None if value is None else ("not", value)
                           for fact, value in never.items()}}
    assert read_problems(text, expected) == []
