"""One chat turn, three doors: POST /api/v1/ask, Slack's /bwdoctor and `bwdoctor ask` go through the same
flow (conversations.service.ask), so the same question gets the same answer from each, in each language."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from bwdoctor.config import Settings
from bwdoctor.main import create_app
from bwdoctor.slack.blocks import build_reply
from tests.conftest import REPO
from tests.helpers import live_server
from tests.slack.test_slack_http import post_command

QUESTIONS = (
    "We train a 100B parameter model with data parallelism on 8 nodes, FP16, and the NICs are 10GbE",
    "我们用8台机器做数据并行，训练一个100B参数的模型，FP16，网卡是10GbE，GPU利用率只有40%",
)
# What a turn is, whichever door it came through (the conversation id and echo of the question aside).
COMPARED = ("answer", "language", "facts", "derived", "findings", "missing", "intent", "understood")


@pytest.fixture
def service(slack_settings_factory: Callable[..., Settings], engine: Any) -> Iterator[str]:
    app = create_app(slack_settings_factory(), engine=engine)
    with live_server(app) as base:
        yield base


def cli_answer(question: str) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "bwdoctor.cli", "ask", "--format", "json", question],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


@pytest.mark.parametrize("question", QUESTIONS, ids=("en", "zh"))
def test_api_slack_and_cli_answer_alike(service: str, question: str) -> None:
    api = httpx.post(f"{service}/api/v1/ask", json={"question": question}, timeout=30)
    assert api.status_code == 200, api.text
    api_turn = api.json()
    assert api_turn["findings"], "a question with no finding would prove little"

    cli_turn = cli_answer(question)
    assert {k: cli_turn.get(k) for k in COMPARED} == {k: api_turn.get(k) for k in COMPARED}

    slack = post_command(service, question)
    assert slack.status_code == 200, slack.text
    text, blocks = build_reply(api_turn)
    assert slack.json() == {"response_type": "in_channel", "text": text, "blocks": blocks}
