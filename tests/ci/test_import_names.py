"""The folders service/, tool_parsers/ and agent_probe/ install as bwdoctor, bwdoctor_parsers and
bwdoctor_probe (generic names would clash in a training environment). Nothing may import, name or
configure the folder names as modules: imports, `-m` and `module:attr` strings, monkeypatch targets,
logger names, docs and the packaging all use the import names (tests/import_names.py says why a
folder name imported from the checkout would load the product twice)."""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.import_names import IMPORT_NAMES, loaded_twice

ROOT = Path(__file__).resolve().parents[2]
CODE = ("service", "agent_probe", "tool_parsers", "tests", "benchmarks", "scripts")
TEXT = ("*.md", "*.toml", "*.yaml", "*.yml", "*.ini", "*.cfg", "Makefile", "Dockerfile")


def _children(folder: str) -> list[str]:
    base = ROOT / folder
    names = {p.stem for p in base.glob("*.py") if p.stem != "__init__"}
    names |= {p.name for p in base.iterdir() if (p / "__init__.py").is_file()}
    return sorted(names, key=len, reverse=True)


# A folder name, a dot and one of that folder's modules (the engine of service/, the cli of agent_probe/,
# in a `-m`, a "module:attr" or prose), not inside a path (service/chat/x.py, nodes/service.py) nor
# a sub-module (tokens.service.x). This file spells no example, so the rename script leaves it alone.
DOTTED = re.compile(
    r"(?<![\w./-])(?:"
    + "|".join(rf"{folder}\.(?:{'|'.join(_children(folder))})\b" for folder in IMPORT_NAMES)
    + r")"
)
LOGGER = re.compile(r"""getLogger\(\s*["'](?:service|tool_parsers|agent_probe)["'.]""")


def _python_files() -> list[Path]:
    files = sorted(ROOT.glob("*.py"))
    for top in CODE:
        files += sorted(p for p in (ROOT / top).rglob("*.py") if "__pycache__" not in p.parts)
    return files


def _text_files() -> list[Path]:
    files: list[Path] = []
    for pattern in TEXT:
        files += ROOT.glob(pattern)
    for top in ("docs", "deploy", "examples", "rules", "service", "agent_probe", "tests"):
        for pattern in TEXT:
            files += (p for p in (ROOT / top).rglob(pattern) if not p.name.startswith("holdout_"))
    return sorted(set(files))


def test_no_code_imports_a_folder_name():
    found = []
    for path in _python_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            found += [f"{path.relative_to(ROOT)}:{node.lineno}: {m}" for m in modules
                      if m.partition(".")[0] in IMPORT_NAMES]
    assert not found, "import the installed names (" + ", ".join(IMPORT_NAMES.values()) + "):\n" + "\n".join(found)


def test_no_file_names_a_module_by_its_folder_name():
    found = []
    for path in _python_files() + _text_files():
        if path == Path(__file__).resolve():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if DOTTED.search(line) or LOGGER.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    names = ", ".join(IMPORT_NAMES.values())
    assert not found, f"name modules by their import names ({names}):\n" + "\n".join(found)


def test_the_packaging_maps_each_folder_to_its_import_name():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wheel = project["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert wheel["sources"] == IMPORT_NAMES
    assert sorted(wheel["only-include"]) == sorted(IMPORT_NAMES)
    assert wheel["force-include"] == {"rules": "bwdoctor/engine/builtin_rules"}
    assert wheel["dev-mode-dirs"] == [".editable"]
    assert project["project"]["scripts"] == {"bwdoctor": "bwdoctor.cli:main", "agent-probe": "bwdoctor_probe.cli:main"}
    mypy = project["tool"]["mypy"]
    assert sorted(mypy["files"]) == sorted(f".editable/{name}" for name in IMPORT_NAMES.values())
    for override in mypy["overrides"]:
        assert not [m for m in override["module"] if m.partition(".")[0] in IMPORT_NAMES], override

    probe = tomllib.loads((ROOT / "agent_probe" / "pyproject.toml").read_text(encoding="utf-8"))
    assert probe["project"]["scripts"] == {"agent-probe": "bwdoctor_probe.cli:main"}
    force = probe["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    assert force == {".": "bwdoctor_probe", "../tool_parsers": "bwdoctor_parsers"}


def test_importing_a_folder_name_in_the_suite_fails_at_once():
    for folder, name in IMPORT_NAMES.items():
        with pytest.raises(ModuleNotFoundError, match=f"installs as '{name}'"):
            importlib.import_module(folder)


def test_outside_the_checkout_only_the_import_names_exist(tmp_path):
    # A module of each folder, by the folder's name (built here, so that no literal spells one).
    modules = ("cli", "iperf3", "cli")  # of service/, tool_parsers/, agent_probe/
    by_folder_name = [f"{folder}.{module}" for folder, module in zip(IMPORT_NAMES, modules, strict=True)]
    code = (
        "import importlib, sys\n"
        "import bwdoctor.cli, bwdoctor.main, bwdoctor_parsers.iperf3, bwdoctor_probe.cli\n"
        f"for m in {by_folder_name!r}:\n"
        "    try:\n"
        "        importlib.import_module(m)\n"
        "    except ModuleNotFoundError:\n"
        "        continue\n"
        "    print('importable:', m)\n"
        f"folders = {tuple(IMPORT_NAMES)!r}\n"
        "real = [n for n, m in sys.modules.items() if getattr(m, '__file__', None)]\n"
        "print(sorted(n for n in real if n.partition('.')[0] in folders))\n"
    )
    # (An empty `service` folder that pip left in site-packages when an older install was replaced is a
    # namespace package without files: harmless, so not counted.)
    isolated = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, cwd=tmp_path,
                              timeout=120)
    assert isolated.returncode == 0, isolated.stderr
    assert isolated.stdout == "[]\n", isolated.stdout


def test_a_file_loaded_under_two_names_is_found(tmp_path):
    source = tmp_path / "twice.py"
    source.write_text("VALUE = 1\n")
    modules = {}
    for name in ("first_name", "second_name"):
        spec = importlib.util.spec_from_file_location(name, source)
        assert spec and spec.loader
        modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(modules[name])
    modules["alias"] = modules["first_name"]  # one module object under two names is not a second copy
    assert loaded_twice(modules) == {str(source.resolve()): ["first_name", "second_name"]}
    assert loaded_twice({"only": modules["first_name"]}) == {}


def test_this_run_has_loaded_nothing_twice():
    import bwdoctor.main  # noqa: F401  (the app and everything it imports)

    assert loaded_twice() == {}
