"""iperf3 (and iperf2) human-readable client output → measured throughput.

People paste what their terminal shows, not ``-J`` JSON. The receiver summary is what crossed the
network; with ``-P N`` the ``[SUM]`` line totals the streams. Units are decimal (Gbits = 10^9 bits).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_RATE = re.compile(
    r"(?P<value>\d+(?:\.\d+)?)\s*(?P<prefix>[KMGT]?)bits/sec(?:\s+(?P<retr>\d+))?(?P<rest>.*)$")
_LINE = re.compile(r"^\s*\[\s*(?P<id>\d+|SUM)\]\s+(?P<start>\d+(?:\.\d+)?)-\s*(?P<end>\d+(?:\.\d+)?)\s+sec\s+(?P<tail>."
                   r"*)$")
_ERROR = re.compile(r"iperf3?:\s*error\s*-\s*(?P<msg>.+)$", re.MULTILINE)
_PREFIX = {"": 1e-9, "K": 1e-6, "M": 1e-3, "G": 1.0, "T": 1e3}


@dataclass
class Iperf3TextResult:
    """Throughput in Gb/s from the summary lines, or the error iperf3 printed."""

    gbps: float | None = None
    role: str | None = None  # "receiver" | "sender" | "intervals" (mean of interval lines)
    streams: int = 0
    retransmits: int | None = None
    error: str | None = None
    interval_gbps: list[float] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None and self.gbps is not None

    def facts(self) -> dict[str, Any]:
        """``net.iperf3_gbps`` when a throughput was found."""
        return {"net.iperf3_gbps": round(self.gbps, 3)} if self.ok and self.gbps is not None else {}


def looks_like_iperf_text(text: str) -> bool:
    """True for text with iperf interval or summary lines (used to route pasted output)."""
    return any(_LINE.match(line) and "bits/sec" in line for line in text.splitlines())


def parse_iperf3_text(text: str) -> Iperf3TextResult:
    """Parse iperf3/iperf2 client text; unknown text gives an empty result, never an exception."""
    result = Iperf3TextResult()
    if not isinstance(text, str) or not text.strip():
        return result
    summaries: dict[tuple[str, str], float] = {}
    ids: set[str] = set()
    retransmits: int | None = None
    for raw in text.splitlines():
        line = re.sub(r"^\[\d+,\d+\]<std(?:out|err)>:", "", raw)
        m = _LINE.match(line)
        if not m:
            continue
        rate = _RATE.search(m["tail"])
        if not rate:
            continue
        gbps = float(rate["value"]) * _PREFIX[rate["prefix"]]
        role = "receiver" if "receiver" in rate["rest"] else "sender" if "sender" in rate["rest"] else None
        if m["id"] != "SUM":
            ids.add(m["id"])
        if role is None:
            # iperf2 prints one summary line spanning the whole test, without a role.
            if float(m["start"]) == 0 and float(m["end"]) >= 5:
                summaries[(m["id"], "summary")] = gbps
            else:
                result.interval_gbps.append(gbps)
            continue
        summaries[(m["id"], role)] = gbps
        if role == "sender" and rate["retr"]:
            retransmits = (retransmits or 0) + int(rate["retr"]) if m["id"] != "SUM" else int(rate["retr"])
    result.streams = len(ids)
    result.retransmits = retransmits
    for key in (("SUM", "receiver"), ("SUM", "sender"), ("SUM", "summary")):
        if key in summaries:
            result.gbps, result.role = summaries[key], key[1]
            break
    else:
        for role in ("receiver", "sender", "summary"):
            values = [v for (_, r), v in summaries.items() if r == role]
            if values:
                result.gbps, result.role = sum(values), role
                break
    if result.gbps is None and result.interval_gbps:
        result.gbps, result.role = sum(result.interval_gbps) / len(result.interval_gbps), "intervals"
    if result.gbps is None:
        err = _ERROR.search(text)
        if err:
            result.error = err["msg"].strip()
    return result
