"""``ibstat``, ``ibstatus``, ``ibv_devinfo`` and sysfs InfiniBand port files → link layer, state, rate.

A ConnectX port in Ethernet mode still shows up as an RDMA device: ``Link layer: Ethernet``
means RoCE, ``InfiniBand`` means native IB. ibstat prints ``Rate: 200`` (Gb/s) while sysfs
``ports/1/rate`` and ``ibstatus`` print ``200 Gb/sec (4X HDR)``; both parse to 200.
``ibv_devinfo`` prints ``state: PORT_ACTIVE (4)`` and ``link_layer: Ethernet``, and a rate only
with ``-v`` (``active_width: 4X (2)`` × ``active_speed: 25.0 Gbps (32)``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_CA = re.compile(r"^CA '([^']+)'")
_PORT = re.compile(r"^\s*Port (\d+):")
_FIELD = re.compile(r"^\s*([A-Za-z ]+):\s*(.*?)\s*$")
_RATE = re.compile(r"([0-9]+(?:\.[0-9]+)?)")
_IBSTATUS = re.compile(r"^Infiniband device '([^']+)' port (\d+) status:")
_HCA_ID = re.compile(r"^hca_id:\s*(\S+)")
_DEVINFO_PORT = re.compile(r"^\s*port:\s*(\d+)\s*$")
_WIDTH = re.compile(r"(\d+)X")


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

    @property
    def rails(self) -> list[IbPort]:
        """Active ports like the fastest one (same link layer and rate): the rails training uses.

        A management port (a 25G Ethernet ConnectX beside eight 400G IB HCAs) is not a rail.
        """
        active = self.active_ports
        if not active:
            return []
        best = max(active, key=lambda p: p.rate_gbps or 0.0)
        return [p for p in active if p.rate_gbps == best.rate_gbps and p.kind == best.kind]

    @property
    def partial(self) -> bool:
        """A port section without any of its fields (the paste stops inside it)."""
        return any(p.state is None and p.rate_gbps is None and p.link_layer is None for p in self.ports)

    def facts(self) -> dict[str, Any]:
        """``nic.rdma``; from the fastest active port ``nic.kind`` and ``nic.speed_gbps``; ``nic.count`` of rails."""
        if not self.ports:
            return {}
        active = self.active_ports
        out: dict[str, Any] = {"nic.rdma": bool(active)}
        rails = self.rails
        if rails:
            best = rails[0]
            if best.kind:
                out["nic.kind"] = best.kind
            if best.rate_gbps:
                out["nic.speed_gbps"] = best.rate_gbps
                out["nic.count"] = len(rails)
        return out

    def notes(self) -> list[str]:
        out: list[str] = []
        down = [f"{p.device}:{p.port}" for p in self.ports if p.state and not p.active]
        if down and self.active_ports:
            out.append(f"RDMA ports not active: {', '.join(down[:6])}" + (" ..." if len(down) > 6 else ""))
        kind = self.rails[0].kind if self.rails else None
        rates = sorted({p.rate_gbps for p in self.active_ports if p.rate_gbps and p.kind == kind})
        if len(rates) > 1:
            out.append(f"RDMA ports of one kind run at different rates: {', '.join(f'{r:g}' for r in rates)} Gb/s")
        if self.partial:
            out.append("RDMA port listing looks cut off (partial)")
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


def parse_ib_ports(text: str) -> IbstatResult:
    """Parse whichever of ``ibstat``, ``ibstatus`` and ``ibv_devinfo`` the text holds (several may)."""
    result = IbstatResult()
    if not isinstance(text, str):
        return result
    result.ports.extend(parse_ibstat(text).ports)
    result.ports.extend(parse_ibstatus(text).ports)
    seen = {(p.device, p.port) for p in result.ports}
    result.ports.extend(p for p in parse_ibv_devinfo(text).ports if (p.device, p.port) not in seen)
    return result


def parse_ibstatus(text: str) -> IbstatResult:
    """Parse ``ibstatus`` (``Infiniband device 'mlx5_0' port 1 status:`` sections)."""
    result = IbstatResult()
    if not isinstance(text, str):
        return result
    port: IbPort | None = None
    for line in text.splitlines():
        if m := _IBSTATUS.match(line.strip()):
            port = IbPort(device=m.group(1), port=int(m.group(2)))
            result.ports.append(port)
            continue
        if port is None or not (m := _FIELD.match(line.replace("_", " "))):
            if not line.strip():
                continue
            if not line[:1].isspace():
                port = None
            continue
        key, value = m.group(1).strip().lower(), m.group(2)
        if key == "state":
            port.state = parse_state(value)
        elif key == "rate":
            port.rate_gbps = parse_rate(value)
        elif key == "link layer":
            port.link_layer = value
    return result


def parse_ibv_devinfo(text: str) -> IbstatResult:
    """Parse ``ibv_devinfo`` (``-v`` adds ``active_width`` and ``active_speed``, hence a rate)."""
    result = IbstatResult()
    if not isinstance(text, str) or "hca_id" not in text:
        return result
    device: str | None = None
    port: IbPort | None = None
    width: int | None = None
    for line in text.splitlines():
        if m := _HCA_ID.match(line.strip()):
            device, port = m.group(1), None
            continue
        if device is None:
            continue
        if m := _DEVINFO_PORT.match(line):
            port, width = IbPort(device=device, port=int(m.group(1))), None
            result.ports.append(port)
            continue
        if port is None or ":" not in line:
            continue
        key, _, value = line.strip().partition(":")
        key, value = key.strip().lower(), value.strip()
        if key == "state":
            word = value.split()[0] if value.split() else ""
            port.state = word.removeprefix("PORT_").capitalize() or None
        elif key == "link_layer":
            port.link_layer = value or None
        elif key == "active_width" and (w := _WIDTH.match(value)):
            width = int(w.group(1))
        elif key == "active_speed" and width and (speed := parse_rate(value)):
            port.rate_gbps = round(width * speed, 3)
    return result


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
