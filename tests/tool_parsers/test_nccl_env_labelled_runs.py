"""Two launch commands pasted together, each after a comment label, are two runs to compare, not one job's settings."""

from bwdoctor_parsers.nccl_env import labelled_runs

BLOCK = """# socket baseline
mpirun -np 2 -x NCCL_SOCKET_IFNAME=eth1 -x NCCL_IB_DISABLE=1 ./all_reduce_perf -b 8 -e 1G
# 走 RDMA
mpirun -np 2 -x NCCL_SOCKET_IFNAME=eth1 -x NCCL_IB_HCA=mlx5_0 ./all_reduce_perf -b 8 -e 1G
"""


def test_each_labelled_run_has_its_own_settings() -> None:
    runs = labelled_runs(BLOCK)
    assert [r.label for r in runs] == ["socket baseline", "走 RDMA"]
    assert runs[0].own(runs) == {("NCCL_IB_DISABLE", "1")}
    assert runs[1].own(runs) == {("NCCL_IB_HCA", "mlx5_0")}  # the shared interface belongs to neither alone


def test_one_command_or_equal_settings_are_no_comparison() -> None:
    assert labelled_runs("# launch\nmpirun -np 2 -x NCCL_IB_DISABLE=1 python t.py\n") == []
    same = "# node a\nexport NCCL_IB_HCA=mlx5_0\n# node b\nexport NCCL_IB_HCA=mlx5_0\n"
    assert labelled_runs(same) == []
    assert labelled_runs("#!/bin/bash\n# step 1\nexport NCCL_DEBUG=INFO\n# step 2\nexport NCCL_IB_HCA=mlx5_0\n") == []
