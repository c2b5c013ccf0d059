"""Build hook: the editable install (`pip install -e .`, what `make venv` runs) under the installed
import names.

The wheel installs the folders under distinct names ([tool.hatch.build.targets.wheel.sources]:
service/ as bwdoctor, tool_parsers/ as bwdoctor_parsers, agent_probe/ as bwdoctor_probe), so that a
training environment's own `service` package cannot clash with ours. Hatchling's editable modes
cannot rename a folder: the default .pth would put the checkout on sys.path (importable as
`service`), and dev-mode-exact refuses a renaming `sources`. So an editable build makes `.editable/`
in the checkout (ignored by git) with one relative symlink per import name, and the editable wheel's
.pth (dev-mode-dirs) puts that folder on sys.path. Edits in service/ take effect at once, under
`bwdoctor`; `Path(__file__).resolve()` still lands in the folders; mypy reads the same links.
A plain wheel build does nothing here.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

LINK_DIR = ".editable"


def link_import_names(root: Path, sources: dict[str, str]) -> Path:
    """Make root/.editable/<import name> -> ../<folder> for each mapping; idempotent, drops stale links."""
    links = root / LINK_DIR
    links.mkdir(exist_ok=True)
    wanted = {name.strip("/"): folder.strip("/") for folder, name in sources.items()}
    for entry in links.iterdir():
        if entry.is_symlink() and entry.name not in wanted:
            entry.unlink()
    for name, folder in wanted.items():
        link, target = links / name, os.path.join("..", folder)
        if not (root / folder / "__init__.py").is_file():
            raise FileNotFoundError(f"{folder}/__init__.py: the folder that installs as {name} is missing")
        if link.is_symlink() and os.readlink(link) == target:
            continue
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(target, target_is_directory=True)
    return links


class EditableImportNames(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version != "editable":
            return
        sources = self.build_config.target_config.get("sources", {})
        if LINK_DIR not in self.build_config.target_config.get("dev-mode-dirs", []):
            raise ValueError(f"[tool.hatch.build.targets.wheel] dev-mode-dirs must be [{LINK_DIR!r}]")
        link_import_names(Path(self.root), sources)
