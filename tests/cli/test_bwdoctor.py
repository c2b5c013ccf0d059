"""`bwdoctor` as a user runs it: real processes, real exit codes, one-line errors and no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO

BWDOCTOR = [sys.executable, "-m", "bwdoctor.cli"]
ARTICLE = {"job.model_params_b": 100, "job.precision": "fp16", "job.nodes": 8, "nic.speed_gbps": 10}


def run(*args: str, stdin: str | None = None, cwd: Path | None = None, env: dict | None = None):
    return subprocess.run(
        [*BWDOCTOR, *args], input=stdin, capture_output=True, text=True, cwd=cwd or REPO, env=env, timeout=60
    )


def test_diagnose_json_from_stdin():
    proc = run("diagnose", "-", "--format", "json", stdin=json.dumps(ARTICLE))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["derived"]["comm.sync_time_naive_s"] == 160
    assert out["findings"][0]["severity"] == "critical"


def test_diagnose_text_from_a_yaml_file_in_chinese(tmp_path):
    job = tmp_path / "job.yaml"
    job.write_text("job.model_params_b: 100\njob.precision: fp16\njob.nodes: 8\nnic.speed_gbps: 10\n")
    proc = run("diagnose", str(job), "--lang", "zh")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("结论: 发现严重问题")
    assert "160" in proc.stdout and "梯度压缩" in proc.stdout


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ('{"job.nodes": "eight"}', "fact 'job.nodes': got 'eight', expected an integer ≥ 1"),
        ('{"job.precision": "fp12"}', "expected one of fp32, bf16, fp16, fp8, int8"),
        ("[1, 2, 3]", "expected an object of fact name → value"),
        ("job: [unclosed", "neither valid JSON nor valid YAML"),
        ("", "input is empty"),
    ],
)
def test_bad_input_is_one_line_exit_2_without_traceback(stdin, message):
    proc = run("diagnose", "-", stdin=stdin)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_missing_file_is_a_usage_error():
    proc = run("diagnose", "/no/such/file.json")
    assert proc.returncode == 2 and "cannot read facts from /no/such/file.json" in proc.stderr


def test_unknown_option_is_a_usage_error():
    assert run("diagnose", "--format", "xml").returncode == 2


def test_rules_lint_and_test_pass_on_the_builtin_rules():
    lint = run("rules", "lint")
    assert lint.returncode == 0, lint.stderr
    assert "rules lint: ok" in lint.stdout


def test_rules_lint_fails_on_a_bad_user_file(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("rules:\n  - id: oops\n    category: nope\n")
    proc = run("rules", "lint", str(bad))
    assert proc.returncode == 1
    assert f"{bad}:3 [oops]: unknown category 'nope'" in proc.stderr


def test_rules_test_runs_a_users_own_rules_and_tests(tmp_path):
    (tmp_path / "mine.yaml").write_text(
        "rules:\n  - id: my-slow-nic\n    category: nic-undersized\n    severity: warning\n"
        "    when: ['nic.speed_gbps < 40.0']\n    title: {en: slow, zh: 慢}\n"
        "    explanation: {en: slow, zh: 慢}\n    source: [H21]\n"
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "mine_test.yaml").write_text(
        "tests:\n  - name: fires\n    facts: {nic.speed_gbps: 25}\n    expect: {fires: [my-slow-nic]}\n"
        "  - name: wrong on purpose\n    facts: {nic.speed_gbps: 100}\n    expect: {fires: [my-slow-nic]}\n"
    )
    proc = run("rules", "test", str(tmp_path / "tests"))
    assert proc.returncode == 1
    assert "rules test: 1 passed, 1 failed" in proc.stdout
    assert "FAIL" in proc.stdout and "wrong on purpose" in proc.stdout


@pytest.mark.slow
def test_an_installed_wheel_ships_the_rules_and_works_from_any_folder(tmp_path):
    wheel_dir = tmp_path / "wheel"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheel_dir), str(REPO)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr
    wheel = next(wheel_dir.glob("bandwidth_doctor-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "bwdoctor/engine/builtin_rules/facts.yaml" in names
    assert "bwdoctor/engine/builtin_rules/network.yaml" in names
    # Installed under distinct import names only (the folders service/, tool_parsers/, agent_probe/ are renamed).
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert top == {"bwdoctor", "bwdoctor_parsers", "bwdoctor_probe"}
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); from bwdoctor.cli import main; "
         "sys.argv = ['bwdoctor', 'diagnose', '--format', 'json']; main()", str(site)],
        input=json.dumps(ARTICLE),
        capture_output=True,
        text=True,
        cwd=elsewhere,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["derived"]["comm.grad_gbytes"] == 200
    assert str(site) in subprocess.run(
        [sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
         "from bwdoctor.engine import builtin_rules_dir; print(builtin_rules_dir())", str(site)],
        capture_output=True, text=True, cwd=elsewhere,
    ).stdout
