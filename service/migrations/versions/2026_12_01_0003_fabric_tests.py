"""fabric tests: per-cluster opt-in, probes' test endpoints, runs and their pair tests (issue 16)

Revision ID: 0003_fabric
Revises: 0002
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0003_fabric"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UTC_DATETIME = sa.DateTime(timezone=True)
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
BIG_PK = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "fabric_clusters",
        sa.Column("cluster", sa.String(length=128), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("duration_s", sa.Float(), nullable=False),
        sa.Column("rate_gbps", sa.Float(), nullable=True),
        sa.Column("max_parallel", sa.Integer(), nullable=False),
        sa.Column("interval_s", sa.Float(), nullable=True),
        sa.Column("updated_at", UTC_DATETIME, nullable=False),
        sa.PrimaryKeyConstraint("cluster", name=op.f("pk_fabric_clusters")),
    )
    op.create_table(
        "fabric_endpoints",
        sa.Column("node_id", sa.String(length=128), nullable=False),
        sa.Column("cluster", sa.String(length=128), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("port", sa.Integer(), nullable=False),
        sa.Column("polled_at", UTC_DATETIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["node_id"], ["nodes.id"], name=op.f("fk_fabric_endpoints_node_id_nodes"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("node_id", name=op.f("pk_fabric_endpoints")),
    )
    op.create_index(op.f("ix_fabric_endpoints_cluster"), "fabric_endpoints", ["cluster"], unique=False)
    op.create_table(
        "fabric_runs",
        sa.Column("id", BIG_PK, autoincrement=True, nullable=False),
        sa.Column("cluster", sa.String(length=128), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("started_at", UTC_DATETIME, nullable=False),
        sa.Column("finished_at", UTC_DATETIME, nullable=True),
        sa.Column("participants", JSON, nullable=False),
        sa.Column("policy", JSON, nullable=False),
        sa.Column("localisation", JSON, nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fabric_runs")),
    )
    op.create_index("ix_fabric_runs_cluster_started_at", "fabric_runs", ["cluster", "started_at"], unique=False)
    op.create_table(
        "fabric_tests",
        sa.Column("id", BIG_PK, autoincrement=True, nullable=False),
        sa.Column("run_id", BIG_PK, nullable=False),
        sa.Column("client", sa.String(length=128), nullable=False),
        sa.Column("server", sa.String(length=128), nullable=False),
        sa.Column("server_address", sa.String(length=64), nullable=False),
        sa.Column("server_port", sa.Integer(), nullable=False),
        sa.Column("stage", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("duration_s", sa.Float(), nullable=False),
        sa.Column("rate_gbps", sa.Float(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("assigned_at", UTC_DATETIME, nullable=False),
        sa.Column("deadline", UTC_DATETIME, nullable=False),
        sa.Column("finished_at", UTC_DATETIME, nullable=True),
        sa.Column("gbps", sa.Float(), nullable=True),
        sa.Column("error", sa.String(length=500), nullable=True),
        sa.ForeignKeyConstraint(
            ["run_id"], ["fabric_runs.id"], name=op.f("fk_fabric_tests_run_id_fabric_runs"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fabric_tests")),
    )
    op.create_index("ix_fabric_tests_run_id_status", "fabric_tests", ["run_id", "status"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_fabric_tests_run_id_status", table_name="fabric_tests")
    op.drop_table("fabric_tests")
    op.drop_index("ix_fabric_runs_cluster_started_at", table_name="fabric_runs")
    op.drop_table("fabric_runs")
    op.drop_index(op.f("ix_fabric_endpoints_cluster"), table_name="fabric_endpoints")
    op.drop_table("fabric_endpoints")
    op.drop_table("fabric_clusters")
