"""``lspci -vvv`` (or ``lspci -vvv | grep ...``) → PCIe ACS state and link speed/width against capability.

``ACSCtl: SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ ...`` on a PCIe switch port means
Access Control Services are on, which sends GPU peer-to-peer and GPUDirect RDMA traffic up through
the root complex (slow, or hanging); NCCL's guide asks for them off. ``LnkCap: ... Speed 16GT/s,
Width x16`` is what the device can do, ``LnkSta: Speed 2.5GT/s (downgraded), Width x8
(downgraded)`` what it runs at now (GPUs lower the speed when idle). People often paste only the
grepped lines, without the device header: ACS still counts; link lines are then reported as notes,
not as GPU facts, since the device is unknown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bwdoctor_parsers.notes import Note, make

_DEVICE = re.compile(r"^(?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]\s+(.+?)\s*$")
_ACS = re.compile(r"ACSCtl:\s*(.*)$")
_FLAG = re.compile(r"([A-Za-z]+)([+-])")
_LNKCAP = re.compile(r"LnkCap:\s*(?:Port #\d+,\s*)?Speed ([0-9]+(?:\.[0-9]+)?)GT/s(?:\s*\([^)]*\))?,\s*Width x(\d+)")
_LNKSTA = re.compile(r"LnkSta:\s*Speed ([0-9]+(?:\.[0-9]+)?)GT/s(?:\s*\(([^)]*)\))?,\s*Width x(\d+)(?:\s*\(([^)]*)\))?")
_REDIRECT = ("SrcValid", "ReqRedir", "CmpltRedir", "UpstreamFwd")
_GEN = {2.5: 1, 5.0: 2, 8.0: 3, 16.0: 4, 32.0: 5, 64.0: 6, 128.0: 7}


def gen_of(gts: float) -> int | None:
    """Transfer rate in GT/s → PCIe generation (2.5 → 1, 16 → 4, 32 → 5)."""
    return _GEN.get(gts)


@dataclass
class PciLink:
    """One device's link: capability and current status."""

    device: str | None  # the header line's description, None when the paste has none
    cap_gts: float | None = None
    cap_width: int | None = None
    sta_gts: float | None = None
    sta_width: int | None = None
    downgraded: bool = False

    @property
    def is_nvidia_gpu(self) -> bool:
        name = (self.device or "").lower()
        return "nvidia" in name and ("3d controller" in name or "vga compatible" in name)


@dataclass
class LspciResult:
    acs_lines: int = 0
    acs_redirecting: int = 0  # ACSCtl lines with SrcValid+/ReqRedir+/CmpltRedir+/UpstreamFwd+
    links: list[PciLink] = field(default_factory=list)

    @property
    def acs_enabled(self) -> bool | None:
        return None if not self.acs_lines else self.acs_redirecting > 0

    def facts(self, *, headless_are_gpus: bool = False) -> dict[str, Any]:
        """``pcie.acs_enabled``; for NVIDIA GPUs ``gpu.pcie_gen``/``_width`` (current, lowest) and ``_max``.

        ``headless_are_gpus``: link lines pasted without their device header are a GPU's (the caller knows, from the
        words that introduce the paste, that they are)."""
        out: dict[str, Any] = {}
        if self.acs_enabled is not None:
            out["pcie.acs_enabled"] = self.acs_enabled
        gpus = [link for link in self.links if link.is_nvidia_gpu or (headless_are_gpus and link.device is None)]
        for key, values, pick in (
            ("gpu.pcie_gen", [gen_of(g.sta_gts) for g in gpus if g.sta_gts], min),
            ("gpu.pcie_width", [g.sta_width for g in gpus if g.sta_width], min),
            ("gpu.pcie_gen_max", [gen_of(g.cap_gts) for g in gpus if g.cap_gts], max),
            ("gpu.pcie_width_max", [g.cap_width for g in gpus if g.cap_width], max),
        ):
            known = [v for v in values if v is not None]
            if known:
                out[key] = pick(known)
        return out

    def coded_notes(self) -> list[Note]:
        """ACS on, PCIe links below their capability; each with a stable code."""
        out: list[Note] = []
        if self.acs_enabled:
            out.append(make(NOTES, "lspci.acs_on", redirecting=self.acs_redirecting, lines=self.acs_lines))
        for link in self.links:
            if not link.downgraded:
                continue
            who = link.device or "a device"
            now = f"{link.sta_gts:g}GT/s x{link.sta_width}" if link.sta_gts else "?"
            if link.cap_gts:
                out.append(make(NOTES, "lspci.link_downgraded", device=who[:60], now=now,
                                cap=f"{link.cap_gts:g}GT/s x{link.cap_width}"))
            else:
                out.append(make(NOTES, "lspci.link_downgraded_now", device=who[:60], now=now))
        return out

    def notes(self) -> list[str]:
        """The notes' English text (what the probe prints)."""
        return [n.text for n in self.coded_notes()]


NOTES = {
    "lspci.acs_on": "lspci: ACS is on ({redirecting} of {lines} ACSCtl lines with SrcValid+ or a redirect): GPU "
                    "peer-to-peer and GPUDirect RDMA go through the root complex",
    "lspci.link_downgraded": "lspci: PCIe link of {device} downgraded: {now} of {cap} (a GPU lowers it when idle; "
                             "check under load)",
    "lspci.link_downgraded_now": "lspci: PCIe link of {device} downgraded: {now} (a GPU lowers it when idle; check "
                                 "under load)",
}


def parse_lspci(text: str) -> LspciResult:
    """Parse ``lspci -vvv`` output or its grepped lines; anything else gives an empty result."""
    result = LspciResult()
    if not isinstance(text, str):
        return result
    link: PciLink | None = None
    device: str | None = None
    for raw in text.splitlines():
        line = raw.replace("\r", "")
        if m := _DEVICE.match(line):
            device, link = m.group(1), None
            continue
        if m := _ACS.search(line):
            flags = dict(_FLAG.findall(m.group(1)))
            if flags:
                result.acs_lines += 1
                result.acs_redirecting += any(flags.get(name) == "+" for name in _REDIRECT)
            continue
        cap, sta = _LNKCAP.search(line), _LNKSTA.search(line)
        if not cap and not sta:
            continue
        if link is None or (cap and link.cap_gts is not None) or (sta and link.sta_gts is not None):
            link = PciLink(device=device)
            result.links.append(link)
        if cap:
            link.cap_gts, link.cap_width = float(cap.group(1)), int(cap.group(2))
        if sta:
            link.sta_gts, link.sta_width = float(sta.group(1)), int(sta.group(3))
            link.downgraded = "downgraded" in (sta.group(2) or "") + (sta.group(4) or "")
        slower = link.cap_gts and link.sta_gts and link.sta_gts < link.cap_gts
        narrower = link.cap_width and link.sta_width and link.sta_width < link.cap_width
        link.downgraded = link.downgraded or bool(slower or narrower)
    return result
