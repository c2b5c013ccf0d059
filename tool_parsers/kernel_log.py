"""``dmesg`` / ``journalctl -k`` lines of NIC drivers → negotiated link speed, link drops, a PCIe slot too slow.

The kernel log is where a link tells its story: every driver prints a line when the link comes up
(with the speed it negotiated) and when it goes down, and at probe time a NIC in a slot narrower
than its ports says so. The shapes differ per driver, so speeds are read from the words around
"Link is Up" in any of them:

- ixgbe/igb/e1000e: ``eth0: NIC Link is Up 10 Gbps, Flow Control: RX/TX`` / ``NIC Link is Up 1000 Mbps Full Duplex``
- i40e/ice: ``NIC Link is Up, 40 Gbps Full Duplex`` / ``NIC Link is up 100 Gbps Full Duplex, Requested FEC: …``
- bnxt_en: ``NIC Link is Up, 25000 Mbps full duplex``; tg3: ``Link is up at 1000 Mbps, full duplex``
- phylib (r8169, stmmac …): ``Link is Up - 1Gbps/Full - flow control rx/tx``
- mlx5_core: ``ens1f0: Link up`` / ``Link down`` (no speed); bonding: ``link status definitely down for interface eth1``

A link that goes down after it was up (a flap) is what drops NCCL's connections mid-run; a "down"
printed before the first "up" is the driver initialising and says nothing. The PCIe warning is
the kernel's own (``63.008 Gb/s available PCIe bandwidth, limited by 8.0 GT/s PCIe x8 link``) or
the driver's (ixgbe/i40e: ``This is not sufficient for optimal performance of this card``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bwdoctor_parsers.notes import Note, make

NOTES = {
    "kernel.link_flaps": "kernel log: the link of {interfaces} went down after it was up ({downs} times)",
    "kernel.pcie_limited": "kernel log: the NIC's PCIe slot limits it ({line})",
}

# '0000:82:00.0 eth0:' or 'e1000e: eth0' or 'bond0:' — the interface a line is about (the last name before the verb).
_IFACE = re.compile(r"(?:^|[\s:])(?P<iface>(?:eth|ens|enp|eno|ib|bond|em|p\d+p|enP|ibp|hsn|net)[\w.\-]*)\s*:\s")
_UP = re.compile(r"\b(?:NIC )?Link (?:is )?up\b(?P<tail>.*)$|"
                 r"link status definitely up for interface (?P<slave>[^\s,]+)(?P<slave_tail>.*)$", re.IGNORECASE)
_DOWN = re.compile(r"\b(?:NIC )?Link (?:is )?down\b|link status definitely down for interface (?P<slave>[^\s,]+)|"
                   r"\bcarrier lost\b|\blink becomes? down\b", re.IGNORECASE)
_SPEED = re.compile(r"(?P<n>\d+(?:\.\d+)?)\s*(?P<u>[MG])(?:bps|b/s|bit/s|B/s)?(?=[\s,/]|$)", re.IGNORECASE)
_PCIE_LIMITED = re.compile(r"available PCIe bandwidth,?\s+limited by|not sufficient for optimal performance|"
                           r"at least \d+\s*GT/s of bandwidth is required", re.IGNORECASE)


@dataclass
class KernelLogResult:
    """What the NIC drivers' lines of a kernel log say."""

    up_gbps: dict[str, list[float]] = field(default_factory=dict)  # interface → speeds of its 'Link is Up' lines
    flaps: dict[str, int] = field(default_factory=dict)  # interface → downs after it was up
    pcie_limited_line: str | None = None
    recognised: int = 0  # driver lines read (up, down or PCIe)

    @property
    def link_flaps(self) -> bool:
        return any(self.flaps.values())

    @property
    def speed_gbps(self) -> float | None:
        """The negotiated speed, when every interface that came up says the same one (a 1G management port beside a
        100G data port leaves it open: which one trains is not in the log)."""
        last = {speeds[-1] for speeds in self.up_gbps.values() if speeds}
        return last.pop() if len(last) == 1 else None

    def facts(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.speed_gbps is not None:
            out["nic.speed_gbps"] = self.speed_gbps
        if self.link_flaps:
            out["nic.link_flaps"] = True
        if self.pcie_limited_line:
            out["nic.pcie_limited"] = True
        return out

    def coded_notes(self) -> list[Note]:
        notes = []
        if self.link_flaps:
            names = ", ".join(sorted(i for i, n in self.flaps.items() if n))
            notes.append(make(NOTES, "kernel.link_flaps", interfaces=names, downs=sum(self.flaps.values())))
        if self.pcie_limited_line:
            notes.append(make(NOTES, "kernel.pcie_limited", line=self.pcie_limited_line[:120]))
        return notes


def _speed(tail: str) -> float | None:
    match = _SPEED.search(tail)
    if not match:
        return None
    value = float(match["n"]) * (1.0 if match["u"].upper() == "G" else 0.001)
    return value if 0.01 <= value <= 1600 else None


def _last(matches: Any) -> re.Match[str] | None:
    """The last of a line's interface names: the one the message is about ('igb 0000:02:00.0 eno1: igb: eno1 …')."""
    found = None
    for found in matches:  # noqa: B007 - keeps the last
        continue
    return found


def parse_kernel_log(text: str) -> KernelLogResult:
    """Read the NIC lines of a kernel log; other lines are skipped, garbage gives an empty result."""
    result = KernelLogResult()
    if not isinstance(text, str):
        return result
    seen_up: set[str] = set()
    for line in text.splitlines():
        if _PCIE_LIMITED.search(line):
            result.pcie_limited_line = result.pcie_limited_line or line.strip()
            result.recognised += 1
            continue
        iface_match = _last(_IFACE.finditer(line))
        down = _DOWN.search(line)
        up = None if down else _UP.search(line)
        event = down or up
        if event is None:
            continue
        named = event["slave"]
        iface = named or (iface_match["iface"] if iface_match else "?")
        result.recognised += 1
        if up:
            seen_up.add(iface)
            speed = _speed(up["tail"] if up["tail"] is not None else up["slave_tail"])
            if speed is not None:
                result.up_gbps.setdefault(iface, []).append(speed)
        elif iface in seen_up:
            result.flaps[iface] = result.flaps.get(iface, 0) + 1
    return result
