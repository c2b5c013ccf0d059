"""``ip addr`` / ``ip -br addr`` / ``ip link`` / ``ip route`` / ``ifconfig`` → interfaces, MTU, bonds, shared subnets.

``ifconfig`` is read in both its forms: net-tools 2.x (``ens1f0: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 9000``
then ``inet 10.0.0.1  netmask 255.255.255.0``) and the old one (``eth0  Link encap:Ethernet``, ``inet addr:10.0.0.1
Mask:255.255.255.0``, ``UP BROADCAST RUNNING MULTICAST  MTU:9000  Metric:1``); an interface is up when it is UP and
RUNNING (the carrier is there).

Which interface carries training traffic is not in the output, so facts come only when it is plain:
one candidate (up, not loopback/docker/veth/bridge/virtual, with an IPv4 address) gives ``nic.name``
and ``nic.mtu``; candidates that all share one MTU give ``nic.mtu``; a bond with enslaved ports gives
``nic.bonded``. Two interfaces with addresses in one IPv4 subnet are worth a note: Linux may answer
ARP and send replies from either one (ARP flux), so traffic meant for one NIC leaves through the
other, and NCCL over sockets may use only one of them.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field
from typing import Any

from bwdoctor_parsers.notes import Note, make

_LINK = re.compile(r"^\d+:\s+([^:\s@]+)(?:@[^:\s]+)?:\s+<([^>]*)>\s+mtu\s+(\d+)(.*)$")
_INET = re.compile(r"^\s+inet\s+(\d{1,3}(?:\.\d{1,3}){3})/(\d{1,2})\b")
_BRIEF = re.compile(r"^([^\s@]+)(?:@\S+)?\s+(UP|DOWN|UNKNOWN|LOWERLAYERDOWN|DORMANT)\s*(.*)$")
_ROUTE = re.compile(r"^(default|\d{1,3}(?:\.\d{1,3}){3}(?:/\d{1,2})?)\s.*?\bdev\s+(\S+)")
_IFCONFIG = re.compile(r"^([^:\s]+):\s+flags=\d+<([^>]*)>\s+mtu\s+(\d+)")
_IFCONFIG_OLD = re.compile(r"^([^:\s]+)\s+Link encap:")
_IFCONFIG_INET = re.compile(r"^\s+inet\s+(?:addr:)?(\d{1,3}(?:\.\d{1,3}){3})\s+.*?\b(?:netmask\s+|Mask:)"
                            r"(\d{1,3}(?:\.\d{1,3}){3})")
_IFCONFIG_OLD_FLAGS = re.compile(r"^\s+((?:[A-Z]+\s)+)\s*MTU:(\d+)")
_VIRTUAL = re.compile(r"^(?:lo|docker|veth|virbr|br-|cni|flannel|cali|tun|tap|ifb|kube|vxlan|cilium|weave|dummy|"
                      r"tailscale|wg|zt)")


@dataclass
class Interface:
    name: str
    mtu: int | None = None
    up: bool = False
    flags: list[str] = field(default_factory=list)
    master: str | None = None
    ipv4: list[ipaddress.IPv4Interface] = field(default_factory=list)

    @property
    def candidate(self) -> bool:
        """Could carry training traffic: up, a real or bonded NIC, with an IPv4 address."""
        return self.up and bool(self.ipv4) and not _VIRTUAL.match(self.name) and self.master is None


@dataclass
class IpAddrResult:
    interfaces: list[Interface] = field(default_factory=list)
    default_dev: str | None = None
    routes: list[tuple[str, str]] = field(default_factory=list)  # (destination, dev)

    @property
    def candidates(self) -> list[Interface]:
        """Interfaces that could carry training traffic; in ``ip link`` output, which shows no address at all, the up
        NICs that are neither virtual nor enslaved to a bond."""
        if not any(i.ipv4 for i in self.interfaces):
            return [i for i in self.interfaces if i.up and not _VIRTUAL.match(i.name) and i.master is None]
        return [i for i in self.interfaces if i.candidate]

    @property
    def bonds(self) -> list[Interface]:
        enslaved = {i.master for i in self.interfaces if i.master}
        return [i for i in self.interfaces if i.name in enslaved or i.name.startswith("bond") and i.up]

    def shared_subnets(self) -> list[tuple[str, list[str]]]:
        """IPv4 networks that two or more candidate interfaces have addresses in."""
        by_net: dict[str, list[str]] = {}
        for iface in self.candidates:
            for addr in iface.ipv4:
                names = by_net.setdefault(str(addr.network), [])
                if iface.name not in names:
                    names.append(iface.name)
        shared = [(net, names) for net, names in by_net.items() if len(names) > 1]
        # Overlapping prefixes of different length (a /20 and a /24 of it) count as well.
        nets = [(ipaddress.ip_network(net), names) for net, names in by_net.items()]
        for i, (a, names_a) in enumerate(nets):
            for b, names_b in nets[i + 1:]:
                if a != b and a.overlaps(b) and set(names_a) != set(names_b):
                    shared.append((f"{a} / {b}", sorted(set(names_a) | set(names_b))))
        return shared

    def facts(self) -> dict[str, Any]:
        """``nic.name``/``nic.mtu`` when one interface is plain; ``nic.mtu`` when all share it; ``nic.bonded``."""
        out: dict[str, Any] = {}
        candidates = self.candidates
        if self.default_dev:
            default = [i for i in candidates if i.name == self.default_dev]
            candidates = default if len(candidates) > 1 and default and not self.shared_subnets() else candidates
        mtus = {i.mtu for i in candidates if i.mtu}
        if len(candidates) == 1:
            out["nic.name"] = candidates[0].name
        if len(mtus) == 1:
            out["nic.mtu"] = mtus.pop()
        bonds = [b for b in self.bonds if b.candidate]
        if bonds and any(i.master == bonds[0].name for i in self.interfaces):
            out["nic.bonded"] = True
        return out

    def coded_notes(self) -> list[Note]:
        """Interfaces sharing a subnet, differing MTUs; each with a stable code."""
        out: list[Note] = []
        for net, names in self.shared_subnets():
            out.append(make(NOTES, "ip.shared_subnet", names=", ".join(names), net=net))
        mtus = sorted({i.mtu for i in self.candidates if i.mtu})
        if len(mtus) > 1:
            listed = ", ".join(f"{i.name} {i.mtu}" for i in self.candidates if i.mtu)
            out.append(make(NOTES, "ip.mixed_mtu", listed=listed))
        return out

    def notes(self) -> list[str]:
        """The notes' English text (what the probe prints)."""
        return [n.text for n in self.coded_notes()]


