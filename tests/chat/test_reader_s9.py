"""Readings of session 9: a command line followed by its result in words, a reference set apart from the
measurement by a contrast inside one clause, NCCL's socket transport named in words, and the alternative of
'instead of' ending where the sentence goes on about the job's own setup."""

from __future__ import annotations

import pytest

from bwdoctor.chat import understand


def facts(text: str) -> dict[str, object]:
    return {u.fact: u.value for u in understand(text).understood}


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("mpirun -np 16 -H node1:8,node2:8 ./all_reduce_perf -b 8M -e 1G -f 2 -g 1 gives 3.2 GB/s busbw",
     "nccl.allreduce_busbw_gbytes_per_s", 3.2),
    ("iperf3 -c 10.0.0.2 -P 8 and we get ~9 Gbits/sec on a 25G link", "net.iperf3_gbps", 9.0),
    ("ib_write_bw -d mlx5_0 -s 65536 192.168.1.2 gives 90 Gb/s", "net.rdma_bw_gbps", 90.0),
])
def test_the_result_said_after_a_command_is_read(text: str, fact: str, value: float) -> None:
    assert facts(text)[fact] == value


def test_the_arguments_of_a_command_followed_by_its_result_stay_arguments() -> None:
    got = facts("mpirun -np 16 -H node1:8,node2:8 ./all_reduce_perf -b 8M -e 1G -f 2 -g 1 gives 3.2 GB/s busbw")
    assert got["job.nodes"] == 2 and got["job.gpus_per_node"] == 8  # not 16 nodes, not an 8 MB/s or 1 GB/s figure


@pytest.mark.parametrize("text", [
    "Expected bandwidth should be around 23 GB/s but we get 8 GB/s busbw.",
    "理论上应该有 25GB/s 但实际 busbw 只有 8GB/s",
    "busbw is only 8 GB/s while the datasheet says 25 GB/s",
])
def test_a_contrast_sets_the_reference_apart_from_the_measurement(text: str) -> None:
    assert facts(text)["nccl.allreduce_busbw_gbytes_per_s"] == 8.0


def test_a_reference_alone_is_still_no_measurement() -> None:
    assert "nccl.allreduce_busbw_gbytes_per_s" not in facts("Expected busbw should be around 23 GB/s on this fabric.")


@pytest.mark.parametrize("text", [
    "nccl 日志显示 NET/Socket，没有走 IB，我们明明有 IB 卡",
    "Our cross-node AllReduce is slow. NCCL logs say NET/Socket instead of NET/IB over our mlx5 RoCE NICs.",
])
def test_net_socket_named_in_words_is_the_socket_transport(text: str) -> None:
    assert facts(text)["nccl.transport"] == "socket"


def test_a_setting_that_names_the_socket_transport_is_not_read_as_what_ran() -> None:
    assert facts("It is not NET/Socket, it is NET/IB.").get("nccl.transport") != "socket"


def test_the_job_setup_after_the_alternative_of_instead_of_is_kept() -> None:
    got = facts("NCCL logs say NET/Socket instead of NET/IB over our mlx5 RoCE NICs.")
    assert got["nic.kind"] == "roce" and got["nic.rdma"] is True


def test_the_alternative_of_instead_of_is_still_set_aside() -> None:
    assert facts("accelerators: A100-80GB:4 (instead of A100:8)")["job.gpus_per_node"] == 4
