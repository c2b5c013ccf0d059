"""``ibstat`` output and sysfs InfiniBand port files → link layer (InfiniBand or RoCE), state, rate.

A ConnectX port in Ethernet mode still shows up as an RDMA device: ``Link layer: Ethernet``
means RoCE, ``InfiniBand`` means native IB. ibstat prints ``Rate: 200`` (Gb/s) while sysfs
``ports/1/rate`` prints ``200 Gb/sec (4X HDR)``; both parse to 200.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_CA = re.compile(r"^CA '([^']+)'")
_PORT = re.compile(r"^\s*Port (\d+):")
_FIELD = re.compile(r"^\s*([A-Za-z ]+):\s*(.*?)\s*$")
_RATE = re.compile(r"([0-9]+(?:\.[0-9]+)?)")


@dataclass
class IbPort:
    """One port of one RDMA device."""

    device: str
    port: int
    state: str | None = None  # "Active", "Down", ... (sysfs "4: ACTIVE" → "Active")
    rate_gbps: float | None = None
    link_layer: str | None = None  # "InfiniBand" | "Ethernet"

    @property
    def kind(self) -> str | None:
        """``infiniband`` or ``roce`` (the values of the fact nic.kind)."""
        if not self.link_layer:
            return None
        return "roce" if self.link_layer.lower() == "ethernet" else "infiniband"

    @property
    def active(self) -> bool:
        return (self.state or "").lower() == "active"


@dataclass
class IbstatResult:
    ports: list[IbPort] = field(default_factory=list)

    @property
    def active_ports(self) -> list[IbPort]:
        return [p for p in self.ports if p.active]

    def facts(self) -> dict[str, Any]:
        """``nic.rdma`` and, from the fastest active port, ``nic.kind``."""
        if not self.ports:
            return {}
        active = self.active_ports
        out: dict[str, Any] = {"nic.rdma": bool(active)}
        if active:
            best = max(active, key=lambda p: p.rate_gbps or 0.0)
            if best.kind:
                out["nic.kind"] = best.kind
        return out


def parse_rate(text: str) -> float | None:
    """``"200"`` or ``"200 Gb/sec (4X HDR)"`` → 200.0; anything else → None."""
    if not isinstance(text, str):
        return None
    match = _RATE.search(text)
    if not match:
        return None
    value = float(match.group(1))
    return value if value > 0 else None


def parse_state(text: str) -> str | None:
    """sysfs ``"4: ACTIVE"`` or ibstat ``"Active"`` → ``"Active"``."""
    if not isinstance(text, str) or not text.strip():
        return None
    word = text.split(":")[-1].strip()
    return word.capitalize() if word else None


def parse_ibstat(text: str) -> IbstatResult:
    """Parse ``ibstat`` output; no CA sections gives an empty result."""
    result = IbstatResult()
    if not isinstance(text, str):
        return result
    device: str | None = None
    port: IbPort | None = None
    for line in text.splitlines():
        if m := _CA.match(line):
            device, port = m.group(1), None
            continue
        if device is None:
            continue
        if m := _PORT.match(line):
            port = IbPort(device=device, port=int(m.group(1)))
            result.ports.append(port)
            continue
        if port is None or not (m := _FIELD.match(line)):
            continue
        key, value = m.group(1).strip().lower(), m.group(2)
        if key == "state":
            port.state = parse_state(value)
        elif key == "rate":
            port.rate_gbps = parse_rate(value)
        elif key == "link layer":
            port.link_layer = value
    return result
