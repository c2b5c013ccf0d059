"""nvidia-smi output → GPU utilisation, memory use, model and NVLink presence.

Handles the default table (old and new driver layouts), ``--query-gpu=... --format=csv`` output
and the ``nvidia-smi topo -m`` matrix. One snapshot is a single sample; the chat says so.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from typing import Any

_NAME = re.compile(r"^\|\s+(?P<idx>\d+)\s+(?P<name>.+?)\s+(?:On|Off)\s+\|")
_USAGE = re.compile(r"(?P<used>\d+)MiB\s*/\s*(?P<total>\d+)MiB\s*\|\s*(?P<util>\d+)%")
_TOPO_HEADER = re.compile(r"^\s*GPU0(\s+GPU\d+)*")
_TOPO_LINK = re.compile(r"^(?:X|NV\d+|PIX|PXB|PHB|NODE|SYS|SOC)$")


@dataclass
class GpuSample:
    """One GPU's line of a snapshot."""

    index: int
    name: str | None = None
    util_pct: float | None = None
    mem_used_mib: float | None = None
    mem_total_mib: float | None = None


@dataclass
class NvidiaSmiResult:
    """GPUs seen in the output, plus NVLink presence when a topology matrix was pasted."""

    gpus: list[GpuSample] = field(default_factory=list)
    nvlink: bool | None = None
    driver_version: str | None = None

    def facts(self) -> dict[str, Any]:
        """gpu.count, gpu.model, gpu.util_pct (mean), gpu.util_min_pct, gpu.mem_used_pct, gpu.nvlink."""
        out: dict[str, Any] = {}
        if self.gpus:
            out["gpu.count"] = len(self.gpus)
            names = [g.name for g in self.gpus if g.name]
            if names:
                out["gpu.model"] = names[0]
            utils = [g.util_pct for g in self.gpus if g.util_pct is not None]
            if utils:
                out["gpu.util_pct"] = round(statistics.fmean(utils), 2)
                out["gpu.util_min_pct"] = min(utils)
            mems = [100 * g.mem_used_mib / g.mem_total_mib for g in self.gpus
                    if g.mem_used_mib is not None and g.mem_total_mib]
            if mems:
                out["gpu.mem_used_pct"] = round(statistics.fmean(mems), 2)
        if self.nvlink is not None:
            out["gpu.nvlink"] = self.nvlink
        return out


def looks_like_nvidia_smi(text: str) -> bool:
    """True for a pasted nvidia-smi table, CSV query or topology matrix."""
    return bool(re.search(r"NVIDIA-SMI|GPU-Util|utilization\.gpu|^\s*GPU0\s+GPU1", text, re.MULTILINE))


def _clean_name(name: str) -> str:
    name = re.sub(r"^NVIDIA\s+", "", name.strip())
    return name.rstrip(". ")


def _table(lines: list[str], result: NvidiaSmiResult) -> None:
    pending: GpuSample | None = None
    for line in lines:
        if m := re.search(r"Driver Version:\s*([\d.]+)", line):
            result.driver_version = m.group(1)
        if m := _NAME.match(line):
            pending = GpuSample(index=int(m["idx"]), name=_clean_name(m["name"]))
            continue
        if pending is not None and (m := _USAGE.search(line)):
            pending.util_pct = float(m["util"])
            pending.mem_used_mib, pending.mem_total_mib = float(m["used"]), float(m["total"])
            result.gpus.append(pending)
            pending = None


def _csv(lines: list[str], result: NvidiaSmiResult) -> None:
    header: list[str] | None = None
    for line in lines:
        cells = [c.strip() for c in line.split(",")]
        if any(c.startswith(("utilization.gpu", "memory.used", "name", "index")) for c in cells):
            header = [re.sub(r"\s*\[.*\]$", "", c) for c in cells]
            continue
        if header is None or len(cells) != len(header):
            continue
        row = dict(zip(header, cells, strict=True))
        sample = GpuSample(index=len(result.gpus))
        if "name" in row:
            sample.name = _clean_name(row["name"])
        for key, attr in (("utilization.gpu", "util_pct"), ("memory.used", "mem_used_mib"),
                          ("memory.total", "mem_total_mib")):
            if key in row and (m := re.match(r"(\d+(?:\.\d+)?)", row[key])):
                setattr(sample, attr, float(m.group(1)))
        result.gpus.append(sample)


def _topo(lines: list[str], result: NvidiaSmiResult) -> None:
    columns = 0
    for line in lines:
        if _TOPO_HEADER.match(line):
            columns = len(re.findall(r"GPU\d+", line))
            continue
        if columns and re.match(r"^\s*GPU\d+\s", line):
            links = [t for t in line.split()[1:1 + columns] if _TOPO_LINK.match(t)]
            others = [t for t in links if t != "X"]
            if others:
                result.nvlink = bool(result.nvlink) or any(t.startswith("NV") for t in others)


def parse_nvidia_smi(text: str) -> NvidiaSmiResult:
    """Parse any of the three layouts; unknown text gives an empty result, never an exception."""
    result = NvidiaSmiResult()
    if not isinstance(text, str) or not text.strip():
        return result
    lines = text.splitlines()
    _table(lines, result)
    if not result.gpus:
        _csv(lines, result)
    _topo(lines, result)
    return result
