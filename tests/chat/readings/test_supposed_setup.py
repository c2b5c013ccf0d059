"""Readings: a supposed setup asked about is the job, a rate naming a thing said before ('the 1G one')
is no figure, and a load's figure does not carry over to another measure named in between."""

from __future__ import annotations

import pytest

from bwdoctor.chat import understand
from tests.matching import stated_facts as facts


@pytest.mark.parametrize(("text", "expected"), [
    ("假设我们有 8 台机器，每台 8 张 A100，用 25G 以太网互联，训练 70B 模型能行吗？",
     {"job.nodes": 8, "job.gpus_per_node": 8, "nic.speed_gbps": 25.0}),
    ("Suppose we have 4 nodes with 8 H100 each on 100GbE. Is that enough for a 13B model?",
     {"job.nodes": 4, "job.gpus_per_node": 8, "nic.speed_gbps": 100.0}),
    ("Let's say we have 2 servers with 200G InfiniBand, would a 70B model train well?",
     {"job.nodes": 2, "nic.speed_gbps": 200.0, "nic.kind": "infiniband"}),
])
def test_a_setup_supposed_in_order_to_ask_about_it_is_the_job(text: str, expected: dict[str, object]) -> None:
    got = facts(text)
    assert {k: got.get(k) for k in expected} == expected


@pytest.mark.parametrize(("text", "today", "not_read"), [
    ("Assuming we use 200G IB instead of our 25GbE, how much faster would 2 nodes be?", 25.0, "nic.kind"),
    ("Suppose we have 200G IB; our current 25GbE gives 3 GB/s busbw on 2 nodes", 25.0, "nic.kind"),
    ("假设我们换成 100G 网卡，现在是 25G，能快多少？", 25.0, "nic.max_speed_gbps"),
])
def test_a_supposition_beside_the_setup_of_today_stays_a_change(text: str, today: float, not_read: str) -> None:
    got = facts(text)
    assert got["nic.speed_gbps"] == today and not_read not in got


def test_if_alone_is_still_a_what_if() -> None:
    assert "nic.speed_gbps" not in facts("如果有 100G 网卡会快多少？")


@pytest.mark.parametrize("text", [
    "Each of our 4 servers has 2 NICs: a 1G management port and a 100G data port. NCCL picked the 1G one.",
    "There are two links, a 10G one and a 100G one; NCCL uses the 10G one.",
])
def test_a_rate_naming_a_thing_said_before_is_no_measurement(text: str) -> None:
    got = facts(text)
    assert "nccl.allreduce_busbw_gbytes_per_s" not in got and "net.iperf3_gbps" not in got
    assert got.get("nic.speed_gbps") in {None, 100.0}  # the data port's rate, or none: never the 1G/10G one's


@pytest.mark.parametrize(("text", "util", "efficiency"), [
    ("我们不是 GPU 利用率低的问题，GPU 一直是 99%，但是多机扩展效率只有 60%。", 99.0, 60.0),
    ("GPU utilization stays at 97%, but scaling efficiency is only 55% on 4 nodes.", 97.0, 55.0),
])
def test_another_measure_between_keeps_the_load_figure(text: str, util: float, efficiency: float) -> None:
    got = facts(text)
    assert got["gpu.util_pct"] == util and got.get("job.scaling_efficiency_pct") == efficiency


def test_the_same_load_in_another_run_still_carries_over() -> None:
    assert facts("单机 GPU 利用率 95%，多机只有 40%")["gpu.util_pct"] == 40.0


@pytest.mark.parametrize(("text", "zones"), [
    ("We spread the compute across three availability zones; spanning the AZs adds about 2 ms of latency.", 3),
    ("nodes are in 3 different AZs; cross-AZ latency is 2 ms", 3),
    ("跨了三个可用区，跨可用区延迟 2ms", 3),
    ("nodes in different AZs, cross-AZ latency 2 ms", 2),
])
def test_the_count_of_zones_said_outranks_cross_zone_alone(text: str, zones: int) -> None:
    assert facts(text)["cluster.zones"] == zones


