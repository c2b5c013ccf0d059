"""nccl-tests (``all_reduce_perf`` and friends) tables → bus bandwidth at the largest sizes.

Columns are found by header name, so the oldest layout (``bytes N type op ... res``), the old one
(no ``root``, float ``error``), the new one (``root``, ``#wrong``) and one-sided tables (out-of-place
only) all work; mpirun/srun/pdsh/torchrun line prefixes and interleaved ``NCCL INFO`` lines are
ignored. The footer's "Avg bus bandwidth" averages the tiny sizes too, so the facts are the peak bus
and algorithm bandwidths among the largest sizes instead; only when no row of the table was pasted is the
footer's average the figure (a lower bound of what the fabric sustains), and ``busbw_source`` and a note
say which was used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bwdoctor_parsers.notes import Note, make

# "[1,0]<stdout>:" (Open MPI --tag-output), "[rank0]:" (torchrun), "0: " (srun --label), "stdout: ", "> " (a quoted
# reply), "[0] " (a rank label).
_PREFIX = re.compile(r"^(?:\s*>+\s?|\[\d+,\d+\]<std(?:out|err)>:|\[rank\d+\]:|\[\d{1,5}\]\s|\d+:\s|stdout:\s|stderr:\s|"
                     r"\d{1,3}(?:\.\d{1,3}){3}:\s|[A-Za-z][\w.\-]*:\s+(?=#|\s*\d))")  # pdsh "host: "
_COLLECTIVE = re.compile(
    r"\b(all_reduce|all_gather|alltoall|broadcast|reduce_scatter|reduce|sendrecv|gather|scatter|hypercube)_perf\b"
)
_STARTING = re.compile(r"Collective test starting:\s*(\w+?)(?:_perf)?\b")
_AVG = re.compile(r"Avg bus bandwidth\s*:\s*([0-9.]+)")
_MAX_BYTES = re.compile(r"maxBytes\s+(\d+)")
# The banner: '# nccl-tests version 2.17.6 nccl-headers=22803 nccl-library=22803' (NCCL's version code), then a line per
# rank: '#  Rank  0 Group  0 Pid 1935208 on  spark device  0 [000f:01:00] NVIDIA GB10'.
_LIBRARY = re.compile(r"nccl-library=(\d{4,6})\b")
_RANK = re.compile(r"^#\s*Rank\s+(\d+)\s+(?:Group\s+\d+\s+)?Pid\s+\d+\s+on\s+(\S+)\s+device\s+\d+\s+\[[^\]]*\]"
                   r"\s+(.*?)\s*$")
_GPU_NAME = re.compile(r"(?:RTX\s?(?:A|PRO\s?)?\d{4}(?:\s?Ti)?|(?:GB|[ABHLVPTK])\d{1,4}[A-Z]?|A[2-6]000|MI\d{3}[XA]?)"
                       r"(?![\w])")
_SYNONYMS = {"bytes": "size", "N": "count", "op": "redop", "res": "error",  # nccl-tests 1.x header names
             "cputime": "time"}  # -C 1 reports the CPU time
_TYPES = {
    "int8", "uint8", "int32", "uint32", "int64", "uint64", "half", "float", "double", "bfloat16",
    "fp8_e4m3", "fp8_e5m2", "f8e4m3", "f8e5m2", "char", "int", "float16", "float32", "float64",
}
# Default layouts, used when the header was cut off (a pasted tail of the table).
_NEW_LAYOUT = ["size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong",
               "time", "algbw", "busbw", "#wrong"]
_OLD_LAYOUT = ["size", "count", "type", "redop", "time", "algbw", "busbw", "error",
               "time", "algbw", "busbw", "error"]
# nccl-tests 2.17's per-iteration report (-I 1 or the like) adds the iterations' min, max, p99 and spread to each half.
_PER_ITERATION = ["time", "algbw", "busbw", "#wrong", "i_min", "i_max", "i_p99", "i_cv%"]
_PER_ITERATION_LAYOUT = ["size", "count", "type", "redop", "root", *_PER_ITERATION, *_PER_ITERATION]
LARGE_SIZE_FRACTION = 0.25  # "largest sizes": rows within 4x (two doublings) of the largest size
SMALL_LARGEST_BYTES = 64 << 20  # a sweep that stops below 64 MB never reaches the fabric's bandwidth
TINY_BYTES = 1 << 20  # a sweep from below 1 MB drags the footer's average down


@dataclass
class NcclTestsRow:
    """One size of the sweep; bandwidths in GB/s (10^9 bytes/s)."""

    size_bytes: int
    busbw_out: float | None
    busbw_in: float | None
    algbw_out: float | None = None
    time_us_out: float | None = None
    algbw_in: float | None = None
    redop: str | None = None  # "sum", "prod", ...; "none" for collectives that reduce nothing

    @property
    def busbw_best(self) -> float | None:
        values = [v for v in (self.busbw_out, self.busbw_in) if v is not None]
        return max(values) if values else None

    @property
    def algbw_best(self) -> float | None:
        values = [v for v in (self.algbw_out, self.algbw_in) if v is not None]
        return max(values) if values else None


@dataclass
class NcclTestsResult:
    """The last table in the text, the collective it measured, and the footer's average."""

    collective: str | None = None
    rows: list[NcclTestsRow] = field(default_factory=list)
    avg_busbw_gbytes_per_s: float | None = None
    layout: str | None = None  # "header", "new (assumed)", "old (assumed)"
    max_bytes_requested: int | None = None  # "maxBytes" of the run's banner line
    header_without_rows: bool = False
    cut_rows: int = 0  # lines that start like a row of the table but stop short
    nccl_version: str | None = None  # from the banner's nccl-library version code
    ranks: dict[int, tuple[str, str]] = field(default_factory=dict)  # rank → (host, GPU name) from the banner

    def shape(self) -> tuple[int, int] | None:
        """(nodes, GPUs per node) when the banner lists every rank and the hosts hold the same number of them."""
        if not self.ranks or sorted(self.ranks) != list(range(len(self.ranks))):
            return None
        per_host: dict[str, int] = {}
        for host, _gpu in self.ranks.values():
            per_host[host] = per_host.get(host, 0) + 1
        counts = set(per_host.values())
        return (len(per_host), counts.pop()) if len(counts) == 1 else None

    def header_facts(self) -> dict[str, Any]:
        """What the banner says of the run: ``nccl.version``, ``gpu.model``, ``job.nodes``, ``job.gpus_per_node``."""
        out: dict[str, Any] = {}
        if self.nccl_version:
            out["nccl.version"] = self.nccl_version
        models = {m.group(0).replace(" ", "") for _h, gpu in self.ranks.values() if (m := _GPU_NAME.search(gpu))}
        if len(models) == 1:
            model = models.pop()
            out["gpu.model"] = re.sub(r"^RTX(?=\d)", "RTX ", model).replace("Ti", " Ti")
        if shape := self.shape():
            out["job.nodes"], out["job.gpus_per_node"] = shape
        return out

    def _latency_only(self) -> bool:
        """Rows pasted, none of them 1 MB or more: sizes that small measure latency, so their bus bandwidth (0.00 at
        8 bytes) says nothing of the fabric's (the small-sweep note says so)."""
        largest = self.max_size_bytes
        return bool(self.rows) and largest is not None and largest < TINY_BYTES

    def _large(self) -> list[NcclTestsRow]:
        sized = [r for r in self.rows if r.size_bytes > 0 and r.busbw_best is not None]
        if not sized:
            return []
        largest = max(r.size_bytes for r in sized)
        return [r for r in sized if r.size_bytes >= largest * LARGE_SIZE_FRACTION]

    @property
    def peak_busbw_large_gbytes_per_s(self) -> float | None:
        """Highest bus bandwidth among the largest sizes (what the fabric sustains)."""
        values = [r.busbw_best for r in self._large() if r.busbw_best is not None]
        return max(values) if values else None

    @property
    def peak_algbw_large_gbytes_per_s(self) -> float | None:
        """Highest algorithm bandwidth (size / time) among the largest sizes."""
        values = [r.algbw_best for r in self._large() if r.algbw_best is not None]
        return max(values) if values else None

    @property
    def reduces(self) -> bool | None:
        """False when every row's redop is ``none`` (alltoall, all_gather, broadcast, sendrecv reduce nothing, so
        the table is no all-reduce whatever its collective's name); True when some row names an operation."""
        ops = {r.redop for r in self.rows if r.redop}
        return None if not ops else ops != {"none"}

    def is_allreduce(self) -> bool:
        """The table measured all_reduce: named so, or (unnamed, as in a bare pasted table) rows that reduce."""
        if self.collective is not None:
            return self.collective == "all_reduce"
        return self.reduces is not False

    @property
    def min_size_bytes(self) -> int | None:
        return min((r.size_bytes for r in self.rows), default=None)

    @property
    def partial(self) -> bool:
        """The table looks cut: a header without rows, or the sweep stops short of the run's maxBytes."""
        if self.header_without_rows or self.cut_rows:
            return True
        largest = self.max_size_bytes
        return bool(self.rows and self.max_bytes_requested and largest and largest < self.max_bytes_requested
                    and self.avg_busbw_gbytes_per_s is None)

    @property
    def busbw_source(self) -> str | None:
        """Where the busbw fact comes from: ``"largest sizes"`` (the rows), ``"avg line"`` (the footer), or None."""
        if self.peak_busbw_large_gbytes_per_s is not None:
            return "largest sizes"
        return "avg line" if self.avg_busbw_gbytes_per_s else None

    def coded_notes(self) -> list[Note]:
        """What a reader of the table should know: the footer's average, a sweep that stops small, a cut."""
        out: list[Note] = []
        peak = self.peak_busbw_large_gbytes_per_s
        avg = self.avg_busbw_gbytes_per_s
        smallest, largest = self.min_size_bytes, self.max_size_bytes
        if peak is not None and avg is not None and smallest is not None and smallest < TINY_BYTES:
            out.append(make(NOTES, "nccl_tests.avg_means_little", avg=avg, smallest=_size(smallest), peak=peak))
        elif peak is None and avg:
            out.append(make(NOTES, "nccl_tests.avg_only", avg=avg))
        if largest is not None and peak is not None and largest < SMALL_LARGEST_BYTES:
            out.append(make(NOTES, "nccl_tests.small_sweep", largest=_size(largest)))
        if self.partial:
            code = ("nccl_tests.cut_header" if self.header_without_rows else
                    "nccl_tests.cut_row" if self.cut_rows else "nccl_tests.cut_sweep")
            out.append(make(NOTES, code))
        return out

    def notes(self) -> list[str]:
        """The notes' English text (what the probe prints)."""
        return [n.text for n in self.coded_notes()]

    @property
    def max_size_bytes(self) -> int | None:
        return max((r.size_bytes for r in self.rows), default=None)

    def facts(self) -> dict[str, Any]:
        """``nccl.allreduce_busbw_gbytes_per_s`` for an all-reduce table (or one of unknown kind whose rows reduce).

        An alltoall or all_gather table (named by its ``*_perf`` command or ``Collective test starting:``, or rows
        with redop ``none``) gives none: its bus bandwidth is another collective's.
        """
        peak = self.peak_busbw_large_gbytes_per_s
        if peak is None and self.avg_busbw_gbytes_per_s:
            peak = self.avg_busbw_gbytes_per_s  # no row pasted: the footer is all there is (see busbw_source)
        if peak is None or not self.is_allreduce() or self._latency_only():
            return {}
        return {"nccl.allreduce_busbw_gbytes_per_s": peak}

    def all_facts(self) -> dict[str, Any]:
        """:meth:`facts`, ``nccl.allreduce_algbw_gbytes_per_s`` (algbw at the largest sizes) and the banner's facts."""
        out = self.facts()
        algbw = self.peak_algbw_large_gbytes_per_s
        if out and algbw is not None:
            out["nccl.allreduce_algbw_gbytes_per_s"] = algbw
        return {**self.header_facts(), **out}


