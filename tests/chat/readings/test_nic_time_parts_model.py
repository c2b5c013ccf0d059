"""Readings found in real tuning threads: the figure wanted from a NIC, parts of a time beside the whole,
model sizes in config names, one server named in the singular, a scaling efficiency said as a share."""

from __future__ import annotations

import pytest

from bwdoctor.chat import answer_turn, understand
from tests.matching import stated_facts as facts

IPERF = """How do I actually get 100 Gb/s out of a Mellanox ConnectX-5? iperf3 stays at two thirds of the line rate:
```
[SUM]   0.00-360.00 sec  2.72 TBytes  66.4 Gbits/sec  19545340             sender
[SUM]   0.00-360.00 sec  2.72 TBytes  66.4 Gbits/sec                  receiver
```"""


def test_the_figure_wanted_from_a_nic_below_its_line_rate_is_its_speed() -> None:
    got = facts(IPERF)
    assert got["nic.speed_gbps"] == 100 and got["net.iperf3_gbps"] == 66.4


def test_a_figure_wanted_without_a_line_rate_is_no_link_speed() -> None:
    got = facts("How do I get 90 Gb/s with iperf3 between the two nodes? We measure 40 Gbits/sec.")
    assert got.get("nic.speed_gbps") is None and got["net.iperf3_gbps"] == 40


@pytest.mark.parametrize(("text", "whole"), [
    ("The whole save_checkpoint() took 427 seconds, and create_checkpoint_file() alone took 373 seconds (87% of the "
     "total).", 427),
    ("保存一次 checkpoint 总共要 600 秒，其中写文件就占了 480 秒。", 600),
])
def test_a_part_of_a_time_is_not_the_whole(text: str, whole: float) -> None:
    assert facts(text)["job.checkpoint_save_s"] == whole


@pytest.mark.parametrize(("text", "size"), [
    ("Training dmoe_760m on 16 GPUs (2 nodes) is very slow per iteration.", 0.76),
    ("We pretrain gpt2-1.5b with DDP on two machines.", 1.5),
    ("跑 pythia-410m，两台机器 16 卡，速度上不去。", 0.41),
])
def test_a_config_name_carries_the_model_size(text: str, size: float) -> None:
    assert facts(text)["job.model_params_b"] == size


def test_a_name_before_an_instance_type_keeps_its_own_words() -> None:
    out = understand("Reproducing the ResNet-50 benchmark on AWS p3.16xlarge (V100) instances.")
    light = next(u for u in out.understood if u.fact == "job.light_compute")
    assert light.text == "ResNet-50"


@pytest.mark.parametrize("text", [
    "Why is the NCCL all_reduce_perf so low on our RTX 4090 server? No NVLink, the GPUs sit behind two sockets.",
    "nccl-tests on my workstation with 4 RTX 3090 gives only 6 GB/s busbw.",
])
def test_one_server_named_in_the_singular_is_one_machine(text: str) -> None:
    assert facts(text)["job.nodes"] == 1


@pytest.mark.parametrize("text", [
    "After adding one more node, the step time went up.",
    "Our server talks to the other server over 25GbE and all-reduce is slow.",
    "The machine has 8 GPUs; iperf3 to its peer shows 9.4 Gbits/sec.",
])
def test_a_second_machine_in_view_is_no_single_machine(text: str) -> None:
    assert facts(text).get("job.nodes") != 1


@pytest.mark.parametrize(("text", "pct"), [
    ("4台机器扩展效率只有 55%，是不是网络的问题", 55),
    ("Scaling efficiency is only 62% on 4 nodes of 8 A100.", 62),
    ("We get 70% of linear scaling on 4 nodes.", 70),
])
def test_a_scaling_efficiency_said_is_read(text: str, pct: float) -> None:
    assert facts(text)["job.scaling_efficiency_pct"] == pct


@pytest.mark.parametrize("text", [
    "Our goal is 90% scaling efficiency past 160 GPUs.",
    "希望扩展效率能达到 90% 以上。",
])
def test_a_scaling_efficiency_wanted_is_not_measured(text: str) -> None:
    assert "job.scaling_efficiency_pct" not in facts(text)


