"""Job files (`bwdoctor preflight JOB_FILE`, `bwdoctor jobs set CLUSTER JOB_FILE`): YAML or JSON, nested
or dotted, read through the API's shape check so a bad file is one line, never a traceback."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO


class JobFileError(ValueError):
    """The job file cannot be read or does not hold job facts."""


def flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested mappings to dotted fact keys: {"job": {"nodes": 8}} -> {"job.nodes": 8}."""
    flat: dict[str, Any] = {}
    for key, value in data.items():
        if not isinstance(key, str):
            raise JobFileError(f"key {key!r} is not a string")
        name = key if not prefix or key.startswith(prefix + ".") else f"{prefix}.{key}"
        if isinstance(value, Mapping):
            flat.update(flatten(value, name))
        else:
            flat[name] = value
    return flat


def load_job_file(path: str, stdin: TextIO | None = None) -> dict[str, Any]:
    """Job facts from a YAML or JSON file ('-' reads standard input), flattened to dotted keys."""
    try:
        text = (stdin or sys.stdin).read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise JobFileError(f"cannot read {path}: {exc}") from exc
    from bwdoctor.documents import DocumentError, parse_document
    from bwdoctor.errors import ServiceError
    from bwdoctor.facts import check_fact_shape

    try:
        data = parse_document(text, what=path)
    except DocumentError as exc:
        raise JobFileError(str(exc)) from None
    if not isinstance(data, Mapping) or not data:
        raise JobFileError(f"{path} must hold a mapping of job facts, e.g. job.model_params_b: 70")
    try:  # the same shape check as the API's (flat scalars, numbers within range, valid text)
        return check_fact_shape(flatten(data), where="job fact")
    except ServiceError as exc:
        raise JobFileError(f"{path}: {exc.message}") from None
