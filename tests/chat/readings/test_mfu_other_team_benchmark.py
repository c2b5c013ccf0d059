"""Readings: MFU said once and then what it fell to, the asker's own run named after another team's,
a benchmark's figure that fell (not a link that came up low), a test's figure said as a share of the line rate, and
NCCL failing to reach a peer."""

from __future__ import annotations

import pytest

from bwdoctor.chat import answer_turn
from bwdoctor.engine import Engine
from tests.matching import stated_facts as facts


@pytest.mark.parametrize("text", [
    "Single node MFU is 45%, on 4 nodes it drops to 30%. 8x H800 per node, RoCE 200G.",
    "单机 MFU 45%，扩到 4 机以后降到 30%，每台 8 张 H800，RoCE 200G。",
    "单机 MFU 45%，4 机 MFU 只有 30%，每台 8 张 H800，RoCE 200G。",
])
def test_mfu_and_what_it_fell_to_pair_into_a_speedup(text: str) -> None:
    got = facts(text)
    assert got.get("job.baseline_nodes") == 1 and got.get("job.nodes") == 4
    assert got.get("job.speedup") == pytest.approx(4 * 30 / 45, rel=0.01)


def test_a_percentage_after_mfu_with_no_fall_is_not_mfu() -> None:
    got = facts("单机 MFU 45%，4 机的时候 GPU 利用率 30%，每台 8 张 H800。")
    assert "job.speedup" not in got


@pytest.mark.parametrize(("text", "busbw"), [
    ("别人的集群两台 8 卡能跑到 90GB/s，我们两台 8 卡只有 40GB/s 的 busbw，网卡是 4 张 200G IB。", 40.0),
    ("官方的测试结果是 2 机 16 卡 busbw 90GB/s。我们两台 8 卡只有 40GB/s。", 40.0),
])
def test_the_askers_own_run_named_after_another_teams_is_kept(text: str, busbw: float) -> None:
    got = facts(text)
    assert got.get("nccl.allreduce_busbw_gbytes_per_s") == busbw
    assert got.get("job.nodes") == 2 and got.get("job.gpus_per_node") == 8


def test_another_teams_figure_alone_is_still_set_aside() -> None:
    got = facts("别人的集群两台 8 卡能跑到 90GB/s 的 busbw。")
    assert "nccl.allreduce_busbw_gbytes_per_s" not in got


@pytest.mark.parametrize("text", [
    "After the switch firmware upgrade the busbw went from 25G to 10G on our 2x8 A100 cluster.",
    "升级交换机固件后，busbw 从 25G 掉到了 10G，2 台 8 卡 A100。",
    "On our 2x8 A100 cluster the busbw is only 10G.",
])
def test_a_busbw_said_in_bare_g_is_gigabytes_and_no_link_speed(text: str) -> None:
    got = facts(text)
    assert got.get("nccl.allreduce_busbw_gbytes_per_s") == 10.0
    assert "nic.speed_gbps" not in got and "nic.max_speed_gbps" not in got


@pytest.mark.parametrize("text", ["网卡从 100G 掉到了 25G，ethtool 看的。", "100G 网卡只协商到 25G"])
def test_a_link_that_fell_is_a_rating_and_a_speed_not_a_measurement(text: str) -> None:
    got = facts(text)
    assert got.get("nic.max_speed_gbps") == 100.0 and got.get("nic.speed_gbps") == 25.0
    assert "net.iperf3_gbps" not in got


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("nccl-tests all_reduce_perf between the two nodes reaches only 40% of line rate on our 100GbE NICs.",
     "nccl.allreduce_busbw_gbytes_per_s", 5.0),
    ("iperf3 只有线速的 30%，网卡是 25G，两台机器。", "net.iperf3_gbps", 7.5),
])
def test_a_tests_figure_said_as_a_share_of_the_line_rate(text: str, fact: str, value: float) -> None:
    assert facts(text).get(fact) == pytest.approx(value)


def test_a_share_of_the_line_rate_keeps_the_figure_said_with_it() -> None:
    got = facts("iperf3 gives 6.4 Gbps, about 25% of the theoretical max of our 25G NIC.")
    assert got.get("net.iperf3_gbps") == 6.4


@pytest.mark.parametrize("text", [
    'Training hangs at the first allreduce with "NCCL WARN NET/Socket : connect returned Connection timed out", '
    'then "unhandled system error". 2 nodes x 8 V100, 25GbE.',
    "node1:1234:1290 [0] misc/socket.cc:456 NCCL WARN Net : Connect to 172.17.0.1<45321> failed : Connection refused\n"
    "两台机器训练卡住不动",
])
def test_nccl_failing_to_reach_a_peer_is_reachability_not_healthy(text: str, engine: Engine) -> None:
    out = answer_turn(text, engine=engine)
    assert out["facts"].get("nccl.connect_failed") is True
    first = out["findings"][0]
    assert first["category"] == "nccl-transport-fallback" and first["severity"] == "critical"
    assert "NCCL_SOCKET_IFNAME" in out["answer"]
    assert all(f["category"] != "healthy" for f in out["findings"])


def test_a_refused_ssh_login_is_no_nccl_connection_failure() -> None:
    got = facts('We got "Connection refused" from ssh when launching, then fixed it. 2 nodes x 8 A100 on 100G RoCE.')
    assert "nccl.connect_failed" not in got


@pytest.mark.parametrize(("text", "nodes"), [
    ("单节点性能整体平稳；节点数扩展到 4 后，通信耗时明显增加。", 4),
    # (cnt '扩展到 4 或 8': a choice of two sizes, neither the job's count; read as job.multi_node,
    # test_counts_grammar.py)
    ("单节点性能整体平稳；节点数扩展到 4 或 8 后，通信耗时明显增加。", None),
    ("The number of nodes increased to 8 and the step time doubled. 8 GPUs per node.", 8),
])
def test_a_count_said_as_changed_to_is_the_jobs(text: str, nodes: int | None) -> None:
    assert facts(text).get("job.nodes") == nodes


