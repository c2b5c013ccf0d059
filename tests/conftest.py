"""Shared test helpers, and the one place where a missing prerequisite is a skip here and a failure in CI.

Tests ask for root, ../shared, PostgreSQL, chromium, iperf3 or ethtool through tests/prereqs.py. With
`CI` set, such a skip is reported as a failure with its reason (CI is meant to have all of them);
without it the skip stays, and the run ends with what was skipped and how to enable it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

# The database fixtures every folder shares (SQLite, and PostgreSQL when configured): app, client, settings…
from tests.db_fixtures import (  # noqa: F401  (fixtures, registered by import)
    app,
    auth,
    client,
    database_url,
    db_session,
    pg_schema_url,
    settings,
    settings_factory,
    sqlite_url,
    token,
)
from tests.import_names import block_folder_names, loaded_twice
from tests.prereqs import REPO, in_ci, named_in, shared_dir

SHARED = shared_dir()
__all__ = ["REPO", "SHARED"]


@pytest.fixture(scope="session")
def engine():
    from bwdoctor.engine import load_engine

    return load_engine([])


def pytest_configure(config: pytest.Config) -> None:
    # Before any test module is imported: `import service` (the folder's name, importable from the
    # checkout pytest puts on sys.path) fails instead of loading a second copy of the product.
    block_folder_names()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A file loaded as two modules (the same code under two names) fails the run: two SQLAlchemy
    metadata objects, two settings and engine singletons pass tests they should not."""
    twice = loaded_twice()
    if twice:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        for file, names in sorted(twice.items()):
            line = f"loaded twice, as {' and '.join(names)}: {file}"
            if reporter:
                reporter.write_line(line)
            else:
                print(line)


def skip_reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    """The reason a skipped report gives, without pytest's 'Skipped: ' prefix."""
    longrepr: Any = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr or "")
    return reason.removeprefix("Skipped: ")


def _fail_in_ci(report: pytest.TestReport | pytest.CollectReport) -> None:
    if not (report.skipped and in_ci()) or hasattr(report, "wasxfail"):
        return
    reason = skip_reason(report)
    if named_in(reason):
        report.outcome = "failed"
        report.longrepr = f"CI is meant to have every prerequisite, so this skip is a failure: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    outcome = yield
    _fail_in_ci(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector):
    outcome = yield
    _fail_in_ci(outcome.get_result())


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """What was skipped for a missing prerequisite and how to enable it; other skips by reason."""
    by_prereq: Counter[str] = Counter()
    how: dict[str, str] = {}
    others: Counter[str] = Counter()
    for report in terminalreporter.stats.get("skipped", []):
        if hasattr(report, "wasxfail"):
            continue
        reason = skip_reason(report)
        named = named_in(reason)
        for prereq in named:
            by_prereq[prereq.name] += 1
            how[prereq.name] = prereq.how
        if not named:
            others[reason] += 1
    if not by_prereq and not others:
        return
    terminalreporter.section("skipped")
    for name, count in sorted(by_prereq.items()):
        terminalreporter.write_line(f"{count:4d} skipped, prerequisite missing: {name}; to enable: {how[name]}")
    for reason, count in sorted(others.items()):
        terminalreporter.write_line(f"{count:4d} skipped: {reason}")
    if by_prereq:
        terminalreporter.write_line("(with CI=true, as .ci/run sets it, these prerequisite skips are failures)")
