"""`bwdoctor diagnose` and `bwdoctor ask`: the engine and the chat, offline (no service, no database)."""

from __future__ import annotations

import json

import click

from bwdoctor.cli.common import LANGS, engine_or_exit, fail, read_document, warn_unknown
from bwdoctor.engine import EngineError, render_text


@click.command()
@click.argument("source", default="-", metavar="[FILE|-]")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--lang", type=LANGS, default="en", show_default=True)
@click.option("--strict", is_flag=True, help="Unknown fact names are an error (exit 2), not a warning.")
def diagnose(source: str, fmt: str, lang: str, strict: bool) -> None:
    """Diagnose a set of facts (a JSON or YAML object), offline."""
    raw = read_document(source)
    engine = engine_or_exit()
    from bwdoctor.errors import ServiceError
    from bwdoctor.facts import validate_facts

    try:  # the same shape and catalogue checks as POST /api/v1/diagnose
        facts = validate_facts(engine, raw)
    except (EngineError, ServiceError) as exc:
        fail(str(exc))
    from bwdoctor.unknown_facts import unknown_facts

    unknown = unknown_facts(facts, engine.catalogue)  # a typo is ignored by every rule: say so
    warn_unknown(unknown, strict)
    result = engine.diagnose(facts, lang=lang).to_dict()
    result["warnings"] = [item.to_dict(lang) for item in unknown]
    if fmt == "json":
        click.echo(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        click.echo(render_text(result, lang), nl=False)


@click.command()
@click.argument("question")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--lang", type=LANGS, default=None, help="Reply language (default: the question's own).")
def ask(question: str, fmt: str, lang: str | None) -> None:
    """Ask a question in English or Chinese, offline (one chat turn)."""
    from bwdoctor.chat.answer import format_text
    from bwdoctor.conversations.service import QuestionTooLong, check_question_length
    from bwdoctor.conversations.service import ask as ask_flow

    if not question.strip():
        fail("the question is empty")
    try:
        check_question_length(question)  # before the rules are even loaded
    except QuestionTooLong as exc:
        fail(str(exc))
    result = ask_flow(question, engine=engine_or_exit(), lang=lang)
    if fmt == "json":
        click.echo(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        click.echo(format_text(result))
