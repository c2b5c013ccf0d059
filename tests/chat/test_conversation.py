"""Turns that build on earlier ones: facts accumulate, corrections replace, what-ifs compare, why explains."""

from typing import Any

from bwdoctor.chat import answer_turn, understand
from bwdoctor.chat.answer import merge_facts
from bwdoctor.chat.compose import collect_recommendations
from bwdoctor.chat.extract import Understood

FIRST = "我们用8台机器做数据并行，训练一个100B参数的模型，FP16，网卡是10GbE，GPU利用率只有40%，CPU很闲。为什么这么慢？"


def _turns(engine: Any, *questions: str) -> list[dict[str, Any]]:
    facts: dict[str, Any] = {}
    findings: list[dict[str, Any]] = []
    out = []
    for q in questions:
        r = answer_turn(q, engine=engine, previous_facts=facts, previous_findings=findings)
        if r["intent"] != "what_if":
            facts, findings = r["facts"], r["findings"]
        out.append(r)
    return out


def test_facts_accumulate_over_turns(engine: Any) -> None:
    first, second = _turns(engine, "We train a 13B model on 4 nodes.", "The network is 25GbE and GPU util is 55%.")
    assert second["facts"]["job.model_params_b"] == 13
    assert second["facts"]["nic.speed_gbps"] == 25
    assert second["facts"]["gpu.util_pct"] == 55


def test_correction_replaces_the_fact_zh(engine: Any) -> None:
    first, second = _turns(engine, FIRST, "不对，是25G")
    assert second["intent"] == "correction"
    assert second["facts"]["nic.speed_gbps"] == 25
    assert second["corrected"]["nic.speed_gbps"] == {"from": 10, "to": 25}
    assert "原为" in second["answer"]
    assert second["derived"]["comm.sync_time_naive_s"] == 64


def test_correction_replaces_the_fact_en(engine: Any) -> None:
    _, second = _turns(engine, "70B model on 8 nodes with 10GbE", "actually it's 25GbE")
    assert second["intent"] == "correction"
    assert second["facts"]["nic.speed_gbps"] == 25
    assert second["facts"]["job.model_params_b"] == 70


def test_assumed_fact_does_not_override_a_stated_one() -> None:
    merged, corrected = merge_facts({"nic.rdma": True}, [Understood("nic.rdma", False, "GbE", 0, 3, inferred=True)])
    assert merged["nic.rdma"] is True and not corrected


def test_what_if_recomputes_and_keeps_the_conversation_facts(engine: Any) -> None:
    first, what_if = _turns(engine, FIRST, "what if we move to 100GbE?")
    assert what_if["intent"] == "what_if"
    assert what_if["facts"]["nic.speed_gbps"] == 10  # the job is unchanged; only the what-if differs
    w = what_if["what_if"]
    assert w["before"]["comm.sync_time_naive_s"] == 160 and w["after"]["comm.sync_time_naive_s"] == 16
    assert w["after"]["comm.allreduce_time_s"] == 28
    assert "160" in what_if["answer"] and "16" in what_if["answer"]


def test_what_if_accumulation_and_precision(engine: Any) -> None:
    _, acc, fp8 = _turns(engine, FIRST, "如果梯度累积8步呢？", "what if we use fp8?")
    assert acc["what_if"]["after"]["comm.allreduce_amortised_s"] == 35
    assert "学习率" in acc["answer"]
    assert fp8["what_if"]["after"]["comm.grad_gbytes"] == 100


def test_what_if_without_a_job_asks_for_it(engine: Any) -> None:
    r = answer_turn("what if we move to 100GbE?", engine=engine)
    assert r["intent"] == "what_if"
    assert "current setup" in r["answer"]


def test_why_shows_conditions_values_and_rules(engine: Any) -> None:
    first, why = _turns(engine, FIRST, "为什么这么说？")
    assert why["intent"] == "why"
    rule = first["findings"][0]["rule"]
    assert rule in why["answer"]
    assert "job.model_params_b" in why["answer"] or "模型规模" in why["answer"]
    assert "160" in why["answer"]


def test_why_about_one_finding_en(engine: Any) -> None:
    first, why = _turns(engine, "100B fp16 model on 8 nodes, 10GbE, GPU util 40%, CPU idle",
                        "why do you say the NIC is too slow?")
    assert why["intent"] == "why"
    nic = [f for f in first["findings"] if f["category"] == "nic-undersized"]
    assert nic and nic[0]["rule"] in why["answer"]


def test_why_without_history_is_not_a_crash(engine: Any) -> None:
    r = answer_turn("why?", engine=engine)
    assert r["answer"].strip()


def test_help_and_out_of_scope_are_polite(engine: Any) -> None:
    assert "Bandwidth Doctor" in answer_turn("help", engine=engine)["answer"]
    off = answer_turn("Write me a poem about cats", engine=engine)
    assert off["intent"] == "out_of_scope" and "training" in off["answer"]


def test_lang_override(engine: Any) -> None:
    r = answer_turn(FIRST, engine=engine, lang="en")
    assert r["language"] == "en" and "Conclusion" in r["answer"]


def test_answer_leads_with_conclusion_then_numbers_then_remedies(engine: Any) -> None:
    answer = answer_turn(FIRST, engine=engine)["answer"]
    order = [answer.index(x) for x in ("结论", "算一笔账", "怎么办", "我理解到的信息")]
    assert order == sorted(order)


def test_remedies_software_first_measurements_apart() -> None:
    findings = [{"category": "nic-undersized", "severity": "critical", "recommendations": [
        {"id": "upgrade-nic", "kind": "hardware", "text": "hw"},
        {"id": "measure-iperf3", "kind": "measurement", "text": "m"},
        {"id": "gradient-compression", "kind": "software", "text": "sw"}]},
        {"category": "comm-bound", "severity": "warning", "recommendations": [
            {"id": "overlap-communication", "kind": "configuration", "text": "cfg"},
            {"id": "gradient-compression", "kind": "software", "text": "sw"}]}]
    remedies, measures = collect_recommendations(findings)
    assert [r["id"] for r in remedies] == ["overlap-communication", "gradient-compression", "upgrade-nic"]
    assert [m["id"] for m in measures] == ["measure-iperf3"]


def test_at_most_three_questions(engine: Any) -> None:
    r = answer_turn("training is slow", engine=engine)
    asked = [line for line in r["answer"].splitlines() if line.startswith("- ") and line.endswith("?")]
    assert 1 <= len(asked) <= 3


def test_echo_carries_spans() -> None:
    u = understand("We run on 25GbE")
    (nic,) = [x for x in u.understood if x.fact == "nic.speed_gbps"]
    assert "We run on 25GbE"[nic.start:nic.end] == "25GbE"


def test_invalid_value_is_dropped_with_a_note(engine: Any) -> None:
    r = answer_turn("GPU utilization 40%, 0 nodes", engine=engine, previous_facts={"gpu.util_pct": 30})
    assert r["facts"]["gpu.util_pct"] == 40
