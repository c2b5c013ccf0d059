from pathlib import Path

import pytest

from bwdoctor_probe.config import load_config
from bwdoctor_probe.errors import ConfigError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "agent-probe.yaml"
    path.write_text(text)
    return path


def test_defaults(no_probe_env):
    cfg = load_config(env={})
    assert cfg.server is None and cfg.peers == [] and cfg.window_s == 5.0 and cfg.cloud_metadata == "off"
    assert cfg.node_id  # the hostname


def test_file_then_environment_then_flags(tmp_path):
    path = write(tmp_path, "server: http://file:8000\ncluster: c1\nwindow_s: 3\npeers: [a, b]\nzone: z-file\n")
    env = {"AGENT_PROBE_SERVER": "http://env:8000", "AGENT_PROBE_PEERS": "x, y,z", "AGENT_PROBE_ZONE": "z-env"}
    cfg = load_config(path, env=env, overrides={"zone": "z-flag", "window_s": None})
    assert cfg.server == "http://env:8000"  # env beats file
    assert cfg.peers == ["x", "y", "z"]
    assert cfg.zone == "z-flag"  # flag beats env
    assert cfg.cluster == "c1" and cfg.window_s == 3.0  # a flag left unset does not override


def test_config_file_from_environment(tmp_path):
    path = write(tmp_path, "rack: r12\n")
    assert load_config(env={"AGENT_PROBE_CONFIG": str(path)}).rack == "r12"


def test_token_is_hidden_when_shown(tmp_path):
    cfg = load_config(env={"AGENT_PROBE_TOKEN": "s3cr3t"})
    assert cfg.token == "s3cr3t" and cfg.redacted()["token"] == "***"


@pytest.mark.parametrize(("text", "message"), [
    ("windw_s: 3\n", "unknown setting 'windw_s' (did you mean 'window_s'?)"),
    ("window_s: fast\n", "window_s: expected a number"),
    ("interval_s: 0\n", "interval_s: must be greater than 0"),
    ("peers: {a: 1}\n", "peers: expected a list"),
    ("gpu: maybe\n", "gpu: expected true or false"),
    ("cloud_metadata: ibm\n", "cloud_metadata: expected one of"),
    ("server: ftp://x\n", "server: expected an http"),
    ("node_id: a/b\n", "node_id: expected letters"),
    ("step_time_regex: 'took ('\n", "step_time_regex:"),
    ("iperf_bitrate: lots\n", "iperf_bitrate: expected"),
    ("- just\n- a list\n", "expected a mapping"),
    ("server: [unclosed\n", "line 2"),
])
def test_bad_file_says_what_and_where(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(path, env={})
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="cannot read it"):
        load_config(tmp_path / "nope.yaml", env={})


def test_bad_environment_value_names_the_variable():
    with pytest.raises(ConfigError, match="environment AGENT_PROBE_INTERVAL_S: expected a number"):
        load_config(env={"AGENT_PROBE_INTERVAL_S": "often"})


def test_example_config_is_valid():
    example = Path(__file__).resolve().parents[2] / "examples" / "agent-probe.yaml"
    cfg = load_config(example, env={})
    assert cfg.cluster and cfg.peers and cfg.server


def test_nic_rating_like_nic_speed(tmp_path):
    """nic_max_speed_gbps: file, environment and --nic-max-speed-gbps, the same way as nic_speed_gbps."""
    path = write(tmp_path, "nic_speed_gbps: 25\nnic_max_speed_gbps: 100\n")
    cfg = load_config(path, env={})
    assert (cfg.nic_speed_gbps, cfg.nic_max_speed_gbps, cfg.ethtool_path) == (25.0, 100.0, "ethtool")
    assert load_config(path, env={"AGENT_PROBE_NIC_MAX_SPEED_GBPS": "200"}).nic_max_speed_gbps == 200.0
    assert load_config(path, env={}, overrides={"nic_max_speed_gbps": 400}).nic_max_speed_gbps == 400.0
    with pytest.raises(ConfigError, match="environment AGENT_PROBE_NIC_MAX_SPEED_GBPS: expected a number"):
        load_config(env={"AGENT_PROBE_NIC_MAX_SPEED_GBPS": "fast"})
    assert load_config(env={}).nic_max_speed_gbps is None


def test_the_example_names_every_setting_but_the_token():
    """docs/probe.md says examples/agent-probe.yaml lists every setting; the token is kept out on purpose
    (AGENT_PROBE_TOKEN in a 0600 file), and the example says so."""
    import dataclasses
    import re

    from bwdoctor_probe.config import ProbeConfig

    example = (Path(__file__).resolve().parents[2] / "examples" / "agent-probe.yaml").read_text()
    missing = [f.name for f in dataclasses.fields(ProbeConfig) if not re.search(rf"^#? ?{f.name}:", example, re.M)]
    assert missing == ["token"] and "AGENT_PROBE_TOKEN" in example
