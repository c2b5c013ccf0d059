"""Shared fixtures: the real engine when it loads (category and answer checks need it)."""

import pytest


@pytest.fixture(scope="session")
def engine():
    """The built-in rule base; tests that need findings skip when the engine cannot load."""
    try:
        from service.engine import load_engine

        return load_engine(extra_dirs=[])
    except Exception as exc:  # the engine is developed alongside; its absence must not fail chat tests
        pytest.skip(f"engine unavailable: {exc}")
