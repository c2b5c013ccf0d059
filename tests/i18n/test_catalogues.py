"""The project's one way to translate its own words (service/i18n.py): catalogues that load, say the same
placeholders in both languages, and no bilingual word tables left in the web, Slack and chat code."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

from bwdoctor import i18n
from bwdoctor.i18n import CatalogueError, bilingual, catalogue, placeholders, t

REPO = Path(__file__).resolve().parents[2]
DOMAINS = sorted(p.stem for p in i18n.MESSAGES_DIR.glob("*.yaml"))
CJK = re.compile(r"[\u4e00-\u9fff]")


def test_the_web_and_slack_catalogues_exist() -> None:
    assert {"web", "cluster_pages", "fabric_page", "whatif_page", "slack", "chat", "chat_facts",
            "chat_knowledge"} <= set(DOMAINS)


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_key_says_the_same_placeholders_in_both_languages(domain: str) -> None:
    table = catalogue(domain)
    assert table["en"] and set(table["en"]) == set(table["zh"])
    differ = {k: (placeholders(table["en"][k]), placeholders(table["zh"][k])) for k in table["en"]
              if placeholders(table["en"][k]) != placeholders(table["zh"][k])}
    assert not differ


def test_t_fills_placeholders_and_falls_back_to_english() -> None:
    assert t("slack.too_long", "en", length=25000, limit=20000).startswith("Your question is 25,000 characters")
    assert "25000" in t("slack.too_long", "zh", length=25000, limit=20000)
    assert t("web.send", "fr") == t("web.send", "en") == "Send"
    assert t("web.send", "zh") == "发送"
    with pytest.raises(KeyError):
        t("web.no_such_key", "en")


def test_bilingual_says_english_then_chinese() -> None:
    assert bilingual("slack.sorry", sep=" ") == f"{t('slack.sorry', 'en')} {t('slack.sorry', 'zh')}"


def test_a_catalogue_missing_a_language_is_refused_naming_the_key(tmp_path, monkeypatch) -> None:
    (tmp_path / "broken_for_test.yaml").write_text("fine: {en: a, zh: 甲}\nhalf: {en: only english}\n")
    monkeypatch.setattr(i18n, "MESSAGES_DIR", tmp_path)
    with pytest.raises(CatalogueError, match="'half' must have exactly en, zh"):
        catalogue("broken_for_test")


@pytest.mark.parametrize("path", ["service/web", "service/slack"])
def test_no_bilingual_word_tables_left_in_code(path: str) -> None:
    """Chinese in web or Slack code means a translation written outside the catalogues (the one exception:
    the Chinese word a Slack user types for help)."""
    found = []
    for file in sorted((REPO / path).glob("*.py")):
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if CJK.search(code) and '"""' not in line and "帮助" not in line:
                found.append(f"{file.relative_to(REPO)}:{number}: {line.strip()}")
    assert not found, ("words written outside the catalogues; move them to service/messages/<domain>.yaml and "
                       "read them with bwdoctor.i18n.t / messages:\n" + "\n".join(found))


# The chat's readers: their literal Chinese is what they READ (numerals, units, keywords), not what they say.
CHAT_READERS = {"extract", "counts", "comparisons", "scopes", "entities", "commands", "accounting", "units", "text",
                "intents", "pasted", "understanding", "language"}


def chinese_said_in(source: str) -> list[int]:
    """Lines of `source` where a string literal holds Chinese that is neither a docstring nor a raw string
    (the chat writes the patterns that match Chinese input as r"…"; everything it says goes to a catalogue)."""
    docstrings = {node.body[0].lineno for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant) and isinstance(node.body[0].value.value, str)}
    found, prefix = [], ""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.STRING:
            prefix = re.match(r"[a-zA-Z]*", token.string).group().lower()  # type: ignore[union-attr]
            text = token.string
        elif token.type == getattr(tokenize, "FSTRING_START", None):
            prefix = token.string.lower()
            continue
        elif token.type == getattr(tokenize, "FSTRING_MIDDLE", None):
            text = token.string
        else:
            continue
        if CJK.search(text) and "r" not in prefix and token.start[0] not in docstrings:
            found.append(token.start[0])
    return found


def test_the_chat_says_nothing_in_chinese_outside_its_catalogues() -> None:
    """service/chat's replies come from service/messages/chat*.yaml; only the readers keep Chinese (what they
    match in the user's words), and only as patterns or the words they read."""
    found = []
    for file in sorted((REPO / "service/chat").glob("*.py")):
        if file.stem in CHAT_READERS:
            continue
        lines = file.read_text(encoding="utf-8").splitlines()
        found += [f"{file.relative_to(REPO)}:{n}: {lines[n - 1].strip()}"
                  for n in chinese_said_in(file.read_text(encoding="utf-8"))]
    assert not found, ("Chinese the chat says, written outside the catalogues; move it to "
                       "service/messages/chat.yaml and read it with bwdoctor.i18n.t:\n" + "\n".join(found))


@pytest.mark.parametrize("source, said", [
    ('x = t(lang, "Conclusion: ", "结论：")\n', [1]),
    ('x = f"如果{change}："\n', [1]),
    ('PATTERN = re.compile(r"够不够|够用吗")\n', []),
    ('def f():\n    """\'不对，是25G\' corrects the rate."""\n', []),
    ("x = 1  # 注释\n", []),
])
def test_the_check_tells_words_from_patterns(source: str, said: list[int]) -> None:
    assert chinese_said_in(source) == said
