"""Misreads of the chat reader, by family: a figure or a state read from words that do not say it.

A misread is worse than a gap, so every case says what must be read and what must not: an idle share or a
ratio to another run is no utilisation figure, an unsure or asked state is no fact, 'GDR is fine' is no GDR off,
'the NIC doesn't support GPUDirect' is about GDR (not RDMA being there), 'no RDMA NIC was ever set up' is no RDMA.
"""

from typing import Any

import pytest

from bwdoctor.chat import understand

ABSENT = object()  # the fact must not be read at all


def _facts(text: str) -> dict[str, Any]:
    return {u.fact: u.value for u in understand(text).understood}


def _check(text: str, must: dict[str, Any], must_not: dict[str, Any]) -> None:
    facts = _facts(text)
    for fact, value in must.items():
        assert facts.get(fact) == value, f"{text!r}: {fact} should be {value!r}, got {facts.get(fact)!r} in {facts}"
    for fact, value in must_not.items():
        if value is ABSENT:
            assert fact not in facts, f"{text!r}: {fact} should not be read, got {facts[fact]!r}"
        else:
            assert facts.get(fact) != value, f"{text!r}: {fact} should not be {value!r} ({facts})"


# 1. an idle share, a share of time or a ratio to another run is no utilisation figure
IDLE_AND_RATIOS = [
    ("our GPUs are idle 65% of the time", {}, {"gpu.util_pct": ABSENT}),
    ("the GPUs spend 40% of each step sitting idle", {}, {"gpu.util_pct": ABSENT}),
    ("GPUs sit idle about 55% of the time waiting on the NCCL all-reduce", {"job.comm_time_pct": 55.0},
     {"gpu.util_pct": ABSENT}),
    ("On 4 nodes GPU utilization is only 60% of the single-node run", {}, {"gpu.util_pct": ABSENT}),
    ("8 卡的时候 GPU 有 45% 的时间在等 allreduce", {"job.comm_time_pct": 45.0}, {"gpu.util_pct": ABSENT}),
    ("显卡大约 70% 的时间都是空闲的", {}, {"gpu.util_pct": ABSENT}),
    ("两机训练时 GPU 利用率只有单机的 60%", {}, {"gpu.util_pct": ABSENT}),
    ("GPU 利用率降到了原来的 40%", {}, {"gpu.util_pct": ABSENT}),
    ("GPU 闲置时间占 30% 左右", {}, {"gpu.util_pct": ABSENT}),
    # still read: a utilisation said as one
    ("GPU 利用率只有 35%", {"gpu.util_pct": 35.0}, {}),
    ("GPU util sits around 45% during training", {"gpu.util_pct": 45.0}, {}),
    ("单机 GPU 利用率 95%，两机只有 50%", {"gpu.util_pct": 50.0}, {}),
    ("GPU util is 40% vs 90% on a single node", {"gpu.util_pct": 40.0}, {}),
    ("GPU util is 40% compared to 90% on one node", {"gpu.util_pct": 40.0}, {}),
]


@pytest.mark.parametrize(("text", "must", "must_not"), IDLE_AND_RATIOS)
def test_idle_shares_and_ratios_are_no_utilisation(text: str, must: dict[str, Any], must_not: dict[str, Any]) -> None:
    _check(text, must, must_not)


# 2. unsure or asked: no fact
UNSURE = [
    ("不确定 GDR 有没有生效", {}, {"nccl.gdr_disabled": ABSENT}),
    ("GDR 开没开我不知道", {}, {"nccl.gdr_disabled": ABSENT}),
    ("我们也不清楚有没有 NVLink", {}, {"gpu.nvlink": ABSENT}),
    ("两台机器是不是有 NVLink 我也说不准", {}, {"gpu.nvlink": ABSENT}),
    ("不知道是不是走了 RDMA", {}, {"nic.rdma": ABSENT}),
    ("not sure if GPUDirect RDMA is enabled on these nodes", {}, {"nccl.gdr_disabled": ABSENT, "nic.rdma": ABSENT}),
    ("I have no idea whether the boxes have NVLink", {}, {"gpu.nvlink": ABSENT}),
    ("we can't tell if RDMA is actually being used", {}, {"nic.rdma": ABSENT}),
    ("I'm unsure whether GDR is off", {}, {"nccl.gdr_disabled": ABSENT}),
    # still read: the state said, the doubt about something else
    ("GDR 没开", {"nccl.gdr_disabled": True}, {}),
    ("这两台没有 NVLink", {"gpu.nvlink": False}, {}),
    ("I don't know why it is slow, the nodes have NVLink", {"gpu.nvlink": True}, {}),
    ("GDR 开了，但是不确定 nvidia-peermem 有没有加载", {"nccl.gdr_disabled": False}, {}),
    ("Is GPUDirect enabled on our nodes?", {}, {"nccl.gdr_disabled": ABSENT}),
    ("Do the servers have RDMA?", {}, {"nic.rdma": ABSENT}),
    ("GDR 开了吗？", {}, {"nccl.gdr_disabled": ABSENT}),
    ("机器之间有 NVLink 吗", {}, {"gpu.nvlink": ABSENT}),
    ("为什么开了 GDR 还是慢？", {"nccl.gdr_disabled": False}, {}),
    ("不确定 GDR 有没有开，IB 是 200G", {"nic.kind": "infiniband", "nic.speed_gbps": 200.0},
     {"nccl.gdr_disabled": ABSENT}),
]


