"""GPUs through NVML (package ``nvidia-ml-py``, module ``pynvml``).

Utilisation is NVML's "a kernel was running" percentage, sampled over the window and averaged
per GPU; ``gpu.util_pct`` is the mean of all GPUs and ``gpu.util_min_pct`` the least busy one.
No driver or no GPU gives ``gpu.count: 0`` and a note. Everything after the count is per GPU and
may fail per GPU: a handle NVML refuses (``NVMLError_NoPermission`` in a container that sees a
GPU it may not open, ``NVMLError_GpuIsLost`` after an XID), a call a card does not support (NVLink
on a PCIe card, utilisation under MIG: ``NVMLError_NotSupported``) or any other NVML error. Each
drops only what it touched: the facts are computed from the GPUs that answered, ``gpu.count`` is
kept, and one note per kind of reading names the GPUs it could not read and why.
"""

from __future__ import annotations

from typing import Any

from bwdoctor_probe.collectors import CollectorResult

# nvmlInit failures that mean "there is no usable NVIDIA GPU here" rather than "NVML broke".
_NO_GPU_ERRORS = ("NVMLError_LibraryNotFound", "NVMLError_DriverNotLoaded", "NVMLError_NoPermission",
                  "NVMLError_GpuNotFound")


# nvmlInit costs tens of milliseconds on a multi-GPU node, so a long-running probe initialises
# NVML once and keeps it; an error that says the library lost its state resets this.
_nvml_ready: dict[str, Any] = {"module": None}
_RESET_ERRORS = ("NVMLError_Uninitialized", "NVMLError_GpuIsLost", "NVMLError_DriverNotLoaded")


def reset_nvml() -> None:
    """Forget the NVML session (next pass calls nvmlInit again)."""
    _nvml_ready["module"] = None


def shutdown_nvml() -> None:
    """End the NVML session (one-shot tools; the run loop keeps it open)."""
    module = _nvml_ready["module"]
    if module is not None:
        try:
            module.nvmlShutdown()
        except Exception:  # shutting down a library that is already gone
            pass
        reset_nvml()


def _text(value: Any) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


