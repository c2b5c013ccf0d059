"""Alembic migrations shipped inside the package, configured in code (no alembic.ini) so an
installed `bwdoctor` can migrate its own database on start."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).resolve().parent


def alembic_config(database_url: str) -> Config:
    """An Alembic Config pointing at this package's scripts and the given database."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("path_separator", "os")
    # ConfigParser interpolation would treat '%' in URL-encoded passwords or options as syntax.
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    config.attributes["database_url"] = database_url
    return config


def upgrade_database(database_url: str, revision: str = "head") -> None:
    """Bring the schema to `revision`; safe to call on every start and from several replicas."""
    from bwdoctor.paths import ensure_sqlite_folder

    ensure_sqlite_folder(database_url)  # the default file's per-user folder may not exist yet
    command.upgrade(alembic_config(database_url), revision)
