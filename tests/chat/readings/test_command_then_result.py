"""Readings: a command line followed by its result in words, a reference set apart from the
measurement by a contrast inside one clause, NCCL's socket transport named in words, and the alternative of
'instead of' ending where the sentence goes on about the job's own setup."""

from __future__ import annotations

import pytest

from bwdoctor.chat import understand
from tests.matching import stated_facts as facts


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


@pytest.mark.parametrize(("text", "value"), [
    ("用 PaddleOCR 在 GPU 上训练，GPU 利用率最高只有 19%，平时基本稳定在 10% 左右。", 10.0),
    ("GPU 利用率偶尔最高 30%，基本都在 10% 以下，训练很慢。", 10.0),
    ("GPU util peaks at 60% but mostly sits around 20%", 20.0),
    ("数据读取的 IO 操作很重，导致有一部分时间 GPU 利用率直接掉到 0。", 0),
])
def test_a_load_said_at_its_peak_and_at_its_usual_level_is_the_usual_level(text: str, value: float) -> None:
    assert facts(text)["gpu.util_pct"] == value


def test_a_peak_alone_is_still_read() -> None:
    assert facts("GPU 利用率最高只有 19%")["gpu.util_pct"] == 19.0


def test_nvlink_reported_inactive_is_no_nvlink() -> None:
    assert facts("Two 2080 Ti cards. `nvidia-smi nvlink` says `<inactive>`.")["gpu.nvlink"] is False
    assert facts("We have NVLink bridges on both pairs.")["gpu.nvlink"] is True


@pytest.mark.parametrize(("text", "speed"), [
    ("The model file is about 470M and the network between the machines is 20G.", 20.0),
    ("the network between the machines is 25G", 25.0),
])
def test_a_link_rate_said_of_the_network_a_few_words_before_is_its_speed(text: str, speed: float) -> None:
    assert facts(text)["nic.speed_gbps"] == speed


def test_a_measured_figure_after_the_network_is_named_stays_a_measurement() -> None:
    got = facts("The network is fine, we measured 25G with iperf")
    assert got.get("nic.speed_gbps") is None and got["net.iperf3_gbps"] == 25.0


@pytest.mark.parametrize(("text", "rx", "tx"), [
    ("机器之间是 10Gbps 网络，网卡接收峰值 4.4Gbps。", 4.4, None),
    ("tx 2 Gb/s on the NIC during training", None, 2.0),
    ("the traffic between the nodes is only around rx/tx 3.80Gbps", 3.8, 3.8),
])
def test_traffic_in_one_direction_is_that_directions(text: str, rx: float | None, tx: float | None) -> None:
    got = facts(text)
    assert (got.get("nic.rx_gbps"), got.get("nic.tx_gbps")) == (rx, tx)
    assert got.get("nic.speed_gbps") in (None, 10.0)  # traffic is never the link's speed


@pytest.mark.parametrize(("text", "per_node"), [
    ("single machine 4 cards: 1.17 steps/s; 2 machines, 8 cards: 0.655 steps/s", 4),
    ("1 node 4 GPUs: 100 img/s; 2 nodes 8 GPUs: 150 img/s", 4),
    ("One node with 8 GPUs runs at 1.0 s/step, 2 nodes with 8 GPUs each at 1.6 s/step", 8),
])
def test_the_jobs_cards_over_machines_like_the_baselines_are_a_total(text: str, per_node: int) -> None:
    got = facts(text)
    assert got["job.nodes"] == 2 and got["job.gpus_per_node"] == per_node


@pytest.mark.parametrize(("text", "nodes", "per_node"), [
    ("It is only 1.1x of the 4-card machine.", 1, 4),
    ("We have two 4-card machines", 2, 4),
    ("two 8-GPU nodes", 2, 8),
])
def test_a_machine_named_by_its_gpus_is_one_machine(text: str, nodes: int, per_node: int) -> None:
    got = facts(text)
    assert got["job.nodes"] == nodes and got["job.gpus_per_node"] == per_node


