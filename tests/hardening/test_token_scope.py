"""Probe tokens bound to a node or a cluster (issue 14, defect 5): a bound token writing anywhere else
gets 403 and nothing is stored; unbound tokens keep writing any node. On SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from bwdoctor.tokens.service import TokenError, create_token
from tests.helpers import assert_error_shape
from tests.tokens.test_token_commands import bwdoctor


def make_token(db_session, name: str, **binding: str) -> dict[str, str]:
    token = create_token(name, db_session=db_session, **binding)
    db_session.commit()
    return {"Authorization": f"Bearer {token}"}


def put(client, node: str, headers: dict[str, str], cluster: str | None = None):
    facts = {"nic.speed_gbps": 100, **({"node.cluster": cluster} if cluster else {})}
    return client.put(f"/api/v1/nodes/{node}/facts", json={"facts": facts}, headers=headers)


def test_a_node_bound_token_writes_its_node_only(client, db_session):
    bound = make_token(db_session, "n1-only", node_id="n1")
    assert put(client, "n1", bound).status_code == 201
    assert_error_shape(put(client, "n2", bound), 403, "token_scope")
    assert client.get("/api/v1/nodes/n2").status_code == 404


def test_a_cluster_bound_token_cannot_write_or_move_another_clusters_node(client, db_session):
    unbound = make_token(db_session, "admin")
    bound = make_token(db_session, "rack-a", cluster="a")
    assert put(client, "a1", bound, cluster="a").status_code == 201
    assert put(client, "a1", bound).status_code == 201  # placement already known: no need to repeat it
    assert_error_shape(put(client, "a2", bound), 403, "token_scope")  # a new node with no cluster
    assert_error_shape(put(client, "b1", bound, cluster="b"), 403, "token_scope")
    assert put(client, "b1", unbound, cluster="b").status_code == 201
    # A report claiming cluster a for b's node would move it: refused, and b1 stays in b.
    assert_error_shape(put(client, "b1", bound, cluster="a"), 403, "token_scope")
    assert client.get("/api/v1/nodes/b1").json()["cluster"] == "b"


def test_a_batch_mixes_admitted_and_refused_reports(app, db_session):
    import asyncio

    from bwdoctor.errors import Forbidden
    from bwdoctor.nodes.ingest import NewReport
    from bwdoctor.tokens.service import hash_token

    make_token(db_session, "free")
    bound_token = create_token("n1-bound", db_session=db_session, node_id="n1")
    db_session.commit()
    writer = app.state.report_writer

    async def both():
        ok = writer.store(NewReport("n1", {"a.b": 1}), token_hash=hash_token(bound_token), timeout_s=10)
        bad = writer.store(NewReport("n2", {"a.b": 1}), token_hash=hash_token(bound_token), timeout_s=10)
        results = await asyncio.gather(ok, bad, return_exceptions=True)
        await writer.stop()
        return results

    stored, refused = asyncio.run(both())
    assert stored.ack.node_id == "n1" and isinstance(refused, Forbidden)


def test_bindings_are_checked_when_created(db_session):
    with pytest.raises(TokenError):
        create_token("both", db_session=db_session, node_id="n1", cluster="a")
    with pytest.raises(TokenError):
        create_token("bad", db_session=db_session, cluster="no spaces")


def test_tokens_create_binds_from_the_command_line(database_url, tmp_path, client):
    created = bwdoctor("tokens", "create", "rack-7", "--cluster", "c7", database_url=database_url, cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    token = created.stdout.strip().splitlines()[-1]
    listed = bwdoctor("tokens", "list", database_url=database_url, cwd=tmp_path)
    assert "cluster c7" in listed.stdout
    headers = {"Authorization": f"Bearer {token}"}
    assert put(client, "x1", headers, cluster="c7").status_code == 201
    assert_error_shape(put(client, "x2", headers, cluster="c8"), 403, "token_scope")
    both = bwdoctor("tokens", "create", "t2", "--cluster", "c", "--node", "n", database_url=database_url, cwd=tmp_path)
    assert both.returncode == 2 and "Traceback" not in both.stderr
