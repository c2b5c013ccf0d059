"""What an expert concludes from a few words and a paste: the RDMA a transport implies, and storage as the first
suspect when nothing else is said."""

from __future__ import annotations

import pytest

from bwdoctor.chat import answer_turn, understand


def facts(text: str) -> dict[str, object]:
    return {u.fact: u.value for u in understand(text).understood}


@pytest.mark.parametrize("text", [
    "In my NCCL_DEBUG=INFO log the channels go over NET/IB but never with /GDRDMA.",
    "NCCL 日志里 channel 都是 via NET/IB/0，没有 GDRDMA，两台机器 busbw 很低。",
])
def test_ncc_ib_transport_means_the_node_has_rdma(text: str) -> None:
    got = facts(text)
    assert got["nccl.transport"] == "ib" and got["nic.rdma"] is True


def test_a_socket_transport_says_nothing_of_rdma() -> None:
    got = facts("NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0> — it fell back to sockets.")
    assert got.get("nic.rdma") is not True


def test_gdr_off_on_an_ib_transport_is_a_finding(engine) -> None:
    out = answer_turn("The all-reduce channels go over NET/IB but never with /GDRDMA. How do I enable GDR?",
                      engine=engine)
    assert "nccl-transport-fallback" in {f["category"] for f in out["findings"]}


@pytest.mark.parametrize("text", [
    "数据放在 S3 上，训练时直接从 bucket 读，一个 batch 要好几分钟，怎么办？",
    "Our loader streams the data set from an NFS share and each epoch takes forever. Where to start?",
])
def test_remote_data_alone_points_at_the_storage_path(engine, text: str) -> None:
    out = answer_turn(text, engine=engine)
    assert "remote-storage-io" in {f["category"] for f in out["findings"]}
