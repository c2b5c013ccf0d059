"""Where the service keeps its files when nobody says otherwise: one absolute place per user.

A relative default (`sqlite:///bwdoctor.db`) meant `bwdoctor tokens create` run in one folder and
`bwdoctor serve` run in another used two databases, and the probe's token was "unknown". So the
default SQLite file lives in `BWDOCTOR_HOME` when set, else the platform's per-user data folder:
`$XDG_DATA_HOME/bwdoctor` (`~/.local/share/bwdoctor`) on Linux, `~/Library/Application
Support/bwdoctor` on macOS, `%LOCALAPPDATA%\\bwdoctor` on Windows.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP_DIR = "bwdoctor"
DB_FILE = "bwdoctor.db"


def data_home(environ: dict[str, str] | None = None, platform: str | None = None) -> Path:
    """The folder for the default database (not created here): BWDOCTOR_HOME, else the platform's."""
    env = os.environ if environ is None else environ
    platform = platform or sys.platform
    if env.get("BWDOCTOR_HOME", "").strip():
        return Path(env["BWDOCTOR_HOME"].strip()).expanduser().resolve()
    home = Path(env.get("HOME") or Path.home())
    if platform == "darwin":
        return home / "Library" / "Application Support" / APP_DIR
    if platform.startswith("win"):
        return Path(env.get("LOCALAPPDATA") or home / "AppData" / "Local") / APP_DIR
    xdg = env.get("XDG_DATA_HOME", "").strip()
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".local" / "share"
    return base / APP_DIR


def default_database_url(environ: dict[str, str] | None = None) -> str:
    """`sqlite:////abs/path/bwdoctor.db` in data_home(): the same file whatever the current folder."""
    return f"sqlite:///{(data_home(environ) / DB_FILE).as_posix()}"


def ensure_sqlite_folder(url: str) -> None:
    """Create the default database's folder so the first start works on a fresh machine. A folder
    someone configured is left alone: a typo there is an error to see, not a folder to create."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return
    folder = Path(parsed.database).expanduser().parent
    if folder == data_home():
        folder.mkdir(parents=True, exist_ok=True)


def shown_database_url(url: str) -> str:
    """The URL for people: the password masked (***), everything else as configured."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
