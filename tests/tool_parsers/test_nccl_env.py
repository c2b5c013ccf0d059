"""``NCCL_*`` settings in the shapes people paste them (fixtures from the public threads they cite)."""

import pytest

from bwdoctor_parsers.nccl_env import parse_nccl_env, truthy


def test_export_lines(recorded):
    result = parse_nccl_env(recorded("nccl_env_exports_nccl1510.txt"))
    assert result.env["NCCL_IB_HCA"] == "mlx5" and result.env["NCCL_DEBUG_SUBSYS"] == "ALL"
    assert result.facts() == {"nccl.ib_hca": "mlx5", "nccl.ib_disabled": False, "nic.gid_index": 4,
                              "nccl.socket_ifname": "net1"}


def test_plain_dump_with_trailing_spaces_and_a_list_of_interfaces(recorded):
    result = parse_nccl_env(recorded("nccl_env_plain_nccl1537.txt"))
    assert result.env["NCCL_DEBUG_FILE"] == "/tmp/debug/nccldebug-%h-%p"
    assert result.env["NCCL_NET_GDR_LEVEL"] == "SYS"
    assert result.facts() == {"nccl.ib_hca": "mlx5", "nccl.ib_disabled": False, "nic.gid_index": 3,
                              "nccl.socket_ifname": "bond"}


def test_mpirun_x_flags(recorded):
    result = parse_nccl_env(recorded("nccl_env_mpirun_x_awsofinccl67.txt"))
    assert result.env == {"NCCL_SOCKET_IFNAME": "eth", "NCCL_DEBUG": "INFO", "NCCL_MIN_NCHANNELS": "8",
                          "NCCL_ALGO": "Ring", "NCCL_NSOCKS_PERTHREAD": "8", "NCCL_SOCKET_NTHREADS": "8"}
    assert result.facts() == {"nccl.socket_ifname": "eth"}


def test_json_environment(recorded):
    result = parse_nccl_env(recorded("nccl_env_json_nccl959.txt"))
    assert result.env["NCCL_SHM_DISABLE"] == "1" and result.env["NCCL_SOCKET_IFNAME"] == "eth0"
    assert "FI_PROVIDER" not in result.env and "LD_PRELOAD" not in result.env


@pytest.mark.parametrize(("text", "env"), [
    ('os.environ["NCCL_P2P_DISABLE"] = "1"', {"NCCL_P2P_DISABLE": "1"}),
    ("docker run -e NCCL_IB_DISABLE=1 img", {"NCCL_IB_DISABLE": "1"}),
    ("  NCCL_NET_GDR_LEVEL: LOC", {"NCCL_NET_GDR_LEVEL": "LOC"}),
    ("NCCL_SOCKET_IFNAME=$IFACE", {}),  # a shell variable is not a value
    ("x [0] NCCL INFO NCCL_IB_HCA set to mlx5_0,mlx5_1", {"NCCL_IB_HCA": "mlx5_0,mlx5_1"}),
])
def test_other_shapes(text, env):
    assert parse_nccl_env(text).env == env


def test_bare_x_passes_a_hidden_value_and_decides_nothing():
    result = parse_nccl_env("mpirun -x NCCL_DEBUG -x NCCL_IB_HCA ./train")
    assert result.env == {} and result.passed == ["NCCL_DEBUG", "NCCL_IB_HCA"] and result.facts() == {}


def test_gdr_level_loc_disables_gdr_and_truthy_words():
    assert parse_nccl_env("NCCL_NET_GDR_LEVEL=LOC").facts() == {"nccl.gdr_disabled": True}
    assert truthy("1.") is True and truthy("off") is False and truthy("maybe") is None and truthy(None) is None
    assert parse_nccl_env("no variables here").facts() == {}
