"""The knowledge base the chat answers from: bilingual, found by the chat itself, and right where the article is wrong.

Which entry answers a question is decided the way the product decides it: `answer_turn` reads the
question (intent, topics) and calls `bwdoctor.chat.knowledge.find_answers`; the tests read the ids it
quotes (`result["knowledge"]`) and the reply text it gives. Words are matched on word boundaries
(`says`), and figures are parsed out of the text and checked against each other, so "28" is not
found inside "280" and an answer whose numbers are changed fails.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest

from bwdoctor.chat import answer_turn
from bwdoctor.engine.loader import RuleBase, load_rulebase
from bwdoctor.engine.model import KnowledgeEntry
from tests.matching import CJK, NUMBER, figures, says

TEMPLATE = re.compile(r"\{[a-z_][a-z0-9_.]*(?::[^}]*)?\}")

ONLY_WAY_ZH = "带宽不够导致训练慢，加带宽是不是唯一出路？"
SINGLE_NODE_ZH = "单机8卡训练，需要额外关注网络带宽吗？"
CLOUD_EN = (
    "We're renting GPU instances in the cloud for multi-node training. "
    "How should we choose the bandwidth configuration?"
)

# Entries the chat does not give for their own question today (what it does instead). Each is a strict
# xfail: the day the chat finds one, the test says so and the line goes.
NOT_FOUND_BY_THE_CHAT: dict[tuple[str, str], str] = {
    ("avg-bus-bandwidth-sweep", "en"): "quotes nccl-tests-howto instead",
    ("avg-bus-bandwidth-sweep", "zh"): "quotes nccl-tests-howto instead",
    ("bandwidth-sizing-tiers", "en"): "read as out_of_scope, no knowledge answer",
    ("cloud-instance-bandwidth", "en"): "read as a diagnosis, no knowledge answer",
    ("cloud-instance-bandwidth", "zh"): "read as a diagnosis, no knowledge answer",
    ("data-parallel-traffic", "en"): "quotes parallelism-bandwidth-sensitivity instead",
    ("data-parallel-traffic", "zh"): "read as a diagnosis, no knowledge answer",
    ("effective-batch-comparison", "en"): "read as a diagnosis, no knowledge answer",
    ("effective-batch-comparison", "zh"): "read as a diagnosis, no knowledge answer",
    ("identify-bottleneck-first", "en"): "read as a diagnosis, no knowledge answer",
    ("identify-bottleneck-first", "zh"): "read as a diagnosis, no knowledge answer",
    ("intra-vs-inter-node", "en"): "read as a diagnosis, no knowledge answer",
    ("intra-vs-inter-node", "zh"): "read as a diagnosis, no knowledge answer",
    ("is-bandwidth-the-bottleneck", "en"): "quotes troubleshooting-procedure instead",
    ("is-bandwidth-the-bottleneck", "zh"): "quotes troubleshooting-procedure instead",
    ("pipeline-parallel-across-nodes", "en"): "read as a diagnosis, no knowledge answer",
    ("pipeline-parallel-across-nodes", "zh"): "read as a diagnosis, no knowledge answer",
    ("rdma-for-large-models", "en"): "read as a diagnosis, no knowledge answer",
    ("rdma-for-large-models", "zh"): "read as a diagnosis, no knowledge answer",
    ("roce-vs-infiniband-vs-efa", "en"): "read as a diagnosis, no knowledge answer",
    ("roce-vs-infiniband-vs-efa", "zh"): "read as a diagnosis, no knowledge answer",
    ("same-availability-zone", "en"): "read as out_of_scope, no knowledge answer",
    ("same-availability-zone", "zh"): "read as a diagnosis, no knowledge answer",
    ("separate-gear-port-quota", "en"): "quotes troubleshooting-procedure instead",
    ("shared-storage-contention", "en"): "read as a diagnosis, no knowledge answer",
    ("shared-storage-contention", "zh"): "read as a diagnosis, no knowledge answer",
    ("socket-ifname-bootstrap-only", "en"): "read as a diagnosis, no knowledge answer",
    ("socket-ifname-bootstrap-only", "zh"): "read as a diagnosis, no knowledge answer",
    ("step-time-baseline", "en"): "read as a diagnosis, no knowledge answer",
    ("step-time-baseline", "zh"): "read as out_of_scope, no knowledge answer",
    ("straggler-nodes", "en"): "read as out_of_scope, no knowledge answer",
    ("straggler-nodes", "zh"): "read as a diagnosis, no knowledge answer",
    ("sync-time-arithmetic", "en"): "read as a diagnosis, no knowledge answer",
    ("sync-time-arithmetic", "zh"): "read as a diagnosis, no knowledge answer",
    ("tensor-parallel-across-nodes", "en"): "read as a diagnosis, no knowledge answer",
    ("tensor-parallel-across-nodes", "zh"): "read as a diagnosis, no knowledge answer",
    ("troubleshooting-procedure", "en"): "read as a diagnosis, no knowledge answer",
    ("watch-nic-traffic", "en"): "read as out_of_scope, no knowledge answer",
    ("watch-nic-traffic", "zh"): "read as out_of_scope, no knowledge answer",
}


@cache
def rulebase() -> RuleBase:
    """The built-in rule base; a load failure is a failure of every test here, never a skip."""
    base = load_rulebase([])
    assert not base.problems, [p.describe() for p in base.problems]
    assert base.knowledge, "rules/knowledge.yaml holds no entries"
    return base


@pytest.fixture(scope="module")
def knowledge() -> dict[str, KnowledgeEntry]:
    return rulebase().knowledge


def chat(engine: Any, question: str) -> tuple[list[str], str]:
    """The knowledge entries the chat quotes for `question` (first = the main answer) and its reply."""
    result = answer_turn(question, engine=engine)
    return [k["id"] for k in result.get("knowledge") or []], result["answer"]


def _entry_questions() -> list[tuple[str, str]]:
    return [(entry.id, lang) for entry in rulebase().knowledge.values() for lang in ("en", "zh")]


def _param(entry_id: str, lang: str) -> Any:
    why = NOT_FOUND_BY_THE_CHAT.get((entry_id, lang))
    marks = [pytest.mark.xfail(strict=True, reason=f"the chat {why}")] if why else []
    return pytest.param(entry_id, lang, marks=marks, id=f"{entry_id}-{lang}")


def test_every_entry_is_complete_in_both_languages(knowledge):
    for entry in knowledge.values():
        for lang in ("en", "zh"):
            assert entry.question[lang].strip(), (entry.id, lang, "question")
            assert entry.answer[lang].strip(), (entry.id, lang, "answer")
            words = entry.keywords.get(lang, ())
            assert words and all(w.strip() for w in words), (entry.id, lang, "keywords")
        assert CJK.search(entry.question["zh"]) and CJK.search(entry.answer["zh"]), entry.id
        assert not CJK.search(entry.question["en"]) and not CJK.search(entry.answer["en"]), entry.id


def test_answers_are_substantial_but_not_essays(knowledge):
    for entry in knowledge.values():
        en, zh = entry.answer["en"], entry.answer["zh"]
        assert 250 <= len(en) <= 1400, (entry.id, len(en))
        assert 100 <= len(zh) <= 700, (entry.id, len(zh))
        sentences = len(re.findall(r"[。！？]", zh))
        assert 3 <= sentences <= 8, (entry.id, sentences)


def test_answers_hold_no_template_placeholders(knowledge):
    for entry in knowledge.values():
        for text in (*entry.answer.values(), *entry.question.values()):
            assert not TEMPLATE.search(text), entry.id


def test_the_known_gaps_name_real_entries(knowledge):
    assert {entry_id for entry_id, _ in NOT_FOUND_BY_THE_CHAT} <= set(knowledge)


@pytest.mark.parametrize(("entry_id", "lang"), [_param(*q) for q in _entry_questions()])
def test_the_chat_answers_an_entrys_own_question_with_it(engine, knowledge, entry_id, lang):
    entry = knowledge[entry_id]
    quoted, reply = chat(engine, entry.question[lang])
    assert quoted[:1] == [entry_id], f"{entry.question[lang]!r} → {quoted}"
    # quoted whole, in the question's language (the reply folds what follows the lead under "In more detail:")
    assert _unfolded(entry.answer[lang]) in _unfolded(reply)


def _unfolded(text: str) -> str:
    return re.sub(r"\s+", "", re.sub(r"In more detail:|详细说明：", "", text))


def test_is_more_bandwidth_the_only_way_out(engine, knowledge):
    quoted, reply = chat(engine, ONLY_WAY_ZH)
    assert quoted[:1] == ["more-bandwidth-only-way"], quoted
    assert reply.startswith(("不是", "并非")), reply[:40]  # the answer is "no", first
    assert says(reply, "梯度压缩") and says(reply, "梯度累积")
    assert says(reply, "checkpoint") or says(reply, "检查点")
    assert "H36" in knowledge["more-bandwidth-only-way"].source


def test_single_node_eight_gpus(engine, knowledge):
    quoted, reply = chat(engine, SINGLE_NODE_ZH)
    assert quoted[:1] == ["single-node-8-gpus"], quoted
    assert says(reply, "NVLink") or says(reply, "PCIe")
    assert says(reply, "数据") or says(reply, "存储")
    assert says(reply, "本地") or says(reply, "缓存")
    assert "H37" in knowledge["single-node-8-gpus"].source


def test_choosing_cloud_bandwidth(engine, knowledge):
    quoted, reply = chat(engine, CLOUD_EN)
    assert quoted[:1] == ["choosing-cloud-bandwidth"], quoted
    assert says(reply, "same availability zone") and says(reply, "high-bandwidth")
    assert "H38" in knowledge["choosing-cloud-bandwidth"].source


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_articles_arithmetic_adds_up(knowledge, lang):
    """100B in fp16 = 200 GB; size ÷ rate (naive) and × 2·(N−1)/N (ring) on 10, 100 and 400 Gb/s."""
    answer = knowledge["sync-time-arithmetic"].answer[lang]
    size = figures(answer, "GB(?!/)")[0]
    link_gbps = figures(answer, "GbE|Gb/s")
    link_gbytes_s = figures(answer, "GB/s")
    seconds = figures(answer, "s|秒")
    if lang == "en":
        factor, nodes = map(float, re.findall(rf"{NUMBER} on {NUMBER} nodes", answer)[0])
    else:
        nodes, factor = map(float, re.findall(rf"{NUMBER} 个节点是 {NUMBER}", answer)[0])
    assert size == 100 * 2  # 100B parameters × 2 bytes
    assert link_gbps == [10, 100, 400]
    assert link_gbytes_s == [g / 8 for g in link_gbps]
    assert factor == pytest.approx(2 * (nodes - 1) / nodes) and nodes == 8
    naive, ring = seconds[:3], seconds[3:]
    assert naive == [pytest.approx(size / r) for r in link_gbytes_s] == [160, 16, 4]
    assert ring == [pytest.approx(t * factor) for t in naive] == [280, 28, 7]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_ring_volume_adds_up(knowledge, lang):
    """2·(N−1)/N of the buffer through each NIC: 1× for 2 nodes, 1.75× for 8; 350 GB at three link rates."""
    answer = knowledge["ring-allreduce-volume"].answer[lang]
    assert figures(answer, "×|倍")[:2] == [1, 1.75]
    gradients, per_node = figures(answer, "GB(?!/)")[:2]
    assert per_node == gradients * 1.75 == 350
    if lang == "en":
        pairs = [(float(t), float(r)) for t, r in re.findall(rf"{NUMBER} s at {NUMBER} Gb/s", answer)]
    else:
        pairs = [(float(t), float(r)) for r, t in re.findall(rf"{NUMBER}Gb/s 下 {NUMBER} 秒", answer)]
    assert [r for _, r in pairs] == [10, 100, 400]
    assert [t for t, _ in pairs] == [pytest.approx(per_node / (r / 8)) for _, r in pairs]


def test_corrections_of_the_article_are_encoded(knowledge):
    # H7: gradient volume follows the parameter count, not the batch size.
    batch = knowledge["batch-size-and-communication"]
    assert batch.answer["en"].startswith("Not for data-parallel gradient sync")
    assert says(batch.answer["en"], "micro-batch × sequence length × hidden size")
    assert "H7" in batch.source
    # H17: 2·(N−1)/N, just under 2×, not "several times".
    ring = knowledge["ring-allreduce-volume"]
    assert says(ring.answer["en"], "2·(N−1)/N") and says(ring.answer["en"], "never exceeds 2×")
    # H29: optimizer state is larger than the weights; do not save it instead of them.
    ckpt = knowledge["checkpoint-bandwidth"]
    assert "Do not 'save only the optimizer state" in ckpt.answer["en"]
    assert "不要“只存优化器状态" in ckpt.answer["zh"]
    assert all(says(ckpt.answer["en"], w) for w in ("10·N", "local NVMe", "asynchronously", "sharded"))
    # H26: accumulation comes with the learning-rate caveat.
    assert says(knowledge["gradient-accumulation"].answer["en"], "learning rate")
    assert says(knowledge["gradient-accumulation"].answer["zh"], "学习率")


def test_field_knowledge_is_there(knowledge):
    wanted = {
        "iperf3-howto": ["iperf3 -s", "-P 4", "-R", "-J", "Gbits/sec"],
        "nccl-tests-howto": ["all_reduce_perf", "algbw", "busbw", "2(n−1)/n", "Avg bus bandwidth"],
        "nccl-debug-transport": ["NCCL_DEBUG=INFO", "Using network Socket", "NET/IB"],
        "nccl-env-vars": ["NCCL_SOCKET_IFNAME", "NCCL_IB_HCA", "NCCL_IB_DISABLE"],
        "gpudirect-rdma": ["nvidia-peermem", "GDRDMA"],
        "mtu-jumbo-frames": ["9000", "ping -M do -s 8972"],
        "roce-vs-infiniband-vs-efa": ["RoCEv2", "InfiniBand", "EFA", "aws-ofi-nccl"],
        "straggler-nodes": ["slowest rank", "ethtool"],
    }
    for entry_id, needles in wanted.items():
        answer = knowledge[entry_id].answer["en"]
        missing = [n for n in needles if not says(answer, n)]
        assert missing == [], (entry_id, missing)


def test_measurement_pitfalls_are_there(knowledge):
    """Issue 13's pitfalls: the sweep average, a changed effective batch, and what NCCL_SOCKET_IFNAME chooses —
    each with the public source it rests on."""
    wanted = {
        "avg-bus-bandwidth-sweep": (
            ["Avg bus bandwidth", "largest sizes", "-b 512M", "12 GB/s per 100 Gb/s"],
            ["最大几行", "-b 512M"],
            "https://github.com/NVIDIA/nccl-tests/issues/40",
        ),
        "effective-batch-comparison": (
            ["effective batch", "per-GPU batch × GPUs × gradient accumulation", "samples per second", "learning rate"],
            ["有效 batch", "学习率", "每秒样本数"],
            "https://arxiv.org/abs/1706.02677",
        ),
        "socket-ifname-bootstrap-only": (
            ["bootstrap", "NCCL_IB_HCA", "routing table", "ip route get", "-x"],
            ["bootstrap", "NCCL_IB_HCA", "路由表", "ip route get"],
            "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-socket-ifname",
        ),
    }
    for entry_id, (en_needles, zh_needles, url) in wanted.items():
        entry = knowledge[entry_id]
        assert [n for n in en_needles if not says(entry.answer["en"], n)] == [], entry_id
        assert [n for n in zh_needles if not says(entry.answer["zh"], n)] == [], entry_id
        assert url in entry.source, entry_id
    # the sweep's arithmetic: 12 GB/s per 100 Gb/s NIC and 24 per 200 are 96 % of the line rate (×8 bits)
    en = knowledge["avg-bus-bandwidth-sweep"].answer["en"]
    per_nic = [(float(b), float(r)) for b, r in re.findall(rf"{NUMBER} GB/s per {NUMBER} Gb/s", en)]
    assert per_nic == [(12, 100), (24, 200)]
    assert all(b * 8 / r == pytest.approx(0.96) for b, r in per_nic)


def test_says_matches_whole_words_and_figures():
    assert says("280 s and 28 s", "28") and not says("280 s", "28") and not says("2800", "280")
    assert not says("2.8 s", "8") and not says("28.5 s", "28") and says("it is 28.", "28")
    assert says("run iperf3 -R here", "-R") and not says("iperf3 -Rx", "-R")
    assert says("走NVLink或PCIe", "NVLink") and says("先做梯度压缩", "梯度压缩")
    assert figures("10 GbE ≈ 1.25 GB/s → 160 s; 100Gb/s 下 28 秒", "s|秒") == [160, 28]
