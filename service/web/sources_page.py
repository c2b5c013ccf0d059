"""/sources: where the findings' source tags lead — the article's heuristics with readable names
(anchors #h1…#h39) and the public pages rules cite, in the page language."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from bwdoctor.engine import Engine
from bwdoctor.reference.sources import heuristic_sections, source_ref
from bwdoctor.web.i18n import cluster_strings
from bwdoctor.web.templating import page_language, render_page

router = APIRouter(tags=["web"])


@router.get("/sources", response_class=HTMLResponse, include_in_schema=False)
def sources_page(request: Request) -> HTMLResponse:
    lang = page_language(request)
    engine: Engine = request.app.state.engine
    urls = sorted({tag for rule in engine.rules for tag in rule.source if tag.startswith(("https://", "http://"))})
    return render_page(
        request,
        "sources.html",
        {
            "t2": cluster_strings(lang),
            "sections": heuristic_sections(lang),
            "urls": [source_ref(u, lang) for u in urls],
        },
    )
