"""Service settings: one pydantic-settings object read from BWDOCTOR_* variables and `.env`."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bwdoctor.paths import default_database_url

SUPPORTED_DATABASES = "sqlite:///path/to/file.db or postgresql+psycopg://user:password@host:5432/name"


def normalise_database_url(url: str) -> str:
    """The URL the service can use, or ValueError saying which forms it takes.

    `postgresql://` and `postgres://` (what most hosting panels print) mean the installed psycopg
    driver; SQLAlchemy alone would reach for psycopg2, which is not a dependency.
    """
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url.strip())
    except ArgumentError:
        raise ValueError(f"not a database URL: use {SUPPORTED_DATABASES}") from None
    if parsed.drivername in ("postgresql+psycopg", "sqlite", "sqlite+pysqlite"):
        return url.strip()
    if parsed.drivername in ("postgresql", "postgres"):
        return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    raise ValueError(f"{parsed.drivername!r} databases are not supported: use {SUPPORTED_DATABASES}")


class SlackSettings(BaseModel):
    """What the Slack adapter needs; both secrets stay SecretStr so they never reach a log."""

    signing_secret: SecretStr | None = None
    bot_token: SecretStr | None = None
    api_base_url: str = "https://slack.com/api/"


class Settings(BaseSettings):
    """Everything the service reads from the environment, with defaults that work on a fresh clone."""

    model_config = SettingsConfigDict(env_prefix="BWDOCTOR_", env_file=".env", extra="ignore")

    # Default: an SQLite file at one absolute place per user (BWDOCTOR_HOME; service/paths.py).
    database_url: str = Field(default_factory=default_database_url)
    rules_dirs: str = Field(default="", description="extra rule folders, ':'-separated")
    slack_signing_secret: SecretStr | None = None
    slack_bot_token: SecretStr | None = None
    slack_api_base_url: str = Field(
        default="https://slack.com/api/", description="Slack Web API base URL (tests point it at a fake)"
    )

    @field_validator("database_url")
    @classmethod
    def _supported_database(cls, url: str) -> str:
        return normalise_database_url(url)

    retention_days: float = Field(default=30.0, gt=0, description="reports older than this are pruned")
    prune_interval_s: float = Field(default=3600.0, gt=0)
    stale_after_s: float = Field(default=900.0, gt=0, description="a node with no newer report is stale")
    max_body_bytes: int = Field(default=1_000_000, gt=0)
    history_limit: int = Field(default=50, gt=0, le=1000, description="reports shown per node")
    retry_after_s: int = Field(default=5, ge=1, description="Retry-After sent while the database is away")
    db_pool_size: int = Field(default=10, ge=1)
    db_max_overflow: int = Field(default=20, ge=0)
    db_connect_timeout_s: int = Field(default=3, ge=1)
    migrate_on_start: bool = Field(default=True, description="run Alembic migrations when the app starts")
    diagnose_reports: bool = Field(
        default=True, description="compute reports' findings in a background thread (off the hot path)"
    )
    diagnose_interval_s: float = Field(default=0.5, gt=0, description="how often that thread runs")
    diagnose_max_per_s: float = Field(
        default=50.0, gt=0, description="most reports that thread diagnoses a second (per process)"
    )
    ingest_batch_max: int = Field(default=500, ge=1, description="most reports stored in one transaction")
    ingest_queue_max: int = Field(
        default=20_000, ge=1, description="reports waiting to be stored before new ones get 503 (per process)"
    )
    ingest_linger_s: float = Field(
        default=0.005, ge=0, le=1, description="how long a batch waits for more reports before it is stored"
    )
    ingest_timeout_s: float = Field(
        default=30.0, gt=0, description="how long a report may wait to be stored before the probe gets 503"
    )
    # Hardening (docs/deployment.md, "Security"): what no client can exceed.
    max_json_depth: int = Field(default=32, ge=2, le=1000, description="JSON bodies nested deeper get 400")
    max_clock_skew_s: float = Field(
        default=300.0, ge=0, description="reports dated further in the future than this are refused (422)"
    )
    conversation_retention_days: float = Field(
        default=30.0, gt=0, description="conversations untouched for longer are deleted by the pruner"
    )
    ask_rate_limit: int = Field(
        default=30, ge=0, description="chat turns (/api/v1/ask, Slack) per client per window; 0 turns the limit off"
    )
    ask_rate_window_s: float = Field(default=60.0, gt=0, description="the window of ask_rate_limit")
    read_token: SecretStr | None = Field(
        default=None, description="when set, pages, API reads and /metrics need it (Bearer, cookie or ?token=)"
    )
    trusted_auth_header: str | None = Field(
        default=None,
        description="a header an authenticating reverse proxy sets (e.g. X-Forwarded-User); a request that has it "
        "is let through the read protection",
    )
    header_timeout_s: float = Field(
        default=10.0, gt=0, description="a connection that has not sent a complete request head by then is closed"
    )
    body_timeout_s: float = Field(
        default=30.0, gt=0, description="a request whose body has not fully arrived by then is closed"
    )
    keep_alive_timeout_s: float = Field(default=5.0, gt=0, description="an idle keep-alive connection is closed")
    max_connections: int = Field(
        default=1000, ge=1, description="concurrent connections per worker process; more get 503"
    )

    fabric_clusters: str = Field(
        default="", description="clusters with planned pair tests on without an API call, ','-separated"
    )

    @property
    def fabric_cluster_list(self) -> list[str]:
        """The BWDOCTOR_FABRIC_CLUSTERS names (pair tests stay off elsewhere unless enabled by API)."""
        return [c.strip() for c in self.fabric_clusters.split(",") if c.strip()]

    @property
    def rules_dir_paths(self) -> list[Path]:
        """The BWDOCTOR_RULES_DIRS folders as paths, empty entries dropped."""
        return [Path(p) for p in self.rules_dirs.split(":") if p.strip()]

    @property
    def slack(self) -> SlackSettings:
        """The Slack integration's settings, grouped for the adapter."""
        return SlackSettings(
            signing_secret=self.slack_signing_secret,
            bot_token=self.slack_bot_token,
            api_base_url=self.slack_api_base_url,
        )


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings; tests build their own Settings and pass them to create_app."""
    return Settings()
