"""Comparisons between runs: a generated battery of the ways posters compare a run with a smaller one.

Two sides (one node and two, 8 GPUs and 16, a single GPU and 4, 单机 and 两机, 单卡 and 4 卡) × the measure (a step's
time, an epoch's or the whole run's hours, it/s, samples/s, tokens/s, each GPU's throughput) × the shape of the
sentence (one sentence or one per side, a record per line with a dash or a colon, a table, the smaller run named after
the job, the comparison in a later paragraph, '从 … 变成 …'), and the same sides said without a figure ('3x slower',
'慢了一倍', '反而更慢', 'no faster', 'only a 1.2x speed-up', 'twice as long', a step's time as a multiple of the
other's). The conventions of test_scaling_statements.py hold: the speed-up is the larger run's throughput over
the smaller's; a step on more GPUs does more work (the same per-GPU batch), so step times and it/s are scaled by the
size ratio while an epoch's or a run's time is not; negative scaling is a speed-up below 1. The traps: two NICs or
two frameworks on the same machines, a what-if, someone else's figures, warm-up against steady state, batch sizes that
differ (the throughput decides), and each GPU's throughput taken for the total.
"""

from __future__ import annotations

import itertools
import math

import pytest

from bwdoctor.chat import understand

Case = tuple[str, str, dict[str, object], list[str]]

NS, SP = "job.negative_scaling", "job.speedup"
BN, BG, N = "job.baseline_nodes", "job.baseline_gpus", "job.nodes"
ST, STB, EF = "job.step_time_s", "job.step_time_baseline_s", "job.scaling_efficiency_pct"

# sides: (small words, big words, small count, big count, kind)
SIDES_EN = [
    ("one node", "two nodes", 1, 2, "nodes"),
    ("a single node", "2 nodes", 1, 2, "nodes"),
    ("1 node", "4 nodes", 1, 4, "nodes"),
    ("2 nodes", "4 nodes", 2, 4, "nodes"),
    ("one machine", "two machines", 1, 2, "nodes"),
    ("8 GPUs", "16 GPUs", 8, 16, "gpus"),
    ("1 GPU", "4 GPUs", 1, 4, "gpus"),
    ("a single GPU", "4 GPUs", 1, 4, "gpus"),
]
SIDES_ZH = [
    ("单机", "两机", 1, 2, "nodes"),
    ("单机", "两台机器", 1, 2, "nodes"),
    ("1 台机器", "2 台机器", 1, 2, "nodes"),
    ("单节点", "4 个节点", 1, 4, "nodes"),
    ("单卡", "4 卡", 1, 4, "gpus"),
    ("8 卡", "16 卡", 8, 16, "gpus"),
]

# measures: name -> (the figure in English, in Chinese, its kind); kinds: step (a step's time, the same per-GPU batch),
# work (the time of a fixed amount of work: an epoch, the whole run), rate (steps a second), total (the whole run's
# throughput), pergpu (each GPU's throughput)
MEASURES = {
    "step": ("{v} s per step", "每步 {v} 秒", "step"),
    "steptime": ("a step time of {v} s", "step 耗时 {v}s", "step"),
    "epoch": ("{v} hours per epoch", "一个 epoch {v} 小时", "work"),
    "run": ("{v} h for the whole run", "整个训练 {v} 小时", "work"),
    "its": ("{v} it/s", "{v} it/s", "rate"),
    "samples": ("{v} samples/s", "{v} samples/s", "total"),
    "tokens": ("{v} tokens/s", "每秒 {v} tokens", "total"),
    "pergpu": ("{v} samples/s per GPU", "每卡 {v} samples/s", "pergpu"),
}
# value pairs per kind: (small, big) for a sub-linear and a negative case
VALUES = {
    "step": [(0.5, 0.8), (0.5, 2.5)],
    "work": [(3, 2), (3, 5)],
    "rate": [(2.0, 1.6), (18, 3)],
    "total": [(1200, 1500), (1200, 900)],
    "pergpu": [(300, 200), (300, 100)],
}


def speedup(kind: str, a: float, b: float, k: float) -> float:
    """Throughput of the larger run over the smaller's (a on the smaller, b on the larger, k the size ratio)."""
    if kind == "step":
        return k * a / b
    if kind == "work":
        return a / b
    if kind == "rate":
        return k * b / a
    if kind == "total":
        return b / a
    return k * b / a  # pergpu


