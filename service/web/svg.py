"""Small SVG chart builders (heat grid, line chart, stacked bars, event strip), drawn server-side.

Pages must work offline and without a JavaScript charting library, so charts are plain SVG
strings. Every piece of text passes through `text()` / `attr()` (XML escaping, and removal of
characters XML 1.0 forbids), because node ids and fact values come from probes. Colour is
never the only signal: each fill level also has a pattern, cells carry their value as text,
series differ by dash and marker shape, and every chart has a legend. The builders' own words
(legend, empty-chart notes, level and severity names) come in the chart's `lang` from i18n.py;
the caller passes every other text already in that language.
"""

from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from bwdoctor.web.i18n import cluster_strings

# Latin, then CJK fonts of every platform, so Chinese labels render wherever any CJK font is installed.
FONT = (
    "system-ui, -apple-system, 'Segoe UI', Roboto, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', "
    "'Noto Sans CJK SC', 'Noto Sans SC', 'Source Han Sans SC', 'WenQuanYi Micro Hei', sans-serif"
)
INK = "#1b1f24"
MUTED = "#57606a"
GRID = "#d0d7de"

# Fill level → (fill colour, pattern id suffix or None); its word is `level_word(level, lang)`.
LEVELS: dict[str, tuple[str, str | None]] = {
    "good": ("#b7d7ee", None),
    "fair": ("#fde0a8", "dots"),
    "poor": ("#f5a48a", "hatch"),
    "info": ("#e3e0f3", None),
    "stale": ("#d8d8d8", "cross"),
    "missing": ("#ffffff", None),
}
SERIES_COLOURS = ("#0b5cad", "#c2410c", "#2f7d32", "#7b3fa0", "#8a6d00")
SERIES_DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2")
MARKERS = ("circle", "square", "triangle", "diamond", "cross")
SEGMENT_STYLES: dict[str, tuple[str, str | None]] = {
    "compute": ("#9db9d6", None),
    "comm": ("#f0a35e", "hatch"),
}
SEVERITY_MARKERS = {
    "critical": ("square", "#b42318"),
    "warning": ("triangle", "#b54708"),
    "info": ("circle", "#175cd3"),
}

_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_ID_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def clean(value: object) -> str:
    """The text without characters XML 1.0 cannot carry (a probe may send any string)."""
    return _INVALID_XML.sub("\ufffd", str(value))


def text(value: object) -> str:
    """Escaped character data."""
    return escape(clean(value))


def attr(value: object) -> str:
    """An escaped, double-quoted attribute value."""
    return '"' + escape(clean(value), {'"': "&quot;", "\n": "&#10;", "\t": "&#9;"}) + '"'


def level_word(level: str, lang: str = "en") -> str:
    """The word a fill level shows in cells and legends ('good', '良好'…)."""
    return cluster_strings(lang)["ch_level_" + level]


def severity_word(severity: str, lang: str = "en") -> str:
    """A finding's severity in words; an unknown one (a user rule's) as it is."""
    return cluster_strings(lang).get("ch_severity_" + severity, severity)


def fmt(value: float | None, digits: int = 3, *, na: str = "n/a") -> str:
    """A number with about `digits` significant figures, no needless zeros (`na` for None)."""
    if value is None or not math.isfinite(value):
        return na
    if value == 0:
        return "0"
    magnitude = int(math.floor(math.log10(abs(value))))
    decimals = max(0, digits - 1 - magnitude)
    out = f"{value:.{decimals}f}"
    return out.rstrip("0").rstrip(".") if "." in out else out


def text_width(value: str, size: float) -> float:
    """About how wide `value` draws at font `size`: CJK characters take a full em, others about 0.6,
    so legends in Chinese are spaced as well as in English."""
    return size * sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.6 for ch in value)


def shorten(value: str, limit: int) -> str:
    """At most `limit` characters, with an ellipsis when cut (the full text goes in a tooltip)."""
    return value if len(value) <= limit else value[: max(1, limit - 1)] + "…"


