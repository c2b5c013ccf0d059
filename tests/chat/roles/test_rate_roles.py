"""Rates and roles left misread by earlier probes: a collective far below a measured RDMA path (no
healthy verdict first), figures of runs under settings ('NCCL_IB_DISABLE=1 gives 1.2 GB/s, with IB enabled 20 GB/s':
NCCL's per setting, never iperf3's; the job's only when said as current), ibstat's 'Rate:' against the rating bought,
the port NCCL uses named with its rate in brackets, an NCCL_IB_HCA list as the NICs' count, PyTorch's example log
lines (AverageMeter 'Time 1.599 ( 2.648)'), and stalls beside checkpoints to network storage."""

from __future__ import annotations

import pytest

from bwdoctor.chat import answer_turn
from bwdoctor_parsers.training_log import parse_training_log
from tests.matching import stated_facts as facts


@pytest.mark.parametrize(("text", "expected"), [
    # runs under settings: a lone NCCL setting's figure is NCCL's bus bandwidth
    ("NCCL_IB_DISABLE=1 我们只有 1.2 GB/s 的 busbw",
     {"nccl.allreduce_busbw_gbytes_per_s": 1.2, "nccl.ib_disabled": True}),
    # compared settings: the one said as current is the job's
    ("现在 NCCL_ALGO=Ring 是 15 GB/s，NCCL_ALGO=Tree 是 9 GB/s", {"nccl.allreduce_busbw_gbytes_per_s": 15.0}),
    ("we get 20 GB/s busbw; with NCCL_IB_DISABLE=1 it drops to 1.2 GB/s", {"nccl.allreduce_busbw_gbytes_per_s": 20.0}),
    # ibstat's Rate: is the negotiated link; what was bought is the rating
    ("ibstat 显示 Rate: 100 Gb/sec (4X EDR)，但我们买的是 HDR 200G 的卡，训练很慢",
     {"nic.speed_gbps": 100.0, "nic.max_speed_gbps": 200.0}),
    ("Rate: 100 Gb/sec (4X EDR) but we bought HDR 200G cards", {"nic.speed_gbps": 100.0, "nic.max_speed_gbps": 200.0}),
    ("we bought 100G NICs", {"nic.max_speed_gbps": 100.0}),
    # the port NCCL uses, its rate in brackets: the link NCCL runs on
    ("NCCL uses the eno1 (1G) interface", {"nccl.socket_ifname": "eno1", "nic.speed_gbps": 1.0}),
    ("NCCL picks eth0 (10G)", {"nccl.socket_ifname": "eth0", "nic.speed_gbps": 10.0}),
    ("NCCL is using ens3 (25G) instead of ib0", {"nccl.socket_ifname": "ens3", "nic.speed_gbps": 25.0}),
    ("NCCL 用的是 eth0（10G）网卡", {"nccl.socket_ifname": "eth0", "nic.speed_gbps": 10.0}),
    ("NCCL 走的 eno1 (1G)", {"nccl.socket_ifname": "eno1", "nic.speed_gbps": 1.0}),
    # an NCCL_IB_HCA list counts the NICs, the prose's count first
    ("export NCCL_IB_HCA=mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_7 and training on 2 nodes is slow",
     {"nic.count": 8, "job.nodes": 2}),
    ("NCCL_IB_HCA=mlx5_0:1,mlx5_1:1 两台机器 busbw 只有 10 GB/s",
     {"nic.count": 2, "nccl.allreduce_busbw_gbytes_per_s": 10.0}),
    ("we have 4 NICs per node but set NCCL_IB_HCA=mlx5_0,mlx5_1", {"nic.count": 4}),
    # a datasheet's or a vendor's figure is the rating
    ("the ConnectX-7 datasheet says 400 Gb/s, we measured 190 Gb/s with ib_write_bw",
     {"nic.max_speed_gbps": 400.0, "net.rdma_bw_gbps": 190.0}),
    ("the vendor promised 100 Gbps, iperf3 gets 35 Gbps", {"nic.max_speed_gbps": 100.0, "net.iperf3_gbps": 35.0}),
    # a byte rate named an all-reduce's bandwidth after it
    ("benchmark shows 48 GB/s all-reduce bandwidth across 4 nodes", {"nccl.allreduce_busbw_gbytes_per_s": 48.0}),
    ("NCCL 2.18.3, busbw 5 GB/s", {"nccl.version": "2.18.3", "nccl.allreduce_busbw_gbytes_per_s": 5.0}),
    # a transport switched on alone: the job's figure as read ('from 20 to 45': the later)
    ("打开 GDR 之后 busbw 从 20 GB/s 提到 45 GB/s", {"nccl.allreduce_busbw_gbytes_per_s": 45.0}),
    # a tool's figure in scientific notation
    ("iperf3 测得 1.2e10 bytes/s", {"net.iperf3_gbps": 96.0}),
    ("ib_write_bw reports 9.7e10 bits/s", {"net.rdma_bw_gbps": 97.0}),
    ("busbw 1.1e10 B/s on 2 nodes", {"nccl.allreduce_busbw_gbytes_per_s": 11.0, "job.nodes": 2}),
    # PyTorch's example log, pasted
    ("Training is slow, log:\n```\nEpoch: [0][ 10/5005]\tTime  1.599 ( 2.648)\tData  1.296 ( 2.388)\tLoss 6.9 (6.9)\n"
     "Epoch: [0][ 20/5005]\tTime  1.601 ( 2.150)\tData  1.290 ( 1.850)\tLoss 6.9 (6.9)\n```\n",
     {"job.step_time_s": 2.15, "job.data_wait_pct": 86.05}),
])
def test_rates_and_roles_read(text: str, expected: dict[str, object]) -> None:
    got = facts(text)
    for key, value in expected.items():
        assert got.get(key) == pytest.approx(value) if isinstance(value, float) else got.get(key) == value, (key, got)


