"""What every HTML page shares: the template folder, the UI language, and the security headers.

Other pages (the cluster view) render through `render_page` so they get the same CSP and language
handling without repeating it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from bwdoctor.web.i18n import LANG_COOKIE, SUPPORTED, pick_language, ui_strings
from bwdoctor.web.richtext import install_filters

WEB_DIR = Path(__file__).resolve().parent
TEMPLATES_DIR = WEB_DIR / "templates"
STATIC_DIR = WEB_DIR / "static"

templates = Jinja2Templates(directory=str(TEMPLATES_DIR))
install_filters(templates.env)  # `md` (safe inline markdown) and `source_refs` (readable source links)

# No inline script or style, nothing from another origin: whatever a user or the server puts in
# an answer can never become code (the JS renders it with textContent only).
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "manifest-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "object-src 'none'",
    ]
)

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


def page_language(request: Request) -> str:
    """?lang= (the toggle), then the cookie the toggle set, then Accept-Language, then English."""
    query = request.query_params.get("lang", "")
    if query in SUPPORTED:
        return query
    cookie = request.cookies.get(LANG_COOKIE, "")
    if cookie in SUPPORTED:
        return cookie
    return pick_language(request.headers.get("accept-language", ""))


def render_page(
    request: Request, template: str, context: dict[str, Any] | None = None, *, remember_language: bool = True
) -> HTMLResponse:
    """A page in the visitor's language, with the strict security headers.

    A ?lang= from the toggle is remembered in a cookie; a part of a page that a script re-fetches
    with the page's own ?lang= passes `remember_language=False`, or a background refresh in one tab
    would undo a toggle made in another."""
    lang = page_language(request)
    strings = ui_strings(lang)
    response = templates.TemplateResponse(
        request,
        template,
        {"lang": lang, "t": strings, "other_lang": "zh" if lang == "en" else "en", **(context or {})},
        headers=SECURITY_HEADERS,
    )
    if remember_language and request.query_params.get("lang") in SUPPORTED:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86400, samesite="lax", httponly=True)
    return response
