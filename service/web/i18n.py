"""The web pages' language: their words (service/messages/web.yaml and cluster_pages.yaml, read through
bwdoctor.i18n, the project's one way to translate) and choosing between them from Accept-Language.

Answers come in the question's language from the chat core; these are only the page's labels.
`UI` holds what every page (and the chat script) needs; `CLUSTER_UI` what only the cluster and
node pages and their SVG charts say, so the chat page's JSON island does not carry it.
Placeholders such as `{name}` are filled by the caller (str.format in Python, `replace` in
templates, so the value is escaped as text).
"""

from __future__ import annotations

from bwdoctor.i18n import SUPPORTED, catalogue

__all__ = ["CLUSTER_UI", "LANG_COOKIE", "SUPPORTED", "UI", "cluster_strings", "pick_language", "ui_strings"]

LANG_COOKIE = "bwd_lang"

UI: dict[str, dict[str, str]] = catalogue("web")  # language -> key -> text
CLUSTER_UI: dict[str, dict[str, str]] = catalogue("cluster_pages")
_CLUSTER_STRINGS = {lang: {**UI[lang], **CLUSTER_UI[lang]} for lang in SUPPORTED}


def ui_strings(lang: str) -> dict[str, str]:
    """The page's labels in `lang` (English for anything unknown)."""
    return UI.get(lang, UI["en"])


def cluster_strings(lang: str) -> dict[str, str]:
    """The cluster and node pages' labels in `lang` (English for anything unknown): the shared page
    words plus their own, merged once here since every chart and page asks for them (read-only)."""
    return _CLUSTER_STRINGS.get(lang, _CLUSTER_STRINGS["en"])


def pick_language(accept_language: str) -> str:
    """The best supported language of an Accept-Language header by q-value; English by default."""
    best, best_q = "en", -1.0
    for part in accept_language.split(",")[:20]:
        tag, _, params = part.strip().partition(";")
        primary = tag.strip().lower().split("-")[0]
        if primary not in SUPPORTED:
            continue
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        # Strictly greater: on a tie the earlier entry (the preferred one) stays.
        if q > best_q:
            best, best_q = primary, q
    return best if best_q > 0 else "en"
