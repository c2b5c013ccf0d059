"""The GPU collector against NVML faked at the module boundary, with the shapes real NVML returns.

pynvml's own result types (c_nvmlUtilization_t, c_nvmlMemory_t) and its own exception classes
(NVMLError(code) becomes NVMLError_NotSupported etc.) are used, so the collector that passes
here calls pynvml exactly as it will on an H100/H200 node.
"""

import itertools

import pynvml
import pytest

from bwdoctor_probe.collect import run_samplers
from bwdoctor_probe.collectors.gpu import GpuSampler, reset_nvml

GIB = 1024**3


@pytest.fixture(autouse=True)
def fresh_nvml_session():
    reset_nvml()
    yield
    reset_nvml()


def nvml_error(code: int) -> pynvml.NVMLError:
    return pynvml.NVMLError(code)


class FakeNode:
    """A node as NVML sees it: per-GPU utilisation sequences, memory, PCIe links, NVLink states."""

    def __init__(self, name="NVIDIA H100 80GB HBM3", gpus=8, util=None, nvlinks=18, pcie=((5, 16), (5, 16)),
                 mem_used_gib=40, util_supported=True, fail=None, link_state=None):
        self.name, self.gpus, self.nvlinks = name, gpus, nvlinks
        # {NVML function: {GPU index: NVML error code}}: that call raises for that GPU, as the real library does
        self.fail: dict[str, dict[int, int]] = fail or {}
        self.link_state = link_state or (lambda gpu, link: pynvml.NVML_FEATURE_ENABLED)
        self.util = {i: itertools.cycle(util[i] if util else [90, 94]) for i in range(gpus)}
        self.pcie, self.mem_used_gib, self.util_supported = pcie, mem_used_gib, util_supported
        self.shutdown = False
        self.inits = 0

    def install(self, monkeypatch):
        handles = [f"handle-{i}" for i in range(self.gpus)]

        def index(handle):
            return handles.index(handle)

        def utilisation(handle):
            if not self.util_supported:
                raise nvml_error(pynvml.NVML_ERROR_NOT_SUPPORTED)
            return pynvml.c_nvmlUtilization_t(gpu=next(self.util[index(handle)]), memory=30)

        def memory(handle):
            total = 80 * GIB
            used = (self.mem_used_gib(index(handle)) if callable(self.mem_used_gib) else self.mem_used_gib) * GIB
            return pynvml.c_nvmlMemory_t(total=total, free=total - used, used=used)

        def nvlink_state(handle, link):
            if self.nvlinks == 0:
                raise nvml_error(pynvml.NVML_ERROR_NOT_SUPPORTED)
            if link >= self.nvlinks:
                raise nvml_error(pynvml.NVML_ERROR_INVALID_ARGUMENT)
            return self.link_state(index(handle), link)

        def shutdown():
            self.shutdown = True

        def init():
            self.inits += 1

        def failing(name, fn, gpu_of):
            def call(*args):
                code = self.fail.get(name, {}).get(gpu_of(*args))
                if code is not None:
                    raise nvml_error(code)
                return fn(*args)

            return call

        (current_gen, current_width), (max_gen, max_width) = self.pcie
        calls = {
            "nvmlInit": init,
            "nvmlShutdown": shutdown,
            "nvmlDeviceGetCount": lambda: self.gpus,
            "nvmlDeviceGetHandleByIndex": lambda i: handles[i],
            "nvmlDeviceGetName": lambda h: self.name,
            "nvmlSystemGetDriverVersion": lambda: "550.54.15",
            "nvmlDeviceGetUtilizationRates": utilisation,
            "nvmlDeviceGetMemoryInfo": memory,
            "nvmlDeviceGetCurrPcieLinkGeneration": lambda h: current_gen,
            "nvmlDeviceGetCurrPcieLinkWidth": lambda h: current_width,
            "nvmlDeviceGetMaxPcieLinkGeneration": lambda h: max_gen,
            "nvmlDeviceGetMaxPcieLinkWidth": lambda h: max_width,
            "nvmlDeviceGetNvLinkState": nvlink_state,
        }
        for name, fn in calls.items():
            if name == "nvmlDeviceGetHandleByIndex":
                fn = failing(name, fn, lambda i: i)
            elif name.startswith("nvmlDevice") and name != "nvmlDeviceGetCount":
                fn = failing(name, fn, lambda handle, *rest: index(handle))
            monkeypatch.setattr(pynvml, name, fn)
        return self


def collect(window_s=0.0, ticks=0):
    sampler = GpuSampler()
    sampler.start()
    for _ in range(ticks):
        sampler.tick()
    return sampler.finish(window_s)


