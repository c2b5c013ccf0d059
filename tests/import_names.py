"""The folders install under other names (pyproject: [tool.hatch.build.targets.wheel.sources]), so a
training environment's own `service` cannot clash with ours. pytest puts the checkout on sys.path,
where the folder names would import too: a second copy of every module, with its own SQLAlchemy
metadata, settings and engine singletons. tests/conftest.py installs `FolderNamesBlocked` so that
such an import fails at once, and checks at the end of the run that no file was loaded twice.
"""

from __future__ import annotations

import importlib.abc
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

# folder -> the import name it installs as
IMPORT_NAMES = {"service": "bwdoctor", "tool_parsers": "bwdoctor_parsers", "agent_probe": "bwdoctor_probe"}


class FolderNamesBlocked(importlib.abc.MetaPathFinder):
    """`import service` (or tool_parsers, agent_probe) raises instead of loading the folder again."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None) -> None:
        top = fullname.partition(".")[0]
        if top in IMPORT_NAMES:
            raise ModuleNotFoundError(
                f"No module named {fullname!r}: the folder {top}/ installs as {IMPORT_NAMES[top]!r}; "
                f"import {IMPORT_NAMES[top]}{fullname[len(top):]}",
                name=fullname,
            )
        return None


def block_folder_names() -> None:
    if not any(isinstance(finder, FolderNamesBlocked) for finder in sys.meta_path):
        sys.meta_path.insert(0, FolderNamesBlocked())


def loaded_twice(modules: dict[str, ModuleType] | None = None) -> dict[str, list[str]]:
    """Files loaded as more than one module object ({file: [module names]}): the same code twice."""
    by_file: dict[str, dict[int, str]] = {}
    for name, module in list((sys.modules if modules is None else modules).items()):
        file = getattr(module, "__file__", None)
        if not file or name in ("__main__", "__mp_main__"):
            continue
        by_file.setdefault(str(Path(file).resolve()), {}).setdefault(id(module), name)
    return {file: sorted(objects.values()) for file, objects in by_file.items() if len(objects) > 1}
