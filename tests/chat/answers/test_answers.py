"""What a user checks in a reply: the question asked is answered first (yes / no / not sure, with the number
that decides it), no number is left unfilled, follow-up questions fit the case (none about the network for
one server, no how-to for a tool whose output was pasted), an assumed fact never makes a finding critical,
what could not be reconciled is asked in the user's language, and nothing is said twice."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from bwdoctor.chat import answer_turn
from bwdoctor.chat.relevance import UNFILLED, drop_unfilled, inter_node
from bwdoctor.chat.verdict import yes_no_kind

NCCL_TESTS = """\
#                                                              out-of-place                       in-place
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
   268435456      67108864     float     sum      -1   108093    2.48    4.66      0   108051    2.48    4.66      0
   536870912     134217728     float     sum      -1   215906    2.49    4.66      0   215811    2.49    4.66      0
  1073741824     268435456     float     sum      -1   431474    2.49    4.67      0   431389    2.49    4.67      0
# Out of bounds values : 0 OK
# Avg bus bandwidth    : 4.66
"""


def first_block(result: dict[str, Any]) -> str:
    """What the web chat shows unfolded: the reply's first paragraph."""
    return str(result["answer"]).split("\n\n", 1)[0]


# --------------------------------------------------------------------------- yes/no first, with the number
def test_is_25gbe_enough_says_no_first_with_the_sync_time(engine: Any) -> None:
    r = answer_turn("Is 25 GbE enough for us? We train a 70B model in bf16 on 4 nodes.", engine=engine)
    head = first_block(r)
    assert head.startswith("No — ")
    assert "67.2 s" in head and "140 GB" in head  # the ring all-reduce of 70B × 2 bytes over 4 nodes at 25 Gb/s
    assert r["verdict"]["network_is_problem"] is True
    # No table of NIC sizes and no question about the NIC speed just given.
    assert "Rules of thumb" not in r["answer"] and "knowledge" not in r
    assert all(m["fact"] != "nic.speed_gbps" for m in r["missing"])
    assert "What is the network between the machines" not in r["answer"]


def test_zh_enough_question_says_buguo_first_with_the_number(engine: Any) -> None:
    r = answer_turn("这个带宽够不够？8台机器，100B模型FP16，10GbE网卡", engine=engine)
    head = first_block(r)
    assert head.startswith("不够。") and "280 秒" in head
    assert not re.search(r"\b(?:the|and|takes|sync)\b", head)  # one language
    assert "按规模对号入座" not in r["answer"] and "参考区间" not in r["answer"]  # no table of NIC sizes
    assert all(m["fact"] != "nic.speed_gbps" for m in r["missing"])


def test_network_question_yes_and_no_turn_on_the_share_of_the_step(engine: Any) -> None:
    yes = answer_turn("Is the network the problem? 4 nodes on 25GbE, 7B model in bf16, one step takes 10 s on "
                      "one node.", engine=engine)
    assert first_block(yes).startswith("Yes — ") and "6.72 s" in first_block(yes) and "10 s" in first_block(yes)
    no = answer_turn("Is the network the bottleneck? 8 nodes with 400G InfiniBand, 1B model in bf16, a step takes "
                     "2 s on one node.", engine=engine)
    assert first_block(no).startswith("No — ") and "0.07 s" in first_block(no)
    assert no["verdict"]["network_is_problem"] is False


def test_without_the_deciding_facts_the_answer_is_not_sure_and_names_them(engine: Any) -> None:
    r = answer_turn("Is 25 GbE enough for us?", engine=engine)
    head = first_block(r)
    assert head.startswith("Not sure yet — ") and "model size" in head
    assert r["verdict"]["network_is_problem"] is None
    asked = [m["fact"] for m in r["missing"]]
    assert "job.model_params_b" in asked and "nic.speed_gbps" not in asked


def test_missing_precision_is_assumed_out_loud_never_a_question_mark(engine: Any) -> None:
    r = answer_turn("2 nodes with 10GbE, 7B model, is the network the problem?", engine=engine)
    head = first_block(r)
    assert "14 GB" in head and "assuming BF16 gradients" in head
    zh = answer_turn("两台机器，万兆网卡，7B 模型，是网络的问题吗？", engine=engine)
    assert "假设梯度为 BF16" in first_block(zh)


@pytest.mark.parametrize(("text", "kind"), [
    ("Is 25 GbE enough for us?", "enough"), ("这个带宽够不够？", "enough"), ("25G网卡够用吗", "enough"),
    ("Is the network the problem?", "network"), ("是不是网络的问题？", "network"), ("瓶颈是网络吗", "network"),
    ("Do we need to upgrade to 100G?", "upgrade"), ("需要升级到100G吗？", "upgrade"),
    ("Why is training slow on 8 nodes?", None), ("How do I run nccl-tests?", None),
])
def test_yes_no_questions_are_recognised(text: str, kind: str | None) -> None:
    assert yes_no_kind(text) == kind