@pytest.mark.parametrize("text", [
    "iperf3 gives 9.4 Gbits/sec; the NIC is supposed to be 25G",
    "iperf3 gives 9.4 Gbits/sec but the NIC should be 25G",
])
def test_what_a_nic_is_supposed_to_be_is_its_rating_not_a_what_if(text: str) -> None:
    got = facts(text)
    assert got["nic.speed_gbps"] == 25.0 and got["net.iperf3_gbps"] == 9.4


@pytest.mark.parametrize(("text", "fact", "today"), [
    ("两台服务器，每台两张 3090，交换机是千兆的，速度比单机还慢，是不是只能换万兆？", "nic.speed_gbps", 1),
    ("我们得换 100G 网卡吗？现在是 25G", "nic.speed_gbps", 25.0),
    ("我们要升级到 200G IB 吗，现在 100G RoCE", "nic.kind", "roce"),
])
def test_hardware_to_get_asked_about_is_not_the_job_today(text: str, fact: str, today: object) -> None:
    assert facts(text)[fact] == today


def test_a_fabric_asked_whether_to_buy_is_not_read() -> None:
    assert "nic.kind" not in facts("请问 8 卡 A800 单机训练 13B 模型，需要配 IB 网卡吗？")


def test_needing_gpus_to_train_is_no_what_if() -> None:
    assert facts("两台机器，每台 8 卡，需要 8 张卡一起训练")["job.nodes"] == 2


@pytest.mark.parametrize(("text", "rate"), [
    ("NET/IB : Using [0]mlx5_0:1/RoCE，但是 busbw 只有 2GB/s 左右，100G 的卡", 100.0),
    ("25G 双口卡做了 bond", 25.0),
])
def test_a_card_rated_in_gigabits_is_a_nic(text: str, rate: float) -> None:
    assert facts(text)["nic.speed_gbps"] == rate


def test_a_cards_memory_is_no_link_rate() -> None:
    assert "nic.speed_gbps" not in facts("我们用的是 24G 的卡，4090；另一台是 A100 80G 的卡")


@pytest.mark.parametrize(("text", "busbw"), [
    ("We see NCCL all-reduce bandwidth of 20 GB/s on one node but only 1.5 GB/s across two nodes.", 1.5),
    ("allreduce 带宽只有 3GB/s，两台机器 100G RoCE", 3.0),
])
def test_an_all_reduce_bandwidth_is_the_bus_bandwidth_not_iperf(text: str, busbw: float) -> None:
    got = facts(text)
    assert got["nccl.allreduce_busbw_gbytes_per_s"] == busbw and "net.iperf3_gbps" not in got


def test_the_job_described_after_for_training_is_not_the_what_if() -> None:
    got = facts("Do I need InfiniBand for training a 7B model on 4 nodes, or is 100GbE RoCE enough?")
    assert got["job.model_params_b"] == 7.0 and got["job.nodes"] == 4


@pytest.mark.parametrize(("text", "rate", "count"), [
    ("训练 2 机 16 卡，25G*2 bond，速度只有单机的 1.2 倍", 25.0, 2),
    ("每台 100G x 2 的 RoCE 网卡", 100.0, 2),
    ("200G×8 IB, 2 nodes", 200.0, 8),
])
def test_a_count_of_nics_written_after_the_rate(text: str, rate: float, count: int) -> None:
    got = facts(text)
    assert (got["nic.speed_gbps"], got["nic.count"]) == (rate, count)


def test_nccl_over_libfabric_tcp_is_on_sockets() -> None:
    got = facts("NCCL INFO NET/OFI Selected Provider is tcp\n8 p5.48xlarge nodes, all_reduce is very slow")
    assert got["nccl.transport"] == "socket" and got["job.nodes"] == 8


@pytest.mark.parametrize("text", [
    "多机训练，GPU 利用率 30%",
    "multi-node training is slow, GPU util 40%",
    "每台机器 1 张 100G RoCE 网卡，busbw 3 GB/s",
    "the bandwidth between the nodes is poor",
])
def test_several_machines_said_without_their_count(text: str) -> None:
    assert facts(text)["job.multi_node"] is True


@pytest.mark.parametrize("text", ["单机多卡训练，GPU 利用率 30%", "one server with 8 GPUs, GPU util 40%"])
def test_one_machine_is_not_several(text: str) -> None:
    assert "job.multi_node" not in facts(text)


