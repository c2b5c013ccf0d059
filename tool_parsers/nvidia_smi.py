"""nvidia-smi output → GPU utilisation, memory use, model, PCIe link, NVLink and NIC affinity.

Handles the default table (old and new driver layouts), ``--query-gpu=... --format=csv`` output
(``pcie.link.gen.current`` and friends too), ``nvidia-smi -q`` excerpts (``GPU Link Info``:
``PCIe Generation`` and ``Link Width``, each ``Max`` and ``Current``) and the ``nvidia-smi topo -m``
matrix, whose header may carry ANSI underline codes and whose NIC columns (``NIC0`` with a
``NIC Legend``, or ``mlx5_0`` in old drivers) tell how far each GPU is from a NIC: ``PIX``/``PXB``
share a PCIe switch, ``PHB``/``NODE``/``SYS`` cross the CPU. One snapshot is a single sample; the
chat says so. A GPU lowers its current PCIe generation when idle, so a low ``Current`` is only
telling while the GPU is busy.

Also read for utilisation: ``nvidia-smi dmon`` (``# gpu  pwr gtemp mtemp  sm  mem  enc  dec …`` over
``# Idx  W  C  C  %  %  %  % …``, one row per GPU per second; ``sm`` is the busy share of the GPU, averaged per GPU
over the samples; ``-o DT`` adds date and time columns first), ``gpustat`` (``[0] NVIDIA A100-SXM4-80GB | 45°C,
62 % | 40213 / 81920 MB | …``, a fan share before the utilisation with ``-F``) and nvtop's bars (``GPU[|||  45%]``).
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from typing import Any

from bwdoctor_parsers.notes import Note, make

_NAME = re.compile(r"^\s*\|\s+(?P<idx>\d+)\s+(?P<name>.+?)\s+(?:On|Off)\s+\|")
_USAGE = re.compile(r"(?P<used>\d+)MiB\s*/\s*(?P<total>\d+)MiB\s*\|\s*(?P<util>\d+)%")
_TOPO_LINK = re.compile(r"^(?:X|NV\d+|PIX|PXB|PHB|NODE|SYS|SOC)$")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_NIC_COLUMN = re.compile(r"^(?:NIC\d+|mlx\d+_\d+|[a-z]+\d*_\d+)$")
_NIC_LEGEND = re.compile(r"^\s*(NIC\d+):\s*(\S+)\s*$")
_PATH_RANK = {"PIX": 0, "PXB": 1, "PHB": 2, "NODE": 3, "SOC": 4, "SYS": 4}
_Q_FIELD = re.compile(r"^(\s*)([A-Za-z][\w ./()-]*?)\s*:\s*(.*?)\s*$")
_Q_SECTION = re.compile(r"^(\s*)([A-Za-z][\w ./()-]*?)\s*$")


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
    gpu_count: int | None = None  # "Attached GPUs" of nvidia-smi -q
    pcie_gen: list[int] = field(default_factory=list)  # current, one per GPU
    pcie_gen_max: list[int] = field(default_factory=list)
    pcie_width: list[int] = field(default_factory=list)
    pcie_width_max: list[int] = field(default_factory=list)
    nic_paths: dict[str, str] = field(default_factory=dict)  # "GPU0" → its nearest NIC's path ("PIX", "SYS")
    nic_legend: dict[str, str] = field(default_factory=dict)  # "NIC0" → "mlx5_0"
    # the topology matrix's header, one machine's (every GPU named even when rows were cut off the paste): its GPU
    # columns are the GPUs the machine has, its NIC columns the NICs; None when columns were elided ('GPU3 ... mlx5_0')
    topo_gpus: int | None = None
    topo_nics: int | None = None

    def facts(self) -> dict[str, Any]:
        """gpu.count, gpu.model, gpu.util_pct (mean), gpu.util_min_pct, gpu.mem_used_pct, gpu.nvlink, gpu.nic_path.

        ``gpu.nic_path`` is the farthest of the GPUs' nearest-NIC paths (``sys`` when one GPU must cross the
        sockets to reach any NIC), lower-case as the catalogue spells it: the GPU that is worst placed sets the
        ring's pace.
        """
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
        if self.nic_paths:
            worst = max(self.nic_paths.values(), key=lambda p: _PATH_RANK[p])
            out["gpu.nic_path"] = "sys" if worst == "SOC" else worst.lower()
        if self.gpu_count and "gpu.count" not in out:
            out["gpu.count"] = self.gpu_count
        for key, values, pick in (("gpu.pcie_gen", self.pcie_gen, min), ("gpu.pcie_width", self.pcie_width, min),
                                  ("gpu.pcie_gen_max", self.pcie_gen_max, max),
                                  ("gpu.pcie_width_max", self.pcie_width_max, max)):
            if values:
                out[key] = pick(values)
        return out

    def coded_notes(self) -> list[Note]:
        """NIC affinity from the topology matrix and a PCIe link below its maximum."""
        out: list[Note] = []
        far = {gpu: path for gpu, path in self.nic_paths.items() if _PATH_RANK.get(path, 0) >= 2}
        if far:
            names = ", ".join(f"{gpu} ({path})" for gpu, path in list(far.items())[:8])
            out.append(make(NOTES, "nvidia_smi.nic_far", names=names))
        elif self.nic_paths:
            out.append(make(NOTES, "nvidia_smi.nic_near"))
        if self.pcie_gen and self.pcie_gen_max and min(self.pcie_gen) < max(self.pcie_gen_max):
            out.append(make(NOTES, "nvidia_smi.pcie_gen", now=min(self.pcie_gen), max=max(self.pcie_gen_max)))
        if self.pcie_width and self.pcie_width_max and min(self.pcie_width) < max(self.pcie_width_max):
            out.append(make(NOTES, "nvidia_smi.pcie_width", now=min(self.pcie_width), max=max(self.pcie_width_max)))
        return out

    def notes(self) -> list[str]:
        """The notes' English text (what the probe prints)."""
        return [n.text for n in self.coded_notes()]


