"""Symptoms said in words: generated batteries of the ways posters say the input pipeline holds the GPUs
up (a loader or a store's reads said slow, the job said IO-bound or bottlenecked by data loading, most of the step
said to go to the loader, its share in per cent), checkpoint saves said slow, one named rank said to lag, and the GPUs'
or CPUs' load — with the traps beside them: a negation ('not IO bound', '不是数据加载的问题'), a question or a what-if,
a target or expected load ('should be near 100%', '目标是 GPU 利用率 90%'), one CPU core's load ('单核跑满'), one GPU's
figure after the job's average, 'async' meaning non-blocking copies or saves, and 'Async SGD' read as 'sync SGD'.

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read with these values,
facts that must not be read: {fact: value, or None for any value}).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from bwdoctor.chat import answer_turn
from tests.matching import same_value

DL, WAIT, CK, ST = "job.data_loading_slow", "job.data_wait_pct", "job.checkpoint_slow", "job.straggler_suspected"
GPU, CPU, ASYNC = "gpu.util_pct", "cpu.util_pct", "job.async"
Case = tuple[str, dict[str, Any], dict[str, Any]]


def _loading_slow() -> list[Case]:
    """Loader or store subjects × what they are said to be, English and Chinese; the job said bound by its input."""
    subjects = ["the dataloader", "data loading", "our input pipeline", "reading from NFS", "reading data from S3",
                "loading images from Lustre", "loading data from the shared filesystem"]
    preds = ["is the bottleneck", "is slow", "is really slow", "can't keep up"]
    out: list[Case] = [(f"Training on 8 GPUs. {s.capitalize()} {p}.", {DL: True}, {})
                       for s, p in itertools.product(subjects, preds)]
    zh_subjects = ["数据加载", "dataloader", "数据读取", "从 NFS 读数据", "读 NFS", "读取 S3"]
    zh_preds = ["很慢", "太慢了", "跟不上"]
    out += [(f"8 卡训练，{s}{p}。", {DL: True}, {}) for s, p in itertools.product(zh_subjects, zh_preds)]
    bound = ["We are IO bound", "The job is I/O bound", "Training is IO-bound", "It's data-loading bound",
             "we're input-bound", "We're bottlenecked by data loading", "The run is limited by the dataloader",
             "The dataloader takes most of the step time", "Data loading takes the bulk of each iteration",
             "Most of the time is spent in the dataloader", "most of the step time goes to data loading"]
    leads = ["4 nodes of A100.", "8 GPUs, slow."]
    out += [(f"{lead} {b}.", {DL: True}, {}) for lead, b in itertools.product(leads, bound)]
    unable = ["can not catch up with the batch consumption", "can't feed the GPUs fast enough",
              "can not provide data in time", "is unable to supply the GPUs"]
    out += [(f"4 GPUs. {s.capitalize()} {u}.", {DL: True}, {})
            for s, u in itertools.product(["the dataloader", "the input pipeline"], unable)]
    out += [(f"8 GPUs. {s}.", {DL: True}, {}) for s in ["Your dataloaders are taking up the bulk of the running time",
                                                         "Data loading time is longer than the compute time",
                                                         "读数据的时间比计算时间还长"]]
    zh_bound = ["dataloader 占了大部分时间", "数据加载占用了绝大部分时间", "大部分时间都花在 dataloader 上",
                "IO 是瓶颈", "训练是 IO 瓶颈", "瓶颈在 IO"]
    out += [(f"8 卡训练，{b}。", {DL: True}, {}) for b in zh_bound]
    return out


def _loading_not_slow() -> list[Case]:
    """Negations say False; questions, guesses, what-ifs and the network's IO say nothing."""
    neg = ["It's not data loading bound — we tested with synthetic data", "We are not IO bound", "It's not IO bound",
           "Not data-loading bound: synthetic data is just as slow", "Data loading is not the bottleneck",
           "This is not a data loading problem"]
    out: list[Case] = [(f"8 GPUs. {s}.", {DL: False}, {}) for s in neg]
    out += [(f"8 卡训练，{s}。", {DL: False}, {}) for s in ["数据加载不是瓶颈", "不是数据加载的问题", "不是 IO 瓶颈"]]
    asked = ["Is the dataloader the bottleneck?", "Could we be IO bound?", "What if data loading is the bottleneck?",
             "Are we IO bound?", "Maybe we're IO bound?", "数据加载会不会是瓶颈？", "是不是 IO 瓶颈？"]
    out += [(f"8 GPUs, slow scaling. {s}", {}, {DL: None}) for s in asked]
    out += [("All-reduce over TCP: we are network IO bound on 2 nodes.", {}, {DL: None})]
    return out


def _loading_share() -> list[Case]:
    """The loader's share of the step, the share first or the loader first."""
    forms = ["data loading takes {p}% of the step", "{p}% of the step time is spent waiting for data",
             "about {p}% of each iteration is data loading", "{p}% of the step is the dataloader",
             "数据加载占了 {p}% 的时间"]
    return [(f"8 GPUs. {f.format(p=p)}.", {WAIT: p}, {GPU: p}) for p, f in itertools.product([30, 40], forms)]