def test_a_stated_efficiency_is_kept_and_not_reported_as_ignored(engine) -> None:
    out = answer_turn("4台机器扩展效率只有 55%，是不是网络的问题？", engine=engine)
    assert out["facts"]["job.scaling_efficiency_pct"] == 55
    assert "ignored" not in out["answer"] and "忽略" not in out["answer"]
    assert "comm-bound" in {f["category"] for f in out["findings"]}


def test_the_gpu_count_said_with_the_machines_is_the_jobs() -> None:
    got = facts("在 AWS 上跑多机训练，2 台 A100-80GB:8，busbw 只有 20 GB/s。在 A10G:1 上同样的测试直接失败。")
    assert got["job.gpus_per_node"] == 8 and got["gpu.model"] == "A100"


@pytest.mark.parametrize("text", [
    "看带宽就像只用上了 1 个 EFA 接口，明明有 4 个。",
    "It looks like only one EFA interface is used out of four.",
])
def test_one_interface_of_several_in_use(text: str) -> None:
    assert facts(text)["net.one_nic_used"] is True


@pytest.mark.parametrize(("text", "model"), [
    ("I can't force the socket transport on our DGX-A100s (2 nodes).", "A100"),
    ("两台 HGX-H100 做训练，跨机很慢。", "H100"),
])
def test_a_dgx_or_hgx_name_carries_its_gpu(text: str, model: str) -> None:
    assert facts(text)["gpu.model"] == model


def test_the_saved_model_is_the_checkpoint() -> None:
    got = facts("我们用 Ray Train 训练，每次存下来的模型有 13GB，上传到 S3 存储大概要 20 分钟，这段时间 GPU 都闲着。")
    assert got["job.checkpoint_size_gbytes"] == 13
    assert got["job.checkpoint_save_s"] == 1200
    assert got["job.checkpoint_target"] == "network"


def test_the_load_time_is_not_the_save_time() -> None:
    got = facts("Storing big checkpoints (~17 GB) on S3 from a g5.12xlarge: saving takes ~17 seconds but loading "
                "takes ~30 seconds.")
    assert got["job.checkpoint_save_s"] == 17


@pytest.mark.parametrize(("text", "region", "more"), [
    ("A g5.12xlarge instance in us-west-2, bucket in the same region.", "us-west-2", {}),
    ("One node in us-east-1 and the other node in us-west-2; NCCL is slow.", "us-east-1 us-west-2",
     {"cluster.regions": 2}),
    ("两台机器分别在 us-east-1a 和 us-east-1b。", "us-east-1", {"cluster.zones": 2}),
    ("我们在 cn-hangzhou 的两台 A100 实例。", "cn-hangzhou", {}),
    ("The VMs are Standard_ND96asr_v4 in westus2.", "westus2", {}),
])
def test_cloud_regions_and_zones_are_read(text: str, region: str, more: dict[str, object]) -> None:
    got = facts(text)
    assert got["node.region"] in region.split()  # a node's region: either, when the nodes are in two
    assert all(got.get(k) == v for k, v in more.items())
    assert "job.baseline_nodes" not in got
    assert "job.model_params_b" not in got  # 'us-east-1b' is a zone, no model of a billion parameters


@pytest.mark.parametrize(("text", "model", "gpus"), [
    ("I ran the NCCL tests on 2x p6-b200 over EFA.", "B200", 8),
    ("two p4d.24xlarge nodes, NCCL is slow", "A100", 8),
    ("We use two g5.48xlarge machines.", "A10G", 8),
])
def test_an_instance_type_names_its_gpu(text: str, model: str, gpus: int) -> None:
    got = facts(text)
    assert got["gpu.model"] == model and got["job.gpus_per_node"] == gpus


def test_a_gpu_named_outranks_the_instance_family() -> None:
    assert facts("two p3.16xlarge with V100-SXM2 16GB")["gpu.model"] == "V100"


@pytest.mark.parametrize(("text", "nodes", "gpus"), [
    ("I set `accelerators: A100-80GB:4` (instead of `A100:8`) and `num_nodes: 2` in the task yaml.", 2, 4),
    ("MPIJob 里 replicas: 2，每个 pod `nvidia.com/gpu: 8`，吞吐很低。", 2, 8),
])
def test_node_counts_written_as_settings(text: str, nodes: int, gpus: int) -> None:
    got = facts(text)
    assert got["job.nodes"] == nodes and got["job.gpus_per_node"] == gpus


