"""Collectors, one module per fact family. Each returns a ``CollectorResult``: facts plus notes.

Two shapes: a *sampler* (GPU, CPU/memory, NIC) reads its counters at the start and end of
the sampling window, because utilisation and rates only mean something as differences;
a one-shot collector (placement, files, peers) runs once after the window. A collector
that fails says why in a note and the others go on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass
class CollectorResult:
    """Facts in the vocabulary of facts.md, human-readable notes, and detail that is not a fact."""

    facts: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)

    def merge(self, other: CollectorResult) -> None:
        self.facts.update(other.facts)
        self.notes.extend(other.notes)
        self.details.update(other.details)


class Sampler(Protocol):
    """A collector that measures over the window: ``start``, ``tick`` now and then, ``finish``."""

    name: str

    def start(self) -> None: ...

    def tick(self) -> None: ...

    def finish(self, elapsed_s: float) -> CollectorResult: ...


def failed(name: str, exc: BaseException) -> CollectorResult:
    """The result of a collector that raised: no facts, one note saying why."""
    return CollectorResult(notes=[f"{name}: collector failed: {type(exc).__name__}: {exc}"])