class GpuSampler:
    """Samples every GPU's utilisation on each tick; the rest is read once at the end."""

    name = "gpu"

    def __init__(self, nvml: Any = None) -> None:
        self._nvml = nvml
        self._handles: list[tuple[int, Any]] = []  # (NVML index, handle) of the GPUs that could be opened
        self._util: dict[int, list[float]] = {}
        self._notes: list[str] = []
        self._count: int | None = None
        self._initialised = False
        self._failures: dict[str, dict[int, str]] = {}  # what → {GPU index: NVML's error}, in order seen

    def start(self) -> None:
        if self._nvml is None:
            try:
                import pynvml
            except ImportError:
                self._notes.append("gpu: nvidia-ml-py is not installed (pip install nvidia-ml-py); GPUs not read")
                return
            self._nvml = pynvml
        nvml = self._nvml
        try:
            if _nvml_ready["module"] is not nvml:
                nvml.nvmlInit()
                _nvml_ready["module"] = nvml
        except nvml.NVMLError as exc:
            if type(exc).__name__ in _NO_GPU_ERRORS:
                self._count = 0
                self._notes.append(f"gpu: no NVIDIA driver or GPU reachable ({exc}); gpu.count = 0")
            else:
                self._notes.append(f"gpu: NVML initialisation failed: {exc}")
            return
        try:
            self._count = int(nvml.nvmlDeviceGetCount())
        except nvml.NVMLError as exc:
            reset_nvml()
            self._notes.append(f"gpu: NVML started but could not count the GPUs: {exc}")
            return
        self._initialised = True
        for index in range(self._count):
            handle = self._call("handle", index, nvml.nvmlDeviceGetHandleByIndex, index)
            if handle is not None:
                self._handles.append((index, handle))
                self._util[index] = []
        self.tick()

    def tick(self) -> None:
        if not self._initialised:
            return
        for index, handle in self._handles:
            value = self._call("utilisation", index, self._nvml.nvmlDeviceGetUtilizationRates, handle)
            if value is not None:
                self._util[index].append(float(value.gpu))

    def _call(self, what: str, index: int, fn: Any, *args: Any) -> Any:
        """Call an NVML function for GPU `index`; an NVML error drops the value and is noted once per GPU."""
        try:
            return fn(*args)
        except self._nvml.NVMLError as exc:
            self._failed(what, index, exc)
            return None

    def _failed(self, what: str, index: int, exc: Exception) -> None:
        if type(exc).__name__ in _RESET_ERRORS:
            reset_nvml()
        self._failures.setdefault(what, {}).setdefault(index, str(exc))

    def _failure_notes(self) -> list[str]:
        """One note per kind of reading: which GPUs did not give it, and NVML's reasons."""
        notes = []
        for what, by_gpu in self._failures.items():
            gpus = sorted(by_gpu)
            which = (f"any of the {self._count} GPUs" if len(gpus) == self._count and len(gpus) > 1
                     else ("GPU " if len(gpus) == 1 else "GPUs ") + ", ".join(map(str, gpus)))
            reasons = "; ".join(sorted(set(by_gpu.values())))
            if what == "handle":
                notes.append(f"gpu: could not open {which} ({reasons}); their facts are left out, gpu.count is NVML's")
            else:
                notes.append(f"gpu: {what} not available on {which}: {reasons}")
        return notes

    def finish(self, elapsed_s: float) -> CollectorResult:
        result = CollectorResult(notes=self._notes)
        if self._count is not None:
            result.facts["gpu.count"] = self._count
        if self._initialised:
            self.tick()
            self._read_static(result)
            result.notes.extend(self._failure_notes())
        return result

    def close(self) -> None:
        shutdown_nvml()

    def _read_static(self, result: CollectorResult) -> None:
        nvml, facts = self._nvml, result.facts
        if not self._count:
            result.notes.append("gpu: NVML works but reports no GPUs")
            return
        if not self._handles:
            return  # the note on the handles says why
        means = [sum(s) / len(s) for s in self._util.values() if s]
        if means:
            facts["gpu.util_pct"] = round(sum(means) / len(means), 1)
            facts["gpu.util_min_pct"] = round(min(means), 1)
            result.details["gpu_util_pct_per_gpu"] = [round(m, 1) for m in means]

        try:  # the driver a regression may line up with (an upgrade the same day the step time rose)
            facts["gpu.driver_version"] = _text(nvml.nvmlSystemGetDriverVersion())
        except nvml.NVMLError as exc:
            result.notes.append(f"gpu: driver version not available: {exc}")
        names = [self._call("name", i, nvml.nvmlDeviceGetName, h) for i, h in self._handles]
        names = [_text(n) for n in names if n is not None]
        if names:
            facts["gpu.model"] = names[0]
            if len(set(names)) > 1:
                result.notes.append(f"gpu: mixed models on this node: {', '.join(sorted(set(names)))}")

        used = total = 0
        for index, handle in self._handles:
            memory = self._call("memory", index, nvml.nvmlDeviceGetMemoryInfo, handle)
            if memory is not None:
                used, total = used + int(memory.used), total + int(memory.total)
        if total > 0:
            facts["gpu.mem_used_pct"] = round(100.0 * used / total, 1)

        self._read_pcie(result)
        self._read_nvlink(result)

    def _read_pcie(self, result: CollectorResult) -> None:
        """Worst current link across GPUs, and the maximum it could run at."""
        nvml = self._nvml
        current_gen, current_width, max_gen, max_width = [], [], [], []
        for index, handle in self._handles:
            for bucket, what, fn in (
                (current_gen, "PCIe generation", nvml.nvmlDeviceGetCurrPcieLinkGeneration),
                (current_width, "PCIe width", nvml.nvmlDeviceGetCurrPcieLinkWidth),
                (max_gen, "PCIe max generation", nvml.nvmlDeviceGetMaxPcieLinkGeneration),
                (max_width, "PCIe max width", nvml.nvmlDeviceGetMaxPcieLinkWidth),
            ):
                value = self._call(what, index, fn, handle)
                if value is not None:
                    bucket.append(int(value))
        facts = result.facts
        if current_gen:
            facts["gpu.pcie_gen"] = min(current_gen)
        if current_width:
            facts["gpu.pcie_width"] = min(current_width)
        if max_gen:
            facts["gpu.pcie_gen_max"] = max(max_gen)
        if max_width:
            facts["gpu.pcie_width_max"] = max(max_width)
        if current_gen and max_gen and min(current_gen) < max(max_gen) and facts.get("gpu.util_min_pct", 100) < 10:
            result.notes.append("gpu: PCIe runs below its maximum generation while a GPU is idle; "
                                "GPUs lower the link speed to save power, so check again under load")

    def _read_nvlink(self, result: CollectorResult) -> None:
        """``gpu.nvlink``: any NVLink active. PCIe-only cards raise NotSupported for every link; a link that
        exists but is down reads NVML_FEATURE_DISABLED. "No NVLink" is only said when every GPU was read."""
        nvml = self._nvml
        enabled = getattr(nvml, "NVML_FEATURE_ENABLED", 1)
        active = present = 0
        unreadable = False
        for index, handle in self._handles:
            for link in range(int(getattr(nvml, "NVML_NVLINK_MAX_LINKS", 18))):
                try:
                    state = nvml.nvmlDeviceGetNvLinkState(handle, link)
                except nvml.NVMLError as exc:
                    kind = type(exc).__name__
                    if kind == "NVMLError_InvalidArgument":
                        break  # past the last link this GPU has
                    if kind == "NVMLError_NotSupported":
                        continue
                    self._failed("NVLink state", index, exc)
                    unreadable = True
                    break
                present += 1
                active += state == enabled
        result.details["gpu_nvlink_links_active"] = active
        if active:
            result.facts["gpu.nvlink"] = True
        elif unreadable or len(self._handles) < (self._count or 0):
            return  # some GPU was not read: it may have the NVLink the others lack
        else:
            result.facts["gpu.nvlink"] = False
            if present:
                result.notes.append(f"gpu: {present} NVLink links present but none active (NVML_FEATURE_DISABLED); "
                                    "GPUs talk over PCIe")
            else:
                result.notes.append("gpu: no NVLink on these GPUs (PCIe only)")
