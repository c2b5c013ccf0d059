"""NIC statistics counters → whether lossless flow control (PFC) and ECN congestion control are at work, and drops.

Read: ``ethtool -S <if>`` (``     rx_prio3_pause: 45123`` under ``NIC statistics:``), an RDMA port's
``/sys/class/infiniband/<dev>/ports/<n>/hw_counters/*`` as ``grep "" …`` prints them (``…/np_cnp_sent:17269947``)
and ``rdma statistic show`` (``link mlx5_0/1 … np_cnp_sent 123 …``).

A counter only says something when it is not zero, and only what it counts:

* per-priority pause frames sent or received (mlx5 ``rx_prio3_pause`` / ``tx_prio3_pause``, ice
  ``rx_priority_3_xoff`` / ``tx_priority_3_xoff``, bnxt ``rx_pfc_ena_frames_pri3``) → PFC is on for that priority
  (``nic.pfc``). The link-level ``rx_pause_ctrl_phy`` / ``tx_pause_ctrl_phy`` count global 802.3x pause, not PFC.
* ECN-marked RoCE packets arriving or congestion notification packets sent or handled (``np_ecn_marked_roce_packets``,
  ``np_cnp_sent``, ``rp_cnp_handled``) → ECN marking and DCQCN are at work (``nic.ecn``).
* discards and buffer overruns (``rx_discards_phy``, ``rx_out_of_buffer``, ``rx_dropped``…) and CRC / symbol errors
  (``rx_crc_errors_phy``, ``rx_symbol_err_phy``) are noted; no fact stands for them.

Zero counters prove nothing (PFC may be set up and never needed), so nothing is ever read as false.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bwdoctor_parsers.notes import Note, make

# '     rx_prio3_pause: 45123', '/sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent:17269947',
# '     [0]: rx_bytes: 123' (per-queue counters of some drivers), 'tx_priority_3_xoff.nic: 12' (ice)
_ETHTOOL = re.compile(r"^\s*(?:\[\d+\]:\s*)?([A-Za-z][\w.\[\]-]*?)\s*:\s*(\d+)\s*$")
_SYSFS = re.compile(r"/hw_counters/(\w+):(\d+)\s*$")
_RDMA_STAT = re.compile(r"^\s*link\s+\S+/\d+\s+(.*)$")
_PFC = re.compile(r"^(?:rx|tx)_prio\d_pause$|^(?:rx|tx)_priority_\d_xo(?:ff|n)(?:\.nic)?$|"
                  r"^(?:rx|tx)_pfc_(?:ena_)?frames_pri\d$|^(?:rx|tx)_pfc_frames$")
_ECN = re.compile(r"^(?:np_ecn_marked_roce_packets|np_cnp_sent|rp_cnp_handled|rx_ecn_marked_pkts|"
                  r"ecn_marked_roce_packets|cnp_sent|cnp_handled|rx_ecn_marked)$")
_DROPS = re.compile(r"^(?:rx_discards_phy|tx_discards_phy|rx_out_of_buffer|out_of_buffer|rx_buffer_passed_thres_phy|"
                    r"rx_dropped|tx_dropped|rx_missed_errors|rx_fifo_errors|rx_no_buffer_count|rx_prio\d_discards|"
                    r"rx_discards|dropped_?(?:rx|tx)?)$")
_ERRORS = re.compile(r"^(?:rx_crc_errors(?:_phy)?|rx_symbol_err(?:_phy)?|rx_fcs_errors|rx_corrected_bits_phy|"
                     r"rx_pcs_symbol_err_phy|symbol_error|link_error_recovery|link_downed)$")
# Counters that say the output is NIC statistics at all (a single matching line elsewhere is not enough).
_KNOWN = re.compile(r"^(?:rx|tx)_\w+$|^(?:np|rp)_\w+$|^out_of_\w+$|^(?:local_ack_timeout_err|packet_seq_err|"
                    r"out_of_sequence|duplicate_request|implied_nak_seq_err|symbol_error|link_downed)$")


@dataclass
class NicCounters:
    """The non-zero counters by name (the first value seen of each)."""

    counters: dict[str, int] = field(default_factory=dict)

    def _named(self, pattern: re.Pattern[str]) -> dict[str, int]:
        return {k: v for k, v in self.counters.items() if v > 0 and pattern.match(k)}

    def facts(self) -> dict[str, Any]:
        """``nic.pfc`` / ``nic.ecn`` True when their counters moved; never False."""
        out: dict[str, Any] = {}
        if self._named(_PFC):
            out["nic.pfc"] = True
        if self._named(_ECN):
            out["nic.ecn"] = True
        return out

    def coded_notes(self) -> list[Note]:
        out: list[Note] = []
        drops = self._named(_DROPS)
        if drops:
            out.append(make(NOTES, "counters.drops", names=_list(drops)))
        errors = self._named(_ERRORS)
        if errors:
            out.append(make(NOTES, "counters.errors", names=_list(errors)))
        return out

    def notes(self) -> list[str]:
        return [n.text for n in self.coded_notes()]


def _list(counters: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in list(counters.items())[:4])


NOTES = {
    "counters.drops": "NIC counters: {names}: the NIC dropped packets (receive buffers full or no flow control), "
                      "which RDMA pays for with retransmissions",
    "counters.errors": "NIC counters: {names}: errors on the wire (a cable, transceiver or switch port)",
}


def parse_nic_counters(text: str) -> NicCounters:
    """The counters of any of the three forms above; unknown text gives no counters, never an exception."""
    result = NicCounters()
    if not isinstance(text, str) or not text.strip():
        return result
    found: dict[str, int] = {}
    for line in text.splitlines():
        if m := _SYSFS.search(line):
            found.setdefault(m.group(1), int(m.group(2)))
        elif m := _RDMA_STAT.match(line):
            tokens = m.group(1).split()
            for name, value in zip(tokens[::2], tokens[1::2], strict=False):
                if re.fullmatch(r"\w+", name) and value.isdigit():
                    found.setdefault(name, int(value))
        elif (m := _ETHTOOL.match(line)) and len(m.group(2)) < 20:
            found.setdefault(m.group(1), int(m.group(2)))
    known = [k for k in found if _KNOWN.match(k)]
    if len(known) >= 2 or "NIC statistics:" in text or "hw_counters/" in text:
        result.counters = {k: v for k, v in found.items() if _KNOWN.match(k) or "hw_counters/" in text}
    return result


# What the chat's router looks for.
ROUTE = re.compile(r"^\s*NIC statistics:\s*$|/hw_counters/\w+:\d|^\s*(?:rx|tx)_(?:prio\d_pause|discards_phy|"
                   r"pause_ctrl_phy|crc_errors(?:_phy)?|out_of_buffer|priority_\d_xo(?:ff|n)[\w.]*)\s*:\s*\d|"
                   r"^\s*(?:rx_)?out_of_buffer\s*:\s*\d|^\s*link\s+\S+/\d+\s+.*\b(?:np_cnp_sent|rp_cnp_handled)\s+\d",
                   re.M)