@pytest.mark.parametrize(("text", "not_read"), [
    # figures of runs under settings are never iperf3's nor a link's rate
    ("NCCL_IB_DISABLE=1 gives 1.2 GB/s, with IB enabled 20 GB/s", "net.iperf3_gbps"),
    ("NCCL_IB_DISABLE=1 gives 1.2 GB/s, with IB enabled 20 GB/s", "nccl.allreduce_busbw_gbytes_per_s"),
    ("NCCL_IB_DISABLE=1 gives 1.2 GB/s, with IB enabled 20 GB/s", "nccl.ib_disabled"),
    ("with NCCL_IB_DISABLE=1 we get 1.2 GB/s busbw, without it 20 GB/s", "nccl.allreduce_busbw_gbytes_per_s"),
    ("设置 NCCL_IB_DISABLE=1 之后只有 1.2 GB/s，开启 IB 是 20 GB/s", "nic.speed_gbps"),
    ("设置 NCCL_IB_DISABLE=1 之后只有 1.2 GB/s，开启 IB 是 20 GB/s", "net.iperf3_gbps"),
    ("NCCL_ALGO=Tree gives 9 GB/s while NCCL_ALGO=Ring gives 15 GB/s", "net.iperf3_gbps"),
    ("NCCL_ALGO=Tree gives 9 GB/s while NCCL_ALGO=Ring gives 15 GB/s", "nccl.allreduce_busbw_gbytes_per_s"),
    ("we get 20 GB/s busbw; with NCCL_IB_DISABLE=1 it drops to 1.2 GB/s", "nccl.ib_disabled"),
    # another collective's figure under a setting is no all-reduce's
    ("16 台机器，默认配置下 broadcast_perf 只有 9 GB/s；强制 NCCL_MAX_NCHANNELS=1 也还是 9 GB/s",
     "nccl.allreduce_busbw_gbytes_per_s"),
    # a setting then iperf3: iperf3's own figure stays
    ("ibstat 显示 Rate: 100 Gb/sec (4X EDR)，但我们买的是 HDR 200G 的卡", "net.iperf3_gbps"),
    ("benchmark shows 48 GB/s all-reduce bandwidth across 4 nodes", "net.iperf3_gbps"),
    # a rate after NCCL's name is no version of it
    ("iperf3 ~ 9.3Gbps, nccl 0.6GB/s, 10G 网卡", "nccl.version"),
    ("nccl 2.5GB/s on 2 nodes", "nccl.version"),
    # scientific notation without a tool named is nobody's figure
    ("we moved 1.2e10 bytes/s of data from storage", "net.iperf3_gbps"),
    ("the model has 1.2e10 parameters, iperf3 is fine", "net.iperf3_gbps"),
    # a '^' list excludes, a prefix matches any number: no count
    ("NCCL_IB_HCA=^mlx5_1 training is slow", "nic.count"),
    ("NCCL_IB_HCA=mlx5 on 2 nodes, slow", "nic.count"),
    ("NCCL_IB_HCA=mlx5_0 on 2 nodes, slow", "nic.count"),
    # a port's rate in brackets with NCCL elsewhere is that port's only
    ("the management port eno1 (1G) is up, NCCL uses ib0", "nic.speed_gbps"),
])
def test_rates_and_roles_not_misread(text: str, not_read: str) -> None:
    assert not_read not in facts(text)


