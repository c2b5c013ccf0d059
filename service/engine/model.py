"""The rule base as loaded: rules, recommendations and knowledge entries (all immutable)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bwdoctor.engine.expressions import Condition

SEVERITIES = ("critical", "warning", "info")
SEVERITY_RANK = {name: rank for rank, name in enumerate(SEVERITIES)}
LANGUAGES = ("en", "zh")

# The finding categories (docs/categories.md, generated); a rule must use one of them.
CATEGORIES = (
    "comm-bound",
    "nic-undersized",
    "no-rdma-at-scale",
    "link-degraded",
    "latency-bound",
    "network-jitter",
    "nccl-transport-fallback",
    "remote-storage-io",
    "checkpoint-contention",
    "cloud-instance-bandwidth",
    "input-pipeline-cpu",
    "param-server-topology",
    "async-risk",
    "pcie-topology",
    "straggler-node",
    "healthy",
)

# Software and configuration remedies come before hardware ones (H36): they work at once and cost little.
REMEDY_KINDS = ("configuration", "software", "process", "placement", "measurement", "hardware")

Text = Mapping[str, str]


@dataclass(frozen=True)
class Rule:
    id: str
    category: str
    severity: str
    confidence: float
    conditions: tuple[Condition, ...]
    title: Text
    explanation: Text
    recommendations: tuple[str, ...] = ()
    source: tuple[str, ...] = ()
    unless_known: tuple[str, ...] = ()
    unless: tuple[Condition, ...] = ()
    concludes: Mapping[str, Any] = field(default_factory=dict)
    only_if_nothing_else: bool = False
    file: str = ""
    line: int | None = None

    @property
    def facts(self) -> frozenset[str]:
        names: set[str] = set()
        for condition in self.conditions:
            names |= condition.facts
        return frozenset(names)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "category": self.category,
            "severity": self.severity,
            "confidence": self.confidence,
            "when": [c.text for c in self.conditions],
            "unless_known": list(self.unless_known),
            "unless": [c.text for c in self.unless],
            "title": dict(self.title),
            "explanation": dict(self.explanation),
            "recommendations": list(self.recommendations),
            "source": list(self.source),
            "file": self.file,
        }


@dataclass(frozen=True)
class WhatIf:
    label: Text
    changes: Mapping[str, Any]
    report: tuple[str, ...]


@dataclass(frozen=True)
class Recommendation:
    id: str
    kind: str
    effort: str
    cost: str
    text: Text
    source: tuple[str, ...] = ()
    what_ifs: tuple[WhatIf, ...] = ()
    caveat: Text = field(default_factory=dict)
    # Offered only where it fits: dropped when an `unless` holds (facts known), or an `only_if` does not.
    unless: tuple[Condition, ...] = ()
    only_if: tuple[Condition, ...] = ()
    file: str = ""
    line: int | None = None


@dataclass(frozen=True)
class KnowledgeEntry:
    id: str
    question: Text
    answer: Text
    keywords: Mapping[str, tuple[str, ...]]
    source: tuple[str, ...] = ()
    file: str = ""
    line: int | None = None
