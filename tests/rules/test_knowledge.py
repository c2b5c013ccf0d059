"""The knowledge base the chat answers from: bilingual, findable by keywords, and right where the article is wrong."""

from __future__ import annotations

import re

import pytest

from service.engine.loader import load_rulebase
from service.engine.model import KnowledgeEntry

CJK = re.compile(r"[\u4e00-\u9fff]")
TEMPLATE = re.compile(r"\{[a-z_][a-z0-9_.]*(?::[^}]*)?\}")

ONLY_WAY_ZH = "带宽不够导致训练慢，加带宽是不是唯一出路？"
SINGLE_NODE_ZH = "单机8卡训练，需要额外关注网络带宽吗？"
CLOUD_EN = (
    "We're renting GPU instances in the cloud for multi-node training. "
    "How should we choose the bandwidth configuration?"
)


@pytest.fixture(scope="module")
def knowledge() -> dict[str, KnowledgeEntry]:
    base = load_rulebase([])
    assert not base.problems, [p.describe() for p in base.problems]
    assert base.knowledge, "rules/knowledge.yaml holds no entries"
    return base.knowledge


def match(knowledge: dict[str, KnowledgeEntry], question: str, lang: str) -> list[tuple[int, str]]:
    """The simplest matcher a chat could use: how many of an entry's keywords occur in the question."""
    q = question.lower()
    scores = [(sum(1 for k in e.keywords[lang] if k.lower() in q), e.id) for e in knowledge.values()]
    return sorted(scores, key=lambda s: (-s[0], s[1]))


def best(knowledge: dict[str, KnowledgeEntry], question: str, lang: str) -> str:
    scores = match(knowledge, question, lang)
    assert scores[0][0] > 0, f"no keyword of any entry occurs in {question!r}"
    assert scores[0][0] > scores[1][0], f"{question!r} ties between {scores[0][1]} and {scores[1][1]}"
    return scores[0][1]


def entry_for(knowledge: dict[str, KnowledgeEntry], question: str) -> KnowledgeEntry:
    lang = "zh" if CJK.search(question) else "en"
    return knowledge[best(knowledge, question, lang)]


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


def test_every_entry_is_found_from_its_own_question(knowledge):
    for entry in knowledge.values():
        for lang in ("en", "zh"):
            assert best(knowledge, entry.question[lang], lang) == entry.id, (entry.id, lang)


def test_is_more_bandwidth_the_only_way_out(knowledge):
    entry = entry_for(knowledge, ONLY_WAY_ZH)
    assert entry.id == "more-bandwidth-only-way"
    answer = entry.answer["zh"]
    assert "不是" in answer or "并非" in answer
    assert "梯度压缩" in answer and "梯度累积" in answer
    assert "checkpoint" in answer.lower() or "检查点" in answer
    assert "H36" in entry.source


def test_single_node_eight_gpus(knowledge):
    entry = entry_for(knowledge, SINGLE_NODE_ZH)
    assert entry.id == "single-node-8-gpus"
    answer = entry.answer["zh"]
    assert "NVLink" in answer or "PCIe" in answer
    assert "数据" in answer or "存储" in answer
    assert "本地" in answer or "缓存" in answer
    assert "H37" in entry.source


def test_choosing_cloud_bandwidth(knowledge):
    entry = entry_for(knowledge, CLOUD_EN)
    assert entry.id == "choosing-cloud-bandwidth"
    answer = entry.answer["en"]
    assert "same availability zone" in answer and "high-bandwidth" in answer
    assert "H38" in entry.source
    # Its neighbour, found by the same words in other questions, gives the same two points.
    other = knowledge["cloud-instance-bandwidth"].answer["en"]
    assert "same availability zone" in other and "high-bandwidth" in other


def test_the_articles_arithmetic_is_reported_naive_and_ring(knowledge):
    for lang in ("en", "zh"):
        answer = knowledge["sync-time-arithmetic"].answer[lang]
        for figure in ("200", "1.25", "160", "12.5", "16", "50", "4", "280", "28", "7", "1.75"):
            assert figure in answer, (lang, figure)


def test_corrections_of_the_article_are_encoded(knowledge):
    # H7: gradient volume follows the parameter count, not the batch size.
    batch = knowledge["batch-size-and-communication"]
    assert batch.answer["en"].startswith("Not for data-parallel gradient sync")
    assert "micro-batch × sequence length × hidden size" in batch.answer["en"]
    assert "H7" in batch.source
    # H17: 2·(N−1)/N, just under 2×, not "several times".
    ring = knowledge["ring-allreduce-volume"]
    assert "2·(N−1)/N" in ring.answer["en"] and "1.75" in ring.answer["en"]
    assert "never exceeds 2×" in ring.answer["en"]
    # H29: optimizer state is larger than the weights; do not save it instead of them.
    ckpt = knowledge["checkpoint-bandwidth"]
    assert "Do not 'save only the optimizer state" in ckpt.answer["en"]
    assert "不要“只存优化器状态" in ckpt.answer["zh"]
    assert all(w in ckpt.answer["en"] for w in ("10·N", "local NVMe", "asynchronously", "sharded"))
    # H26: accumulation comes with the learning-rate caveat.
    assert "learning rate" in knowledge["gradient-accumulation"].answer["en"]
    assert "学习率" in knowledge["gradient-accumulation"].answer["zh"]


def test_field_knowledge_is_there(knowledge):
    wanted = {
        "iperf3-howto": ["iperf3 -s", "-P 4", "-R", "-J", "Gbits/sec"],
        "nccl-tests-howto": ["all_reduce_perf", "algbw", "busbw", "2(n−1)/n", "Avg bus bandwidth"],
        "nccl-debug-transport": ["NCCL_DEBUG=INFO", "Using network Socket", "NET/IB"],
        "nccl-env-vars": ["NCCL_SOCKET_IFNAME", "NCCL_IB_HCA", "NCCL_IB_DISABLE"],
        "gpudirect-rdma": ["nvidia-peermem", "GDRDMA"],
        "mtu-jumbo-frames": ["9000", "ping -M do -s 8972"],
        "roce-vs-infiniband-vs-efa": ["RoCE", "InfiniBand", "EFA", "aws-ofi-nccl"],
        "straggler-nodes": ["slowest rank", "ethtool"],
    }
    for entry_id, needles in wanted.items():
        answer = knowledge[entry_id].answer["en"]
        missing = [n for n in needles if n not in answer]
        assert missing == [], (entry_id, missing)
