"""The probe runs on GPU nodes beside the job: importing it must not drag in the service stack."""

import subprocess
import sys

HEAVY = ("bwdoctor", "fastapi", "sqlalchemy", "pydantic", "uvicorn", "starlette", "alembic")

PROBE_MODULES = [
    "bwdoctor_probe", "bwdoctor_probe.cli", "bwdoctor_probe.config", "bwdoctor_probe.collect", "bwdoctor_probe.runner",
    "bwdoctor_probe.client", "bwdoctor_probe.spool", "bwdoctor_probe.output", "bwdoctor_probe.iperf_server",
    "bwdoctor_probe.collectors.gpu", "bwdoctor_probe.collectors.nic", "bwdoctor_probe.collectors.system",
    "bwdoctor_probe.collectors.peers", "bwdoctor_probe.collectors.files", "bwdoctor_probe.collectors.placement",
]


def _loaded_after(imports: list[str]) -> set[str]:
    code = "import sys\n" + "".join(f"import {m}\n" for m in imports) + "print('\\n'.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_agent_probe_pulls_in_no_service_code():
    loaded = _loaded_after(PROBE_MODULES)
    heavy = sorted(m for m in loaded if m.split(".")[0] in HEAVY)
    assert heavy == [], f"agent_probe imports {heavy}"


def test_tool_parsers_import_nothing_of_the_service_or_the_probe():
    loaded = _loaded_after(["tool_parsers." + m for m in (
        "iperf3", "nccl_tests", "nccl_log", "training_log", "procfs", "ibstat", "sysfs_net", "ethtool")])
    assert sorted(m for m in loaded if m.split(".")[0] in HEAVY + ("bwdoctor_probe", "httpx", "yaml")) == []


def test_collect_path_does_not_import_httpx_or_yaml_until_needed():
    loaded = _loaded_after(["bwdoctor_probe.cli", "bwdoctor_probe.collect"])
    assert "httpx" not in loaded and "yaml" not in loaded
