"""The NIC that carries training traffic: name, kind, speed and rating, MTU, RDMA, EFA, rx/tx over the window.

Which NIC: the configured one, else the interface of the default route, else the fastest one
that is up. Speed comes from /sys/class/net/<if>/speed; ``-1`` (virtio and other virtual NICs)
or a failed read means unknown, so the fact is left out and a note says why: a made-up 0
would read as a dead link. Kind: an IPoIB interface is InfiniBand; an Ethernet interface whose
PCI device is also an RDMA device with link layer Ethernet is RoCE; anything else Ethernet.

The rating (``nic.max_speed_gbps``) is not in sysfs: it is the fastest of ethtool's "Supported
link modes", so a 100G NIC that negotiated 25G shows up as such. No ethtool, a failure, or
"Not reported" (virtual NICs) leaves it out with a note; it is never guessed from the speed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bwdoctor_parsers.ethtool import EthtoolSettings, parse_ethtool
from bwdoctor_parsers.ibstat import IbPort, parse_rate, parse_state
from bwdoctor_parsers.procfs import NetCounters, net_rates, parse_net_dev
from bwdoctor_parsers.sysfs_net import speed_gbps
from bwdoctor_probe.collectors import CollectorResult

ARPHRD_INFINIBAND = "32"
MIN_RATE_WINDOW_S = 0.1  # below this, one packet more or less makes the rate meaningless
ETHTOOL_TIMEOUT_S = 3.0  # `ethtool <if>` answers in milliseconds; a hung driver must not stall the pass
MTU_RANGE = (68, 65536)  # what the fact catalogue accepts: IPv4's minimum to the loopback's 64 KiB
AMAZON_PCI_VENDOR = "0x1d0f"
EFA_PCI_DEVICE_PREFIX = "0xefa"  # efa0 ... efa4: the PCI ids the efa kernel driver binds to
_SBIN = ("/usr/sbin", "/sbin")  # where Debian puts ethtool, often not on an unprivileged user's PATH
_EFA_PCI: dict[Path, list[str]] = {}  # the PCI bus does not change while the probe runs: scanned once
_VIRTUAL = ("lo", "docker", "veth", "virbr", "br-", "cni", "flannel", "cali", "vxlan", "tun", "tap", "ifb")


def _read(path: Path) -> str | None:
    """A sysfs/procfs file's text, or None when it cannot be read or is not text (never raises)."""
    try:
        return path.read_text().strip()
    except (OSError, ValueError):  # ValueError: UnicodeDecodeError on bytes that are not text
        return None


@dataclass
class NicInfo:
    name: str
    chosen_by: str
    speed_gbps: float | None
    speed_raw: str | None
    kind: str
    rdma_ports: list[IbPort]
    mtu_raw: str | None = None
    ethtool: EthtoolSettings | None = None
    ethtool_problem: str | None = None  # why there is no ethtool output to read


