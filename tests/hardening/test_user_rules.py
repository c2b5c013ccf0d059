"""User rule folders (issue 14, defect 7): a broken or hostile file is skipped with a warning and the
service still starts; lint refuses rules past the cost budget (nested comprehensions, big literals,
format widths); a diagnosis stops evaluating conditions past its time budget."""

from __future__ import annotations

import logging
import time

import httpx
import pytest

from bwdoctor.engine import engine as engine_module
from bwdoctor.engine import lint_paths
from bwdoctor.engine.loader import load_rulebase

GOOD = """rules:
  - id: user-slow-nic
    category: nic-undersized
    severity: warning
    when: ["nic.speed_gbps < 11.0"]
    title: {en: "slow NIC {nic.speed_gbps:.1f}", zh: "网卡慢 {nic.speed_gbps}"}
    explanation: {en: "slow", zh: "慢"}
    source: [H21]
"""


def rule(rule_id: str, condition: str, title: str = "t") -> str:
    return (
        GOOD.replace("user-slow-nic", rule_id)
        .replace("nic.speed_gbps < 11.0", condition)
        .replace("slow NIC {nic.speed_gbps:.1f}", title)
    )


NESTED = "[1,2,3,4,5,6,7,8,9,10]"
HOSTILE = {
    "deep.yaml": "rules:" + " [" * 10_000 + "\n",
    "bomb.yaml": GOOD.replace("    source: [H21]\n", "    source: [H21]\n    concludes: {x.y: &a [*a]}\n").replace(
        "user-slow-nic", "user-bomb"
    )
    + "x: &b [lol, lol]\ny: [*b, *b, *b]\n",
    "laughs.yaml": "a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n"
    + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{','.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8)),
    "nested.yaml": rule("user-nested", f"{NESTED}.all(a, {NESTED}.all(b, {NESTED}.all(c, nic.speed_gbps > a)))"),
    "literal.yaml": rule("user-literal", "nic.speed_gbps in [" + ",".join(str(i) for i in range(100)) + "]"),
    "wide.yaml": rule("user-wide", "nic.speed_gbps < 11.0", "{nic.speed_gbps:>100000000}"),
}


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "good.yaml").write_text(GOOD)
    for name, text in HOSTILE.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def test_hostile_files_are_skipped_with_a_warning_and_good_rules_load(folder):
    started = time.monotonic()
    base = load_rulebase([folder])
    assert time.monotonic() - started < 10
    assert not base.problems and "user-slow-nic" in base.rules
    skipped = {w.file.rsplit("/", 1)[-1] for w in base.warnings}
    assert skipped == set(HOSTILE)
    assert not {"user-nested", "user-literal", "user-wide", "user-bomb"} & set(base.rules)


def test_lint_names_each_cost_problem(folder):
    messages = " | ".join(str(p) for p in lint_paths([folder]))
    for expected in ("nested more than", "more than 64 items", "width or precision", "aliases", "deeper than"):
        assert expected in messages, messages


def test_the_built_in_rules_fit_the_budget():
    assert load_rulebase().problems == []  # every built-in condition and template passed the cost checks


def test_a_diagnosis_past_its_time_budget_stops_evaluating(monkeypatch, caplog, engine):
    facts = engine.validate_facts(
        {"job.model_params_b": 100, "job.precision": "fp16", "job.nodes": 8, "nic.speed_gbps": 10}
    )
    assert engine.diagnose(facts).findings  # within the budget: findings
    monkeypatch.setattr(engine_module, "DIAGNOSIS_BUDGET_S", -1.0)
    with caplog.at_level(logging.WARNING, logger="bwdoctor.engine"):
        over = engine.diagnose(facts)
    assert not [f for f in over.findings if f.severity == "critical"]
    assert sum("time budget" in r.message for r in caplog.records) == 1


def test_the_service_starts_with_a_hostile_rule_folder(folder, tmp_path):
    from tests.helpers import service_process

    url = f"sqlite:///{tmp_path / 'bwd.db'}"
    from bwdoctor.migrations import upgrade_database

    upgrade_database(url)
    with service_process(url, {"BWDOCTOR_RULES_DIRS": str(folder)}) as base:
        assert httpx.get(f"{base}/healthz").status_code == 200
        answer = httpx.post(f"{base}/api/v1/diagnose", json={"facts": {"nic.speed_gbps": 10}})
        assert answer.status_code == 200
        assert "user-slow-nic" in {f["rule"] for f in answer.json()["findings"]}