NOTES = {
    "nccl_tests.avg_means_little": "nccl-tests: the 'Avg bus bandwidth' {avg:g} GB/s averages a sweep from "
                                   "{smallest}, where latency dominates, and means little; the peak busbw at the "
                                   "largest sizes is {peak:g} GB/s",
    "nccl_tests.avg_only": "nccl-tests: only the 'Avg bus bandwidth' ({avg:g} GB/s) was given, so it is the figure "
                           "used; it averages all sizes, tiny ones included, and understates what the fabric "
                           "sustains at large sizes",
    "nccl_tests.small_sweep": "nccl-tests: the largest size is only {largest}; busbw keeps rising up to hundreds "
                              "of MB, so this understates the fabric",
    "nccl_tests.cut_header": "nccl-tests: the table looks cut off (partial): a header without rows",
    "nccl_tests.cut_row": "nccl-tests: the table looks cut off (partial): a row stops short",
    "nccl_tests.cut_sweep": "nccl-tests: the table looks cut off (partial): the sweep stops before the run's maxBytes",
}


def _size(n: int) -> str:
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:g} {unit}"
    return f"{n} B"


# '-T 1' ends each row with the time it was measured ('2025-03-01 10:00:01'), under a 'timestamp' column.
_TIMESTAMP = re.compile(r"\s+\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}\s*$")


