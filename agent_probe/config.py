"""Probe settings: defaults < YAML config file < environment (AGENT_PROBE_*) < command-line flags.

Every setting has one name used everywhere: ``window_s`` in the file, ``AGENT_PROBE_WINDOW_S``
in the environment, ``--window`` on the command line. Unknown keys and bad values raise
``ConfigError`` naming where they came from, so a typo never silently does nothing.
"""

from __future__ import annotations

import dataclasses
import os
import re
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bwdoctor_probe.errors import ConfigError

ENV_PREFIX = "AGENT_PROBE_"
CLOUD_CHOICES = ("off", "auto", "aws", "gcp", "azure")
_BITRATE = re.compile(r"^\d+(\.\d+)?[KMGkmg]?$")
# The service's node-id pattern: checked here so a bad name fails at start, not on every report.
NODE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$")


def default_spool_dir() -> Path:
    """/var/lib/agent-probe/spool for the service user (root), else under the user's state dir."""
    if os.geteuid() == 0:
        return Path("/var/lib/agent-probe/spool")
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "agent-probe" / "spool"


@dataclass
class ProbeConfig:
    """Everything the probe can be told. Durations in seconds, rates in Gb/s, sizes in bytes."""

    # where to report
    server: str | None = None
    token: str | None = None
    node_id: str = field(default_factory=socket.gethostname)
    # placement (facts node.*)
    cluster: str | None = None
    region: str | None = None
    zone: str | None = None
    rack: str | None = None
    leaf_switch: str | None = None  # the leaf switch the training NIC is cabled to (else LLDP, if on)
    rail: str | None = None  # the rail of a rail-optimised fabric the training NIC is on
    lldp: bool = True  # read the leaf switch from `lldpctl -f json` when lldpd runs and leaf_switch is unset
    instance_type: str | None = None
    instance_bandwidth_gbps: float | None = None
    cloud_metadata: str = "off"
    metadata_timeout_s: float = 0.5
    # sampling
    window_s: float = 5.0
    interval_s: float = 60.0
    jitter: float = 0.1
    nic: str | None = None
    nic_speed_gbps: float | None = None
    nic_max_speed_gbps: float | None = None
    gpu: bool = True
    # peer measurements (opt-in: nothing is sent unless peers are listed)
    peers: list[str] = field(default_factory=list)
    iperf_port: int = 5201
    rtt_port: int = 5202
    iperf_duration_s: float = 2.0
    iperf_bitrate: str | None = None
    peer_interval_s: float = 1800.0
    # planned pair tests (opt-in: the probe runs only tests the service hands it, one at a time)
    fabric_tests: bool = False
    fabric_address: str | None = None  # where this node's iperf3 server is reached (default: the address
    # this node uses towards the service)
    fabric_poll_s: float = 30.0  # the longest wait between asks (the service may ask sooner)
    fabric_max_duration_s: float = 10.0  # refuse planned tests longer than this
    fabric_max_rate_gbps: float | None = None  # cap every planned test at this rate, whatever the plan says
    iperf3_path: str = "iperf3"
    ethtool_path: str = "ethtool"
    # files to read
    nccl_tests_output: Path | None = None
    nccl_log: Path | None = None
    training_log: Path | None = None
    job_file: Path | None = None  # a YAML of the job's facts (job.*, model.*), sent with every report
    step_time_regex: str | None = None
    step_time_last_n: int = 20
    step_times_sent: int = 200  # the last per-step times sent as job.step_times_s (checkpoint spikes); 0 = none
    max_read_bytes: int = 4 * 1024 * 1024
    # delivery
    spool_dir: Path = field(default_factory=default_spool_dir)
    spool_max_bytes: int = 16 * 1024 * 1024
    http_timeout_s: float = 10.0
    backoff_initial_s: float = 2.0
    backoff_max_s: float = 300.0

    def redacted(self) -> dict[str, Any]:
        """The settings as plain data, token hidden (for ``--print-config`` and logs)."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        if out.get("token"):
            out["token"] = "***"
        return {k: (str(v) if isinstance(v, Path) else v) for k, v in out.items()}


_FIELDS = {f.name: f for f in dataclasses.fields(ProbeConfig)}
MAX_STEP_TIMES_SENT = 1000  # the service takes fact lists of at most 1,000 items
_POSITIVE = {
    "interval_s": 0.0, "iperf_duration_s": 0.0, "metadata_timeout_s": 0.0,
    "http_timeout_s": 0.0, "backoff_initial_s": 0.0, "backoff_max_s": 0.0, "peer_interval_s": 0.0,
    "fabric_poll_s": 0.0, "fabric_max_duration_s": 0.0,
}


def _kind(name: str) -> str:
    annotation = str(_FIELDS[name].type)
    for kind in ("list", "bool", "int", "float", "Path"):
        if kind in annotation:
            return kind
    return "str"


def _coerce(name: str, value: Any, source: str) -> Any:
    """Turn a YAML value or an environment string into the field's type, or raise ConfigError."""
    kind = _kind(name)
    where = source if source.startswith("environment") else f"{source}: {name}"
    if value is None or (isinstance(value, str) and value.strip() == "" and kind != "str"):
        if "None" in str(_FIELDS[name].type):
            return None
        if kind == "list":
            return []
        raise ConfigError(f"{where}: a value is required")
    if kind == "list":
        items = value.split(",") if isinstance(value, str) else value
        if not isinstance(items, list) or not all(isinstance(i, str | int) for i in items):
            raise ConfigError(f"{where}: expected a list of host names, got {value!r}")
        return [str(i).strip() for i in items if str(i).strip()]
    if kind == "bool":
        if isinstance(value, bool):
            return value
        lowered = str(value).strip().lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise ConfigError(f"{where}: expected true or false, got {value!r}")
    if kind in ("int", "float"):
        if isinstance(value, bool):
            raise ConfigError(f"{where}: expected a number, got {value!r}")
        try:
            number: float = int(value) if kind == "int" else float(value)
        except (TypeError, ValueError):
            raise ConfigError(f"{where}: expected a number, got {value!r}") from None
        if number != number or number in (float("inf"), float("-inf")) or number < 0:
            raise ConfigError(f"{where}: expected a number ≥ 0, got {value!r}")
        return number
    if kind == "Path":
        if not isinstance(value, str):
            raise ConfigError(f"{where}: expected a path, got {value!r}")
        return Path(value).expanduser()
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise ConfigError(f"{where}: expected text, got {value!r}")
    return str(value)


