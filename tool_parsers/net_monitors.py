"""NIC traffic monitors watched during training → the traffic of the busiest interface (``nic.rx_gbps`` /
``nic.tx_gbps``), which the engine sets against the link's rate (is the link saturated? H10).

Read, each in its own units:

* ``iftop``: the curses screen's totals (``TX: cum: 12.3GB peak: 9.41Gb rates: 9.38Gb 9.40Gb 9.35Gb``, then
  ``RX:`` and ``TOTAL:`` with the same columns unnamed) and the text mode's ``Total send rate:`` /
  ``Total receive rate:`` lines. The three rates are the averages over 2 s, 10 s and 40 s; the 10 s one is taken.
  Rates are bits (``b``, ``Kb``, ``Mb``, ``Gb``; 1000), a ``B`` unit is bytes (iftop -B; 1024).
* ``nload``: ``Device eth0 [10.0.0.2] (1/3):`` then ``Incoming:``/``Outgoing:`` blocks of ``Curr:``, ``Avg:``,
  ``Min:``, ``Max:``, ``Ttl:`` (``8.91 GBit/s``, ``kByte/s``; 1024): ``Avg`` (the mean over nload's window) is
  taken, else ``Curr``.
* ``sar -n DEV``: rows under ``IFACE rxpck/s txpck/s rxkB/s txkB/s`` (kB = 1024 bytes); its ``Average:`` rows when
  present, else the mean of the samples.
* ``ifstat`` (Roualland's): interface names over ``KB/s in  KB/s out`` pairs (``Kbps in`` with -b).
* ``dstat -n`` / ``dstat -N eth0,total``: the ``-net/<if>-`` column groups' ``recv send`` (``1150M``; bytes,
  1024). dstat's and nicstat's first row is the average since boot and is skipped when later rows follow.
* ``nicstat``: ``Time Int rKB/s wKB/s …`` rows.

``ip -s link`` and ``/proc/net/dev`` print counters since boot, not rates: nothing is read from them here.
Loopback, docker/bridge/veth/CNI interfaces and bonding slaves' aggregate ``total`` (when interfaces are shown too)
are not the training NIC. Unknown text gives an empty result, never an exception.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from typing import Any

# Interfaces that do not carry inter-node training traffic.
_NOT_TRAINING = re.compile(r"^(?:lo|docker\d*|veth\w*|virbr\w*|br-\w+|cni\d*|flannel[\w.]*|cali\w+|tunl\d+|"
                           r"kube-\w+|vxlan[\w.]*|weave|dummy\d*|tun\d+|tap\w*|wg\d+)$")
_NUM = r"(\d+(?:\.\d+)?(?:e[+-]?\d+)?)"

# iftop (curses): 'TX:  cum: 1.03MB  peak: 2.46Mb  rates: 1.26Mb 1.21Mb 1.08Mb', 'RX:  98.2KB  237Kb  115Kb …'.
_IFTOP_SIZE = r"(\d+(?:\.\d+)?)\s*([KMGT]?)([bB])"
_IFTOP_ROW = re.compile(rf"^\s*(TX|RX|TOTAL):\s+(?:cum:\s*)?{_IFTOP_SIZE}\s+(?:peak:\s*)?{_IFTOP_SIZE}\s+"
                        rf"(?:rates:\s*)?{_IFTOP_SIZE}(?:\s+{_IFTOP_SIZE}(?:\s+{_IFTOP_SIZE})?)?\s*$")
# iftop -t: 'Total send rate:   9.38Gb   9.40Gb   9.35Gb'
_IFTOP_TEXT = re.compile(rf"^\s*Total (send|receive) rate:\s+{_IFTOP_SIZE}(?:\s+{_IFTOP_SIZE}(?:\s+{_IFTOP_SIZE})?)?")
_IFTOP_IFACE = re.compile(r"^\s*(?:interface|Listening on)\s*:?\s*([\w.@:-]+)\s*$")

# nload
_NLOAD_DEVICE = re.compile(r"^\s*Device\s+([\w.@:-]+)\s*(?:\[[^\]]*\])?\s*(?:\(\d+/\d+\))?\s*:\s*$")
_NLOAD_DIR = re.compile(r"^\s*(Incoming|Outgoing)\s*:")
_NLOAD_VALUE = re.compile(r"\b(Curr|Avg|Min|Max)\s*:\s*(\d+(?:\.\d+)?)\s*([kKMGT]?)(Bit|Byte)/s\b")

# sar -n DEV
_SAR_TIME = r"(?:\d{1,2}:\d{2}:\d{2}(?:\s*[AP]M)?|Average:|平均时间:|Moyenne\s*:)"
_SAR_HEAD = re.compile(rf"^\s*{_SAR_TIME}\s+IFACE\s+(.*\brxkB/s\b.*)$")
_SAR_ROW = re.compile(rf"^\s*({_SAR_TIME})\s+([\w.@:-]+)\s+((?:[\d.,]+\s*)+)$")

# nicstat
_NICSTAT_HEAD = re.compile(r"^\s*Time\s+Int\s+rKB/s\s+wKB/s\b")
_NICSTAT_ROW = re.compile(r"^\s*\d{1,2}:\d{2}:\d{2}\s+([\w.@:-]+)\s+(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)\s")

# ifstat
_IFSTAT_UNITS = re.compile(r"^\s*(?:(?:KB/s|Kbps)\s+in\s+(?:KB/s|Kbps)\s+out\s*)+$")

# dstat
_DSTAT_NET = re.compile(r"net/([\w.@:]+?)-")
_DSTAT_VALUE = re.compile(r"^(\d+(?:\.\d+)?)([BkKMG]?)$")


@dataclass
class NetMonitorResult:
    """Rates per interface (Gb/s samples; the key is ``""`` when the tool does not name the interface)."""

    tool: str | None = None
    rx: dict[str, list[float]] = field(default_factory=dict)
    tx: dict[str, list[float]] = field(default_factory=dict)
    partial: bool = False  # a header without rows, a row cut short

    def add(self, iface: str, rx: float | None, tx: float | None) -> None:
        if rx is not None:
            self.rx.setdefault(iface, []).append(rx)
        if tx is not None:
            self.tx.setdefault(iface, []).append(tx)

    def rates(self) -> dict[str, tuple[float | None, float | None]]:
        """Mean (rx, tx) Gb/s of each interface that may carry training traffic."""
        names = [n for n in dict.fromkeys([*self.rx, *self.tx]) if not _NOT_TRAINING.match(n)]
        if len(names) > 1 and "total" in names:
            names.remove("total")  # dstat's sum over the interfaces shown beside it
        out: dict[str, tuple[float | None, float | None]] = {}
        for name in names:
            rx, tx = self.rx.get(name), self.tx.get(name)
            out[name] = (statistics.fmean(rx) if rx else None, statistics.fmean(tx) if tx else None)
        return out

    @property
    def busiest(self) -> str | None:
        rates = self.rates()
        if not rates:
            return None
        return max(rates, key=lambda n: max(v for v in (*rates[n], 0.0) if v is not None))

    def facts(self) -> dict[str, Any]:
        """``nic.rx_gbps`` and ``nic.tx_gbps`` of the busiest interface that can be a training NIC."""
        name = self.busiest
        if name is None:
            return {}
        rx, tx = self.rates()[name]
        out: dict[str, Any] = {}
        if rx is not None:
            out["nic.rx_gbps"] = _round(rx)
        if tx is not None:
            out["nic.tx_gbps"] = _round(tx)
        return out


def _round(gbps: float) -> float:
    return float(f"{gbps:.4g}")


_PREFIX = {"": 0, "k": 1, "K": 1, "M": 2, "G": 3, "T": 4}


def _gbps(value: str, prefix: str, byte: bool, base: int) -> float | None:
    try:
        number = float(value)
    except ValueError:
        return None
    if number != number or number < 0 or prefix not in _PREFIX:
        return None
    bits = number * float(base) ** _PREFIX[prefix] * (8 if byte else 1)
    return float(bits / 1e9)


def _iftop(lines: list[str], result: NetMonitorResult) -> None:
    iface = ""
    for line in lines:
        if m := _IFTOP_IFACE.match(line):
            iface = m.group(1)
        if m := _IFTOP_ROW.match(line):
            # columns: cumulative, peak, then 1 to 3 rates (2 s, 10 s, 40 s); the 10 s average when shown
            sizes = [m.groups()[i:i + 3] for i in range(1, len(m.groups()), 3) if m.group(i + 1) is not None]
            rates = sizes[2:]
            value, prefix, unit = rates[1] if len(rates) > 1 else rates[0]
            gbps = _gbps(value, prefix, unit == "B", 1024 if unit == "B" else 1000)
            if m.group(1) != "TOTAL":
                result.add(iface, gbps if m.group(1) == "RX" else None, gbps if m.group(1) == "TX" else None)
            if len(rates) < 3:
                result.partial = True
        elif m := _IFTOP_TEXT.match(line):
            rates = [m.groups()[i:i + 3] for i in range(1, len(m.groups()), 3) if m.group(i + 1) is not None]
            value, prefix, unit = rates[1] if len(rates) > 1 else rates[0]
            gbps = _gbps(value, prefix, unit == "B", 1024 if unit == "B" else 1000)
            receive = m.group(1) == "receive"
            result.add(iface, gbps if receive else None, None if receive else gbps)


def _nload(lines: list[str], result: NetMonitorResult) -> None:
    iface: str | None = None
    direction: str | None = None
    seen: dict[tuple[str, str], dict[str, float]] = {}
    for line in lines:
        if m := _NLOAD_DEVICE.match(line):
            iface, direction = m.group(1), None
            continue
        if m := _NLOAD_DIR.match(line):
            direction = m.group(1)
        if iface is None or direction is None:
            continue
        for v in _NLOAD_VALUE.finditer(line):
            gbps = _gbps(v.group(2), v.group(3), v.group(4) == "Byte", 1024)
            if gbps is not None:
                seen.setdefault((iface, direction), {})[v.group(1)] = gbps
    for (name, way), values in seen.items():
        value = values.get("Avg", values.get("Curr"))
        if value is not None:
            result.add(name, value if way == "Incoming" else None, value if way == "Outgoing" else None)


def _sar(lines: list[str], result: NetMonitorResult) -> None:
    columns: list[str] | None = None
    samples: dict[str, list[tuple[float, float]]] = {}
    averages: dict[str, tuple[float, float]] = {}
    for line in lines:
        if m := _SAR_HEAD.match(line):
            columns = m.group(1).split()
            continue
        if columns is None or not (m := _SAR_ROW.match(line)):
            continue
        cells = m.group(3).split()
        if "rxkB/s" not in columns or "txkB/s" not in columns:
            return
        if len(cells) <= max(columns.index("rxkB/s"), columns.index("txkB/s")):
            result.partial = True  # a row cut short
            continue
        try:
            rx = float(cells[columns.index("rxkB/s")].replace(",", "."))
            tx = float(cells[columns.index("txkB/s")].replace(",", "."))
        except (ValueError, IndexError):
            continue
        pair = (rx * 1024 * 8 / 1e9, tx * 1024 * 8 / 1e9)
        if m.group(1).startswith(("Average", "平均", "Moyenne")):
            averages[m.group(2)] = pair
        else:
            samples.setdefault(m.group(2), []).append(pair)
    if columns is not None and not samples and not averages:
        result.partial = True
    for name in dict.fromkeys([*samples, *averages]):
        if name in averages:
            result.add(name, *averages[name])
        else:
            for rx, tx in samples[name]:
                result.add(name, rx, tx)


def _nicstat(lines: list[str], result: NetMonitorResult) -> None:
    if not any(_NICSTAT_HEAD.match(line) for line in lines):
        return
    rows: dict[str, list[tuple[float, float]]] = {}
    for line in lines:
        if m := _NICSTAT_ROW.match(line):
            rows.setdefault(m.group(1), []).append((float(m.group(2)), float(m.group(3))))
    for name, values in rows.items():
        for r, w in values[1:] if len(values) > 1 else values:  # the first sample is the average since boot
            result.add(name, r * 1024 * 8 / 1e9, w * 1024 * 8 / 1e9)


def _ifstat(lines: list[str], result: NetMonitorResult) -> None:
    for i, line in enumerate(lines):
        if not _IFSTAT_UNITS.match(line) or i == 0:
            continue
        names = lines[i - 1].split()
        pairs = len(re.findall(r"\bin\b", line))
        bits = "Kbps" in line
        if len(names) != pairs:
            continue
        for row in lines[i + 1:]:
            cells = row.split()
            if len(cells) != 2 * pairs or not all(re.fullmatch(_NUM + "|n/a", c) for c in cells):
                break
            for k, name in enumerate(names):
                rx = _gbps(cells[2 * k], "K", not bits, 1024 if not bits else 1000) if cells[2 * k] != "n/a" else None
                tx = _gbps(cells[2 * k + 1], "K", not bits, 1024 if not bits else 1000) \
                    if cells[2 * k + 1] != "n/a" else None
                result.add(name, rx, tx)
        return


def _dstat_value(cell: str) -> float | None:
    m = _DSTAT_VALUE.match(cell.strip())
    if not m:
        return None
    prefix = m.group(2) if m.group(2) not in ("B", "") else ""
    return _gbps(m.group(1), prefix, True, 1024)


def _dstat(lines: list[str], result: NetMonitorResult) -> None:
    """Plugins are split by '|' in the second header and the rows, a plugin's groups (net/eth0, net/total) by ':'."""
    for i, line in enumerate(lines):
        names = _DSTAT_NET.findall(line)
        if not names or i + 1 >= len(lines) or not re.search(r"\brecv\s+send\b", lines[i + 1]):
            continue
        heads = [part.split(":") for part in lines[i + 1].split("|")]
        slots = [(k, j) for k, part in enumerate(heads) for j, sub in enumerate(part)
                 if sub.split() == ["recv", "send"]]
        if len(slots) != len(names):
            return
        rows = [row for row in lines[i + 2:] if row.count("|") == len(heads) - 1 and row.strip()]
        rows = rows[1:] if len(rows) > 1 else rows  # the first row is the average since boot
        for row in rows:
            plugins = row.split("|")
            for (k, j), name in zip(slots, names, strict=True):
                subs = plugins[k].split(":") if len(heads[k]) > 1 else [plugins[k]]
                pair = subs[j].split() if j < len(subs) else []
                if len(pair) == 2:
                    result.add(name, _dstat_value(pair[0]), _dstat_value(pair[1]))
        if not rows:
            result.partial = True
        return