NOTES = {
    "ip.shared_subnet": "ip addr: {names} have addresses in one subnet ({net}); Linux may send and answer ARP "
                        "through either (ARP flux), so traffic meant for one NIC can leave by the other",
    "ip.mixed_mtu": "ip addr: interfaces with different MTUs ({listed})",
}


def parse_ip_addr(text: str) -> IpAddrResult:
    """Parse ``ip addr``/``ip link``/``ip -br addr``/``ip route`` output; anything else gives an empty result."""
    result = IpAddrResult()
    if not isinstance(text, str):
        return result
    current: Interface | None = None
    for raw in text.splitlines():
        line = raw.replace("\r", "")
        if m := _LINK.match(line):
            flags = [f for f in m.group(2).split(",") if f]
            rest = m.group(4)
            state = re.search(r"\bstate\s+(\w+)", rest)
            master = re.search(r"\bmaster\s+(\S+)", rest)
            current = Interface(name=m.group(1), mtu=int(m.group(3)), flags=flags,
                                master=master.group(1) if master else None)
            current.up = "UP" in flags and (state is None or state.group(1) in ("UP", "UNKNOWN")) \
                and "NO-CARRIER" not in flags
            result.interfaces.append(current)
            continue
        if m := _IFCONFIG.match(line):
            flags = [f for f in m.group(2).split(",") if f]
            current = Interface(name=m.group(1), mtu=int(m.group(3)), flags=flags,
                                up="UP" in flags and "RUNNING" in flags)
            result.interfaces.append(current)
            continue
        if m := _IFCONFIG_OLD.match(line):
            current = Interface(name=m.group(1))
            result.interfaces.append(current)
            continue
        if current is not None and (m := _IFCONFIG_INET.match(line)):
            _add_ipv4(current, m.group(1), m.group(2))
            continue
        if current is not None and (m := _IFCONFIG_OLD_FLAGS.match(line)):
            current.flags = m.group(1).split()
            current.mtu = int(m.group(2))
            current.up = "UP" in current.flags and "RUNNING" in current.flags
            continue
        if current is not None and (m := _INET.match(line)):
            _add_ipv4(current, m.group(1), m.group(2))
            continue
        if m := _ROUTE.match(line):
            result.routes.append((m.group(1), m.group(2)))
            if m.group(1) == "default" and result.default_dev is None:
                result.default_dev = m.group(2)
            current = None
            continue
        if (m := _BRIEF.match(line)) and not line.startswith(" "):
            iface = Interface(name=m.group(1), up=m.group(2) in ("UP", "UNKNOWN"))
            for token in m.group(3).split():
                if "/" in token and "." in token:
                    addr, _, prefix = token.partition("/")
                    _add_ipv4(iface, addr, prefix)
            result.interfaces.append(iface)
            current = None
    return result


def _add_ipv4(iface: Interface, addr: str, prefix: str) -> None:
    try:
        iface.ipv4.append(ipaddress.IPv4Interface(f"{addr}/{prefix}"))
    except ValueError:
        pass