# --------------------------------------------------------------------------- one server
@pytest.mark.parametrize("question", [
    "单机8卡A100训练很慢，GPU利用率只有50%，是网络的问题吗？",
    "One server with 8 GPUs, training a 7B model, GPU util 45%, slow. Why?",
    "单机8卡训练，需要额外关注网络带宽吗？",
])
def test_one_server_is_never_asked_about_the_network_between_machines(engine: Any, question: str) -> None:
    r = answer_turn(question, engine=engine)
    assert r["facts"]["job.nodes"] == 1
    assert not [m["fact"] for m in r["missing"] if inter_node(m["fact"])]
    assert not re.search(r"between (?:the )?(?:machines|nodes)|机器之间|两台|iperf3 -c|nccl-tests across", r["answer"])


def test_one_server_network_question_says_no_first(engine: Any) -> None:
    r = answer_turn("单机8卡A100训练很慢，GPU利用率只有50%，是网络的问题吗？", engine=engine)
    assert first_block(r).startswith("不是。") and "NVLink" in first_block(r)


# --------------------------------------------------------------------------- pasted output: no how-to for it
def test_no_nccl_tests_how_to_after_a_pasted_nccl_tests_table(engine: Any) -> None:
    q = f"Two nodes with 100GbE, 8 GPUs each. Our all_reduce_perf busbw:\n{NCCL_TESTS}\nWhy so slow?"
    r = answer_turn(q, engine=engine)
    assert "nccl-tests" in (r["pasted"] or {}).get("kinds", [])
    assert not re.search(r"build nccl-tests|Build nccl-tests|all_reduce_perf -b 8 -e 8G|Measure the collective",
                         r["answer"])
    assert all(m["fact"] != "nccl.allreduce_busbw_gbytes_per_s" for m in r["missing"])


def test_no_iperf3_how_to_when_the_iperf3_figure_was_given(engine: Any) -> None:
    r = answer_turn("2 nodes with 10GbE, iperf3 shows 38 Gbits/sec, 7B model, is the network the problem?",
                    engine=engine)
    assert "iperf3 -s" not in r["answer"]


# --------------------------------------------------------------------------- assumed facts
@pytest.mark.parametrize(("question", "if_word"), [
    ("我们用8台机器做数据并行，训练一个100B参数的模型，FP16，网卡是10GbE，GPU利用率只有40%，CPU很闲。为什么这么慢？",
     "如果"),
    ("We have 32 nodes training a 175B model in bf16 over 100GbE. Why is it slow?", "If "),
])
def test_a_finding_on_an_assumed_fact_is_at_most_a_warning_and_says_if(engine: Any, question: str,
                                                                      if_word: str) -> None:
    r = answer_turn(question, engine=engine)
    assumed = {u["fact"] for u in r["understood"] if u["inferred"]}
    resting = [f for f in r["findings"] if {e["fact"] for e in f["evidence"]} & assumed]
    assert resting, "the case must have a finding on an assumed fact to test"
    for f in resting:
        assert f["severity"] != "critical" and f["title"].startswith(if_word) and f["assumed"]
    severities = [f["severity"] for f in r["findings"]]
    order = {"critical": 0, "warning": 1, "info": 2}
    assert severities == sorted(severities, key=order.__getitem__)


def test_a_stated_fact_keeps_its_finding_critical(engine: Any) -> None:
    r = answer_turn("32 nodes training a 175B model in bf16 over 100GbE, no RDMA.", engine=engine)
    (f,) = [f for f in r["findings"] if f["category"] == "no-rdma-at-scale"]
    assert f["severity"] == "critical" and not f.get("assumed")


# --------------------------------------------------------------------------- unfilled numbers
QUESTIONS = [
    "what if we move to 100GbE?",
    "What if we accumulate 8 steps?",
    "We have 4 nodes. What if we used 100G InfiniBand?",
    "Is the network the problem?",
    "如果换成 100G 网卡会怎样？",
    "8 nodes, 25GbE, GPU util 40%, step time 2 s. Would gradient compression help?",
    "训练 13B 模型，4 台机器，梯度累积有用吗？",
    "Is 25 GbE enough for a 13B model?",
]


@pytest.mark.parametrize("question", QUESTIONS)
def test_no_answer_leaves_a_number_unfilled(engine: Any, question: str) -> None:
    assert not UNFILLED.search(answer_turn(question, engine=engine)["answer"])


