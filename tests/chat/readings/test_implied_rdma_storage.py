"""What an expert concludes from a few words and a paste: the RDMA a transport implies, and storage as the first
suspect when nothing else is said."""

from __future__ import annotations

import pytest

from bwdoctor.chat import answer_turn, understand
from tests.matching import stated_facts as facts


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


FLAPPING = """两台机器训练时不时卡住，最后报 NCCL timeout，dmesg 里有这些：
[ 1021.223344] mlx5_core 0000:5e:00.0 ens1f0: Link up
[ 5234.112233] mlx5_core 0000:5e:00.0 ens1f0: Link down
[ 5236.998877] mlx5_core 0000:5e:00.0 ens1f0: Link up
怎么回事？"""


def test_a_link_that_drops_in_a_pasted_kernel_log_is_a_degraded_link(engine) -> None:
    out = answer_turn(FLAPPING, engine=engine)
    assert out["facts"]["nic.link_flaps"] is True
    assert out["findings"][0]["category"] == "link-degraded"


def test_the_kernel_log_lines_are_output_not_the_askers_words() -> None:
    got = understand(FLAPPING)
    assert "kernel-log" in got.pasted.kinds
    assert all("5234" not in n["text"] for n in got.not_understood)


@pytest.mark.parametrize(("text", "fact"), [
    ("We use DDP on 2 nodes and the step time doubles.", "allreduce"),
    ("两台机器用 FSDP 训练，GPU 利用率很低。", "allreduce"),
])
def test_data_parallel_strategies_exchange_gradients_by_all_reduce(text: str, fact: str) -> None:
    assert facts(text)["job.comm_pattern"] == fact


def test_a_parameter_server_job_stays_one() -> None:
    got = facts("Data parallel training with 2 parameter servers and 4 workers is slow.")
    assert got["job.comm_pattern"] == "parameter_server"


@pytest.mark.parametrize(("text", "mtu"), [
    ("Slow over TCP. I set\n```\nsudo ip link set dev eth0 mtu 9000\n```\non both nodes.", 9000),
    ("两台机器都执行了 `ifconfig ib0 mtu 4092`，还是慢。", 4092),
    ("We ran ip link set eth0 mtu 9000 on all hosts; iperf3 still gives 9.4 Gbits/sec.", 9000),
])
def test_the_mtu_an_interface_is_set_to_by_a_command(text: str, mtu: int) -> None:
    assert facts(text)["nic.mtu"] == mtu


def test_an_mtu_command_asked_about_is_not_the_jobs() -> None:
    assert "nic.mtu" not in facts("Should I run `ip link set eth0 mtu 9000` on the nodes?")


IGNORED = """I exported NCCL_IB_DISABLE=1 to measure plain TCP, but the log still shows IB:
```
host1:11:22 [0] NCCL INFO NET/IB : Using [0]={[0] mlx5_0:1/RoCE, [1] mlx5_1:1/RoCE} [RO]; OOB eth0:10.1.1.1<0>
host1:11:22 [0] NCCL INFO Using network IBext_v8
```
Why is the variable ignored?"""


def test_a_setting_the_pasted_log_contradicts_is_not_in_effect() -> None:
    got = facts(IGNORED)
    assert got["nccl.transport"] == "ib" and got["nccl.ib_disabled"] is False
    assert got["nic.kind"] == "roce"  # read from the merged-device format of NCCL 2.2x


@pytest.mark.parametrize("text", [
    "It was suggested to set\nNCCL_IB_DISABLE=1 if I were on a single node, but I am not, so I kept IB on.",
    "Someone advised NCCL_IB_DISABLE=1 for this error; we run across 4 nodes and kept IB.",
    "有人说要加 NCCL_IB_DISABLE=1，但我们是多机，IB 一直开着。",
])
def test_a_setting_someone_suggested_is_not_the_jobs(text: str) -> None:
    assert facts(text).get("nccl.ib_disabled") is not True


def test_a_line_of_settings_is_still_read() -> None:
    assert facts("Two nodes, slow all-reduce. We launch with:\nexport NCCL_IB_DISABLE=1  # debugging\n"
                 "NCCL_DEBUG=INFO torchrun --nnodes 2 train.py")["nccl.ib_disabled"] is True


@pytest.mark.parametrize("text", [
    "Two DGX A100 nodes, NCCL_IB_DISABLE=1 set in the container, all-reduce is slow.",
    "两台 DGX H100 训练很慢。",
    "Our DGX-2 pair trains slower than one box.",
])
def test_dgx_machines_have_rdma_nics(text: str) -> None:
    assert facts(text)["nic.rdma"] is True


def test_a_dgx_station_and_a_stated_fabric_are_left_alone() -> None:
    assert "nic.rdma" not in facts("A DGX Station with 4 V100s trains slowly.")
    assert facts("Two DGX A100 boxes, but we have no RDMA between them, only 10GbE.")["nic.rdma"] is False


def test_ib_disabled_on_dgx_machines_is_a_fallback_finding(engine) -> None:
    out = answer_turn("Two DGX A100 nodes with NCCL_IB_DISABLE=1, training is slow.", engine=engine)
    assert "nccl-transport-fallback" in {f["category"] for f in out["findings"]}


