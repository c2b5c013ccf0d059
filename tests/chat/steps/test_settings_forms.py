"""Versions, batch sizes and machine shapes said the many ways real threads say them: package names and version
codes, the version said to work beside the one the job runs, per-GPU batch sizes in words, code blocks and logs."""

from __future__ import annotations

import pytest

from bwdoctor.chat import understand
from bwdoctor_parsers.training_log import parse_training_log
from tests.matching import stated_facts as facts


@pytest.mark.parametrize(("text", "version"), [
    ("装的是自己编的 libnccl2_2.4.8-1+cuda10.0_amd64.deb，两台机器跑 DDP 很慢。", "2.4.8"),
    ("docker 镜像里 apt 装的 libnccl2=2.7.3-1+cuda10.1，多卡一跑就报错。", "2.7.3"),
    ("PyTorch 1.9.0 + CUDA 11.1 + NCCL 2708, two p3.2xlarge nodes are slower than one.", "2.7.8"),
    ("torch.cuda.nccl.version() prints NCCL 21805 and the all-reduce is slow across nodes.", "2.18.5"),
    ("pip shows nvidia-nccl-cu12==2.21.5 and multi-node training stalls.", "2.21.5"),
])
def test_nccl_version_from_packages_and_version_codes(text: str, version: str) -> None:
    assert facts(text)["nccl.version"] == version


def test_the_version_said_to_work_is_not_the_jobs() -> None:
    got = facts("一台机器 4 张卡，装的 libnccl2=2.7.3。同一个镜像换成 NCCL 2.6.4 就没问题。")
    assert got["nccl.version"] == "2.7.3"
    got = facts("NCCL 2.18.3 is fine, but with NCCL 2.21.5 all-gather is twice as slow.")
    assert got["nccl.version"] == "2.21.5"


def test_the_version_the_job_runs_now_without_the_word_nccl() -> None:
    assert facts("换了 NCCL 版本之后变慢了。现在用的是 2.21.5，同样的代码慢了一倍。")["nccl.version"] == "2.21.5"
    # without NCCL in the question a bare version is not NCCL's
    assert "nccl.version" not in facts("现在用的是 2.21.5，训练慢了一倍。")


def test_nccl_version_from_an_error_pasted_without_info_lines() -> None:
    got = facts("一台 8 卡机器上一跑就报错：\n```\ntorch.distributed.DistBackendError: NCCL error in: "
                "NCCLUtils.hpp:268, unhandled system error, NCCL version 2.21.5\nLast error:\n"
                "Error while creating shared memory segment\n```\n")
    assert got["nccl.version"] == "2.21.5"


@pytest.mark.parametrize(("text", "micro"), [
    ("单机两张 2080Ti，每张卡 batch size 15，梯度累积 40。", 15),
    ("We train with a per-GPU batch size of 4 on two nodes.", 4),
    ("batch size 8 per GPU, 16 GPUs across 2 nodes.", 8),
    ("两台机器，每台 1 张 GPU：\n```\nbatch_size = 32\nworld_size = 2\n```\n很慢。", 32),
])
def test_per_gpu_batch_sizes(text: str, micro: int) -> None:
    assert facts(text)["job.micro_batch_size"] == micro


def test_a_batch_size_that_is_not_per_gpu_is_not_the_micro_batch() -> None:
    assert "job.micro_batch_size" not in facts("The global batch size is 512 on 4 nodes.")


def test_training_logs_state_the_runs_shape() -> None:
    titan = parse_training_log("Training starts at step 1, with local batch size 1, global batch size 32, sequence "
                               "length 8192, total steps 1000\nstep: 10  loss:  1.5568  wps: 1,786\n")
    assert titan.facts()["job.micro_batch_size"] == 1
    assert titan.facts()["job.global_batch_size"] == 32
    assert titan.facts()["job.seq_len"] == 8192
    megatron = parse_training_log(" iteration       10/  500000 | consumed samples:         1280 | elapsed time per "
                                  "iteration (ms): 9496.4 | global batch size:   128 |\n")
    assert megatron.facts()["job.global_batch_size"] == 128
    assert megatron.facts()["job.step_time_s"] == pytest.approx(9.4964)


