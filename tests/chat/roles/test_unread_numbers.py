"""Numbers the reader left unread: memory
said as an amount, and the GPUs' load named after a memory's figure.

  - an amount of memory with its share beside it ('VRAM usage 20GB (83%)', torchtitan's 'memory: 29.16GiB(36.87%)',
    '显存占用 78GB（97%）') or over its capacity ('显存 20G/24G', 'GPU memory: 75000MiB / 81559MiB', '22G（共 24G）')
    → gpu.mem_used_pct, or mem.used_pct for the host's memory (内存, RAM, host memory);
  - a load word after a memory's figure ('GPU memory usage is 60% and util is 40%', '显存 90%，使用率 20%') names the
    GPUs' load, never the memory again.

Traps beside them: a GPU's capacity with no use ('A100 80GB (SXM4)'), capacities to choose from
('显存 40G/80G 两种版本'), a disk's or a checkpoint's share, a figure that changed to another
('… (95.3%) -> … (97-98.6%)'), a link's or a CPU's utilisation after the memory.

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read with these values,
facts that must not be read: {fact: value, or None for any value}).
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from bwdoctor.chat import answer_turn
from tests.matching import same_value

GM, HM, GU, CU = "gpu.mem_used_pct", "mem.used_pct", "gpu.util_pct", "cpu.util_pct"
Case = tuple[str, dict[str, Any], dict[str, Any]]
_TAIL = {"en": " Training on 2 nodes is slow.", "zh": "，两机训练很慢。"}


def _amount_shares() -> list[Case]:
    """Memory subjects × amount-with-share forms × languages."""
    gpu = {"en": ["VRAM usage", "GPU memory usage is", "peak memory:", "GPU memory:", "HBM used:"],
           "zh": ["显存占用", "显存", "每张卡显存用了"]}
    host = {"en": ["RAM usage", "host memory:", "system memory usage is"], "zh": ["内存占用", "CPU 内存"]}
    forms = {"en": ["{a}GB ({p}%)", "{a} GiB ({p}%)", "{a}GiB({p}%)"],
             "zh": ["{a}G（{p}%）", "{a}GB（{p}%）", "{a} GB ({p}%)"]}
    out: list[Case] = []
    for lang in ("en", "zh"):
        for (fact, other, subjects), form in itertools.product([(GM, HM, gpu), (HM, GM, host)], forms[lang]):
            for subject in subjects[lang]:
                text = f"{subject} {form.format(a=62.5, p=78)}{_TAIL[lang]}"
                out.append((text, {fact: 78}, {other: None}))
    return out


def _amount_over_capacity() -> list[Case]:
    """Memory subjects × used-over-capacity forms: used ÷ capacity × 100."""
    forms = ["{s} 60G/80G", "{s} 60GB / 80GB", "{s}: 61440MiB / 81920MiB", "{s} 60 GB of 80 GB", "{s} 60/80 GB",
             "{s} 60G（共 80G）"]
    subjects = [("显存占用", GM, HM), ("GPU memory", GM, HM), ("VRAM", GM, HM), ("内存", HM, GM), ("RAM", HM, GM),
                ("host memory", HM, GM)]
    out: list[Case] = []
    for form, (subject, fact, other) in itertools.product(forms, subjects):
        lang = "zh" if re.search(r"[\u4e00-\u9fff]", subject + form) else "en"
        out.append((form.format(s=subject) + _TAIL[lang], {fact: 75}, {other: None}))
    return out


_TRAPS: list[Case] = [
    ("Each node has 8x A100 80GB (SXM4). Training on 2 nodes is slow.", {}, {GM: None, HM: None}),
    ("We save a 53 GB checkpoint (90% of the disk) every hour and training on 2 nodes is slow.", {},
     {GM: None, HM: None}),
    ("显存 40G/80G 两种版本都试过，两机训练都很慢。", {}, {GM: None}),
    ("GPU memory 40GB/80GB variants behave the same: 2 nodes are slow.", {}, {GM: None}),
    ("显存 8G / 16G / 24G 的卡都试过，两机训练都很慢。", {}, {GM: None}),
    ("磁盘 500G/1000G，两机训练很慢。", {}, {GM: None, HM: None}),
    ("batch size 32/64 both give the same speed on 2 nodes.", {}, {GM: None, HM: None}),
    ("host RAM 25 GB (60%), training on 2 nodes is slow.", {HM: 60}, {GM: None}),
    ("显存 24G，利用率 40%，两机训练很慢。", {GU: 40}, {GM: None}),
    ("peak memory:  243.86 GiB (95.3%)  ->  249-252 GiB (97-98.6%), allocation retries every step", {GM: 97.8},
     {GM: 95.3}),
    ("显存从 20G（83%）涨到 23G（96%），两机训练很慢。", {GM: 96}, {GM: 83}),
    ("step: 1  loss:  1.4989  memory: 29.16GiB(36.87%)  tps: 2,456  tflops: 142.22", {GM: 36.87}, {HM: None}),
]

# the GPUs' load named after a memory's figure
_LOAD_AFTER_MEMORY: list[Case] = [
    ("GPU memory usage is 60% and util is 40%.", {GM: 60, GU: 40}, {}),
    ("VRAM at 90% but utilization only 20%.", {GM: 90, GU: 20}, {}),
    ("memory usage is 90% but utilization is only 20%.", {HM: 90, GU: 20}, {HM: 20}),
    ("GPU memory is 90% full while the utilization stays at 20%.", {GM: 90, GU: 20}, {}),
    ("显存 90%，使用率 20%。", {GM: 90, GU: 20}, {}),
    ("显存占用 90%，利用率却只有 20%。", {GM: 90, GU: 20}, {}),
    ("内存占用 80%，利用率只有 30% 左右。", {HM: 80, GU: 30}, {HM: 30}),
    ("显存占用 95%，利用率在 30-50% 之间。", {GM: 95, GU: 40}, {}),
    # traps: another measure's share after the memory's
    ("显存 90%，带宽利用率 20%。", {GM: 90}, {GU: None}),
    ("RAM 90%, CPU utilization 40%.", {HM: 90, CU: 40}, {GU: None}),
    ("显存 90%，但扩展效率只有 60%。", {GM: 90}, {GU: None}),
    ("memory usage is 90%, network utilization 20%.", {HM: 90}, {GU: None}),
]


@pytest.mark.parametrize(("text", "want", "never"),
                         _amount_shares() + _amount_over_capacity() + _TRAPS + _LOAD_AFTER_MEMORY)
def test_unread_numbers(engine: Any, text: str, want: dict[str, Any], never: dict[str, Any]) -> None:
    facts = answer_turn(text, engine=engine)["facts"]
    wrong = {k: (facts.get(k), v) for k, v in want.items()
             if k not in facts or not same_value(facts[k], v, within=0.06)}
    misread = {k: facts[k] for k, v in never.items() if k in facts and (v is None or same_value(facts[k], v))}
    assert not wrong and not misread, f"{text!r}: wrong {wrong}, misread {misread}"


def test_memory_amount_is_accounted() -> None:
    """The numbers of a memory amount read are not listed as not understood any more."""
    from bwdoctor.chat import understand

    u = understand("显存占用 9257MB/11019MB，GPU 利用率 30%")
    assert same_value(u.facts[GM], 84.0, within=0.06)
    assert not [n for n in u.not_understood if n["text"] in ("9257", "11019")]
