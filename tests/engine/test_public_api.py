"""The engine is a library with one public face, `bwdoctor.engine`: code outside service/engine/ imports
from there only, passes the engine around as `Engine` (never `Any`) and never probes it with getattr."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import bwdoctor.engine as engine_api

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("service", "agent_probe", "tool_parsers", "benchmarks")
ENGINE_DIR = ROOT / "service" / "engine"


def _product_files() -> list[Path]:
    files = []
    for top in PRODUCT:
        for path in sorted((ROOT / top).rglob("*.py")):
            if ENGINE_DIR in path.parents or "builtin_rules" in path.parts:
                continue
            files.append(path)
    return files


def _engine_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of each import of an engine module other than the package itself."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bwdoctor.engine."):
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("bwdoctor.engine.")]
    return found


def test_the_scan_sees_the_product_code() -> None:
    files = {p.relative_to(ROOT).as_posix() for p in _product_files()}
    assert {"service/web/charts.py", "service/main.py", "agent_probe/cli.py"} <= files
    assert not any(f.startswith("service/engine/") for f in files)


def test_code_outside_the_engine_imports_only_its_public_api() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in _product_files()
        for line, module in _engine_imports(path)
    ]
    assert not offenders, "import these from `bwdoctor.engine` instead:\n" + "\n".join(offenders)


def test_the_engine_is_typed_and_not_probed() -> None:
    pattern = re.compile(r"\bengine: Any\b|getattr\(\s*engine\b|Annotated\[Any, Depends\(get_engine\)\]")
    offenders = [
        f"{path.relative_to(ROOT)}:{i}: {line.strip()}"
        for path in _product_files()
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not offenders, "\n".join(offenders)


def test_every_public_name_exists() -> None:
    missing = [name for name in engine_api.__all__ if not hasattr(engine_api, name)]
    assert not missing
    assert {"Engine", "Diagnosis", "Finding", "FactCatalogue", "load_engine", "lint_paths", "run_file"} <= set(
        engine_api.__all__
    )


def test_the_scan_would_catch_a_private_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from bwdoctor.engine.derived import derive\nimport bwdoctor.engine.loader\n")
    assert [m for _, m in _engine_imports(sample)] == ["bwdoctor.engine.derived", "bwdoctor.engine.loader"]