@pytest.mark.parametrize(("text", "must", "must_not"), UNSURE)
def test_unsure_or_asked_states_are_no_facts(text: str, must: dict[str, Any], must_not: dict[str, Any]) -> None:
    _check(text, must, must_not)


# 3. GDR said to work is not GDR off
GDR_FINE = [
    ("GDR 没问题，已经确认过", {}, {"nccl.gdr_disabled": True}),
    ("GPUDirect RDMA 工作正常", {"nccl.gdr_disabled": False}, {}),
    ("nvidia-peermem 加载了，GDR 没毛病", {}, {"nccl.gdr_disabled": True}),
    ("不是 GDR 的问题", {}, {"nccl.gdr_disabled": True}),
    ("GDR looks fine on all nodes", {}, {"nccl.gdr_disabled": True}),
    ("GDR is working fine", {"nccl.gdr_disabled": False}, {}),
    ("GDR isn't the problem here", {}, {"nccl.gdr_disabled": True}),
    ("GPUDirect works without issues", {}, {"nccl.gdr_disabled": True}),
]


@pytest.mark.parametrize(("text", "must", "must_not"), GDR_FINE)
def test_gdr_said_to_work_is_not_off(text: str, must: dict[str, Any], must_not: dict[str, Any]) -> None:
    _check(text, must, must_not)


# 4. GPUDirect unsupported: GDR off, no word on RDMA being there
GDR_UNSUPPORTED = [
    ("我们的网卡不支持 GPUDirect", {"nccl.gdr_disabled": True}, {"nic.rdma": True}),
    ("这批网卡不支持 GPUDirect RDMA", {"nccl.gdr_disabled": True}, {"nic.rdma": True}),
    ("机器上的 HCA 用不了 GDR", {"nccl.gdr_disabled": True}, {"nic.rdma": True}),
    ("the NICs don't support GPUDirect RDMA", {"nccl.gdr_disabled": True}, {"nic.rdma": True}),
    ("GPUDirect RDMA is not supported on this NIC", {"nccl.gdr_disabled": True}, {"nic.rdma": True}),
    ("our adapters do not support GDR", {"nccl.gdr_disabled": True}, {"nic.rdma": True}),
    # still read: GPUDirect in use says nothing against RDMA; RDMA said plainly is RDMA
    ("we use RoCE with GPUDirect RDMA enabled", {"nccl.gdr_disabled": False, "nic.rdma": True}, {}),
]


@pytest.mark.parametrize(("text", "must", "must_not"), GDR_UNSUPPORTED)
def test_gpudirect_unsupported_is_about_gdr(text: str, must: dict[str, Any], must_not: dict[str, Any]) -> None:
    _check(text, must, must_not)


# 5. no RDMA NIC ever set up: no RDMA
NO_RDMA = [
    ("机器上没装过 RDMA 网卡", {"nic.rdma": False}, {}),
    ("集群里从来没有部署任何 RDMA 设备", {"nic.rdma": False}, {}),
    ("这些节点都没有支持 RDMA 的网卡", {"nic.rdma": False}, {}),
    ("we never set up any RDMA NICs", {"nic.rdma": False}, {}),
    ("there are no RDMA-capable NICs in these servers", {"nic.rdma": False}, {}),
    ("we haven't configured RDMA at all", {"nic.rdma": False}, {}),
]


@pytest.mark.parametrize(("text", "must", "must_not"), NO_RDMA)
def test_no_rdma_nic_set_up(text: str, must: dict[str, Any], must_not: dict[str, Any]) -> None:
    _check(text, must, must_not)


# 6. gaps closed: a link rate said for now or after the fabric's name, a step time said for now, a step time not stable
GAPS = [
    ("只有 25G 网", {"nic.speed_gbps": 25.0}, {}),
    ("网卡原来是 25G，目前 100G", {"nic.speed_gbps": 100.0}, {}),
    ("our IB is 400G", {"nic.speed_gbps": 400.0, "nic.kind": "infiniband"}, {}),
    ("the RoCE fabric is 100G", {"nic.speed_gbps": 100.0}, {}),
    ("显存现在 40G，网卡 25G", {"nic.speed_gbps": 25.0}, {}),
    ("每步以前 4 秒，现在变成 7 秒", {"job.step_time_s": 7.0}, {}),
    ("step time isn't stable", {"job.step_time_cv": 0.3}, {}),
    ("the iteration time is not very steady", {"job.step_time_cv": 0.3}, {}),
    ("每步耗时不太稳定", {"job.step_time_cv": 0.3}, {}),
    ("迭代时间不够平稳", {"job.step_time_cv": 0.3}, {}),
    ("busbw isn't stable between runs", {"nccl.busbw_unstable": True}, {"job.step_time_cv": ABSENT}),
    ("nccl-tests 的 busbw 不太稳定", {"nccl.busbw_unstable": True}, {"job.step_time_cv": ABSENT}),
]


@pytest.mark.parametrize(("text", "must", "must_not"), GAPS)
def test_gaps_closed(text: str, must: dict[str, Any], must_not: dict[str, Any]) -> None:
    _check(text, must, must_not)
