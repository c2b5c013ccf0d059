"""What the suite needs from the machine, in one place, so a missing one is a skip here and a failure in CI.

A test that needs root, the shared folder beside the checkout, PostgreSQL, chromium, iperf3, ethtool
or iproute2 asks through `needs(...)` (a mark) or `require(...)` (inside a test or fixture). Either
skips with a reason that starts with `PREFIX`; tests/conftest.py turns exactly those skips into
failures when `CI` is set (CI is meant to have all of them: `.ci/run` installs them and
`.ci/check-prereqs` checks them), and outside CI lists them at the end of the run with how to
enable each. Skips for other reasons (this machine has a GPU, SQLite has no column lengths) are
not prerequisites and stay skips everywhere.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

PREFIX = "prerequisite missing:"
REPO = Path(__file__).resolve().parents[1]
SBIN = "/usr/local/sbin:/usr/sbin:/sbin"


def in_ci() -> bool:
    """True when the environment says this is CI (`CI=true`, as .ci/run and CI services set it)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no", "off")


def shared_dir() -> Path:
    """The shared folder (fixtures, spec, scenarios): ../shared beside the checkout, or BWDOCTOR_SHARED_DIR."""
    override = os.environ.get("BWDOCTOR_SHARED_DIR", "").strip()
    return Path(override) if override else REPO.parent / "shared"


def _tool(name: str) -> bool:
    return bool(shutil.which(name) or shutil.which(name, path=SBIN))


def _postgres_server_binaries() -> bool:
    folders = [Path("/usr/local/bin"), *Path("/usr/lib/postgresql").glob("*/bin")]
    return any((folder / "initdb").exists() and (folder / "pg_ctl").exists() for folder in folders)


@dataclass(frozen=True)
class Prerequisite:
    """One thing a test needs from the machine, how to tell it is there, and how to get it."""

    name: str
    present: Callable[[], bool]
    how: str

    def reason(self, why: str = "") -> str:
        """The skip reason: the prefix CI recognises, the prerequisite, why the test needs it, how to enable it."""
        because = f" ({why})" if why else ""
        return f"{PREFIX} {self.name}{because}; to enable: {self.how}"


ROOT = Prerequisite("root", lambda: os.geteuid() == 0, "run the tests as root (sudo .venv/bin/pytest …)")
SHARED = Prerequisite("shared", lambda: shared_dir().is_dir(),
                      "put the shared folder beside the checkout as ../shared (or set BWDOCTOR_SHARED_DIR)")
POSTGRES = Prerequisite("postgres", lambda: bool(os.environ.get("BWDOCTOR_TEST_DATABASE_URL")),
                        "set BWDOCTOR_TEST_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test")
POSTGRES_SERVER = Prerequisite("postgres-server", _postgres_server_binaries,
                               "apt-get install postgresql (initdb and pg_ctl)")
CHROMIUM = Prerequisite("chromium", lambda: Path("/usr/bin/chromium").exists(), "apt-get install chromium")
IPERF3 = Prerequisite("iperf3", lambda: _tool("iperf3"), "apt-get install iperf3")
ETHTOOL = Prerequisite("ethtool", lambda: _tool("ethtool"), "apt-get install ethtool")
IPROUTE2 = Prerequisite("iproute2", lambda: all(_tool(t) for t in ("ip", "tc", "ss")), "apt-get install iproute2")

ALL = (ROOT, SHARED, POSTGRES, POSTGRES_SERVER, CHROMIUM, IPERF3, ETHTOOL, IPROUTE2)
BY_NAME = {p.name: p for p in ALL}


def missing(*prereqs: Prerequisite) -> list[Prerequisite]:
    """The ones of `prereqs` this machine lacks."""
    return [p for p in prereqs if not p.present()]


def _reason(lacking: list[Prerequisite], why: str) -> str:
    return "; ".join(p.reason(why) for p in lacking)


def needs(*prereqs: Prerequisite, why: str = "") -> pytest.MarkDecorator:
    """A skipif mark for tests that need `prereqs` (a failure in CI, see tests/conftest.py)."""
    lacking = missing(*prereqs)
    return pytest.mark.skipif(bool(lacking), reason=_reason(lacking, why) or "all present")


def require(*prereqs: Prerequisite, why: str = "") -> None:
    """Skip the running test or fixture unless `prereqs` are present (a failure in CI)."""
    lacking = missing(*prereqs)
    if lacking:
        pytest.skip(_reason(lacking, why))


def named_in(reason: str) -> list[Prerequisite]:
    """The prerequisites a skip reason names (none for a skip that is not about a prerequisite)."""
    return [BY_NAME[m] for m in re.findall(re.escape(PREFIX) + r" (\S+)", reason) if m in BY_NAME]