@pytest.mark.parametrize(("text", "step", "base", "speedup"), [
    ("单卡跑一个 batch 要 3 分钟，双卡跑一个 batch 要 8 分钟。同一台机器。", 480.0, 180.0, 0.75),
    ("one GPU takes 0.5 s per step, 4 GPUs take 1.1 s per step", 1.1, 0.5, 1.8182),
])
def test_a_batch_is_a_step_and_a_step_on_more_gpus_does_more_work(text: str, step: float, base: float,
                                                                   speedup: float) -> None:
    got = facts(text)
    assert (got["job.step_time_s"], got["job.step_time_baseline_s"]) == (step, base)
    assert got["job.speedup"] == pytest.approx(speedup, rel=0.01)


def test_two_zones_named_are_two_even_beside_the_same_zone_compared_with() -> None:
    text = "我们的两台训练节点分别在 us-east-1a 和 us-east-1b 两个可用区，训练比同一个可用区慢很多"
    assert facts(text)["cluster.zones"] == 2
    assert "cluster.zones" not in facts("It is much slower than in the same AZ.")
    assert facts("两台机器都在同一个可用区")["cluster.zones"] == 1


@pytest.mark.parametrize(("text", "save", "interval"), [
    ("Checkpoint saving takes 10 minutes every 1000 steps to NFS, and training stalls meanwhile.", 600.0, 1000),
    ("每 1000 步保存一次 checkpoint，每次要 5 分钟", 300.0, 1000),
    ("We checkpoint every 500 steps, each one takes 3 minutes", 180.0, 500),
])
def test_a_saves_time_beside_its_interval(text: str, save: float, interval: int) -> None:
    got = facts(text)
    assert (got["job.checkpoint_save_s"], got["job.checkpoint_interval_steps"]) == (save, interval)
    assert "job.step_time_s" not in got  # the save's time over its interval is no step time


def test_a_checkpoint_every_ten_minutes_is_an_interval_not_a_save_time() -> None:
    assert "job.checkpoint_save_s" not in facts("We save a checkpoint every 10 minutes")


@pytest.mark.parametrize("text", [
    "ibstat 显示 Rate: 100，但是我们买的是 200G HDR 的卡",
    "ibstat shows Rate: 100 although the HCA is 200G HDR",
])
def test_ibstats_rate_is_the_negotiated_speed_below_the_cards_rating(text: str) -> None:
    got = facts(text)
    assert (got["nic.speed_gbps"], got["nic.max_speed_gbps"]) == (100.0, 200.0)


@pytest.mark.parametrize("text", [
    "We use p4d.24xlarge x 4 and NCCL does not use EFA, falls back to sockets",
    "NCCL 没有用上 RDMA，走的是 socket",
])
def test_nccl_not_using_the_fabric_says_nothing_against_the_hardware(text: str) -> None:
    got = facts(text)
    assert got["nccl.transport"] == "socket"
    assert got.get("nic.efa") is not False and got.get("nic.rdma") is not False


@pytest.mark.parametrize("text", [
    "2 nodes, each with 8 H100, but NCCL only uses one of the 8 IB NICs",
    "the log shows that pair only uses one HDR HCA",
    "后来发现 QSFP 口在系统里是两个虚拟网卡，我们只用上了其中一个。",
    "The other three NICs of that node sit idle during the sync.",
    "其他三张网卡都闲着",
])
def test_one_nic_of_several_carrying_the_traffic(text: str) -> None:
    assert facts(text)["net.one_nic_used"] is True


@pytest.mark.parametrize("text", ["Does NCCL only use one NIC?", "we only use one GPU"])
def test_one_nic_asked_or_one_gpu_is_no_such_symptom(text: str) -> None:
    assert "net.one_nic_used" not in facts(text)


