"""Chat history and chat rate (issue 14, defect 9): conversations idle past the retention are pruned
(turns and Slack threads with them), and a client asking faster than the limit gets 429 with
Retry-After, on /api/v1/ask and the Slack slash command. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlencode

from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from bwdoctor.conversations.models import Conversation, Turn
from bwdoctor.database import utcnow
from bwdoctor.main import create_app, prune_once
from tests.helpers import assert_error_shape
from tests.slack.conftest import SIGNING_SECRET, sign


def test_the_fourth_question_in_the_window_is_a_429_with_retry_after(settings_factory, engine):
    app = create_app(settings_factory(ask_rate_limit=3, ask_rate_window_s=60), engine=engine)
    with TestClient(app) as client:
        for _ in range(3):
            assert client.post("/api/v1/ask", json={"question": "8 nodes, 10GbE"}).status_code == 200
        refused = client.post("/api/v1/ask", json={"question": "8 nodes, 10GbE"})
        assert_error_shape(refused, 429, "rate_limited")
        assert 1 <= int(refused.headers["Retry-After"]) <= 60


def test_the_slash_command_is_limited_per_slack_user(settings_factory, engine):
    settings = settings_factory(ask_rate_limit=2, slack_signing_secret=SIGNING_SECRET)
    app = create_app(settings, engine=engine)

    def command(client, user):
        body = urlencode({"team_id": "T1", "user_id": user, "text": "8 nodes 10GbE"}).encode()
        headers = {**sign(body), "content-type": "application/x-www-form-urlencoded"}
        return client.post("/slack/commands", content=body, headers=headers)

    with TestClient(app) as client:
        assert [command(client, "U1").status_code for _ in range(2)] == [200, 200]
        refused = command(client, "U1")
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
        assert command(client, "U2").status_code == 200  # another user is counted apart


def test_idle_conversations_are_pruned_with_their_turns(settings_factory, engine, db_session):
    app = create_app(settings_factory(conversation_retention_days=30), engine=engine)
    with TestClient(app) as client:
        old = client.post("/api/v1/ask", json={"question": "8 nodes"}).json()["conversation_id"]
        fresh = client.post("/api/v1/ask", json={"question": "2 nodes"}).json()["conversation_id"]
        db_session.execute(
            update(Conversation).where(Conversation.id == old).values(updated_at=utcnow() - timedelta(days=31))
        )
        db_session.commit()
        prune_once(app)
        assert client.get(f"/api/v1/conversations/{old}").status_code == 404
        assert client.get(f"/api/v1/conversations/{fresh}").status_code == 200
    assert db_session.scalar(select(func.count()).select_from(Turn).where(Turn.conversation_id == old)) == 0
