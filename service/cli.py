"""`bwdoctor`: the command line. Thin: it reads input, calls the engine or the service, prints, exits.

Exit codes: 0 success, 1 unexpected error (or failed lint/tests), 2 bad input or usage.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from service.engine import (
    Engine,
    EngineError,
    RuleLoadError,
    builtin_rules_dir,
    coverage_gaps,
    find_test_files,
    lint_paths,
    load_engine,
    load_rulebase,
    render_text,
    rules_dirs_from_env,
    run_file,
)

LANGS = click.Choice(["en", "zh"])


def fail(message: str, code: int = 2) -> NoReturn:
    click.echo(f"bwdoctor: error: {message}", err=True)
    sys.exit(code)


def read_document(source: str, what: str = "facts") -> Any:
    """A JSON or YAML document from a file or `-` (stdin); a one-line error when it is not one."""
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"cannot read {what} from {source}: {getattr(exc, 'strerror', None) or exc}")
    if not text.strip():
        fail(f"{what} input is empty: give a JSON or YAML object of fact name → value")
    from service.documents import DocumentError, parse_document

    try:
        return parse_document(text, what=f"{what} input")
    except DocumentError as exc:
        fail(str(exc))


def engine_or_exit() -> Engine:
    try:
        return load_engine()
    except RuleLoadError as exc:
        fail(f"rules: {exc}", 1)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bandwidth-doctor")
def cli() -> None:
    """Bandwidth Doctor: finds why distributed training is slow, with the numbers."""


@cli.command()
@click.argument("source", default="-", metavar="[FILE|-]")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--lang", type=LANGS, default="en", show_default=True)
@click.option("--strict", is_flag=True, help="Unknown fact names are an error (exit 2), not a warning.")
def diagnose(source: str, fmt: str, lang: str, strict: bool) -> None:
    """Diagnose a set of facts (a JSON or YAML object), offline."""
    raw = read_document(source)
    engine = engine_or_exit()
    from service.errors import ServiceError
    from service.facts import validate_facts

    try:  # the same shape and catalogue checks as POST /api/v1/diagnose
        facts = validate_facts(engine, raw)
    except (EngineError, ServiceError) as exc:
        fail(str(exc))
    from service.unknown_facts import unknown_facts

    unknown = unknown_facts(facts, engine.catalogue)  # a typo is ignored by every rule: say so
    for item in unknown:
        click.echo(f"bwdoctor: {'error' if strict else 'warning'}: {item.message(ignored=not strict)}", err=True)
    if strict and unknown:
        sys.exit(2)
    result = engine.diagnose(facts, lang=lang).to_dict()
    result["warnings"] = [item.to_dict(lang) for item in unknown]
    if fmt == "json":
        click.echo(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        click.echo(render_text(result, lang), nl=False)


@cli.command()
@click.argument("question")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--lang", type=LANGS, default=None, help="Reply language (default: the question's own).")
def ask(question: str, fmt: str, lang: str | None) -> None:
    """Ask a question in English or Chinese, offline (one chat turn)."""
    from service.chat.answer import format_text
    from service.conversations.service import ask as ask_flow

    if not question.strip():
        fail("the question is empty")
    result = ask_flow(question, engine=engine_or_exit(), lang=lang)
    if fmt == "json":
        click.echo(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        click.echo(format_text(result))


@cli.group()
def rules() -> None:
    """Lint and test rule files."""


@rules.command("lint")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
def rules_lint(paths: tuple[Path, ...]) -> None:
    """Validate rule files (default: the built-in rules); every error names file, rule id and line."""
    if paths:
        problems = lint_paths(paths)
    else:
        try:
            base = load_rulebase()
        except RuleLoadError as exc:
            problems = [exc]
        else:
            problems = base.problems
            counts = (
                f"{len(base.rules)} rules, {len(base.recommendations)} recommendations, "
                f"{len(base.knowledge)} knowledge entries"
            )
    for problem in problems:
        click.echo(problem.describe(), err=True)
    if problems:
        click.echo(f"rules lint: {len(problems)} problem(s)", err=True)
        sys.exit(1)
    click.echo(f"rules lint: ok ({counts})" if not paths else "rules lint: ok")


@rules.command("test")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--rules",
    "rule_dirs",
    multiple=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Extra rule folder to load (repeatable); a tests/ folder's parent is added by itself.",
)
@click.option("-v", "--verbose", is_flag=True)
def rules_test(paths: tuple[Path, ...], rule_dirs: tuple[Path, ...], verbose: bool) -> None:
    """Run rule unit tests: facts in, expected findings out (default: the built-in tests)."""
    builtin = builtin_rules_dir()
    targets = list(paths) or [builtin / "tests"]
    dirs = list(rules_dirs_from_env()) + list(rule_dirs)
    for target in targets:
        folder = target if target.is_dir() else target.parent
        if folder.name == "tests" and folder.parent.resolve() != builtin.resolve() and folder.parent not in dirs:
            dirs.append(folder.parent)
    try:
        base = load_rulebase(dirs)
    except RuleLoadError as exc:
        fail(f"rules: {exc}", 1)
    if base.problems:
        for problem in base.problems:
            click.echo(problem.describe(), err=True)
        sys.exit(1)
    for warning in base.warnings:
        click.echo(f"warning: {warning.describe()}", err=True)
    engine = Engine(base)
    results = []
    for file in find_test_files(targets):
        results.extend(run_file(engine, file))
    failed = [r for r in results if not r.passed]
    for r in results:
        if not r.passed or verbose:
            click.echo(f"{'FAIL' if r.problems else 'ok  '} {r.file}:{r.line or '?'} {r.name}")
            for text in r.problems:
                click.echo(f"     - {text}")
    gaps: list[str] = []
    if not paths:  # the built-in suite must exercise every built-in rule both ways
        gaps = coverage_gaps(engine, results, [r.id for r in engine.rules if r.file.startswith(str(builtin))])
        for gap in gaps:
            click.echo(f"GAP  {gap}")
    click.echo(
        f"rules test: {len(results) - len(failed)} passed, {len(failed)} failed"
        + (f", {len(gaps)} coverage gaps" if gaps else "")
    )
    if failed or gaps or not results:
        sys.exit(1)


# serve, tokens, preflight: the service's commands (service/commands.py).
from service.commands import register_service_commands  # noqa: E402

register_service_commands(cli)


def main() -> None:
    cli(prog_name="bwdoctor")


if __name__ == "__main__":
    main()
