"""`bwdoctor rules lint` and `bwdoctor rules test`: the rule base's checks (exit 1 when one fails)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from bwdoctor.cli.common import fail
from bwdoctor.engine import (
    Engine,
    RuleLoadError,
    builtin_rules_dir,
    coverage_gaps,
    find_test_files,
    lint_paths,
    load_rulebase,
    rules_dirs_from_env,
    run_file,
)


@click.group()
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
