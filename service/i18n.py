"""The project's one way to translate its own words: a YAML catalogue per domain, one function to read it.

`service/messages/<domain>.yaml` maps each key to its English and Chinese text ({en: …, zh: …}), side by
side so a translator sees both; `t("<domain>.<key>", lang, **values)` gives the text in `lang` (English
for a language we do not have) with `{placeholders}` filled by str.format. Surfaces that do not know the
reader's language (Slack's help) say both with `bilingual`. Rule, fact and recommendation texts are the
rule base's own (rules/*.yaml); this is for everything else the service says.
"""

from __future__ import annotations

import functools
import string
from pathlib import Path
from typing import Any

import yaml

SUPPORTED = ("en", "zh")
MESSAGES_DIR = Path(__file__).resolve().parent / "messages"


class CatalogueError(ValueError):
    """A message catalogue is missing, malformed, or lacks a language for a key."""


def placeholders(text: str) -> set[str]:
    """The names of `text`'s {placeholders} (format specs aside)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@functools.cache
def catalogue(domain: str) -> dict[str, dict[str, str]]:
    """`domain`'s words as language -> key -> text, read once; both languages have every key."""
    path = MESSAGES_DIR / f"{domain}.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise CatalogueError(f"message catalogue {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise CatalogueError(f"message catalogue {path}: expected a mapping of key -> {{en, zh}}")
    table: dict[str, dict[str, str]] = {lang: {} for lang in SUPPORTED}
    for key, texts in data.items():
        if not isinstance(texts, dict) or set(texts) != set(SUPPORTED):
            raise CatalogueError(f"message catalogue {path}: {key!r} must have exactly {', '.join(SUPPORTED)}")
        for lang in SUPPORTED:
            if not isinstance(texts[lang], str):
                raise CatalogueError(f"message catalogue {path}: {key}.{lang} is not text")
            table[lang][str(key)] = texts[lang]
    return table


def messages(domain: str, lang: str) -> dict[str, str]:
    """Every text of `domain` in `lang` (English for an unknown language); shared, do not modify."""
    table = catalogue(domain)
    return table.get(lang, table["en"])


def t(key: str, lang: str, **values: Any) -> str:
    """The text of "<domain>.<key>" in `lang`, its {placeholders} filled from `values`."""
    domain, _, name = key.partition(".")
    text = messages(domain, lang)[name]
    return text.format(**values) if values else text


def bilingual(key: str, sep: str = "\n", **values: Any) -> str:
    """The text in every supported language, English first: for readers whose language is not known."""
    return sep.join(t(key, lang, **values) for lang in SUPPORTED)
