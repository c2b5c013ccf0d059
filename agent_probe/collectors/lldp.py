"""The leaf switch from LLDP: `lldpctl -f json` (lldpd) names the switch at the other end of each
interface. Only read when lldpd is installed and the leaf switch is not configured; a missing tool
or an odd answer is a note, never an error."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

from bwdoctor_probe.collectors import CollectorResult


def _interfaces(data: Any) -> list[tuple[str, dict[str, Any]]]:
    """(interface name, its entry) from lldpctl's JSON, whose shape differs between versions:
    {"lldp": {"interface": {"eth0": {...}}}} or {"lldp": {"interface": [{"eth0": {...}}, ...]}}."""
    interfaces = (data or {}).get("lldp", {}).get("interface", {})
    items: list[tuple[str, dict[str, Any]]] = []
    for entry in interfaces if isinstance(interfaces, list) else [interfaces]:
        if isinstance(entry, dict):
            items += [(name, value) for name, value in entry.items() if isinstance(value, dict)]
    return items


def parse_lldpctl_json(text: str, nic: str | None = None) -> str | None:
    """The name of the switch LLDP sees on `nic` (or on the first interface that has one)."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    for name, entry in _interfaces(data):
        if nic and name != nic:
            continue
        chassis = entry.get("chassis", {})
        if isinstance(chassis, dict):
            for key, value in chassis.items():
                if key in ("id", "descr", "mgmt-ip"):
                    continue
                if isinstance(value, dict):  # {"leaf-3": {"id": ..., ...}}: the key is the system name
                    return str(key)
            named = chassis.get("name")
            if isinstance(named, dict) and named.get("value"):
                return str(named["value"])
            if isinstance(named, str) and named:
                return named
    return None


def collect_lldp(nic: str | None, *, binary: str = "lldpctl", timeout_s: float = 3.0) -> CollectorResult:
    """node.leaf_switch from LLDP, when lldpctl is there and answers."""
    result = CollectorResult()
    path = shutil.which(binary)
    if path is None:
        return result  # no lldpd: nothing to say (set leaf_switch in the config)
    try:
        done = subprocess.run([path, "-f", "json"], capture_output=True, text=True, timeout=timeout_s, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        result.notes.append(f"lldp: lldpctl failed ({type(exc).__name__}); set leaf_switch")
        return result
    switch = parse_lldpctl_json(done.stdout, nic)
    if switch:
        result.facts["node.leaf_switch"] = switch
        result.details["leaf_switch_source"] = "lldp"
    else:
        result.notes.append("lldp: no neighbour switch seen; set leaf_switch")
    return result
