"""nccl-tests (``all_reduce_perf`` and friends) tables → bus bandwidth at the largest sizes.

Columns are found by header name, so the old layout (no ``root``, float ``error``) and the
new one (``root``, ``#wrong``) both work; mpirun/srun/torchrun line prefixes and interleaved
``NCCL INFO`` lines are ignored. The footer's "Avg bus bandwidth" averages the tiny sizes
too, so the fact is the peak bus bandwidth among the largest sizes instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

# "[1,0]<stdout>:" (Open MPI --tag-output), "[rank0]:" (torchrun), "0: " (srun --label), "stdout: ".
_PREFIX = re.compile(r"^(?:\[\d+,\d+\]<std(?:out|err)>:|\[rank\d+\]:|\d+:\s|stdout:\s|stderr:\s)")
_COLLECTIVE = re.compile(
    r"\b(all_reduce|all_gather|alltoall|broadcast|reduce_scatter|reduce|sendrecv|gather|scatter|hypercube)_perf\b"
)
_STARTING = re.compile(r"Collective test starting:\s*(\w+?)(?:_perf)?\b")
_AVG = re.compile(r"Avg bus bandwidth\s*:\s*([0-9.]+)")
_TYPES = {
    "int8", "uint8", "int32", "uint32", "int64", "uint64", "half", "float", "double", "bfloat16",
    "fp8_e4m3", "fp8_e5m2", "f8e4m3", "f8e5m2", "char", "int", "float16", "float32", "float64",
}
# Default layouts, used when the header was cut off (a pasted tail of the table).
_NEW_LAYOUT = ["size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong",
               "time", "algbw", "busbw", "#wrong"]
_OLD_LAYOUT = ["size", "count", "type", "redop", "time", "algbw", "busbw", "error",
               "time", "algbw", "busbw", "error"]
LARGE_SIZE_FRACTION = 0.25  # "largest sizes": rows within 4x (two doublings) of the largest size


@dataclass
class NcclTestsRow:
    """One size of the sweep; bandwidths in GB/s (10^9 bytes/s)."""

    size_bytes: int
    busbw_out: float | None
    busbw_in: float | None
    algbw_out: float | None = None
    time_us_out: float | None = None

    @property
    def busbw_best(self) -> float | None:
        values = [v for v in (self.busbw_out, self.busbw_in) if v is not None]
        return max(values) if values else None


@dataclass
class NcclTestsResult:
    """The last table in the text, the collective it measured, and the footer's average."""

    collective: str | None = None
    rows: list[NcclTestsRow] = field(default_factory=list)
    avg_busbw_gbytes_per_s: float | None = None
    layout: str | None = None  # "header", "new (assumed)", "old (assumed)"

    @property
    def peak_busbw_large_gbytes_per_s(self) -> float | None:
        """Highest bus bandwidth among the largest sizes (what the fabric sustains)."""
        sized = [r for r in self.rows if r.size_bytes > 0 and r.busbw_best is not None]
        if not sized:
            return None
        largest = max(r.size_bytes for r in sized)
        big = [r.busbw_best for r in sized if r.size_bytes >= largest * LARGE_SIZE_FRACTION]
        return max(v for v in big if v is not None)

    @property
    def max_size_bytes(self) -> int | None:
        return max((r.size_bytes for r in self.rows), default=None)

    def facts(self) -> dict[str, Any]:
        """``nccl.allreduce_busbw_gbytes_per_s`` for an all-reduce table (or one of unknown kind)."""
        peak = self.peak_busbw_large_gbytes_per_s
        if peak is None or self.collective not in (None, "all_reduce"):
            return {}
        return {"nccl.allreduce_busbw_gbytes_per_s": peak}


def _strip_prefix(line: str) -> str:
    line = line.replace("\r", "")
    for _ in range(2):  # e.g. "[1,0]<stdout>:" then "stdout: "
        match = _PREFIX.match(line)
        if not match:
            break
        line = line[match.end():]
    return line


def _header_columns(line: str) -> list[str] | None:
    """Column names of a "# size count type ..." header line, or None."""
    body = line.lstrip()
    if not body.startswith("#"):
        return None
    names = body[1:].split()
    if len(names) >= 6 and names[0] == "size" and "busbw" in names and "time" in names:
        return names
    return None


def _number(token: str) -> float | None:
    try:
        value = float(token)
    except ValueError:
        return None
    return value if value == value and value not in (float("inf"), float("-inf")) else None


def _row(tokens: list[str], columns: list[str]) -> NcclTestsRow | None:
    if len(tokens) != len(columns) or not tokens[0].isdigit():
        return None
    if "type" in columns and tokens[columns.index("type")] not in _TYPES:
        return None
    busbw = [i for i, name in enumerate(columns) if name == "busbw"]
    algbw = [i for i, name in enumerate(columns) if name == "algbw"]
    times = [i for i, name in enumerate(columns) if name == "time"]
    values = [_number(tokens[i]) for i in busbw]
    if all(v is None for v in values):
        return None
    return NcclTestsRow(
        size_bytes=int(tokens[0]),
        busbw_out=values[0],
        busbw_in=values[1] if len(values) > 1 else None,
        algbw_out=_number(tokens[algbw[0]]) if algbw else None,
        time_us_out=_number(tokens[times[0]]) if times else None,
    )


def _assumed_layout(tokens: list[str]) -> tuple[list[str], str] | None:
    if len(tokens) == len(_NEW_LAYOUT):
        return _NEW_LAYOUT, "new (assumed)"
    if len(tokens) == len(_OLD_LAYOUT):
        return _OLD_LAYOUT, "old (assumed)"
    return None


def parse_nccl_tests(text: str) -> NcclTestsResult:
    """Parse the last nccl-tests table in ``text``; no table gives an empty result."""
    result = NcclTestsResult()
    if not isinstance(text, str):
        return result
    columns: list[str] | None = None
    current: list[NcclTestsRow] = []
    collective: str | None = None
    for raw in text.splitlines():
        line = _strip_prefix(raw)
        found = _STARTING.search(line) or _COLLECTIVE.search(line)
        if found:
            collective = found.group(1)
        header = _header_columns(line)
        if header:
            if current:
                result.rows, result.collective = current, collective
            columns, current = header, []
            result.layout = "header"
            continue
        avg = _AVG.search(line)
        if avg:
            result.avg_busbw_gbytes_per_s = _number(avg.group(1))
            continue
        tokens = line.split()
        if not tokens or not tokens[0].isdigit():
            continue
        layout = columns
        if layout is None:
            assumed = _assumed_layout(tokens)
            if assumed is None:
                continue
            layout, result.layout = assumed
        row = _row(tokens, layout)
        if row is not None:
            current.append(row)
    if current:
        result.rows, result.collective = current, collective
    elif not result.rows:
        result.collective = collective
    return result