def _strip_prefix(line: str) -> str:
    line = line.replace("\r", "")
    if line.lstrip().startswith("|") and line.count("|") >= 4:
        line = line.replace("|", " ")  # a row turned into a markdown table ('| 268435456 | 67108864 | float | …')
    line = _TIMESTAMP.sub("", line)
    for _ in range(2):  # e.g. "[1,0]<stdout>:" then "stdout: "
        match = _PREFIX.match(line)
        if not match:
            break
        line = line[match.end():]
    return line


def _header_columns(line: str) -> list[str] | None:
    """Column names of a "# size count type ..." header line, or None."""
    body = line.lstrip()
    body = body[1:] if body.startswith("#") else body  # markdown eats the '#' of pasted comment lines
    names = [_SYNONYMS.get(n, n) for n in body.split() if n != "timestamp"]
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
    if len(tokens) != len(columns) and len(tokens) == _half(columns):
        columns = columns[:len(tokens)]  # the out-of-place half of a row the terminal wrapped or cut at its width
    elif len(tokens) == len(columns) - 1 and columns[-1] in ("#wrong", "error"):
        columns = columns[:-1]  # a row whose last cell (its in-place #wrong) the terminal wrapped onto the next line
    if len(tokens) != len(columns) or not (tokens[0].isascii() and tokens[0].isdigit()):
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
        algbw_in=_number(tokens[algbw[1]]) if len(algbw) > 1 else None,
        redop=tokens[columns.index("redop")].lower() if "redop" in columns else None,
    )


