"""`bwdoctor jobs set CLUSTER job.yaml` and `jobs show CLUSTER` as processes, against the same default
database `bwdoctor serve` uses; the probe's `job_file:` puts the job's facts into its reports."""

from __future__ import annotations

import os
import subprocess
import sys

from bwdoctor_probe.collectors.job import collect_job_file
from tests.helpers import REPO


def bwdoctor(*args: str, home) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BWDOCTOR_")}
    env.update({"PYTHONPATH": str(REPO), "BWDOCTOR_HOME": str(home)})
    return subprocess.run([sys.executable, "-m", "bwdoctor.cli", *args], cwd=home, env=env,
                          capture_output=True, text=True, timeout=120)


def test_set_then_show_and_what_is_refused(tmp_path):
    missing = bwdoctor("jobs", "show", "llm", home=tmp_path)
    assert missing.returncode == 1 and "bwdoctor jobs set llm" in missing.stderr

    done = bwdoctor("jobs", "set", "llm", str(REPO / "examples" / "job.yaml"), home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "not kept: nic.kind" in done.stderr  # the example plans the network too: said, not stored
    shown = bwdoctor("jobs", "show", "llm", home=tmp_path)
    assert shown.returncode == 0 and "job.model_params_b: 70" in shown.stdout and "nic." not in shown.stdout
    assert f"database sqlite:///{tmp_path.resolve()}/bwdoctor.db" in shown.stdout

    bad = tmp_path / "bad.yaml"
    bad.write_text("job.precision: fp12\n")
    refused = bwdoctor("jobs", "set", "llm", str(bad), home=tmp_path)
    assert refused.returncode == 2 and "job.precision" in refused.stderr and "Traceback" not in refused.stderr
    typo = tmp_path / "typo.yaml"
    typo.write_text("job.nodez: 8\njob.model_params_b: 7\n")
    strict = bwdoctor("jobs", "set", "llm", str(typo), "--strict", home=tmp_path)
    assert strict.returncode == 2 and "did you mean job.nodes" in strict.stderr


def test_the_probe_reads_job_facts_from_its_job_file(tmp_path):
    job = tmp_path / "job.yaml"
    job.write_text("job:\n  model_params_b: 70\n  precision: bf16\nnic.speed_gbps: 10\n")
    result = collect_job_file(job)
    assert result.facts == {"job.model_params_b": 70, "job.precision": "bf16"}
    assert any("nic.speed_gbps" in note for note in result.notes)
    broken = tmp_path / "broken.yaml"
    broken.write_text("job: [unclosed\n")
    assert collect_job_file(broken).facts == {} and collect_job_file(broken).notes
    assert collect_job_file(tmp_path / "absent.yaml").notes
