import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "tool_output"
PYTHON = sys.executable


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES


@pytest.fixture
def no_probe_env(monkeypatch):
    """Tests must not pick up a developer's AGENT_PROBE_* settings."""
    import os

    for key in list(os.environ):
        if key.startswith("AGENT_PROBE_"):
            monkeypatch.delenv(key)
