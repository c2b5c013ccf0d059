"""NCCL_DEBUG=INFO lines → which transport NCCL chose, over which interface, and GPUDirect RDMA.

The lines may carry any prefix (``host:pid:tid [dev]``, ``[1,0]<stdout>:``, ``[rank0]:``) or
none, so every pattern is searched anywhere in a line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_USING_NETWORK = re.compile(r"NCCL INFO Using network (\S.*?)\s*$")
_NET_SOCKET = re.compile(r"NET/Socket\s*:\s*Using\s+(.*)$")
_NET_IB = re.compile(r"NET/IB\s*:\s*Using\s+(.*)$")
_IB_DEVICE = re.compile(r"\[\d+\]([\w.\-]+):(\d+)/(IB|RoCE)", re.IGNORECASE)
_IFACE = re.compile(r"\[\d+\]([\w.\-@]+):")
_VIA = re.compile(r"via NET/([A-Za-z]+)(/\d+)?(/GDRDMA)?")
_ENV = re.compile(r"(NCCL_[A-Z_]+) set by environment to (\S+?)\.?\s*$")
_GDR_DISABLED = re.compile(r"GPU Direct RDMA Disabled[^\n]*", re.IGNORECASE)
_NO_IB_DEVICE = re.compile(r"NET/IB\s*:\s*No device found", re.IGNORECASE)
_VERSION = re.compile(r"NCCL version (\d+\.\d+\.\d+)")
_PLUGIN_LOADED = re.compile(r"NET/Plugin\s*:?\s*(?:Loaded|Plugin name set by env to|Using)\s+(.*?)\s*$")


@dataclass
class NcclLogResult:
    """What one or more NCCL_DEBUG=INFO logs say about the network path."""

    transport: str | None = None  # ib | socket | other
    network_name: str | None = None  # as NCCL names it: "IB", "Socket", "AWS Libfabric", ...
    socket_ifnames: list[str] = field(default_factory=list)
    ib_devices: list[str] = field(default_factory=list)  # "mlx5_0:1"
    ib_link_layer: str | None = None  # "ib" | "roce"
    ib_disabled: bool | None = None
    gdr_disabled: bool = False
    gdr_connections: int = 0
    net_connections: int = 0
    env: dict[str, str] = field(default_factory=dict)
    nccl_version: str | None = None
    evidence: list[str] = field(default_factory=list)

    @property
    def gdr_partial(self) -> bool:
        """Some network connections use GPUDirect RDMA and some do not (e.g. one node lacks it)."""
        return 0 < self.gdr_connections < self.net_connections

    def facts(self) -> dict[str, Any]:
        """``nccl.transport``, ``socket_ifname``, ``ib_disabled``, ``gdr_disabled``, ``gdr_partial`` where shown."""
        out: dict[str, Any] = {}
        if self.transport:
            out["nccl.transport"] = self.transport
        if self.socket_ifnames and self.transport in (None, "socket"):
            out["nccl.socket_ifname"] = self.socket_ifnames[0]
        if self.ib_disabled is not None:
            out["nccl.ib_disabled"] = self.ib_disabled
        if self.transport == "socket":
            return out  # GPUDirect RDMA is a question for RDMA transports only
        if self.gdr_disabled or (self.transport == "ib" and self.net_connections and not self.gdr_connections):
            out["nccl.gdr_disabled"] = True  # said outright, or no IB connection carries "/GDRDMA"
        elif self.net_connections and self.gdr_connections == self.net_connections:
            out["nccl.gdr_disabled"] = False
        if self.net_connections:
            out["nccl.gdr_partial"] = self.gdr_partial
        return out


def _classify(name: str) -> str:
    """NCCL's network name → ib | socket | other (plugins such as Libfabric, FasTrak, TCPX)."""
    lowered = name.strip().lower()
    if lowered.startswith("socket"):
        return "socket"
    if lowered == "ib" or lowered.startswith(("ibext", "ib_")):
        return "ib"
    return "other"


def _truthy(value: str) -> bool | None:
    if value.strip().lower() in ("1", "true", "yes", "on"):
        return True
    if value.strip().lower() in ("0", "false", "no", "off"):
        return False
    return None


def parse_nccl_log(text: str) -> NcclLogResult:
    """Parse NCCL_DEBUG=INFO output; text without NCCL lines gives an empty result."""
    result = NcclLogResult()
    if not isinstance(text, str):
        return result
    via_kinds: list[str] = []
    ib_initialised = False
    for raw in text.splitlines():
        line = raw.replace("\r", "").rstrip()
        if "NCCL" not in line and "NET/" not in line:
            continue
        if m := _USING_NETWORK.search(line):
            result.network_name = m.group(1)
            result.transport = _classify(m.group(1))
            result.evidence.append(line.strip())
        if m := _NET_SOCKET.search(line):
            for name in _IFACE.findall(m.group(1)):
                if name not in result.socket_ifnames:
                    result.socket_ifnames.append(name)
        if m := _NET_IB.search(line):
            ib_initialised = True
            for dev, port, layer in _IB_DEVICE.findall(m.group(1)):
                key = f"{dev}:{port}"
                if key not in result.ib_devices:
                    result.ib_devices.append(key)
                result.ib_link_layer = "roce" if layer.lower() == "roce" else "ib"
        if _NO_IB_DEVICE.search(line):
            result.evidence.append(line.strip())
        for kind, _index, gdr in _VIA.findall(line):
            via_kinds.append(kind)
            result.net_connections += 1
            if gdr:
                result.gdr_connections += 1
        if m := _ENV.search(line):
            result.env[m.group(1)] = m.group(2)
            if m.group(1) == "NCCL_IB_DISABLE":
                result.ib_disabled = _truthy(m.group(2))
        if _GDR_DISABLED.search(line):
            result.gdr_disabled = True
            result.evidence.append(line.strip())
        if m := _VERSION.search(line):
            result.nccl_version = m.group(1)
        if result.network_name is None and (m := _PLUGIN_LOADED.search(line)):
            if "No plugin found" not in line:
                result.evidence.append(line.strip())

    if result.transport is None and via_kinds:
        # Older NCCL prints no "Using network" line; the ring/channel connections say it.
        kinds = {_classify(k) for k in via_kinds}
        result.transport = "ib" if kinds == {"ib"} else ("socket" if kinds == {"socket"} else "other")
        result.network_name = via_kinds[-1]
    if result.transport is None and ib_initialised:
        result.transport = "ib"
        result.network_name = "IB"
    if result.transport is None and result.socket_ifnames:
        result.transport = "socket"
        result.network_name = "Socket"
    wanted = result.env.get("NCCL_SOCKET_IFNAME", "")
    if not result.socket_ifnames and result.transport == "socket" and wanted and not wanted.startswith("^"):
        # "=eth0" is an exact name, "eth" a prefix; "^docker" excludes and names nothing.
        result.socket_ifnames.append(wanted.lstrip("=").split(",")[0])
    return result
