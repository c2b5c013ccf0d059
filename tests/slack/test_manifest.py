"""The shipped Slack app manifest asks for what the adapter uses, and points at its routes."""

from __future__ import annotations

from pathlib import Path

import yaml

MANIFEST = Path(__file__).resolve().parents[2] / "deploy" / "slack-app-manifest.yaml"


def test_manifest_matches_the_adapter() -> None:
    manifest = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    assert set(manifest["oauth_config"]["scopes"]["bot"]) == {"app_mentions:read", "chat:write", "commands"}
    (command,) = manifest["features"]["slash_commands"]
    assert command["command"] == "/bwdoctor" and command["url"].endswith("/slack/commands")
    assert manifest["features"]["bot_user"]["display_name"]
    events = manifest["settings"]["event_subscriptions"]
    assert events["request_url"].endswith("/slack/events") and events["bot_events"] == ["app_mention"]
    assert manifest["settings"]["socket_mode_enabled"] is False  # HTTP endpoints, signed requests
