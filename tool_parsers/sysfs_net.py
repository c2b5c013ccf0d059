"""/sys/class/net/<if>/speed and friends → link speed in Gb/s, or None when the kernel does not know.

Virtio and other virtual NICs report ``-1`` with the link up, and some (``lo``, ``ifb``) fail
the read with "Invalid argument": both mean "unknown", never 0 or −1 Gb/s.
"""

from __future__ import annotations

import re

_CAT = re.compile(r"^\$ cat /sys/class/net/([^/\s]+)/(\w+)\s*$")


def parse_speed_mbps(text: str | None) -> int | None:
    """Contents of a ``speed`` file → Mb/s, or None for ``-1``, errors, empty or garbage."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    try:
        value = int(text)
    except ValueError:
        return None
    return value if value > 0 else None


def speed_gbps(text: str | None) -> float | None:
    """Contents of a ``speed`` file → Gb/s (10000 → 10.0), or None when unknown."""
    mbps = parse_speed_mbps(text)
    return mbps / 1000.0 if mbps is not None else None


def parse_sysfs_snapshot(text: str) -> dict[str, dict[str, str | None]]:
    """A pasted ``$ cat /sys/class/net/<if>/<attr>`` transcript → {if: {attr: value or None on error}}."""
    out: dict[str, dict[str, str | None]] = {}
    if not isinstance(text, str):
        return out
    current: tuple[str, str] | None = None
    for line in text.splitlines():
        if m := _CAT.match(line):
            current = (m.group(1), m.group(2))
            out.setdefault(current[0], {})[current[1]] = None
            continue
        if line.startswith("$ "):
            current = None
            continue
        if current is not None:
            iface, attr = current
            value = None if line.startswith("cat: ") else line.strip()
            out[iface][attr] = value
            current = None
    return out
