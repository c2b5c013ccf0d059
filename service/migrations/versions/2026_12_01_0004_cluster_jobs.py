"""cluster jobs: the job facts of each cluster (issue 15)

Revision ID: 0004_cluster_jobs
Revises: 0003_fabric
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0004_cluster_jobs"
down_revision: str | None = "0003_fabric"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "cluster_jobs",
        sa.Column("cluster", sa.String(length=128), nullable=False),
        sa.Column("facts", sa.JSON().with_variant(postgresql.JSONB(), "postgresql"), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("cluster", name=op.f("pk_cluster_jobs")),
    )


def downgrade() -> None:
    op.drop_table("cluster_jobs")
