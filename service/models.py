"""Imports every domain's models so the metadata (and Alembic) sees all tables."""

from service.conversations.models import Conversation, Turn
from service.fabric.models import FabricCluster, FabricEndpoint, FabricRun, FabricTest
from service.nodes.models import Node, Report
from service.slack.models import SlackThread
from service.tokens.models import ProbeToken

__all__ = [
    "Conversation",
    "FabricCluster",
    "FabricEndpoint",
    "FabricRun",
    "FabricTest",
    "Node",
    "ProbeToken",
    "Report",
    "SlackThread",
    "Turn",
]
