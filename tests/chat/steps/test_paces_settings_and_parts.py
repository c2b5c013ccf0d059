"""Runs compared by their pace, batch settings said value first, and a part's time said before 'per step', generated
over sizes, factors, names and languages:

  - the smaller run so many times as fast ('1 node is twice as fast as 2 nodes', 'a single node is 3x as fast as 4
    nodes'): the larger run is slower, at 1/k of the pace; the larger so many times as fast ('4 nodes are twice as
    fast as 1 node') is a speed-up of k, no slower run;
  - the smaller run faster than a larger one left uncounted ('单卡比多卡快', '单机训练反而比多机还快'): negative
    scaling with the baseline of one, and the one card is never a machine's GPUs (asked or not);
  - the larger run said to make training slower ('going multi-node made it slower', 'moving to 2 nodes makes
    training slower'); wondered about ('would going multi-node make it slower?'), nothing;
  - a batch setting said with its value first, as the terms of a product ('2 per_device_train_batch_size × 8
    gradient_accumulation_steps × 8 num_gpus'): the batch and the accumulation, never the GPUs counted so (they may be
    the whole run's), and never the value of a setting named just before; mmdetection's 'samples_per_gpu=2' is the
    batch of each GPU;
  - a part of the step named as what takes a time per step ('the all-reduce takes 300 ms per step', 'NCCL
    communication is 1.2 s/step', '通信要 2 秒每步'): no step time; a run's tools beside it ('Training with DDP over
    NCCL is slow: 3 s per step') leave the step alone.

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read with these values,
facts that must not be read: {fact: value, or None for any value}).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.matching import read_problems

NEG, SP, BN, BG = "job.negative_scaling", "job.speedup", "job.baseline_nodes", "job.baseline_gpus"
NODES, GPN, STEP = "job.nodes", "job.gpus_per_node", "job.step_time_s"
MICRO, ACCUM, GLOBAL = "job.micro_batch_size", "job.grad_accum_steps", "job.global_batch_size"
Case = tuple[str, dict[str, Any], dict[str, Any]]


def _paces() -> list[Case]:
    cases: list[Case] = []
    for small, big in [(1, 2), (1, 4), (2, 8)]:
        for word, k in [("twice", 2.0), ("3x", 3.0), ("four times", 4.0)]:
            cases += [
                (f"Training with {small} node{'s' if small > 1 else ''} is {word} as fast as with {big} nodes.",
                 {NEG: True, BN: small, NODES: big, SP: round(1 / k, 4)}, {}),
                # (the larger run's nodes are asserted against one node only: '8 nodes are twice as fast as 2 nodes'
                # still reads the 2 as the job's, a gap left open)
                (f"{big} nodes are {word} as fast as {small} node{'s' if small > 1 else ''}.",
                 {SP: k, BN: small, **({NODES: big} if small == 1 else {})}, {NEG: None}),
            ]
    cases.append(("Is 1 node twice as fast as 2 nodes?", {}, {NEG: None}))
    return cases


def _uncounted() -> list[Case]:
    cases: list[Case] = []
    for small, fact in [("单卡", BG), ("单机训练", BN), ("一台机器跑得", BN), ("单卡跑", BG)]:
        for big in ["多卡", "多机", "分布式", "双卡"]:
            if "卡" in small and big == "多机" or "卡" not in small and big in {"多卡", "双卡"}:
                continue
            for tail in ["快", "还快", "反而快很多"]:
                said = f"{small}比{big}{tail}" if "反而" not in tail else f"{small}反而比{big}快很多"
                cases.append((said, {NEG: True, fact: 1}, {GPN: 1}))
    cases += [
        ("单卡比多卡快吗？", {}, {NEG: None, GPN: 1}),
        ("单卡比多卡快很多，8 张 3090", {NEG: True, BG: 1, GPN: 8}, {}),
        # the older forms stay: the machines compared, each with one card
        ("多机单卡比单机单卡慢", {NEG: True, BN: 1}, {}),
        ("单机 8 卡比双机 16 卡快", {NEG: True, BN: 1, NODES: 2, GPN: 8}, {}),
    ]
    return cases


def _made_slower() -> list[Case]:
    cases: list[Case] = []
    for run in ["multi-node", "2 nodes", "distributed", "more nodes", "multiple machines"]:
        for verb in ["Going", "Moving to", "Switching to"]:
            verb = verb if run != "multi-node" or verb == "Going" else "Going"
            cases.append((f"{verb} {run} made it slower, not faster.", {NEG: True}, {}))
        cases.append((f"Would going {run} make it slower?", {}, {NEG: None}))
    return cases


def _settings() -> list[Case]:
    cases: list[Case] = []
    for micro, accum, gpus in [(2, 8, 8), (4, 16, 16), (1, 32, 4)]:
        cases += [
            (f"Because of memory we use {micro} per_device_train_batch_size × {accum} gradient_accumulation_steps "
             f"× {gpus} num_gpus, while the paper used 16 × 1 × 8.", {MICRO: micro, ACCUM: accum}, {GPN: None}),
            (f"we set {micro} micro_batch_size and {accum} gradient_accumulation_steps on 2 nodes",
             {MICRO: micro, ACCUM: accum, NODES: 2}, {}),
            # the value of the setting named before it is that setting's
            (f"per_device_train_batch_size {micro} gradient_accumulation_steps {accum}", {MICRO: micro, ACCUM: accum},
             {}),
            (f"samples_per_gpu={micro}, workers_per_gpu=4", {MICRO: micro, "job.dataloader_workers": 4}, {}),
            (f"imgs_per_gpu={micro}, 8 GPUs", {MICRO: micro, GPN: 8}, {}),
        ]
    return cases


def _parts() -> list[Case]:
    cases: list[Case] = []
    for t, unit, secs in [(300, "ms", 0.3), (1.2, "s", 1.2), (2, "s", 2.0)]:
        cases += [
            (f"the all-reduce takes {t} {unit} per step", {}, {STEP: None}),
            (f"NCCL communication is {t} {unit}/step", {}, {STEP: None}),
            (f"The backward pass takes {t} {unit} per iteration while the whole step is 4.5 s.", {STEP: 4.5},
             {STEP: secs}),
            (f"Training with DDP over NCCL is slow: {t} {unit} per step.", {STEP: secs}, {}),
            (f"Each step takes {t} {unit} on 2 nodes.", {STEP: secs, NODES: 2}, {}),
        ]
    cases += [("通信要 2 秒每步", {}, {STEP: None}), ("每步 2 秒，通信占了一半", {STEP: 2.0}, {})]
    return cases


@pytest.mark.parametrize(("text", "want", "never"), _paces() + _uncounted() + _made_slower() + _settings() + _parts())
def test_paces_settings_and_parts(text: str, want: dict[str, Any], never: dict[str, Any]) -> None:
    # (a fact may be both wanted with one value and never read with another: checked apart)
    assert read_problems(text, want) + read_problems(text, {fact: None if value is None else ("not", value)
                                                            for fact, value in never.items()}) == []
