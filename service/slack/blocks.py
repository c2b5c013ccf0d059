"""Block Kit replies from a chat turn: a section per finding (severity emoji and a text label, the evidence,
the top recommendation with its what-if figures), the questions that would settle more, and the sources.

Pure functions of the answer dict, so the slash command and mentions reply alike. Every string is escaped
for Slack mrkdwn (&, <, >), so text from a user or a rule can never become a mention or a link.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bwdoctor.chat.labels import fact_name, fact_value
from bwdoctor.i18n import t

SECTION_LIMIT = 2900  # Slack allows 3000 characters per section text
FALLBACK_LIMIT = 3000
MAX_FINDINGS = 8
MAX_QUESTIONS = 3

EMOJI = {"critical": ":red_circle:", "warning": ":warning:", "info": ":information_source:"}  # severity -> emoji
# Words: service/messages/slack.yaml, through bwdoctor.i18n's t("slack.<key>", lang).


def escape(text: Any) -> str:
    """Slack mrkdwn escaping: only &, < and > are control characters."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def clip(text: str, limit: int) -> str:
    """At most `limit` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": clip(text, SECTION_LIMIT)}}


def _value(fact: str, value: Any, lang: str) -> str:
    try:
        return fact_value(fact, value, lang)
    except Exception:  # an unexpected value type must not cost the whole reply
        return str(value)


def evidence_line(evidence: list[Mapping[str, Any]], lang: str) -> str:
    """`fact` = value (condition) for each piece of evidence."""
    parts = []
    for item in evidence[:6]:
        fact = str(item.get("fact", ""))
        name = fact_name(fact, lang)
        label = f"`{escape(fact)}`" if name == fact else f"{escape(name)} `{escape(fact)}`"
        part = f"{label} = *{escape(_value(fact, item.get('value'), lang))}*"
        if item.get("condition"):
            part += f" (`{escape(item['condition'])}`)"
        parts.append(part)
    return "; ".join(parts)


def top_recommendation(recommendations: list[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The first remedy whose effect was computed for this job, else simply the first one."""
    for rec in recommendations:
        if rec.get("what_if") or rec.get("estimate"):
            return rec
    return recommendations[0] if recommendations else None


def what_if_lines(rec: Mapping[str, Any], lang: str) -> list[str]:
    """'What if <label>: name before → after' for each computed what-if of a remedy."""
    lines = []
    for what_if in (rec.get("what_if") or [])[:3]:
        before = what_if.get("before") or {}
        figures = []
        for fact, after in (what_if.get("values") or {}).items():
            now = f"{_value(fact, before[fact], lang)} → " if fact in before else ""
            figures.append(f"{fact_name(fact, lang)} {now}{_value(fact, after, lang)}")
        if figures:
            label = escape(what_if.get("label", ""))
            lines.append(f"> _{escape(t('slack.what_if', lang))} {label}_: {escape('; '.join(figures))}")
    if not lines and rec.get("estimate"):
        figures = [f"{fact_name(f, lang)} → {_value(f, v, lang)}" for f, v in rec["estimate"].items()]
        lines.append(f"> _{escape(t('slack.what_if', lang))}_: {escape('; '.join(figures))}")
    return lines


def finding_section(finding: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """One finding as a section: severity, title, explanation, evidence, top recommendation and its figures."""
    severity = str(finding.get("severity"))
    severity = severity if severity in EMOJI else "info"
    title = escape(finding.get("title") or finding.get("rule", ""))
    lines = [f"{EMOJI[severity]} *{t('slack.severity_' + severity, lang)}* · *{title}*"]
    if finding.get("explanation"):
        lines.append(escape(clip(str(finding["explanation"]), 700)))
    if finding.get("evidence"):
        lines.append(f"*{t('slack.evidence', lang)}:* {evidence_line(finding['evidence'], lang)}")
    rec = top_recommendation(list(finding.get("recommendations") or []))
    if rec is not None:
        lines.append(f"*{t('slack.top', lang)}:* {escape(clip(str(rec.get('text') or rec.get('id', '')), 600))}")
        lines.extend(what_if_lines(rec, lang))
    return _section("\n".join(lines))


def _headline(answer: str) -> str:
    """The reply's first line: its verdict, what a person sees first (the cards carry the details)."""
    return answer.strip().split("\n", 1)[0]


def build_reply(result: Mapping[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """(fallback text for notifications, Block Kit blocks) of one chat turn."""
    lang = "zh" if result.get("language") == "zh" else "en"
    answer = str(result.get("answer") or "")
    findings = [f for f in result.get("findings") or [] if isinstance(f, Mapping)]
    blocks: list[dict[str, Any]] = []
    if findings:
        blocks.append(_section(f"*{escape(_headline(answer))}*"))
        blocks.append({"type": "divider"})
        blocks.extend(finding_section(f, lang) for f in findings[:MAX_FINDINGS])
    elif answer.strip():  # knowledge answers, what-ifs, help: the text is the reply
        blocks.extend(_section(escape(chunk)) for chunk in _chunks(answer, SECTION_LIMIT)[:5])
    questions = [m["question"] for m in result.get("missing") or [] if isinstance(m, Mapping) and m.get("question")]
    if questions and findings:
        bullets = "\n".join(f"• {escape(q)}" for q in questions[:MAX_QUESTIONS])
        blocks.append(_section(f"*{t('slack.missing', lang)}:*\n{bullets}"))
    sources = sorted({str(s) for f in findings for s in f.get("source") or []})
    rules = [str(f.get("rule")) for f in findings[:MAX_FINDINGS] if f.get("rule")]
    context = [t("slack.footer", lang)]
    if sources:
        context.append(f"{t('slack.sources', lang)}: {', '.join(sources)}")
    if rules:
        context.append(f"{t('slack.rules', lang)}: {', '.join(rules)}")
    blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": clip(escape(c), 2000)} for c in context]})
    fallback = clip(escape(answer) or t("slack.footer", lang), FALLBACK_LIMIT)
    return fallback, blocks


def _chunks(text: str, size: int) -> list[str]:
    """Text split on paragraph boundaries into pieces of at most `size` characters."""
    pieces: list[str] = []
    current = ""
    for paragraph in text.strip().split("\n\n"):
        candidate = f"{current}\n\n{paragraph}" if current else paragraph
        if len(candidate) <= size:
            current = candidate
            continue
        if current:
            pieces.append(current)
        while len(paragraph) > size:
            pieces.append(paragraph[:size])
            paragraph = paragraph[size:]
        current = paragraph
    if current:
        pieces.append(current)
    return pieces