def test_h100_sxm_node(monkeypatch):
    util = {i: [90, 94] for i in range(8)}
    util[5] = [20, 30]  # one GPU mostly waiting
    FakeNode(util=util).install(monkeypatch)
    result = collect(ticks=3)  # start, 3 ticks, finish: 5 samples per GPU
    facts = result.facts
    assert facts["gpu.count"] == 8
    assert facts["gpu.model"] == "NVIDIA H100 80GB HBM3"
    assert facts["gpu.driver_version"] == "550.54.15"
    assert facts["gpu.util_min_pct"] == pytest.approx(24.0)  # (20+30+20+30+20)/5
    assert facts["gpu.util_pct"] == pytest.approx((7 * 91.6 + 24.0) / 8, abs=0.06)  # rounded to 0.1
    assert facts["gpu.mem_used_pct"] == 50.0
    assert (facts["gpu.pcie_gen"], facts["gpu.pcie_width"]) == (5, 16)
    assert (facts["gpu.pcie_gen_max"], facts["gpu.pcie_width_max"]) == (5, 16)
    assert facts["gpu.nvlink"] is True
    assert result.details["gpu_nvlink_links_active"] == 8 * 18


def test_nvml_is_initialised_once_across_passes(monkeypatch):
    node = FakeNode(gpus=2).install(monkeypatch)
    first, second = collect(), collect()
    assert first.facts == second.facts and node.inits == 1 and not node.shutdown
    GpuSampler().close()
    assert node.shutdown
    collect()
    assert node.inits == 2


def test_lost_gpu_resets_the_session(monkeypatch):
    node = FakeNode(gpus=1).install(monkeypatch)
    collect()

    def lost(handle):
        raise nvml_error(pynvml.NVML_ERROR_GPU_IS_LOST)

    monkeypatch.setattr(pynvml, "nvmlDeviceGetMemoryInfo", lost)
    result = collect()
    assert "gpu.mem_used_pct" not in result.facts and any("memory not available" in n for n in result.notes)
    collect()
    assert node.inits == 2  # initialised again after the loss


def test_pcie_card_without_nvlink_and_a_downtrained_link(monkeypatch):
    FakeNode(name="NVIDIA H100 PCIe", gpus=2, nvlinks=0, pcie=((3, 8), (5, 16))).install(monkeypatch)
    result = collect()
    assert result.facts["gpu.nvlink"] is False
    assert (result.facts["gpu.pcie_gen"], result.facts["gpu.pcie_width"]) == (3, 8)
    assert (result.facts["gpu.pcie_gen_max"], result.facts["gpu.pcie_width_max"]) == (5, 16)
    assert any("no NVLink" in note for note in result.notes)


def test_mig_without_utilisation_drops_only_that(monkeypatch):
    FakeNode(util_supported=False).install(monkeypatch)
    result = collect(ticks=2)
    assert "gpu.util_pct" not in result.facts and "gpu.util_min_pct" not in result.facts
    assert result.facts["gpu.count"] == 8 and result.facts["gpu.mem_used_pct"] == 50.0
    assert sum("utilisation not available" in n for n in result.notes) == 1  # one note, not one per sample


def test_bytes_names_from_old_bindings(monkeypatch):
    FakeNode(name=b"Tesla V100-SXM2-32GB", gpus=1).install(monkeypatch)
    assert collect().facts["gpu.model"] == "Tesla V100-SXM2-32GB"


@pytest.mark.parametrize("code", [pynvml.NVML_ERROR_LIBRARY_NOT_FOUND, pynvml.NVML_ERROR_DRIVER_NOT_LOADED])
def test_no_driver_is_zero_gpus_and_a_note(monkeypatch, code):
    def fail():
        raise nvml_error(code)

    monkeypatch.setattr(pynvml, "nvmlInit", fail)
    result = collect()
    assert result.facts == {"gpu.count": 0}
    assert "no NVIDIA driver" in result.notes[0]


def test_unexpected_nvml_failure_is_a_note_not_a_count(monkeypatch):
    def fail():
        raise nvml_error(pynvml.NVML_ERROR_UNKNOWN)

    monkeypatch.setattr(pynvml, "nvmlInit", fail)
    result = collect()
    assert result.facts == {} and "initialisation failed" in result.notes[0]


def test_sampled_over_the_window_through_the_orchestrator(monkeypatch):
    FakeNode(gpus=1, util={0: [10, 50, 90]}).install(monkeypatch)
    monkeypatch.setattr("bwdoctor_probe.collect.TICK_S", 0.05)
    result, elapsed = run_samplers([GpuSampler()], 0.22)
    assert elapsed >= 0.2
    assert len(result.details["gpu_util_pct_per_gpu"]) == 1
    assert 10 < result.facts["gpu.util_pct"] < 90  # a mean over several samples, not one reading