NOTES = {
    "nvidia_smi.nic_far": "nvidia-smi topo: no NIC under the same PCIe switch for {names}; traffic to the network "
                          "crosses the CPU, and NCCL turns GPUDirect RDMA off on such paths by default",
    "nvidia_smi.nic_near": "nvidia-smi topo: every GPU has a NIC on its own PCIe switch (PIX/PXB)",
    "nvidia_smi.pcie_gen": "nvidia-smi: PCIe generation {now} now, {max} possible (an idle GPU lowers it; check "
                           "under load)",
    "nvidia_smi.pcie_width": "nvidia-smi: PCIe link x{now} of x{max}",
}


def looks_like_nvidia_smi(text: str) -> bool:
    """True for a pasted nvidia-smi table, CSV query or topology matrix."""
    return bool(re.search(r"NVIDIA-SMI|GPU-Util|utilization\.gpu|^\s*GPU0\s+GPU1", text, re.MULTILINE))


# What the chat's router looks for beside the table's own words: dmon's header, gpustat's and nvtop's lines.
ROUTE = re.compile(r"^\s*#[^\n]*\bgpu\s+(?:\w+\s+)*sm\b|^\s*\[\d+\]\s+[^|\n]+\|\s*-?\d+\s*(?:°|'|º)?\s*C,|"
                   r"\bGPU\[[|\s]*\d{1,3}%\]", re.M)


def _clean_name(name: str) -> str:
    name = re.sub(r"^NVIDIA\s+", "", name.strip())
    return name.rstrip(". ")


def _table(lines: list[str], result: NvidiaSmiResult) -> None:
    pending: GpuSample | None = None
    for line in lines:
        if m := re.search(r"Driver Version:\s*([\d.]+)", line):
            result.driver_version = m.group(1)
        if m := _NAME.match(line):
            if pending is not None:
                result.gpus.append(pending)  # a name row whose usage row was cut from the paste: the GPU is still there
            pending = GpuSample(index=int(m["idx"]), name=_clean_name(m["name"]))
            continue
        if pending is not None and (m := _USAGE.search(line)):
            pending.util_pct = float(m["util"])
            pending.mem_used_mib, pending.mem_total_mib = float(m["used"]), float(m["total"])
            result.gpus.append(pending)
            pending = None
    if pending is not None:
        result.gpus.append(pending)


def _csv(lines: list[str], result: NvidiaSmiResult) -> None:
    header: list[str] | None = None
    for line in lines:
        cells = [c.strip() for c in line.split(",")]
        if any(c.startswith(("utilization.gpu", "memory.used", "name", "index", "pcie.link")) for c in cells):
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
        for key, target in (("pcie.link.gen.current", result.pcie_gen), ("pcie.link.gen.max", result.pcie_gen_max),
                            ("pcie.link.width.current", result.pcie_width),
                            ("pcie.link.width.max", result.pcie_width_max)):
            if key in row and (m := re.match(r"(\d+)", row[key])):
                target.append(int(m.group(1)))
        result.gpus.append(sample)


def _topo(lines: list[str], result: NvidiaSmiResult) -> None:
    columns = 0
    nics: list[int] = []  # positions of NIC columns in the header
    for raw in lines:
        line = _ANSI.sub("", raw)
        if m := _NIC_LEGEND.match(line):
            result.nic_legend[m.group(1)] = m.group(2)
            continue
        header = line.split()
        if header and header[0] == "GPU0" and (len(header) == 1 or header[1] in ("GPU1", "CPU", "NIC0")
                                              or _NIC_COLUMN.match(header[1])):
            columns = sum(1 for t in header if re.fullmatch(r"GPU\d+", t))
            nics = [i for i, t in enumerate(header) if _NIC_COLUMN.match(t)]
            if not any(t.strip(".…") == "" for t in header):  # 'GPU3 ... mlx5_0': columns cut out of the paste
                result.topo_gpus = max(result.topo_gpus or 0, columns) or None
                result.topo_nics = max(result.topo_nics or 0, len(nics)) or None
            continue
        if columns and re.match(r"^\s*GPU\d+\s", line):
            cells = line.split()
            links = [t for t in cells[1:1 + columns] if _TOPO_LINK.match(t)]
            others = [t for t in links if t != "X"]
            if others:
                result.nvlink = bool(result.nvlink) or any(t.startswith("NV") for t in others)
            paths = [cells[i + 1] for i in nics if i + 1 < len(cells) and cells[i + 1] in _PATH_RANK]
            if paths:
                result.nic_paths[cells[0]] = min(paths, key=lambda p: _PATH_RANK[p])


