"""Reports dated in the future (issue 14, defect 4): past BWDOCTOR_MAX_CLOCK_SKEW_S they are refused
with a clear error the probe logs as a clock problem; within it they cannot hold the node's "latest"
against reports the service receives later. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bwdoctor_probe.client import ProbeClient
from bwdoctor_probe.errors import DeliveryError
from tests.helpers import assert_error_shape, live_server


def report(collected_at: datetime | None, speed: int) -> dict:
    body: dict = {"facts": {"nic.speed_gbps": speed}}
    if collected_at is not None:
        body["collected_at"] = collected_at.isoformat()
    return body


def test_a_report_dated_23_hours_ahead_is_refused_naming_the_clock(client, auth):
    ahead = datetime.now(UTC) + timedelta(hours=23, minutes=50)
    error = assert_error_shape(client.put("/api/v1/nodes/n1/facts", json=report(ahead, 100), headers=auth), 422)
    assert error["code"] == "clock_skew" and "clock is off" in error["message"]
    assert client.get("/api/v1/nodes/n1").status_code == 404


def test_the_allowance_is_a_setting(settings_factory, engine, auth):
    from fastapi.testclient import TestClient

    from bwdoctor.main import create_app

    app = create_app(settings_factory(max_clock_skew_s=3600), engine=engine)
    with TestClient(app) as client:
        ahead = datetime.now(UTC) + timedelta(minutes=30)
        assert client.put("/api/v1/nodes/n1/facts", json=report(ahead, 100), headers=auth).status_code == 201


def test_a_report_slightly_ahead_does_not_hide_later_ones(client, auth):
    ahead = datetime.now(UTC) + timedelta(minutes=4)  # within the default 5 minutes
    assert client.put("/api/v1/nodes/n1/facts", json=report(ahead, 100), headers=auth).status_code == 201
    assert client.put("/api/v1/nodes/n1/facts", json=report(None, 400), headers=auth).status_code == 201
    latest = client.get("/api/v1/nodes/n1").json()["latest"]
    assert latest["facts"]["nic.speed_gbps"] == 400
    assert datetime.fromisoformat(latest["collected_at"]) <= datetime.now(UTC)


def test_the_probe_says_its_clock_is_off(app, token):
    ahead = datetime.now(UTC) + timedelta(hours=2)
    with live_server(app) as base, ProbeClient(base, token) as probe:
        with pytest.raises(DeliveryError) as caught:
            probe.put_report("n1", report(ahead, 100))
    assert not caught.value.retryable and "clock is off" in str(caught.value)
