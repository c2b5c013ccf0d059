"""The readable table ``agent-probe collect --format text`` prints."""

from __future__ import annotations

from typing import Any

from bwdoctor_probe.collect import Report

_UNITS = (("_gbps", "Gb/s"), ("_gbytes_per_s", "GB/s"), ("_pct", "%"), ("_ms", "ms"), ("_s", "s"))


def _value(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    text = f"{value:g}" if isinstance(value, float) else str(value)
    for suffix, unit in _UNITS:
        if key.endswith(suffix):
            return f"{text} {unit}"
    return text


def render_text(report: Report) -> str:
    """Facts as an aligned two-column table, then per-peer results and the notes."""
    lines = [f"agent-probe: {report.facts.get('node.id', '?')} at {report.collected_at.isoformat(timespec='seconds')}"
             f" (window {report.details.get('window_s', 0):g} s)", ""]
    width = max((len(k) for k in report.facts), default=10)
    lines += [f"  {key:<{width}}  {_value(key, value)}" for key, value in report.facts.items()]
    peers = report.details.get("peers") or []
    if peers:
        lines += ["", "peers:"]
        for peer in peers:
            speed = f"{peer['iperf3_gbps']:g} Gb/s" if peer.get("iperf3_gbps") is not None else "-"
            rtt = f"{peer['rtt_ms']:.3f} ms" if peer.get("rtt_ms") is not None else "-"
            lines.append(f"  {peer['host']:<24} {speed:>14} {rtt:>12}  {peer.get('error') or ''}".rstrip())
    if report.notes:
        lines += ["", "notes:"] + [f"  - {note}" for note in report.notes]
    return "\n".join(lines) + "\n"
