"""Imports every domain's models so the metadata (and Alembic) sees all tables."""

from service.conversations.models import Conversation, Turn
from service.nodes.models import Node, Report
from service.slack.models import SlackThread
from service.tokens.models import ProbeToken

__all__ = ["Conversation", "Node", "ProbeToken", "Report", "SlackThread", "Turn"]
