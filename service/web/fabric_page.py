"""The cluster page's fabric section: nodes grouped by leaf switch and rail, the latest pair-test
run's node×node bandwidth matrix (an SVG, the suspect marked) and its findings, in English or
Chinese. Reads through bwdoctor.fabric (never the ORM); text passes through svg.text/attr."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from bwdoctor.fabric.localise import describe_element
from bwdoctor.fabric.service import cluster_localisation
from bwdoctor.i18n import messages
from bwdoctor.web import svg

COLOURS = {"ok": "#b7d7ee", "slow": "#fde0a8", "bad": "#f5a48a", "none": "#ffffff"}


def fabric_words(lang: str) -> dict[str, str]:
    """The section's words in `lang` (service/messages/fabric_page.yaml)."""
    return messages("fabric_page", lang)


def _group(latest: Mapping[str, Mapping[str, Any]], fact: str) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for node_id, facts in sorted(latest.items()):
        value = facts.get(fact)
        if isinstance(value, str) and value:
            groups.setdefault(value, []).append(node_id)
    return dict(sorted(groups.items()))


def matrix_svg(loc: Mapping[str, Any], leaf_of: Mapping[str, str], lang: str = "en") -> str:
    """The node×node matrix of best Gb/s, nodes ordered by leaf; the suspects' nodes outlined in red."""
    words = fabric_words(lang)
    nodes = sorted(loc.get("nodes", []), key=lambda n: (leaf_of.get(n, ""), n))
    n = len(nodes)
    cell = max(6, min(28, 520 // max(1, n)))
    label_w = 90
    top = 90
    width = label_w + cell * n + 20
    height = top + cell * n + 70
    index = {node: i for i, node in enumerate(nodes)}
    base = loc.get("baseline_gbps") or 0
    matrix = loc.get("matrix", {})
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{svg.attr(svg.FONT)}" font-size="11">',
        f"<title>{svg.text(words['title'])}</title>",
    ]
    for node, i in index.items():
        y = top + i * cell + cell * 0.7
        parts.append(f'<text x="{label_w - 4}" y="{y:.1f}" text-anchor="end">{svg.text(svg.shorten(node, 14))}</text>')
        x = label_w + i * cell + cell * 0.7
        parts.append(
            f'<text x="{x:.1f}" y="{top - 4}" transform="rotate(-60 {x:.1f} {top - 4})">'
            f"{svg.text(svg.shorten(node, 14))}</text>"
        )
    for a, row in matrix.items():
        for b, gbps in row.items():
            if a not in index or b not in index:
                continue
            share = gbps / base if base else 1.0
            level = "ok" if share >= 0.7 else "slow" if share >= 0.4 else "bad"
            x, y = label_w + index[b] * cell, top + index[a] * cell
            parts.append(
                f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{COLOURS[level]}" stroke="{svg.GRID}" '
                f'data-a="{svg.attr(a)}" data-b="{svg.attr(b)}" data-gbps="{gbps}"><title>{svg.text(a)} ↔ '
                f"{svg.text(b)}: {svg.fmt(gbps)} Gb/s</title></rect>"
            )
    for suspect in loc.get("suspects", []):
        for node in suspect.get("nodes_affected", []):
            if node in index:
                i = index[node]
                parts.append(
                    f'<rect class="suspect" x="{label_w}" y="{top + i * cell}" width="{cell * n}" height="{cell}" '
                    f'fill="none" stroke="#c62828" stroke-width="2" data-element="{svg.attr(suspect["element"])}"/>'
                )
                parts.append(
                    f'<rect class="suspect" x="{label_w + i * cell}" y="{top}" width="{cell}" height="{cell * n}" '
                    f'fill="none" stroke="#c62828" stroke-width="2"/>'
                )
    y = top + cell * n + 18
    for i, (level, key) in enumerate((("ok", "legend_ok"), ("slow", "legend_slow"), ("bad", "legend_bad"))):
        x = 10 + i * 170
        parts.append(f'<rect x="{x}" y="{y - 10}" width="12" height="12" fill="{COLOURS[level]}" stroke="{svg.GRID}"/>')
        parts.append(f'<text x="{x + 16}" y="{y}">{svg.text(words[key])}</text>')
    names = [describe_element(s["element"], lang) for s in loc.get("suspects", [])]
    suspect_line = f"{words['suspect']}: {'; '.join(names) if names else words['none']}"
    parts.append(f'<text x="10" y="{y + 22}" fill="#c62828" font-weight="bold">{svg.text(suspect_line)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def fabric_view(
    name: str, latest: Mapping[str, Mapping[str, Any]], *, db_session: Any, lang: str = "en"
) -> dict[str, Any]:
    """What the cluster page's fabric section shows (groups always; matrix and findings once a run exists)."""
    words = fabric_words(lang)
    leaves = _group(latest, "node.leaf_switch")
    view: dict[str, Any] = {
        "words": words,
        "leaves": leaves,
        "rails": _group(latest, "node.rail"),
        "no_run": words["no_run"].replace("{name}", name),
        "run": None,
    }
    summary = cluster_localisation(name, db_session=db_session, lang=lang)
    if summary is None or not summary.get("localisation"):
        return view
    loc = summary["localisation"]
    leaf_of = {node: leaf for leaf, members in leaves.items() for node in members}
    pct = round(100.0 * loc["tests_used"] / loc["all_pairs"], 1) if loc["all_pairs"] else 0
    view["run"] = {
        "status": summary["status"],
        "counts": words["tests"].format(
            used=loc["tests_used"], all=loc["all_pairs"], pct=pct, status=summary["status"]
        ),
        "svg": Markup(matrix_svg(loc, leaf_of, lang)),
        "findings": summary["findings"],
        "suspects": [s["element"] for s in loc["suspects"]],
    }
    return view
