"""Reports waiting for delivery, one JSON file each, oldest first; bounded in size.

Files are named by a growing sequence number, so delivery follows collection order across
restarts. When the spool is over its size bound the oldest reports go first, and every one
dropped is counted in ``dropped`` (persisted), so the loss is visible rather than silent.
Writes go through a temporary file and ``rename``: a crash never leaves half a report.
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path
from typing import Any, BinaryIO

from bwdoctor_probe.errors import ConfigError

_SUFFIX = ".json"


class Spool:
    """A directory of pending reports for one probe (guarded by a lock file)."""

    def __init__(self, directory: Path, *, max_bytes: int) -> None:
        self.directory = directory
        self.max_bytes = max_bytes
        self._lock: BinaryIO | None = None
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"spool_dir {directory}: cannot create it ({exc.strerror or exc})") from None

    def lock(self) -> None:
        """Refuse to share the spool with another running probe."""
        handle = open(self.directory / ".lock", "wb")  # held for the process lifetime
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise ConfigError(f"spool_dir {self.directory}: another agent-probe is using it") from None
        self._lock = handle

    def unlock(self) -> None:
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def pending(self) -> list[Path]:
        """Spooled reports, oldest first."""
        files = [p for p in self.directory.iterdir() if p.suffix == _SUFFIX and p.stem.isdigit()]
        return sorted(files, key=lambda p: int(p.stem))

    def size_bytes(self) -> int:
        return sum(_size(p) for p in self.pending())

    @property
    def dropped(self) -> int:
        try:
            return int((self.directory / "dropped").read_text().strip() or 0)
        except (OSError, ValueError):
            return 0

    def _count_dropped(self, n: int) -> None:
        _write_atomic(self.directory / "dropped", str(self.dropped + n).encode())

    def put(self, report: dict[str, Any]) -> Path | None:
        """Spool a report; drop the oldest while over the bound. None if the report alone is too big."""
        data = json.dumps(report, separators=(",", ":")).encode()
        if len(data) > self.max_bytes:
            self._count_dropped(1)
            return None
        existing = self.pending()
        sequence = int(existing[-1].stem) + 1 if existing else 1
        total = sum(_size(p) for p in existing) + len(data)
        dropped = 0
        for oldest in existing:
            if total <= self.max_bytes:
                break
            total -= _size(oldest)
            oldest.unlink(missing_ok=True)
            dropped += 1
        if dropped:
            self._count_dropped(dropped)
        path = self.directory / f"{sequence:012d}{_SUFFIX}"
        _write_atomic(path, data)
        return path

    def load(self, path: Path) -> dict[str, Any] | None:
        """A spooled report, or None (and the file removed, counted as dropped) when it is unreadable."""
        try:
            report = json.loads(path.read_bytes())
            if isinstance(report, dict):
                return report
        except (OSError, ValueError):
            pass
        path.unlink(missing_ok=True)
        self._count_dropped(1)
        return None

    def remove(self, path: Path) -> None:
        path.unlink(missing_ok=True)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _write_atomic(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    with open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