def test_nccls_interface_and_ib_said_as_a_label() -> None:
    got = facts("NCCL: bond0 (TCP), IB disabled, P2P within the node over PCIe. Two nodes.")
    assert got.get("nccl.socket_ifname") == "bond0" and got.get("nccl.ib_disabled") is True


@pytest.mark.parametrize("text", ["我们禁用了 IB，两台机器 8 卡。", "IB is disabled on both nodes."])
def test_ib_turned_off_in_words(text: str) -> None:
    assert facts(text).get("nccl.ib_disabled") is True


@pytest.mark.parametrize("text", ["We tried disabling IB to test and it got slower.", "Should I keep IB disabled?"])
def test_ib_turned_off_as_a_trial_or_a_question_is_no_setting(text: str) -> None:
    assert "nccl.ib_disabled" not in facts(text)


@pytest.mark.parametrize(("text", "pct"), [
    ("ResNet50 在 8 卡集群上训练，网络延迟占了总训练时间的 35%，主要瓶颈在参数同步阶段。", 35.0),
    ("通信占每个 step 时间的 40%，两台 8 卡。", 40.0),
])
def test_communications_share_with_the_whole_named_first(text: str, pct: float) -> None:
    assert facts(text).get("job.comm_time_pct") == pct


@pytest.mark.parametrize(("text", "per_node", "nodes"), [
    ('Trainer(strategy="ddp", accelerator="gpu", devices=4, num_nodes=4, precision=16)', 4, 4),
    ("Trainer(gpus=2, num_nodes=3)", 2, 3),
])
def test_lightning_trainers_devices_are_each_nodes_gpus(text: str, per_node: int, nodes: int) -> None:
    got = facts(text)
    assert got.get("job.gpus_per_node") == per_node and got.get("job.nodes") == nodes


def test_gpus_said_as_a_label_in_prose_are_no_setting() -> None:
    got = facts("8 GPUs: 2 nodes give 2.35 steps/sec")
    assert got.get("job.nodes") == 2 and got.get("job.gpus_per_node") != 2


@pytest.mark.parametrize("text", [
    "主节点 node0 的 GPU 利用率 95%+，但显存只占了 30%；其他节点 GPU 利用率普遍在 20-40% 之间。4 台机器。",
    "node1 GPU util is 95%; the other nodes sit at about 30%. 4 nodes x 8 A100.",
])
def test_one_machine_against_the_rest_is_a_straggler(text: str) -> None:
    assert facts(text).get("job.straggler_suspected") is True


@pytest.mark.parametrize("text", [
    "整体训练时间比预期慢了近 3 倍。4 台机器。",
    "Training is 3x slower than expected on 4 nodes.",
])
def test_slower_than_expected_is_no_smaller_run(text: str) -> None:
    got = facts(text)
    assert got.get("job.nodes") == 4
    assert not {"job.speedup", "job.baseline_nodes", "job.negative_scaling"} & got.keys()


def test_slower_than_a_smaller_run_still_is() -> None:
    got = facts("两台机器比单机慢了 3 倍")
    assert got.get("job.baseline_nodes") == 1 and got.get("job.negative_scaling") is True


def test_a_count_hyphened_to_gpu_is_the_machines_gpus() -> None:
    got = facts("I get lower than I expected on an 8-GPU A100 80GB PCIe server (not a DGX).")
    assert got.get("job.gpus_per_node") == 8 and "job.nodes" not in got


def test_pcie_rated_in_traditional_chinese_idle_and_loaded_and_a_level() -> None:
    got = facts("主機板與 CPU 都標榜支援 PCIe Gen4 x16，但 Host to Device 頻寬只有 Gen1 水準 (0.5 GB/s)。"
                "GPU 3090。lspci 閒置時 LnkSta: Speed 2.5GT/s (downgraded), Width x16 (ok)；"
                "傳輸中 LnkSta: Speed 16GT/s (ok)。")
    assert got.get("gpu.pcie_gen_max") == 4 and got.get("gpu.pcie_width_max") == 16
    assert got.get("gpu.pcie_gen") == 4


@pytest.mark.parametrize("text", [
    "Our PyTorchJob has 1 master and 3 workers, each pod with 8 A100, on 100G RoCE.",
    "我们的 PyTorchJob 是 1 个 master + 3 个 worker，每个 pod 8 卡。",
])
def test_a_master_and_its_workers_are_the_jobs_machines(text: str) -> None:
    got = facts(text)
    assert got.get("job.nodes") == 4 and got.get("job.gpus_per_node") == 8


@pytest.mark.parametrize(("text", "nodes"), [
    ("Machines A and B each have 8 H100; training across A and B is slow.", 2),
    ("节点 A、B、C 都是 8 卡 A800。", 3),
])
def test_machines_named_by_a_letter_each(text: str, nodes: int) -> None:
    assert facts(text).get("job.nodes") == nodes


@pytest.mark.parametrize("text", ["Node A has 8 GPUs. I ran on node A only.", "Machine B is slower."])
def test_one_machine_named_by_a_letter_is_no_count(text: str) -> None:
    assert "job.nodes" not in facts(text)


def test_a_dual_nic_is_two() -> None:
    got = facts("我们每台机器是双25G网卡做了 bond，两台 8 卡 3090 训练很慢。")
    assert got.get("nic.count") == 2 and got.get("nic.speed_gbps") == 25.0