@pytest.mark.parametrize(("text", "expected"), [
    ("单机8卡训练正常，两台机器就很慢。", {"job.baseline_gpus": 8, "job.gpus_per_node": 8, "job.nodes": 2}),
    ("CUDA_VISIBLE_DEVICES=0,1,2,3 torchrun --nnodes 2 train.py is slow.", {"job.gpus_per_node": 4, "job.nodes": 2}),
    ("hostfile:\n```\nnode1 slots=8\nnode2 slots=8\n```\ndeepspeed --hostfile hostfile train.py runs slowly.",
     {"job.nodes": 2, "job.gpus_per_node": 8}),
    ("```\n10.0.0.1 slots=4\n10.0.0.2 slots=4\n10.0.0.3 slots=4\n```\n三台机器跑 DeepSpeed 很慢",
     {"job.nodes": 3, "job.gpus_per_node": 4}),
    ("nccl-tests 跑出来 busbw 只有 20GB/s，RDMA 带宽测出来 180Gbps。",
     {"nccl.allreduce_busbw_gbytes_per_s": 20.0, "net.rdma_bw_gbps": 180.0}),
    ("ib_write_bw across the 200G HDR link gives 96 Gb/s.", {"nic.speed_gbps": 200.0, "net.rdma_bw_gbps": 96.0}),
    ("分布式 TensorFlow 用的是 1 个 ps + 4 个 worker，训练很慢。", {"job.comm_pattern": "parameter_server"}),
    ("We run 2 workers and one ps on separate hosts.", {"job.comm_pattern": "parameter_server"}),
    ("每个 step 都要做一次 allreduce，两台机器。", {"job.comm_pattern": "allreduce", "job.nodes": 2}),
])
def test_shapes_of_counts_settings_and_roles(text: str, expected: dict[str, object]) -> None:
    got = facts(text)
    assert {k: got.get(k) for k in expected} == expected


@pytest.mark.parametrize(("text", "absent"), [
    ("One node with 8 GPUs is fine, two nodes are much slower.", "gpu.util_pct"),
    ("The process list (ps aux) shows 4 workers.", "job.comm_pattern"),
    ("CUDA_VISIBLE_DEVICES=GPU-5e0a,GPU-77b1 python train.py", "job.gpus_per_node"),
])
def test_words_that_look_like_a_fact_and_are_not(text: str, absent: str) -> None:
    assert absent not in facts(text)


@pytest.mark.parametrize("text", [
    "An FSDP job on 2x DGX A100 fails at start. I'm running it with IB disabled (NCCL_IB_DISABLE=1).",
    "我们把 IB 关掉以后（NCCL_IB_DISABLE=1），两台机器反而更慢了。",
    "After disabling InfiniBand in NCCL the all-reduce got slower.",
])
def test_a_fabric_a_setting_turned_off_is_still_there(text: str) -> None:
    assert facts(text).get("nic.rdma") is not False


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("We don't have InfiniBand, only 10GbE.", "nic.rdma", False),
    ("PFC is disabled on the switches.", "nic.pfc", False),
    ("两台机器之间没有 RDMA。", "nic.rdma", False),
])
def test_absent_hardware_and_switched_off_features_still_read(text: str, fact: str, value: object) -> None:
    assert facts(text)[fact] == value


def test_an_all_reduce_in_a_statement_is_no_would_it_help_question() -> None:
    got = facts("The workers do synchronous data-parallel training with an all-reduce every step.")
    assert got["job.parallelism"] == "data" and got["job.comm_pattern"] == "allreduce"


@pytest.mark.parametrize("text", [
    "If we spread our 4 training nodes over two availability zones, will it hurt the all-reduce?",
    "如果把两台机器放到不同的地域（跨地域），训练会变慢吗？",
])
def test_a_change_that_brings_a_problem_is_answered_with_it(engine, text: str) -> None:
    out = answer_turn(text, engine=engine)
    brought = [f for f in out["findings"] if f.get("conditional")]
    assert brought and {f["category"] for f in brought} == {"latency-bound"}
    assert all(f["severity"] == "warning" for f in brought)  # not made yet: never critical
    assert "latency-bound" not in {f["category"] for f in out["findings"] if not f.get("conditional")}
    assert all(f["title"] in out["answer"] for f in out["what_if"]["new_findings"])  # the answer names them


def test_a_change_that_clears_a_problem_brings_no_conditional_finding(engine) -> None:
    out = answer_turn("Would moving from 25G to 100G NICs help our 2-node 13B training?", engine=engine)
    assert not [f for f in out["findings"] if f.get("conditional")]
    assert out["what_if"]["resolved"] == ["nic-undersized"]


@pytest.mark.parametrize("text", [
    "节点之间的通信是走 NCCL 的，我理解 NCCL 一般是靠 RDMA 的，跨云公网这种情况能跑吗？",
    "As far as I know NCCL usually runs over InfiniBand, but we only have 10GbE between the two nodes.",
])
def test_what_the_asker_believes_in_general_is_not_their_fabric(text: str) -> None:
    got = facts(text)
    assert got.get("nic.rdma") is not True and got.get("nic.kind") != "infiniband"