def chart_id(*parts: object) -> str:
    """A stable id prefix for one chart, so several inline SVGs on a page never share pattern ids."""
    digest = hashlib.sha1("|".join(str(p) for p in parts).encode("utf-8", "replace")).hexdigest()[:8]
    return "c" + digest


def _safe_id(prefix: str) -> str:
    return _ID_UNSAFE.sub("_", prefix)[:40] or "chart"


def _patterns(pid: str) -> str:
    return (
        "<defs>"
        f'<pattern id="{pid}-hatch" width="8" height="8" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="8" stroke="#7a2e12" '
        'stroke-width="2" stroke-opacity="0.35"/></pattern>'
        f'<pattern id="{pid}-dots" width="7" height="7" patternUnits="userSpaceOnUse">'
        '<circle cx="3.5" cy="3.5" r="1.3" fill="#8a5a00" fill-opacity="0.45"/></pattern>'
        f'<pattern id="{pid}-cross" width="9" height="9" patternUnits="userSpaceOnUse">'
        '<path d="M0 0L9 9M9 0L0 9" stroke="#555" stroke-width="1" stroke-opacity="0.35"/></pattern>'
        "</defs>"
    )


def _open(width: float, height: float, title: str, desc: str, pid: str, css_class: str) -> list[str]:
    """The start of every chart: the accessible title and description, the fill patterns, and the
    title drawn at the top left."""
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" class={attr(css_class)} '
        f'aria-labelledby="{pid}-title {pid}-desc" font-family={attr(FONT)} font-size="13">',
        f'<title id="{pid}-title">{text(title)}</title>',
        f'<desc id="{pid}-desc">{text(desc or title)}</desc>',
        _patterns(pid),
        _label(8, 20, title, size=15, weight="bold"),
    ]


def _close(out: list[str]) -> str:
    """The finished SVG document."""
    out.append("</svg>")
    return "".join(out)


def _rect(x: float, y: float, w: float, h: float, fill: str, pattern: str | None, pid: str, extra: str = "") -> str:
    out = f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(w, 0):.1f}" height="{h:.1f}" fill="{fill}"{extra}/>'
    if pattern:
        out += f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(w, 0):.1f}" height="{h:.1f}" fill="url(#{pid}-{pattern})"/>'
    return out


def _swatch_legend(
    x: float, y: float, items: Sequence[tuple[str, str | None, bool, str]], pid: str, lang: str
) -> list[str]:
    """'Legend:' then, per item (fill, pattern, dashed outline, word), a filled swatch and its word."""
    heading = cluster_strings(lang)["ch_legend"]
    out = [_label(x, y, heading, weight="bold")]
    x += text_width(heading, 13) + 16
    for fill, pattern, dashed, word in items:
        dash = ' stroke-dasharray="3 3"' if dashed else ""
        out.append(_rect(x, y - 13, 22, 16, fill, pattern, pid, extra=f' stroke="{MUTED}"{dash}'))
        out.append(_label(x + 28, y, word))
        x += 44 + text_width(word, 13)
    return out


def _label(
    x: float,
    y: float,
    value: str,
    *,
    anchor: str = "start",
    size: int = 13,
    weight: str = "normal",
    fill: str = INK,
    css_class: str = "",
) -> str:
    cls = f" class={attr(css_class)}" if css_class else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" font-weight="{weight}" '
        f'fill="{fill}"{cls}>{text(value)}</text>'
    )


