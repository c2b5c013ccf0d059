"""One row per cluster: the job facts that describe what it trains."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from bwdoctor.database import Base, JsonType, UTCDateTime


class ClusterJob(Base):
    """The job facts of a cluster (job.*, model.*), validated against the catalogue when set."""

    __tablename__ = "cluster_jobs"

    cluster: Mapped[str] = mapped_column(String(128), primary_key=True)
    facts: Mapped[dict[str, Any]] = mapped_column(JsonType)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())