def test_this_machine_has_no_gpu():
    """On a host without the NVIDIA driver the real library says so (no monkeypatching)."""
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError:
        pass
    else:
        pynvml.nvmlShutdown()
        pytest.skip("this machine has an NVIDIA driver")
    result = collect()
    assert result.facts == {"gpu.count": 0}


# --- per-GPU errors: what the real library raises on one GPU costs only that GPU's reading ---------------
# nvmlDeviceGetHandleByIndex: NoPermission (a container that sees a GPU it may not open), GpuIsLost (after
# an XID), InsufficientPower, IrqIssue, Unknown. The per-GPU readings: NoPermission, GpuIsLost,
# NotSupported (MIG, PCIe cards), Unknown.
HANDLE_ERRORS = [pynvml.NVML_ERROR_NO_PERMISSION, pynvml.NVML_ERROR_GPU_IS_LOST, pynvml.NVML_ERROR_INSUFFICIENT_POWER,
                 pynvml.NVML_ERROR_IRQ_ISSUE, pynvml.NVML_ERROR_UNKNOWN]
CALL_ERRORS = [pynvml.NVML_ERROR_NO_PERMISSION, pynvml.NVML_ERROR_GPU_IS_LOST, pynvml.NVML_ERROR_NOT_SUPPORTED,
               pynvml.NVML_ERROR_UNKNOWN]


def error_text(code: int) -> str:
    return str(nvml_error(code))


@pytest.mark.parametrize("code", HANDLE_ERRORS, ids=lambda c: type(nvml_error(c)).__name__)
def test_a_gpu_that_cannot_be_opened_costs_only_its_own_facts(monkeypatch, code):
    util = {i: [90] for i in range(8)}
    util[3] = [10]  # the unopenable GPU's figure must not count
    FakeNode(util=util, fail={"nvmlDeviceGetHandleByIndex": {3: code}}).install(monkeypatch)
    result = collect()
    facts = result.facts
    assert facts["gpu.count"] == 8  # NVML's count, not the GPUs that opened
    assert result.details["gpu_util_pct_per_gpu"] == [90.0] * 7 and facts["gpu.util_min_pct"] == 90.0
    assert facts["gpu.model"] == "NVIDIA H100 80GB HBM3" and facts["gpu.mem_used_pct"] == 50.0
    assert (facts["gpu.pcie_gen"], facts["gpu.pcie_width"]) == (5, 16)
    assert facts["gpu.nvlink"] is True and result.details["gpu_nvlink_links_active"] == 7 * 18
    assert [n for n in result.notes if "could not open" in n] == [
        f"gpu: could not open GPU 3 ({error_text(code)}); their facts are left out, gpu.count is NVML's"]


def test_no_gpu_can_be_opened(monkeypatch):
    denied = {i: pynvml.NVML_ERROR_NO_PERMISSION for i in range(4)}
    FakeNode(gpus=4, fail={"nvmlDeviceGetHandleByIndex": denied}).install(monkeypatch)
    result = collect()
    assert result.facts == {"gpu.count": 4}
    assert result.notes == ["gpu: could not open any of the 4 GPUs (Insufficient Permissions); "
                            "their facts are left out, gpu.count is NVML's"]


PER_GPU_CALLS = {  # NVML function: the facts it feeds, and the word its note uses
    "nvmlDeviceGetUtilizationRates": (("gpu.util_pct", "gpu.util_min_pct"), "utilisation"),
    "nvmlDeviceGetName": (("gpu.model",), "name"),
    "nvmlDeviceGetMemoryInfo": (("gpu.mem_used_pct",), "memory"),
    "nvmlDeviceGetCurrPcieLinkGeneration": (("gpu.pcie_gen",), "PCIe generation"),
    "nvmlDeviceGetCurrPcieLinkWidth": (("gpu.pcie_width",), "PCIe width"),
}


@pytest.mark.parametrize("code", CALL_ERRORS, ids=lambda c: type(nvml_error(c)).__name__)
@pytest.mark.parametrize("call", sorted(PER_GPU_CALLS))
def test_a_failing_reading_on_one_gpu_is_taken_from_the_others(monkeypatch, call, code):
    """GPU 1 of 4 fails one call: that fact comes from GPUs 0, 2, 3 (GPU 1's own values are outliers)."""
    util = {0: [80], 1: [5], 2: [80], 3: [80]}
    FakeNode(gpus=4, util=util, mem_used_gib=lambda gpu: 72 if gpu == 1 else 40, pcie=((4, 16), (5, 16)),
             fail={call: {1: code}}).install(monkeypatch)
    result = collect()
    facts = result.facts
    assert facts["gpu.count"] == 4
    everything = {"gpu.util_pct", "gpu.util_min_pct", "gpu.model", "gpu.mem_used_pct", "gpu.pcie_gen",
                  "gpu.pcie_width", "gpu.pcie_gen_max", "gpu.pcie_width_max", "gpu.nvlink"}
    assert everything <= set(facts), everything - set(facts)
    fed, word = PER_GPU_CALLS[call]
    expected_from_others = {"gpu.util_pct": 80.0, "gpu.util_min_pct": 80.0, "gpu.model": "NVIDIA H100 80GB HBM3",
                            "gpu.mem_used_pct": 50.0, "gpu.pcie_gen": 4, "gpu.pcie_width": 16}
    for fact in fed:
        assert facts[fact] == expected_from_others[fact], fact
    assert [n for n in result.notes if "not available" in n] == [f"gpu: {word} not available on GPU 1: "
                                                                 f"{error_text(code)}"]


