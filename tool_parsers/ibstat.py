"""``ibstat``, ``ibstatus``, ``ibv_devinfo`` and sysfs InfiniBand port files → link layer, state, rate.

A ConnectX port in Ethernet mode still shows up as an RDMA device: ``Link layer: Ethernet``
means RoCE, ``InfiniBand`` means native IB. ibstat prints ``Rate: 200`` (Gb/s) while sysfs
``ports/1/rate`` and ``ibstatus`` print ``200 Gb/sec (4X HDR)``; both parse to 200.
``ibv_devinfo`` prints ``state: PORT_ACTIVE (4)`` and ``link_layer: Ethernet``, and a rate only
with ``-v`` (``active_width: 4X (2)`` × ``active_speed: 25.0 Gbps (32)``). ``iblinkinfo`` prints each link as
``==( 4X 25.78125 Gbps Active/  LinkUp)==>``: the per-lane signalling rate (25.78125 for EDR) × the width,
which is read as the data rate the other tools print (4 × 25 = 100 Gb/s EDR), and ``( Could be 4X)`` where the
link trained narrower than both ends support.

A port that trained at 1X (``50 Gb/sec (1X HDR)``) where HCA ports are 4X runs at a quarter of its rate
(a bad cable or connector): its 4X rate is ``nic.max_speed_gbps``. 2X is left alone (NDR ports split in two
run 2X by design).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bwdoctor_parsers.notes import Note, make

_CA = re.compile(r"^CA '([^']+)'")
_PORT = re.compile(r"^\s*Port (\d+):")
_FIELD = re.compile(r"^\s*([A-Za-z ]+):\s*(.*?)\s*$")
_RATE = re.compile(r"([0-9]+(?:\.[0-9]+)?)")
_IBSTATUS = re.compile(r"^Infiniband device '([^']+)' port (\d+) status:")
_HCA_ID = re.compile(r"^hca_id:\s*(\S+)")
_DEVINFO_PORT = re.compile(r"^\s*port:\s*(\d+)\s*$")
_WIDTH = re.compile(r"(\d+)X")
_WIDTH_GEN = re.compile(r"\((\d+)X\s+(SDR|DDR|QDR|FDR10|FDR|EDR|HDR|NDR|XDR)\)", re.IGNORECASE)
# Data rate of one lane: by generation, and by iblinkinfo's signalling rate (64b/66b and PAM4 overheads aside).
_LANE_GBPS = {"SDR": 2.5, "DDR": 5.0, "QDR": 10.0, "FDR10": 10.0, "FDR": 14.0, "EDR": 25.0, "HDR": 50.0,
              "NDR": 100.0, "XDR": 200.0}
_SIGNAL_GBPS = {2.5: 2.5, 5.0: 5.0, 10.0: 10.0, 14.0625: 14.0, 25.78125: 25.0, 53.125: 50.0, 106.25: 100.0,
                212.5: 200.0}
_LINK = re.compile(r"(\d+)\[[^\]]*\]\s*==\(\s*(?:(\d+)X\s+([\d.]+)\s*Gbps(?:\s*\(FDR10\))?\s+)?"
                   r"(\w+)/\s*(\w+)\)==>(.*)$")
_COULD_BE_WIDTH = re.compile(r"Could be (?:[\dX ]+or )?(\d+)X\b")
_LINKINFO_NODE = re.compile(r"^(CA|Switch):\s*(?:0x[0-9a-fA-F]+\s+)?(.*?):?\s*$")
_LINE_MODE_NODE = re.compile(r"^\s*0x[0-9a-fA-F]+\s+\"\s*([^\"]*?)\s*\"")
FULL_WIDTH = 4  # lanes of an HCA port (QSFP)


@dataclass
class IbPort:
    """One port of one RDMA device."""

    device: str
    port: int
    state: str | None = None  # "Active", "Down", ... (sysfs "4: ACTIVE" → "Active")
    rate_gbps: float | None = None
    link_layer: str | None = None  # "InfiniBand" | "Ethernet"
    width: int | None = None  # lanes trained (1, 2, 4, ...), where the tool shows it
    max_rate_gbps: float | None = None  # the rate at full width, where the port runs narrower
    host: str | None = None  # iblinkinfo's CA description names its host ("gpu-v100-3 HCA-1")

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
    fabric: bool = False  # iblinkinfo without CA sections: switch ports too, so no count of this node's rails

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
                if not self.fabric:
                    out["nic.count"] = self._rails_per_host(rails)
            if best.max_rate_gbps and best.rate_gbps and best.max_rate_gbps > best.rate_gbps:
                out["nic.max_speed_gbps"] = best.max_rate_gbps
        return out

    @staticmethod
    def _rails_per_host(rails: list[IbPort]) -> int:
        """Rails of one node: iblinkinfo lists every CA of the fabric, each named by its host, so the CAs of two
        hosts are one rail each on two nodes, not two rails ('CA: gpu-v100-3 HCA-1:', 'CA: gpu-v100-0 HCA-1:')."""
        per_host: dict[str, int] = {}
        for port in rails:
            if port.host is None:
                return len(rails)
            per_host[port.host] = per_host.get(port.host, 0) + 1
        return max(per_host.values())

    def coded_notes(self) -> list[Note]:
        """Ports down, mixed rates, narrow links, a cut listing; each with a stable code."""
        out: list[Note] = []
        down = [f"{p.device}:{p.port}" for p in self.ports if p.state and not p.active]
        if down and self.active_ports and not self.fabric:  # a fabric has unused switch ports
            out.append(make(NOTES, "ibstat.ports_down", ports=", ".join(down[:6]) + (" ..." if len(down) > 6 else "")))
        kind = self.rails[0].kind if self.rails else None
        rates = sorted({p.rate_gbps for p in self.active_ports if p.rate_gbps and p.kind == kind})
        if len(rates) > 1:
            out.append(make(NOTES, "ibstat.mixed_rates", rates=", ".join(f"{r:g}" for r in rates)))
        for p in [p for p in self.active_ports if p.max_rate_gbps and p.width and p.rate_gbps][:3]:
            out.append(make(NOTES, "ibstat.narrow_link", port=f"{p.device}:{p.port}" if p.device else f"port {p.port}",
                            width=p.width, rate=p.rate_gbps, max_rate=p.max_rate_gbps))
        if self.partial:
            out.append(make(NOTES, "ibstat.partial"))
        return out

    def notes(self) -> list[str]:
        """The notes' English text (what the probe prints)."""
        return [n.text for n in self.coded_notes()]


