"""CPU utilisation and iowait from /proc/stat deltas over the window; memory from /proc/meminfo."""

from __future__ import annotations

from pathlib import Path

from bwdoctor_parsers.procfs import CpuTimes, cpu_usage, parse_meminfo, parse_proc_stat
from bwdoctor_probe.collectors import CollectorResult


class SystemSampler:
    """``cpu.util_pct``, ``cpu.iowait_pct`` (window deltas) and ``mem.used_pct`` (at the end)."""

    name = "cpu"

    def __init__(self, proc: Path = Path("/proc")) -> None:
        self.proc = proc
        self._before: CpuTimes | None = None

    def _read_stat(self) -> CpuTimes | None:
        return parse_proc_stat((self.proc / "stat").read_text())

    def start(self) -> None:
        self._before = self._read_stat()

    def tick(self) -> None:
        """Nothing to do mid-window: the kernel counts for us."""

    def finish(self, elapsed_s: float) -> CollectorResult:
        result = CollectorResult()
        after = self._read_stat()
        if self._before is None or after is None:
            result.notes.append("cpu: /proc/stat has no aggregate cpu line")
        else:
            usage = cpu_usage(self._before, after)
            if usage:
                result.facts.update(usage)
            else:
                result.notes.append("cpu: no CPU time passed during the window (window too short)")
        try:
            memory = parse_meminfo((self.proc / "meminfo").read_text())
        except OSError as exc:
            result.notes.append(f"mem: cannot read /proc/meminfo: {exc.strerror or exc}")
        else:
            if memory:
                result.facts.update(memory)
            else:
                result.notes.append("mem: /proc/meminfo has no MemTotal")
        return result