def fmt(v: float) -> str:
    """A figure as a poster writes it (0.5, 1200, 3)."""
    return f"{v:g}"


def want_for(kind: str, a: float, b: float, small: int, big: int, kind_of_sides: str
             ) -> tuple[dict[str, object], list[str]]:
    """The facts a user would check for a pair of figures: the speed-up, negative scaling below 1, the smaller run's
    size as the baseline, the larger's machines as the job's, and both step times for a step's time."""
    sp = speedup(kind, a, b, big / small)
    want: dict[str, object] = {SP: round(sp, 4)}
    absent: list[str] = []
    if sp < 1:
        want[NS] = True
    else:
        absent.append(NS)
    want[BG if kind_of_sides == "gpus" else BN] = small
    if kind_of_sides == "nodes":
        want[N] = big
    if kind == "step":
        want[ST] = b
        want[STB] = a
    return want, absent


SHAPES_EN = [
    "It takes {A} on {S} but {B} on {Bg}.",
    "On {S} we get {A}; on {Bg} we get {B}.",
    "{S}: {A}, {Bg}: {B}",
    "{S} - {A}\n{Bg} - {B}",
    "With {S} I see {A}. With {Bg} I only see {B}.",
    "{Bg} gives {B}, compared with {A} on {S}.",
    "We train a 7B llama with DDP.\n\nOn {S} training runs at {A}. When I move to {Bg} it runs at {B}.",
    "Going from {S} to {Bg}, it goes from {A} to {B}.",
    "{Bg}: {B}. For reference, {S} gives {A}.",
    "Training on {Bg} gives {B}. On {S} the same script gives {A}.",
    "We run the job on {Bg} over 100G RoCE and it is slow.\n\nFor comparison, on {S} it runs at {A}, on {Bg} at {B}.",
]
SHAPES_ZH = [
    "{S}训练 {A}，{Bg}训练 {B}。",
    "{S}：{A}；{Bg}：{B}",
    "{S}的时候 {A}，换成{Bg}以后 {B}",
    "用{Bg}跑是 {B}，而{S}是 {A}",
    "从{S}到{Bg}，速度从 {A} 变成 {B}",
    "{Bg}是 {B}，{S}只要 {A}",
    "我们用 100G RoCE 跑训练，感觉很慢。\n\n对比一下：{S} {A}，{Bg} {B}。",
]


def figured() -> list[Case]:
    """Sides × measures × shapes × (a sub-linear and a negative pair of figures)."""
    cases = []
    for lang, sides, shapes in (("en", SIDES_EN, SHAPES_EN), ("zh", SIDES_ZH, SHAPES_ZH)):
        for (s, bg, small, big, sk), (mname, (en, zh, kind)), (si, shape) in itertools.product(
                sides, MEASURES.items(), enumerate(shapes)):
            phrase = en if lang == "en" else zh
            for a, b in VALUES[kind]:
                if "from {A} to {B}" in shape or "从 {A} 变成 {B}" in shape:
                    if kind not in ("total", "rate", "pergpu"):
                        continue
                text = shape.format(S=s, Bg=bg, A=phrase.format(v=fmt(a)), B=phrase.format(v=fmt(b)))
                want, absent = want_for(kind, a, b, small, big, sk)
                cases.append((f"fig/{lang}/{mname}/shape{si}", text, want, absent))
    return cases


QUAL_EN = [
    ("{Bg} is 3x slower than {S}.", {SP: 0.3333, NS: True}, []),
    ("Training on {Bg} is about 2 times slower than on {S}.", {SP: 0.5, NS: True}, []),
    ("{Bg} are slower than {S}.", {NS: True}, []),
    ("Training with {Bg} is no faster than with {S}.", {}, [NS]),
    ("{Bg} run at almost the same speed as {S}.", {}, [NS]),
    ("{Bg} give only a 1.2x speed-up over {S}.", {SP: 1.2}, [NS]),
    ("We only get a 1.2x speedup going from {S} to {Bg}.", {SP: 1.2}, [NS]),
    ("Compared with {S}, {Bg} are actually slower.", {NS: True}, []),
    ("{Bg} are only 20% faster than {S}.", {SP: 1.2}, [NS]),
    ("Training on {Bg} takes twice as long as on {S}.", {SP: 0.5, NS: True}, []),
    ("The epoch time on {Bg} is 1.5x that of {S}.", {SP: 0.6667, NS: True}, []),
    ("{Bg} are not faster than {S}.", {}, [NS]),
]
QUAL_ZH = [
    ("{Bg}比{S}慢了一倍", {SP: 0.5, NS: True}, []),
    ("{Bg}反而比{S}更慢", {NS: True}, []),
    ("{Bg}训练速度和{S}差不多", {}, [NS]),
    ("{Bg}只有{S}的 1.2 倍速度", {SP: 1.2}, [NS]),
    ("{Bg}相比{S}只快了 1.2 倍", {SP: 1.2}, [NS]),
    ("用{Bg}训练，速度还不如{S}", {NS: True}, []),
    ("{Bg}只比{S}快 20%", {SP: 1.2}, [NS]),
    ("{S}反而比{Bg}快", {NS: True}, []),
    ("{Bg}的训练时间是{S}的 2 倍", {SP: 0.5, NS: True}, []),
    ("{Bg}的 epoch 耗时是{S}的 1.5 倍", {SP: 0.6667, NS: True}, []),
]


