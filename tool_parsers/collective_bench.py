"""All-reduce benchmarks other than nccl-tests → the bus bandwidth they measured, in GB/s.

Two are pasted often:

- the PyTorch ``all_reduce_bench.py`` of the ML engineering guides, which prints (any launcher prefix before each
  line: ``[host:0]:``, ``0:``, ``> node1:``)::

      The average bandwidth of all_reduce with a 4.0GB payload (5 trials, 16 ranks):
       algbw: 44.947 GBps (359.6 Gbps)
       busbw: 84.275 GBps (674.2 Gbps)

  GBps there is 10^9 bytes per second, as nccl-tests' GB/s;

- DeepSpeed's communication benchmark (``ds_bench`` / ``communication/run_all.py``), a section per collective::

      ---- Performance of all_reduce on 8 devices ------------------------------------
      Size (Bytes)     Description        Duration        Throughput (Gbps)    BusBW (Gbps)
      31.67 GB         8501054668x4       3176.620 ms     171.272              149.863

  whose bandwidths are in Gb/s (divided by 8 for GB/s); as for nccl-tests, the largest size's row is the figure.

Another collective's section or line (all_gather, all_to_all, broadcast) gives no all-reduce figure. Garbage gives an
empty result, never an exception.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

_BENCH_TITLE = re.compile(r"The average bandwidth of (\w+) with a\s*[\d.]+\s*[KMGT]?B payload")
_BENCH_BW = re.compile(r"\b(algbw|busbw):\s*([\d.]+)\s*GBps\b")
_DS_SECTION = re.compile(r"-+\s*Performance of (\w+) on \d+ devices\s*-*")
_DS_HEADER = re.compile(r"Size \(Bytes\)\s+Description\s+Duration\s+Throughput \((Gbps|GBps)\)\s+BusBW \((Gbps|GBps)\)")
_DS_ROW = re.compile(r"(?:^|\s)(\d+(?:\.\d+)?)\s*([KMGT]?B)?\s+\S+x\d+\s+[\d.]+\s*(?:[mu]?s)?\s+([\d.]+)\s+"
                     r"([\d.]+)\s*$")
_SCALE = {None: 1, "B": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40}
#: The lines of these benchmarks (for telling pasted output from prose).
LINE = re.compile(r"The average bandwidth of \w+ with a\s*[\d.]+\s*[KMGT]?B payload|"
                  r"^\W*(?:[\w.\-\[\]:]+:\s*)?(?:algbw|busbw):\s*[\d.]+\s*GBps\s*\(|"
                  r"-+\s*Performance of \w+ on \d+ devices|Size \(Bytes\)\s+Description\s+Duration|"
                  r"\d\s*[KMGT]?B\s+\d+x\d+\s+[\d.]+\s*[mu]?s\s+[\d.]+\s+[\d.]+\s*$", re.M)


@dataclass
class CollectiveBenchResult:
    """The all-reduce bandwidths one of these benchmarks printed, in GB/s (10^9 bytes/s)."""

    tool: str | None = None  # "all_reduce_bench" | "deepspeed"
    busbw_gbytes_per_s: float | None = None
    algbw_gbytes_per_s: float | None = None

    def facts(self) -> dict[str, Any]:
        """``nccl.allreduce_busbw_gbytes_per_s`` and ``nccl.allreduce_algbw_gbytes_per_s`` where printed."""
        out: dict[str, Any] = {}
        if self.busbw_gbytes_per_s is not None and self.busbw_gbytes_per_s > 0:
            out["nccl.allreduce_busbw_gbytes_per_s"] = self.busbw_gbytes_per_s
            if self.algbw_gbytes_per_s is not None and self.algbw_gbytes_per_s > 0:
                out["nccl.allreduce_algbw_gbytes_per_s"] = self.algbw_gbytes_per_s
        return out


def parse_collective_bench(text: str) -> CollectiveBenchResult:
    """The last all-reduce result of either benchmark in ``text``."""
    result = CollectiveBenchResult()
    if not isinstance(text, str):
        return result
    collective: str | None = None
    unit: str | None = None
    rows: list[tuple[float, float, float]] = []  # (size in bytes, throughput, busbw) of the current DeepSpeed section
    for line in text.splitlines():
        if m := _BENCH_TITLE.search(line):
            collective, unit, rows = m.group(1).lower(), None, []
            continue
        if m := _DS_SECTION.search(line):
            _ds_close(result, collective, unit, rows)
            collective, unit, rows = m.group(1).lower(), None, []
            continue
        if m := _DS_HEADER.search(line):
            unit = m.group(2)
            continue
        if unit is not None and (m := _DS_ROW.search(line)):
            try:
                rows.append((float(m.group(1)) * _SCALE.get(m.group(2), 1), float(m.group(3)), float(m.group(4))))
            except ValueError:
                continue
            continue
        if unit is None and collective == "all_reduce":
            for name, value in _BENCH_BW.findall(line):
                try:
                    number = float(value)
                except ValueError:
                    continue
                result.tool = "all_reduce_bench"
                if name == "busbw":
                    result.busbw_gbytes_per_s = number
                else:
                    result.algbw_gbytes_per_s = number
    _ds_close(result, collective, unit, rows)
    return result


def _ds_close(result: CollectiveBenchResult, collective: str | None, unit: str | None,
              rows: list[tuple[float, float, float]]) -> None:
    """A DeepSpeed section's figure: its largest size's row, when the section is all_reduce's."""
    if collective not in ("all_reduce", "allreduce") or unit is None or not rows:
        return
    _size, throughput, busbw = max(rows, key=lambda r: r[0])
    per_gbyte = 8.0 if unit == "Gbps" else 1.0
    result.tool = "deepspeed"
    result.busbw_gbytes_per_s = round(busbw / per_gbyte, 3)
    result.algbw_gbytes_per_s = round(throughput / per_gbyte, 3)
