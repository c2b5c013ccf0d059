"""Text from rules shown safely on the pages: inline markdown (`code`, **bold**, [links](https://…))
rendered after escaping everything, and source tags as readable links. Installed as Jinja filters
`md` and `source_refs` (templating.py)."""

from __future__ import annotations

import re
from typing import Any

from jinja2 import Environment
from markupsafe import Markup, escape

from bwdoctor.reference.sources import SourceRef, source_refs

_CODE = re.compile(r"`([^`\n]+)`")
_BOLD = re.compile(r"\*\*([^*\n]+)\*\*")
_LINK = re.compile(r"\[([^\]\n]+)\]\((https?://[^)\s]+)\)")


def inline_markdown(text: Any) -> Markup:
    """The text escaped first (so nothing in it can become markup), then `code`, **bold** and
    [text](https://…) turned into their tags. Only http(s) links: no javascript: or data: URLs."""
    if text is None:
        return Markup("")
    html = str(escape(str(text)))
    html = _CODE.sub(r"<code>\1</code>", html)
    html = _BOLD.sub(r"<strong>\1</strong>", html)
    html = _LINK.sub(r'<a href="\2" rel="noopener noreferrer">\1</a>', html)
    return Markup(html)


def _source_refs(tags: Any, lang: str = "en") -> list[SourceRef]:
    return source_refs(tags, lang)


def install_filters(env: Environment) -> None:
    env.filters["md"] = inline_markdown
    env.filters["source_refs"] = _source_refs
