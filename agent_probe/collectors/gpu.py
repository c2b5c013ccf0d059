"""GPUs through NVML (package ``nvidia-ml-py``, module ``pynvml``).

Utilisation is NVML's "a kernel was running" percentage, sampled over the window and averaged
per GPU; ``gpu.util_pct`` is the mean of all GPUs and ``gpu.util_min_pct`` the least busy one.
No driver or no GPU gives ``gpu.count: 0`` and a note. Calls a card does not support (NVLink
on a PCIe card, utilisation under MIG) raise ``NVMLError_NotSupported`` and only drop that fact.
"""

from __future__ import annotations

from typing import Any

from agent_probe.collectors import CollectorResult

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
        self._handles: list[Any] = []
        self._util: list[list[float]] = []
        self._notes: list[str] = []
        self._count: int | None = None
        self._initialised = False
        self._unsupported: set[str] = set()

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
        self._initialised = True
        try:
            self._count = int(nvml.nvmlDeviceGetCount())
        except nvml.NVMLError:
            reset_nvml()
            raise
        self._handles = [nvml.nvmlDeviceGetHandleByIndex(i) for i in range(self._count)]
        self._util = [[] for _ in self._handles]
        self.tick()

    def tick(self) -> None:
        if not self._initialised:
            return
        for index, handle in enumerate(self._handles):
            value = self._call("utilisation", self._nvml.nvmlDeviceGetUtilizationRates, handle)
            if value is not None:
                self._util[index].append(float(value.gpu))

    def _call(self, what: str, fn: Any, *args: Any) -> Any:
        """Call an NVML function; NotSupported and friends drop the value and leave one note."""
        try:
            return fn(*args)
        except self._nvml.NVMLError as exc:
            if type(exc).__name__ in _RESET_ERRORS:
                reset_nvml()
            if what not in self._unsupported:
                self._unsupported.add(what)
                self._notes.append(f"gpu: {what} not available: {exc}")
            return None

    def finish(self, elapsed_s: float) -> CollectorResult:
        result = CollectorResult(notes=self._notes)
        if self._count is not None:
            result.facts["gpu.count"] = self._count
        if not self._initialised:
            return result
        self.tick()
        self._read_static(result)
        return result

    def close(self) -> None:
        shutdown_nvml()

    def _read_static(self, result: CollectorResult) -> None:
        nvml, facts = self._nvml, result.facts
        if not self._handles:
            result.notes.append("gpu: NVML works but reports no GPUs")
            return
        means = [sum(s) / len(s) for s in self._util if s]
        if means:
            facts["gpu.util_pct"] = round(sum(means) / len(means), 1)
            facts["gpu.util_min_pct"] = round(min(means), 1)
            result.details["gpu_util_pct_per_gpu"] = [round(m, 1) for m in means]

        names = [self._call("name", nvml.nvmlDeviceGetName, h) for h in self._handles]
        names = [_text(n) for n in names if n is not None]
        if names:
            facts["gpu.model"] = names[0]
            if len(set(names)) > 1:
                result.notes.append(f"gpu: mixed models on this node: {', '.join(sorted(set(names)))}")

        used = total = 0
        for handle in self._handles:
            memory = self._call("memory", nvml.nvmlDeviceGetMemoryInfo, handle)
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
        for handle in self._handles:
            for bucket, what, fn in (
                (current_gen, "PCIe generation", nvml.nvmlDeviceGetCurrPcieLinkGeneration),
                (current_width, "PCIe width", nvml.nvmlDeviceGetCurrPcieLinkWidth),
                (max_gen, "PCIe max generation", nvml.nvmlDeviceGetMaxPcieLinkGeneration),
                (max_width, "PCIe max width", nvml.nvmlDeviceGetMaxPcieLinkWidth),
            ):
                value = self._call(what, fn, handle)
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
        """``gpu.nvlink``: any NVLink active; PCIe-only cards raise NotSupported for every link."""
        nvml = self._nvml
        active = supported = 0
        for handle in self._handles:
            for link in range(int(getattr(nvml, "NVML_NVLINK_MAX_LINKS", 18))):
                try:
                    state = nvml.nvmlDeviceGetNvLinkState(handle, link)
                except nvml.NVMLError as exc:
                    if type(exc).__name__ in ("NVMLError_NotSupported", "NVMLError_InvalidArgument"):
                        if type(exc).__name__ == "NVMLError_InvalidArgument":
                            break  # past the last link this GPU has
                        continue
                    result.notes.append(f"gpu: NVLink state not readable: {exc}")
                    return
                supported += 1
                if state == getattr(nvml, "NVML_FEATURE_ENABLED", 1):
                    active += 1
        result.facts["gpu.nvlink"] = active > 0
        result.details["gpu_nvlink_links_active"] = active
        if supported == 0:
            result.notes.append("gpu: no NVLink on these GPUs (PCIe only)")