def _marker(shape: str, x: float, y: float, colour: str, size: float = 4.5) -> str:
    if shape == "square":
        side = 2 * size
        return f'<rect x="{x - size:.1f}" y="{y - size:.1f}" width="{side:.1f}" height="{side:.1f}" fill="{colour}"/>'
    if shape == "triangle":
        pts = f"{x:.1f},{y - size * 1.2:.1f} {x - size * 1.1:.1f},{y + size:.1f} {x + size * 1.1:.1f},{y + size:.1f}"
        return f'<polygon points="{pts}" fill="{colour}"/>'
    if shape == "diamond":
        pts = f"{x:.1f},{y - size * 1.3:.1f} {x + size:.1f},{y:.1f} {x:.1f},{y + size * 1.3:.1f} {x - size:.1f},{y:.1f}"
        return f'<polygon points="{pts}" fill="{colour}"/>'
    if shape == "cross":
        return (
            f'<path d="M{x - size:.1f} {y - size:.1f}L{x + size:.1f} {y + size:.1f}M{x + size:.1f} {y - size:.1f}'
            f'L{x - size:.1f} {y + size:.1f}" stroke="{colour}" stroke-width="2.2"/>'
        )
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size:.1f}" fill="{colour}"/>'


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering [low, high] (1, 2, 5 × 10^k steps)."""
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
        high = low + 1
    raw = (high - low) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    start = math.floor(low / step) * step
    ticks = []
    value = start
    while value <= high + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    if ticks[-1] < high:
        ticks.append(round(value, 10))
    return ticks


# ---------------------------------------------------------------- heat grid


@dataclass(frozen=True)
class GridCell:
    """One coloured cell: the value as text, its level (a LEVELS key) and a tooltip."""

    text: str
    level: str = "missing"
    tooltip: str = ""


@dataclass(frozen=True)
class GridRow:
    """One row: a label, badges such as STRAGGLER or STALE, an optional link, and its cells."""

    label: str
    cells: Sequence[GridCell]
    badges: Sequence[str] = ()
    href: str | None = None


def heat_grid(
    columns: Sequence[str],
    rows: Sequence[GridRow],
    *,
    title: str,
    desc: str = "",
    id_prefix: str = "grid",
    levels_shown: Sequence[str] = ("good", "fair", "poor", "info", "stale", "missing"),
    label_width: int = 250,
    cell_width: int = 190,
    row_height: int = 34,
    lang: str = "en",
) -> str:
    """Rows × columns of coloured cells, each with its value written in it; a legend below."""
    pid = _safe_id(id_prefix)
    top = 52
    width = label_width + cell_width * len(columns) + 12
    legend_y = top + row_height * max(len(rows), 1) + 26
    height = legend_y + 30
    out = _open(width, height, title, desc, pid, "bwd-chart bwd-heat-grid")
    for i, column in enumerate(columns):
        out.append(
            _label(label_width + i * cell_width + cell_width / 2, top - 10, column, anchor="middle", weight="bold")
        )
    if not rows:
        out.append(_label(8, top + 22, cluster_strings(lang)["ch_no_nodes"], fill=MUTED))
    for r, row in enumerate(rows):
        y = top + r * row_height
        out.append(f'<g class="bwd-row" data-label={attr(row.label)}>')
        badge_text = "  ".join(f"[{b}]" for b in row.badges)
        label = shorten(row.label, 26)
        name = _label(8, y + row_height / 2 + 1, label, weight="bold" if row.badges else "normal")
        name = name.replace("</text>", f"<title>{text(row.label)}</title></text>")
        if row.href:
            name = f"<a href={attr(row.href)}>{name}</a>"
        out.append(name)
        if badge_text:
            out.append(
                _label(
                    8,
                    y + row_height / 2 + 14,
                    badge_text,
                    size=10,
                    weight="bold",
                    fill="#8a1c0c",
                    css_class="bwd-badge",
                )
            )
        for c, cell in enumerate(row.cells):
            x = label_width + c * cell_width
            fill, pattern = LEVELS.get(cell.level, LEVELS["missing"])
            dash = ' stroke-dasharray="3 3"' if cell.level == "missing" else ""
            out.append(f"<g class={attr('bwd-cell bwd-' + cell.level)}>")
            out.append(
                _rect(x + 2, y + 2, cell_width - 4, row_height - 4, fill, pattern, pid, extra=f' stroke="{GRID}"{dash}')
            )
            out.append(_label(x + cell_width / 2, y + row_height / 2 + 5, cell.text, anchor="middle"))
            if cell.tooltip:
                out.append(f"<title>{text(cell.tooltip)}</title>")
            out.append("</g>")
        out.append("</g>")
    swatches = [(*LEVELS[level], level == "missing", level_word(level, lang)) for level in levels_shown]
    out.extend(_swatch_legend(8.0, legend_y, swatches, pid, lang))
    return _close(out)


# ---------------------------------------------------------------- line chart


@dataclass(frozen=True)
class Series:
    """A named line; a point whose y is None breaks the line."""

    label: str
    points: Sequence[tuple[float, float | None]]


@dataclass(frozen=True)
class Reference:
    """A horizontal line such as the NIC's rated speed."""

    label: str
    value: float


