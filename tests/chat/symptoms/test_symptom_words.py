"""Symptoms said in words: stalls now and then, a GPU load that swings or waits for data, data loading or
checkpoint saves said to lag, a link that goes down and comes back, one node behind the others — and what the engine
concludes from them, end to end.

Each question is short, in the style of forum threads (EN and ZH): a few facts, a symptom, a question. Each case names
the facts that must be read with their value (None: must not be read) and the categories that must be reached, or must
not be. The negatives: a symptom denied, asked about, said of another run or of before a change, a loss that swings, a
hang that never comes back, and a vague phrase that must not become a figure.
"""

from __future__ import annotations

import pytest

from bwdoctor.chat import answer_turn

CV, GPU, LOAD, CKPT, FLAP, STRAG = ("job.step_time_cv", "gpu.util_pct", "job.data_loading_slow", "job.checkpoint_slow",
                                    "nic.link_flaps", "job.straggler_suspected")
JIT, INPUT, REMOTE, CKPT_C = "network-jitter", "input-pipeline-cpu", "remote-storage-io", "checkpoint-contention"
LINK, STRAG_C, COMM = "link-degraded", "straggler-node", "comm-bound"

# (question, facts that must be read (None: not read), categories reached, categories that must not be)
CASES: list[tuple[str, dict[str, object], set[str], set[str]]] = [
    # --- stalls now and then, Chinese
    ("两台机器各 8 张 A100，100G RoCE，训练时快时慢，是网络的问题吗？", {CV: 0.3}, {JIT}, set()),
    ("每隔一段时间就卡一下，两机 16 卡，25G 以太网。怎么排查？", {CV: 0.3}, {JIT}, set()),
    ("4 机 32 卡 IB，训练时不时卡顿几秒，是什么原因？", {CV: 0.3}, {JIT}, set()),
    ("8 机 64 卡 IB，监控 all_reduce 耗时，梯度同步时间时不时异常升高，是网络抖动吗？", {CV: 0.3}, {JIT}, set()),
    ("两机 RoCE，每 500 步就卡几十秒，正常吗？", {CV: 0.3}, {JIT}, set()),
    ("两机 100G，训练速度一阵快一阵慢，怎么定位？", {CV: 0.3}, {JIT}, set()),
    # --- stalls now and then, English
    ("4 nodes, 8x H100 each, IB 400G. Step time fluctuates a lot. Why?", {CV: 0.3}, {JIT}, set()),
    ("2 nodes, RoCE. Every few hundred steps training stalls for 20-30 seconds. What could it be?", {CV: 0.3}, {JIT},
     set()),
    ("Our 4-node job freezes for a few seconds every couple of minutes. 100GbE between nodes.", {CV: 0.3}, {JIT},
     set()),
    ("8 nodes on IB HDR. The all-reduce time occasionally spikes to several times its usual value.", {CV: 0.3}, {JIT},
     set()),
    # --- not a stall: denied, asked, another run, the loss, a hang, a slow drift
    ("训练没有卡顿，step 时间很稳定，但就是比单机慢，两机 25G。", {CV: 0.02}, set(), {JIT}),
    ("Step time is stable, but scaling from 1 to 2 nodes is poor. 2 nodes, 25GbE.", {CV: 0.02}, set(), {JIT}),
    ("之前用 TCP 的时候时快时慢，换成 RDMA 以后就好了，两机。", {CV: None}, set(), {JIT}),
    ("It used to stall every few minutes before we fixed the MTU; now 2 nodes run fine.", {CV: None}, set(), {JIT}),
    ("两机 RoCE，loss 时不时升高，是网络问题吗？", {CV: None}, set(), {JIT}),
    ("训练会不会每隔一段时间就卡一下？两机。", {CV: None}, set(), {JIT}),
    ("The job hangs at the first all_reduce on 2 nodes with RoCE. Why?", {CV: None}, set(), {JIT}),
    ("训练一段时间后越来越慢，4 机 32 卡 A100，200G IB。", {CV: None}, set(), {JIT}),
    ("单机 8 卡，训练时快时慢，是不是网络问题？", {CV: 0.3}, set(), {JIT}),
    # --- the GPUs' load swings or waits for data
    ("GPU 利用率忽高忽低，两机 25G 以太网，是通信瓶颈吗？", {GPU: 50}, {COMM}, set()),
    ("GPU util keeps jumping around, 2 nodes over 25GbE. Is it the network?", {GPU: 50}, {COMM}, set()),
    ("GPU 利用率 40%，忽高忽低，两机。", {GPU: 40.0}, set(), set()),
    ("单机 8 卡，GPU 在等数据，怎么办？", {GPU: 50, LOAD: True}, {INPUT}, set()),
    ("GPU 利用率上不去，两机 16 卡，万兆网。怎么办？", {GPU: 50}, {COMM}, set()),
    # --- data loading said to lag, or said to keep up
    ("数据加载跟不上，GPU 利用率很低，单机 8 卡。", {LOAD: True, GPU: 50}, {INPUT}, set()),
    ("The dataloader is the bottleneck on our 2-node job (25GbE). What should we do?", {LOAD: True}, {INPUT}, {COMM}),
    ("数据读取跟不上 GPU，4 机，数据在 OSS 上。", {LOAD: True, "job.data_source": "object_store"}, {REMOTE}, set()),
    ("Data loading can't keep up with the GPUs, data is on NFS, 2 nodes.", {LOAD: True, "job.data_source": "nas"},
     {REMOTE}, set()),
    ("数据加载不是瓶颈，两机，GPU 利用率 40%。", {LOAD: False, GPU: 40.0}, set(), {INPUT}),
    ("The dataloader is fast, yet 2 nodes are slower than 1. GPU util 45%.", {LOAD: False}, set(), {INPUT}),
    ("Is the dataloader the bottleneck? 2 nodes, GPU util 60%.", {LOAD: None}, set(), set()),
    ("有人说是数据 IO 跟不上，但我从本地读和从 HDFS 读，GPU 利用率差不多。", {LOAD: None}, set(), set()),
    # --- checkpoint saves said to be slow
    ("保存模型的时候很慢，4 机，checkpoint 写到 NFS。怎么优化？",
     {CKPT: True, "job.checkpoint_target": "network"}, {CKPT_C}, set()),
    ("Saving checkpoints takes forever on our 8-node job. Any advice?", {CKPT: True}, {CKPT_C}, set()),
    ("每次存 checkpoint 都要卡很久，两机 A800。", {CKPT: True}, {CKPT_C}, set()),
    ("Saving a checkpoint takes about 400 seconds, 2 nodes.", {"job.checkpoint_save_s": 400.0}, {CKPT_C}, set()),
    ("保存 checkpoint 很快，训练还是慢，两机。", {CKPT: False}, set(), {CKPT_C}),
    ("两机 RoCE，每 500 步卡几十秒，NAS 上存 checkpoint，为什么？", {CKPT: True, CV: 0.3}, {CKPT_C, JIT}, set()),
    ("训练时不时卡顿，两机，checkpoint 存本地 NVMe。", {CKPT: None, CV: 0.3}, {JIT}, {CKPT_C}),
    ("checkpoint 保存会不会卡住训练？两机。", {CKPT: None}, set(), {CKPT_C}),
    # --- a link that goes down and comes back
    ("Link keeps flapping on one of the nodes and NCCL errors out. 4 nodes, RoCE.", {FLAP: True}, {LINK}, set()),
    ("网口频繁 down，训练中断，两机 RoCE 100G。", {FLAP: True}, {LINK}, set()),
    ("两机 IB，链路偶尔闪断，之后 NCCL 就报错。", {FLAP: True}, {LINK}, set()),
    ("dmesg 里没有 link down，两机 IB，训练还是慢。", {FLAP: False}, set(), set()),
    ("No link flaps in dmesg, 2 nodes IB, still slow.", {FLAP: False}, set(), set()),
    # --- one node behind the others
    ("一台机器比其他的慢，拖后腿，4 机 IB。怎么定位？", {STRAG: True}, {STRAG_C}, set()),
    ("One node is always the straggler in our 8-node job. How do we find why?", {STRAG: True}, {STRAG_C}, set()),
    ("8 nodes, no straggler: all nodes show the same step time, but scaling is poor.", {STRAG: False}, set(),
     {STRAG_C}),
    # --- one machine: the inter-node network is not the point
    ("单机 8 卡 A100，GPU 利用率忽高忽低，是 NVLink 的问题吗？", {GPU: 50, "job.nodes": 1}, set(), {JIT, COMM}),
]


@pytest.mark.parametrize(("text", "facts", "reached", "absent"), CASES, ids=[c[0][:40] for c in CASES])
def test_symptom_in_words(engine, text: str, facts: dict[str, object], reached: set[str], absent: set[str]) -> None:
    out = answer_turn(text, engine=engine)
    got = out["facts"]
    for name, value in facts.items():
        if value is None:
            assert name not in got, f"{name} read as {got.get(name)!r}"
        else:
            assert got.get(name) == value, f"{name}: {got.get(name)!r}, expected {value!r}"
    categories = {f["category"] for f in out["findings"]}
    assert reached <= categories, f"missing {reached - categories}; got {categories}"
    assert not (absent & categories), f"should not be: {absent & categories}"
