"""A YAML loader with a budget: what job files and rule files are read through.

PyYAML's SafeLoader refuses arbitrary objects but not cost: anchors and aliases let a few
lines expand to gigabytes once something walks the data (the "billion laughs"), an alias
inside its own anchor (`x: &a [*a]`) builds a cycle that crashes whatever recurses over it,
and deep nesting exhausts the interpreter's stack. None of that has a use in a job or rule
file, so this loader refuses anchors and aliases outright and bounds depth, node count and
size while the document is composed, before any Python object exists. Every refusal is a
`yaml.YAMLError` with a mark, so callers report it like any other YAML mistake.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.events import AliasEvent

MAX_DEPTH = 64
MAX_NODES = 200_000
MAX_CHARS = 2_000_000


class YamlLimitError(yaml.MarkedYAMLError):
    """A document past one of the loader's limits (depth, nodes, size) or using anchors/aliases."""

    def __init__(self, problem: str, mark: yaml.Mark | None = None) -> None:
        super().__init__(problem=problem, problem_mark=mark)


class BoundedSafeLoader(yaml.SafeLoader):
    """SafeLoader that refuses anchors and aliases and stops at MAX_DEPTH levels and MAX_NODES nodes."""

    max_depth = MAX_DEPTH
    max_nodes = MAX_NODES

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self._depth = 0
        self._nodes = 0

    def compose_node(self, parent: Any, index: Any) -> Any:  # noqa: D102 - PyYAML's hook
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, AliasEvent) or getattr(event, "anchor", None) is not None:
            raise YamlLimitError("anchors and aliases (&name, *name) are not allowed", event.start_mark)
        self._nodes += 1
        if self._nodes > self.max_nodes:
            raise YamlLimitError(f"more than {self.max_nodes} values", event.start_mark)
        self._depth += 1
        try:
            if self._depth > self.max_depth:
                raise YamlLimitError(f"nested deeper than {self.max_depth} levels", event.start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def check_size(text: str, max_chars: int = MAX_CHARS) -> None:
    """YamlLimitError when the text is longer than max_chars (checked before parsing starts)."""
    if len(text) > max_chars:
        raise YamlLimitError(f"the document is longer than {max_chars} characters")


def safe_load(text: str, *, max_chars: int = MAX_CHARS, loader: type[BoundedSafeLoader] = BoundedSafeLoader) -> Any:
    """The document's data, or a yaml.YAMLError (YamlLimitError for a limit) naming the line."""
    check_size(text, max_chars)
    return yaml.load(text, Loader=loader)  # noqa: S506 - a SafeLoader subclass
