"""Fuzzing with hostile values (issue 14, "done when"): every route of the app gets bodies and
queries full of what broke it before (huge integers, 1e308, lone surrogates, deep nesting, NaN,
long texts, odd keys), and job files and rule files get random and hostile YAML/JSON; nothing may
answer 5xx (503 is a deliberate answer) or raise anything but the documented errors.

Size and seed are fixed below (hypothesis's derandomize), so a run is repeatable; about 40 s on two busy cores.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bwdoctor.cli.jobfile import JobFileError, load_job_file
from bwdoctor.documents import DocumentError, parse_document
from bwdoctor.engine import EngineError, load_rulebase
from bwdoctor.errors import ServiceError
from bwdoctor.facts import validate_facts

ROUTE_EXAMPLES = 200  # requests over all routes together
FILE_EXAMPLES = 120
RULE_EXAMPLES = 60
FUZZ = settings(
    derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck), max_examples=ROUTE_EXAMPLES
)

NASTY_NUMBERS = [
    "1" + "0" * 309,
    str(2**63),
    str(-(2**63) - 1),
    "1e308",
    "-1e308",
    "1e400",
    "1e-400",
    "NaN",
    "Infinity",
]
NASTY_TEXT = [
    '"\\ud800"',
    '"\\udfff x"',
    '"\\u0000"',
    json.dumps("x" * 5000),
    '"{nic.speed_gbps:>99999}"',
    '"<script>"',
]
KEYS = ["job.nodes", "job.model_params_b", "nic.speed_gbps", "node.cluster", "node.id", "x.y", "", "\\ud800", "a" * 300]


def json_text(draw, depth: int = 0) -> str:
    """Raw JSON text (raw so that it can hold what json.dumps would refuse: NaN, 400-digit numbers)."""
    kind = draw(st.integers(0, 9 if depth < 3 else 5))
    if kind <= 1:
        return draw(st.sampled_from(NASTY_NUMBERS))
    if kind == 2:
        return draw(st.sampled_from(NASTY_TEXT))
    if kind == 3:
        return json.dumps(
            draw(st.one_of(st.integers(-(2**70), 2**70), st.floats(allow_nan=False), st.booleans(), st.none()))
        )
    if kind == 4:
        return json.dumps(draw(st.text(max_size=30)))
    if kind == 5:
        nesting = draw(st.sampled_from([1, 31, 33, 2000]))
        return "[" * nesting + "]" * nesting
    if kind in (6, 7):
        keys = draw(st.lists(st.sampled_from(KEYS), max_size=4))
        return "{" + ",".join(f'"{k}": {json_text(draw, depth + 1)}' for k in keys) + "}"
    items = draw(st.integers(0, 3))
    return "[" + ",".join(json_text(draw, depth + 1) for _ in range(items)) + "]"


@st.composite
def bodies(draw) -> str:
    wrapper = draw(st.sampled_from(["facts", "job", "question", "cluster", "conversation_id", "lang", None]))
    inner = json_text(draw)
    return inner if wrapper is None else f'{{"{wrapper}": {inner}}}'


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory):
    from bwdoctor.config import Settings
    from bwdoctor.database import session_scope
    from bwdoctor.engine import load_engine
    from bwdoctor.main import create_app
    from bwdoctor.migrations import upgrade_database
    from bwdoctor.tokens.service import create_token

    url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'fuzz.db'}"
    upgrade_database(url)
    config = Settings(
        _env_file=None, database_url=url, migrate_on_start=False, diagnose_reports=False, ask_rate_limit=0
    )
    with session_scope(config) as db_session:
        token = create_token("fuzz", db_session=db_session)
    app = create_app(config, engine=load_engine(extra_dirs=[]))
    routes = sorted(
        {(method, route.path) for route in app.routes for method in getattr(route, "methods", ()) if method != "HEAD"}
    )
    with TestClient(app, raise_server_exceptions=False) as client:
        # a node and a cluster to read back, so reads have something to render
        client.put(
            "/api/v1/nodes/n1/facts",
            json={"facts": {"node.cluster": "c1"}},
            headers={"Authorization": f"Bearer {token}"},
        )
        yield client, token, routes


def concrete(path: str, draw) -> str:
    return re.sub(
        r"\{[^}]+\}", lambda _: draw(st.sampled_from(["n1", "c1", "x", "%F0%9F%92%A5", "a" * 200, "..", "%00"])), path
    )


@FUZZ
@given(data=st.data())
def test_no_route_answers_5xx_to_hostile_input(fuzz_client, data):
    client, token, routes = fuzz_client
    method, template = data.draw(st.sampled_from(routes))
    path = concrete(template, data.draw)
    query = data.draw(st.sampled_from(["", "?lang=zh", "?history=999999999999999999999", "?limit=-1", "?q=%ud800"]))
    headers = {"content-type": "application/json", "Authorization": f"Bearer {token}"}
    body = data.draw(bodies()) if method in ("POST", "PUT", "PATCH") else None
    response = client.request(method, path + query, content=body, headers=headers)
    assert response.status_code < 500 or response.status_code == 503, (
        method,
        path,
        body and body[:200],
        response.text[:300],
    )
    if response.status_code >= 400 and response.headers.get("content-type", "").startswith("application/json"):
        error = response.json()
        assert set(error) == {"error"} and {"code", "message"} <= set(error["error"]), error
    assert "Traceback" not in response.text


# --- job files ---------------------------------------------------------------------------------

YAML_PIECES = [
    "job.nodes: 8\n",
    "job.model_params_b: 1e308\n",
    "job.nodes: " + "9" * 400 + "\n",
    "a: &x [1]\nb: *x\n",
    "x: &a [*a]\n",
    "job:\n  nodes: 8\n  precision: fp16\n",
    "[" * 100 + "]" * 100,
    "job.name: '\\ud800'\n",
    "? [a, b]\n: c\n",
    "job.nodes: !!python/object:os.system ls\n",
    "t: 2026-01-01\n",
    "b: !!binary aGk=\n",
    "job.precision: [fp16, {a: b}]\n",
    "%YAML 1.1\n---\njob.nodes: 2\n",
    "---\n...\n",
    "\t\x00\x1f",
]


@settings(
    derandomize=True, deadline=None, database=None, max_examples=FILE_EXAMPLES, suppress_health_check=list(HealthCheck)
)
@given(pieces=st.lists(st.sampled_from(YAML_PIECES), min_size=1, max_size=4), noise=st.text(max_size=20))
def test_job_files_are_read_or_refused_with_one_line(engine, pieces, noise):
    text = "".join(pieces) + noise
    try:
        facts = validate_facts(engine, parse_document(text, what="job"))
        json.dumps(engine.diagnose(facts).to_dict(), allow_nan=False)
    except (DocumentError, ServiceError, EngineError) as exc:
        assert "\n" not in str(exc).strip() or isinstance(exc, EngineError)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "job.yaml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            load_job_file(str(path))
        except JobFileError:
            pass


# --- rule files ----------------------------------------------------------------------------------

CONDITIONS = [
    "nic.speed_gbps < 25.0",
    "job.nodes > 1 && nic.speed_gbps < 100.0",
    "[1,2,3].all(a, nic.speed_gbps > a)",
    "[1,2].all(a, [1,2].all(b, [1,2].all(c, a < nic.speed_gbps)))",
    "nic.speed_gbps in [" + ",".join(map(str, range(80))) + "]",
    "nic.speed_gbps / 0.0 > 1.0",
    "'" + "x" * 600 + "' == node.cluster",
    "nic.speed_gbps <",
    "size(node.cluster) > 3",
]
TITLES = [
    "{nic.speed_gbps} Gb/s",
    "{nic.speed_gbps:>100000000}",
    "{nic.speed_gbps:.2f}",
    "{unknown.fact}",
    "{nic.speed_gbps:%}",
]


@st.composite
def rule_files(draw) -> str:
    rules = []
    for index in range(draw(st.integers(1, 3))):
        condition = draw(st.sampled_from(CONDITIONS)).replace('"', '\\"')
        title = draw(st.sampled_from(TITLES))
        rules.append(
            f"  - id: fuzz-{index}\n    category: nic-undersized\n    severity: warning\n"
            f'    when: ["{condition}"]\n    title: {{en: "{title}", zh: "{title}"}}\n'
            f'    explanation: {{en: "e", zh: "e"}}\n    source: [H21]\n'
        )
    text = "rules:\n" + "".join(rules)
    return text + draw(st.sampled_from(["", "x: &a [*a]\n", "deep:" + " [" * 5000 + "\n", "\t- broken", "rules: 3\n"]))


@settings(
    derandomize=True, deadline=None, database=None, max_examples=RULE_EXAMPLES, suppress_health_check=list(HealthCheck)
)
@given(text=rule_files())
def test_rule_files_load_or_are_skipped_and_never_crash_a_diagnosis(engine, text):
    from bwdoctor.engine.engine import Engine

    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "fuzz.yaml").write_text(text, encoding="utf-8")
        base = load_rulebase([Path(folder)])
    assert not base.problems, base.problems[:1]  # a user file's trouble is a warning, never fatal
    user = Engine(base)
    facts = engine.validate_facts({"nic.speed_gbps": 10, "job.nodes": 4, "node.cluster": "abcd"})
    for finding in user.diagnose(facts).findings:
        assert len(finding.title) < 10_000
