import json
import signal
import socket
import subprocess
import sys
import time

import pytest

from bwdoctor_probe.collectors.peers import PeerMeasurement, collect_peers, measure_peer, split_host_port, summarise
from tests import prereqs
from tests.prereqs import needs


def completed(stdout="", returncode=0, stderr=""):
    return subprocess.CompletedProcess(args=[], returncode=returncode, stdout=stdout, stderr=stderr)


def ok_json(gbps, min_rtt_us=45):
    return json.dumps({"start": {"test_start": {"protocol": "TCP", "num_streams": 1}},
                       "end": {"streams": [{"sender": {"min_rtt": min_rtt_us, "mean_rtt": 80}}],
                               "sum_sent": {"bits_per_second": gbps * 1e9, "retransmits": 3},
                               "sum_received": {"bits_per_second": gbps * 1e9}}})


def error_json(message):
    return json.dumps({"start": {"connected": []}, "intervals": [], "end": {}, "error": message})


@pytest.mark.parametrize(("peer", "expected"), [("gpu-a02", ("gpu-a02", 5201)), ("gpu-a02:6001", ("gpu-a02", 6001)),
                                                ("[fe80::1]:6001", ("fe80::1", 6001)), ("fe80::1", ("fe80::1", 5201))])
def test_split_host_port(peer, expected):
    assert split_host_port(peer, 5201) == expected


def test_error_key_counts_even_with_exit_status_zero():
    result = measure_peer("10.9.9.9", iperf_port=5201, rtt_port=0, duration_s=2,
                          run=lambda *a, **k: completed(error_json("unable to connect to server: Connection refused")))
    assert result.iperf3_gbps is None and "Connection refused" in result.error


def test_busy_server_is_retried_then_measured():
    answers = iter([completed(error_json("the server is busy running a test. try again later"), 1),
                    completed(ok_json(9.41))])
    sleeps = []
    result = measure_peer("p", iperf_port=5201, rtt_port=0, duration_s=2, run=lambda *a, **k: next(answers),
                          sleep=sleeps.append)
    assert result.iperf3_gbps == 9.41 and result.error is None and len(sleeps) == 1
    assert result.rtt_ms == 0.045 and result.rtt_source == "iperf3 min_rtt"


def test_command_is_short_and_capped():
    seen = {}

    def run(command, **kwargs):
        seen.update(command=command, timeout=kwargs["timeout"])
        return completed(ok_json(1.0))

    measure_peer("p:7000", iperf_port=5201, rtt_port=0, duration_s=2, bitrate="2G", run=run)
    command = seen["command"]
    assert command[:5] == ["iperf3", "-c", "p", "-p", "7000"] and "-J" in command
    assert command[command.index("-t") + 1] == "2" and command[command.index("-b") + 1] == "2G"
    assert seen["timeout"] <= 20


def test_timeout_and_missing_binary_are_errors_not_exceptions():
    def hang(*a, **k):
        raise subprocess.TimeoutExpired("iperf3", 17)

    def missing(*a, **k):
        raise FileNotFoundError("iperf3")

    assert "did not finish" in measure_peer("p", iperf_port=1, rtt_port=0, duration_s=2, run=hang).error
    assert "install iperf3" in measure_peer("p", iperf_port=1, rtt_port=0, duration_s=2, run=missing).error


def test_summary_is_the_slowest_and_the_farthest_peer():
    result = summarise([PeerMeasurement("a", 9.4, 0.05), PeerMeasurement("b", 2.1, 0.2),
                        PeerMeasurement("c", None, 1.5, error="refused")])
    assert result.facts == {"net.iperf3_gbps": 2.1, "net.rtt_ms": 1.5}
    assert [p["host"] for p in result.details["peers"]] == ["a", "b", "c"]
    assert result.notes == ["peer c: refused"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nothing listens on {port}")


@needs(prereqs.IPERF3, why="a real iperf3 against serve-iperf")
def test_real_iperf3_against_serve_iperf_on_loopback():
    port, rtt_port = free_port(), free_port()
    server = subprocess.Popen([sys.executable, "-m", "bwdoctor_probe.cli", "serve-iperf", "--port", str(port),
                               "--rtt-port", str(rtt_port), "--bind", "127.0.0.1"], stderr=subprocess.PIPE, text=True)
    try:
        wait_listening(rtt_port)
        wait_listening_iperf = time.monotonic() + 10
        while time.monotonic() < wait_listening_iperf:  # iperf3 -s starts a moment after the RTT port
            if subprocess.run(["ss", "-ltnH", f"sport = :{port}"], capture_output=True, text=True).stdout.strip():
                break
            time.sleep(0.05)
        result = collect_peers([f"127.0.0.1:{port}"], iperf_port=port, rtt_port=rtt_port, duration_s=1)
        peer = result.details["peers"][0]
        assert peer["error"] is None, peer
        assert result.facts["net.iperf3_gbps"] > 0.1
        assert peer["rtt_source"] == "tcp connect" and 0 < result.facts["net.rtt_ms"] < 50
        # The server survived the RTT probes and serves a second test.
        again = collect_peers([f"127.0.0.1:{port}"], iperf_port=port, rtt_port=rtt_port, duration_s=1)
        assert again.details["peers"][0]["error"] is None
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=10) == 0
    assert subprocess.run(["ss", "-ltnH", f"sport = :{port}"], capture_output=True, text=True).stdout.strip() == ""
