"""The job this node trains, from a YAML file the operator keeps beside the probe's config
(`job_file:`): its job.* and model.* facts go into every report, so the cluster page and
pre-flight know the model, precision and parallelism without anyone typing them again."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from bwdoctor_probe.collectors import CollectorResult

JOB_PREFIXES = ("job.", "model.")


def _flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in data.items():
        name = str(key) if not prefix or str(key).startswith(prefix + ".") else f"{prefix}.{key}"
        if isinstance(value, Mapping):
            flat.update(_flatten(value, name))
        else:
            flat[name] = value
    return flat


def collect_job_file(path: Path, *, max_bytes: int = 64 * 1024) -> CollectorResult:
    """job.* and model.* facts of `path`; anything else is left out with a note, never an error."""
    out = CollectorResult()
    try:
        with open(path, "rb") as handle:
            data = yaml.safe_load(handle.read(max_bytes).decode("utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        out.notes.append(f"job_file {path}: cannot be read as YAML: {exc}")
        return out
    if not isinstance(data, Mapping):
        out.notes.append(f"job_file {path}: expected a mapping of job facts, e.g. job.model_params_b: 70")
        return out
    flat = _flatten(data)
    out.facts = {k: v for k, v in flat.items() if k.startswith(JOB_PREFIXES) and v is not None}
    others = sorted(k for k in flat if not k.startswith(JOB_PREFIXES))
    if others:
        out.notes.append(f"job_file {path}: not job facts, left out: {', '.join(others)}")
    return out