# a step's time as a multiple of the other run's: the throughput ratio is the scale over the multiple
STEP_RATIO = [
    ("The step time on {Bg} is {k}x that on {S}.", "en"),
    ("On {Bg} the iteration time is {k} times the iteration time on {S}.", "en"),
    ("{Bg}的 step time 是{S}的 {k} 倍", "zh"),
    ("使用{Bg}的每步耗时大约是{S}的 {k} 倍", "zh"),
]


def step_ratios() -> list[Case]:
    """Sides × a step's time said as a multiple of the other run's."""
    cases = []
    for (form, lang), k in itertools.product(STEP_RATIO, (1.5, 3)):
        for s, bg, small, big, sk in SIDES_EN if lang == "en" else SIDES_ZH:
            sp = round(big / small / k, 4)
            want: dict[str, object] = {SP: sp, BG if sk == "gpus" else BN: small}
            if sp < 1:
                want[NS] = True
            text = form.format(S=s, Bg=bg, k=fmt(k))
            if lang == "en" and sk == "gpus":
                continue  # ('the step time on 16 GPUs': the same forms, read alike)
            cases.append((f"ratio/{lang}", text, want, [] if sp < 1 else [NS]))
    return cases


TABLES = [
    ("| nodes | throughput |\n|---|---|\n| {s} | {a} samples/s |\n| {b} | {bv} samples/s |", "total"),
    ("| nodes | step time |\n|---|---|\n| {s} | {a} s |\n| {b} | {bv} s |", "step"),
    ("机器数 | 吞吐\n--- | ---\n{s} | {a} tokens/s\n{b} | {bv} tokens/s", "total"),
]


# one run counted, the other 'multi-node' uncounted: the whole run's throughput and an epoch's time still give the
# speed-up; a step's time does not (a step on more machines may do more work)
MANY = [("a single node", "multiple nodes"), ("one node", "multi-node"), ("单机", "多机"), ("单节点", "多节点")]
MANY_SHAPES = ["On {S} we get {A}; on {Bg} only {B}.", "{S}: {A}. {Bg}: {B}.", "{S} {A}，{Bg}要 {B}"]


def one_and_many() -> list[Case]:
    """A one-machine run and an uncounted multi-machine one × measures × shapes."""
    cases = []
    for (s, bg), shape, (mname, (en, zh, kind)) in itertools.product(MANY, MANY_SHAPES, MEASURES.items()):
        zh_side = not s.isascii()
        if zh_side != (not shape.isascii()) or kind in ("rate", "pergpu"):
            continue
        for a, b in VALUES[kind]:
            phrase = zh if zh_side else en
            text = shape.format(S=s, Bg=bg, A=phrase.format(v=fmt(a)), B=phrase.format(v=fmt(b)))
            if kind == "step":
                want: dict[str, object] = {BN: 1, ST: b, STB: a}
                absent = [SP]
            else:
                sp = round(speedup(kind, a, b, 1), 4)
                want, absent = {BN: 1, SP: sp}, [N]
                if sp < 1:
                    want[NS] = True
                else:
                    absent.append(NS)
            cases.append((f"many/{mname}", text, want, absent))
    return cases


