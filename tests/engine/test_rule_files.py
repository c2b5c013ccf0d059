"""Rule files are data users write: lint names file, rule id and line; a broken user file hurts only itself."""

from __future__ import annotations

import textwrap
from pathlib import Path

from bwdoctor.engine import load_engine
from bwdoctor.engine.loader import lint_paths, load_rulebase

GOOD_RULE = """
rules:
  - id: {id}
    category: {category}
    severity: warning
    when:
      - {condition}
    title: {{en: "Slow", zh: "慢"}}
    explanation: {{en: "NIC at {{nic.speed_gbps}} Gb/s", zh: "网卡 {{nic.speed_gbps}} Gb/s"}}
    source: [H21]
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def rule(id="my-rule", category="nic-undersized", condition="nic.speed_gbps < 40.0"):
    return GOOD_RULE.format(id=id, category=category, condition=condition)


def test_a_valid_user_rule_lints_clean(tmp_path):
    assert lint_paths([write(tmp_path, "mine.yaml", rule())]) == []


def test_lint_reports_each_mistake_with_file_rule_and_line(tmp_path):
    path = write(
        tmp_path,
        "bad.yaml",
        rule(id="typo-fact", condition="nic.sped_gbps < 40.0")
        + rule(id="bad-cat", category="network-slow").split("rules:")[1]
        + rule(id="bad-expr", condition="nic.speed_gbps <<< 3").split("rules:")[1]
        + rule(id="dup").split("rules:")[1]
        + rule(id="dup", condition="nic.speed_gbps < 1.0").split("rules:")[1],
    )
    problems = {p.rule_id: p for p in lint_paths([path])}
    assert "unknown fact 'nic.sped_gbps' (did you mean 'nic.speed_gbps'?)" in problems["typo-fact"].message
    assert "unknown category 'network-slow'" in problems["bad-cat"].message
    assert "invalid expression" in problems["bad-expr"].message
    assert all(p.file == str(path) and p.line for p in problems.values())
    assert "duplicate id 'dup'" in problems["dup"].message


def test_lint_flags_a_missing_translation(tmp_path):
    text = rule().replace('zh: "慢"', 'fr: "lent"')
    problems = lint_paths([write(tmp_path, "mine.yaml", text)])
    assert len(problems) == 1 and "'zh' translation" in problems[0].message


def test_lint_points_at_the_line_of_invalid_yaml(tmp_path):
    problems = lint_paths([write(tmp_path, "broken.yaml", "rules:\n  - id: x\n    when: [unclosed\n")])
    assert problems[0].line is not None and "invalid YAML" in problems[0].message


def test_user_rule_overrides_a_builtin_one_by_id(tmp_path):
    write(tmp_path, "override.yaml", rule(id="nic-below-25g-for-10b-100b", condition="nic.speed_gbps < 40.0"))
    engine = load_engine([tmp_path])
    facts = engine.validate_facts({"nic.speed_gbps": 30})
    assert "nic-below-25g-for-10b-100b" in {f.rule for f in engine.diagnose(facts).findings}


def test_a_broken_user_file_never_takes_the_builtin_rules_down(tmp_path):
    write(tmp_path, "broken.yaml", "rules: [\n")
    write(tmp_path, "half.yaml", rule(id="ok-rule") + rule(id="bad", category="nope").split("rules:")[1])
    base = load_rulebase([tmp_path])
    assert base.problems == []
    assert len(base.warnings) == 2
    assert "ok-rule" in base.rules and "bad" not in base.rules
    assert "nic-below-25g-for-10b-100b" in base.rules


def test_rules_dirs_come_from_the_environment(tmp_path, monkeypatch):
    write(tmp_path, "mine.yaml", rule(id="env-rule"))
    monkeypatch.setenv("BWDOCTOR_RULES_DIRS", str(tmp_path))
    assert "env-rule" in {r.id for r in load_engine().rules}


PLACEHOLDER_RULE = """
rules:
  - id: sync-too-slow
    category: nic-undersized
    severity: warning
    when:
      - job.model_params_b >= 10.0
      - comm.link_gbps < 25.0
    title: {en: "{comm.link_gbps} Gb/s is slow", zh: "{comm.link_gbps} Gb/s 太慢"}
    explanation:
      en: "one sync of {comm.grad_gbytes} GB takes {comm.sync_time_naive_s} s"
      zh: "每次同步 {comm.grad_gbytes} GB 需 {comm.sync_time_naive_s} 秒"
    source: [H21]
"""


def test_lint_fails_a_number_the_conditions_cannot_fill(tmp_path):
    """{comm.grad_gbytes} needs job.precision, which no condition reads: the reader would see '? GB'."""
    path = write(tmp_path, "mine.yaml", PLACEHOLDER_RULE)
    problems = lint_paths([path])
    assert [(p.file, p.rule_id, p.line) for p in problems] == [(str(path), "sync-too-slow", 10)]
    assert "{comm.grad_gbytes}" in problems[0].message and "'?'" in problems[0].message


def test_a_number_derived_from_the_conditions_or_resting_under_them_is_fillable(tmp_path):
    # comm.link_gbps rests on a link cap; with job.precision read too, the sync figures derive from them.
    link = "      - comm.link_gbps < 25.0"
    text = PLACEHOLDER_RULE.replace(link, link + "\n      - job.precision == 'fp16'")
    assert lint_paths([write(tmp_path, "mine.yaml", text)]) == []
    # a derived condition guarantees the facts its formula needs: net.efficiency_pct → iperf3 and NIC speed
    efficiency = rule(condition="net.efficiency_pct < 50.0").replace("nic.speed_gbps", "net.iperf3_gbps")
    assert lint_paths([write(tmp_path, "eff.yaml", efficiency)]) == []