@pytest.mark.parametrize(("text", "gpus", "nodes"), [
    ("fine-tuning a small LLM on a 4xA6000 Lambda instance is 2x slower after the upgrade", 4, 1),
    ("we rent two 8xA100 nodes", 8, 2),
])
def test_gpus_times_model_before_a_machine_word(text: str, gpus: int, nodes: int) -> None:
    got = facts(text)
    assert got.get("job.gpus_per_node", got.get("gpu.count")) == gpus
    assert got["job.nodes"] == nodes


@pytest.mark.parametrize(("text", "tp"), [
    ("8 张 V100，用 8 卡张量并行反而比单卡慢十几倍。", 8),
    ("Two V100s with NVLink: with tensor parallelism over both GPUs it drops to 17 tokens/s.", 2),
    ("We run 4-way tensor parallel on one node.", 4),
    ("python3 -m sglang.launch_server --model deepseek-ai/DeepSeek-R1 --tp 16 --nnodes 2 --node-rank 1", 16),
])
def test_tensor_parallel_degree_in_words_and_short_options(text: str, tp: int) -> None:
    assert facts(text)["job.tp_degree"] == tp


@pytest.mark.parametrize(("text", "nodes", "gpus"), [
    ("Slow inference on 2 nodes x H100 x 8.", 2, 8),
    ("I'm running NCCL on two GCP `a3-megagpu-8g` instances with 8 NICs attached.", 2, None),
])
def test_machines_then_model_times_count_and_quoted_instance_types(text: str, nodes: int, gpus: int | None) -> None:
    got = facts(text)
    assert got["job.nodes"] == nodes
    if gpus:
        assert got["job.gpus_per_node"] == gpus


def test_geforce_ti_in_any_case_is_one_name() -> None:
    for text in ("用 2080ti 多卡训练", "两张 RTX2080Ti", "4 x RTX 2080 Ti"):
        assert facts(text)["gpu.model"] == "RTX 2080 Ti"


def test_the_clusters_size_yields_to_the_runs() -> None:
    got = facts("我搭了一个 3 节点的集群。1 个节点 45 秒，2 个节点 3 分 47 秒，为什么加一个节点反而慢了？")
    assert got["job.nodes"] == 2


def test_another_collectives_bandwidth_is_no_link_speed_or_iperf3() -> None:
    got = facts("三台服务器，每台 1 张 400Gbps 网卡。任意两台之间跑 all_gather 都能到 40GB/s，"
                "但是三台一起跑就掉到 20GB/s。")
    assert got["nic.speed_gbps"] == 400
    assert "nic.max_speed_gbps" not in got
    assert "net.iperf3_gbps" not in got
    unread = [n["text"] for n in understand("两台跑 all_gather 都能到 40GB/s。").not_understood]
    assert "40" in unread


def test_a_setting_asked_about_is_not_the_jobs() -> None:
    got = facts("两台 DGX Spark 直连，要不要在 up 之前先加一句 `sudo ip link set dev enp1s0f1np1 mtu 9000`？")
    assert "nic.mtu" not in got


def test_a_links_utilisation_is_not_the_gpus() -> None:
    assert "gpu.util_pct" not in facts("16 节点的训练任务，后端是 nccl，现在带宽利用率只有 45% 左右。")
    assert facts("16 节点训练，GPU 利用率只有 45% 左右。")["gpu.util_pct"] == 45


def test_gpus_counted_with_no_machine_or_network_named_are_one_machine() -> None:
    got = facts("I ran nanoGPT across two T4 GPUs on Kaggle with PyTorch DDP; it is slower than one GPU.")
    assert got["job.nodes"] == 1
    assert "job.nodes" not in facts("Two T4 GPUs per node, DDP over InfiniBand is slower than one GPU.")
    assert facts("8 张 3090 分在两台机器上跑 DDP 很慢。").get("job.nodes") != 1


def test_mpis_tcp_interface_option_names_the_nic() -> None:
    got = facts("多机这样起的：\n`mpiexec --mca btl_tcp_if_include eth0 -hostfile hostfile python3 train.py`\n很慢。")
    assert got["nic.name"] == "eth0"


