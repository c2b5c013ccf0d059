"""The one place rule files are read: built-in rules, then user folders that may override them by id.

Loading is also linting: every problem is collected with its file, rule id and line, so
`bwdoctor rules lint` can list them all at once. Built-in problems are fatal; a broken user
file only loses its own rules and leaves a warning, never taking the built-in ones down.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from bwdoctor.engine.catalogue import FactCatalogue, parse_catalogue
from bwdoctor.engine.cost import format_spec_problem
from bwdoctor.engine.derived import DERIVED_NAMES, FORMULAS
from bwdoctor.engine.errors import RuleLoadError
from bwdoctor.engine.expressions import ExpressionError, compile_condition, referenced_facts
from bwdoctor.engine.model import (
    CATEGORIES,
    LANGUAGES,
    REMEDY_KINDS,
    SEVERITIES,
    KnowledgeEntry,
    Recommendation,
    Rule,
    WhatIf,
)
from bwdoctor.engine.render import OPTIONAL
from bwdoctor.engine.yamlfile import load_yaml_with_lines, strip_lines

CATALOGUE_FILE = "facts.yaml"
RULE_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
SOURCE = re.compile(r"^(H([1-9]|[1-3][0-9])|https?://\S+)$")
PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_.]*)(?::[^}]*)?\}")
FORMAT_SPEC = re.compile(r"\{[a-z_][a-z0-9_.]*:([^}]*)\}")


def builtin_rules_dir() -> Path:
    """`rules/` of a checkout, or the copy packed into the installed wheel."""
    here = Path(__file__).resolve().parent
    packed = here / "builtin_rules"
    return packed if packed.is_dir() else here.parents[1] / "rules"


@cache
def builtin_catalogue() -> FactCatalogue:
    """The built-in fact catalogue (user rule folders add rules, never facts), read once: the vocabulary
    for code that names facts without an engine at hand (labels, units, cluster aggregation)."""
    builtin = builtin_rules_dir()
    return parse_catalogue(load_yaml_with_lines(builtin / CATALOGUE_FILE), file=str(builtin / CATALOGUE_FILE))


@dataclass
class RuleBase:
    catalogue: FactCatalogue
    rules: dict[str, Rule] = field(default_factory=dict)
    recommendations: dict[str, Recommendation] = field(default_factory=dict)
    knowledge: dict[str, KnowledgeEntry] = field(default_factory=dict)
    problems: list[RuleLoadError] = field(default_factory=list)
    warnings: list[RuleLoadError] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    # User files, and the built-in rules their rules replaced: a user rule skipped later (an unknown
    # recommendation) gives the built-in one back instead of taking it down with it.
    user_files: set[str] = field(default_factory=set)
    replaced_rules: dict[str, Rule] = field(default_factory=dict)


def rule_files(folder: Path) -> list[Path]:
    """The YAML files of a rule folder, in a stable order (tests live in `tests/` and are not rules)."""
    return sorted(p for p in folder.glob("*.yaml") if p.is_file())


def load_rulebase(extra_dirs: Iterable[Path] = (), *, builtin_dir: Path | None = None) -> RuleBase:
    builtin = builtin_dir or builtin_rules_dir()
    catalogue = parse_catalogue(load_yaml_with_lines(builtin / CATALOGUE_FILE), file=str(builtin / CATALOGUE_FILE))
    base = RuleBase(catalogue=catalogue)
    _load_folder(base, builtin, user=False)
    for folder in extra_dirs:
        folder = Path(folder)
        if not folder.is_dir():
            base.warnings.append(RuleLoadError("rule folder does not exist", file=str(folder)))
            continue
        _load_folder(base, folder, user=True)
    _check_references(base)
    return base


def lint_paths(paths: Iterable[Path]) -> list[RuleLoadError]:
    """Every problem in the given rule files or folders, checked against the built-in catalogue."""
    builtin = builtin_rules_dir()
    base = RuleBase(catalogue=parse_catalogue(load_yaml_with_lines(builtin / CATALOGUE_FILE), file=str(builtin)))
    for path in paths:
        path = Path(path)
        if path.is_dir():
            _load_folder(base, path, user=False)
        elif path.is_file():
            _load_file(base, path, user=False)
        else:
            base.problems.append(RuleLoadError("no such file or folder", file=str(path)))
    # Rules may name recommendations of the built-in catalogue even when linted alone.
    if not any(p.resolve() == builtin.resolve() for p in map(Path, paths)):
        builtin_base = load_rulebase()
        for rec_id, rec in builtin_base.recommendations.items():
            base.recommendations.setdefault(rec_id, rec)
    _check_references(base)
    return base.problems


def _load_folder(base: RuleBase, folder: Path, *, user: bool) -> None:
    for path in rule_files(folder):
        if path.name == CATALOGUE_FILE and not user:
            base.files.append(path)
            continue
        _load_file(base, path, user=user)


def _load_file(base: RuleBase, path: Path, *, user: bool) -> None:
    sink = base.warnings if user else base.problems
    try:
        data = load_yaml_with_lines(path)
    except RuleLoadError as exc:
        sink.append(exc)
        return
    if data is None:
        return
    if not isinstance(data, Mapping) or not ({"rules", "recommendations", "knowledge"} & data.keys()):
        sink.append(RuleLoadError("expected a mapping with 'rules', 'recommendations' or 'knowledge'", file=str(path)))
        return
    base.files.append(path)
    file = str(path)
    if user:
        base.user_files.add(file)
    parsers: tuple[tuple[str, Callable[..., Any], dict[str, Any]], ...] = (
        ("rules", _parse_rule, base.rules),
        ("recommendations", _parse_recommendation, base.recommendations),
        ("knowledge", _parse_knowledge, base.knowledge),
    )
    for key, parse, store in parsers:
        items = data.get(key) or []
        if not isinstance(items, list):
            sink.append(RuleLoadError(f"'{key}' must be a list", file=file, line=data.get("__line__")))
            continue
        seen_here: set[str] = set()
        for body in items:
            try:
                item = parse(body, file=file, catalogue=base.catalogue)
            except RuleLoadError as exc:
                sink.append(exc)
                continue
            if item.id in seen_here or (not user and item.id in store):
                sink.append(RuleLoadError(f"duplicate id {item.id!r}", file=file, rule_id=item.id, line=item.line))
                continue
            seen_here.add(item.id)
            if user and key == "rules" and item.id in store and store[item.id].file not in base.user_files:
                base.replaced_rules.setdefault(item.id, store[item.id])
            store[item.id] = item  # a user item with a built-in id overrides it


def _check_references(base: RuleBase) -> None:
    """Every recommendation a rule names exists. A user rule that names an unknown one is skipped
    with a warning (as a broken user file is), and a built-in rule it replaced comes back; in the
    built-in rules, or under lint, it is a problem."""
    for rule in list(base.rules.values()):
        unknown = [rec_id for rec_id in rule.recommendations if rec_id not in base.recommendations]
        if not unknown:
            continue
        user = rule.file in base.user_files
        for rec_id in unknown:
            hint = _suggest(rec_id, base.recommendations)
            skipped = "; the rule is skipped" if user else ""
            error = RuleLoadError(
                f"unknown recommendation {rec_id!r}{hint}{skipped}", file=rule.file, rule_id=rule.id, line=rule.line
            )
            (base.warnings if user else base.problems).append(error)
        if user and rule.id in base.replaced_rules:
            base.rules[rule.id] = base.replaced_rules[rule.id]  # in its place: rule order is kept
        elif user:
            del base.rules[rule.id]


def _fail(message: str, body: Any, *, file: str, rule_id: str = "", key: str = "") -> RuleLoadError:
    """An error at the line of `key` in `body` when known, else at the line where `body` starts."""
    line = None
    if isinstance(body, Mapping):
        line = (body.get("__keylines__") or {}).get(key) or body.get("__line__")
    return RuleLoadError(message, file=file, rule_id=rule_id, line=line)


def _require_id(body: Any, *, file: str, what: str) -> str:
    if not isinstance(body, Mapping):
        raise _fail(f"each {what} must be a mapping", body, file=file)
    rule_id = body.get("id")
    if not isinstance(rule_id, str) or not RULE_ID.match(rule_id):
        raise _fail(f"{what} id must be lower-case words joined by '-', got {rule_id!r}", body, file=file)
    return rule_id


def _texts(body: Mapping[str, Any], key: str, *, file: str, rule_id: str, required: bool = True) -> dict[str, str]:
    value = body.get(key)
    if value is None and not required:
        return {}
    if not isinstance(value, Mapping):
        raise _fail(
            f"'{key}' must map each language ({', '.join(LANGUAGES)}) to a text", body, file=file, rule_id=rule_id
        )
    texts: dict[str, str] = strip_lines(dict(value))
    for lang in LANGUAGES:
        if not isinstance(texts.get(lang), str) or not texts[lang].strip():
            raise _fail(f"'{key}' is missing its {lang!r} translation", body, file=file, rule_id=rule_id, key=key)
    return texts


def _sources(body: Mapping[str, Any], *, file: str, rule_id: str) -> tuple[str, ...]:
    sources = body.get("source")
    if isinstance(sources, str):
        sources = [sources]
    if not isinstance(sources, list) or not sources:
        raise _fail(
            "'source' must list heuristic ids (H1–H39) or public references",
            body,
            file=file,
            rule_id=rule_id,
            key="source",
        )
    for s in sources:
        if not isinstance(s, str) or not SOURCE.match(s):
            raise _fail(
                f"source {s!r} is neither a heuristic id H1–H39 nor a URL",
                body,
                file=file,
                rule_id=rule_id,
                key="source",
            )
    return tuple(sources)


def _known_fact(name: str, catalogue: FactCatalogue) -> bool:
    return name in catalogue or name in DERIVED_NAMES


def _check_facts(
    names: Iterable[str], catalogue: FactCatalogue, body: Any, *, file: str, rule_id: str, key: str = ""
) -> None:
    for name in sorted(names):
        if not _known_fact(name, catalogue):
            hint = _suggest(name, catalogue.names())
            raise _fail(f"unknown fact {name!r}{hint}", body, file=file, rule_id=rule_id, key=key)


def _check_templates(texts: Mapping[str, str], catalogue: FactCatalogue, body: Any, *, file: str, rule_id: str) -> None:
    for text in texts.values():
        _check_facts(PLACEHOLDER.findall(text), catalogue, body, file=file, rule_id=rule_id)
        for spec in FORMAT_SPEC.findall(text):  # cost: a width can make a finding of any size
            if (problem := format_spec_problem(spec)) is not None:
                raise _fail(problem, body, file=file, rule_id=rule_id)


def derivable_from(facts: Iterable[str]) -> frozenset[str]:
    """The facts given, what the derived ones among them rest on (a derived fact is known only when the
    facts its formula needs are), and every derived fact those feed."""
    by_name = {f.name: f for f in FORMULAS}
    known = set(facts)
    stack = list(known)
    while stack:
        formula = by_name.get(stack.pop())
        for need in formula.needs if formula is not None else ():
            if need not in known:
                known.add(need)
                stack.append(need)
    grew = True
    while grew:
        grew = False
        for formula in FORMULAS:
            if formula.name not in known and formula.ready(dict.fromkeys(known)):
                known.add(formula.name)
                grew = True
    return frozenset(known)


def _check_fillable(
    key: str, texts: Mapping[str, str], known: frozenset[str], body: Any, *, file: str, rule_id: str
) -> None:
    """Every {fact} of a finding's text is known whenever the rule fires: a condition reads it, or it
    is derived from facts the conditions read (or an optional `[[ … ]]` part holds it). Otherwise the
    reader would see '?'."""
    for lang, text in texts.items():
        for name in PLACEHOLDER.findall(OPTIONAL.sub("", text)):  # an optional [[ … ]] part may need more
            if name not in known:
                raise _fail(
                    f"{key} ({lang}) shows {{{name}}}, which no condition reads and none derives: it would print "
                    f"'?' (add a condition on it, put it in an optional [[ … ]] part, or drop it from the text)",
                    body,
                    file=file,
                    rule_id=rule_id,
                    key=key,
                )


def _parse_rule(body: Any, *, file: str, catalogue: FactCatalogue) -> Rule:
    rule_id = _require_id(body, file=file, what="rule")
    known = {
        "id",
        "category",
        "severity",
        "confidence",
        "when",
        "title",
        "explanation",
        "recommendations",
        "source",
        "unless_known",
        "unless",
        "concludes",
        "only_if_nothing_else",
        "__line__",
        "__keylines__",
    }
    extra = sorted(set(body) - known)
    if extra:
        raise _fail(f"unknown key(s) {', '.join(extra)}", body, file=file, rule_id=rule_id, key=extra[0])
    category = body.get("category")
    if category not in CATEGORIES:
        hint = _suggest(str(category), CATEGORIES)
        raise _fail(f"unknown category {category!r}{hint}", body, file=file, rule_id=rule_id, key="category")
    severity = body.get("severity")
    if severity not in SEVERITIES:
        raise _fail(
            f"severity must be one of {', '.join(SEVERITIES)}, got {severity!r}", body, file=file, rule_id=rule_id
        )
    confidence = body.get("confidence", 0.8)
    if isinstance(confidence, bool) or not isinstance(confidence, int | float) or not 0 < confidence <= 1:
        raise _fail(
            f"confidence must be a number in (0, 1], got {confidence!r}",
            body,
            file=file,
            rule_id=rule_id,
            key="confidence",
        )
    when = body.get("when")
    if isinstance(when, str):
        when = [when]
    if not isinstance(when, list) or not when:
        raise _fail("'when' must list one or more conditions", body, file=file, rule_id=rule_id, key="when")
    conditions = []
    for text in when:
        try:
            condition = compile_condition(text)
        except ExpressionError as exc:
            raise _fail(str(exc), body, file=file, rule_id=rule_id, key="when") from exc
        if not condition.facts:
            raise _fail(f"condition {text!r} reads no fact", body, file=file, rule_id=rule_id, key="when")
        _check_facts(condition.facts, catalogue, body, file=file, rule_id=rule_id, key="when")
        conditions.append(condition)
    title = _texts(body, "title", file=file, rule_id=rule_id)
    explanation = _texts(body, "explanation", file=file, rule_id=rule_id)
    _check_templates(title, catalogue, body, file=file, rule_id=rule_id)
    _check_templates(explanation, catalogue, body, file=file, rule_id=rule_id)
    fillable = derivable_from(name for condition in conditions for name in condition.facts)
    _check_fillable("title", title, fillable, body, file=file, rule_id=rule_id)
    _check_fillable("explanation", explanation, fillable, body, file=file, rule_id=rule_id)
    recommendations = body.get("recommendations", [])
    if not isinstance(recommendations, list) or not all(isinstance(r, str) for r in recommendations):
        raise _fail(
            "'recommendations' must list recommendation ids", body, file=file, rule_id=rule_id, key="recommendations"
        )
    unless = []
    for text in body.get("unless") or []:
        try:
            condition = compile_condition(text)
        except ExpressionError as exc:
            raise _fail(str(exc), body, file=file, rule_id=rule_id, key="unless") from exc
        _check_facts(condition.facts, catalogue, body, file=file, rule_id=rule_id, key="unless")
        unless.append(condition)
    unless_known = body.get("unless_known", [])
    if not isinstance(unless_known, list):
        raise _fail("'unless_known' must list fact names", body, file=file, rule_id=rule_id)
    _check_facts(unless_known, catalogue, body, file=file, rule_id=rule_id)
    concludes = strip_lines(body.get("concludes") or {})
    if not isinstance(concludes, Mapping):
        raise _fail("'concludes' must map fact names to values", body, file=file, rule_id=rule_id)
    _check_facts(concludes, catalogue, body, file=file, rule_id=rule_id)
    return Rule(
        id=rule_id,
        category=category,
        severity=severity,
        confidence=float(confidence),
        conditions=tuple(conditions),
        title=title,
        explanation=explanation,
        recommendations=tuple(recommendations),
        source=_sources(body, file=file, rule_id=rule_id),
        unless_known=tuple(unless_known),
        unless=tuple(unless),
        concludes=concludes,
        only_if_nothing_else=bool(body.get("only_if_nothing_else", False)),
        file=file,
        line=body.get("__line__"),
    )


def _parse_recommendation(body: Any, *, file: str, catalogue: FactCatalogue) -> Recommendation:
    rec_id = _require_id(body, file=file, what="recommendation")
    kind = body.get("kind")
    if kind not in REMEDY_KINDS:
        raise _fail(f"kind must be one of {', '.join(REMEDY_KINDS)}, got {kind!r}", body, file=file, rule_id=rec_id)
    for key in ("effort", "cost"):
        if body.get(key) not in ("low", "medium", "high"):
            raise _fail(f"{key} must be low, medium or high", body, file=file, rule_id=rec_id)
    text = _texts(body, "text", file=file, rule_id=rec_id)
    _check_templates(text, catalogue, body, file=file, rule_id=rec_id)
    what_ifs = []
    for item in body.get("what_if") or []:
        if not isinstance(item, Mapping) or not isinstance(item.get("set"), Mapping):
            raise _fail("each what_if needs 'set' (fact → new value)", body, file=file, rule_id=rec_id)
        changes = strip_lines(dict(item["set"]))
        report = tuple(item.get("report") or ())
        _check_facts(list(changes) + list(report), catalogue, body, file=file, rule_id=rec_id)
        for value in changes.values():
            if isinstance(value, str) and value.startswith("="):
                try:
                    condition = compile_condition(value[1:])
                except ExpressionError as exc:
                    raise _fail(str(exc), body, file=file, rule_id=rec_id) from exc
                _check_facts(condition.facts, catalogue, body, file=file, rule_id=rec_id)
        label = _texts(item, "label", file=file, rule_id=rec_id)
        what_ifs.append(WhatIf(label=label, changes=changes, report=report))
    guards = {}
    for key in ("unless", "only_if"):
        conditions = []
        for expression in body.get(key) or []:
            try:
                condition = compile_condition(expression)
            except ExpressionError as exc:
                raise _fail(str(exc), body, file=file, rule_id=rec_id, key=key) from exc
            _check_facts(condition.facts, catalogue, body, file=file, rule_id=rec_id, key=key)
            conditions.append(condition)
        guards[key] = tuple(conditions)
    return Recommendation(
        id=rec_id,
        kind=kind,
        effort=body["effort"],
        cost=body["cost"],
        text=text,
        source=_sources(body, file=file, rule_id=rec_id),
        what_ifs=tuple(what_ifs),
        caveat=_texts(body, "caveat", file=file, rule_id=rec_id, required=False),
        unless=guards["unless"],
        only_if=guards["only_if"],
        file=file,
        line=body.get("__line__"),
    )


def _parse_knowledge(body: Any, *, file: str, catalogue: FactCatalogue) -> KnowledgeEntry:
    entry_id = _require_id(body, file=file, what="knowledge entry")
    keywords = strip_lines(body.get("keywords") or {})
    if not isinstance(keywords, Mapping) or not all(isinstance(keywords.get(lang), list) for lang in LANGUAGES):
        raise _fail("'keywords' must give a list of phrases for en and zh", body, file=file, rule_id=entry_id)
    return KnowledgeEntry(
        id=entry_id,
        question=_texts(body, "question", file=file, rule_id=entry_id),
        answer=_texts(body, "answer", file=file, rule_id=entry_id),
        keywords={lang: tuple(str(k) for k in words) for lang, words in keywords.items()},
        source=_sources(body, file=file, rule_id=entry_id),
        file=file,
        line=body.get("__line__"),
    )


def _suggest(name: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


__all__ = ["RuleBase", "builtin_catalogue", "builtin_rules_dir", "lint_paths", "load_rulebase", "referenced_facts"]
