"""CI's prerequisite checks (.ci/check-prereqs, called by .ci/run) fail with the reason when a piece is missing.

Each case takes one piece away the way it goes missing in practice, without touching the real one:
the shared folder through BWDOCTOR_SHARED_DIR pointing at a folder that does not exist, PostgreSQL
through a URL whose port nothing listens on, root by running the script as `nobody`. The last test
asks this machine for every prerequisite through tests/prereqs.py: a skip here, a failure in CI.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import prereqs
from tests.helpers import free_port
from tests.prereqs import REPO

CHECK = REPO / ".ci" / "check-prereqs"
RUN = REPO / ".ci" / "run"
NOBODY = 65534


def check(env: dict[str, str], *, as_nobody: bool = False, script: Path = CHECK) -> subprocess.CompletedProcess:
    """Run the script with `env` over this process's environment; as `nobody` when asked and we are root."""
    command = [str(script)]
    if as_nobody and os.geteuid() == 0:
        command = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *command]
    return subprocess.run(command, env={**os.environ, **env}, capture_output=True, text=True, timeout=60)


@pytest.fixture
def open_dir() -> Iterator[Path]:
    """A temporary folder `nobody` may enter (pytest's tmp_path is root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="bwd-ci-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder)


def test_a_missing_shared_folder_fails_with_its_path(open_dir: Path) -> None:
    gone = open_dir / "shared"
    result = check({"BWDOCTOR_SHARED_DIR": str(gone)})
    assert result.returncode == 1, result.stdout
    assert f"the shared folder is missing at {gone}" in result.stderr


def test_a_shared_folder_without_the_scenario_checker_fails(open_dir: Path) -> None:
    result = check({"BWDOCTOR_SHARED_DIR": str(open_dir)})
    assert result.returncode == 1
    assert f"{open_dir}/tools/check-scenarios is missing" in result.stderr


def test_a_postgresql_that_does_not_answer_fails_without_echoing_the_password() -> None:
    port = free_port()
    result = check({"BWDOCTOR_TEST_DATABASE_URL": f"postgresql+psycopg://postgres:s3cret@127.0.0.1:{port}/test"})
    assert result.returncode == 1
    if shutil.which("psql"):
        assert "PostgreSQL does not answer at BWDOCTOR_TEST_DATABASE_URL" in result.stderr
        assert str(port) in result.stderr  # psql's reason names the port it tried
    else:
        assert "psql is not installed" in result.stderr
    assert "s3cret" not in result.stderr + result.stdout


def test_no_database_url_fails() -> None:
    result = check({"BWDOCTOR_TEST_DATABASE_URL": ""})
    assert result.returncode == 1
    assert "BWDOCTOR_TEST_DATABASE_URL is not set" in result.stderr


def test_not_root_fails() -> None:
    if os.geteuid() == 0 and not shutil.which("setpriv"):
        pytest.fail("running as root without setpriv (util-linux): cannot drop to nobody")
    result = check({}, as_nobody=True)
    assert result.returncode == 1
    uid = NOBODY if os.geteuid() == 0 else os.geteuid()
    assert f"not running as root (uid {uid})" in result.stderr


def test_ci_run_stops_at_the_checks_before_the_suite(open_dir: Path) -> None:
    """.ci/run as a non-root user installs and starts nothing, and fails at the checks, never reaching make."""
    if os.geteuid() == 0 and not shutil.which("setpriv"):
        pytest.fail("running as root without setpriv (util-linux): cannot drop to nobody")
    fake_bin = open_dir / "bin"
    fake_bin.mkdir()
    reached = open_dir / "make-was-run"
    (fake_bin / "make").write_text(f"#!/bin/sh\ntouch {reached}\n")
    (fake_bin / "make").chmod(0o755)
    (open_dir / "shared").mkdir()  # without tools/check-scenarios
    result = check({"PATH": f"{fake_bin}:{os.environ['PATH']}", "BWDOCTOR_SHARED_DIR": str(open_dir / "shared")},
                   as_nobody=True, script=RUN)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "CI prerequisites missing" in result.stderr and "not running as root" in result.stderr
    assert "tools/check-scenarios is missing" in result.stderr
    assert not reached.exists()


def test_everything_present_passes() -> None:
    prereqs.require(*prereqs.ALL, why="the checks pass only where everything is there")
    result = check({})
    assert result.returncode == 0, result.stderr
    assert "are all there" in result.stdout


@pytest.mark.parametrize("prereq", prereqs.ALL, ids=lambda p: p.name)
def test_this_machine_has(prereq: prereqs.Prerequisite) -> None:
    """One line per prerequisite in the run's summary where it is missing; in CI, a failure."""
    prereqs.require(prereq, why="CI is meant to have it")
    assert prereq.present()
