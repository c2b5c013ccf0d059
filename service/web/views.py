"""The web chat at `/` and the shared /static mount (stylesheet and scripts, no CDN)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from bwdoctor.chat.understanding import MAX_QUESTION_CHARS
from bwdoctor.engine import Engine
from bwdoctor.web.templating import STATIC_DIR, page_language, render_page

router = APIRouter(tags=["web"])
router.mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="static")


def fact_labels(engine: Engine, lang: str) -> dict[str, dict[str, str]]:
    """The catalogue's names and units of facts, so cards read 'NIC negotiated link speed 10 Gb/s', not raw keys."""
    catalogue = engine.catalogue
    return {name: {"name": catalogue.label(name, lang), "unit": catalogue[name].unit} for name in catalogue.names()}


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def chat_page(request: Request) -> HTMLResponse:
    """The chat page; the conversation itself is fetched and posted by static/chat.js."""
    engine: Engine = request.app.state.engine
    labels = fact_labels(engine, page_language(request))
    context = {"active": "chat", "facts_json": labels, "max_question_chars": MAX_QUESTION_CHARS}
    return render_page(request, "chat.html", context)