def test_what_if_without_a_current_figure_shows_no_question_mark(engine: Any) -> None:
    first = answer_turn("4 nodes with 10GbE and a 13B model", engine=engine)
    r = answer_turn("what if we move to 100GbE?", engine=engine, previous_facts=first["facts"],
                    previous_findings=first["findings"])
    assert r["intent"] == "what_if" and "?" not in r["answer"].split("\n\n")[0].replace("?”", "")


def test_drop_unfilled_keeps_the_filled_sentences() -> None:
    text = "Sync takes ? s on this link. The link is 10 Gb/s.\n- a ring all-reduce: ? GB\nDone."
    assert drop_unfilled(text) == " The link is 10 Gb/s.\nDone."


# --------------------------------------------------------------------------- conflicts and not understood
def test_what_could_not_be_reconciled_is_asked_first_in_the_users_language(engine: Any) -> None:
    en = answer_turn("2 nodes with 10GbE, iperf3 shows 38 Gbits/sec, 7B model. Why slow?", engine=engine)
    zh = answer_turn("两台机器，万兆网卡，iperf3 测到 38 Gbits/sec，7B 模型，为什么慢？", engine=engine)
    for r, head, word in ((en, "To sharpen this, tell me:", "380 %"), (zh, "为了判断得更准，请告诉我：", "380 %")):
        assert r["unreconciled"]
        block = next(b for b in r["answer"].split("\n\n") if b.startswith(head))
        assert word in block.split("\n")[1]  # asked before the engine's questions
    assert "不可能" in zh["answer"] and "another tool" not in zh["answer"]


def test_numbers_not_understood_are_said_in_the_users_language(engine: Any) -> None:
    zh = answer_turn("两台机器训练 7B 模型，万兆网卡，设置了 42 什么的，为什么慢？", engine=engine)
    if zh["not_understood"]:
        assert "这些数字我没能理解" in zh["answer"] and "Numbers I could not place" not in zh["answer"]


# --------------------------------------------------------------------------- short, in order, nothing twice
@pytest.mark.parametrize("question", [
    "我们用8台机器做数据并行，训练一个100B参数的模型，FP16，网卡是10GbE，GPU利用率只有40%，CPU很闲。为什么这么慢？",
    "这个带宽够不够？8台机器，100B模型FP16，10GbE网卡",
    "Is 25 GbE enough for us? We train a 70B model in bf16 on 4 nodes.",
    "Training a 13B model on 4 nodes connected with 25GbE, data parallel in bf16. GPU utilization hovers around "
    "70%. Would gradient accumulation help?",
])
def test_nothing_is_said_twice_and_the_understood_facts_come_last(engine: Any, question: str) -> None:
    r = answer_turn(question, engine=engine)
    lines = [x.strip() for x in r["answer"].splitlines() if len(x.strip()) > 30]
    assert not [x for x, n in Counter(lines).items() if n > 1]
    for rec_id in ("gradient-compression", "gradient-accumulation", "upgrade-nic"):
        texts = [rec["text"] for f in r["findings"] for rec in f["recommendations"] if rec["id"] == rec_id]
        if texts:
            assert r["answer"].count(texts[0][:60]) <= 1, rec_id
    blocks = r["answer"].rstrip().split("\n\n")
    assert blocks[-1].startswith(("What I understood", "我理解到的信息"))
    assert len(first_block(r)) < 400  # the verdict and the answer fit the first screen


# --------------------------------------------------------------------------- which link is bad
@pytest.mark.parametrize(("question", "cluster", "words"), [
    ("Which link is bad in cluster prod-a?", "prod-a", "needs the Bandwidth Doctor service"),
    ("prod-a 集群哪条链路有问题？", "prod-a", "需要 Bandwidth Doctor 服务"),
])
def test_which_link_offline_says_politely_it_needs_the_service(engine: Any, question: str, cluster: str,
                                                              words: str) -> None:
    from bwdoctor.conversations.service import ask

    r = ask(question, engine=engine)  # `bwdoctor ask`: no database session
    assert r["intent"] == "which_link" and r["cluster"] == cluster
    assert words in r["answer"] and f"/clusters/{cluster}" in r["answer"]
    assert not r["findings"] and not UNFILLED.search(r["answer"])


def test_which_link_with_the_service_answers_from_the_fabric(engine: Any) -> None:
    asked: list[tuple[str, str]] = []

    def fabric(cluster: str, lang: str) -> str:
        asked.append((cluster, lang))
        return f"Cluster {cluster}: the NIC/port of node m2 (confidence 90%)."

    r = answer_turn("Which NIC is slow on the gpu-h100 cluster?", engine=engine, fabric=fabric)
    assert asked == [("gpu-h100", "en")] and r["answer"].startswith("Cluster gpu-h100: the NIC/port of node m2")
    # A question that names no cluster is an ordinary turn.
    assert answer_turn("Which link is bad?", engine=engine, fabric=fabric)["intent"] != "which_link"
    assert len(asked) == 1