class NicSampler:
    """Picks the NIC at the start, reads its counters at the start and end of the window."""

    name = "nic"

    def __init__(self, *, configured: str | None = None, declared_speed_gbps: float | None = None,
                 declared_max_speed_gbps: float | None = None, ethtool: str = "ethtool",
                 sys_root: Path = Path("/sys"), proc_root: Path = Path("/proc")) -> None:
        self.configured = configured
        self.declared_speed_gbps = declared_speed_gbps
        self.declared_max_speed_gbps = declared_max_speed_gbps
        self.ethtool = ethtool
        self.sys_net = sys_root / "class" / "net"
        self.sys_ib = sys_root / "class" / "infiniband"
        self.sys_pci = sys_root / "bus" / "pci" / "devices"
        self.proc = proc_root
        self.info: NicInfo | None = None
        self._notes: list[str] = []
        self._before: NetCounters | None = None
        self._ib_before: tuple[int, int] | None = None

    # --- choosing the interface -------------------------------------------------------------
    def interfaces(self) -> list[str]:
        try:
            return sorted(os.listdir(self.sys_net))
        except OSError:
            return []

    def default_route_interface(self) -> str | None:
        """The interface of the IPv4 (else IPv6) default route with the lowest metric."""
        best: tuple[int, str] | None = None
        for line in (_read(self.proc / "net" / "route") or "").splitlines()[1:]:
            parts = line.split()
            if len(parts) < 8 or parts[1] != "00000000" or parts[7] != "00000000":
                continue
            try:
                flags, metric = int(parts[3], 16), int(parts[6])
            except ValueError:
                continue
            if flags & 0x1 and (best is None or metric < best[0]):
                best = (metric, parts[0])
        if best:
            return best[1]
        for line in (_read(self.proc / "net" / "ipv6_route") or "").splitlines():
            parts = line.split()
            if len(parts) >= 10 and parts[0] == "0" * 32 and parts[1] == "00" and parts[9] != "lo":
                return parts[9]
        return None

    def _is_up(self, name: str) -> bool:
        return (_read(self.sys_net / name / "operstate") or "") in ("up", "unknown") and name != "lo"

    def choose(self) -> tuple[str | None, str]:
        names = self.interfaces()
        if self.configured:
            return self.configured, "configured"
        route = self.default_route_interface()
        if route and route in names:
            return route, "default route"
        candidates = [n for n in names if self._is_up(n) and not n.startswith(_VIRTUAL)]
        if not candidates:
            return None, "none"
        fastest = max(candidates, key=lambda n: speed_gbps(_read(self.sys_net / n / "speed")) or 0.0)
        return fastest, "fastest up"

    # --- RDMA ---------------------------------------------------------------------------------
    def rdma_ports(self, device: str | None = None) -> list[IbPort]:
        """Ports of all RDMA devices, or of one device."""
        ports: list[IbPort] = []
        try:
            devices = sorted(os.listdir(self.sys_ib))
        except OSError:
            return ports
        for dev in devices:
            if device is not None and dev != device:
                continue
            try:
                port_names = sorted(os.listdir(self.sys_ib / dev / "ports"))
            except OSError:
                continue
            for port in port_names:
                base = self.sys_ib / dev / "ports" / port
                if not port.isdigit():
                    continue
                ports.append(IbPort(
                    device=dev, port=int(port),
                    state=parse_state(_read(base / "state") or ""),
                    rate_gbps=parse_rate(_read(base / "rate") or ""),
                    link_layer=_read(base / "link_layer"),
                ))
        return ports

    def rdma_device_of(self, name: str) -> str | None:
        """The RDMA device sharing the interface's PCI function (mlx5_0 for a RoCE eth, ib0)."""
        direct = self.sys_net / name / "device" / "infiniband"
        try:
            found = sorted(os.listdir(direct))
            if found:
                return found[0]
        except OSError:
            pass
        try:
            target = os.path.realpath(self.sys_net / name / "device")
            for dev in sorted(os.listdir(self.sys_ib)):
                if os.path.realpath(self.sys_ib / dev / "device") == target:
                    return dev
        except OSError:
            pass
        return None

    def _driver_of(self, device: str) -> str | None:
        """The kernel driver bound to an RDMA device (``efa``, ``mlx5_core``), from its device/driver link."""
        try:
            return os.path.basename(os.readlink(self.sys_ib / device / "device" / "driver"))
        except OSError:
            return None

    def efa_pci_functions(self) -> list[str]:
        """PCI addresses of Elastic Fabric Adapters, whether or not the efa driver is bound to them.

        Scanned once per process: a GPU node has hundreds of PCI functions, and an EFA is attached
        only while the instance is stopped, so the answer cannot change under a running probe.
        """
        if self.sys_pci in _EFA_PCI:
            return _EFA_PCI[self.sys_pci]
        found: list[str] = []
        try:
            addresses = sorted(os.listdir(self.sys_pci))
        except OSError:
            addresses = []
        for address in addresses:
            if (_read(self.sys_pci / address / "vendor") or "").lower() != AMAZON_PCI_VENDOR:
                continue
            if (_read(self.sys_pci / address / "device") or "").lower().startswith(EFA_PCI_DEVICE_PREFIX):
                found.append(address)
        _EFA_PCI[self.sys_pci] = found
        return found

    def efa(self, all_ports: list[IbPort]) -> tuple[bool | None, str | None]:
        """``nic.efa`` and a note: is an AWS Elastic Fabric Adapter attached and up?

        True when an RDMA device driven by ``efa`` (or, when its driver link cannot be read, named
        ``efa*``) has an ACTIVE port. False when that can be told: an EFA whose ports are all down
        (with a note), or no EFA among the RDMA devices and no EFA on the PCI bus, which includes a
        host with no RDMA devices at all: on such a node a user expects "no EFA", as ``nic.rdma``
        says false there too. Left out (None) when an EFA sits on the PCI bus but the efa driver
        has not made it an RDMA device: it is attached but unusable, and "false" would hide that.
        """
        try:
            devices = sorted(os.listdir(self.sys_ib))
        except OSError:
            devices = []
        efa_devices = []
        for dev in devices:
            driver = self._driver_of(dev)
            if driver == "efa" or (driver is None and dev.startswith("efa")):
                efa_devices.append(dev)
        if efa_devices:
            ports = [p for p in all_ports if p.device in efa_devices]
            if any(p.active for p in ports):
                return True, None
            states = ", ".join(f"{p.device}/{p.port} {p.state or 'unknown'}" for p in ports) or "no ports"
            return False, f"nic: EFA {', '.join(efa_devices)} is attached but not up ({states}); nic.efa false"
        unbound = self.efa_pci_functions()
        if unbound:
            return None, (f"nic: an Elastic Fabric Adapter is on the PCI bus ({', '.join(unbound)}) but is no RDMA "
                          "device: the efa kernel driver is not loaded (install the AWS EFA driver, modprobe efa); "
                          "nic.efa left out")
        return False, None

    # --- ethtool --------------------------------------------------------------------------------
    def ethtool_binary(self) -> str | None:
        """ethtool on PATH, else in the sbin directories an unprivileged PATH often lacks."""
        found = shutil.which(self.ethtool)
        if found or os.sep in self.ethtool:
            return found
        return shutil.which(self.ethtool, path=os.pathsep.join(_SBIN))

    def run_ethtool(self, name: str) -> tuple[EthtoolSettings | None, str | None]:
        """``ethtool <name>`` parsed, or None and why not (missing binary, timeout, failure)."""
        binary = self.ethtool_binary()
        if binary is None:
            return None, f"ethtool is not installed (no {self.ethtool!r} on PATH or in /usr/sbin, /sbin)"
        try:
            done = subprocess.run([binary, name], capture_output=True, text=True, timeout=ETHTOOL_TIMEOUT_S,
                                  env={**os.environ, "LC_ALL": "C"}, errors="replace")
        except subprocess.TimeoutExpired:
            return None, f"`ethtool {name}` did not answer within {ETHTOOL_TIMEOUT_S:g} s"
        except (OSError, subprocess.SubprocessError) as exc:
            return None, f"`ethtool {name}` could not run ({getattr(exc, 'strerror', None) or exc})"
        settings = parse_ethtool(done.stdout)
        if done.returncode != 0 and not settings.modes_reported:
            said = (done.stderr.strip().splitlines() or ["no message"])[-1]
            return settings, f"`ethtool {name}` failed (exit {done.returncode}: {said})"
        return settings, None

    # --- sampling -----------------------------------------------------------------------------
    def _counters(self) -> NetCounters | None:
        if self.info is None:
            return None
        return parse_net_dev(_read(self.proc / "net" / "dev") or "").get(self.info.name)

    def _ib_counters(self) -> tuple[int, int] | None:
        """RDMA traffic bypasses the netdev counters; the port counters count 4-byte words."""
        if self.info is None or not self.info.rdma_ports:
            return None
        port = self.info.rdma_ports[0]
        base = self.sys_ib / port.device / "ports" / str(port.port) / "counters"
        rx, tx = _read(base / "port_rcv_data"), _read(base / "port_xmit_data")
        if rx is None or tx is None or not rx.isdigit() or not tx.isdigit():
            return None
        return int(rx) * 4, int(tx) * 4

    def start(self) -> None:
        name, chosen_by = self.choose()
        if name is None:
            self._notes.append("nic: no network interface is up")
            return
        if not (self.sys_net / name).exists():
            self._notes.append(f"nic: configured interface {name} does not exist")
            return
        raw = _read(self.sys_net / name / "speed")
        kind, ports = "ethernet", []
        dev = self.rdma_device_of(name)
        if dev:
            ports = self.rdma_ports(dev)
            layer_kinds = {p.kind for p in ports if p.kind}
            if _read(self.sys_net / name / "type") == ARPHRD_INFINIBAND or layer_kinds == {"infiniband"}:
                kind = "infiniband"
            elif "roce" in layer_kinds:
                kind = "roce"
        elif _read(self.sys_net / name / "type") == ARPHRD_INFINIBAND:
            kind = "infiniband"
        self.info = NicInfo(name=name, chosen_by=chosen_by, speed_gbps=speed_gbps(raw), speed_raw=raw,
                            kind=kind, rdma_ports=ports, mtu_raw=_read(self.sys_net / name / "mtu"))
        if not self.declared_max_speed_gbps:
            self.info.ethtool, self.info.ethtool_problem = self.run_ethtool(name)
        self._before = self._counters()
        self._ib_before = self._ib_counters()

    def tick(self) -> None:
        """Counters only need the two ends of the window."""

    def finish(self, elapsed_s: float) -> CollectorResult:
        result = CollectorResult(notes=self._notes)
        all_ports = self.rdma_ports()
        result.facts["nic.rdma"] = any(p.active for p in all_ports)
        if all_ports:
            result.details["rdma_ports"] = describe_ports(all_ports)
        efa, efa_note = self.efa(all_ports)
        if efa is not None:
            result.facts["nic.efa"] = efa
        if efa_note:
            result.notes.append(efa_note)
        if self.info is None:
            return result
        info, facts = self.info, result.facts
        facts["nic.name"] = info.name
        facts["nic.kind"] = info.kind
        result.details["nic_chosen_by"] = info.chosen_by
        self._speed(info, result)
        self._max_speed(info, result)
        self._mtu(info, result)
        self._rates(elapsed_s, result)
        return result

    def _speed(self, info: NicInfo, result: CollectorResult) -> None:
        port_rate = max((p.rate_gbps or 0.0 for p in info.rdma_ports if p.active), default=0.0)
        if self.declared_speed_gbps:
            result.facts["nic.speed_gbps"] = float(self.declared_speed_gbps)
            result.notes.append(f"nic {info.name}: speed {self.declared_speed_gbps:g} Gb/s as configured "
                                f"(sysfs says {info.speed_raw if info.speed_raw is not None else 'nothing'})")
        elif info.kind in ("infiniband", "roce") and port_rate > 0:
            result.facts["nic.speed_gbps"] = port_rate
        elif info.speed_gbps is not None:
            result.facts["nic.speed_gbps"] = info.speed_gbps
        else:
            shown = "no value" if info.speed_raw is None else f"{info.speed_raw!r}"
            result.notes.append(
                f"nic {info.name}: link speed unknown (/sys/class/net/{info.name}/speed gives {shown}; "
                "usual for virtio and other virtual NICs); nic.speed_gbps left out — set nic_speed_gbps "
                "to the rated speed")

    def _max_speed(self, info: NicInfo, result: CollectorResult) -> None:
        """``nic.max_speed_gbps``: declared, else ethtool's fastest supported mode, else left out with why."""
        fix = "set nic_max_speed_gbps to the NIC's rated speed"
        if self.declared_max_speed_gbps:
            result.facts["nic.max_speed_gbps"] = float(self.declared_max_speed_gbps)
            result.notes.append(f"nic {info.name}: rated speed {self.declared_max_speed_gbps:g} Gb/s as configured")
            return
        settings = info.ethtool
        if settings is not None:
            result.details["ethtool"] = settings.describe()
        rating = settings.max_supported_gbps if settings is not None else None
        negotiated = result.facts.get("nic.speed_gbps")
        if rating is not None and negotiated is not None and rating < negotiated:
            result.notes.append(
                f"nic {info.name}: ethtool's supported link modes stop at {rating:g} Gb/s, below the negotiated "
                f"{negotiated:g} Gb/s, so its list is incomplete (an older ethtool or kernel); nic.max_speed_gbps "
                f"left out — {fix}")
        elif rating is not None:
            result.facts["nic.max_speed_gbps"] = rating
        elif info.ethtool_problem:
            result.notes.append(f"nic {info.name}: {info.ethtool_problem}; nic.max_speed_gbps left out — {fix}")
        elif settings is not None and (settings.supported_line or "").lower().startswith("not reported"):
            usual = ("InfiniBand ports" if info.kind == "infiniband"
                     else "virtio, veth and other virtual NICs")
            result.notes.append(
                f"nic {info.name}: ethtool reports no supported link modes ('Not reported', usual for {usual}); "
                f"nic.max_speed_gbps left out — {fix}")
        else:
            result.notes.append(
                f"nic {info.name}: ethtool printed no 'Supported link modes' list; nic.max_speed_gbps left out — {fix}")

    def _mtu(self, info: NicInfo, result: CollectorResult) -> None:
        """``nic.mtu`` from /sys/class/net/<if>/mtu; unreadable or out of range → left out with a note."""
        path = f"/sys/class/net/{info.name}/mtu"
        if info.mtu_raw is None:
            result.notes.append(f"nic {info.name}: cannot read {path}; nic.mtu left out")
            return
        try:
            mtu = int(info.mtu_raw)
        except ValueError:
            result.notes.append(f"nic {info.name}: {path} reads {info.mtu_raw[:40]!r}, not a number; nic.mtu left out")
            return
        low, high = MTU_RANGE
        if not low <= mtu <= high:
            result.notes.append(f"nic {info.name}: MTU {mtu} is outside {low}–{high}; nic.mtu left out")
            return
        result.facts["nic.mtu"] = mtu

    def _rates(self, elapsed_s: float, result: CollectorResult) -> None:
        if elapsed_s < MIN_RATE_WINDOW_S:
            result.notes.append(f"nic: window of {elapsed_s:.3f} s is too short for rx/tx rates")
            return
        ib_after = self._ib_counters()
        if self._ib_before is not None and ib_after is not None and elapsed_s > 0:
            rates = net_rates(NetCounters(*self._ib_before), NetCounters(*ib_after), elapsed_s)
            result.details["nic_rate_source"] = "rdma port counters"
        else:
            after = self._counters()
            if self._before is None or after is None:
                result.notes.append(f"nic: no /proc/net/dev counters for {self.info.name if self.info else '?'}")
                return
            rates = net_rates(self._before, after, elapsed_s)
            result.details["nic_rate_source"] = "/proc/net/dev"
        result.facts.update(rates)


def describe_ports(ports: list[IbPort]) -> list[dict[str, Any]]:
    """RDMA ports as plain data for the report's details."""
    return [{"device": p.device, "port": p.port, "state": p.state, "rate_gbps": p.rate_gbps,
             "link_layer": p.link_layer} for p in ports]
