"""One collection pass: samplers over the window, then the one-shot collectors.

Peer tests run after the window so their traffic never shows up in the NIC rates, and a
collector that raises costs only its own facts.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bwdoctor_probe.collectors import CollectorResult, Sampler, failed
from bwdoctor_probe.config import ProbeConfig

TICK_S = 1.0  # how often GPU utilisation is sampled during the window


@dataclass
class Report:
    """The outcome of a pass. ``body()`` is what ``PUT /api/v1/nodes/{id}/facts`` receives."""

    facts: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    collected_at: datetime = field(default_factory=lambda: datetime.now(UTC))

    def body(self, report_id: str) -> dict[str, Any]:
        return {"facts": self.facts, "report_id": report_id,
                "collected_at": self.collected_at.isoformat(timespec="seconds")}

    def to_dict(self) -> dict[str, Any]:
        """What ``agent-probe collect --format json`` prints."""
        return {"facts": self.facts, "notes": self.notes, "details": self.details,
                "collected_at": self.collected_at.isoformat(timespec="seconds")}


def default_samplers(cfg: ProbeConfig) -> list[Sampler]:
    from bwdoctor_probe.collectors.gpu import GpuSampler
    from bwdoctor_probe.collectors.nic import NicSampler
    from bwdoctor_probe.collectors.system import SystemSampler

    nic = NicSampler(configured=cfg.nic, declared_speed_gbps=cfg.nic_speed_gbps,
                     declared_max_speed_gbps=cfg.nic_max_speed_gbps, ethtool=cfg.ethtool_path)
    samplers: list[Sampler] = [SystemSampler(), nic]
    if cfg.gpu:
        samplers.insert(0, GpuSampler())
    return samplers


def _safely(name: str, fn: Callable[[], CollectorResult]) -> CollectorResult:
    try:
        return fn()
    except Exception as exc:  # one collector's bug must not cost the whole report
        return failed(name, exc)


def run_samplers(samplers: list[Sampler], window_s: float, *, stop: threading.Event | None = None,
                 clock: Callable[[], float] = time.monotonic) -> tuple[CollectorResult, float]:
    """Start every sampler, tick them through the window, finish them; returns facts and seconds."""
    stop = stop or threading.Event()
    out = CollectorResult()
    running: list[Sampler] = []
    for sampler in samplers:
        try:
            sampler.start()
            running.append(sampler)
        except Exception as exc:
            out.merge(failed(sampler.name, exc))
    started = clock()
    deadline = started + window_s
    while not stop.is_set():
        remaining = deadline - clock()
        if remaining <= 0 or stop.wait(min(TICK_S, remaining)):
            break
        for sampler in list(running):
            try:
                sampler.tick()
            except Exception as exc:
                running.remove(sampler)
                out.merge(failed(sampler.name, exc))
    elapsed = clock() - started
    for sampler in running:
        out.merge(_safely(sampler.name, functools.partial(sampler.finish, elapsed)))
    return out, elapsed


def one_shot(cfg: ProbeConfig, *, measure_peers: bool) -> CollectorResult:
    """Placement, files and (when asked) peers."""
    from bwdoctor_probe.collectors import files, peers, placement

    out = CollectorResult()
    out.merge(_safely("placement", lambda: placement.collect_placement(cfg)))
    limit = cfg.max_read_bytes
    nccl_tests_path, nccl_log_path, training_log_path = cfg.nccl_tests_output, cfg.nccl_log, cfg.training_log
    if nccl_tests_path:
        out.merge(_safely("nccl-tests", lambda: files.collect_nccl_tests(nccl_tests_path, max_bytes=limit)))
    if nccl_log_path:  # after nccl-tests: the NCCL log is the better witness of the transport
        out.merge(_safely("nccl-log", lambda: files.collect_nccl_log(nccl_log_path, max_bytes=limit)))
    if training_log_path:
        out.merge(_safely("training-log", lambda: files.collect_training_log(
            training_log_path, max_bytes=limit, step_regex=cfg.step_time_regex, last_n=cfg.step_time_last_n,
            times_sent=cfg.step_times_sent)))
    if cfg.job_file:
        from bwdoctor_probe.collectors.job import collect_job_file

        job_file = cfg.job_file
        out.merge(_safely("job-file", lambda: collect_job_file(job_file)))
    if measure_peers and cfg.peers:
        out.merge(_safely("peers", lambda: peers.collect_peers(
            cfg.peers, iperf_port=cfg.iperf_port, rtt_port=cfg.rtt_port, duration_s=cfg.iperf_duration_s,
            bitrate=cfg.iperf_bitrate, binary=cfg.iperf3_path)))
    return out


def collect_pass(cfg: ProbeConfig, *, measure_peers: bool = True, stop: threading.Event | None = None,
                 samplers: list[Sampler] | None = None) -> Report:
    """A full pass: node facts first (placement), then what was sampled and read."""
    sampled, elapsed = run_samplers(default_samplers(cfg) if samplers is None else samplers, cfg.window_s,
                                    stop=stop)
    collected_at = datetime.now(UTC)
    rest = one_shot(cfg, measure_peers=measure_peers)
    facts = {**rest.facts}
    facts.update(sampled.facts)
    ordered = dict(sorted(facts.items(), key=lambda kv: (_family_rank(kv[0]), kv[0])))
    details = {"window_s": round(elapsed, 3), **sampled.details, **rest.details}
    return Report(facts=ordered, notes=sampled.notes + rest.notes, details=details, collected_at=collected_at)


_FAMILIES = ("node", "gpu", "cpu", "mem", "nic", "net", "nccl", "job", "storage")


def _family_rank(key: str) -> int:
    family = key.split(".", 1)[0]
    return _FAMILIES.index(family) if family in _FAMILIES else len(_FAMILIES)
