"""`bwdoctor tokens create|list|revoke` as an operator runs them (their own process, the database
named by BWDOCTOR_DATABASE_URL), and what they say when that database cannot be used."""

from __future__ import annotations

import os
import subprocess
import sys

import httpx

from tests.helpers import REPO, service_process


def bwdoctor(*args: str, database_url: str, cwd) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BWDOCTOR_DATABASE_URL": database_url, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "bwdoctor.cli", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def test_create_list_revoke_and_a_probe_feels_each(database_url, tmp_path):
    created = bwdoctor("tokens", "create", "rack-12", database_url=database_url, cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    token = created.stdout.strip().splitlines()[-1]  # the README: the token is the last line
    assert token.startswith("bwd_") and len(token) > 40

    listed = bwdoctor("tokens", "list", database_url=database_url, cwd=tmp_path)
    assert listed.returncode == 0 and "rack-12" in listed.stdout and "active" in listed.stdout
    assert token not in listed.stdout  # the secret is never shown again

    again = bwdoctor("tokens", "create", "rack-12", database_url=database_url, cwd=tmp_path)
    assert again.returncode == 2 and "already exists" in again.stderr and "Traceback" not in again.stderr

    report = {"facts": {"nic.speed_gbps": 100}}
    with service_process(database_url) as base:
        auth = {"Authorization": f"Bearer {token}"}
        assert httpx.put(f"{base}/api/v1/nodes/n1/facts", json=report, headers=auth).status_code == 201
        revoked = bwdoctor("tokens", "revoke", "rack-12", database_url=database_url, cwd=tmp_path)
        assert revoked.returncode == 0 and "revoked" in revoked.stdout
        refused = httpx.put(f"{base}/api/v1/nodes/n1/facts", json=report, headers=auth)
        assert refused.status_code == 401 and refused.json()["error"]["code"] == "token_invalid"

    listed = bwdoctor("tokens", "list", database_url=database_url, cwd=tmp_path)
    assert "revoked" in listed.stdout
    unknown = bwdoctor("tokens", "revoke", "nope", database_url=database_url, cwd=tmp_path)
    assert unknown.returncode == 2 and "no token named 'nope'" in unknown.stderr


def test_an_unsupported_database_url_is_one_line_without_its_password(tmp_path):
    for command in (("tokens", "list"), ("serve", "--port", "1")):
        out = bwdoctor(*command, database_url="mysql://admin:s3cret@db/bwd", cwd=tmp_path)
        assert out.returncode == 2
        assert out.stderr.startswith("bwdoctor: error: settings: BWDOCTOR_DATABASE_URL:")
        assert "'mysql' databases are not supported" in out.stderr and "postgresql+psycopg://" in out.stderr
        assert "s3cret" not in out.stderr + out.stdout and "Traceback" not in out.stderr


def test_a_database_that_cannot_be_used_is_named_with_the_reason(tmp_path):
    down = bwdoctor("tokens", "list", database_url="postgresql://admin:s3cret@127.0.0.1:1/bwd", cwd=tmp_path)
    assert down.returncode == 1 and "Traceback" not in down.stderr
    assert "cannot use the database postgresql+psycopg://admin:***@127.0.0.1:1/bwd" in down.stderr
    assert "s3cret" not in down.stderr

    nowhere = f"sqlite:///{tmp_path}/no/such/folder/bwd.db"
    out = bwdoctor("tokens", "create", "a", database_url=nowhere, cwd=tmp_path)
    assert out.returncode == 1 and "unable to open database file" in out.stderr and "Traceback" not in out.stderr


def test_a_bad_setting_elsewhere_is_named_too(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("BWDOCTOR_RETENTION_DAYS=a month\n")  # .env in the working folder is read
    out = bwdoctor("tokens", "list", database_url=f"sqlite:///{tmp_path}/bwd.db", cwd=tmp_path)
    assert out.returncode == 2 and "BWDOCTOR_RETENTION_DAYS" in out.stderr and "Traceback" not in out.stderr