@pytest.mark.parametrize(("text", "nodes"), [
    ("We train over 2 nodes", 2),
    ("NCCL over 2 nodes is slow", 2),
    ("NCCL_SOCKET_IFNAME=eth0 across 2 nodes, training is slow", 2),
])
def test_a_run_over_machines_counts_them(text: str, nodes: int) -> None:
    assert facts(text)["job.nodes"] == nodes


def test_over_as_more_than_is_still_a_threshold() -> None:
    assert "job.nodes" not in facts("it breaks when scaling to over 8 nodes")


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("Ping between our two training nodes is 5 ms", "net.rtt_ms", 5.0),
    ("两台机器只有一个 1G 管理口相连", "nic.speed_gbps", 1.0),
])
def test_latency_and_a_management_link_in_longer_phrasings(text: str, fact: str, value: float) -> None:
    assert facts(text)[fact] == value


def test_gpus_idle_on_several_machines_is_a_finding_without_their_count() -> None:
    from bwdoctor.chat import answer_turn
    from bwdoctor.engine import load_engine

    out = answer_turn("多机训练，GPU 利用率 30%", engine=load_engine())
    assert any(f["category"] == "comm-bound" and f["severity"] == "warning" for f in out["findings"])


@pytest.mark.parametrize(("text", "util"), [
    ("GPU 利用率一会儿 100% 一会儿 0，两台机器", 50.0),
    ("GPU util jumps from 0% to 100% constantly", 50.0),
    ("GPU util went from 90% to 45% after adding a node", 45.0),  # a change: the figure it went to
])
def test_a_load_that_swings_is_its_middle_a_change_its_end(text: str, util: float) -> None:
    assert facts(text)["gpu.util_pct"] == util


@pytest.mark.parametrize(("text", "fact"), [
    ("每 500 步存一次 checkpoint，每次都卡几十秒", "job.checkpoint_save_s"),
    ("一个 step 要几十秒", "job.step_time_s"),
    ("step time is tens of seconds", "job.step_time_s"),
    ("十几台机器一起训练", "job.nodes"),
])
def test_a_rough_magnitude_is_no_figure(text: str, fact: str) -> None:
    assert fact not in facts(text)


@pytest.mark.parametrize(("text", "absent"), [
    ("保存 checkpoint 很快，两机 25G", "job.checkpoint_size_gbytes"),
    ("each checkpoint is 300G and goes to S3", "storage.read_gbps"),
])
def test_a_size_and_a_rate_are_told_apart_around_checkpoints(text: str, absent: str) -> None:
    assert absent not in facts(text)


def test_a_checkpoint_size_beside_a_nic_rate() -> None:
    got = facts("checkpoint 大小 140G，网卡 25G")
    assert got["job.checkpoint_size_gbytes"] == 140.0 and got["nic.speed_gbps"] == 25.0


@pytest.mark.parametrize("text", [
    "云上 4 台 8 卡 A100（每台 4 张 100G RoCE），训练 llama 65B，tokens/s 只有预期的一半。",
    "throughput is only half of what we expected on 4 nodes",
])
def test_half_of_what_was_expected_is_no_scaling(text: str) -> None:
    got = facts(text)
    assert "job.speedup" not in got and "job.negative_scaling" not in got


def test_half_of_the_smaller_run_is_scaling() -> None:
    assert facts("两台机器的速度只有单机的一半")["job.speedup"] == 0.5


@pytest.mark.parametrize(("text", "util"), [
    ("deepspeed zero3 训练 13B，2 机 16 卡 A800，GPU 利用率只有 40%，单机 8 卡时 90%。", 40.0),
    ("GPU util is 45% on two nodes and 90% on one node", 45.0),
    ("单机 GPU 利用率 95%，多机只有 40%", 40.0),
])
def test_the_smaller_runs_load_is_not_the_jobs(text: str, util: float) -> None:
    assert facts(text)["gpu.util_pct"] == util


def test_a_channel_quoted_in_words_is_the_ib_transport_with_gdr() -> None:
    got = facts("多机时 NCCL 日志显示 NET/IB/0/GDRDMA，但是 busbw 只有 40GB/s 左右")
    assert got["nccl.transport"] == "ib" and got["nccl.gdr_disabled"] is False


