from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tool_output"


@pytest.fixture
def fixture_text():
    """Read one of the project's own tool-output fixtures."""

    def read(name: str) -> str:
        return (FIXTURES / name).read_text(encoding="utf-8")

    return read