NOTES = {
    "ibstat.ports_down": "RDMA ports not active: {ports}",
    "ibstat.mixed_rates": "RDMA ports of one kind run at different rates: {rates} Gb/s",
    "ibstat.narrow_link": "RDMA port {port} trained at {width}X ({rate:g} Gb/s) instead of {max_rate:g} Gb/s at full "
                          "width: check the cable and connector",
    "ibstat.partial": "RDMA port listing looks cut off (partial)",
}


def parse_rate(text: str) -> float | None:
    """``"200"`` or ``"200 Gb/sec (4X HDR)"`` → 200.0; anything else → None."""
    if not isinstance(text, str):
        return None
    match = _RATE.search(text)
    if not match:
        return None
    value = float(match.group(1))
    return value if value > 0 else None


def _narrow(port: IbPort, lane_gbps: float | None) -> None:
    """A 1X port: record its full-width (4X) rate."""
    if port.width == 1 and lane_gbps:
        port.max_rate_gbps = lane_gbps * FULL_WIDTH


def _rate_with_width(port: IbPort, value: str) -> None:
    """``200 Gb/sec (4X HDR)`` (ibstatus, sysfs): the rate, the width and, at 1X, the full-width rate."""
    port.rate_gbps = parse_rate(value)
    if m := _WIDTH_GEN.search(value):
        port.width = int(m.group(1))
        _narrow(port, _LANE_GBPS.get(m.group(2).upper()))


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
    if not result.ports:
        return parse_iblinkinfo(text)
    return result


def parse_iblinkinfo(text: str) -> IbstatResult:
    """Parse ``iblinkinfo`` (default or ``-l`` line mode): the CA ports when CA sections are shown, else every link."""
    result = IbstatResult()
    if not isinstance(text, str) or "==(" not in text:
        return result
    node_kind, node_name = "", ""
    ca_ports: list[IbPort] = []
    for line in text.splitlines():
        if m := _LINKINFO_NODE.match(line.strip()):
            node_kind, node_name = m.group(1), m.group(2).strip().strip('"')
            continue
        if not (m := _LINK.search(line)):
            continue
        name = node_name
        if lm := _LINE_MODE_NODE.match(line):
            name = lm.group(1)
        words = name.split()
        port = IbPort(device=words[-1] if words else "", port=int(m.group(1)),
                      state=parse_state(m.group(4)), link_layer="InfiniBand",
                      host=words[0] if node_kind == "CA" and len(words) >= 2 else None)
        if m.group(2) and m.group(3):
            port.width = int(m.group(2))
            signal = float(m.group(3))
            lane = _SIGNAL_GBPS.get(signal, signal)
            port.rate_gbps = round(port.width * lane, 3)
            if could := _COULD_BE_WIDTH.search(m.group(6)):
                wider = int(could.group(1))
                if wider > port.width:
                    port.max_rate_gbps = round(wider * lane, 3)
        result.ports.append(port)
        if node_kind == "CA":
            ca_ports.append(port)
    if ca_ports:
        result.ports = ca_ports
    else:
        result.fabric = True
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
            _rate_with_width(port, value)
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
            port.width = width
            _narrow(port, speed)
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