def _query(lines: list[str], result: NvidiaSmiResult) -> None:
    """``nvidia-smi -q``: the indented ``GPU Link Info`` block, ``Product Name`` and ``Attached GPUs``."""
    stack: list[tuple[int, str]] = []
    for line in lines:
        if not line.strip():
            continue
        field_match = _Q_FIELD.match(line)
        indent = len(line) - len(line.lstrip())
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if field_match is None or not field_match.group(3):
            if (section := _Q_SECTION.match(line)) and field_match is None:
                stack.append((indent, section.group(2).strip().lower()))
            continue
        key, value = field_match.group(2).strip().lower(), field_match.group(3)
        parent = stack[-1][1] if stack else ""
        number = re.match(r"(\d+)", value)
        if key == "attached gpus" and number:
            result.gpu_count = int(number.group(1))
        elif key == "product name" and not result.gpus:
            result.gpus.append(GpuSample(index=0, name=_clean_name(value)))
        elif key == "product name":
            result.gpus.append(GpuSample(index=len(result.gpus), name=_clean_name(value)))
        elif number and parent in ("pcie generation", "link width") and key in ("current", "max"):
            target = {("pcie generation", "current"): result.pcie_gen, ("pcie generation", "max"): result.pcie_gen_max,
                      ("link width", "current"): result.pcie_width, ("link width", "max"): result.pcie_width_max}
            target[(parent, key)].append(int(number.group(1)))


_GPUSTAT = re.compile(r"^\s*\[(?P<idx>\d+)\]\s+(?P<name>[^|]+?)\s*\|\s*-?\d+\s*(?:°|'|º)?\s*C,\s*"
                      r"(?:\d+\s*%,\s*)?(?P<util>\d+)\s*%(?:,\s*\d+\s*/\s*\d+\s*W)?\s*\|\s*"
                      r"(?P<used>\d+)\s*/\s*(?P<total>\d+)\s*MB")
_NVTOP_BAR = re.compile(r"\bGPU\[[|\s]*(\d{1,3})%\]")


def _dmon(lines: list[str], result: NvidiaSmiResult) -> None:
    """``nvidia-smi dmon``: per-GPU mean of the ``sm`` column over its samples."""
    columns: list[str] | None = None
    samples: dict[int, list[float]] = {}
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("#"):
            tokens = stripped.lstrip("#").split()
            if "gpu" in tokens and "sm" in tokens:
                columns = tokens
            continue
        if columns is None:
            continue
        cells = stripped.split()
        if len(cells) != len(columns):
            continue
        gpu, busy = cells[columns.index("gpu")], cells[columns.index("sm")]
        if gpu.isdigit() and re.fullmatch(r"\d{1,3}", busy) and int(busy) <= 100:
            samples.setdefault(int(gpu), []).append(float(busy))
    for number in sorted(samples):
        result.gpus.append(GpuSample(index=number, util_pct=round(statistics.fmean(samples[number]), 2)))


def _gpustat(lines: list[str], result: NvidiaSmiResult) -> None:
    for line in lines:
        if (m := _GPUSTAT.match(line)) and int(m["util"]) <= 100:
            result.gpus.append(GpuSample(index=int(m["idx"]), name=_clean_name(m["name"]), util_pct=float(m["util"]),
                                         mem_used_mib=float(m["used"]), mem_total_mib=float(m["total"])))


def _nvtop(lines: list[str], result: NvidiaSmiResult) -> None:
    for line in lines:
        for m in _NVTOP_BAR.finditer(line):
            if int(m.group(1)) <= 100:
                result.gpus.append(GpuSample(index=len(result.gpus), util_pct=float(m.group(1))))


def parse_nvidia_smi(text: str) -> NvidiaSmiResult:
    """Parse any of the three layouts; unknown text gives an empty result, never an exception."""
    result = NvidiaSmiResult()
    if not isinstance(text, str) or not text.strip():
        return result
    lines = text.splitlines()
    _table(lines, result)
    if not result.gpus:
        _csv(lines, result)
    if not result.gpus and any(k in text for k in ("GPU Link Info", "PCIe Generation", "Link Width",
                                                           "Product Name", "Attached GPUs")):
        _query(lines, result)
    for reader in (_dmon, _gpustat, _nvtop):
        if not result.gpus:
            reader(lines, result)
    _topo(lines, result)
    return result
