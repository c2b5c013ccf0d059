"""The cluster page's regressions section: every lasting change for the worse found in its nodes'
histories — node, since when, how much worse, what changed at the same time — in English or Chinese.
Reads through bwdoctor.fabric (the same detection as GET /api/v1/nodes/{id}/regressions)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from bwdoctor.engine import builtin_catalogue
from bwdoctor.fabric.service import cluster_regressions_of
from bwdoctor.i18n import messages
from bwdoctor.web import svg

PER_NODE = 200


def _when(moment: Any) -> str:
    return moment.strftime("%Y-%m-%d %H:%M") + " UTC" if isinstance(moment, datetime) else str(moment)


def regressions_view(node_ids: Iterable[str], *, db_session: Any, lang: str = "en") -> dict[str, Any]:
    """The section's words and rows in `lang`."""
    words = messages("regressions_page", lang)  # service/messages/regressions_page.yaml
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
