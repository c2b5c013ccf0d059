"""Deployment files: no Docker engine here, so check what can be checked without one."""

from __future__ import annotations

import re

import yaml

from tests.helpers import REPO


def load_compose() -> dict:
    return yaml.safe_load((REPO / "docker-compose.yml").read_text())


def test_compose_parses_and_wires_postgres_service_and_probe():
    compose = load_compose()
    services = compose["services"]
    assert {"db", "bwdoctor", "probe", "probe-token", "probe-demo"} <= set(services)
    db, app, probe = services["db"], services["bwdoctor"], services["probe"]
    assert db["image"].startswith("postgres:")
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert any(v.startswith("pgdata:") for v in db["volumes"]) and "pgdata" in compose["volumes"]
    assert app["build"] == "." and app["image"]
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    assert app["environment"]["BWDOCTOR_DATABASE_URL"].startswith("postgresql+psycopg://")
    assert "@db:5432/" in app["environment"]["BWDOCTOR_DATABASE_URL"]
    assert app["command"][:2] == ["bwdoctor", "serve"]
    assert "healthcheck" in app and "/readyz" in " ".join(app["healthcheck"]["test"])
    assert probe["image"] == app["image"]


def test_compose_is_a_deployment_pattern_with_a_demo_profile():
    services = load_compose()["services"]
    token, probe, demo = services["probe-token"], services["probe"], services["probe-demo"]
    # the token is made once, into a volume, and only when that volume holds none yet
    script = " ".join(token["command"])
    assert "bwdoctor tokens create" in script and "if [ -s /var/lib/bwdoctor/probe-token ]" in script
    assert token["restart"] == "no" and token["depends_on"]["bwdoctor"]["condition"] == "service_healthy"
    assert "probe-token:/var/lib/bwdoctor" in token["volumes"] and "probe-token" in load_compose()["volumes"]
    for p in (probe, demo):  # probes read it and never create one (no new token per restart)
        command = " ".join(p["command"])
        assert "tokens create" not in command and "cat /var/lib/bwdoctor/probe-token" in command
        assert "probe-token:/var/lib/bwdoctor:ro" in p["volumes"]
        assert p["depends_on"]["probe-token"]["condition"] == "service_completed_successfully"
    # the node's probe measures the host's real NIC and GPUs; the demo is a profile of its own
    assert probe["network_mode"] == "host" and probe["gpus"] == "all" and probe["profiles"] == ["node"]
    assert demo["profiles"] == ["demo"] and "--server http://bwdoctor:8000" in " ".join(demo["command"])
    assert "--profile node" in (REPO / "docs" / "deployment.md").read_text()
    assert re.search(r"chown bwdoctor\S* /var/lib/bwdoctor", (REPO / "Dockerfile").read_text())


def test_no_secret_is_written_into_the_compose_file():
    compose = load_compose()
    password = compose["services"]["db"]["environment"]["POSTGRES_PASSWORD"]
    assert password.startswith("${")  # from .env / the environment
    for name in ("BWDOCTOR_SLACK_SIGNING_SECRET", "BWDOCTOR_SLACK_BOT_TOKEN"):
        assert compose["services"]["bwdoctor"]["environment"][name].startswith("${")


def test_dockerfile_runs_the_command_the_readme_documents():
    dockerfile = (REPO / "Dockerfile").read_text()
    cmd = re.search(r"^CMD (\[.*\])$", dockerfile, re.MULTILINE)
    assert cmd is not None
    command = yaml.safe_load(cmd.group(1))
    assert command[:2] == ["bwdoctor", "serve"] and "--host" in command and "0.0.0.0" in command
    assert "HEALTHCHECK" in dockerfile and "/healthz" in dockerfile
    assert re.search(r"^USER (?!root)", dockerfile, re.MULTILINE)
    for folder in ("service", "agent_probe", "tool_parsers", "rules"):
        assert f"COPY {folder} " in dockerfile
    assert re.search(r"^COPY .*\bhatch_build\.py\b", dockerfile, re.MULTILINE)  # pyproject's build hook
    readme = (REPO / "README.md").read_text()
    assert "bwdoctor serve" in readme


def test_deployment_doc_exists_and_covers_replicas():
    text = (REPO / "docs" / "deployment.md").read_text().lower()
    for topic in ("load balancer", "/readyz", "bwdoctor_database_url", "retention", "retry-after"):
        assert topic in text, topic
