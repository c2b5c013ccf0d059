"""The fabric inferred from an NCCL setting: a GID index set means RoCE.

NCCL documents NCCL_IB_GID_INDEX as 'the Global ID index used in RoCE mode', so a GID index set ('-x
NCCL_IB_GID_INDEX=3', 'export NCCL_IB_GID_INDEX=3', 'GID index 用的 3') with no fabric named reads nic.kind roce, as
an assumption. Traps: a fabric named in words wins; the IB transport switched off or no RDMA said gives no fabric; a
question about what to set is no setting.
"""

from __future__ import annotations

import pytest

from bwdoctor.chat import understand

KIND = "nic.kind"


def read(text: str) -> dict[str, object]:
    return {u.fact: u.value for u in understand(text).understood}


SET = ("mpirun -np 16 -x NCCL_IB_DISABLE=0 -x NCCL_IB_HCA=mlx5_0:1 -x NCCL_IB_GID_INDEX={g} "
       "./all_reduce_perf -b 8 -e 128M",
       "export NCCL_IB_GID_INDEX={g}\ntorchrun --nnodes 2 --nproc_per_node 8 train.py",
       "两台机器跑 nccl-tests，设置了 NCCL_IB_GID_INDEX={g}，busbw 很低",
       "GID index 用的 {g}，跨机 allreduce 很慢",
       "We set NCCL_IB_GID_INDEX={g} and the all-reduce across 2 nodes is slow.")


@pytest.mark.parametrize("form", SET)
@pytest.mark.parametrize("g", [3, 1, 5])
def test_a_gid_index_set_means_roce(form: str, g: int) -> None:
    got = read(form.format(g=g))
    assert got.get("nic.gid_index") == g and got.get(KIND) == "roce"


@pytest.mark.parametrize(("text", "kind"), [
    ("export NCCL_IB_GID_INDEX=3, InfiniBand HDR between the nodes", "infiniband"),
    ("NCCL_IB_GID_INDEX=3，网络是 IB 的 NDR 400G", "infiniband"),
])
def test_a_fabric_named_wins(text: str, kind: str) -> None:
    assert read(text).get(KIND) == kind


@pytest.mark.parametrize("text", [
    "NCCL_IB_DISABLE=1 NCCL_IB_GID_INDEX=3 torchrun train.py",
    "NCCL_IB_GID_INDEX 应该设置为 3 吗？",
    "Should I set NCCL_IB_GID_INDEX=3?",
    "两台机器，没有 RDMA，NCCL_IB_GID_INDEX=3",
])
def test_no_roce_without_a_gid_setting_in_use(text: str) -> None:
    assert read(text).get(KIND) != "roce"