def test_a_measured_rate_times_two_is_not_two_nics() -> None:
    got = facts("Two nodes, 8 x H100 and 4 x ConnectX-6 NICs per node. all_reduce_perf caps at about 31 Gbps x 2 "
                "(~62 Gbps) aggregate, while a plain `ib_write_bw --use_cuda` over a single link consistently "
                "gets ~95 Gbps.")
    assert got["nic.count"] == 4
    assert got["net.rdma_bw_gbps"] == 95
    assert "nic.speed_gbps" not in got
    assert facts("每台 IB 200Gb * 4，两台机器。")["nic.count"] == 4


def test_the_slow_pair_of_machines_is_the_one_asked_about() -> None:
    got = facts("Three IB nodes. all_reduce_perf between node 1 and node 2 gives 25 GB/s, between node 1 and node 3 it "
                "gives 39 GB/s.")
    assert got["nccl.allreduce_busbw_gbytes_per_s"] == 25


def test_a_small_vision_model_named_with_digits_is_light_compute() -> None:
    assert facts("resnet18 on 2 nodes is 10x slower than on one node")["job.light_compute"] is True
    assert "job.light_compute" not in facts("ResNet-50 and a 7B LLM both train slowly on 2 nodes")


def test_what_someone_else_said_is_not_the_jobs() -> None:
    got = facts("4 台机器，每台 2 张 GTX1080，机器之间就是千兆局域网。"
                "看到有人说 P100 要 25-50Gbps、V100 要 100Gbps 才够。")
    assert got["nic.speed_gbps"] == 1
    assert "net.iperf3_gbps" not in got


def test_the_mean_said_after_a_range_is_that_figures() -> None:
    assert facts("GPU 利用率在 0-50% 之间波动（均值 30% 左右），CPU 利用率很低")["gpu.util_pct"] == 30
    assert facts("GPU util 80%, CPU average 20%")["gpu.util_pct"] == 80


def test_dgx_sparks_are_machines_of_one_gpu() -> None:
    for text in ("Spike findings on our two RDMA-linked DGX Sparks before we span a workload", "两台 DGX Spark 直连"):
        got = facts(text)
        assert (got["job.nodes"], got["job.gpus_per_node"]) == (2, 1)


def test_a_rate_before_a_hardware_word_is_a_rating() -> None:
    assert facts("Testing throughput on a 100G interface between two hosts.")["nic.speed_gbps"] == 100


@pytest.mark.parametrize("text", [
    "verl 多节点：\n```\npython -m verl.trainer.main_ppo actor_rollout_ref.actor.strategy=\"fsdp2\" "
    "data.gen_batch_size=128\n```\n",
    "Lightning Trainer(strategy='fsdp', devices=8, num_nodes=2) is slow across nodes.",
])
def test_a_sharded_strategy_setting_is_fsdp(text: str) -> None:
    assert facts(text).get("job.parallelism") == "fsdp"


def test_an_nccl_test_run_alone_drives_the_gpus_of_one_machine() -> None:
    got = facts("同一台机器：\n```\nexport CUDA_VISIBLE_DEVICES=0,1\n"
                "./build/all_gather_perf -b 16M -e 1024M -g 2\n```\n")
    assert (got["job.nodes"], got["job.gpus_per_node"]) == (1, 2)
    launched = facts("`mpirun -np 16 -H a:8,b:8 ./build/all_reduce_perf -b 8M -e 8G -g 1`")
    assert (launched["job.nodes"], launched["job.gpus_per_node"]) == (2, 8)


def test_titan_cards_and_mxnet_kvstore() -> None:
    got = facts("mxnet 两台服务器，每台 8 张 TitanXp，kv-store 用 dist_sync。")
    assert (got["gpu.model"], got["job.gpus_per_node"], got["job.comm_pattern"]) == ("Titan Xp", 8, "parameter_server")


def test_not_a_small_network_is_no_small_model() -> None:
    assert "job.model_params_b" not in facts("两台服务器分布式训练 inception-v3，不是小网络。")


def test_what_a_link_ought_to_reach_is_a_reference_and_a_rate_after_iperf3_is_its_figure() -> None:
    got = facts("两台机器，网卡是 Intel XL710 40G。直接 `iperf3 -c <server_ip>` 只有 11 Gbit/s 左右，"
                "离 40G 链路实际应有的 38–39 Gbit/s 差太远。")
    assert (got["nic.speed_gbps"], got["net.iperf3_gbps"]) == (40, 11)
    assert facts("`iperf3 -c host` on the 25G NIC, and it only reaches 9.4 Gbit/s")["nic.speed_gbps"] == 25


