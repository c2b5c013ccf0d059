"""Throughput and round-trip time to peer nodes: iperf3 (``-J``) and TCP connect time.

Opt-in and polite: nothing is sent unless peers are configured; one peer at a time, a short
run (2 s by default), optionally capped with ``iperf_bitrate``; ``agent-probe run`` repeats it
at most every ``peer_interval_s``. iperf3's verdict is its JSON ``error`` key, not its exit code.
The RTT is the median TCP handshake time to the peer's RTT port (``agent-probe serve-iperf``
listens there); without it, iperf3's own minimum RTT is used.
"""

from __future__ import annotations

import random
import socket
import statistics
import subprocess
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from bwdoctor_parsers.iperf3 import parse_iperf3_json
from bwdoctor_probe.collectors import CollectorResult

Runner = Callable[..., subprocess.CompletedProcess[str]]
BUSY_RETRIES = 2


@dataclass
class PeerMeasurement:
    """What one peer gave: Gb/s and ms, or the reason it gave nothing."""

    host: str
    iperf3_gbps: float | None = None
    rtt_ms: float | None = None
    rtt_source: str | None = None
    retransmits: int | None = None
    error: str | None = None


def split_host_port(peer: str, default_port: int) -> tuple[str, int]:
    """``host``, ``host:5201``, ``[fe80::1]:5201`` or a bare IPv6 address → (host, port)."""
    peer = peer.strip()
    if peer.startswith("["):
        host, _, rest = peer[1:].partition("]")
        port = rest.lstrip(":")
        return host, int(port) if port.isdigit() else default_port
    if peer.count(":") == 1:
        host, _, port = peer.partition(":")
        return host, int(port) if port.isdigit() else default_port
    return peer, default_port


def tcp_rtt_ms(host: str, port: int, *, attempts: int = 3, timeout_s: float = 1.0) -> float | None:
    """Median TCP handshake time in ms (connect() returns after SYN → SYN-ACK: one round trip)."""
    samples: list[float] = []
    for _ in range(attempts):
        started = time.perf_counter()
        try:
            with socket.create_connection((host, port), timeout=timeout_s):
                samples.append((time.perf_counter() - started) * 1000.0)
        except OSError:
            continue
    return statistics.median(samples) if samples else None


def iperf3_command(host: str, port: int, *, duration_s: float, bitrate: str | None, binary: str) -> list[str]:
    command = [binary, "-c", host, "-p", str(port), "-J", "-t", f"{duration_s:g}", "--connect-timeout", "3000"]
    if bitrate:
        command += ["-b", bitrate]
    return command


def measure_peer(
    peer: str, *, iperf_port: int, rtt_port: int, duration_s: float, bitrate: str | None = None,
    binary: str = "iperf3", run: Runner = subprocess.run, sleep: Callable[[float], None] = time.sleep,
) -> PeerMeasurement:
    """Measure one peer; every failure ends up in ``error``, never as an exception."""
    host, port = split_host_port(peer, iperf_port)
    out = PeerMeasurement(host=peer)
    if rtt_port:
        out.rtt_ms = tcp_rtt_ms(host, rtt_port)
        if out.rtt_ms is not None:
            out.rtt_source = "tcp connect"
    command = iperf3_command(host, port, duration_s=duration_s, bitrate=bitrate, binary=binary)
    for attempt in range(BUSY_RETRIES + 1):
        try:
            completed = run(command, capture_output=True, text=True, timeout=duration_s + 15, check=False)
        except FileNotFoundError:
            out.error = f"{binary} not found: install iperf3"
            return out
        except subprocess.TimeoutExpired:
            out.error = f"iperf3 to {peer} did not finish within {duration_s + 15:g} s"
            return out
        parsed = parse_iperf3_json(completed.stdout)
        if parsed.ok:
            out.iperf3_gbps = round(parsed.gbps or 0.0, 3)
            out.retransmits = parsed.retransmits
            if out.rtt_ms is None and parsed.min_rtt_ms is not None:
                out.rtt_ms, out.rtt_source = round(parsed.min_rtt_ms, 3), "iperf3 min_rtt"
            out.error = None
            return out
        out.error = parsed.error or (completed.stderr.strip() or f"iperf3 exited {completed.returncode}")
        if "busy" not in (out.error or "") or attempt == BUSY_RETRIES:
            break
        sleep(random.uniform(1.0, 3.0))  # another node is testing this peer right now
    return out


def summarise(measurements: list[PeerMeasurement]) -> CollectorResult:
    """``net.iperf3_gbps`` = the slowest peer, ``net.rtt_ms`` = the farthest; per-peer detail kept."""
    result = CollectorResult(details={"peers": [asdict(m) for m in measurements]})
    speeds = [m.iperf3_gbps for m in measurements if m.iperf3_gbps is not None]
    rtts = [m.rtt_ms for m in measurements if m.rtt_ms is not None]
    if speeds:
        result.facts["net.iperf3_gbps"] = min(speeds)
    if rtts:
        result.facts["net.rtt_ms"] = round(max(rtts), 3)
    for m in measurements:
        if m.error:
            result.notes.append(f"peer {m.host}: {m.error}")
    return result


def collect_peers(peers: list[str], **kwargs: Any) -> CollectorResult:
    """Measure each peer in turn (never in parallel: one test at a time on the fabric)."""
    return summarise([measure_peer(peer, **kwargs) for peer in peers])
