"""initial schema: nodes, reports, probe tokens, conversations, turns

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

Json = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
BigIntPk = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def ts(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "conversations",
        sa.Column("id", sa.String(length=64), nullable=False),
        ts("created_at"),
        ts("updated_at"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_conversations")),
    )
    op.create_table(
        "nodes",
        sa.Column("id", sa.String(length=128), nullable=False),
        sa.Column("cluster", sa.String(length=128), nullable=True),
        sa.Column("region", sa.String(length=128), nullable=True),
        sa.Column("zone", sa.String(length=128), nullable=True),
        sa.Column("rack", sa.String(length=128), nullable=True),
        sa.Column("instance_type", sa.String(length=128), nullable=True),
        ts("first_seen"),
        ts("last_seen"),
        sa.Column("latest_report_pk", BigIntPk, nullable=True),
        ts("latest_collected_at", nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_nodes")),
    )
    op.create_index(op.f("ix_nodes_cluster"), "nodes", ["cluster"], unique=False)
    op.create_table(
        "probe_tokens",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=128), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        ts("created_at"),
        ts("revoked_at", nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_probe_tokens")),
        sa.UniqueConstraint("name", name=op.f("uq_probe_tokens_name")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_probe_tokens_token_hash")),
    )
    op.create_table(
        "reports",
        sa.Column("pk", BigIntPk, autoincrement=True, nullable=False),
        sa.Column("node_id", sa.String(length=128), nullable=False),
        sa.Column("report_id", sa.String(length=128), nullable=False),
        ts("collected_at"),
        ts("received_at"),
        sa.Column("facts", Json, nullable=False),
        sa.Column("findings", Json, nullable=True),
        ts("diagnosed_at", nullable=True),
        sa.ForeignKeyConstraint(
            ["node_id"], ["nodes.id"], name=op.f("fk_reports_node_id_nodes"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("pk", name=op.f("pk_reports")),
        sa.UniqueConstraint("node_id", "report_id", name=op.f("uq_reports_node_id_report_id")),
    )
    op.create_index("ix_reports_collected_at", "reports", ["collected_at"], unique=False)
    op.create_index("ix_reports_node_id_collected_at", "reports", ["node_id", "collected_at"], unique=False)
    op.create_table(
        "turns",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("conversation_id", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("question", sa.Text(), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("facts", Json, nullable=False),
        sa.Column("answer", sa.Text(), nullable=False),
        sa.Column("findings", Json, nullable=False),
        ts("created_at"),
        sa.ForeignKeyConstraint(
            ["conversation_id"],
            ["conversations.id"],
            name=op.f("fk_turns_conversation_id_conversations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_turns")),
        sa.UniqueConstraint("conversation_id", "seq", name=op.f("uq_turns_conversation_id_seq")),
    )


def downgrade() -> None:
    op.drop_table("turns")
    op.drop_index("ix_reports_node_id_collected_at", table_name="reports")
    op.drop_index("ix_reports_collected_at", table_name="reports")
    op.drop_table("reports")
    op.drop_table("probe_tokens")
    op.drop_index(op.f("ix_nodes_cluster"), table_name="nodes")
    op.drop_table("nodes")
    op.drop_table("conversations")
