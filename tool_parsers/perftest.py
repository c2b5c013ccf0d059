"""perftest (``ib_write_bw``, ``ib_send_bw``, ``ib_read_bw``) tables → the measured RDMA bandwidth in Gb/s.

The table's unit is in its header: ``BW average[MB/sec]`` by default (MB = 2^20 bytes in perftest's
arithmetic), ``BW average[Gb/sec]`` with ``--report_gbits``, ``[MiB/sec]`` in some builds. With ``-a``
there is one row per message size; the largest sizes are what the link sustains, so the fact is
the best average among them. The banner (``RDMA_Write BW Test``, ``Link type : Ethernet``,
``Device : mlx5_0``, ``GID index : 3``) says which test and which link ran, and so does the command line pasted with
it (``ib_write_bw -d mlx5_0 -x 3 -R``: ``-x``/``--gid-index`` is the RoCE GID index, ``-R`` connects through rdma_cm).
A banner or a command line without the table still tells those.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bwdoctor_parsers.notes import Note, make

_TEST = re.compile(r"(RDMA_Write|RDMA_Read|Send|Atomic)\s+(?:Post List\s+)?BW Test", re.IGNORECASE)
_HEADER = re.compile(r"#bytes\s+#iterations\s+BW peak\[(?P<unit>[A-Za-z]+)/sec\]\s+BW average\[(?P=unit)/sec\]")
_ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+([0-9.]+)\s+([0-9.]+)(?:\s+([0-9.]+))?\s*$")
_FIELD = re.compile(r"(?:^|\s)(Device|Link type|GID index)\s*:\s*(\S+)", re.IGNORECASE)
# The command that ran the test, with its GID index option ('ib_write_bw 10.0.0.2 -d mlx5_0 -x 3 --report_gbits').
_COMMAND = re.compile(r"\bib_(?:write|read|send|atomic)_(?:bw|lat)\b(?P<args>[^\n|;&]*)")
_GID_OPTION = re.compile(r"(?:^|\s)(?:-x\s*|--gid-index[=\s]\s*)(\d{1,3})(?!\S)")
# Gb/s per unit/s: perftest divides bytes by 2^20 for "MB" and multiplies by 8 and 1e-9 for "Gb".
_TO_GBPS = {"MB": 8 * 1048576 / 1e9, "MiB": 8 * 1048576 / 1e9, "Gb": 1.0, "GB": 8.0, "Mb": 1e-3}
LARGE_SIZE_FRACTION = 0.25
SMALL_MESSAGE_BYTES = 65536  # below this perftest measures the message rate, not the link


@dataclass
class PerftestRow:
    size_bytes: int
    iterations: int
    peak: float
    average: float


@dataclass
class PerftestResult:
    """The last bandwidth table in the text, its unit, and what the banner said."""

    test: str | None = None  # "RDMA_Write", "Send", "RDMA_Read"
    unit: str | None = None  # "MB", "Gb", "MiB"
    rows: list[PerftestRow] = field(default_factory=list)
    device: str | None = None
    link_type: str | None = None  # "IB" | "Ethernet"
    gid_index: int | None = None  # the banner's 'GID index', else the command line's -x
    header_seen: bool = False
    cut: bool = False  # a row that stops short after the header

    @property
    def average_gbps(self) -> float | None:
        """Best ``BW average`` among the largest message sizes, in Gb/s (None for small-message runs)."""
        if not self.rows or self.unit not in _TO_GBPS:
            return None
        largest = max(r.size_bytes for r in self.rows)
        if largest < SMALL_MESSAGE_BYTES:
            return None
        best = max(r.average for r in self.rows if r.size_bytes >= largest * LARGE_SIZE_FRACTION)
        return round(best * _TO_GBPS[self.unit], 3)

    @property
    def partial(self) -> bool:
        """A header without any complete row (the paste stops inside the table)."""
        return (self.header_seen and not self.rows) or self.cut

    def facts(self) -> dict[str, Any]:
        """``net.rdma_bw_gbps`` and, from the banner, ``nic.kind`` (``Link type : IB`` or ``Ethernet`` = RoCE)."""
        out: dict[str, Any] = {}
        gbps = self.average_gbps
        if gbps is not None and gbps > 0:
            out["net.rdma_bw_gbps"] = gbps
        if self.link_type:
            kind = self.link_type.lower()
            if kind == "ib":
                out["nic.kind"] = "infiniband"
            elif kind == "ethernet":
                out["nic.kind"] = "roce"
            if kind in ("ib", "ethernet"):
                out["nic.rdma"] = True
        if self.gid_index is not None and (self.link_type or "").lower() != "ib" and self.gid_index <= 255:
            out["nic.gid_index"] = self.gid_index  # a GID index is RoCE's; InfiniBand routes by LID
        return out

    def coded_notes(self) -> list[Note]:
        """A sweep of small messages only, a cut table; each with a stable code."""
        out: list[Note] = []
        if self.rows and self.unit in _TO_GBPS:
            largest = max(r.size_bytes for r in self.rows)
            if largest < SMALL_MESSAGE_BYTES:
                out.append(make(NOTES, "perftest.small_messages", largest=largest))
        if self.partial:
            out.append(make(NOTES, "perftest.partial"))
        return out

    def notes(self) -> list[str]:
        """The notes' English text (what the probe prints)."""
        return [n.text for n in self.coded_notes()]


NOTES = {
    "perftest.small_messages": "perftest: the largest message is {largest} B; small messages measure the message "
                               "rate, not the link's bandwidth, so no bandwidth is taken from it",
    "perftest.partial": "perftest: the table looks cut off (partial)",
}


def parse_perftest(text: str) -> PerftestResult:
    """Parse ib_write_bw/ib_send_bw/ib_read_bw output; anything else gives an empty result."""
    result = PerftestResult()
    if not isinstance(text, str) or not ("#bytes" in text or "BW Test" in text or "Link type" in text
                                         or _COMMAND.search(text)):
        return result
    in_table = False
    option = None
    for raw in text.splitlines():
        line = raw.replace("\r", "")
        if m := _TEST.search(line):
            result.test = m.group(1)
        if (m := _COMMAND.search(line)) and (gid := _GID_OPTION.search(m.group("args"))):
            option = int(gid.group(1))
        for key, value in _FIELD.findall(line):
            if key.lower() == "device":
                result.device = value
            elif key.lower() == "link type":
                result.link_type = value
            elif value.isdigit():
                result.gid_index = int(value)
        if m := _HEADER.search(line):
            result.unit, result.rows, in_table, result.header_seen = m.group("unit"), [], True, True
            result.cut = False
            continue
        if not in_table:
            continue
        if m := _ROW.match(line):
            try:
                result.rows.append(PerftestRow(int(m.group(1)), int(m.group(2)), float(m.group(3)),
                                               float(m.group(4))))
            except ValueError:
                continue
        elif line.strip().startswith("-"):
            in_table = False
        elif re.match(r"^\s*\d+\s+\d+", line):
            result.cut = True
    if result.gid_index is None:
        result.gid_index = option
    return result
