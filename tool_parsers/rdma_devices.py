"""RDMA device listings → whether an RDMA device is up, and whether its ports are InfiniBand or RoCE.

Read:

* ``ibdev2netdev`` (``mlx5_0 port 1 ==> ib0 (Up)``) and ``ibdev2netdev -v`` (``0000:17:00.0 mlx5_0 (MT4123 - …)
  ConnectX-6 … port 1 (ACTIVE) ==> ib0 (Up)``): an IPoIB netdev (``ib0``, ``ibp…``) means an InfiniBand port; an
  Ethernet netdev of a Mellanox/Broadcom RDMA device means RoCE.
* ``show_gids`` (``DEV PORT INDEX GID IPv4 VER DEV``): RoCE v2 entries exist only on RoCE ports. Which index NCCL
  uses is NCCL_IB_GID_INDEX's to say, not this table's.
* ``rdma link`` (``link mlx5_0/1 state ACTIVE physical_state LINK_UP netdev ens1f0``): an InfiniBand port prints its
  ``lid``/``sm_lid``, a RoCE port its ``netdev`` only.

Ports that are down say nothing; mixed InfiniBand and Ethernet ports (compute on IB, storage on RoCE) give no kind.
Unknown text gives an empty result, never an exception.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_ROCE_DEVICE = re.compile(r"^(?:mlx\d+_\w+|bnxt_re\w*|hns_?\w*)$")
_IB_NETDEV = re.compile(r"^ib[\w.]*$")
_IBDEV2NETDEV = re.compile(r"(?:^|\s)(?P<dev>[a-z][\w]*_\w+|[a-z]+\d+)\s(?:.*?\s)?port\s+(?P<port>\d+)\s*"
                           r"(?:\((?P<state>\w+)\)\s*)?==>\s*(?P<netdev>\S+)\s*\((?P<up>Up|Down)\)", re.IGNORECASE)
_GIDS_HEAD = re.compile(r"^\s*DEV\s+PORT\s+INDEX\s+GID\b")
_GIDS_ROW = re.compile(r"^\s*(?P<dev>\S+)\s+(?P<port>\d+)\s+(?P<index>\d+)\s+(?P<gid>[0-9a-fA-F:]{15,})\s+"
                       r"(?:(?P<ip>\d{1,3}(?:\.\d{1,3}){3}|[0-9a-fA-F:]*:[0-9a-fA-F:]*)\s+)?(?P<ver>v[12])\b"
                       r"(?:\s+(?P<netdev>\S+))?")
_RDMA_LINK = re.compile(r"^\s*link\s+(?P<dev>[\w.-]+)/(?P<port>\d+)\s+(?P<rest>.*)$")


@dataclass
class RdmaPort:
    device: str
    port: int
    up: bool
    kind: str | None = None  # "infiniband" / "roce" where the listing tells
    netdev: str | None = None


@dataclass
class RdmaDevices:
    """The ports listed, and the GID table's RoCE v2 entries with an IPv4 address."""

    tool: str | None = None
    ports: list[RdmaPort] = field(default_factory=list)
    roce_v2_ipv4: list[tuple[str, int]] = field(default_factory=list)  # (device, index)

    def facts(self) -> dict[str, Any]:
        """``nic.rdma`` (a port up) and ``nic.kind`` when every port that is up has the same kind."""
        up = [p for p in self.ports if p.up]
        if not up:
            return {}
        out: dict[str, Any] = {"nic.rdma": True}
        kinds = {p.kind for p in up}
        if len(kinds) == 1 and None not in kinds:
            out["nic.kind"] = kinds.pop()
        return out


def _netdev_kind(device: str, netdev: str) -> str | None:
    if _IB_NETDEV.match(netdev):
        return "infiniband"
    return "roce" if _ROCE_DEVICE.match(device) else None


def _ibdev2netdev(lines: list[str], result: RdmaDevices) -> None:
    for line in lines:
        if m := _IBDEV2NETDEV.search(line):
            netdev = m["netdev"]
            up = m["up"].lower() == "up" and (m["state"] or "ACTIVE").upper() in ("ACTIVE", "UP")
            result.ports.append(RdmaPort(m["dev"], int(m["port"]), up, _netdev_kind(m["dev"], netdev), netdev))


def _show_gids(lines: list[str], result: RdmaDevices) -> None:
    if not any(_GIDS_HEAD.match(line) for line in lines):
        return
    seen: dict[tuple[str, int], RdmaPort] = {}
    for line in lines:
        if not (m := _GIDS_ROW.match(line)):
            continue
        key = (m["dev"], int(m["port"]))
        # a GID table lists only ports that are up with an address; v2 entries exist only on RoCE
        port = seen.setdefault(key, RdmaPort(m["dev"], int(m["port"]), True, None, m["netdev"]))
        if m["ver"] == "v2":
            port.kind = "roce"
            if m["ip"] and "." in m["ip"]:
                result.roce_v2_ipv4.append((m["dev"], int(m["index"])))
    result.ports.extend(seen.values())


def _rdma_link(lines: list[str], result: RdmaDevices) -> None:
    for line in lines:
        if not (m := _RDMA_LINK.match(line)) or " state " not in f" {m['rest']} ":
            continue
        fields = m["rest"].split()
        pairs = dict(zip(fields[::2], fields[1::2], strict=False))
        up = pairs.get("state", "").upper() == "ACTIVE"
        if "lid" in pairs or "sm_lid" in pairs:
            kind: str | None = "infiniband"
        elif "netdev" in pairs:
            kind = _netdev_kind(m["dev"], pairs["netdev"])
        else:
            kind = None
        result.ports.append(RdmaPort(m["dev"], int(m["port"]), up, kind, pairs.get("netdev")))


def parse_rdma_devices(text: str) -> RdmaDevices:
    """Ports from any of the three listings; unknown text gives an empty result, never an exception."""
    result = RdmaDevices()
    if not isinstance(text, str) or not text.strip():
        return result
    lines = text.splitlines()
    for tool, reader in (("show_gids", _show_gids), ("ibdev2netdev", _ibdev2netdev), ("rdma link", _rdma_link)):
        reader(lines, result)
        if result.ports and result.tool is None:
            result.tool = tool
    return result


# What the chat's router looks for.
ROUTE = re.compile(r"\bport\s+\d+\s*(?:\(\w+\)\s*)?==>\s*\S+\s*\((?:Up|Down)\)|^\s*DEV\s+PORT\s+INDEX\s+GID\b|"
                   r"^\s*link\s+[\w.-]+/\d+\s+.*\bstate\s+(?:ACTIVE|DOWN|INIT|ARMED|POLLING)\b", re.M | re.I)
