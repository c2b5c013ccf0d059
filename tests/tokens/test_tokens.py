"""Probe tokens: issued once, stored hashed, revocable; PUT facts needs an active one."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bwdoctor.tokens.models import ProbeToken
from bwdoctor.tokens.service import (
    TokenError,
    active_token_hashes,
    create_token,
    hash_token,
    list_tokens,
    revoke_token,
)
from tests.helpers import assert_error_shape

REPORT = {"facts": {"nic.speed_gbps": 100}}


def test_token_is_stored_only_as_its_hash(db_session):
    token = create_token("rack-1", db_session=db_session)
    db_session.commit()
    row = db_session.scalar(select(ProbeToken).where(ProbeToken.name == "rack-1"))
    assert row.token_hash == hash_token(token) and token not in row.token_hash
    assert len(token) > 40
    presented = {hash_token(token), hash_token(token + "x"), hash_token("")}
    assert active_token_hashes(presented, connection=db_session.connection()) == {hash_token(token)}


def test_list_revoke_and_errors(db_session):
    create_token("a", db_session=db_session)
    token_b = create_token("b", db_session=db_session)
    with pytest.raises(TokenError, match="already exists"):
        create_token("a", db_session=db_session)
    with pytest.raises(TokenError, match="invalid token name"):
        create_token("bad name!", db_session=db_session)
    assert revoke_token("b", db_session=db_session) is True
    assert revoke_token("b", db_session=db_session) is False
    with pytest.raises(TokenError, match="no token"):
        revoke_token("nope", db_session=db_session)
    db_session.commit()
    listed = {t.name: t for t in list_tokens(db_session=db_session)}
    assert listed["a"].active and not listed["b"].active
    active = active_token_hashes({hash_token(token_b)}, connection=db_session.connection())
    assert active == set()


def test_put_without_token_is_401(client):
    err = assert_error_shape(client.put("/api/v1/nodes/n1/facts", json=REPORT), 401, "token_required")
    assert "Bearer" in err["message"]
    r = client.put("/api/v1/nodes/n1/facts", json=REPORT, headers={"Authorization": "Basic abc"})
    assert_error_shape(r, 401, "token_required")


def test_put_with_unknown_or_revoked_token_is_401(client, db_session, token, auth):
    r = client.put("/api/v1/nodes/n1/facts", json=REPORT, headers={"Authorization": "Bearer nope"})
    assert_error_shape(r, 401, "token_invalid")
    assert client.put("/api/v1/nodes/n1/facts", json=REPORT, headers=auth).status_code == 201
    name = db_session.scalar(select(ProbeToken.name).where(ProbeToken.token_hash == hash_token(token)))
    revoke_token(name, db_session=db_session)
    db_session.commit()
    assert_error_shape(client.put("/api/v1/nodes/n1/facts", json=REPORT, headers=auth), 401, "token_invalid")
