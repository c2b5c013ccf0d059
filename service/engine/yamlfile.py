"""Reading YAML with line numbers, so every load error can point at the line to fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from bwdoctor.engine.errors import RuleLoadError
from bwdoctor.engine.safeyaml import BoundedSafeLoader, safe_load

BOOKKEEPING = ("__line__", "__keylines__")


class _LineLoader(BoundedSafeLoader):
    """A bounded safe loader (no anchors or aliases, limited depth and size) that records the line
    of every mapping (`__line__`) and of each of its keys (`__keylines__`)."""


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode, deep: bool = False) -> dict[str, Any]:
    mapping: dict[str, Any] = {str(k): v for k, v in yaml.SafeLoader.construct_mapping(loader, node, deep=True).items()}
    mapping["__line__"] = node.start_mark.line + 1
    mapping["__keylines__"] = {k.value: k.start_mark.line + 1 for k, _ in node.value if isinstance(k, yaml.ScalarNode)}
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load_yaml_with_lines(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleLoadError(f"cannot read: {exc}", file=str(path)) from exc
    try:
        return safe_load(text, loader=_LineLoader)
    except (ValueError, RecursionError) as exc:  # e.g. an integer of more digits than Python converts
        raise RuleLoadError(f"invalid YAML: {str(exc).splitlines()[0] if str(exc) else exc!r}", file=str(path)) from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise RuleLoadError(f"invalid YAML: {problem}", file=str(path), line=line) from exc


def strip_lines(value: Any) -> Any:
    """The same data without the `__line__` bookkeeping."""
    if isinstance(value, dict):
        return {k: strip_lines(v) for k, v in value.items() if k not in BOOKKEEPING}
    if isinstance(value, list):
        return [strip_lines(v) for v in value]
    return value