def test_replicas_without_gpus_per_pod_are_no_machines() -> None:
    assert "job.nodes" not in facts("The deployment has replicas: 3 and serves requests slowly.")


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("数据集和 checkpoint 都放在 S3 上，训练特别慢；把数据和 checkpoint 放在本地文件系统就很快。",
     "job.checkpoint_target", "network"),
    ("Data on Lustre (FSx) — EBS gave about the same, EFS was clearly worse.", "job.data_source", "nas"),
])
def test_the_setup_that_runs_well_is_not_the_jobs(text: str, fact: str, value: str) -> None:
    assert facts(text)[fact] == value


def test_each_machine_with_its_own_copy_reads_local() -> None:
    got = facts("每台机器的数据各自放一份在 256 GB 的 gp2 EBS 上（没用 BeeGFS）。")
    assert got["job.data_source"] == "local"


def test_a_share_of_linear_scaling_is_no_gpu_load() -> None:
    got = facts("8 台 64 卡只有 79% 的扩展效率，博客里说能到 90%。")
    assert got["job.scaling_efficiency_pct"] == 79 and "gpu.util_pct" not in got


def test_an_efficiency_measured_stands_over_the_engines_estimate(engine) -> None:
    said = engine.diagnose({"job.scaling_efficiency_pct": 79.0, "job.speedup": 3.75, "job.baseline_gpus": 16,
                            "job.nodes": 8, "job.gpus_per_node": 8}).to_dict()
    assert said["derived"]["job.scaling_efficiency_pct"] == 79
    estimated = engine.diagnose({"job.speedup": 3.75, "job.baseline_gpus": 16, "job.nodes": 8,
                                 "job.gpus_per_node": 8}).to_dict()
    assert estimated["derived"]["job.scaling_efficiency_pct"] > 90


@pytest.mark.parametrize(("text", "size"), [
    ("fine-tuning Qwen2.5-VL-7B-Instruct on two nodes", 7),
    ("Llama-3.1-8B on 2 nodes is slow", 8),
    ("部署 Qwen-32B，两台机器 TP+PP", 32),
    ("用 Qwen-14B-Chat 做全量微调", 14),
    ("Qwen3-30B-A3B with expert parallel", 30),
])
def test_a_model_name_with_a_version_and_a_variant_carries_its_size(text: str, size: float) -> None:
    assert facts(text)["job.model_params_b"] == size


@pytest.mark.parametrize("text", [
    "Six H100 nodes, each with eight 400Gb ConnectX-7 NICs, RDMA over RoCE.",
    "两台 A800 服务器跑 deepspeed，跨机很慢。",
])
def test_a_node_named_by_its_server_gpu_is_assumed_to_hold_eight(text: str) -> None:
    got = understand(text)
    gpus = next(u for u in got.understood if u.fact == "job.gpus_per_node")
    assert gpus.value == 8 and gpus.inferred  # an assumption, said as one


def test_a_count_said_outranks_the_assumed_eight() -> None:
    assert facts("On 2 A100 nodes with 4 GPUs each, NCCL is slow.")["job.gpus_per_node"] == 4


@pytest.mark.parametrize(("text", "nodes"), [
    ("Training on a rented Ubuntu box with 2x H100; one H100 gives 1.27 s/it, both give 2.07 s/it.", 1),
    ("服务器是 Tyan 主板，双路 E5-2650，GPU 是 Titan X，卡越多越慢。", 1),
])
def test_the_machine_described_is_one_machine(text: str, nodes: int) -> None:
    assert facts(text)["job.nodes"] == nodes


def test_a_dgx_2_holds_sixteen() -> None:
    assert facts("3 台 DGX-2 机器")["job.gpus_per_node"] == 16


@pytest.mark.parametrize("text", [
    "多机训练时不同 rank 的 backward 耗时差别很大，跨机那几个 rank 的 bw_time 明显更长。",
    "The backward time varies a lot between ranks and the whole step waits.",
])
def test_ranks_whose_times_differ_widely_suggest_a_straggler(text: str) -> None:
    assert facts(text)["job.straggler_suspected"] is True


