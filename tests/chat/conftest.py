"""Shared fixtures: the real engine (category and answer checks need it).

A rule base that does not load is the product broken, so it fails every test that needs it; it is
never a reason to skip them.
"""

import pytest


@pytest.fixture(scope="session")
def engine():
    """The built-in rule base."""
    from bwdoctor.engine import load_engine

    return load_engine(extra_dirs=[])
