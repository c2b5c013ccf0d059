"""hardening (issue 14): probe tokens bound to a node or a cluster; stored facts cleaned

Tokens get two nullable columns, node_id and cluster: a bound token may write only that node or
that cluster's nodes (403 elsewhere); existing tokens stay unbound and keep working.

Reports stored before the input bounds could hold a number beyond 64 bits or ±1e18 (1e308 comes
back from jsonb as a 309-digit integer), which made every read of the node and its cluster fail.
Such facts are dropped from the stored reports (their findings cleared, to be computed again);
reads hold stored facts to the same check too (service/nodes/stored.py).

Revision ID: 0005_hardening
Revises: 0004_cluster_jobs
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_hardening"
down_revision: str | None = "0004_cluster_jobs"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("probe_tokens") as batch:
        batch.add_column(sa.Column("node_id", sa.String(length=128), nullable=True))
        batch.add_column(sa.Column("cluster", sa.String(length=128), nullable=True))

    from bwdoctor.nodes.stored import clean_poisoned_reports

    clean_poisoned_reports(op.get_bind())


def downgrade() -> None:
    """Tokens lose their binding (they become unbound: check them before downgrading); cleaned facts stay."""
    with op.batch_alter_table("probe_tokens") as batch:
        batch.drop_column("cluster")
        batch.drop_column("node_id")
