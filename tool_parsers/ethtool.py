"""``ethtool <if>`` output → the NIC's rating (its fastest supported link mode), negotiated speed, link.

Linux keeps the modes a NIC supports out of sysfs (``/sys/class/net/<if>/speed`` is only what the
link negotiated), so a 100G NIC that came up at 25G is visible only here: ``Supported link modes``
lists ``100000baseCR4/Full`` while ``Speed`` says ``25000Mb/s``. A mode's name starts with its rate
in Mb/s (``25000baseSR/Full`` → 25 Gb/s, ``10000baseR_FEC`` → 10). Virtual NICs (virtio, veth) print
``Not reported`` and ENA without link config prints no link-mode lines at all: both mean unknown,
never a rating of 0. Lists continue on indented lines; old ethtool puts two modes on one line and
blogs turn tabs into spaces, so lines are split on whitespace, and a stray line (``netlink error:
Operation not permitted`` when not root) ends a list without spoiling it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_MODE = re.compile(r"^(\d{1,9})base[A-Za-z0-9_]+(?:/(?:Full|Half))?$")
_SPEED = re.compile(r"^(\d{1,9})\s*Mb/s$")
_KEY = re.compile(r"^\s*([A-Za-z][A-Za-z -]*?):\s*(.*?)\s*$")
_SETTINGS = re.compile(r"^Settings for (\S+?):\s*$")
_LISTS = {
    "supported link modes": "supported",
    "advertised link modes": "advertised",
    "link partner advertised link modes": "partner",
}


def mode_gbps(mode: str) -> float | None:
    """``100000baseCR4/Full`` → 100.0, ``2500baseT/Full`` → 2.5; anything else → None."""
    if not isinstance(mode, str):
        return None
    match = _MODE.match(mode.strip())
    if not match:
        return None
    mbps = int(match.group(1))
    return mbps / 1000.0 if mbps > 0 else None


def _fastest(modes: list[str]) -> float | None:
    rates = [r for r in (mode_gbps(m) for m in modes) if r is not None]
    return max(rates) if rates else None


@dataclass
class EthtoolSettings:
    """What one ``ethtool <if>`` says about the link. Mode lists are empty when not reported."""

    interface: str | None = None
    supported: list[str] = field(default_factory=list)
    advertised: list[str] = field(default_factory=list)
    partner: list[str] = field(default_factory=list)
    supported_line: str | None = None  # raw value after "Supported link modes:" ("Not reported", ...)
    speed_mbps: int | None = None  # negotiated; None for "Unknown!" or absent
    link_detected: bool | None = None
    port: str | None = None

    @property
    def max_supported_gbps(self) -> float | None:
        """The NIC's rating: the fastest supported mode, or None when ethtool does not list any."""
        return _fastest(self.supported)

    @property
    def max_advertised_gbps(self) -> float | None:
        return _fastest(self.advertised)

    @property
    def max_partner_gbps(self) -> float | None:
        """The fastest mode the switch port (link partner) offered, when the driver reports it."""
        return _fastest(self.partner)

    @property
    def speed_gbps(self) -> float | None:
        return self.speed_mbps / 1000.0 if self.speed_mbps else None

    @property
    def modes_reported(self) -> bool:
        """False for ``Not reported`` or a missing ``Supported link modes`` line (virtio, veth, ENA)."""
        return bool(self.supported)

    def facts(self) -> dict[str, Any]:
        """``nic.max_speed_gbps`` when the supported modes give one; nothing otherwise."""
        rating = self.max_supported_gbps
        return {"nic.max_speed_gbps": rating} if rating is not None else {}

    def describe(self) -> dict[str, Any]:
        """Plain data for a report's details: what was read, in Gb/s."""
        return {
            "interface": self.interface,
            "max_supported_gbps": self.max_supported_gbps,
            "max_advertised_gbps": self.max_advertised_gbps,
            "max_partner_gbps": self.max_partner_gbps,
            "speed_gbps": self.speed_gbps,
            "link_detected": self.link_detected,
            "port": self.port,
        }


def _modes(text: str) -> list[str] | None:
    """Mode tokens of a value or continuation line; None when the line is not a list of modes."""
    tokens = text.split()
    if tokens and all(_MODE.match(t) for t in tokens):
        return tokens
    return None


def _speed(value: str) -> int | None:
    match = _SPEED.match(value.strip())
    if not match:
        return None
    mbps = int(match.group(1))
    return mbps if mbps > 0 else None


def parse_ethtool(text: str) -> EthtoolSettings:
    """Parse the output of ``ethtool <if>``; unrecognised text gives empty settings, never an error."""
    result = EthtoolSettings()
    if not isinstance(text, str):
        return result
    current: list[str] | None = None  # the mode list that indented continuation lines extend
    for line in text.splitlines():
        if m := _SETTINGS.match(line.strip()):
            result.interface, current = m.group(1), None
            continue
        key_match = _KEY.match(line)
        if key_match is None:
            if current is not None and (more := _modes(line)):
                current.extend(more)
            else:
                current = None
            continue
        key, value = key_match.group(1).strip().lower(), key_match.group(2)
        current = None
        if key in _LISTS:
            target: list[str] = getattr(result, _LISTS[key])
            if key == "supported link modes":
                result.supported_line = value
            if modes := _modes(value):
                target.extend(modes)
                current = target
        elif key == "speed":
            result.speed_mbps = _speed(value)
        elif key == "link detected":
            word = value.split()[0].lower() if value.split() else ""
            result.link_detected = True if word == "yes" else False if word == "no" else None
        elif key == "port":
            result.port = value or None
    return result
