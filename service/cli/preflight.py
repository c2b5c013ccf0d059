"""`bwdoctor preflight`: check a planned job from a YAML/JSON file, locally or against a server.

Exit codes (troubleshoot.sh's preflight): 0 pass, 1 unexpected error, 2 invalid job file or
usage, 3 critical finding, 4 warning finding (0 with --fail-on critical).
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any, TextIO

import click

from bwdoctor.cli.jobfile import JobFileError, load_job_file

EXIT_PASS, EXIT_ERROR, EXIT_USAGE, EXIT_CRITICAL, EXIT_WARNING = 0, 1, 2, 3, 4
FORMATS = ("text", "json", "junit", "github")
FAIL_ON = ("warning", "critical")


def exit_code(status: str, fail_on: str = "warning") -> int:
    """The process exit status for a verdict."""
    if status == "critical":
        return EXIT_CRITICAL
    if status == "warning" and fail_on == "warning":
        return EXIT_WARNING
    return EXIT_PASS


def _github_escape(value: str, *, prop: bool = False) -> str:
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return value.replace(":", "%3A").replace(",", "%2C") if prop else value


def render_text(result: Mapping[str, Any]) -> str:
    lines = [f"preflight: {result['status'].upper()}"]
    cluster = result.get("cluster")
    if cluster:
        lines.append(
            f"cluster {cluster['name']}: {cluster['nodes_fresh']} nodes reporting"
            + (f", stale: {', '.join(cluster['stale_nodes'])}" if cluster["stale_nodes"] else "")
            + (f", stragglers: {', '.join(cluster['stragglers'])}" if cluster["stragglers"] else "")
        )
    for finding in result["findings"]:
        lines.append(f"[{finding['severity']}] {finding['category']} ({finding['rule']}): {finding['title']}")
        if finding.get("explanation"):
            lines.append(f"    {finding['explanation']}")
        for rec in finding.get("recommendations", []):
            lines.append(f"    - {rec.get('text', rec.get('id', ''))}")
    if not result["findings"]:
        lines.append("no findings")
    return "\n".join(lines)


def render_junit(result: Mapping[str, Any], job_file: str, fail_on: str) -> str:
    """JUnit XML: one test case per finding; critical (and warnings unless --fail-on critical) fail."""
    findings = result["findings"]
    suite = ET.Element("testsuite", name="bwdoctor-preflight")
    failures = 0
    for finding in findings or [{"rule": "preflight", "category": "preflight", "severity": "pass", "title": "pass"}]:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=f"preflight.{finding['category']}",
            name=f"{finding['rule']}: {finding['title']}",
            file=job_file,
        )
        severity = finding["severity"]
        if severity == "critical" or (severity == "warning" and fail_on == "warning"):
            failures += 1
            failure = ET.SubElement(case, "failure", type=severity, message=finding["title"])
            failure.text = finding.get("explanation", "")
        elif finding.get("explanation"):
            ET.SubElement(case, "system-out").text = f"[{severity}] {finding['explanation']}"
    suite.set("tests", str(max(len(findings), 1)))
    suite.set("failures", str(failures))
    suite.set("errors", "0")
    root = ET.Element("testsuites", name="bwdoctor", tests=suite.get("tests", "0"), failures=str(failures))
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")


def render_github(result: Mapping[str, Any], job_file: str) -> str:
    """GitHub Actions workflow commands: ::error for critical, ::warning for warnings, ::notice for info."""
    command = {"critical": "error", "warning": "warning"}
    lines = []
    for finding in result["findings"]:
        kind = command.get(finding["severity"], "notice")
        title = _github_escape(f"{finding['category']}: {finding['title']}", prop=True)
        message = _github_escape(finding.get("explanation") or finding["title"])
        lines.append(f"::{kind} file={_github_escape(job_file, prop=True)},title={title}::{message}")
    lines.append(f"preflight: {result['status']}")
    return "\n".join(lines)


def render(result: Mapping[str, Any], fmt: str, job_file: str = "job", fail_on: str = "warning") -> str:
    """The result in one of FORMATS."""
    if fmt == "json":
        return json.dumps(result, indent=2, ensure_ascii=False, default=str)
    if fmt == "junit":
        return render_junit(result, job_file, fail_on)
    if fmt == "github":
        return render_github(result, job_file)
    return render_text(result)


def _remote(
    server: str, job: dict[str, Any], cluster: str | None, lang: str, strict: bool = False
) -> tuple[int, Any]:
    import httpx

    body: dict[str, Any] = {"job": job, "lang": lang, "strict": strict}
    if cluster:
        body["cluster"] = cluster
    response = httpx.post(server.rstrip("/") + "/api/v1/preflight", json=body, timeout=30.0)
    try:
        return response.status_code, response.json()
    except ValueError:
        return response.status_code, {"error": {"message": response.text[:300]}}


class UnknownFactsError(ValueError):
    """--strict and the job file names facts the catalogue does not know."""


def _local(job: dict[str, Any], lang: str, strict: bool = False) -> dict[str, Any]:
    from bwdoctor.config import get_settings
    from bwdoctor.engine import load_engine
    from bwdoctor.preflight.service import run_preflight
    from bwdoctor.unknown_facts import unknown_facts

    engine = load_engine(extra_dirs=get_settings().rules_dir_paths)
    facts = engine.validate_facts(job)
    unknown = unknown_facts(facts, engine.catalogue)
    if strict and unknown:
        raise UnknownFactsError("; ".join(u.message(lang, ignored=False) for u in unknown))
    return {**run_preflight(facts, engine=engine, lang=lang), "warnings": [u.to_dict(lang) for u in unknown]}


def preflight_command(
    job_file: str,
    server: str | None = None,
    cluster: str | None = None,
    fail_on: str = "warning",
    fmt: str = "text",
    lang: str = "en",
    *,
    strict: bool = False,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Run a pre-flight check and print it; returns the exit code of interfaces.md."""
    out, err = out or sys.stdout, err or sys.stderr
    if fmt not in FORMATS or fail_on not in FAIL_ON:
        print(f"error: --format must be one of {FORMATS}, --fail-on one of {FAIL_ON}", file=err)
        return EXIT_USAGE
    if cluster and not server:
        print("error: --cluster needs --server (the cluster's live facts come from the service)", file=err)
        return EXIT_USAGE
    try:
        job = load_job_file(job_file)
    except JobFileError as exc:
        print(f"error: {exc}", file=err)
        return EXIT_USAGE
    try:
        if server:
            status, body = _remote(server, job, cluster, lang, strict)
            if status in (400, 404, 413, 422):
                error = body.get("error", {}) if isinstance(body, dict) else {}
                print(f"error: {error.get('message', body)}", file=err)
                return EXIT_USAGE
            if status != 200:
                print(f"error: the server answered {status}: {body}", file=err)
                return EXIT_ERROR
            result = body
        else:
            from bwdoctor.engine import FactValidationError

            try:
                result = _local(job, lang, strict)
            except (FactValidationError, UnknownFactsError) as exc:
                print(f"error: {job_file}: {exc}", file=err)
                return EXIT_USAGE
    except Exception as exc:  # network down, server gone, a bug: say so, exit 1
        print(f"error: {type(exc).__name__}: {exc}", file=err)
        return EXIT_ERROR
    for warning in result.get("warnings") or []:  # a typo is ignored by every rule: say so
        print(f"warning: {job_file}: {warning['message']}", file=err)
    print(render(result, fmt, job_file, fail_on), file=out)
    return exit_code(result["status"], fail_on)


@click.command()
@click.argument("job_file", metavar="JOB_FILE")
@click.option("--server", default=None, help="Service URL: check against its live cluster facts.")
@click.option("--cluster", default=None, help="Cluster name (needs --server).")
@click.option("--fail-on", type=click.Choice(FAIL_ON), default="warning", show_default=True)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("--lang", type=click.Choice(["en", "zh"]), default="en", show_default=True)
@click.option("--strict", is_flag=True, help="Unknown fact names are an error (exit 2), not a warning.")
def preflight(
    job_file: str, server: str | None, cluster: str | None, fail_on: str, fmt: str, lang: str, strict: bool
) -> None:
    """Pre-flight check of a planned job. Exit: 0 pass, 1 error, 2 bad input, 3 critical, 4 warning."""
    sys.exit(preflight_command(job_file, server, cluster, fail_on, fmt, lang, strict=strict))
