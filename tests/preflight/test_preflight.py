"""Pre-flight: POST /api/v1/preflight and `bwdoctor preflight` (exit codes, formats, --server)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from bwdoctor.cli.jobfile import flatten, load_job_file
from bwdoctor.cli.preflight import exit_code, preflight_command
from tests.helpers import REPO, assert_error_shape, live_server

CRITICAL = {"job.model_params_b": 100, "job.precision": "fp16", "job.nodes": 8, "nic.speed_gbps": 10}
WARNING = {"job.comm_pattern": "parameter_server", "job.nodes": 4}
PASS = {"job.model_params_b": 7, "job.nodes": 1}


def run_cli(tmp_path, facts, *args, **kwargs):
    job = tmp_path / "job.yaml"
    job.write_text(facts if isinstance(facts, str) else json.dumps(facts))
    out, err = io.StringIO(), io.StringIO()
    code = preflight_command(str(job), *args, out=out, err=err, **kwargs)
    return code, out.getvalue(), err.getvalue()


def test_api_verdicts(client):
    r = client.post("/api/v1/preflight", json={"job": CRITICAL})
    assert r.status_code == 200 and r.json()["status"] == "critical"
    assert r.json()["findings"][0]["category"] == "nic-undersized"
    assert client.post("/api/v1/preflight", json={"job": WARNING}).json()["status"] == "warning"
    assert client.post("/api/v1/preflight", json={"job": PASS}).json()["status"] == "pass"


def test_api_errors(client):
    err = assert_error_shape(client.post("/api/v1/preflight", json={"job": {"job.nodes": 0}}), 422, "invalid_fact")
    assert err["details"]["key"] == "job.nodes"
    assert_error_shape(client.post("/api/v1/preflight", json={"job": PASS, "cluster": "nope"}), 404)
    assert_error_shape(client.post("/api/v1/preflight", json={}), 422, "validation_error")


def test_api_against_a_live_cluster(client, auth):
    for i in range(3):
        facts = {"node.cluster": "c1", "node.zone": "a", "nic.speed_gbps": 10 if i == 2 else 100}
        assert client.put(f"/api/v1/nodes/n{i}/facts", json={"facts": facts}, headers=auth).status_code == 201
    job = {"job.model_params_b": 100, "job.precision": "fp16", "job.nodes": 3}
    result = client.post("/api/v1/preflight", json={"job": job, "cluster": "c1"}).json()
    assert result["status"] == "critical"
    assert result["facts"]["cluster.nic_speed_min_gbps"] == 10
    assert result["cluster"]["stragglers"] == ["n2"] and result["cluster"]["nodes_fresh"] == 3


def test_exit_codes(tmp_path):
    assert run_cli(tmp_path, CRITICAL)[0] == 3
    assert run_cli(tmp_path, WARNING)[0] == 4
    assert run_cli(tmp_path, WARNING, fail_on="critical")[0] == 0
    assert run_cli(tmp_path, CRITICAL, fail_on="critical")[0] == 3
    assert run_cli(tmp_path, PASS)[0] == 0
    assert exit_code("pass") == 0 and exit_code("warning", "critical") == 0


def test_invalid_job_files_exit_2(tmp_path):
    code, _, err = run_cli(tmp_path, "job.nodes: [unclosed")
    assert code == 2 and "YAML" in err
    code, _, err = run_cli(tmp_path, "- a\n- b\n")
    assert code == 2 and "mapping" in err
    code, _, err = run_cli(tmp_path, {"job.nodes": "eight"})
    assert code == 2 and "job.nodes" in err
    assert preflight_command(str(tmp_path / "missing.yaml"), err=io.StringIO()) == 2
    assert run_cli(tmp_path, PASS, cluster="c1")[0] == 2  # --cluster needs --server
    assert run_cli(tmp_path, PASS, fmt="xml")[0] == 2


def test_nested_yaml_is_flattened(tmp_path):
    job = tmp_path / "job.yaml"
    job.write_text("job:\n  model_params_b: 100\n  precision: fp16\n  nodes: 8\nnic:\n  speed_gbps: 10\n")
    assert load_job_file(str(job)) == CRITICAL
    assert flatten({"job": {"job.nodes": 2}}) == {"job.nodes": 2}


def test_formats(tmp_path):
    code, out, _ = run_cli(tmp_path, CRITICAL, fmt="json")
    assert json.loads(out)["status"] == "critical"
    code, out, _ = run_cli(tmp_path, {**CRITICAL, **WARNING}, fmt="github")
    lines = out.splitlines()
    assert any(line.startswith("::error file=") for line in lines)
    assert any(line.startswith("::warning file=") for line in lines)
    assert all("\n" not in line for line in lines)
    code, out, _ = run_cli(tmp_path, {**CRITICAL, **WARNING}, fmt="junit", fail_on="critical")
    root = ET.fromstring(out)
    suite = root.find("testsuite")
    assert int(suite.get("failures")) == sum(1 for c in suite.iter("testcase") if c.find("failure") is not None)
    assert {f.get("type") for f in suite.iter("failure")} == {"critical"}
    code, out, _ = run_cli(tmp_path, PASS, fmt="junit")
    assert ET.fromstring(out).find("testsuite").get("failures") == "0"
    code, out, _ = run_cli(tmp_path, CRITICAL, fmt="text")
    assert out.startswith("preflight: CRITICAL") and "nic-undersized" in out


def test_cli_with_server_over_http(app, auth, tmp_path):
    with live_server(app) as base:
        import httpx

        for i in range(3):
            facts = {"node.cluster": "c9", "nic.speed_gbps": 100, "net.iperf3_gbps": 20 if i == 0 else 94}
            r = httpx.put(f"{base}/api/v1/nodes/n{i}/facts", json={"facts": facts}, headers=auth)
            assert r.status_code == 201
        code, out, _ = run_cli(tmp_path, PASS, server=base, cluster="c9", fmt="json")
        result = json.loads(out)
        assert result["cluster"]["stragglers"] == ["n0"]
        assert code == exit_code(result["status"])
        assert result["status"] in ("warning", "critical")
        code, _, err = run_cli(tmp_path, PASS, server=base, cluster="unknown")
        assert code == 2 and "unknown" in err
        code, _, err = run_cli(tmp_path, {"job.nodes": -1}, server=base)
        assert code == 2 and "job.nodes" in err
    # The server is gone now: an unexpected error, exit 1.
    assert run_cli(tmp_path, PASS, server=base)[0] == 1


@pytest.mark.parametrize(("facts", "expected"), [(CRITICAL, 3), (WARNING, 4), (PASS, 0)])
def test_bwdoctor_preflight_command_line(tmp_path, facts, expected):
    job = tmp_path / "job.json"
    job.write_text(json.dumps(facts))
    proc = subprocess.run(
        [sys.executable, "-m", "bwdoctor.cli", "preflight", str(job), "--format", "github"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == expected, proc.stderr


def test_example_job_file_is_valid(engine):
    facts = load_job_file(str(REPO / "examples" / "job.yaml"))
    engine.validate_facts(facts)
