"""``agent-probe`` as a user runs it: real process, real /proc and /sys of this machine."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

PROBE = [sys.executable, "-m", "bwdoctor_probe.cli"]


def probe(*args, env=None, timeout=60):
    clean = {k: v for k, v in os.environ.items() if not k.startswith("AGENT_PROBE_")}
    return subprocess.run(PROBE + list(args), capture_output=True, text=True, timeout=timeout,
                          env={**clean, **(env or {})})


def test_collect_json_on_this_machine():
    done = probe("collect", "--format", "json", "--window", "0.3", "--node-id", "test-node", "--cluster", "c1")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert set(out) == {"facts", "notes", "details", "collected_at"}
    facts = out["facts"]
    assert facts["node.id"] == "test-node" and facts["node.cluster"] == "c1"
    assert 0 <= facts["cpu.util_pct"] <= 100 and 0 <= facts["mem.used_pct"] <= 100
    assert isinstance(facts["gpu.count"], int)
    if "nic.speed_gbps" in facts:
        assert facts["nic.speed_gbps"] > 0
    if "nic.mtu" in facts:  # an int in bytes, as the catalogue wants (a float would be refused)
        assert type(facts["nic.mtu"]) is int and 68 <= facts["nic.mtu"] <= 65536
    assert all(v is not None for v in facts.values())


def test_declared_nic_rating_flag():
    done = probe("collect", "--format", "json", "--window", "0.1", "--no-gpu", "--nic-max-speed-gbps", "100")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    if "nic.name" not in out["facts"]:
        pytest.skip("no interface is up")
    assert out["facts"]["nic.max_speed_gbps"] == 100.0
    assert any("rated speed 100 Gb/s as configured" in n for n in out["notes"])


def test_collect_text_is_a_table():
    done = probe("collect", "--format", "text", "--window", "0.1", "--no-gpu")
    assert done.returncode == 0, done.stderr
    assert "cpu.util_pct" in done.stdout and " %" in done.stdout and "gpu.count" not in done.stdout


def test_collect_reads_the_files(fixtures_dir):
    done = probe("collect", "--format", "json", "--window", "0", "--no-gpu",
                 "--nccl-tests-output", str(fixtures_dir / "nccl_tests_allreduce_old_layout_8xv100.txt"),
                 "--nccl-log", str(fixtures_dir / "nccl_debug_socket_on_lo_torchrun.log"),
                 "--training-log", str(fixtures_dir / "custom_step_log.txt"), "--step-time-regex", r"took (?P<ms>\d+)")
    facts = json.loads(done.stdout)["facts"]
    assert facts["nccl.allreduce_busbw_gbytes_per_s"] == 130.49
    assert facts["nccl.transport"] == "socket" and facts["nccl.socket_ifname"] == "lo"
    assert facts["job.step_time_s"] == 0.808


@pytest.mark.parametrize(("args", "env", "message"), [
    (["collect", "--window", "soon"], None, "argument --window: invalid float value: 'soon'"),
    (["collect", "--nic-max-speed-gbps", "fast"], None, "argument --nic-max-speed-gbps: invalid float value"),
    (["collect", "--format", "yaml"], None, "invalid choice"),
    (["launch"], None, "invalid choice"),
    (["run"], None, "server: required for run"),
    (["collect", "--window", "0.1"], {"AGENT_PROBE_WINDOW_S": "x"}, "environment AGENT_PROBE_WINDOW_S"),
    (["collect", "--config", "/nonexistent/agent-probe.yaml"], None, "cannot read it"),
    (["run", "--server", "not-a-url"], None, "server: expected an http"),
])
def test_bad_input_is_one_line_and_exit_2(args, env, message):
    done = probe(*args, env=env)
    assert done.returncode == 2
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert done.stdout == ""


def test_bad_config_file(tmp_path):
    path = tmp_path / "probe.yaml"
    path.write_text("cluster: c1\npeers: [a\n")
    done = probe("collect", "--config", str(path))
    assert done.returncode == 2 and done.stderr.startswith(f"agent-probe: error: config file {path}")
    assert len(done.stderr.strip().splitlines()) == 1


def test_run_once_with_the_service_down_spools_and_exits_1(tmp_path):
    done = probe("run", "--once", "--server", "http://127.0.0.1:9", "--window", "0", "--no-gpu",
                 "--spool-dir", str(tmp_path), env={"AGENT_PROBE_HTTP_TIMEOUT_S": "2"})
    assert done.returncode == 1 and "kept in" in done.stderr
    # --once says it reports once, and promises no retry it will not make
    assert "reporting" in done.stderr and " once" in done.stderr
    assert "every" not in done.stderr and "retrying" not in done.stderr
    spooled = [p for p in tmp_path.iterdir() if p.suffix == ".json"]
    assert len(spooled) == 1
    body = json.loads(spooled[0].read_text())["body"]
    assert set(body) == {"facts", "report_id", "collected_at"}


def test_sigterm_stops_run_cleanly(tmp_path):
    process = subprocess.Popen(PROBE + ["run", "--server", "http://127.0.0.1:9", "--window", "0", "--no-gpu",
                                        "--interval", "3600", "--spool-dir", str(tmp_path)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not any(p.suffix == ".json" for p in tmp_path.iterdir()):
        time.sleep(0.05)
    time.sleep(0.3)
    started = time.monotonic()
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=10) == 0
    assert time.monotonic() - started < 5
    assert "Traceback" not in process.stderr.read()
    assert any(p.suffix == ".json" for p in tmp_path.iterdir())  # the undelivered report is kept