def test_a_gpudirect_fix_implies_an_rdma_nic(engine) -> None:
    out = answer_turn("多机训练，我们没开 GPUDirect RDMA，网络数据都要经过主机内存，"
                      "跨机那几个 rank 的 bw_time 明显更长。根因是没开 GDR 吗？", engine=engine)
    assert out["facts"]["nic.rdma"] is True
    assert "nccl-transport-fallback" in {f["category"] for f in out["findings"]}


def test_lspci_acs_redirect_flags_mean_acs_is_on() -> None:
    assert facts("`lspci -vvv` shows SrcValid+ in ACSCtl on the switch ports.")["pcie.acs_enabled"] is True


@pytest.mark.parametrize("text", [
    "RoCE all-reduce on GB300, 8 GPUs = 4 per node x 2 nodes.",
    "We run 4 GPUs per node × 2 nodes.",
])
def test_gpus_per_node_times_nodes(text: str) -> None:
    got = facts(text)
    assert got["job.gpus_per_node"] == 4 and got["job.nodes"] == 2


def test_a_figure_averaged_over_the_sweep_gives_way_to_the_plain_one() -> None:
    got = facts("Peak busbw ≈ 387 GB/s (8 GB messages); the average over the 1K→8G sweep is 134 GB/s.")
    assert got["nccl.allreduce_busbw_gbytes_per_s"] == 387


@pytest.mark.parametrize(("text", "kind"), [
    ("ibdiagnet 的结果里有一句 AdaptiveRouting is enabled on 0 switches，训练时快时慢。", "infiniband"),
    ("UCX picked only eth1 for TCP: rma_am(tcp/eth1) am(tcp/eth1).", "ethernet"),
    ("GCP nodes with GPUDirect-TCPX; nixlbench between them gives 0.59 GB/s.", "ethernet"),
    ("两台机器各 8 卡，没有 RDMA，NCCL 走 socket。", "ethernet"),
])
def test_the_fabric_named_by_its_tools(text: str, kind: str) -> None:
    assert facts(text)["nic.kind"] == kind


def test_a_fabric_named_outranks_what_its_tools_suggest() -> None:
    assert facts("We run RoCE; the network team also ran ibdiagnet last week.")["nic.kind"] == "roce"


def test_advice_passed_on_is_not_the_askers_setup() -> None:
    got = facts("Tuning BLOOMZ 176B with ZeRO-3 across nodes is slow. The advice we got so far: ZeRO-3 needs a very "
                "fast network — on Jean Zay, where the network is 50Gbps, it was too slow.")
    assert "nic.speed_gbps" not in got and got["job.zero_stage"] == 3


def test_minutes_and_seconds_together_are_one_duration() -> None:
    got = facts("mnist：1 个节点 45 秒，2 个节点 3 分 47 秒，加一个节点反而慢了四五倍。")
    assert got["job.speedup"] == pytest.approx(45 / 227, rel=0.02)


def test_a_sweep_of_tiny_sizes_gives_no_bandwidth() -> None:
    got = facts("""NCCL tests on 2x p6-b200 over EFA:
```
#       size         count      type   redop    root     time   algbw   busbw  #wrong
           8             2     float     sum      -1    50.58    0.00    0.00       0
          16             4     float     sum      -1    54.55    0.00    0.00       0
```""")
    assert "nccl.allreduce_busbw_gbytes_per_s" not in got


@pytest.mark.parametrize(("text", "total"), [
    ("AlexNet on 128 K80 GPUs is slower per GPU than on 64.", 128),
    ("在 32 张 V100 上训练 10B 模型，一共 32 卡。", 32),
    ("Training runs on 64 GPUs over InfiniBand and scales badly.", 64),
])
def test_a_total_too_large_for_one_machine_is_the_jobs_total(engine, text: str, total: int) -> None:
    out = answer_turn(text, engine=engine)
    assert out["derived"]["job.total_gpus"] == total
    assert "job.gpus_per_node" not in out["facts"]


def test_machines_times_their_gpus_stay_the_total(engine) -> None:
    out = answer_turn("2 nodes with 8 GPUs each, 16 GPUs in total.", engine=engine)
    assert out["derived"]["job.total_gpus"] == 16 and out["facts"]["job.gpus_per_node"] == 8


