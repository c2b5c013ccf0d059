"""The web chat at `/` and the shared /static mount (stylesheet and scripts, no CDN)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from service.web.templating import STATIC_DIR, page_language, render_page

router = APIRouter(tags=["web"])
router.mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="static")


def fact_labels(engine: Any, lang: str) -> dict[str, dict[str, str]]:
    """Human names and units of facts, so cards read 'NIC rated speed 10 Gb/s' rather than raw keys."""
    labels: dict[str, dict[str, str]] = {}
    catalogue = getattr(engine, "catalogue", None)
    if catalogue is not None:
        for name in catalogue.names():
            spec = catalogue.get(name)
            labels[name] = {"name": name, "unit": getattr(spec, "unit", "") or ""}
    try:  # the chat core's names; the page still works with raw keys if it is absent
        from service.chat.labels import FACTS
    except ImportError:
        FACTS = {}
    for name, entry in FACTS.items():
        labels.setdefault(name, {"name": name, "unit": ""})
        labels[name]["name"] = entry[1] if lang == "zh" else entry[0]
    return labels


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def chat_page(request: Request) -> HTMLResponse:
    """The chat page; the conversation itself is fetched and posted by static/chat.js."""
    labels = fact_labels(request.app.state.engine, page_language(request))
    return render_page(request, "chat.html", {"active": "chat", "facts_json": labels})