@pytest.mark.parametrize("text", [
    "NCCL WARN NET/IB : Got completion from peer 10.0.0.2<45678> with error 12, opcode 0, len 0, vendor err 129",
    "Training crashes after a few hours:\n```\nnode3:1234:1290 [2] NCCL INFO NET/IB : Got completion from peer "
    "10.1.1.4<58372> with error 12, opcode 129, len 0, vendor err 129 (Recv)\n```\nWe have 4 nodes with 200G IB.",
    "训练跑几个小时就报 transport retry counter exceeded，RoCE 网络",
])
def test_ib_retries_exceeded_pasted_or_quoted(text: str) -> None:
    assert facts(text)["nccl.ib_retry_exceeded"] is True


def test_another_completion_error_is_not_retries_exceeded() -> None:
    assert "nccl.ib_retry_exceeded" not in facts("NET/IB : Got completion from peer 10.0.0.2 with error 5, opcode 0")


def test_a_large_models_gradient_precision_is_assumed_out_loud() -> None:
    u = understand("两台 8 卡 A100 服务器用千兆网连接训练 LLaMA-7B，速度非常慢")
    precision = next(x for x in u.understood if x.fact == "job.precision")
    assert precision.value == "bf16" and precision.inferred
    said = understand("2 nodes, 7B model in fp32 over 10GbE")
    assert next(x for x in said.understood if x.fact == "job.precision").value == "fp32"


@pytest.mark.parametrize(("text", "speed"), [
    ("节点间不是 IB，是 RoCE v2，100G", 100.0),
    ("RoCE v2, 100G between the nodes", 100.0),
    ("显存 80G，网络 RoCE，100G", 100.0),
])
def test_a_bare_link_rate_after_the_fabric_named_in_the_clause_before(text: str, speed: float) -> None:
    assert facts(text)["nic.speed_gbps"] == speed


def test_a_memory_size_after_the_fabric_named_is_no_link_rate() -> None:
    assert "nic.speed_gbps" not in facts("IB 网络，40G 显存")


@pytest.mark.parametrize(("text", "traffic"), [
    ("We see about 600 MB/s between nodes during training, our network is 10 GbE", 4.8),
    ("训练时网卡只有 2Gbps 左右，万兆网", 2.0),
])
def test_a_rate_seen_during_training_is_traffic_not_a_test_or_the_rating(text: str, traffic: float) -> None:
    got = facts(text)
    assert got["nic.rx_gbps"] == traffic and got["nic.speed_gbps"] == 10
    assert "net.iperf3_gbps" not in got


def test_a_test_run_during_training_is_still_the_tools_figure() -> None:
    assert facts("During training, iperf3 between the nodes gives only 3 Gbps")["net.iperf3_gbps"] == 3.0


def test_no_gradient_precision_is_assumed_for_adapter_tuning() -> None:
    assert "job.precision" not in facts("单机 8 卡 4090 训练 7B LoRA，GPU 利用率 40%")


def test_a_light_model_named_as_the_other_one_leaves_the_jobs_compute_unsaid() -> None:
    text = ("用 Horovod 在 8 台机器上训 MAE（每台 8 张 V100），机器之间是 10Gbps 网络。"
            "换成 resnet50 时一个 epoch 大约 3 分钟；换成 vit_base_patch16 就要 10 分钟")
    assert facts(text).get("job.light_compute") is not True
    assert facts("resnet18 on 2 nodes is slower than on one")["job.light_compute"] is True


def test_tflops_per_gpu_of_each_run_compare_the_runs() -> None:
    got = facts("Megatron on 2 nodes (8x V100 each). Single node throughput is 42 TFLOPs/GPU, but with 2 nodes it "
                "drops to 18 TFLOPs/GPU.")
    assert got["job.speedup"] == pytest.approx(2 * 18 / 42, rel=0.01) and got["job.negative_scaling"] is True


def test_the_jobs_machines_listed_one_by_one_are_no_smaller_run() -> None:
    got = facts("两台服务器，一台 4 张 3090，一台 4 张 3090，万兆网，DDP 训练很慢")
    assert got["job.nodes"] == 2 and got["job.gpus_per_node"] == 4
    assert "job.baseline_nodes" not in got and "job.baseline_gpus" not in got
    assert facts("一台机器 8 卡跑得很快，两台机器 16 卡反而慢")["job.baseline_nodes"] == 1


