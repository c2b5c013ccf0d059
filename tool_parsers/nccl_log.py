"""NCCL_DEBUG=INFO lines → which transport NCCL chose, over which interface, GPUDirect RDMA, plugins.

The lines may carry any prefix (``host:pid:tid [dev]``, ``[1,0]<stdout>:``, ``[rank0]:``, a
timestamp, a CloudWatch column) or none, so every pattern is searched anywhere in a line. Old and
new NCCL word things differently and all of these are read:

- the network: ``Using network IB`` / ``Socket`` / ``AWS Libfabric`` (2.x), ``Initialized NET plugin
  Socket`` / ``Assigned NET plugin Socket to comm`` (2.2x), or, before 2.4, only the channel lines
  ``Ring 00 : 3 -> 4 [send] via NET/Socket/0``, ``via NET/IB/0/GDRDMA``, ``via NET/AWS Libfabric/0``;
- the devices: ``NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/IB``, ``NET/Socket : Using [0]eth0:10.0.0.1<0>``,
  the bootstrap interface ``Bootstrap : Using eth0:10.0.0.1<0>`` (``Bootstrap: Using lo:...`` in 2.2x);
- GPUDirect RDMA: ``/GDRDMA`` on a channel, ``GPU Direct RDMA Disabled for HCA 0 'mlx5_0'``,
  ``GPU Direct RDMA Enabled for HCA 0 'mlx5_0'``, and the communicator's own verdict after the rings connect
  (``Connected all rings, use ring PXN 0 GDR 1``: GDR 1 uses it, GDR 0 does not);
- the external net plugin: missing (``NET/Plugin : No plugin found (libnccl-net.so)``, ``NET/Plugin:
  Could not find: libnccl-net.so``, ``dlerror=libnccl-net.so: cannot open shared object file``) or
  loaded (``NET/Plugin: Loaded net plugin ...``, ``Plugin Path : .../libnccl-net.so``, aws-ofi-nccl's
  ``NET/OFI ...`` lines such as ``Selected Provider is efa``). ``Failed to find ncclCollNetPlugin``
  concerns CollNet only and says nothing about the net plugin;
- settings NCCL echoes (``NCCL_IB_HCA set to mlx5_0``, ``NCCL_P2P_DISABLE set by environment to 1.``),
  the version (``NCCL version 2.18.3+cuda12.1``) and the topology search (``type NVL/PIX``);
- the job's shape: ``comm 0x... rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0`` (NCCL ≥ 2.20)
  gives nodes and GPUs per node; before it, ``comm 0x... rank 3 nranks 16 cudaDev 3 ... - Init COMPLETE``
  gives only the rank count, so nodes are counted from the ``host:pid:tid`` prefixes only when every
  rank's Init COMPLETE line is there.

``nccl.socket_ifname`` is the interface NCCL is told to use: the echoed ``NCCL_SOCKET_IFNAME set by environment
to en`` when the log has it (a prefix such as ``en`` matches ``enp225s0f1``, which the ``Using`` lines name), else the
interface the ``NET/Socket : Using`` lines show NCCL using.

``nccl.ib_disabled`` means "NCCL_IB_DISABLE=1 is in effect". A log that shows NCCL carrying traffic over
IB anyway (``Using network IB`` / ``IBext``, ``NET/IB : Using [0]mlx5_0:1/IB``) proves it was not in effect
for that run (the variable did not reach the ranks, or an external IB plugin ignores it), so the log's
transport decides: ``nccl.ib_disabled`` is False there, and a note says the setting was echoed but not obeyed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bwdoctor_parsers.nccl_env import env_facts, truthy
from bwdoctor_parsers.notes import Note, make

# "NCCL INFO Using network IB"; NCCL 2.2–2.3 said "INFO Using internal Network IB" (no NCCL prefix).
# (a line quoted in a sentence ends at its closing quote: "'NCCL INFO Using network IB' and …"; job-s11 quoted)
_USING_NETWORK = re.compile(r"INFO Using (?:internal )?[Nn]etwork ([^'\"`‘’“”\s][^'\"`‘’“”]*?)\s*(?:['\"`‘’“”]|$)")
_NET_PLUGIN_NAME = re.compile(r"(?:Initialized|Assigned) NET plugin (\S+)")
_NET_SOCKET = re.compile(r"NET/Socket\s*:\s*Using\s+(.*)$")
# NCCL 2.3 and older list the socket interfaces one a line: 'NET : Using interface eth1:9.73.128.149<0>', then
# 'NET/Socket : 2 interfaces found' (the socket transport's own count)
_OLD_NET_IFACE = re.compile(r"NET\s*:\s*Using interface\s+([A-Za-z][\w.\-]*):")
_OLD_SOCKET_FOUND = re.compile(r"NET/Socket\s*:\s*\d+\s+interfaces?\s+found")
_NET_IB = re.compile(r"NET/IB\s*:\s*Using\s+(.*)$")
_BOOTSTRAP = re.compile(r"Bootstrap\s*:\s*Using\s+(.*)$")
# "[0]mlx5_0:1/IB"; NCCL ≥ 2.23 may add a rail / plane id ("[0]mlx5_0:1:0/RoCE", "[1]mlx5_1:1::1/IB").
_IB_DEVICE = re.compile(r"\[\d+\]\s?([\w.\-]+):(\d+)(?::\d*)*/(IB|RoCE)\b", re.IGNORECASE)
_IB_INDEX = re.compile(r"\[(\d+)\]\s?[\w.\-]+:\d+(?::\d*)*/(?:IB|RoCE)\b", re.IGNORECASE)
_IFACE = re.compile(r"(?:\[\d+\])?([\w.\-@]+):[\d.:a-fA-F%\[\]]+<\d+>")
# PXN (NCCL >= 2.12) names the proxy rank after the device: 'via NET/IB/0(8)/GDRDMA'.
_VIA = re.compile(r"via NET/([A-Za-z][\w ]*?)/(\d+)(?:\(\d+\))?(/GDRDMA)?")
_VIA_LOCAL = re.compile(r"via (P2P|SHM|CollNet|NVLS)\b(?:/([\w ]+))?")
# (a line quoted in a sentence ends at its closing quote: "`… NCCL_SOCKET_IFNAME set by environment to ens5`")
_ENV = re.compile(r"(NCCL_[A-Z0-9_]+) set (?:by environment )?to ([^\s'\"`‘’“”]+?)\.?\s*(?:['\"`‘’“”]|$)")
_GDR_HCA = re.compile(r"GPU Direct RDMA (Disabled|Enabled) for (?:GPU [^/]*/ )?HCA\s*(\d+)?\s*'?([\w.\-]*)'?",
                      re.IGNORECASE)
_NO_DEVICE_FOUND = re.compile(r"NET/IB\s*:\s*No device found")
_NO_IB_DEVICE = re.compile(r"NET/IB\s*:\s*No device found|Failed to (?:open libibverbs|initialize NET plugin IB)",
                           re.IGNORECASE)
_VERSION = re.compile(r"NCCL version (\d+\.\d+\.\d+)")
_PLUGIN_MISSING = re.compile(
    r"No plugin found \(libnccl-net|Could not find:?\s+libnccl-net|dlerror=libnccl-net\S*: cannot open|"
    r"(?:Failed to load|Plugin load returned \d+ :?)\s*\S*libnccl-net", re.IGNORECASE)
_PLUGIN_LOADED = re.compile(
    r"NET/Plugin\s*:?\s*(?:Loaded|Plugin name set by env to|Using)\s+(.*?)\s*$|Plugin Path\s*:\s*\S*libnccl-net|"
    r"NET/OFI\s|Loaded net plugin\s+(\S+)", re.IGNORECASE)
# 'Selected Provider is efa (found 4 nics)', newer 'Selected provider is efa, fabric is efa-direct (found 16 nics)':
# the provider, and how many of its NICs the node has (aws-ofi-nccl spreads the traffic over all of them).
_OFI_PROVIDER = re.compile(r"NET/OFI Selected [Pp]rovider is (\w+)(?:,\s*fabric is [\w-]+)?"
                           r"(?:\s*\(found (\d+) nics?\))?")
_GRAPH_TYPE = re.compile(r"\btype (NVL|PIX|PXB|PHB|NODE|SYS|LOC|PATH\w*|C2C|NET)/(\w+)")
# 'Connected all rings, use ring PXN 0 GDR 1' (NCCL >= 2.12): whether the communicator uses GPUDirect RDMA at all.
_RING_GDR = re.compile(r"\bPXN\s+[01]\s+GDR\s+([01])\b")
_NIC_DISTANCE = re.compile(r"IB NIC distance\s*:\s*(\w+)")
_WARN = re.compile(r"NCCL WARN\s+(.*\S)")
# NET/IB's watcher of the device's async events: 'port error' (IBV_EVENT_PORT_ERR) is the port's link going down.
_PORT_ERROR = re.compile(r"Got async event\s*:\s*port error", re.IGNORECASE)
_COMM_SHAPE = re.compile(r"\bcomm (?:0x)?[0-9a-fA-F]+ rank (\d+) nRanks (\d+) nNodes (\d+) "
                         r"localRanks (\d+) localRank \d+")
_INIT_COMPLETE = re.compile(r"\bcomm (?:0x)?[0-9a-fA-F]+ rank (\d+) nranks (\d+) cudaDev \d+.*Init COMPLETE")
_HOST = re.compile(r"([A-Za-z0-9][\w.\-]*):\d+:\d+\s+\[\d+\]")
_INTERNAL = {"ib", "socket"}


@dataclass
class NcclLogResult:
    """What one or more NCCL_DEBUG=INFO logs say about the network path."""

    transport: str | None = None  # ib | socket | other
    network_name: str | None = None  # as NCCL names it: "IB", "Socket", "AWS Libfabric", ...
    socket_ifnames: list[str] = field(default_factory=list)
    bootstrap_ifnames: list[str] = field(default_factory=list)
    ib_devices: list[str] = field(default_factory=list)  # "mlx5_0:1"
    ib_link_layer: str | None = None  # "ib" | "roce"
    ib_disabled: bool | None = None
    ib_device_count: int = 0  # devices in "NET/IB : Using [0]… [7]…" (the highest index + 1: logs elide the middle)
    ib_unavailable: bool = False  # "NET/IB : No device found", libibverbs missing, IB plugin failed
    no_rdma_device: bool = False  # "NET/IB : No device found": verbs saw no RDMA device at all (not a library missing)
    gdr_disabled: bool = False  # some "GPU Direct RDMA Disabled for HCA" line
    gdr_disabled_hcas: list[str] = field(default_factory=list)
    gdr_enabled_hcas: list[str] = field(default_factory=list)
    gdr_connections: int = 0
    ring_gdr: list[bool] = field(default_factory=list)  # 'use ring PXN 0 GDR 1' verdicts, in order
    net_connections: int = 0
    p2p_connections: int = 0
    shm_connections: int = 0
    plugin_missing: bool = False
    plugin_loaded: bool = False
    ofi_provider: str | None = None  # aws-ofi-nccl's libfabric provider: "efa", "tcp", ...
    ofi_nic_count: int = 0  # '(found 16 nics)': the provider's NICs on the node
    graph_intra: list[str] = field(default_factory=list)  # "NVL", "PIX", ... from "type NVL/PIX"
    gpu_nic_paths: list[str] = field(default_factory=list)  # "PIX", "SYS", ... GPU→NIC path types
    env: dict[str, str] = field(default_factory=dict)
    nccl_version: str | None = None
    n_ranks: int | None = None  # the largest communicator's ranks (the world; sub-groups are smaller)
    n_nodes: int | None = None
    local_ranks: int | None = None  # ranks on one node of that communicator
    init_hosts: dict[int, dict[int, str]] = field(default_factory=dict)  # nranks -> rank -> host (Init COMPLETE)
    warnings: list[str] = field(default_factory=list)
    port_errors: int = 0  # 'NET/IB : Got async event : port error' lines: an IB/RoCE port's link went down
    evidence: list[str] = field(default_factory=list)

    @property
    def gdr_partial(self) -> bool:
        """Some network connections (or HCAs) use GPUDirect RDMA and some do not (e.g. one node lacks it)."""
        on = self.gdr_connections > 0 or bool(self.gdr_enabled_hcas) or self._ring_gdr(True)
        off = self.gdr_connections < self.net_connections or bool(self.gdr_disabled_hcas) or self._ring_gdr(False)
        return on and off

    def _ring_gdr(self, verdict: bool) -> bool:
        """Some 'use ring PXN _ GDR _' line gave `verdict`, and the log shows a network chosen (on one machine with no
        network GDR 0 says nothing)."""
        return self.transport is not None and verdict in self.ring_gdr

    @property
    def net_plugin_missing(self) -> bool | None:
        """True: NCCL looked for an external net plugin, found none and fell back to TCP sockets.

        False when a plugin was loaded; None when the log does not say, when NCCL's internal IB
        transport carries the traffic (no plugin is needed then), or when the excerpt stops before
        NCCL chose a network (the note still says the plugin was not found).
        """
        if self.plugin_loaded or self.transport == "other":
            return False
        if self.plugin_missing and self.transport == "socket":
            return True
        return None

    @property
    def ib_setting_ignored(self) -> bool:
        """NCCL_IB_DISABLE=1 was echoed, yet NCCL carried the traffic over IB."""
        return bool(truthy(self.env.get("NCCL_IB_DISABLE", "0"))) and self.transport == "ib"

    def shape(self) -> tuple[int, int] | None:
        """(nodes, GPUs per node) of the largest communicator, where the log says it; None otherwise."""
        if self.n_ranks == 1:
            return None  # a one-rank communicator (a smoke test) says nothing about the job
        if self.n_nodes:
            even = self.local_ranks and self.n_ranks == self.n_nodes * self.local_ranks
            return (self.n_nodes, self.local_ranks) if even and self.local_ranks else None  # uneven: unknown
        if self.init_hosts:
            n_ranks = max(self.init_hosts)
            ranks = self.init_hosts[n_ranks]
            hosts = set(ranks.values())
            if n_ranks > 1 and len(ranks) == n_ranks and hosts and n_ranks % len(hosts) == 0:
                return len(hosts), n_ranks // len(hosts)  # every rank's line is there, named by host
        return None

    def facts(self) -> dict[str, Any]:
        """The network path: ``nccl.transport``, ``socket_ifname``, ``ib_disabled``, ``gdr_disabled``, ``gdr_partial``.

        What the probe reports from a log file; :meth:`all_facts` adds the rest the log shows.
        """
        out: dict[str, Any] = {}
        if self.transport:
            out["nccl.transport"] = self.transport
        told = env_facts({"NCCL_SOCKET_IFNAME": self.env.get("NCCL_SOCKET_IFNAME", "")}).get("nccl.socket_ifname")
        if self.socket_ifnames and self.transport in (None, "socket"):
            # the setting NCCL echoed ('en'), not the interface its prefix matched ('enp225s0f1'), when both are shown
            out["nccl.socket_ifname"] = told or self.socket_ifnames[0]
        if self.ib_disabled is not None:
            out["nccl.ib_disabled"] = self.ib_disabled and not self.ib_setting_ignored
        if self.transport == "socket":
            return out  # GPUDirect RDMA is a question for RDMA transports only
        on = self.gdr_connections > 0 or bool(self.gdr_enabled_hcas) or self._ring_gdr(True)
        off_said = bool(self.gdr_disabled_hcas) or self.gdr_disabled or self._ring_gdr(False)
        off_seen = self.net_connections > self.gdr_connections
        if not on and (off_said or (self.transport == "ib" and self.net_connections)):
            out["nccl.gdr_disabled"] = True  # said outright, or no IB connection carries "/GDRDMA"
        elif on and not off_said and not off_seen:
            out["nccl.gdr_disabled"] = False
        if self.net_connections or self.gdr_enabled_hcas or self.gdr_disabled_hcas or self._ring_gdr(True) \
                or self._ring_gdr(False):
            out["nccl.gdr_partial"] = self.gdr_partial
        return out

    def extra_facts(self) -> dict[str, Any]:
        """``nccl.version``, ``nccl.net_plugin_missing``, settings NCCL echoed, EFA and NVLink when shown."""
        out: dict[str, Any] = {}
        for key, value in env_facts(self.env).items():
            if key == "nccl.ib_disabled" and self.ib_setting_ignored:
                out[key] = False  # echoed, but NCCL used IB: not in effect
            elif key != "nccl.socket_ifname" and not (key == "nccl.gdr_disabled" and self.transport == "socket"):
                out[key] = value  # the interface NCCL says it uses (facts()) wins over the setting
        if self.nccl_version:
            out["nccl.version"] = self.nccl_version
        missing = self.net_plugin_missing
        if missing is not None:
            out["nccl.net_plugin_missing"] = missing
        if self.ofi_provider == "efa":
            out["nic.efa"] = True
        if self.no_rdma_device and not self.ib_devices and not self.plugin_loaded and self.transport == "socket":
            out["nic.rdma"] = False  # no RDMA device where NCCL runs (none fitted, or none passed into the container)
        if "NVL" in self.graph_intra:
            out["gpu.nvlink"] = True
        if self.ib_device_count > 1 and "NCCL_IB_HCA" not in self.env:
            out["nic.count"] = self.ib_device_count  # NCCL opens every RDMA NIC unless told which
        elif self.ofi_nic_count > 1 and "NCCL_IB_HCA" not in self.env:
            out["nic.count"] = self.ofi_nic_count  # aws-ofi-nccl found that many NICs (EFA devices) on the node
        shape = self.shape()
        if shape:
            out["job.nodes"], out["job.gpus_per_node"] = shape
        if self.port_errors:
            out["nic.link_flaps"] = True
        return out

    def all_facts(self) -> dict[str, Any]:
        """:meth:`facts` and :meth:`extra_facts` together (the path facts win)."""
        return {**self.extra_facts(), **self.facts()}

    def coded_notes(self) -> list[Note]:
        """Short findings of the log that are not facts, each with a stable code (for the chat's notes)."""
        out: list[Note] = []
        if self.gdr_partial:
            out.append(make(NOTES, "nccl_log.gdr_partial"))
        if self.plugin_missing and self.transport in (None, "socket") and not self.plugin_loaded:
            out.append(make(NOTES, "nccl_log.no_net_plugin"))
        if self.ofi_provider and self.ofi_provider != "efa":
            out.append(make(NOTES, "nccl_log.ofi_provider", provider=self.ofi_provider))
        if self.ib_unavailable and self.transport == "socket":
            out.append(make(NOTES, "nccl_log.no_ib_device"))
        if self.ib_setting_ignored:
            out.append(make(NOTES, "nccl_log.ib_disable_ignored", network=self.network_name or "IB"))
        if "lo" in self.bootstrap_ifnames or "lo" in self.socket_ifnames:
            out.append(make(NOTES, "nccl_log.loopback"))
        far = sorted({p for p in self.gpu_nic_paths if p in ("SYS", "PHB", "NODE")})
        if far:
            out.append(make(NOTES, "nccl_log.far_nic", paths="/".join(far)))
        if self.shm_connections and not self.p2p_connections:
            out.append(make(NOTES, "nccl_log.shm"))
        out.extend(make(NOTES, "nccl_log.warn", warning=w) for w in self.warnings[:2])
        return out

    def notes(self) -> list[str]:
        """The notes' English text (what the probe prints)."""
        return [n.text for n in self.coded_notes()]


NOTES = {
    "nccl_log.gdr_partial": "NCCL log: GPUDirect RDMA on some connections or HCAs only (one node may lack it)",
    "nccl_log.no_net_plugin": "NCCL log: no external net plugin (libnccl-net.so) was found; on AWS EFA that means "
                              "aws-ofi-nccl is not loaded and traffic falls back to TCP sockets",
    "nccl_log.ofi_provider": "NCCL log: aws-ofi-nccl selected the libfabric provider '{provider}', not efa",
    "nccl_log.no_ib_device": "NCCL log: NCCL found no usable InfiniBand/RoCE device and fell back to sockets",
    "nccl_log.ib_disable_ignored": "NCCL log: NCCL_IB_DISABLE=1 was set, yet NCCL used {network}: the setting was "
                                   "not in effect for this run",
    "nccl_log.loopback": "NCCL log: NCCL uses the loopback interface lo, which only works within one node",
    "nccl_log.far_nic": "NCCL log: GPU-to-NIC path {paths} (through the CPU): GPUDirect RDMA is off or slow on such "
                        "paths by default",
    "nccl_log.shm": "NCCL log: GPUs within a node talk through host shared memory (SHM), not P2P",
    "nccl_log.warn": "NCCL WARN: {warning}",
}


# libfabric providers that move the data over the kernel's sockets
_OFI_SOCKET_PROVIDERS = {"tcp", "sockets", "udp"}


def _classify(name: str) -> str:
    """NCCL's network name → ib | socket | other (plugins such as Libfabric, FasTrak, TCPX)."""
    lowered = name.strip().lower()
    if lowered.startswith("socket"):
        return "socket"
    if lowered == "ib" or lowered.startswith(("ibext", "ib_")):
        return "ib"
    return "other"


def _add(items: list[str], value: str) -> None:
    if value and value not in items:
        items.append(value)


def parse_nccl_log(text: str) -> NcclLogResult:
    """Parse NCCL_DEBUG=INFO output; text without NCCL lines gives an empty result."""
    result = NcclLogResult()
    if not isinstance(text, str):
        return result
    via_kinds: list[str] = []
    plugin_names: list[str] = []
    ib_initialised = False
    for raw in text.splitlines():
        line = raw.replace("\r", "").rstrip()
        if "NCCL" not in line and "NET/" not in line and "via " not in line and " INFO " not in line:
            continue
        _network(line, result, plugin_names)
        if m := _NET_SOCKET.search(line):
            for name in _IFACE.findall(m.group(1)):
                _add(result.socket_ifnames, name)
        if m := _OLD_NET_IFACE.search(line):
            _add(result.socket_ifnames, m.group(1))
        if _OLD_SOCKET_FOUND.search(line) and result.transport is None:
            result.transport, result.network_name = "socket", "Socket"
        if m := _BOOTSTRAP.search(line):
            for name in _IFACE.findall(m.group(1)):
                _add(result.bootstrap_ifnames, name)
        if m := _NET_IB.search(line):
            for dev, port, layer in _IB_DEVICE.findall(m.group(1)):
                ib_initialised = True  # "NET/IB : Using [RO]; OOB eth0" (2.2x, no device) does not count
                _add(result.ib_devices, f"{dev}:{port}")
                result.ib_link_layer = "roce" if layer.lower() == "roce" else "ib"
            indices = [int(i) for i in _IB_INDEX.findall(m.group(1))]
            result.ib_device_count = max([result.ib_device_count, *(i + 1 for i in indices)])
        if _NO_IB_DEVICE.search(line):
            result.ib_unavailable = True
            result.no_rdma_device = result.no_rdma_device or bool(_NO_DEVICE_FOUND.search(line))
            result.evidence.append(line.strip())
        _connections(line, result, via_kinds)
        if m := _ENV.search(line):
            result.env[m.group(1)] = m.group(2)
            if m.group(1) == "NCCL_IB_DISABLE":
                result.ib_disabled = truthy(m.group(2))
        for state, index, hca in _GDR_HCA.findall(line):
            key = hca or index or "?"
            if state.lower() == "disabled":
                result.gdr_disabled = True
                _add(result.gdr_disabled_hcas, key)
            else:
                _add(result.gdr_enabled_hcas, key)
            result.evidence.append(line.strip())
        if m := _VERSION.search(line):
            result.nccl_version = m.group(1)
        _plugin(line, result)
        for intra, inter in _GRAPH_TYPE.findall(line):
            _add(result.graph_intra, intra)
            _add(result.gpu_nic_paths, inter)
        if m := _RING_GDR.search(line):
            result.ring_gdr.append(m.group(1) == "1")
        if m := _NIC_DISTANCE.search(line):
            _add(result.gpu_nic_paths, m.group(1).upper())
        _shape(line, result)
        if _PORT_ERROR.search(line):
            result.port_errors += 1
        if (m := _WARN.search(line)) and len(result.warnings) < 5 and m.group(1) not in result.warnings:
            result.warnings.append(m.group(1))
    _conclude(result, via_kinds, plugin_names, ib_initialised)
    return result


def _shape(line: str, result: NcclLogResult) -> None:
    if m := _COMM_SHAPE.search(line):
        n_ranks = int(m.group(2))
        if result.n_ranks is None or n_ranks > result.n_ranks:
            result.n_ranks, result.n_nodes, result.local_ranks = n_ranks, int(m.group(3)), int(m.group(4))
    elif (m := _INIT_COMPLETE.search(line)) and (host := _HOST.search(line)):
        result.init_hosts.setdefault(int(m.group(2)), {})[int(m.group(1))] = host.group(1)


def _network(line: str, result: NcclLogResult, plugin_names: list[str]) -> None:
    if m := _USING_NETWORK.search(line):
        result.network_name = m.group(1)
        result.transport = _classify(m.group(1))
        result.evidence.append(line.strip())
    elif m := _NET_PLUGIN_NAME.search(line):
        plugin_names.append(m.group(1))


def _connections(line: str, result: NcclLogResult, via_kinds: list[str]) -> None:
    for kind, _index, gdr in _VIA.findall(line):
        via_kinds.append(kind.strip())
        result.net_connections += 1
        if gdr:
            result.gdr_connections += 1
    for kind, _detail in _VIA_LOCAL.findall(line):
        if kind == "P2P":
            result.p2p_connections += 1
        elif kind == "SHM":
            result.shm_connections += 1


def _plugin(line: str, result: NcclLogResult) -> None:
    if "CollNet" in line:
        return  # "Failed to find ncclCollNetPlugin_v8 symbol": CollNet only, not the net plugin
    if _PLUGIN_MISSING.search(line):
        result.plugin_missing = True
        result.evidence.append(line.strip())
    elif _PLUGIN_LOADED.search(line):
        result.plugin_loaded = True
    if m := _OFI_PROVIDER.search(line):
        result.ofi_provider = m.group(1).lower()
        if m.group(2):
            result.ofi_nic_count = max(result.ofi_nic_count, int(m.group(2)))


def _conclude(result: NcclLogResult, via_kinds: list[str], plugin_names: list[str], ib_initialised: bool) -> None:
    if result.ofi_provider in _OFI_SOCKET_PROVIDERS and result.transport in (None, "other"):
        # 'NET/OFI Selected Provider is tcp': aws-ofi-nccl loaded, but libfabric sends over TCP sockets, not EFA
        result.transport = "socket"
        result.network_name = f"{result.network_name or 'AWS Libfabric'} ({result.ofi_provider})"
    if result.transport is None and plugin_names:
        # NCCL 2.2x: "Initialized NET plugin IB" then "Assigned NET plugin Socket to comm"; the last one is used.
        result.network_name = plugin_names[-1]
        result.transport = _classify(plugin_names[-1])
    if result.transport is None and via_kinds:
        # Older NCCL prints no "Using network" line; the ring/channel connections say it.
        kinds = {_classify(k) for k in via_kinds}
        result.transport = "ib" if kinds == {"ib"} else ("socket" if kinds == {"socket"} else "other")
        result.network_name = via_kinds[-1]
    if result.transport is None and ib_initialised:
        result.transport = "ib"
        result.network_name = "IB"
    if result.transport is None and (result.socket_ifnames or result.ib_unavailable and not result.plugin_loaded
                                     and not result.ib_devices):
        # "NET/IB : No device found." and no plugin: NCCL falls back to its socket transport
        result.transport = "socket"
        result.network_name = "Socket"
    if result.transport == "other" and result.network_name and "libfabric" in result.network_name.lower():
        result.plugin_loaded = True
    wanted = result.env.get("NCCL_SOCKET_IFNAME", "")
    if not result.socket_ifnames and result.transport == "socket" and wanted and not wanted.startswith("^"):
        # "=eth0" is an exact name, "eth" a prefix; "^docker" excludes and names nothing.
        result.socket_ifnames.append(wanted.lstrip("=").split(",")[0])