def line_chart(
    series: Sequence[Series],
    *,
    title: str,
    y_label: str,
    x_format: Callable[[float], str] = fmt,
    references: Sequence[Reference] = (),
    y_min: float | None = 0.0,
    y_max: float | None = None,
    desc: str = "",
    id_prefix: str = "line",
    width: int = 720,
    height: int = 280,
    lang: str = "en",
) -> str:
    """Lines over time with distinct dash and marker per series, reference lines, axes and a legend."""
    pid = _safe_id(id_prefix)
    series = [s for s in series if any(y is not None for _, y in s.points)]  # an empty line says nothing
    left, right, top, bottom = 64, 110, 40, 64
    plot_w, plot_h = width - left - right, height - top - bottom
    xs = [x for s in series for x, y in s.points if y is not None]
    ys = [y for s in series for _, y in s.points if y is not None] + [r.value for r in references]
    out = _open(width, height, title, desc, pid, "bwd-chart bwd-line-chart")
    if not xs:
        out.append(_label(left, top + plot_h / 2, cluster_strings(lang)["ch_no_data"], fill=MUTED))
        return _close(out)
    lo = min(ys) if y_min is None else min(y_min, min(ys))
    hi = max(ys) if y_max is None else max(y_max, max(ys))
    ticks = nice_ticks(lo, hi if hi > lo else lo + 1)
    lo, hi = ticks[0], ticks[-1]
    x_lo, x_hi = min(xs), max(xs)
    span = (x_hi - x_lo) or 1.0

    def px(x: float) -> float:
        return left + (plot_w / 2 if x_hi == x_lo else (x - x_lo) / span * plot_w)

    def py(y: float) -> float:
        return top + plot_h - (y - lo) / (hi - lo) * plot_h

    for tick in ticks:
        out.append(f'<line x1="{left}" y1="{py(tick):.1f}" x2="{left + plot_w}" y2="{py(tick):.1f}" stroke="{GRID}"/>')
        out.append(_label(left - 6, py(tick) + 4, fmt(tick), anchor="end", size=11, fill=MUTED))
    out.append(
        f'<text x="14" y="{top + plot_h / 2:.1f}" transform="rotate(-90 14 {top + plot_h / 2:.1f})" '
        f'text-anchor="middle" font-size="11" fill="{MUTED}">{text(y_label)}</text>'
    )
    x_ticks = [x_lo] if x_hi == x_lo else [x_lo + span * i / 3 for i in range(4)]
    for i, tick in enumerate(x_ticks):
        anchor = (
            "middle" if len(x_ticks) == 1 else ("start" if i == 0 else "end" if i == len(x_ticks) - 1 else "middle")
        )
        out.append(_label(px(tick), top + plot_h + 18, x_format(tick), anchor=anchor, size=11, fill=MUTED))
    out.append(f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="{MUTED}"/>')
    for ref in references:
        y = py(ref.value)
        out.append(
            f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#6e7781" '
            'stroke-width="1.5" stroke-dasharray="10 4" class="bwd-reference"/>'
        )
        out.append(_label(left + 4, y - 4, f"{ref.label} {fmt(ref.value)}", size=11, fill=MUTED))
    end_labels: list[float] = []
    for i, s in enumerate(series):
        colour = SERIES_COLOURS[i % len(SERIES_COLOURS)]
        dash = SERIES_DASHES[i % len(SERIES_DASHES)]
        shape = MARKERS[i % len(MARKERS)]
        pts = sorted(s.points, key=lambda p: p[0])
        out.append(f'<g class="bwd-series" data-series={attr(s.label)}>')
        segment: list[str] = []
        ended: list[tuple[float, float | None]] = [*pts, (math.inf, None)]
        for x, value in ended:
            if value is None:
                if len(segment) > 1:
                    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
                    out.append(
                        f'<polyline points="{" ".join(segment)}" fill="none" stroke="{colour}" '
                        f'stroke-width="2"{dash_attr}/>'
                    )
                segment = []
                continue
            segment.append(f"{px(x):.1f},{py(value):.1f}")
        for x, value in pts:
            if value is not None:
                out.append(_marker(shape, px(x), py(value), colour, 3.5))
        last = next(((x, y) for x, y in reversed(pts) if y is not None), None)
        if last is not None:
            label_y = py(last[1]) + 4
            while any(abs(label_y - used) < 12 for used in end_labels):  # keep end values legible
                label_y += 12
            end_labels.append(label_y)
            out.append(_label(px(last[0]) + 8, label_y, fmt(last[1]), size=11, fill=colour))
        out.append("</g>")
    lx, ly = float(left), height - 12
    for i, s in enumerate(series):
        colour = SERIES_COLOURS[i % len(SERIES_COLOURS)]
        dash = SERIES_DASHES[i % len(SERIES_DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<line x1="{lx}" y1="{ly - 4}" x2="{lx + 26}" y2="{ly - 4}" stroke="{colour}" '
            f'stroke-width="2"{dash_attr}/>'
        )
        out.append(_marker(MARKERS[i % len(MARKERS)], lx + 13, ly - 4, colour, 3.5))
        label = shorten(s.label, 24)
        out.append(_label(lx + 32, ly, label, size=11))
        lx += 44 + text_width(label, 11)
    for ref in references:
        out.append(
            f'<line x1="{lx}" y1="{ly - 4}" x2="{lx + 26}" y2="{ly - 4}" stroke="#6e7781" stroke-width="1.5" '
            'stroke-dasharray="10 4"/>'
        )
        out.append(_label(lx + 32, ly, ref.label, size=11))
        lx += 44 + text_width(ref.label, 11)
    return _close(out)


# ---------------------------------------------------------------- stacked bars


@dataclass(frozen=True)
class Segment:
    """Part of a bar: a kind from SEGMENT_STYLES (compute, comm) and its length."""

    kind: str
    value: float


@dataclass(frozen=True)
class Bar:
    label: str
    segments: Sequence[Segment]
    note: str = ""
    highlight: bool = False


@dataclass(frozen=True)
class BarGroup:
    """Bars under one heading (e.g. 'link speed', 'compression')."""

    heading: str
    bars: Sequence[Bar] = field(default_factory=tuple)


def stacked_bars(
    groups: Sequence[BarGroup],
    *,
    title: str,
    x_label: str,
    legend: Sequence[tuple[str, str]],
    desc: str = "",
    id_prefix: str = "bars",
    width: int = 960,
    label_width: int = 220,
    note_width: int = 350,
    bar_height: int = 22,
    x_max: float | None = None,
    lang: str = "en",
) -> str:
    """Horizontal stacked bars in groups, a value axis, a note right of each bar, and a legend."""
    pid = _safe_id(id_prefix)
    top = 58
    plot_w = width - label_width - note_width
    rows = sum(len(g.bars) + 1 for g in groups)
    axis_y = top + rows * (bar_height + 6) + 4
    height = axis_y + 62
    totals = [sum(s.value for s in b.segments) for g in groups for b in g.bars]
    ticks = nice_ticks(0.0, x_max or max(totals, default=1.0) or 1.0)
    hi = ticks[-1]

    def px(v: float) -> float:
        return label_width + v / hi * plot_w

    out = _open(width, height, title, desc, pid, "bwd-chart bwd-bar-chart")
    for tick in ticks:
        out.append(f'<line x1="{px(tick):.1f}" y1="{top - 6}" x2="{px(tick):.1f}" y2="{axis_y}" stroke="{GRID}"/>')
        out.append(_label(px(tick), axis_y + 16, fmt(tick), anchor="middle", size=11, fill=MUTED))
    out.append(_label(label_width + plot_w / 2, axis_y + 32, x_label, anchor="middle", size=11, fill=MUTED))
    y = float(top)
    for group in groups:
        out.append(_label(8, y + bar_height - 6, group.heading, weight="bold", fill=MUTED))
        y += bar_height + 6
        for bar in group.bars:
            out.append(f'<g class="bwd-bar" data-label={attr(bar.label)}>')
            out.append(_label(20, y + bar_height - 6, bar.label, weight="bold" if bar.highlight else "normal"))
            x = float(label_width)
            for seg in bar.segments:
                fill, pattern = SEGMENT_STYLES.get(seg.kind, ("#cccccc", None))
                w = seg.value / hi * plot_w
                out.append(_rect(x, y, w, bar_height, fill, pattern, pid, extra=' stroke="#ffffff"'))
                x += w
            out.append(_label(x + 6, y + bar_height - 6, bar.note, size=12))
            out.append("</g>")
            y += bar_height + 6
    swatches = [(*SEGMENT_STYLES.get(kind, ("#cccccc", None)), False, word) for kind, word in legend]
    out.extend(_swatch_legend(8.0, axis_y + 50, swatches, pid, lang))
    return _close(out)


# ---------------------------------------------------------------- event strip


@dataclass(frozen=True)
class Event:
    """A finding seen at time x in lane `lane` with a severity (critical, warning, info)."""

    lane: int
    x: float
    severity: str
    tooltip: str = ""


def event_strip(
    lanes: Sequence[str],
    events: Sequence[Event],
    *,
    title: str,
    x_format: Callable[[float], str] = fmt,
    desc: str = "",
    id_prefix: str = "events",
    width: int = 720,
    lane_height: int = 24,
    label_width: int = 260,
    lang: str = "en",
) -> str:
    """Which findings were present at which report: one lane per finding, severity as marker shape."""
    pid = _safe_id(id_prefix)
    top = 40
    plot_w = width - label_width - 30
    axis_y = top + max(len(lanes), 1) * lane_height
    height = axis_y + 56
    out = _open(width, height, title, desc, pid, "bwd-chart bwd-event-strip")
    if not lanes or not events:
        out.append(_label(8, top + 16, cluster_strings(lang)["ch_no_findings"], fill=MUTED))
        return _close(out)
    xs = [e.x for e in events]
    x_lo, x_hi = min(xs), max(xs)
    span = (x_hi - x_lo) or 1.0

    def px(x: float) -> float:
        return label_width + (plot_w / 2 if x_hi == x_lo else (x - x_lo) / span * plot_w)

    for i, lane in enumerate(lanes):
        y = top + i * lane_height + lane_height / 2
        out.append(f'<line x1="{label_width}" y1="{y:.1f}" x2="{label_width + plot_w}" y2="{y:.1f}" stroke="{GRID}"/>')
        name = _label(8, y + 4, shorten(lane, 34), size=12)
        out.append(name.replace("</text>", f"<title>{text(lane)}</title></text>"))
    for e in events:
        shape, colour = SEVERITY_MARKERS.get(e.severity, SEVERITY_MARKERS["info"])
        y = top + e.lane * lane_height + lane_height / 2
        out.append(f"<g class={attr('bwd-event bwd-' + e.severity)}>{_marker(shape, px(e.x), y, colour)}")
        if e.tooltip:
            out.append(f"<title>{text(e.tooltip)}</title>")
        out.append("</g>")
    out.append(_label(label_width, axis_y + 16, x_format(x_lo), size=11, fill=MUTED))
    if x_hi != x_lo:
        out.append(_label(label_width + plot_w, axis_y + 16, x_format(x_hi), anchor="end", size=11, fill=MUTED))
    lx, ly = 8.0, axis_y + 42
    heading = cluster_strings(lang)["ch_legend"]
    out.append(_label(lx, ly, heading, weight="bold"))
    lx += text_width(heading, 13) + 20
    for severity, (shape, colour) in SEVERITY_MARKERS.items():
        word = severity_word(severity, lang)
        out.append(_marker(shape, lx, ly - 4, colour))
        out.append(_label(lx + 10, ly, word))
        lx += 30 + text_width(word, 13)
    return _close(out)