def tables() -> list[Case]:
    """A table of runs, one row per run."""
    cases = []
    for (form, kind), (small, big) in itertools.product(TABLES, ((1, 2), (1, 4), (2, 4))):
        for a, b in VALUES[kind]:
            text = form.format(s=small, b=big, a=fmt(a), bv=fmt(b))
            want, absent = want_for(kind, a, b, small, big, "nodes")
            cases.append((f"table/{kind}", text, want, absent))
    return cases


def qualitative() -> list[Case]:
    """Sides × the comparisons said without a pair of figures."""
    cases = []
    for lang, sides, forms in (("en", SIDES_EN, QUAL_EN), ("zh", SIDES_ZH, QUAL_ZH)):
        for (s, bg, small, big, sk), (fi, (form, want, absent)) in itertools.product(sides, enumerate(forms)):
            if sk == "nodes" and big == 1:
                continue
            text = form.format(S=s, Bg=bg)
            if lang == "en":
                text = text[0].upper() + text[1:]
            w = dict(want)
            w[BG if sk == "gpus" else BN] = small
            if sk == "nodes":
                w[N] = big
            cases.append((f"qual/{lang}/form{fi}", text, w, list(absent)))
    return cases


SERIES = [
    ("It scales linearly up to 4 nodes, then drops.", {BN: 4}, [SP]),
    ("Scaling is fine up to 4 nodes and drops off at 8 nodes.", {BN: 4, N: 8}, []),
    ("每加一台机器训练就更慢", {NS: True}, [SP]),
    ("机器越多反而越慢", {NS: True}, [SP]),
    ("The more nodes I add, the slower it gets.", {NS: True}, [SP]),
    ("Every node I add makes the step slower.", {NS: True}, [SP]),
]

TRAPS = [
    ("RoCE is 2x faster than TCP on our 2 nodes.", {}, [SP, NS, BN, BG]),
    ("Megatron is 30% faster than DeepSpeed on 4 nodes.", {}, [SP, NS, BN, BG]),
    ("两台机器上 IB 比 TCP 快 3 倍", {}, [SP, NS, BN, BG]),
    ("How much faster would 4 nodes be than 1 node?", {}, [SP, NS]),
    ("What speed-up should I expect from 1 node to 2 nodes?", {}, [SP, NS]),
    ("我想从单机扩到两机，能快多少？", {}, [SP, NS]),
    ("如果用两机，速度会是单机的 1.8 倍吗？", {}, [SP, NS]),
    ("In the paper 2 nodes reach 3000 samples/s; we get 1500 samples/s on our 2 nodes.", {}, [SP, NS, BN]),
    ("Another user reports 0.4 s per step on 4 nodes, we see 0.9 s per step on 4 nodes.", {}, [SP, NS, BN]),
    # two NICs, two frameworks: not a scaling comparison
    ("With the 100G NIC a step takes 0.5 s, with the 25G NIC 0.8 s, both on 2 nodes.", {}, [SP, NS, BN, BG]),
    ("On 2 nodes DeepSpeed takes 0.9 s per step and FSDP 0.6 s.", {}, [SP, NS, BN, BG]),
    ("RoCE gives 1500 samples/s and TCP 900 samples/s on our 2 nodes.", {}, [SP, NS, BN, BG]),
    ("两台机器，用 IB 每步 0.5 秒，用以太网每步 1.2 秒", {}, [SP, NS, BN, BG]),
    ("2 机训练，DeepSpeed 每秒 3000 tokens，Megatron 每秒 4000 tokens", {}, [SP, NS, BN, BG]),
    # what-ifs
    ("If I add a node, will it be faster? One node does 0.5 s per step now.", {}, [SP, NS]),
    ("Would going from 1 node to 2 nodes make it faster?", {}, [SP, NS]),
    ("Will 4 nodes be slower than 1 node with 10G ethernet?", {}, [SP, NS]),
    ("如果加一台机器，会更快吗？现在单机每步 0.5 秒", {}, [SP, NS]),
    ("两机会不会比单机还慢？", {}, [SP, NS]),
    # someone else's numbers, a maintainer's reproduction
    ("On 2 nodes we get 1500 samples/s, but the maintainer reproduced 3000 samples/s on 2 nodes.", {}, [SP, NS, BN]),
    ("Our 2 nodes do 0.8 s per step; the paper reports 0.4 s per step on 2 nodes.", {}, [SP, NS, BN]),
    ("我们两机每步 0.8 秒，官方在两机上复现是 0.4 秒", {}, [SP, NS, BN]),
    # warm-up vs steady state
    ("On 2 nodes the first 100 steps take 2 s each, then it settles to 0.5 s per step.", {}, [SP, NS, BN]),
    ("两机训练，前几十步每步 3 秒，之后稳定在每步 0.6 秒", {}, [SP, NS, BN]),
    # different batch sizes: per-step time incomparable, the throughput decides
    ("1 node (batch 32 per GPU): 0.5 s per step, 512 samples/s. 2 nodes (batch 16 per GPU): 0.4 s per step, "
     "640 samples/s.", {SP: 1.25, BN: 1, N: 2}, [NS]),
    # per-GPU vs total throughput
    ("Per-GPU throughput is 300 samples/s on 1 node and 200 samples/s on 2 nodes.", {SP: 1.3333, BN: 1, N: 2},
     [NS]),
    ("单机每卡 300 samples/s，两机每卡 200 samples/s", {SP: 1.3333, BN: 1, N: 2}, [NS]),
]


