"""Imports every domain's models so the metadata (and Alembic) sees all tables."""

from bwdoctor.conversations.models import Conversation, Turn
from bwdoctor.fabric.models import FabricCluster, FabricEndpoint, FabricRun, FabricTest
from bwdoctor.jobs.models import ClusterJob
from bwdoctor.nodes.models import Node, Report
from bwdoctor.slack.models import SlackThread
from bwdoctor.tokens.models import ProbeToken

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
