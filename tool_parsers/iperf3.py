"""iperf3 ``-J`` (and ``--json-stream``) output → measured throughput, or the error iperf3 reported.

iperf3 3.12 can exit 0 on a failed test when ``-J`` is given, so the ``error`` key is the
truth, not the exit code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Iperf3Result:
    """One iperf3 client run: throughput in Gb/s (decimal) or the error it reported."""

    gbps: float | None = None
    error: str | None = None
    protocol: str | None = None
    streams: int | None = None
    reverse: bool = False
    retransmits: int | None = None
    min_rtt_ms: float | None = None
    mean_rtt_ms: float | None = None
    version: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.error is None and self.gbps is not None

    def facts(self) -> dict[str, Any]:
        """``net.iperf3_gbps`` when the run measured something."""
        return {"net.iperf3_gbps": round(self.gbps, 3)} if self.ok and self.gbps is not None else {}


def _num(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _from_stream(text: str) -> dict[str, Any] | None:
    """Rebuild a ``-J``-like document from ``--json-stream`` lines ({"event": ..., "data": ...})."""
    doc: dict[str, Any] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if not isinstance(event, dict) or "event" not in event:
            continue
        name, data = event.get("event"), event.get("data")
        if name in ("start", "end") and isinstance(data, dict):
            doc[name] = data
        elif name == "error":
            doc["error"] = data if isinstance(data, str) else str(data)
    return doc or None


def parse_iperf3_json(text: str) -> Iperf3Result:
    """Parse the client's JSON; a missing or broken document gives ``error`` set, never an exception."""
    if not isinstance(text, str) or not text.strip():
        return Iperf3Result(error="no iperf3 output")
    try:
        doc = json.loads(text)
    except ValueError:
        doc = _from_stream(text)
        if doc is None:
            return Iperf3Result(error="not iperf3 JSON output")
    if not isinstance(doc, dict):
        return Iperf3Result(error="not iperf3 JSON output")
    return _from_doc(doc)


def _from_doc(doc: dict[str, Any]) -> Iperf3Result:
    result = Iperf3Result()
    start: dict[str, Any] = doc["start"] if isinstance(doc.get("start"), dict) else {}
    end: dict[str, Any] = doc["end"] if isinstance(doc.get("end"), dict) else {}
    if isinstance(start.get("version"), str):
        result.version = start["version"]
    test_start: dict[str, Any] = start["test_start"] if isinstance(start.get("test_start"), dict) else {}
    if isinstance(test_start.get("protocol"), str):
        result.protocol = test_start["protocol"]
    if isinstance(test_start.get("num_streams"), int):
        result.streams = test_start["num_streams"]
    result.reverse = bool(test_start.get("reverse"))

    error = doc.get("error")
    if error:
        result.error = str(error)
        return result

    # TCP: what the receiving end got is what crossed the network. UDP: ``sum`` only.
    received = end.get("sum_received") if isinstance(end.get("sum_received"), dict) else None
    total = received or (end.get("sum") if isinstance(end.get("sum"), dict) else None)
    bps = _num(total.get("bits_per_second")) if total else None
    if bps is None or bps < 0:
        result.error = "iperf3 output has no end.sum_received.bits_per_second"
        return result
    result.gbps = bps / 1e9

    sent: dict[str, Any] = end["sum_sent"] if isinstance(end.get("sum_sent"), dict) else {}
    if isinstance(sent.get("retransmits"), int):
        result.retransmits = sent["retransmits"]
    _rtts(end, result)
    return result


def _rtts(end: dict[str, Any], result: Iperf3Result) -> None:
    """TCP RTTs the sender's kernel saw (Linux only; microseconds in the JSON)."""
    mins: list[float] = []
    means: list[float] = []
    for stream in end.get("streams") or []:
        sender = stream.get("sender") if isinstance(stream, dict) else None
        if not isinstance(sender, dict):
            continue
        low, mean = _num(sender.get("min_rtt")), _num(sender.get("mean_rtt"))
        if low is not None and low > 0:
            mins.append(low)
        if mean is not None and mean > 0:
            means.append(mean)
    if mins:
        result.min_rtt_ms = min(mins) / 1000.0
    if means:
        result.mean_rtt_ms = sum(means) / len(means) / 1000.0