def test_never_going_above_a_figure_measures_it() -> None:
    got = facts("Our dual-port 10Gbit card never goes above 13.90 Gbps for both ports together.")
    assert got["nic.speed_gbps"] == 10


@pytest.mark.parametrize(("text", "mtu"), [
    ("MTU 到处都是 1500（pod 里是 1430），Calico 用的是 vxlan 模式。", 1500),
    ("网卡是万兆，MTU 两边都设成了 1600。", 1600),
    ("The MTU everywhere is 9000.", 9000),
])
def test_mtu_said_with_words_between(text: str, mtu: int) -> None:
    assert facts(text)["nic.mtu"] == mtu


@pytest.mark.parametrize("text", ["用 4 台机器：2 台做 worker、2 台做 server，16 卡只有 2723 images/s。",
                                  "BytePS with two workers two servers over RDMA."])
def test_machines_in_worker_and_server_roles_are_a_parameter_server_job(text: str) -> None:
    assert facts(text)["job.comm_pattern"] == "parameter_server"


def test_a_figure_inside_one_machine_beside_one_between_machines_is_not_the_jobs() -> None:
    got = facts("两台 worker 网卡是万兆。在不同 worker 上的两个 host 之间跑 iperf，吞吐只有 20Mbits/sec；"
                "同一台 worker 上的 host 之间大约 2.5Gbits/sec。")
    assert got["net.iperf3_gbps"] == 0.02
    assert got["nic.speed_gbps"] == 10


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("We run Megatron with TP=8.", "job.tp_degree", 8),
    ("Two nodes. Currently we are on NCCL 2.21.5.", "nccl.version", "2.21.5"),
    ("torch prints NCCL 2708.", "nccl.version", "2.7.8"),
    ("The MTU is 9000.", "nic.mtu", 9000),
    ("cutoff_len: 2048.", "job.seq_len", 2048),
])
def test_a_figure_at_the_end_of_a_sentence_is_read_like_any_other(text: str, fact: str, value: object) -> None:
    assert facts(text)[fact] == value


def test_sharded_data_parallel_named_beside_plain_ddp_is_the_jobs() -> None:
    got = facts("我们给 FSDP2 加了 HSDP，从 1 个节点扩到 2 个节点的 scaling factor 是 0.945。"
                "同样条件下 DDP 的 scaling factor 是 0.95。")
    assert got["job.parallelism"] == "fsdp"


def test_with_and_without_names_both_runs() -> None:
    got = facts("2 nodes x 8 GPUs on p3dn.24xlarge. Why is AL2 so much worse, with and without EFA?")
    assert got["nic.efa"] is True


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("Model conformer; batch_size=16, accum_grad=4.", "job.grad_accum_steps", 4),
    ("batch-bins 15000000 for four GPUs, accum-grad 4, n-iter-processes 16.", "job.grad_accum_steps", 4),
    ("deepspeed 用 ds_z2_config，per_device_train_batch_size 180。", "job.zero_stage", 2),
])
def test_settings_said_by_their_short_names(text: str, fact: str, value: object) -> None:
    assert facts(text)[fact] == value


@pytest.mark.parametrize(("text", "instance"), [
    ("on c5.18xlarge (the cheapest instances with 25Gbps)", "c5.18xlarge"),
    ("two Azure NC24s_v3 VMs with 40GbE", "NC24s_v3"),
    ("G5.12XLARGE x 2", "G5.12XLARGE"),
])
def test_instance_types_of_every_family(text: str, instance: str) -> None:
    assert facts(text)["node.instance_type"] == instance


def test_ib_channels_without_gpudirect_in_words() -> None:
    got = facts("In my NCCL_DEBUG=INFO log the channels go over NET/IB but never with /GDRDMA, so network data is "
                "staged through host memory.")
    assert (got["nccl.transport"], got["nccl.gdr_disabled"]) == ("ib", True)