@pytest.mark.parametrize(("text", "micro"), [
    ("用 DeepSpeed 训 x-flux，图像 512×512，batch size=4。", 4),
    ("训练 BARC，batch size 24，显存大约 13GB", 24),
    ("global batch size 1024, micro batch 4", 4),
])
def test_a_batch_size_said_bare_is_each_processs(text: str, micro: int) -> None:
    assert facts(text)["job.micro_batch_size"] == micro


@pytest.mark.parametrize("text", [
    "total batch size 512 across 16 GPUs, batch size 32",   # a batch of the whole job said beside it
    "batch size 从 32 调到 64",                               # a change, not the job's figure
    "batch size 4096 with LAMB",                              # above a per-GPU batch
])
def test_a_bare_batch_size_beside_a_global_one_or_out_of_range_is_not_read(text: str) -> None:
    assert "job.micro_batch_size" not in facts(text)


@pytest.mark.parametrize(("text", "size"), [
    ("DeepSeek-V3 (671B MoE, 37B active) inference across 2 H800 nodes", 671.0),
    ("Qwen3-235B-A22B 训练，激活参数 22B，4 机", 235.0),
])
def test_a_mixture_of_experts_is_its_total_not_its_active_share(text: str, size: float) -> None:
    assert facts(text)["job.model_params_b"] == size


@pytest.mark.parametrize("text", [
    "4 台机器训练，其中一台的 step time 比其他慢 3 倍",
    "node 3 is 2x slower than the rest",
    "One of our 16 nodes has GPU utilization 40% while the others are at 95%",
])
def test_one_machine_behind_the_rest_is_a_straggler_not_a_scaling(text: str) -> None:
    got = facts(text)
    assert got["job.straggler_suspected"] is True
    assert "job.speedup" not in got and "job.negative_scaling" not in got


def test_a_smaller_run_is_still_a_scaling() -> None:
    assert facts("Two nodes are 2x slower than one node.")["job.speedup"] == 0.5


@pytest.mark.parametrize(("text", "scaling"), [
    ("Why does my training get slower when I add more nodes?", True),
    ("Will it get slower when we add more nodes?", None),
])
def test_slower_as_machines_are_added(text: str, scaling: object) -> None:
    assert facts(text).get("job.negative_scaling") is scaling


@pytest.mark.parametrize(("text", "step"), [
    ("step time varies between 1.2 s and 3.5 s on 4 nodes; single-node step time is 1.1 s", 2.35),
    ("每步在 1 到 5 秒之间波动，4 机 32 卡", 3.0),
])
def test_a_step_time_that_swings_is_its_middle_and_its_spread(text: str, step: float) -> None:
    got = facts(text)
    assert got["job.step_time_s"] == step and got["job.step_time_cv"] > 0.2


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("2 台机器，加速比 1.9", "job.baseline_nodes", 1),
    ("a speedup of only 2.1x on 4 nodes, 100G IB", "job.baseline_nodes", 1),
    ("8 卡加速比只有 5.46", "job.baseline_gpus", 1),
])
def test_a_speedup_said_alone_is_against_one_machine_or_one_gpu(text: str, fact: str, value: int) -> None:
    assert facts(text)[fact] == value


def test_each_worker_with_one_gpu_is_no_single_machine() -> None:
    got = facts("We use 1 PS and 16 workers, each worker has 1 GPU")
    assert got.get("job.nodes") != 1 and got["job.gpus_per_node"] == 1


@pytest.mark.parametrize("text", [
    "we don’t have InfiniBand, only 10GbE",      # a curly apostrophe
    "we dont have InfiniBand, only 10GbE",       # none at all
])
def test_a_negation_typed_any_way_is_a_negation(text: str) -> None:
    got = facts(text)
    assert got.get("nic.kind") != "infiniband" and got.get("nic.rdma") is not True


@pytest.mark.parametrize("text", [
    "NCCL isn’t using IB",
    "why isnt NCCL using IB?",
    "NCCL didnt use IB at all",
    "nccl 没有走 IB，速度很慢",
])
def test_nccl_said_off_the_fabric_is_on_its_sockets(text: str) -> None:
    assert facts(text)["nccl.transport"] == "socket"