def fixed(family: str, rows: list[tuple[str, dict[str, object], list[str]]]) -> list[Case]:
    """Listed rows as cases of one family."""
    return [(f"{family}/{i}", t, w, a) for i, (t, w, a) in enumerate(rows)]


def all_cases() -> list[Case]:
    """Every generated case and the listed families."""
    return (figured() + qualitative() + step_ratios() + one_and_many() + tables() + fixed("series", SERIES)
            + fixed("trap", TRAPS))


# Forms from public threads ('multi node slower than single node', '多机比单机慢'), rephrased.
REAL = [
    ("For 100 epochs (all things kept similar)\n1 node takes 22.3 minute\n2 node takes 24.4 minute.",
     {SP: 0.9139, NS: True, BN: 1, N: 2}, []),
    ("For training on my model:\n2 Nodes: 1 second 1 step\n1 Node: 1 second 4 step",
     {SP: 0.5, NS: True, BN: 1, N: 2, ST: 1.0, STB: 0.25}, []),
    ("改为 HYBRID_SHARD 后，使用2机16卡的step_time大约是使用单机8卡的2倍。", {SP: 1.0, BN: 1, BG: 8, N: 2}, [NS]),
    ("单卡能跑到0.15秒一个batch。同样的4卡只能跑到0.35秒一个batch。", {SP: 1.7143, BG: 1, ST: 0.35, STB: 0.15}, [NS]),
    ("相同条件下，多机单卡比单机单卡慢66倍。", {SP: 0.0152, NS: True, BN: 1}, []),
    ("I found using 2 nodes is significantly slower than using 1 node 8 gpus.", {NS: True, BN: 1, BG: 8, N: 2}, []),
]