@pytest.mark.parametrize("text", [
    "Reproducing the benchmark on 32 GPUs (4 machines). Goal is 90% scaling past 160 GPUs.",
    "现在 4 台 32 卡，目标是扩到 512 卡。",
])
def test_a_total_wanted_is_not_the_jobs(text: str) -> None:
    assert facts(text).get("job.total_gpus") != 160 and facts(text).get("job.total_gpus") != 512


def test_a_few_typed_setup_lines_in_a_code_block_are_read_as_words() -> None:
    got = facts("""在 2 台 H800 上测 ring allreduce：
```
NVLink Bandwidth: NV8 , 164.8GB/s
Network Bandwidth: 4 CX7 NICs, 194GB/s in total
```
为什么 4 卡时能突破 NVLink 的限制？""")
    assert got["nic.count"] == 4 and got["job.nodes"] == 2
    assert "net.iperf3_gbps" not in got  # the NVLink figure is no network measurement


@pytest.mark.parametrize("text", [
    "NVLink 带宽是 400GB/s，网卡是 4 张 200G。",
    "PCIe bandwidth is 25 GB/s between GPU0 and GPU1.",
])
def test_a_bus_inside_the_machine_is_no_network_figure(text: str) -> None:
    assert "net.iperf3_gbps" not in facts(text)


def test_a_collective_over_nvlink_sharp_keeps_its_busbw() -> None:
    got = facts("2 nodes, 16 H20 GPUs, allreduce with NVLink SHARP enabled reaches 343 GB/s busbw.")
    assert got["nccl.allreduce_busbw_gbytes_per_s"] == 343


def test_a_code_block_of_a_config_with_settings_stays_pasted() -> None:
    got = facts("""Our launch:
```
export NCCL_IB_HCA=mlx5_0
export NCCL_SOCKET_IFNAME=eth0
```
Training across 2 nodes is slow.""")
    assert got["nccl.ib_hca"] == "mlx5_0"


def test_phase_timer_lines_are_routed_to_the_training_log_reader() -> None:
    got = facts("""Multi-node training times out after some steps. Log:
```
[2024-05-01 10:00:01] time (ms) | train_batch: 673.2 | forward: 201.1 | backward: 402.0 | step: 70.1
[2024-05-01 10:00:02] time (ms) | train_batch: 672.9 | forward: 200.8 | backward: 401.7 | step: 70.3
```""")
    assert got["job.step_time_s"] == pytest.approx(0.673, rel=0.01)


@pytest.mark.parametrize("text", [
    "Our nightly training keeps failing because we can't get enough GPUs in a single zone.",
    "单个可用区里凑不齐 16 台 GPU 机器。",
])
def test_a_single_zone_the_job_cannot_have_is_not_its_placement(text: str) -> None:
    assert facts(text).get("cluster.zones") != 1


@pytest.mark.parametrize("text", [
    "Pipeline parallel across two machines, one on Google Cloud and one on AWS, over the public internet.",
    "比如一台在 Google Cloud、一台在 AWS，跨云公网通信，NCCL 能跑吗？",
])
def test_machines_on_two_clouds_are_in_two_regions(text: str) -> None:
    assert facts(text)["cluster.regions"] == 2


def test_a_move_from_one_cloud_to_another_is_one_cloud() -> None:
    assert "cluster.regions" not in facts("We moved from AWS to GCP; our 2 nodes are slow.")


def test_one_of_the_jobs_machines_is_no_baseline() -> None:
    got = facts("one node's ib port keeps going down during training on 4 nodes")
    assert got["job.nodes"] == 4 and "job.baseline_nodes" not in got


@pytest.mark.parametrize(("text", "nodes"), [("It doesn't work on 2+ nodes.", 2), ("3+ 台机器就卡住", 3)])
def test_at_least_n_machines(text: str, nodes: int) -> None:
    assert facts(text)["job.nodes"] == nodes


def test_an_efficiency_others_advertise_is_not_measured() -> None:
    got = facts("The ~100% scaling efficiency they advertise was measured on 100Gbps RDMA; we get far less.")
    assert "job.scaling_efficiency_pct" not in got


