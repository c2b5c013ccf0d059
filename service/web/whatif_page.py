"""The what-if chart's address opened in a browser without what it needs: a readable page (422)
naming the missing or wrong facts and an example that draws, instead of the API's JSON error."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse

from bwdoctor.engine import Engine
from bwdoctor.errors import ServiceError
from bwdoctor.i18n import messages
from bwdoctor.web.templating import page_language, render_page

EXAMPLE = "/charts/whatif.svg?job.model_params_b=70&job.precision=bf16&job.nodes=8&job.step_time_baseline_s=2"


def wants_html(request: Request) -> bool:
    """A browser navigating (Accept: text/html), not a script or an <img> asking for the picture."""
    return "text/html" in request.headers.get("accept", "")


def whatif_error_page(request: Request, error: ServiceError, engine: Engine) -> HTMLResponse:
    lang = page_language(request)
    details = error.details if isinstance(error.details, dict) else {}
    missing = [str(k) for k in details.get("missing") or []]
    questions = {k: engine.catalogue.question(k, lang) for k in missing if k in engine.catalogue}
    response = render_page(
        request,
        "whatif_missing.html",
        {
            "w": messages("whatif_page", lang),
            "message": error.message,
            "missing": missing,
            "questions": questions,
            "example": f"{EXAMPLE}&lang={lang}",
        },
        remember_language=False,
    )
    response.status_code = error.status_code
    return response