def _half(columns: list[str]) -> int:
    """The cells of the out-of-place half of a two-sided layout (up to the second 'time' column), else 0."""
    times = [i for i, name in enumerate(columns) if name == "time"]
    return times[1] if len(times) > 1 else 0


def _looks_cut(tokens: list[str], width: int) -> int:
    """1 for the start of a table row that stops short ("67108864  16777216  float  sum"), else 0."""
    return int(3 <= len(tokens) < width and tokens[1].isascii() and tokens[1].isdigit()
               and tokens[2] in _TYPES)


def _candidate_layouts(tokens: list[str]) -> list[tuple[list[str], str]]:
    """The layouts a headless row of this many cells may have, the likeliest first."""
    out: list[tuple[list[str], str]] = []
    if len(tokens) == len(_PER_ITERATION_LAYOUT):
        out.append((_PER_ITERATION_LAYOUT, "per-iteration (assumed)"))
    if len(tokens) == len(_NEW_LAYOUT):  # thirteen cells: two-sided, or one side of the per-iteration report
        out += [(_NEW_LAYOUT, "new (assumed)"), (_PER_ITERATION_LAYOUT[:13], "per-iteration, one-sided (assumed)")]
    if len(tokens) == len(_OLD_LAYOUT):
        out.append((_OLD_LAYOUT, "old (assumed)"))
        # or the new layout with its last cell (the in-place #wrong) wrapped onto the next line: a root column ('-1')
        # where the old layout has its time
        out.append((_NEW_LAYOUT[:-1], "new, last cell wrapped (assumed)"))
    # one-sided rows (out-of-place only, as some pastes and -z/-R runs show): the first half of a layout
    if len(tokens) == 9 and tokens[4].lstrip("-").isdigit():
        out.append((_NEW_LAYOUT[:9], "new, one-sided (assumed)"))
    # eight cells: a root column (new layout, no #wrong) ends in a busbw; the old layout ends in an error ('1e-06')
    if len(tokens) == 8 and (tokens[4] == "-1" or not re.fullmatch(r"[0-9.]+[eE][-+]?\d+|N/A|0|0\.0+", tokens[7])):
        out.append((_NEW_LAYOUT[:8], "new, one-sided, no #wrong (assumed)"))  # size … root time algbw busbw
    elif len(tokens) == 8:
        out.append((_OLD_LAYOUT[:8], "old, one-sided (assumed)"))
    return out