@pytest.mark.parametrize("text", [
    "DeepEP README 说 RDMA 带宽能超过 50 GB/s，我们在 H800 上 EP16 只有 43 GB/s。",
    "Serving DeepSeek-V3 across 2 nodes of 8 H100, the decode is slow.",
    "Mixtral on 4 nodes: the all-to-all dispatch dominates the step.",
])
def test_expert_parallelism_and_moe_models_mean_moe(text: str) -> None:
    assert facts(text)["job.moe"] is True


def test_a_moe_layers_config_in_a_log_gives_its_shape() -> None:
    got = facts("""4xH100 节点跑 DeepEP，RoCE 网络：
```
[config] num_tokens=4096, hidden=7168, num_topk_groups=4, num_topk=8
```""")
    assert got["model.hidden_size"] == 7168 and got["job.moe_top_k"] == 8 and got["job.moe"] is True


def test_a_plain_top_k_without_experts_is_no_moe() -> None:
    assert "job.moe_top_k" not in facts("sampling with top_k=50 on 2 nodes")


@pytest.mark.parametrize(("text", "nodes", "gpus"), [
    ("2 台 H100（2*8*80G）用 sglang 部署 DeepSeek R1", 2, 8),
    ("a 4x8x80GB A100 cluster", 4, 8),
])
def test_machines_times_gpus_times_memory(text: str, nodes: int, gpus: int) -> None:
    got = facts(text)
    assert got["job.nodes"] == nodes and got["job.gpus_per_node"] == gpus


def test_a_dgx_spark_is_a_gb10() -> None:
    assert facts("vLLM on two stacked DGX Sparks gives 3 tokens/s for Llama-3-70B.")["gpu.model"] == "GB10"


def test_an_object_store_uri_is_an_object_store() -> None:
    got = facts("The data set is read from gs://my-bucket/shards/ on every epoch.")
    assert got["job.data_source"] == "object_store"


def test_workers_that_may_fail_count_no_gpus() -> None:
    assert "job.total_gpus" not in facts("one or two workers may silently fail to finish the save")


def test_a_dash_sets_the_expectation_apart_from_the_measurement() -> None:
    got = facts("So I expected an all-reduce bus bandwidth of about 21 Gbps (2.5 GB/s) at large sizes — it maxes out "
                "at 1.7 GB/s.")
    assert got["nccl.allreduce_busbw_gbytes_per_s"] == 1.7


def test_a_target_from_the_vendor_is_a_reference() -> None:
    got = facts("两机每机 8 卡：allreduce 实测 353.85 GB/s busbw，PDF 目标 491.84 GB/s。")
    assert got["nccl.allreduce_busbw_gbytes_per_s"] == 353.85


def test_a_busbw_of_two_full_nodes_may_exceed_their_nics() -> None:
    got = facts("2 机每机 8 张 H100，每台 4 x 400G rail，allreduce 实测 353.85 GB/s busbw。")
    assert got["nccl.allreduce_busbw_gbytes_per_s"] == 353.85  # 1.875 x the NICs' 200 GB/s is possible


def test_a_busbw_far_above_the_nics_is_still_set_aside() -> None:
    out = understand("2 nodes of 8 GPUs, one 25G NIC each; nccl-tests busbw 400 GB/s.")
    assert "nccl.allreduce_busbw_gbytes_per_s" not in {u.fact for u in out.understood}
    assert out.conflicts


def test_gdr_among_suspects_asked_about_is_no_state() -> None:
    got = facts("剩下这段差距还可能是旧 NCCL、GDR disabled、HCA 顺序或者坏链路吗？")
    assert "nccl.gdr_disabled" not in got


@pytest.mark.parametrize("text", [
    "I ran all_gather_perf -b 16M -e 1024M -g 8:\n  # Avg bus bandwidth    : 33.3227\nIs this normal?",
    "- allreduce 实测 353.85 GB/s busbw\n- alltoall 实测 36.83 GB/s busbw",
])
def test_another_collectives_bus_bandwidth_is_not_the_all_reduce(text: str) -> None:
    assert facts(text).get("nccl.allreduce_busbw_gbytes_per_s") in (None, 353.85)
