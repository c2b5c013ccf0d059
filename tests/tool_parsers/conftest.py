from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tool_output"


def without_source(text: str) -> str:
    """A recorded capture as the tool printed it, without the fixture's leading ``# SOURCE:`` line."""
    return text.split("\n", 1)[1] if text.startswith("# SOURCE:") else text


@pytest.fixture
def fixture_text():
    """Read one of the project's own tool-output fixtures."""

    def read(name: str) -> str:
        return (FIXTURES / name).read_text(encoding="utf-8")

    return read


@pytest.fixture
def recorded():
    """Read a recorded real capture (tests/fixtures/tool_output) without its ``# SOURCE:`` line."""

    def read(name: str) -> str:
        return without_source((FIXTURES / name).read_text(encoding="utf-8"))

    return read
