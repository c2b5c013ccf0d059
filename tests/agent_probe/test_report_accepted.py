"""The probe's reports, new NIC facts included, go through the real service: catalogue, storage, rules.

A report whose fact has the wrong type is refused whole (422), so each fact the probe sends must
match rules/facts.yaml: nic.mtu an int, nic.max_speed_gbps a number > 0, nic.efa a bool. The
service runs in-process on a fresh SQLite file; the probe side is a real collection pass.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bwdoctor_probe.collect import Report, collect_pass, run_samplers
from bwdoctor_probe.config import load_config
from tests.agent_probe.test_nic_system import Machine, recorded

pytest.importorskip("fastapi")


@pytest.fixture
def service(tmp_path: Path) -> Iterator[tuple[Any, dict[str, str]]]:
    """The service app on an empty SQLite database, and a probe token's Authorization header."""
    from fastapi.testclient import TestClient

    from bwdoctor.config import Settings
    from bwdoctor.database import make_engine, make_sessionmaker
    from bwdoctor.engine import load_engine
    from bwdoctor.main import create_app
    from bwdoctor.migrations import upgrade_database
    from bwdoctor.tokens.service import create_token

    url = f"sqlite:///{tmp_path / 'bwdoctor.db'}"
    upgrade_database(url)
    settings = Settings(_env_file=None, database_url=url, migrate_on_start=False)  # type: ignore[call-arg]
    db = make_engine(url, settings)
    with make_sessionmaker(db)() as session:
        token = create_token(f"probe-{uuid.uuid4().hex[:6]}", db_session=session)
        session.commit()
    db.dispose()
    with TestClient(create_app(settings, engine=load_engine(extra_dirs=[])), raise_server_exceptions=False) as client:
        yield client, {"Authorization": f"Bearer {token}"}


def put(client: Any, auth: dict[str, str], node_id: str, report: Report) -> Any:
    return client.put(f"/api/v1/nodes/{node_id}/facts", json=report.body(uuid.uuid4().hex), headers=auth)


def test_connectx_at_25g_is_stored_and_diagnosed(service, tmp_path):
    """Fake /sys at the boundary, real ethtool output: the report is accepted and the rule fires."""
    client, auth = service
    machine = Machine(tmp_path / "node")
    machine.iface("enp1s0np0", speed="25000", mtu="1500", pci="0000:17:00.0")
    machine.default_route("enp1s0np0")
    machine.rdma("efa_0", pci="0000:00:1f.0", link_layer="Unknown", driver="efa")
    machine.ethtool(recorded("ethtool_connectx4_100g_mlx5.txt"))
    sampled, _ = run_samplers([machine.sampler()], 0)
    report = Report(facts={"node.id": "gpu-a01", **sampled.facts}, notes=sampled.notes)
    assert (report.facts["nic.mtu"], report.facts["nic.max_speed_gbps"], report.facts["nic.efa"]) == (1500, 100.0, True)

    r = put(client, auth, "gpu-a01", report)
    assert r.status_code == 201, r.text
    latest = client.get("/api/v1/nodes/gpu-a01").json()["latest"]
    assert latest["facts"]["nic.mtu"] == 1500 and latest["facts"]["nic.max_speed_gbps"] == 100
    assert latest["facts"]["nic.efa"] is True
    fired = {f["rule"]: f for f in latest["findings"]}
    assert "link-negotiated-below-rating" in fired
    evidence = {e["fact"]: e["value"] for e in fired["link-negotiated-below-rating"]["evidence"]}
    assert evidence == {"nic.speed_gbps": 25, "nic.max_speed_gbps": 100}


def test_a_wrong_type_would_fail_the_whole_report(service):
    """What the exact types above guard against: an MTU as text or a fractional MTU is refused."""
    client, auth = service
    for bad in ({"nic.mtu": "9000"}, {"nic.mtu": 1500.5}, {"nic.max_speed_gbps": 0}, {"nic.efa": "yes"}):
        r = put(client, auth, "n1", Report(facts={"nic.speed_gbps": 25.0, **bad}))
        assert r.status_code == 422, (bad, r.text)
        assert r.json()["error"]["details"]["key"] == next(iter(bad))


def test_a_real_pass_on_this_machine_is_accepted(service, no_probe_env):
    """This machine's own NIC through real /sys and real ethtool (when installed), sent as the probe sends it."""
    client, auth = service
    cfg = load_config(env={}, overrides={"node_id": "this-node", "window_s": 0.2, "gpu": False})
    report = collect_pass(cfg, measure_peers=False)
    if "nic.name" in report.facts:
        assert "nic.mtu" in report.facts or any("nic.mtu left out" in n for n in report.notes)
        assert "nic.max_speed_gbps" in report.facts or any("nic.max_speed_gbps left out" in n for n in report.notes)
    assert isinstance(report.facts.get("nic.efa", False), bool)
    r = put(client, auth, "this-node", report)
    assert r.status_code == 201, r.text
    stored = client.get("/api/v1/nodes/this-node").json()["latest"]["facts"]
    for key in ("nic.mtu", "nic.max_speed_gbps", "nic.efa"):
        assert stored.get(key) == report.facts.get(key), key