@pytest.mark.parametrize("text", ["is NCCL not using IB?", "Is NCCL using IB or not?"])
def test_a_yes_no_question_about_nccls_fabric_says_neither(text: str) -> None:
    got = facts(text)
    assert "nccl.transport" not in got and got.get("nic.rdma") is not False


def test_the_hardware_said_unused_by_us_is_still_read() -> None:
    assert facts("we are not using IB, only ethernet")["nic.rdma"] is False


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("Can training across two AWS regions work for a 1B model?", "cluster.regions", 2),
    ("we place workers in other availability zones when capacity is short", "cluster.zones", 2),
    ("nodes in two GCP zones", "cluster.zones", 2),
])
def test_places_named_with_their_cloud(text: str, fact: str, value: int) -> None:
    from bwdoctor.chat import answer_turn
    from bwdoctor.engine import load_engine

    out = answer_turn(text, engine=load_engine())
    assert any(f["category"] == "latency-bound" for f in out["findings"])
    assert {**facts(text), **{c["fact"]: c["value"] for c in understand(text).changes and
                              [x.to_dict() for x in understand(text).changes]}}.get(fact) == value


@pytest.mark.parametrize(("text", "nodes", "per_node"), [
    ("#SBATCH --nodes=8\n#SBATCH --gres=gpu:8\ntraining is slow with 100G IB", 8, 8),
    ("#SBATCH -N 4\n#SBATCH --ntasks-per-node=8", 4, 8),
    ("srun -N 2 --gres=gpu:a100:4 python train.py", 2, 4),
])
def test_slurm_directives_and_gres_count_the_job(text: str, nodes: int, per_node: int) -> None:
    got = facts(text)
    assert (got["job.nodes"], got["job.gpus_per_node"]) == (nodes, per_node)


@pytest.mark.parametrize(("text", "nodes"), [
    ("hostfile: node01 slots=8 node02 slots=8", None),   # never 8 nodes from 'slots=8 node02'
    ("node1 and node2, 8 GPUs per node", 2),             # not three names
    ("node1, node2, node3 and node4 are in the job", 4),
])
def test_host_names_are_not_counts(text: str, nodes: object) -> None:
    assert facts(text).get("job.nodes") in ({nodes} if nodes else {None, 2})


@pytest.mark.parametrize(("text", "iperf"), [
    ("iperf 35 Gbps with a single stream, 90 with -P 8. NIC is 100G.", 90.0),
    ("iperf3 单流只有 12Gbps，-P 8 多流能到 94Gbps，网卡 100G", 94.0),
    ("iperf3 -P 1 gives 9 Gbps and -P 4 gives 23 Gbps on the 25G link", 23.0),
    ("iperf3 gives 9.4 Gbits/sec on a 25G NIC", 9.4),
])
def test_several_streams_measure_the_link_one_stream_is_a_lower_bound(text: str, iperf: float) -> None:
    assert facts(text)["net.iperf3_gbps"] == iperf


@pytest.mark.parametrize(("text", "iperf"), [
    ("iperf3 9.41 Gbits/sec (one stream), 9.9 with -P 4", 9.9),     # the streams said right after each figure
    ("iperf3 shows 9.4 Gbits/sec on our 10G link", 9.4),             # a tool and its result in words, no command
])
def test_a_tool_named_with_its_result_is_read(text: str, iperf: float) -> None:
    assert facts(text)["net.iperf3_gbps"] == iperf


@pytest.mark.parametrize(("text", "expected"), [
    ("We train on 16 GPUs and it is slow", {"job.total_gpus": 16}),        # more than a machine usually holds
    ("用 16 张卡训练很慢", {"job.total_gpus": 16}),
    ("用 16 张 4090 训练", {"job.gpus_per_node": 16}),                      # a board named: a 4090 server may
    ("we use 4 GPUs", {"job.gpus_per_node": 4, "job.nodes": 1}),
])
def test_nine_to_sixteen_gpus_said_bare_are_the_jobs_total(text: str, expected: dict[str, object]) -> None:
    got = facts(text)
    assert {k: got.get(k) for k in expected} == expected
    if "job.total_gpus" in expected:
        assert got.get("job.nodes") != 1
