"""The cluster page's regressions section: every lasting change for the worse found in its nodes'
histories — node, since when, how much worse, what changed at the same time — in English or Chinese.
Reads through service.fabric (the same detection as GET /api/v1/nodes/{id}/regressions)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from service.engine import builtin_catalogue
from service.fabric.service import cluster_regressions_of
from service.web import svg

WORDS = {
    "en": {
        "heading": "Regressions over time",
        "caption": "Lasting changes for the worse in each node's recent reports, worst first",
        "none": "No lasting change for the worse in the nodes' recent reports.",
        "node": "Node",
        "since": "Since",
        "what": "What got worse",
        "how_much": "How much",
        "changed": "Changed at the same time",
        "nothing_changed": "nothing the reports name",
        "slower": "{pct} % slower",
        "lower": "{pct} % lower",
        "note": "From the newest {n} reports of each node; a change counts when it lasts (not one bad report).",
    },
    "zh": {
        "heading": "随时间的性能退化",
        "caption": "各节点近期报告中持续变差的变化，最严重的在前",
        "none": "各节点近期报告中没有持续变差的变化。",
        "node": "节点",
        "since": "自",
        "what": "变差的指标",
        "how_much": "幅度",
        "changed": "同时发生的变化",
        "nothing_changed": "报告里没有同时变化的项",
        "slower": "慢了 {pct}%",
        "lower": "降低 {pct}%",
        "note": "基于每个节点最近 {n} 份报告；只计持续的变化（不是单次异常）。",
    },
}
PER_NODE = 200


def _when(moment: Any) -> str:
    return moment.strftime("%Y-%m-%d %H:%M") + " UTC" if isinstance(moment, datetime) else str(moment)


def regressions_view(node_ids: Iterable[str], *, db_session: Any, lang: str = "en") -> dict[str, Any]:
    """The section's words and rows in `lang`."""
    words = WORDS.get(lang, WORDS["en"])
    catalogue = builtin_catalogue()
    rows = []
    for r in cluster_regressions_of(list(node_ids), db_session=db_session, lang=lang, per_node_max=PER_NODE):
        worse = words["slower" if r["fact"] == "job.step_time_s" else "lower"].replace("{pct}", svg.fmt(r["pct_worse"]))
        rows.append(
            {
                "node_id": r["node_id"],
                "since": r["since"],
                "since_text": _when(r["since"]),
                "fact": r["fact"],
                "fact_label": catalogue.label(r["fact"], lang),
                "pct_worse": r["pct_worse"],
                "how_much": f"{worse} ({svg.fmt(r['before'])} → {svg.fmt(r['after'])})",
                "changed": [
                    f"{catalogue.label(k, lang)}: {a} → {b}" for k, (a, b) in sorted(r["changed_with"].items())
                ],
                "text": r["text"],
            }
        )
    return {"words": {**words, "note": words["note"].replace("{n}", str(PER_NODE))}, "rows": rows}