@pytest.mark.parametrize(("text", "kind"), [
    ("我们一般用 IB 跑多机训练，两台机器。", "infiniband"),
    ("Our nodes usually use RoCE.", "roce"),
])
def test_what_the_asker_usually_runs_is_their_fabric(text: str, kind: str) -> None:
    assert facts(text)["nic.kind"] == kind


@pytest.mark.parametrize(("text", "absent"), [
    ("We have 10 GigE between nodes and training is slow.", "job.nodes"),
    ("加了一台机器以后训练反而变慢了。", "job.nodes"),
    ("每加一台机器吞吐就下降。", "job.nodes"),
    ("After adding one more node, the step time went up.", "job.nodes"),
])
def test_a_rate_or_a_machine_added_is_no_machine_count(text: str, absent: str) -> None:
    assert absent not in facts(text)


def test_one_machine_said_alone_is_still_one() -> None:
    assert facts("一台机器跑得很好，8 张卡。")["job.nodes"] == 1


@pytest.mark.parametrize(("text", "expected"), [
    ("iperf3 -c 10.0.0.2 -P 4 跑出来 18.6 Gbits/sec，网卡是 25G 的。",
     {"net.iperf3_gbps": 18.6, "nic.speed_gbps": 25.0}),
    ("torchrun --nnodes 2 --nproc_per_node 8 train.py 跑起来很慢，GPU 利用率 30%。",
     {"job.nodes": 2, "job.gpus_per_node": 8, "gpu.util_pct": 30.0}),
    ("ping 两台机器 min/avg/max = 0.1/0.2/0.4 ms", {"net.rtt_ms": 0.2}),
])
def test_a_command_ends_where_chinese_words_begin(text: str, expected: dict[str, object]) -> None:
    got = facts(text)
    assert {k: got.get(k) for k in expected} == expected


def test_chinese_inside_a_quoted_argument_stays_in_the_command() -> None:
    got = understand('torchrun --nnodes 2 train.py --run_name "两机测试" --bf16')
    assert any("--bf16" in c for c in got.commands)


@pytest.mark.parametrize("text", [
    "现在单机用 swift 训 Qwen1.8B，显卡利用率 100%。除了多机多卡，还有什么办法尽可能提速？",
    "We train on a single node; besides going multi-node, how can we speed it up?",
])
def test_several_machines_put_aside_leave_the_single_machine_the_job(text: str) -> None:
    got = facts(text)
    assert got["job.nodes"] == 1 and "job.baseline_nodes" not in got


def test_a_single_machine_beside_a_multi_machine_run_is_the_baseline() -> None:
    assert facts("单机训练正常，多机就很慢。")["job.baseline_nodes"] == 1


def test_machines_there_are_are_not_a_run_on_them() -> None:
    got = facts("有多台同配置节点，现在单机 8 卡训练，GPU 利用率 100%，怎么提速？")
    assert got["job.nodes"] == 1 and "job.baseline_nodes" not in got
    assert facts("我们有多台机器，多机训练比单机慢。")["job.baseline_nodes"] == 1


@pytest.mark.parametrize("text", [
    "GPU utilisation is not full; some GPUs can't hit 95%.",
    "GPU 利用率上不了 90%，一直在 60% 左右。",
    "The GPUs never reach 80% utilization.",
])
def test_a_share_not_reached_is_a_target_not_the_load(text: str) -> None:
    assert facts(text).get("gpu.util_pct") not in {95.0, 90.0, 80.0}


@pytest.mark.parametrize("text", [
    'The maintainer replied: "on DGX A100 with 8x 200G IB you should see 192 GB/s busbw". We get 60 GB/s on 2 nodes.',
    "之前维护者的回复：“DGX-A100 上 8 张 200Gbit/s IB 卡能测到 192GB/s 的 AllReduce BusBW。”我们两台机器只有 60GB/s。",
])
def test_someone_elses_quoted_words_are_not_the_askers_setup(text: str) -> None:
    got = facts(text)
    assert got["nccl.allreduce_busbw_gbytes_per_s"] == 60.0
    assert got.get("nic.speed_gbps") != 200.0 and got.get("nic.rdma") is not True


def test_a_quoted_log_line_of_the_askers_own_is_still_read() -> None:
    got = facts('我们两台机器 busbw 只有 60GB/s，日志里显示 "NET/IB : Using [0]mlx5_0:1/IB"。')
    assert got["nccl.transport"] == "ib"


@pytest.mark.parametrize(("text", "rdma"), [
    ("We installed MLNX_OFED 5.2 on the host; osu_bw device-to-device is slow.", True),
    ("两台机器，每台一张 ConnectX-6，训练很慢。", True),
    ("NCCL_IB_HCA=mlx5_0 is set on both nodes.", True),
    ("我们的机器没有 ConnectX 网卡，只有普通千兆。", False),
])
def test_connectx_devices_and_their_driver_stack_are_rdma_hardware(text: str, rdma: bool) -> None:
    assert facts(text)["nic.rdma"] is rdma