def test_a_price_is_no_geforce_card() -> None:
    assert facts("我花了 4090 元买了一张 3090")["gpu.model"] == "RTX 3090"
    assert facts("两台 4090 服务器")["gpu.model"] == "RTX 4090"


def test_a_comma_separated_setting_stops_before_another_variable() -> None:
    got = facts("#SBATCH --export=ALL,NCCL_SOCKET_IFNAME=ib0,NCCL_IB_DISABLE=1")
    assert got["nccl.socket_ifname"] == "ib0" and got["nccl.ib_disabled"] is True
    assert facts("export NCCL_IB_HCA=mlx5_0,mlx5_1")["nccl.ib_hca"] == "mlx5_0,mlx5_1"


@pytest.mark.parametrize(("text", "read"), [
    ("多机训练的时候数据是从 NFS 读的，NFS 服务器只有一个万兆口，16 台机器同时读", 10),
    ("The NAS has a single 100GbE uplink and 8 nodes read from it", 100.0),
])
def test_a_link_rate_of_the_storage_server_caps_the_reads_not_the_nodes_nic(text: str, read: float) -> None:
    got = facts(text)
    assert got["storage.read_gbps"] == read
    assert "nic.speed_gbps" not in got and "nic.kind" not in got


def test_the_nodes_own_link_beside_the_storage_is_still_theirs() -> None:
    got = facts("data on NFS over 25G, nodes use 100G IB between them")
    assert got["nic.speed_gbps"] == 100.0 and got["storage.read_gbps"] == 25.0


@pytest.mark.parametrize("text", [
    "2 机 8 卡 epoch 时间从单机 4 卡的 20 分钟变成了 35 分钟",
    "两机的 epoch 时间从单机的 20 分钟变成了 35 分钟",
])
def test_a_time_that_moves_from_the_baselines_to_the_jobs(text: str) -> None:
    got = facts(text)
    assert got["job.negative_scaling"] is True and got["job.speedup"] == pytest.approx(20 / 35, rel=0.01)
    assert got["job.nodes"] == 2 and got["job.baseline_nodes"] == 1


@pytest.mark.parametrize(("text", "size"), [("用 Mixtral-8x7B 做 SFT，4 台 8 卡 A100", 46.7),
                                            ("Fine-tuning Mixtral 8x22B on 16 nodes", 141.0)])
def test_a_mixture_of_experts_named_by_its_experts_has_its_known_total(text: str, size: float) -> None:
    assert facts(text)["job.model_params_b"] == size


def test_experts_of_an_unknown_total_give_no_size() -> None:
    assert "job.model_params_b" not in facts("a 4x7B merge")


@pytest.mark.parametrize(("text", "kind", "model"), [
    ("两台 p4d 机器训练很慢", "p4d.24xlarge", "A100"),
    ("We use 4 p5 instances", "p5.48xlarge", "H100"),
])
def test_an_aws_family_of_one_size_named_bare_is_that_size(text: str, kind: str, model: str) -> None:
    u = understand(text)
    got = {x.fact: x for x in u.understood}
    assert got["node.instance_type"].value == kind and got["node.instance_type"].inferred
    assert got["gpu.model"].value == model and got["job.gpus_per_node"].value == 8


def test_a_family_compared_in_passing_is_no_instance_of_the_job() -> None:
    assert "node.instance_type" not in facts("p5 is faster than p4")


def test_a_link_rate_after_a_nic_named_by_its_model_is_its_speed() -> None:
    assert facts("集群 32 台 A800，每台 4 张 CX6 200G，nccl-tests busbw 只有 80 GB/s")["nic.speed_gbps"] == 200.0


def test_machines_counted_then_named_by_a_server_class_gpu_hold_eight_as_an_assumption() -> None:
    u = understand("集群 32 台 A800，每台 4 张 CX6 200G")
    gpus = next(x for x in u.understood if x.fact == "job.gpus_per_node")
    assert gpus.value == 8 and gpus.inferred
    assert "job.gpus_per_node" not in facts("用了 4 台 A100 卡")
