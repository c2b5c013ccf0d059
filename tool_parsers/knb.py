"""knb (k8s-bench-suite's Kubernetes network benchmark) text output → the pod network's MTU and measured throughput.

knb runs iperf3 between two pods and prints a report::

     Discovered MTU         : 1440
      Pod to pod :
        TCP :
          bandwidth = 7328 Mbit/s
          client cpu = total 17.07% (user 2.41%, ...)
      Pod to Service :
        TCP :
          bandwidth = 6921 Mbit/s

'Discovered MTU' is the MTU of the pods' interface (the overlay's, below the host NIC's); the TCP bandwidth between
two pods is an iperf3 measurement, so it is ``net.iperf3_gbps`` (decimal units), never a NIC's rated speed. Pod to pod
comes before pod to service (a service adds kube-proxy's path); UDP figures are not read (knb's UDP runs are
rate-limited by its own settings). The idle and client/server cpu lines are knb's, not the training job's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_MTU = re.compile(r"^\s*Discovered MTU\s*:\s*(?P<mtu>\d{3,5})\s*$", re.M)
_SECTION = re.compile(r"^(?P<indent>\s*)(?P<name>Idle|Pod to pod|Pod to Service|[A-Za-z][\w ]{0,30}?)\s*:\s*$",
                      re.I)
_BANDWIDTH = re.compile(r"^\s*bandwidth\s*=\s*(?P<value>\d+(?:\.\d+)?)\s*(?P<prefix>[KMG]?)bit/s\s*$", re.I)
_PREFIX = {"": 1e-9, "K": 1e-6, "M": 1e-3, "G": 1.0}


@dataclass
class KnbResult:
    """The pods' MTU and the TCP bandwidth of each path knb measured (Gb/s by path name, lower case)."""

    mtu: int | None = None
    tcp_gbps: dict[str, float] = field(default_factory=dict)

    @property
    def gbps(self) -> float | None:
        for path in ("pod to pod", "pod to service"):
            if path in self.tcp_gbps:
                return self.tcp_gbps[path]
        return None

    def facts(self) -> dict[str, Any]:
        facts: dict[str, Any] = {}
        if self.mtu is not None:
            facts["nic.mtu"] = self.mtu
        if self.gbps is not None:
            facts["net.iperf3_gbps"] = round(self.gbps, 3)
        return facts


def looks_like_knb(text: str) -> bool:
    """True for knb's report: its 'Discovered …' banner or a 'bandwidth = N Mbit/s' line under a path."""
    return bool(isinstance(text, str) and (_MTU.search(text) or re.search(r"Discovered k8s version|"
                                                                           r"^\s*Pod to (?:pod|Service)\s*:", text,
                                                                           re.M | re.I)))


def parse_knb(text: str) -> KnbResult:
    """Parse knb's text report; anything else gives an empty result, never an exception."""
    result = KnbResult()
    if not isinstance(text, str) or not looks_like_knb(text):
        return result
    mtu = _MTU.search(text)
    if mtu and 576 <= int(mtu["mtu"]) <= 65536:
        result.mtu = int(mtu["mtu"])
    path: str | None = None
    protocol: str | None = None
    for line in text.splitlines():
        section = _SECTION.match(line)
        if section:
            name = section["name"].strip().lower()
            if name in ("tcp", "udp"):
                protocol = name
            else:
                path, protocol = name, None
            continue
        bandwidth = _BANDWIDTH.match(line)
        if bandwidth and path and protocol == "tcp" and path not in result.tcp_gbps:
            result.tcp_gbps[path] = float(bandwidth["value"]) * _PREFIX[bandwidth["prefix"].upper()]
    return result
