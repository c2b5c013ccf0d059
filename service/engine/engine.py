"""The inference loop: validated facts → derived facts → rules to a fixed point → ranked findings.

Each condition of a rule is evaluated on its own, so a finding carries every condition with
the value it saw, and a rule that cannot be decided names the facts that would decide it.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from bwdoctor.engine.catalogue import FactCatalogue
from bwdoctor.engine.derived import derive, inputs_of
from bwdoctor.engine.errors import FactValidationError, RuleLoadError
from bwdoctor.engine.expressions import Condition, cel_context, compile_condition
from bwdoctor.engine.loader import RuleBase, load_rulebase
from bwdoctor.engine.model import REMEDY_KINDS, SEVERITY_RANK, KnowledgeEntry, Recommendation, Rule
from bwdoctor.engine.render import fill
from bwdoctor.engine.whatif import apply_changes, what_ifs

log = logging.getLogger("bwdoctor.engine")

MAX_PASSES = 8
SEVERITY_WEIGHT = {"critical": 3, "warning": 2, "info": 1}
# Measurements of today's link: a what-if with another NIC cannot keep them (they would cap the new link).
LINK_MEASUREMENTS = ("net.iperf3_gbps", "cluster.nic_speed_min_gbps", "nccl.allreduce_busbw_gbytes_per_s")


@dataclass
class Finding:
    rule: str
    category: str
    severity: str
    confidence: float
    title: str
    explanation: str
    evidence: list[dict[str, Any]]
    recommendations: list[dict[str, Any]]
    source: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "category": self.category,
            "severity": self.severity,
            "confidence": self.confidence,
            "title": self.title,
            "explanation": self.explanation,
            "evidence": self.evidence,
            "recommendations": self.recommendations,
            "source": self.source,
        }


@dataclass
class Diagnosis:
    facts: dict[str, Any]
    derived: dict[str, Any]
    findings: list[Finding]
    missing: list[dict[str, Any]]
    language: str = "en"
    notes: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        """critical / warning / info / healthy, or `undetermined` when nothing could be judged."""
        if not self.findings:
            return "undetermined"
        worst = self.findings[0]
        return "healthy" if worst.category == "healthy" else worst.severity

    def to_dict(self) -> dict[str, Any]:
        return {
            "facts": self.facts,
            "derived": self.derived,
            "findings": [f.to_dict() for f in self.findings],
            "missing": self.missing,
            "status": self.status,
        }


@dataclass
class Comparison:
    """The same job before and after some changes (`Engine.what_if`): both diagnoses, and the changes
    as applied (`=expr` evaluated, None for a removed fact); a change that cannot be made is in `rejected`
    (fact -> why) and left out of `changes`."""

    changes: dict[str, Any]
    before: Diagnosis
    after: Diagnosis
    rejected: dict[str, str] = field(default_factory=dict)

    def categories(self, which: str) -> list[str]:
        """`resolved`, `new` or `remaining` categories of the warning and critical findings."""
        serious = ("critical", "warning")
        before = {f.category for f in self.before.findings if f.severity in serious}
        after = {f.category for f in self.after.findings if f.severity in serious}
        chosen = {"resolved": before - after, "new": after - before, "remaining": before & after}[which]
        return sorted(chosen)


def what_if_figures(facts: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any] | None:
    """The base facts with `changes` applied (`=expr` is CEL over the facts, None removes) and every
    figure derived from them; None when a change cannot be computed. The arithmetic of every what-if."""
    changed = apply_changes(facts, changes)
    if changed is None:
        return None
    return {**changed, **derive(changed)}


@dataclass
class _Outcome:
    fired: bool
    evidence: list[dict[str, Any]]
    missing: set[str]


class Engine:
    """A loaded rule base, ready to diagnose. Immutable after construction, so safe to share."""

    def __init__(self, rulebase: RuleBase) -> None:
        self.rulebase = rulebase
        self.catalogue: FactCatalogue = rulebase.catalogue
        self.rules: list[Rule] = sorted(rulebase.rules.values(), key=lambda r: r.id)
        self.recommendations: dict[str, Recommendation] = rulebase.recommendations
        self.knowledge: list[KnowledgeEntry] = sorted(rulebase.knowledge.values(), key=lambda k: k.id)
        self.warnings: list[RuleLoadError] = rulebase.warnings
        self._ordinary = [r for r in self.rules if not r.only_if_nothing_else]
        self._fallbacks = [r for r in self.rules if r.only_if_nothing_else]
        self._reads = {
            r.id: frozenset(r.facts.union(*(c.facts for c in r.unless), r.unless_known)) for r in self.rules
        }
        self._fact_order = {name: i for i, name in enumerate(self.catalogue.specs)}

    def validate_facts(self, raw: Any) -> dict[str, Any]:
        return self.catalogue.validate(raw)

    def diagnose(self, facts: Mapping[str, Any], lang: str = "en", *, questions: bool = True) -> Diagnosis:
        """Findings for already-validated facts, in `lang` (en or zh); same facts → same output.
        `questions=False` skips ranking the missing facts (for callers that keep only findings)."""
        lang = lang if lang in ("en", "zh") else "en"
        _DEADLINE.set(time.monotonic() + DIAGNOSIS_BUDGET_S)
        _OVER_BUDGET.set(False)
        given = {k: facts[k] for k in sorted(facts)}
        known: dict[str, Any] = dict(given)
        # a derived figure given as measured ('scaling efficiency 79 %', said in the chat) stands over the estimate
        derived = {k: v for k, v in derive(known).items() if k not in given}
        known.update(derived)

        outcomes: dict[str, _Outcome] = {}
        context = None  # built from `known`, and rebuilt only when a pass concluded new facts
        pending = self._ordinary  # a later pass re-evaluates only the rules that read what the last one concluded
        for _ in range(MAX_PASSES):
            context = cel_context(known)
            outcomes.update({rule.id: self._evaluate(rule, known, context) for rule in pending})
            concluded = self._conclusions(outcomes, known, context)
            if not concluded:
                break
            known.update(concluded)
            derived.update(concluded)
            new = {k: v for k, v in derive(known).items() if k not in known}
            known.update(new)
            changed = concluded.keys() | new.keys()
            pending = [rule for rule in self._ordinary if not self._reads[rule.id].isdisjoint(changed)]
            context = None

        serious = any(o.fired and self.rulebase.rules[rid].severity != "info" for rid, o in outcomes.items())
        if not serious:
            if context is None:
                context = cel_context(known)
            for rule in self._fallbacks:
                outcomes[rule.id] = self._evaluate(rule, known, context)

        if context is None:
            context = cel_context(known)
        remedies: dict[str, dict[str, Any] | None] = {}  # each remedy judged and computed once per diagnosis
        # A healthy verdict (a measurement near line rate, good scaling) is withdrawn beside a warning or a
        # critical finding: the reader must not be told "healthy" and "broken" about the same job at once.
        findings = [
            self._finding(self.rulebase.rules[rule_id], outcome, known, lang, remedies, context)
            for rule_id, outcome in outcomes.items()
            if outcome.fired and not (serious and self.rulebase.rules[rule_id].category == "healthy")
        ]
        findings.sort(key=lambda f: (SEVERITY_RANK[f.severity], -f.confidence, f.rule))
        # the derived figures the engine worked with, those given as measured among them
        said = {k: v for k, v in given.items() if (spec := self.catalogue.get(k)) is not None and spec.derived}
        derived_out = {k: {**said, **derived}[k] for k in sorted({**said, **derived})}
        return Diagnosis(
            facts=given,
            derived=derived_out,
            findings=findings,
            missing=self._questions(outcomes, known, lang) if questions else [],
            language=lang,
        )

    def what_if(self, facts: Mapping[str, Any], changes: Mapping[str, Any], lang: str = "en") -> Comparison:
        """The diagnosis of the same (validated) facts with some changed, beside today's. A value `=expr` is
        CEL over today's facts; None removes a fact; a new `nic.speed_gbps` drops today's link measurements."""
        wanted = dict(changes)
        if wanted.get("nic.speed_gbps") is not None:
            for name in LINK_MEASUREMENTS:
                if name in facts:
                    wanted.setdefault(name, None)
        applied: dict[str, Any] = {}
        rejected: dict[str, str] = {}
        for name, value in wanted.items():
            one = apply_changes(facts, {name: value})
            if one is None:
                rejected[name] = "cannot be computed from the facts"
            else:
                applied[name] = one.get(name)
        # a derived figure said as measured ('scaling efficiency 96 %') is today's: the changed job has none of its own
        today = {k for k in facts if (spec := self.catalogue.get(k)) is not None and spec.derived}
        facts_kept = {k: v for k, v in facts.items() if k not in today}
        after_facts = {k: v for k, v in {**facts_kept, **applied}.items() if v is not None}
        while True:
            try:
                after_facts = self.validate_facts(after_facts)
                break
            except FactValidationError as exc:
                if exc.key not in applied:
                    raise
                rejected[exc.key] = f"expected {exc.expected}"
                applied.pop(exc.key)
                after_facts = {k: v for k, v in {**facts_kept, **applied}.items() if v is not None}
        return Comparison(applied, self.diagnose(facts, lang), self.diagnose(after_facts, lang), rejected)

    def _evaluate(self, rule: Rule, known: Mapping[str, Any], context: Any) -> _Outcome:
        if any(name in known for name in rule.unless_known):
            return _Outcome(False, [], set())
        for exception in rule.unless:  # checked only when its facts are known: an unknown never silences
            if exception.facts <= known.keys() and _holds(exception, context):
                return _Outcome(False, [], set())
        evidence: list[dict[str, Any]] = []
        missing: set[str] = set()
        for condition in rule.conditions:
            absent = [n for n in condition.facts if n not in known]
            if absent:
                missing.update(absent)
                continue
            if not _holds(condition, context):
                return _Outcome(False, [], set())
            for name in sorted(condition.facts):
                evidence.append({"fact": name, "value": known[name], "condition": condition.text})
        return _Outcome(not missing, evidence if not missing else [], missing)

    def _conclusions(self, outcomes: Mapping[str, _Outcome], known: Mapping[str, Any], context: Any) -> dict[str, Any]:
        new: dict[str, Any] = {}
        for rule_id, outcome in outcomes.items():
            rule = self.rulebase.rules[rule_id]
            if not outcome.fired or not rule.concludes:
                continue
            for name, value in rule.concludes.items():
                if isinstance(value, str) and value.startswith("="):
                    value = compile_condition(value[1:]).evaluate(context)
                if name not in known:
                    new[name] = value
        return new

    def _finding(
        self,
        rule: Rule,
        outcome: _Outcome,
        known: Mapping[str, Any],
        lang: str,
        remedies: dict[str, dict[str, Any] | None],
        context: Any,
    ) -> Finding:
        offered: list[dict[str, Any]] = []
        for rec_id in rule.recommendations:
            rec = self.recommendations.get(rec_id)
            if rec is None:
                continue
            if rec_id not in remedies:
                remedies[rec_id] = self._recommendation(rec, known, lang) if _fits(rec, known, context) else None
            remedy = remedies[rec_id]
            if remedy is not None:
                offered.append(remedy)
        offered.sort(key=_remedy_rank)
        return Finding(
            rule=rule.id,
            category=rule.category,
            severity=rule.severity,
            confidence=rule.confidence,
            title=fill(rule.title[lang], known),
            explanation=fill(rule.explanation[lang], known),
            evidence=outcome.evidence,
            recommendations=offered,
            source=list(rule.source),
        )

    def _recommendation(self, rec: Recommendation, known: Mapping[str, Any], lang: str) -> dict[str, Any]:
        scenarios = what_ifs(rec, known, lang)
        out: dict[str, Any] = {
            "id": rec.id,
            "kind": rec.kind,
            "effort": rec.effort,
            "cost": rec.cost,
            "text": fill(rec.text[lang], known),
            "estimate": scenarios[0]["values"] if scenarios else {},
            "what_if": scenarios,
            "source": list(rec.source),
        }
        saves = [s["saves_pct"] for s in scenarios if "saves_pct" in s]
        if saves:
            out["saves_pct"] = max(saves)
        if rec.caveat:
            out["caveat"] = fill(rec.caveat[lang], known)
        return out

    def _questions(self, outcomes: Mapping[str, _Outcome], known: Mapping[str, Any], lang: str) -> list[dict[str, Any]]:
        """Missing base facts, those that would settle the most undecided rules first."""
        settles: dict[str, int] = {}
        weight: dict[str, int] = {}
        for rule_id, outcome in outcomes.items():
            if outcome.fired or not outcome.missing:
                continue
            rule = self.rulebase.rules[rule_id]
            wanted: set[str] = set()
            for name in outcome.missing:
                wanted.update(n for n in inputs_of(name) if n not in known)
            for name in wanted:
                settles[name] = settles.get(name, 0) + 1
                weight[name] = weight.get(name, 0) + SEVERITY_WEIGHT[rule.severity]
        order = sorted(settles, key=lambda n: (-settles[n], -weight[n], self._fact_order.get(n, 10_000), n))
        return [
            {"fact": name, "question": self.catalogue.question(name, lang), "settles": settles[name]}
            for name in order
            if name in self.catalogue
        ]


def _fits(rec: Recommendation, known: Mapping[str, Any], context: Any) -> bool:
    """Whether a remedy fits the case: not already in place (`unless`, judged only on known facts), and its
    premise holds (`only_if`; an unknown fact fails it unless an `||` branch over known facts holds)."""
    for condition in rec.unless:
        if condition.facts <= known.keys() and _holds(condition, context):
            return False
    return all(_holds(condition, context) for condition in rec.only_if)


def _remedy_rank(rec: Mapping[str, Any]) -> tuple[bool, float, int]:
    """Hardware last (H36); before it, the largest estimated saving of wall time first, then cheaper kinds."""
    return (rec["kind"] == "hardware", -rec.get("saves_pct", 0.0), REMEDY_KINDS.index(rec["kind"]))


# The evaluation budget of one diagnosis (cost.py bounds each expression at load; this bounds the
# sum): past the deadline, conditions no longer hold, so a costly user rule base cannot stall a worker.
DIAGNOSIS_BUDGET_S = 2.0
_DEADLINE: ContextVar[float] = ContextVar("diagnosis_deadline", default=float("inf"))
_OVER_BUDGET: ContextVar[bool] = ContextVar("diagnosis_over_budget", default=False)


def _holds(condition: Condition, context: Any) -> bool:
    if time.monotonic() > _DEADLINE.get():
        if not _OVER_BUDGET.get():
            _OVER_BUDGET.set(True)
            log.warning("diagnosis time budget (%.1f s) spent: remaining conditions do not hold", DIAGNOSIS_BUDGET_S)
        return False
    try:
        return condition.evaluate(context) is True
    except Exception:  # a type clash in user data: the condition does not hold
        return False


def rules_dirs_from_env() -> list[Path]:
    """User rule folders named by BWDOCTOR_RULES_DIRS (`:`-separated)."""
    value = os.environ.get("BWDOCTOR_RULES_DIRS", "")
    return [Path(p) for p in value.split(os.pathsep) if p.strip()]


def load_engine(extra_dirs: Iterable[Path] | None = None) -> Engine:
    """The built-in rule base plus user folders (from BWDOCTOR_RULES_DIRS when not given)."""
    dirs = tuple(Path(p) for p in (rules_dirs_from_env() if extra_dirs is None else extra_dirs))
    return _cached_engine(dirs)


@lru_cache(maxsize=8)
def _cached_engine(dirs: tuple[Path, ...]) -> Engine:
    rulebase = load_rulebase(dirs)
    if rulebase.problems:
        raise rulebase.problems[0]
    return Engine(rulebase)