@pytest.mark.parametrize("code", [c for c in CALL_ERRORS if c != pynvml.NVML_ERROR_NOT_SUPPORTED],
                         ids=lambda c: type(nvml_error(c)).__name__)
def test_unreadable_nvlink_on_one_gpu(monkeypatch, code):
    """One GPU's NVLink state fails: the others' active links still say NVLink; on PCIe cards nothing is said."""
    FakeNode(gpus=4, fail={"nvmlDeviceGetNvLinkState": {2: code}}).install(monkeypatch)
    result = collect()
    assert result.facts["gpu.nvlink"] is True and result.details["gpu_nvlink_links_active"] == 3 * 18
    assert f"gpu: NVLink state not available on GPU 2: {error_text(code)}" in result.notes

    reset_nvml()
    FakeNode(gpus=4, nvlinks=0, fail={"nvmlDeviceGetNvLinkState": {2: code}}).install(monkeypatch)
    result = collect()
    assert "gpu.nvlink" not in result.facts  # three PCIe cards do not tell what the fourth has
    assert f"gpu: NVLink state not available on GPU 2: {error_text(code)}" in result.notes
    assert not any("no NVLink" in n for n in result.notes)


def test_nvlink_not_supported_on_one_gpu_is_not_an_error(monkeypatch):
    FakeNode(gpus=2, fail={"nvmlDeviceGetNvLinkState": {1: pynvml.NVML_ERROR_NOT_SUPPORTED}}).install(monkeypatch)
    result = collect()
    assert result.facts["gpu.nvlink"] is True and result.details["gpu_nvlink_links_active"] == 18
    assert not any("NVLink" in n for n in result.notes)


def test_nvlink_links_present_but_disabled(monkeypatch):
    """NVML_FEATURE_DISABLED: the link exists but is down (a bridge missing, a fabric manager not running)."""
    FakeNode(gpus=2, link_state=lambda gpu, link: pynvml.NVML_FEATURE_DISABLED).install(monkeypatch)
    result = collect()
    assert result.facts["gpu.nvlink"] is False and result.details["gpu_nvlink_links_active"] == 0
    assert "gpu: 36 NVLink links present but none active (NVML_FEATURE_DISABLED); GPUs talk over PCIe" in result.notes


def test_some_nvlink_links_disabled(monkeypatch):
    state = {True: pynvml.NVML_FEATURE_ENABLED, False: pynvml.NVML_FEATURE_DISABLED}
    FakeNode(gpus=2, link_state=lambda gpu, link: state[link < 12]).install(monkeypatch)
    result = collect()
    assert result.facts["gpu.nvlink"] is True and result.details["gpu_nvlink_links_active"] == 2 * 12


def test_a_count_nvml_cannot_give_is_a_note(monkeypatch):
    node = FakeNode(gpus=2).install(monkeypatch)

    def count():
        raise nvml_error(pynvml.NVML_ERROR_UNKNOWN)

    monkeypatch.setattr(pynvml, "nvmlDeviceGetCount", count)
    result = collect()
    assert result.facts == {} and result.notes == ["gpu: NVML started but could not count the GPUs: Unknown Error"]
    collect()
    assert node.inits == 2  # the session is started again on the next pass


def test_a_lost_gpu_handle_resets_the_session(monkeypatch):
    node = FakeNode(gpus=2, fail={"nvmlDeviceGetHandleByIndex": {1: pynvml.NVML_ERROR_GPU_IS_LOST}})
    node.install(monkeypatch)
    assert collect().facts["gpu.count"] == 2
    collect()
    assert node.inits == 2


def test_a_driver_version_nvml_cannot_give_is_a_note_not_a_failure(monkeypatch):
    FakeNode(gpus=2).install(monkeypatch)

    def no_driver():
        raise nvml_error(pynvml.NVML_ERROR_NO_PERMISSION)

    monkeypatch.setattr(pynvml, "nvmlSystemGetDriverVersion", no_driver)
    result = collect()
    assert "gpu.driver_version" not in result.facts and result.facts["gpu.model"]
    assert any("driver version not available" in n for n in result.notes)
