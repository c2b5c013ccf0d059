"""NCCL_* settings whose value is a shell variable ('-x NCCL_IB_HCA=$ibcards'): the value the text assigns it, or no
value at all — never the literal '$ibcards'."""

from bwdoctor_parsers.nccl_env import parse_nccl_env, shell_value


def test_a_shell_variable_is_resolved_from_its_export():
    text = ('export ibcards="mlx5_0:1,mlx5_2:1"\n'
            "mpirun -np 16 -x NCCL_IB_HCA=$ibcards -x NCCL_IB_DISABLE=0 ./build/all_reduce_perf -b 8 -e 1G -g 1\n")
    assert parse_nccl_env(text).facts() == {"nccl.ib_hca": "mlx5_0:1,mlx5_2:1", "nccl.ib_disabled": False}


def test_a_braced_variable_assigned_without_export_is_resolved():
    text = "HCAS=mlx5_0,mlx5_1\nsrun --export=ALL,NCCL_IB_HCA=${HCAS} python train.py\nNCCL_IB_HCA=${HCAS}\n"
    assert parse_nccl_env(text).env["NCCL_IB_HCA"] == "mlx5_0,mlx5_1"


def test_an_unassigned_variable_gives_no_value():
    result = parse_nccl_env("mpirun -x NCCL_SOCKET_IFNAME=$IFACE -x NCCL_DEBUG=INFO ./all_reduce_perf\n")
    assert "NCCL_SOCKET_IFNAME" not in result.env and "nccl.socket_ifname" not in result.facts()


def test_a_plain_value_is_kept_as_it_is():
    assert shell_value("", "eth0") == "eth0" and shell_value("x=1", "$y") is None
