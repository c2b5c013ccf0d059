"""A user rule naming a recommendation nobody defines is one more broken user file (issue 14,
defect 7): reported and skipped — a built-in rule it replaced comes back — and `bwdoctor serve`
starts anyway. The built-in rules and `bwdoctor rules lint` still treat it as an error."""

from __future__ import annotations

import os
import subprocess
import sys

import httpx

from bwdoctor.engine import lint_paths
from bwdoctor.engine.loader import load_rulebase
from tests.hardening.test_user_rules import GOOD
from tests.helpers import REPO, free_port, wait_healthy

# A rule of its own, and one replacing the built-in nic-below-25g-for-10b-100b, each naming a typo.
DANGLING = GOOD.replace("user-slow-nic", "user-dangling").replace(
    "    source: [H21]\n", "    recommendations: [upgrade-nics]\n    source: [H21]\n"
)
REPLACING = DANGLING.replace("user-dangling", "nic-below-25g-for-10b-100b")
SLOW_NIC = {"nic.speed_gbps": 10, "job.model_params_b": 13, "job.nodes": 4, "job.precision": "bf16"}


def write_folder(tmp_path):
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "good.yaml").write_text(GOOD)
    (folder / "dangling.yaml").write_text(DANGLING)
    (folder / "replacing.yaml").write_text(REPLACING)
    return folder


def test_the_rule_is_skipped_with_a_warning_naming_it(tmp_path):
    base = load_rulebase([write_folder(tmp_path)])
    assert base.problems == []
    assert "user-slow-nic" in base.rules and "user-dangling" not in base.rules
    back = base.rules["nic-below-25g-for-10b-100b"]  # the built-in one is back
    assert back.file.endswith("rules/network.yaml") and back.recommendations[-1] == "upgrade-nic"
    messages = [str(w) for w in base.warnings]
    assert len(messages) == 2, messages
    for rule_id in ("user-dangling", "nic-below-25g-for-10b-100b"):
        [message] = [m for m in messages if rule_id in m]
        assert "unknown recommendation 'upgrade-nics'" in message
        assert "upgrade-nic" in message.split("'upgrade-nics'")[1]  # the closest known one


def test_lint_still_refuses_it(tmp_path):
    problems = [str(p) for p in lint_paths([write_folder(tmp_path)])]
    assert sum("unknown recommendation 'upgrade-nics'" in p for p in problems) == 2, problems


def test_bwdoctor_serve_starts_and_says_what_it_skipped(tmp_path):
    port = free_port()
    env = {
        **os.environ,
        "BWDOCTOR_DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.db'}",
        "BWDOCTOR_RULES_DIRS": str(write_folder(tmp_path)),
        "PYTHONPATH": str(REPO),
    }
    env.pop("BWDOCTOR_TEST_DATABASE_URL", None)
    command = [sys.executable, "-m", "bwdoctor.cli", "serve", "--port", str(port), "--no-access-log"]
    proc = subprocess.Popen(command, env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_healthy(base, timeout_s=60, process=proc)
        answer = httpx.post(f"{base}/api/v1/diagnose", json={"facts": SLOW_NIC}, timeout=30)
        assert answer.status_code == 200, answer.text
        fired = {f["rule"] for f in answer.json()["findings"]}
    finally:
        proc.terminate()
        log, _ = proc.communicate(timeout=30)
    assert {"user-slow-nic", "nic-below-25g-for-10b-100b"} <= fired and "user-dangling" not in fired
    assert "Traceback" not in log
    assert "user-dangling" in log and "unknown recommendation 'upgrade-nics'" in log, log