# Forms posters use, one row each (records with '=', '(vs … on 1 node)', a run named in brackets after its figure, a
# series of three runs, '… on one node to 1800 on two'); the rows of NOT_YET are forms not read yet.
SAID = [
    ("With 1 node I get ~2.5 it/s, with 2 nodes ~1.1 it/s", {SP: 0.88, NS: True, BN: 1, N: 2}, []),
    ("single node 8xA100: 45 min/epoch; 2 nodes (16xA100): 70 min/epoch", {SP: 0.6429, NS: True, BN: 1, N: 2}, []),
    ("1 node = 3000 tok/s, 2 nodes = 3200 tok/s", {SP: 1.0667, BN: 1, N: 2}, [NS]),
    ("Throughput: 1 node 1200 samples/sec, 2 nodes 1300 samples/sec", {SP: 1.0833, BN: 1, N: 2}, [NS]),
    ("Scaling from 1 to 2 nodes gives 1.1x speedup", {SP: 1.1, BN: 1, N: 2}, [NS]),
    ("Training 1 epoch takes 2h on 1 node and 3h on 2 nodes", {SP: 0.6667, NS: True, BN: 1, N: 2}, []),
    ("1机8卡: 12 s/it; 2机16卡: 20 s/it", {SP: 1.2, BN: 1, N: 2, ST: 20, STB: 12}, [NS]),
    ("单机8卡一个epoch 40分钟，双机16卡一个epoch 55分钟", {SP: 0.7273, NS: True, BN: 1, N: 2}, []),
    ("2机速度只有单机的80%", {SP: 0.8, NS: True, BN: 1, N: 2}, []),
    ("两机的吞吐跟单机差不多", {BN: 1, N: 2}, [NS]),
    ("the 2-node run is 40% slower than the 1-node run", {SP: 0.6, NS: True, BN: 1, N: 2}, []),
    ("speed on 2 nodes: 1.5 it/s (vs 2.8 it/s on 1 node)", {SP: 1.0714, BN: 1, N: 2}, [NS]),
    ("ETA for 1 node is 10h, for 2 nodes 14h", {SP: 0.7143, NS: True, BN: 1, N: 2}, []),
    ("1 node: 0.9s/iter, 2 nodes: 1.7s/iter, 4 nodes: 3.5s/iter", {SP: 1.0286, BN: 1, N: 4}, [NS]),
    ("tokens/s per GPU drops from 3000 on one node to 1800 on two", {SP: 1.2, BN: 1, N: 2}, [NS]),
    ("Single node: ~11.5 samples/sec. 2 nodes: ~12 samples/sec total.", {SP: 1.0435, BN: 1, N: 2}, [NS]),
    ("On 8 GPUs (1 node) we get 0.45s/step, on 16 GPUs (2 nodes) 0.9 s/step", {SP: 1.0, BN: 1, N: 2}, [NS]),
    ("每个 step 单机 1.2s，双机 2.6s", {SP: 0.9231, NS: True, BN: 1, N: 2}, []),
    ("2 nodes run at 60% of the speed of one node", {SP: 0.6, NS: True, BN: 1, N: 2}, []),
    ("4 nodes give us barely more throughput than 2 nodes.", {BN: 2, N: 4}, [NS]),
    ("Going multi-node (2 nodes) halves our throughput compared to 1 node.", {SP: 0.5, NS: True, BN: 1, N: 2}, []),
    ("单机训练一个 epoch 要 2 小时，上了两台机器反而要 3 小时", {SP: 0.6667, NS: True, BN: 1, N: 2}, []),
    ("1 GPU: 100 img/s, 8 GPUs: 500 img/s", {SP: 5.0, BG: 1}, [NS]),
    ("8 GPUs on one node: 4000 img/s. 16 GPUs on two nodes: 4200 img/s.", {SP: 1.05, BN: 1, N: 2}, [NS]),
    ("Our samples/s went from 800 (1 node) to 950 (2 nodes).", {SP: 1.1875, BN: 1, N: 2}, [NS]),
    ("2 nodes: 2.1 s/it. 1 node: 1.2 s/it.", {SP: 1.1429, BN: 1, N: 2}, [NS]),
    ("single node 1.2 it/s vs dual node 0.7 it/s", {SP: 1.1667, BN: 1, N: 2}, [NS]),
]
NOT_YET = [
    # a per-GPU unit named before the first figure, the second figure bare after its run ('两机降到 1800')
    ("单机 tokens/s/gpu 为 3000，两机降到 1800", {SP: 1.2, BN: 1, N: 2}, [NS]),
    # '25m' for minutes: 'm' is as often metres or millions
    ("elapsed 25m on one node vs 41m on two", {SP: 0.6098, NS: True, BN: 1, N: 2}, []),
    # a bare figure in the next sentence, its run a bare count ('With two it needs 9.')
    ("With one node the run finishes in 6 hours. With two it needs 9.", {SP: 0.6667, NS: True, BN: 1, N: 2}, []),
]


def _check(text: str, want: dict[str, object], absent: list[str]) -> None:
    facts = understand(text).facts
    for key, value in want.items():
        got = facts.get(key)
        assert got is not None, (key, facts)
        if isinstance(value, bool):
            assert got == value, (key, facts)
        else:
            assert math.isclose(float(got), float(value), rel_tol=2e-3), (key, got, value, facts)  # type: ignore[arg-type]
    for key in absent:
        assert key not in facts, (key, facts)


CASES = all_cases() + fixed("real", REAL) + fixed("said", SAID)


@pytest.mark.parametrize(("family", "text", "want", "absent"), CASES, ids=[f"{c[0]}:{c[1][:40]}" for c in CASES])
def test_a_comparison_of_runs(family: str, text: str, want: dict[str, object], absent: list[str]) -> None:
    _check(text, want, absent)


@pytest.mark.xfail(strict=True, reason="forms not read yet (see NOT_YET)")
@pytest.mark.parametrize(("text", "want", "absent"), NOT_YET, ids=[t[:40] for t, _, _ in NOT_YET])
def test_a_comparison_not_read_yet(text: str, want: dict[str, object], absent: list[str]) -> None:
    _check(text, want, absent)