def test_setting_then_iperf3_keeps_iperf3() -> None:
    got = facts("NCCL_SOCKET_IFNAME=eth0, iperf3 shows 9.4 Gbits/sec")
    assert got.get("net.iperf3_gbps") == 9.4 and got.get("nccl.socket_ifname") == "eth0"


@pytest.mark.parametrize(("text", "first", "absent"), [
    ("ib_write_bw reports 97 Gb/sec on our 100G NICs, but NCCL only gets 4 GB/s", "nccl-transport-fallback", "healthy"),
    ("ib_write_bw 跑到 370 Gb/s，但是 nccl-tests 的 busbw 只有 12 GB/s", "nccl-transport-fallback", None),
    ("iperf3 gets 94 Gb/s on our 100G NICs, but NCCL only gets 4 GB/s", "nccl-transport-fallback", "healthy"),
    ("we checkpoint every 1000 steps to NFS, training stalls ~5 min each time", "checkpoint-contention", None),
    ("每 500 步存一次 checkpoint 到 NFS，训练隔一段时间就卡住几分钟", "checkpoint-contention", None),
])
def test_first_finding(engine, text: str, first: str, absent: str | None) -> None:  # type: ignore[no-untyped-def]
    findings = answer_turn(text, engine=engine)["findings"]
    assert findings and findings[0]["category"] == first, [(f["category"], f["rule"]) for f in findings]
    if absent:
        assert absent not in {f["category"] for f in findings}


def test_ib_write_bw_close_to_nccl_is_no_fallback(engine) -> None:  # type: ignore[no-untyped-def]
    findings = answer_turn("ib_write_bw reports 97 Gb/sec, NCCL busbw 11 GB/s", engine=engine)["findings"]
    assert "nccl-transport-fallback" not in {f["category"] for f in findings}


def test_local_checkpoints_are_no_stall_suspect(engine) -> None:  # type: ignore[no-untyped-def]
    findings = answer_turn("训练时快时慢，checkpoint 存在本地盘，每 1000 步一次", engine=engine)["findings"]
    assert "checkpoint-contention" not in {f["category"] for f in findings}


@pytest.mark.parametrize(("log", "expected"), [
    ("Epoch: [0][ 10/5005]\tTime  1.599 ( 2.648)\tData  1.296 ( 2.388)\tLoss 6.9 (6.9)",
     {"job.step_time_s": 2.648, "job.data_wait_pct": 90.18}),
    ("Epoch: [3][100/625]\tTime  0.210 ( 0.215)\tData  0.001 ( 0.004)\tLoss 1.2 (1.3)\tAcc@1  70.0 ( 68.1)\n"
     "Epoch: [3][110/625]\tTime  0.212 ( 0.214)\tData  0.001 ( 0.003)\tLoss 1.2 (1.3)\tAcc@1  70.0 ( 68.1)\n"
     "Test: [ 10/196]\tTime  0.500 ( 0.600)\tLoss 1.0 (1.0)",
     {"job.step_time_s": 0.214, "job.data_wait_pct": 1.4}),
    ("Epoch: [0][ 10/5005]\tTime  1.599 ( 2.648)\tLoss 6.9 (6.9)", {"job.step_time_s": 2.648}),
])
def test_pytorch_example_meters(log: str, expected: dict[str, float]) -> None:
    got = parse_training_log(log).facts()
    assert got.keys() >= expected.keys()
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, abs=0.01)


@pytest.mark.parametrize("log", [
    "Test: [ 10/196]\tTime  0.500 ( 0.600)\tLoss 1.0 (1.0)",  # validation only
    "Epoch: [0][ 10/5005]\tTime  x ( y)",
    "Epoch: [0][ 10/5005]\tTime  1.5 ( 0)",
    "",
])
def test_pytorch_example_meters_negatives(log: str) -> None:
    got = parse_training_log(log).facts()
    assert "job.step_time_s" not in got and "job.data_wait_pct" not in got