_TOOLS = (("iftop", _iftop), ("nload", _nload), ("sar", _sar), ("nicstat", _nicstat), ("ifstat", _ifstat),
          ("dstat", _dstat))


def parse_net_monitor(text: str) -> NetMonitorResult:
    """The rates any of the monitors above printed; the first tool that gives any is the result."""
    result = NetMonitorResult()
    if not isinstance(text, str) or not text.strip():
        return result
    lines = text.splitlines()
    for tool, reader in _TOOLS:
        found = NetMonitorResult()
        try:
            reader(lines, found)
        except (ValueError, IndexError, ZeroDivisionError, OverflowError):
            continue
        if found.rx or found.tx or found.partial:
            found.tool = tool
            return found
    return result


# What the chat's router looks for (one line of any of the monitors above).
ROUTE = re.compile(r"^\s*(?:TX|RX|TOTAL):\s+(?:cum:\s*)?\d+(?:\.\d+)?\s*[KMGT]?[bB]\s|^\s*Total (?:send|receive) rate:|"
                   r"^\s*Device\s+[\w.@:-]+\s*(?:\[[^\]]*\])?\s*(?:\(\d+/\d+\))?\s*:\s*$|"
                   r"\b(?:Curr|Avg)\s*:\s*\d+(?:\.\d+)?\s*[kKMGT]?(?:Bit|Byte)/s|\bIFACE\s+rxpck/s\b|"
                   r"^\s*Time\s+Int\s+rKB/s\s+wKB/s|^\s*(?:(?:KB/s|Kbps)\s+in\s+(?:KB/s|Kbps)\s+out\s*)+$|"
                   r"-net/[\w.@:-]+-", re.M)
