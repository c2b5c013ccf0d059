"""Imports every domain's models so the metadata (and Alembic) sees all tables."""

from service.conversations.models import Conversation, Turn
from service.fabric.models import FabricCluster, FabricEndpoint, FabricRun, FabricTest
from service.jobs.models import ClusterJob
from service.nodes.models import Node, Report
from service.slack.models import SlackThread
from service.tokens.models import ProbeToken

__all__ = [
    "ClusterJob",
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
