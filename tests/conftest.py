"""Shared test helpers: the repository root and the shared folder beside the checkout, when present."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def engine():
    from service.engine import load_engine

    return load_engine([])