def test_with_a_global_batch_a_step_is_the_same_work_on_any_size() -> None:
    got = facts("单机每步 541 秒，两台机器每步 710 秒，其他配置完全一样（data.train_batch_size=256）。")
    assert got["job.speedup"] == pytest.approx(541 / 710, abs=1e-3)
    assert got["job.negative_scaling"] is True


def test_a_rate_after_a_port_word_is_a_rating_and_a_small_fabric_is_no_small_model() -> None:
    got = facts("搭了一个小的 RoCEv2 网络：三块 BlueField-2 网卡（网口 25Gbps）。"
                "两台一对一跑 ib_write_bw，带宽大概 23 Gbps。两台同时打同一台 server，两条流加起来只剩 5Gbps 左右。")
    assert got["nic.speed_gbps"] == 25
    assert "job.model_params_b" not in got


def test_a_setup_where_the_problem_is_not_seen_and_a_rate_not_reached_are_not_the_jobs() -> None:
    got = facts("The performance does not reach 100Gbps. (Later note: the issue is not seen with the card in a PCIe "
                "Gen 3.0 x16 slot.)")
    assert "gpu.pcie_gen" not in got
    assert "net.iperf3_gbps" not in got


def test_checkpoints_to_efs_go_to_network_storage() -> None:
    got = facts("Checkpointing a 1GB ndarray to EFS takes 15 s, twice the local filesystem's time.")
    assert got["job.checkpoint_target"] == "network"


def test_should_we_proposes_but_what_should_i_expect_describes_the_job() -> None:
    got = facts("Checkpoints go to EFS and take 15 s. Should we checkpoint to local disk and upload afterwards "
                "instead?")
    assert got["job.checkpoint_target"] == "network"
    got = facts("What should I expect doing multinode inference across 2x H100 DGX boxes with InfiniBand?")
    assert got["job.nodes"] == 2


def test_a_setting_named_after_its_value() -> None:
    got = facts("The pod gets /dev/infiniband, and the default `eth0` (always given an IP by Kubernetes) is used for "
                "NCCL_SOCKET_IFNAME.")
    assert got["nccl.socket_ifname"] == "eth0"


def test_a_rating_after_the_tools_own_figure_stays_a_rating() -> None:
    got = facts("iperf3 between the two hosts shows 9.41 Gbits/sec on our 10G network")
    assert (got["net.iperf3_gbps"], got["nic.speed_gbps"]) == (9.41, 10)


def test_words_quoting_the_pasted_measurement_give_no_link_speed() -> None:
    got = facts("Pod to pod with knb:\n```\n Discovered MTU         : 1440\n  Pod to pod :\n    TCP :\n"
                "      bandwidth = 7328 Mbit/s\n```\nIs 7328 Mbit/s pod-to-pod what the overlay can do?")
    assert got["net.iperf3_gbps"] == 7.328
    assert "nic.speed_gbps" not in got


def test_an_all_reduce_figure_said_with_a_measuring_verb_is_its_busbw() -> None:
    got = facts("两节点 all_reduce 从大约 180GB/s 掉到大约 10GB/s。")
    assert got["nccl.allreduce_busbw_gbytes_per_s"] == 10


_BUSBW = "nccl.allreduce_busbw_gbytes_per_s"


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("官方文档说 H100 的 NVLink 是 900GB/s，我们测出来 all_reduce busbw 只有 350GB/s", _BUSBW, 350),
    ("Our other cluster gets 180 GB/s busbw, this one only 45 GB/s", _BUSBW, 45),
    ("The link shows 100000Mb/s in ethtool but iperf3 gets only 23 Gbits/sec", "nic.speed_gbps", 100),
    ("8 卡 V100 的机器两台，通过 56Gb FDR IB 相连", "nic.speed_gbps", 56),
])
def test_our_own_run_named_after_anothers_and_ratings_by_their_source(text: str, fact: str, value: object) -> None:
    assert facts(text)[fact] == value


def test_another_clusters_figure_alone_stays_a_reference() -> None:
    assert _BUSBW not in facts("Our other cluster gets 180 GB/s busbw on the same test.")


def test_counts_at_the_end_of_a_sentence() -> None:
    assert facts("两台机器，每台 IB 200Gb * 4.")["nic.count"] == 4
    assert facts("每台机器只用 GPU0 和 GPU1.")["job.gpus_per_node"] == 2
