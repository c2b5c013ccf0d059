"""/proc/stat, /proc/meminfo and /proc/net/dev → utilisation and rates from two samples.

The kernel counters only grow, so a figure "over the window" is the difference of two
readings; one reading alone says nothing about now.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# /proc/stat "cpu" columns; guest and guest_nice are already counted in user and nice.
_CPU_FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")


@dataclass(frozen=True)
class CpuTimes:
    """Aggregate CPU jiffies from the ``cpu`` line of /proc/stat."""

    user: int = 0
    nice: int = 0
    system: int = 0
    idle: int = 0
    iowait: int = 0
    irq: int = 0
    softirq: int = 0
    steal: int = 0

    @property
    def total(self) -> int:
        return sum(getattr(self, name) for name in _CPU_FIELDS)


def parse_proc_stat(text: str) -> CpuTimes | None:
    """The aggregate ``cpu`` line; None when there is none."""
    if not isinstance(text, str):
        return None
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 5 and parts[0] == "cpu":
            try:
                numbers = [int(p) for p in parts[1:1 + len(_CPU_FIELDS)]]
            except ValueError:
                return None
            numbers += [0] * (len(_CPU_FIELDS) - len(numbers))
            return CpuTimes(*numbers)
    return None


def cpu_usage(before: CpuTimes, after: CpuTimes) -> dict[str, float]:
    """``cpu.util_pct`` and ``cpu.iowait_pct`` between two readings (empty if no time passed)."""
    total = after.total - before.total
    if total <= 0:
        return {}
    idle = (after.idle - before.idle) + (after.iowait - before.iowait)
    busy = max(0, total - idle)
    iowait = max(0, after.iowait - before.iowait)
    return {
        "cpu.util_pct": round(100.0 * busy / total, 2),
        "cpu.iowait_pct": round(100.0 * iowait / total, 2),
    }


def parse_meminfo(text: str) -> dict[str, float]:
    """``mem.used_pct`` = (MemTotal − MemAvailable) / MemTotal; page cache counts as free."""
    values: dict[str, int] = {}
    if not isinstance(text, str):
        return {}
    for line in text.splitlines():
        key, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isascii() and parts[0].isdigit():
            values[key.strip()] = int(parts[0])
    total = values.get("MemTotal")
    if not total:
        return {}
    available = values.get("MemAvailable")
    if available is None:  # kernels before 3.14
        available = values.get("MemFree", 0) + values.get("Buffers", 0) + values.get("Cached", 0)
    return {"mem.used_pct": round(100.0 * max(0, total - available) / total, 2)}


@dataclass(frozen=True)
class NetCounters:
    """Byte counters of one interface from /proc/net/dev."""

    rx_bytes: int
    tx_bytes: int


def parse_net_dev(text: str) -> dict[str, NetCounters]:
    """Interface name → byte counters; header and malformed lines are skipped."""
    out: dict[str, NetCounters] = {}
    if not isinstance(text, str):
        return out
    for line in text.splitlines():
        name, sep, rest = line.partition(":")
        if not sep or "|" in line:
            continue
        parts = rest.split()
        if len(parts) < 16:
            continue
        try:
            out[name.strip()] = NetCounters(rx_bytes=int(parts[0]), tx_bytes=int(parts[8]))
        except ValueError:
            continue
    return out


def net_rates(before: NetCounters, after: NetCounters, seconds: float) -> dict[str, Any]:
    """``nic.rx_gbps`` / ``nic.tx_gbps`` over ``seconds`` (empty for no time or a counter reset)."""
    if seconds <= 0:
        return {}
    rx, tx = after.rx_bytes - before.rx_bytes, after.tx_bytes - before.tx_bytes
    if rx < 0 or tx < 0:
        return {}
    return {
        "nic.rx_gbps": round(rx * 8 / seconds / 1e9, 4),
        "nic.tx_gbps": round(tx * 8 / seconds / 1e9, 4),
    }


def split_samples(text: str, marker: str = "=== sample") -> list[str]:
    """Split a capture of several readings separated by ``=== sample N ===`` lines."""
    blocks: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith(marker):
            blocks.append([])
        elif blocks:
            blocks[-1].append(line)
    return ["\n".join(block) for block in blocks]