def _validate(cfg: ProbeConfig) -> ProbeConfig:
    """Cross-field and range checks that do not depend on where a value came from."""
    for name, floor in _POSITIVE.items():
        if getattr(cfg, name) <= floor:
            raise ConfigError(f"{name}: must be greater than 0, got {getattr(cfg, name)!r}")
    if not 0 <= cfg.jitter < 1:
        raise ConfigError(f"jitter: must be a fraction between 0 and 1, got {cfg.jitter!r}")
    for name in ("iperf_port", "rtt_port"):
        value = getattr(cfg, name)
        if not 0 <= value <= 65535:
            raise ConfigError(f"{name}: must be a TCP port (1-65535, 0 = off), got {value!r}")
    if cfg.iperf_port == 0:
        raise ConfigError("iperf_port: must be a TCP port (1-65535)")
    if cfg.cloud_metadata not in CLOUD_CHOICES:
        raise ConfigError(f"cloud_metadata: expected one of {', '.join(CLOUD_CHOICES)}, got {cfg.cloud_metadata!r}")
    if cfg.iperf_bitrate is not None and not _BITRATE.match(cfg.iperf_bitrate):
        raise ConfigError(f"iperf_bitrate: expected an iperf3 rate such as 2G or 500M, got {cfg.iperf_bitrate!r}")
    if cfg.step_time_regex is not None:
        from bwdoctor_parsers.training_log import compile_step_regex

        try:
            compile_step_regex(cfg.step_time_regex)
        except re.error as exc:
            raise ConfigError(f"step_time_regex: {exc}") from None
    if cfg.server is not None and not re.match(r"^https?://[^\s/]+", cfg.server):
        raise ConfigError(f"server: expected an http:// or https:// URL, got {cfg.server!r}")
    if not NODE_ID.match(cfg.node_id):
        raise ConfigError(f"node_id: expected letters, digits and . _ : @ - (at most 128), got {cfg.node_id!r}")
    if cfg.step_time_last_n < 1 or cfg.spool_max_bytes < 1024:
        raise ConfigError("step_time_last_n must be ≥ 1 and spool_max_bytes ≥ 1024")
    if cfg.step_times_sent > MAX_STEP_TIMES_SENT:
        limit, got = MAX_STEP_TIMES_SENT, cfg.step_times_sent
        raise ConfigError(f"step_times_sent: at most {limit} (the service's limit on a fact list), got {got}")
    return cfg


def read_config_file(path: Path) -> dict[str, Any]:
    """Load the YAML mapping at ``path``; a missing file, bad YAML or a non-mapping is a ConfigError."""
    import yaml

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"config file {path}: cannot read it ({exc.strerror or exc})") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise ConfigError(f"config file {path}:{line} {problem}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"config file {path}: expected a mapping of settings, got {type(data).__name__}")
    return data


def load_config(
    path: Path | None = None,
    *,
    env: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> ProbeConfig:
    """Build the settings from the config file (``path`` or AGENT_PROBE_CONFIG), environment, flags."""
    env = os.environ if env is None else env
    values: dict[str, Any] = {}
    if path is None and env.get(ENV_PREFIX + "CONFIG"):
        path = Path(env[ENV_PREFIX + "CONFIG"])
    if path is not None:
        for key, value in read_config_file(path).items():
            if key not in _FIELDS:
                raise ConfigError(f"config file {path}: unknown setting {key!r}{_suggest(str(key))}")
            values[key] = _coerce(key, value, f"config file {path}")
    for name in _FIELDS:
        env_name = ENV_PREFIX + name.upper()
        if env_name in env:
            values[name] = _coerce(name, env[env_name], f"environment {env_name}")  # names the key itself
    for name, value in (overrides or {}).items():
        if value is not None:
            values[name] = _coerce(name, value, f"option --{name.replace('_', '-')}")
    return _validate(ProbeConfig(**values))


def _suggest(key: str) -> str:
    import difflib

    close = difflib.get_close_matches(key, list(_FIELDS), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
