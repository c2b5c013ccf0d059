"""The what-if chart's address opened in a browser without what it needs: a readable page (422)
naming the missing or wrong facts and an example that draws, instead of the API's JSON error."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse

from service.engine import Engine
from service.errors import ServiceError
from service.web.templating import page_language, render_page

EXAMPLE = "/charts/whatif.svg?job.model_params_b=70&job.precision=bf16&job.nodes=8&job.step_time_baseline_s=2"
WORDS = {
    "en": {
        "title": "What-if chart: not enough to draw",
        "needs": "Give these facts in the address:",
        "example": "An example that draws:",
        "cluster": "On a cluster page the chart draws itself once the cluster's job facts are set "
        "(bwdoctor jobs set CLUSTER job.yaml, or PUT /api/v1/clusters/{name}/job).",
    },
    "zh": {
        "title": "假设分析图：信息不足，无法绘制",
        "needs": "请在地址中给出这些数据：",
        "example": "一个可以绘制的例子：",
        "cluster": "在集群页面上，设置好该集群的任务数据后图会自动显示"
        "（bwdoctor jobs set CLUSTER job.yaml，或 PUT /api/v1/clusters/{name}/job）。",
    },
}


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
            "w": WORDS.get(lang, WORDS["en"]),
            "message": error.message,
            "missing": missing,
            "questions": questions,
            "example": f"{EXAMPLE}&lang={lang}",
        },
        remember_language=False,
    )
    response.status_code = error.status_code
    return response
