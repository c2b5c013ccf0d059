"""Facts from files the job writes: nccl-tests output, NCCL_DEBUG=INFO logs, training logs.

Only the tail of each file is read (``max_read_bytes``): a training log grows for weeks and
the probe must stay light.
"""

from __future__ import annotations

import os
from pathlib import Path

from bwdoctor_parsers.nccl_log import parse_nccl_log
from bwdoctor_parsers.nccl_tests import parse_nccl_tests
from bwdoctor_parsers.training_log import parse_training_log
from bwdoctor_probe.collectors import CollectorResult

MIN_STEP_TIMES_SENT = 10  # fewer per-step times than this cannot show a regular spike (service/fabric/regress.py)


def read_tail(path: Path, max_bytes: int) -> str:
    """The last ``max_bytes`` of a file as text (a partial first line is dropped)."""
    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size > max_bytes:
            handle.seek(size - max_bytes)
            data = handle.read()
            data = data[data.find(b"\n") + 1:] if b"\n" in data else data
        else:
            data = handle.read()
    return data.decode("utf-8", errors="replace")


def _read(label: str, path: Path, max_bytes: int, result: CollectorResult) -> str | None:
    try:
        return read_tail(path, max_bytes)
    except OSError as exc:
        result.notes.append(f"{label}: cannot read {path}: {exc.strerror or exc}")
        return None


def collect_nccl_tests(path: Path, *, max_bytes: int) -> CollectorResult:
    """``nccl.allreduce_busbw_gbytes_per_s`` (and transport hints from interleaved NCCL INFO lines)."""
    result = CollectorResult()
    text = _read("nccl-tests", path, max_bytes, result)
    if text is None:
        return result
    parsed = parse_nccl_tests(text)
    if not parsed.rows:
        result.notes.append(f"nccl-tests: no result table in {path}")
    elif parsed.collective not in (None, "all_reduce"):
        result.notes.append(f"nccl-tests: {path} measures {parsed.collective}, not all_reduce; ignored")
    else:
        result.facts.update(parsed.facts())
        result.details["nccl_tests"] = {
            "rows": len(parsed.rows), "max_size_bytes": parsed.max_size_bytes,
            "avg_busbw_gbytes_per_s": parsed.avg_busbw_gbytes_per_s,
        }
    result.facts.update(parse_nccl_log(text).facts())
    return result


def collect_nccl_log(path: Path, *, max_bytes: int) -> CollectorResult:
    """``nccl.transport``, ``nccl.socket_ifname``, ``nccl.ib_disabled`` and GPUDirect RDMA notes."""
    result = CollectorResult()
    text = _read("nccl-log", path, max_bytes, result)
    if text is None:
        return result
    parsed = parse_nccl_log(text)
    result.facts.update(parsed.facts())
    if not parsed.transport:
        result.notes.append(f"nccl-log: no NCCL_DEBUG=INFO transport lines in {path}")
    if parsed.gdr_disabled:
        result.notes.append("nccl-log: NCCL reports GPUDirect RDMA disabled")
    if parsed.gdr_partial:
        result.notes.append(f"nccl-log: GPUDirect RDMA on {parsed.gdr_connections} of {parsed.net_connections} "
                            "network connections only (one node may lack it)")
    result.details["nccl_log"] = {"network": parsed.network_name, "ib_devices": parsed.ib_devices,
                                  "ib_link_layer": parsed.ib_link_layer, "gdr_disabled": parsed.gdr_disabled,
                                  "nccl_version": parsed.nccl_version}
    return result


def collect_training_log(
    path: Path, *, max_bytes: int, step_regex: str | None, last_n: int, times_sent: int = 0
) -> CollectorResult:
    """``job.step_time_s`` (median of the last N steps), ``job.step_time_cv`` and, when the log has
    per-step times, the last `times_sent` of them as ``job.step_times_s`` (the service looks for regular
    spikes in them: checkpoint contention)."""
    result = CollectorResult()
    text = _read("training-log", path, max_bytes, result)
    if text is None:
        return result
    parsed = parse_training_log(text, step_regex=step_regex, last_n=last_n)
    if parsed.error:
        result.notes.append(f"training-log: {parsed.error}")
    if not parsed.step_times_s:
        result.notes.append(f"training-log: no step times recognised in {path}")
        return result
    result.facts.update(parsed.facts())
    result.details["training_log"] = {"source": parsed.source, "steps": len(parsed.step_times_s),
                                      "window": len(parsed.window), **parsed.extra}
    recent = [t for t in parsed.step_times_s[-times_sent:] if t > 0] if times_sent > 0 else []
    if parsed.per_step and len(recent) >= MIN_STEP_TIMES_SENT:
        result.facts["job.step_times_s"] = [float(f"{t:.4g}") for t in recent]
    if not parsed.per_step:
        result.notes.append(f"training-log: step time from {parsed.source} (an average), so no variation")
    return result
