"""Read-throughput lines a loader or a model streamer prints → how fast storage is read (``storage.read_gbps``).

Streamers and loaders that read from object storage or a file system print their rate as they go::

    (RayWorkerWrapper pid=126785) Read throughput is 1.20 GB per second  [repeated 6x across cluster]
    (RayWorkerWrapper pid=126761) Read throughput is 422.48 MB per second
    read speed: 850 MB/s

The figure is a read from storage, never a NIC's rate or an iperf3 figure. Several workers print several figures; the
one printed most often (Ray folds repeated lines into '[repeated Nx …]', which counts them) is the job's, the first of
those tied. Decimal units: 1 GB/s = 8 Gb/s.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

ROUTE = re.compile(r"\b(?:read|download|load(?:ing)?)\s+(?:throughput|speed|bandwidth|rate)\b", re.I)
_LINE = re.compile(r"\b(?:read|download|load(?:ing)?)\s+(?:throughput|speed|bandwidth|rate)\s*(?:is|was|:|=|of)?\s*"
                   r"(?P<value>\d+(?:\.\d+)?)\s*(?P<unit>[KMGT]i?B|[KMGT]b(?:it)?)\s*(?:/\s*s(?:ec)?|ps|per\s+second)"
                   r"(?![A-Za-z])(?:[^\n]*?\[repeated\s+(?P<times>\d+)x)?", re.I)
_GBITS = {"K": 8e-6, "M": 8e-3, "G": 8.0, "T": 8e3}
_BINARY = {"K": 1.024, "M": 1.024 ** 2, "G": 1.024 ** 3, "T": 1.024 ** 4}


@dataclass
class ReadThroughputResult:
    """Every read rate printed (Gb/s) with how many lines printed it."""

    rates: Counter[float] = field(default_factory=Counter)

    @property
    def gbps(self) -> float | None:
        if not self.rates:
            return None
        most = max(self.rates.values())
        return next(rate for rate, n in self.rates.items() if n == most)

    def facts(self) -> dict[str, Any]:
        return {} if self.gbps is None else {"storage.read_gbps": round(self.gbps, 3)}


def _gbps(value: float, unit: str) -> float:
    """Gb/s of a figure in `unit`: 'GB', 'GiB' (bytes), 'Gb', 'Gbit' (bits)."""
    prefix = unit[0].upper()
    if unit.endswith("b") or unit.lower().endswith("bit"):  # bits: 'Gb', 'Mbit'
        return value * _GBITS[prefix] / 8
    return value * _GBITS[prefix] * (_BINARY[prefix] if "i" in unit else 1.0)


def parse_read_throughput(text: str) -> ReadThroughputResult:
    """The read rates printed in `text`; unknown text gives an empty result."""
    result = ReadThroughputResult()
    if not isinstance(text, str):
        return result
    for m in _LINE.finditer(text):
        result.rates[round(_gbps(float(m["value"]), m["unit"]), 6)] += 1 + int(m["times"] or 0)
    return result
