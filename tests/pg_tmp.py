"""A throw-away PostgreSQL server in a temporary folder on a free port, run as the `postgres` user.

Tests that stop and start the database use this, never the shared instance.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.helpers import free_port


def pg_bin_dir() -> Path | None:
    """The folder with initdb and pg_ctl, if PostgreSQL's server binaries are installed."""
    candidates = ["/usr/local/bin", *sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)]
    for folder in candidates:
        if Path(folder, "initdb").exists() and Path(folder, "pg_ctl").exists():
            return Path(folder)
    return None


def available() -> bool:
    """Binaries present and we can run them as `postgres` (needs root for runuser)."""
    return pg_bin_dir() is not None and os.geteuid() == 0 and shutil.which("runuser") is not None


@dataclass
class TempPostgres:
    bin_dir: Path
    data_dir: Path
    socket_dir: Path
    port: int

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", *args], check=True, capture_output=True, text=True, timeout=120
        )

    def start(self) -> None:
        options = f"-p {self.port} -k {self.socket_dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.data_dir.parent / "postgres.log")
        self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data_dir), "-o", options, "-l", log, "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data_dir), "-m", mode, "-w", "stop")


@contextlib.contextmanager
def temp_postgres() -> Iterator[TempPostgres]:
    """initdb + start; stopped and deleted afterwards."""
    bin_dir = pg_bin_dir()
    assert bin_dir is not None
    root = Path(tempfile.mkdtemp(prefix="bwd-pg-"))
    shutil.chown(root, "postgres")
    os.chmod(root, 0o700)
    pg = TempPostgres(bin_dir, root / "data", root, free_port())
    pg._run(str(bin_dir / "initdb"), "-D", str(pg.data_dir), "-U", "postgres", "--auth=trust", "-E", "UTF8")
    pg.start()
    try:
        yield pg
    finally:
        with contextlib.suppress(Exception):
            pg.stop("immediate")
        shutil.rmtree(root, ignore_errors=True)