def _fits(tokens: list[str], columns: list[str]) -> bool | None:
    """Whether the row's own arithmetic holds under these columns: algbw is size / time (time in µs, or in ms in the
    oldest nccl-tests) and busbw at most twice algbw, for every side; None when no side can tell (sizes so small that
    algbw prints 0.00)."""
    size = _number(tokens[0])
    verdicts = []
    for i, name in enumerate(columns):
        if name != "time" or i + 2 >= len(columns) or columns[i + 1:i + 3] != ["algbw", "busbw"]:
            continue
        time, algbw, busbw = (_number(tokens[j]) for j in (i, i + 1, i + 2))
        if time is not None and time < 0:
            return False  # no time is negative: the cell is a root ('-1') under a layout without that column
        if size is None or time is None or algbw is None or busbw is None or time <= 0:
            return False if time is None or algbw is None or busbw is None else None
        if algbw < 0.1:
            continue
        rate = [size / (time * scale) for scale in (1e3, 1e6)]
        verdicts.append(any(abs(r - algbw) <= 0.05 * algbw + 0.02 for r in rate) and busbw <= 2.0 * algbw + 0.02)
    return all(verdicts) if verdicts else None


def _assumed_layout(tokens: list[str]) -> tuple[list[str], str] | None:
    """The layout of a row pasted without its header: of those its cell count allows, one whose arithmetic holds."""
    candidates = _candidate_layouts(tokens)
    verdicts = [_fits(tokens, columns) for columns, _ in candidates]
    for wanted in (True, None):
        for candidate, verdict in zip(candidates, verdicts, strict=True):
            if verdict is wanted:
                return candidate
    return candidates[0] if candidates else None


def _version_of_code(code: int) -> str:
    """NCCL_VERSION_CODE: 2708 is 2.7.8 (before 2.9), 22803 is 2.28.3."""
    major, rest = (code // 1000, code % 1000) if code < 10000 else (code // 10000, code % 10000)
    return f"{major}.{rest // 100}.{rest % 100}"


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
        if "nThread" in line and (m := _MAX_BYTES.search(line)):
            result.max_bytes_requested = int(m.group(1))
        if m := _LIBRARY.search(line):
            result.nccl_version = _version_of_code(int(m.group(1)))
        if m := _RANK.match(line.strip()):
            result.ranks[int(m.group(1))] = (m.group(2), m.group(3))
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
        if not tokens or not (tokens[0].isascii() and tokens[0].isdigit()):
            continue
        layout = columns
        if layout is None:
            assumed = _assumed_layout(tokens)
            if assumed is None:
                result.cut_rows += _looks_cut(tokens, len(_OLD_LAYOUT))
                continue
            layout, result.layout = assumed
        row = _row(tokens, layout)
        if row is not None:
            current.append(row)
        else:
            result.cut_rows += _looks_cut(tokens, len(layout))
    if current:
        result.rows, result.collective = current, collective
    elif not result.rows:
        result.collective = collective
    result.header_without_rows = columns is not None and not current
    return result
