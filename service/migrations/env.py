"""Alembic environment: migrates the database named in the config, with an advisory lock on
PostgreSQL so replicas starting together do not race each other."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, pool, text

import bwdoctor.models  # noqa: F401  (registers every table on the metadata)
from bwdoctor.database import metadata

config = context.config
url = str(config.attributes.get("database_url") or config.get_main_option("sqlalchemy.url"))
MIGRATION_LOCK_ID = 0x6277646F  # "bwdo"


def run_migrations_offline() -> None:
    context.configure(url=url, target_metadata=metadata, literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    engine = create_engine(url, poolclass=pool.NullPool)
    with engine.connect() as connection:
        is_postgres = connection.dialect.name == "postgresql"
        if is_postgres:
            connection.execute(text("SELECT pg_advisory_lock(:id)"), {"id": MIGRATION_LOCK_ID})
            connection.commit()
        try:
            context.configure(
                connection=connection,
                target_metadata=metadata,
                render_as_batch=connection.dialect.name == "sqlite",
            )
            with context.begin_transaction():
                context.run_migrations()
        finally:
            if is_postgres:
                connection.execute(text("SELECT pg_advisory_unlock(:id)"), {"id": MIGRATION_LOCK_ID})
                connection.commit()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