def _checkpoints() -> list[Case]:
    en = ["Every save stalls training", "Each save blocks the GPUs", "Checkpointing takes forever",
          "Writing checkpoints to NFS is slow"]
    en += ["The time it takes to save a checkpoint is quite long", "Save checkpoint needs long time",
           "Saving the model takes a really long time"]
    zh = ["存一次 ckpt 要十几分钟", "保存 checkpoint 要好几个小时", "保存模型要几十分钟", "checkpoint 保存特别慢"]
    out: list[Case] = [(f"Multi-node training on 16 GPUs. {s}.", {CK: True}, {}) for s in en]
    out += [(f"多机训练，{s}。", {CK: True}, {}) for s in zh]
    # a measured time is job.checkpoint_save_s, not the bare symptom
    out += [("Multi-node training on 16 GPUs. Saving the checkpoint takes 10 minutes.", {"job.checkpoint_save_s": 600},
             {CK: None})]
    return out


def _stragglers() -> list[Case]:
    who = ["rank 3", "node 2", "GPU 5", "one rank", "one of the nodes"]
    verbs = ["lags behind", "always lags behind the others", "keeps falling behind", "is consistently lagging"]
    out: list[Case] = [(f"4 nodes x 8 GPUs. {w.capitalize()} {v}.", {ST: True}, {})
                       for w, v in itertools.product(who, verbs)]
    out += [("4 nodes x 8 GPUs. Does rank 3 lag behind?", {}, {ST: True})]
    return out


def _loads() -> list[Case]:
    """GPU/CPU loads with their roles: the load seen, against a target, one core, one GPU after the average."""
    shapes = ["GPU util {v}%", "GPU utilization is only {v}%", "GPU 利用率只有 {v}%", "average GPU utilization is {v}%"]
    out: list[Case] = [(f"Training on 2 nodes. {s.format(v=v)}.", {GPU: v}, {})
                       for v, s in itertools.product([30, 45], shapes)]
    targets = ["GPU utilization should be near {v}%", "We expect GPU utilization around {v}%", "目标是 GPU 利用率 {v}%",
               "GPU 利用率应该在 {v}% 左右", "Ideally GPU util would be {v}%"]
    out += [(f"{t.format(v=v)} on 2 nodes.", {}, {GPU: None}) for v, t in itertools.product([90, 100], targets)]
    out += [(f"GPU 利用率应该接近 {v}%，但是现在只有 40%。", {GPU: 40}, {GPU: v}) for v in (90, 100)]
    out += [("GPU utilization is 40% while it should be 90%.", {GPU: 40}, {}),
            ("GPU util is lower than expected at 35%.", {GPU: 35}, {})]
    out += [("GPU 利用率平均 60%，其中一张卡只有 20%。", {GPU: 60}, {}),
            ("Average GPU utilization is 55%, although GPU 3 shows 10%.", {GPU: 55}, {})]
    core = ["One CPU core is at 100% while others idle", "A single CPU core is pegged", "CPU 单核跑满 100%",
            "CPU 一个核跑满了"]
    out += [(f"8 GPUs on 2 nodes. {c}.", {}, {CPU: None}) for c in core]
    out += [(f"8 GPUs on 2 nodes. {c}.", {CPU: v}, {}) for c, v in [("CPU 100%", 100), ("CPU usage is 30%", 30),
                                                                     ("CPU 利用率 100%", 100)]]
    return out


def _async() -> list[Case]:
    yes = ["Async SGD with 4 workers", "We use asynchronous training with a parameter server", "我们用的是异步训练"]
    none = ["We use non_blocking=True and async data copies", "We use async checkpointing",
            "async_op=True for the all_reduce", "异步保存 checkpoint", "异步数据加载"]
    out: list[Case] = [(f"{s}.", {ASYNC: True}, {}) for s in yes]
    out += [(f"{s}.", {}, {ASYNC: None}) for s in none]
    out += [("Training is synchronous (DDP).", {ASYNC: False}, {}), ("sync SGD on 16 GPUs.", {ASYNC: False}, {})]
    return out


CASES = _loading_slow() + _loading_not_slow() + _loading_share() + _checkpoints() + _stragglers() + _loads() + _async()


@pytest.mark.parametrize(("text", "want", "never"), [pytest.param(*c, id=f"y{i:03d}") for i, c in enumerate(CASES)])
def test_input_pipeline_symptoms(engine: Any, text: str, want: dict[str, Any], never: dict[str, Any]) -> None:
    facts = answer_turn(text, engine=engine)["facts"]
    wrong = {k: (facts.get(k), v) for k, v in want.items() if k not in facts or not same_value(facts[k], v)}
    misread = {k: facts[k] for k, v in never.items() if k in facts and (v is None or same_value(facts[k], v))}
    assert not wrong and not misread, f"wrong/missed {wrong}; misread {misread}; facts {facts}"
