"""The symptom readers (service/chat/symptoms.py): what each says, what it must leave alone, and its polarity."""

from typing import Any

import pytest

from bwdoctor.chat import symptoms, understand

_MISSING = object()


def _read(text: str, fact: str) -> Any:
    """The value the whole reader settles on for `fact` (stated, not a what-if), or _MISSING."""
    stated = {u.fact: u.value for u in understand(text).understood}
    return stated.get(fact, _MISSING)


@pytest.mark.parametrize(("text", "value"), [
    ("One node is slower than the others.", True),
    ("Node 3's step time is 2x the others.", True),
    ("GPU util on one machine is low while others are at 100%.", True),
    ("A few machines are much slower and the whole job runs at their pace.", True),
    ("某一台机器特别慢", True),
    ("一个节点拖慢了整体", True),
    ("其中一台的 GPU 利用率很低，其他都是 100%", True),
    ("all_reduce_perf between 2 nodes gives inconsistent busbw depending on which two nodes I pick.", True),
    ("Between node 1 and node 2 I get 25 GB/s, between node 1 and node 3 I get 39 GB/s.", True),
    ("No node is slower than the others.", False),
    ("没有哪台机器特别慢", False),
])
def test_straggler(text: str, value: bool) -> None:
    assert _read(text, "job.straggler_suspected") is value


@pytest.mark.parametrize("text", [
    "Two nodes are slower than one node.",                 # scaling, not one node behind the rest
    "a single GPU is slower than 8 GPUs",
    "有两台机器训练很慢",                                    # both machines
    "机器多了反而拖慢了速度",
    "有一台机器是管理节点，其他是计算节点",                     # one and the others, no difference
    "Training on slow GPUs like T4 takes days.",
    "On one node my throughput is lower than others report.",
    "Between node 1 and node 2 I get 39 GB/s, between node 1 and node 3 I get 38 GB/s.",
])
def test_no_straggler_read(text: str) -> None:
    assert _read(text, "job.straggler_suspected") is _MISSING


@pytest.mark.parametrize(("text", "value"), [
    ("With synthetic data 3.5x on 4 nodes, with real ImageNet only 1.45x.", True),
    ("Synthetic data scales fine (95% on 8 GPUs). With the real dataset it is really bad.", True),
    ("用假数据速度正常，换真实数据就慢", True),
    ("Synthetic data is just as slow as real data.", False),
    ("假数据和真实数据一样慢", False),
])
def test_synthetic_vs_real(text: str, value: bool) -> None:
    assert _read(text, "job.synthetic_data_fast") is value


@pytest.mark.parametrize("text", [
    "We train on synthetic data instead of real data.",    # nothing said about speed
    "The discriminator compares fake images with real images and training is slow.",
    "With synthetic data it runs at 800 img/s.",            # no real data to compare with
])
def test_synthetic_not_read(text: str) -> None:
    assert _read(text, "job.synthetic_data_fast") is _MISSING


@pytest.mark.parametrize(("text", "mode"), [
    ("We boot with intel_iommu=on.", "on"),
    ("amd_iommu=on on the EPYC hosts", "on"),
    ("intel_iommu=on iommu=pt", "passthrough"),
    ("IOMMU passthrough fixed it.", "passthrough"),
    ("设置 IOMMU 为直通之后就好了", "passthrough"),
    ("Booting with amd_iommu=off fixed the hang.", "off"),
    ("We disabled the IOMMU in BIOS.", "off"),
    ("IOMMU 已经关闭了", "off"),
    ("The IOMMU is enabled.", "on"),
])
def test_iommu(text: str, mode: str) -> None:
    assert _read(text, "pcie.iommu") == mode


@pytest.mark.parametrize("text", [
    "IOMMU on AMD EPYC hangs nccl-tests",                  # 'on' a platform, not a mode
    "Should the IOMMU be in passthrough?",                 # asks
    "We use GPU passthrough into the VM.",                 # a VM's device passthrough, not the IOMMU mode
])
def test_iommu_not_read(text: str) -> None:
    assert _read(text, "pcie.iommu") is _MISSING


@pytest.mark.parametrize("text", [
    "Only one node shows GDRDMA in the channel lines.",
    "GDR is used on node A but not on node B.",
    "Some connections go via NET/IB/0/GDRDMA and others only via NET/IB/1.",
    "两个节点，只有一台机器上的 GPU 用上了 GDRDMA",
    "另一台没有 GDRDMA",
])
def test_gdr_partial(text: str) -> None:
    assert _read(text, "nccl.gdr_partial") is True


@pytest.mark.parametrize("text", [
    "GDR is enabled on both nodes.",
    "Does only one node use GDRDMA?",
])
def test_gdr_partial_not_read(text: str) -> None:
    assert _read(text, "nccl.gdr_partial") is _MISSING


@pytest.mark.parametrize(("text", "pfc", "ecn"), [
    ("No PFC configured on the RoCE switches.", False, _MISSING),
    ("ECN 没开", _MISSING, False),
    ("PFC is enabled but ECN is off.", True, False),
    ("PFC 和 ECN 都没开", False, False),
    ("PFC and ECN are both disabled on RoCE.", False, False),
    ("No flow control on the RoCE fabric.", False, _MISSING),
    ("We see PFC pause frames on the switch.", _MISSING, _MISSING),   # traffic, not the setting
    ("PFC 没有问题", _MISSING, _MISSING),
    ("Is PFC enabled?", _MISSING, _MISSING),
    ("lossless compression is off", _MISSING, _MISSING),
])
def test_pfc_ecn(text: str, pfc: Any, ecn: Any) -> None:
    assert _read(text, "nic.pfc") is pfc
    assert _read(text, "nic.ecn") is ecn


@pytest.mark.parametrize("text", [
    "On RoCE the nccl-tests busbw jumps between 20 and 90 GB/s.",
    "In nccl-tests the bus bandwidth sometimes falls to 0.x GB/s.",
    "all_reduce_perf busbw collapses at large message sizes.",
    "nccl-tests 看 busbw 会时不时掉到 0.x GB/s",
])
def test_busbw_unstable(text: str) -> None:
    assert _read(text, "nccl.busbw_unstable") is True


def test_swings_without_a_collective_are_not_busbw() -> None:
    assert _read("The loss jumps between 2 and 3.", "nccl.busbw_unstable") is _MISSING


@pytest.mark.parametrize(("text", "fact", "value"), [
    ("Two a3-highgpu-8g VMs without the GPUDirect-TCPX plugin.", "nccl.tcpx_plugin_missing", True),
    ("We run the standard image, with no GPUDirect-TCPX NCCL plugin.", "nccl.tcpx_plugin_missing", True),
    ("The TCPXO plugin is installed on every VM.", "nccl.tcpx_plugin_missing", False),
    ("p4d.24xlarge without aws-ofi-nccl", "nccl.net_plugin_missing", True),
    ("aws-ofi-nccl is not installed in the container", "nccl.net_plugin_missing", True),
    ("aws-ofi-nccl is installed", "nccl.net_plugin_missing", False),
])
def test_cloud_plugins(text: str, fact: str, value: bool) -> None:
    assert _read(text, fact) is value


@pytest.mark.parametrize(("text", "value"), [
    ("The NIC and the GPU are on different sockets.", "sys"),
    ("GPU0 and mlx5_0 sit on different NUMA nodes, so traffic crosses the UPI.", "sys"),
    ("网卡和 GPU 不在同一个 CPU 下", "sys"),
    ("GPU 和网卡跨 NUMA", "sys"),
    ("GPU and NIC go through the CPU (PHB).", "phb"),
    ("The GPU and the NIC are not under the same PCIe switch.", "phb"),     # through the CPU at best
    ("GPU0 和 Mellanox 网卡挂在同一个 CPU 下", "phb"),
    ("GPU 和网卡之间隔着一个 CPU", "phb"),
    ("GPU0 and mlx5_0 are under the same PCIe switch.", "pxb"),
    ("每张 GPU 和它的网卡在同一个 PCIe switch 下", "pxb"),
    ("In topo -m GPU4 shows SYS to the NIC.", "sys"),
    ("GPU0 is PIX to mlx5_0 but GPU4 is SYS to it.", "sys"),               # the worst-placed GPU's
])
def test_gpu_nic_path(text: str, value: str) -> None:
    assert _read(text, "gpu.nic_path") == value


@pytest.mark.parametrize("text", [
    "We set NUMA nodes per socket to 4 (NPS4) on the EPYC hosts with 8 GPUs and 4 NICs.",  # a BIOS setting
    "The GPUs are on different sockets.",                                   # GPU to GPU: no NIC
    "Are the GPU and the NIC on different NUMA nodes?",                     # asked
    "网卡和 GPU 是不是跨 NUMA？",
    "The NIC and GPU are not on different sockets.",                        # not SYS, the path itself unsaid
    "The nodes have different CPU models, 8 GPUs and 2 NICs.",
    "Without GDR the data from the GPU goes through the CPU memory before the NIC sends it.",  # staging
])
def test_no_gpu_nic_path_read(text: str) -> None:
    assert _read(text, "gpu.nic_path") is _MISSING


@pytest.mark.parametrize(("text", "value"), [
    ("We issue 980 small reduce-scatters per step.", True),
    ("Backward launches thousands of tiny all-reduces.", True),
    ("With bias-only training one group launch carries 980 reduce-scatter calls.", True),
    ("Each all-reduce is only a few KB.", True),
    ("Profiling shows latency dominates the step.", True),
    ("小消息很多，带宽根本跑不满", True),
    ("我们每个 step 有几千次 all-reduce", True),
    ("每次 all-reduce 只有几 KB", True),
    ("通信里延迟占主导", True),
    ("We are not latency-bound: the buckets are 25 MB.", False),
    ("消息都很大，没有小消息", False),
])
def test_small_messages(text: str, value: bool) -> None:
    assert _read(text, "job.small_messages") is value


@pytest.mark.parametrize("text", [
    "Is it latency-bound?",                                                  # asked
    "Are many small all-reduces the problem?",
    "busbw at small sizes is latency-bound, which nccl-tests always is.",   # the benchmark, not the job
    "We run 8 all-reduces per step.",                                        # a handful
    "all_reduce_perf -b 8 -e 128M: at 8 bytes each all-reduce takes 30 us.",
    "The model is small and the data set has 980 images.",
])
def test_no_small_messages_read(text: str) -> None:
    assert _read(text, "job.small_messages") is _MISSING


@pytest.mark.parametrize(("text", "pct"), [
    ("Nsight Systems 里看 NCCL 通信占了 75% 的时间，而且是实打实占着 GPU 的 kernel。", 75),
    ("In the profile NCCL takes 60% of the step time.", 60),
    ("The all-reduce accounts for about 40% of each iteration.", 40),
    ("60% of the iteration is spent in all-reduce.", 60),
    ("profiler 显示 allreduce 占用了 55% 的耗时", 55),
    ("一半以上时间都在通信，大概 70% 的时间花在 NCCL 上", 70),
])
def test_comm_share(text: str, pct: float) -> None:
    assert _read(text, "job.comm_time_pct") == pct


@pytest.mark.parametrize("text", [
    "NCCL reaches 75% of line rate.",                      # a share of bandwidth, not of time
    "all-reduce busbw is 80% of the theoretical peak",
    "GPU utilisation is 75% and NCCL uses IB.",
    "通信带宽只有 40%",
    "Does NCCL take 60% of the step?",                     # asked
])
def test_no_comm_share_read(text: str) -> None:
    assert _read(text, "job.comm_time_pct") is _MISSING


@pytest.mark.parametrize(("text", "value"), [
    ("用 KungFu 跑 tf1_mnist_keras.py 例子，两台机器。", True),
    ("Comparing DDP under PyTorchJob with bare metal (resnet18 on mnist, batch size 64).", True),
    ("单机 2 张 RTX3090，训练 LeNet，只跑了 1 个 epoch。", True),
    ("It's a small CNN on CIFAR-10.", True),
    ("模型很小，每卡 batch 只有 2", True),
    ("We train with a per-GPU batch of 2 images.", True),
    ("This is not a small model: the backbone is wide.", False),
])
def test_light_compute(text: str, value: bool) -> None:
    assert _read(text, "job.light_compute") is value


@pytest.mark.parametrize(("name", "light"), [
    ("ResNet50", True), ("resnet-18", True), ("MobileNetV2", True), ("LeNet-5", True),
    ("ResNet-152", False), ("VGG16", False), ("GPT-2", False),
])
def test_light_model_name(name: str, light: bool) -> None:
    assert symptoms.light_model_name(name) is light


@pytest.mark.parametrize("text", [
    "Training a 7B Llama with a per-GPU batch of 1 across 4 nodes.",    # a language model's batch of 1 is no light step
    "VGG16 on ImageNet across two machines is slow.",                   # large fully connected layers: heavy on bytes
    "Even ResNet-50 would take 0.8 s per sync over 1 Gb/s.",            # another model, for comparison
    "Is the model too small to scale?",                                 # asked
])
def test_no_light_compute_read(text: str) -> None:
    assert _read(text, "job.light_compute") is _MISSING


@pytest.mark.parametrize(("text", "value"), [
    ("My Kubernetes cluster uses a simple 1GbE switch and Flannel.", True),
    ("pod 用的是默认 CNI 网络，没开 hostNetwork。", True),
    ("Pods without hostNetwork talk over the CNI overlay. Can I run the PyTorchJob with hostNetwork?", True),
    ("We use Calico with IP-in-IP between the GPU nodes.", True),
    ("The pods run with hostNetwork: true.", False),
    ("训练 Pod 开了 hostNetwork", False),
    ("The workers use the host network.", False),
])
def test_pod_overlay(text: str, value: bool) -> None:
    assert _read(text, "net.pod_overlay") is value



@pytest.mark.parametrize("text", [
    "Should we use hostNetwork?",                          # asked
    "Does Flannel slow down NCCL?",
    "We moved away from flannel to SR-IOV last month.",    # no longer ours
    "The neural network trains slowly.",
])
def test_no_pod_overlay_read(text: str) -> None:
    assert _read(text, "net.pod_overlay") is _MISSING


@pytest.mark.parametrize(("text", "value"), [
    ("The namespace has Istio injection turned on, and RDMA was not set up.", True),
    ("Every training pod gets an Envoy sidecar.", True),
    ("命名空间开了 istio 注入，pod 里有 sidecar", True),
    ("We set sidecar.istio.io/inject: \"false\" on the training pods.", False),
    ("The namespace is labelled istio-injection=disabled.", False),
    ("Istio injection is disabled for the job.", False),
])
def test_sidecar_proxy(text: str, value: bool) -> None:
    assert _read(text, "net.sidecar_proxy") is value


@pytest.mark.parametrize("text", [
    "Does an Istio sidecar affect NCCL?",                  # asked
    "Two nodes with 8 A100 each over RoCE.",
])
def test_no_sidecar_read(text: str) -> None:
    assert _read(text, "net.sidecar_proxy") is _MISSING


@pytest.mark.parametrize("text", [
    "单机多卡没问题，一上多机就训得非常慢。",
    "Training works fine on a single node but multi-node training is very slow.",
    "单机训练速度正常，多机特别慢",
])
def test_slow_only_across_nodes(text: str) -> None:
    assert _read(text, "diag.poor_scaling") is True


@pytest.mark.parametrize("text", [
    "Multi-node training is very slow.",                   # no single-node contrast
    "单机没问题。多机会不会慢？",                             # asked
    "It works fine on one node.",
])
def test_no_slow_only_across_nodes_read(text: str) -> None:
    assert _read(text, "diag.poor_scaling") is _MISSING


@pytest.mark.parametrize(("text", "value"), [
    ("I'm running NCCL on two instances with 8 NICs attached, but NCCL only uses one of them.", True),
    ("From the logs UCX picked only eth1 for TCP, whereas TCPX uses eth1-eth4 for data.", True),
    ("Only one of the four NICs is carrying traffic.", True),
    ("监控上看只走了一张网卡", True),
    ("NCCL uses all eight NICs.", False),
    ("所有网卡都有流量", False),
])
def test_one_nic_used(text: str, value: bool) -> None:
    assert _read(text, "net.one_nic_used") is value


@pytest.mark.parametrize("text", [
    "Does NCCL only use one NIC?",                         # asked
    "The job only uses one GPU.",                          # a GPU, not a NIC
    "Each node has one NIC.",
])
def test_no_one_nic_read(text: str) -> None:
    assert _read(text, "net.one_nic_used") is _MISSING


@pytest.mark.parametrize(("text", "value"), [
    ("网卡是 Intel XL710 40G，iperf3 只有 11 Gbit/s。后来发现其中一块网卡插在 Type: x4 PCI Express 2 的槽上。", True),
    ("The 10G NIC sits in a PCIe 2.0 x4 slot and never goes above 13.9 Gbps.", True),
    ("dmesg: This is not sufficient for optimal performance of this card.", True),
    ("mlx5_core: 31.504 Gb/s available PCIe bandwidth, limited by 8.0 GT/s PCIe x4 link", True),
    # a slot said of a GPU is the GPU's; a slot only asked about is not said
    ("The GPU runs at PCIe Gen3 x8 on this board.", _MISSING),
    ("Should I put the NIC in the PCIe 2.0 x4 slot?", _MISSING),
    ("The NIC is a ConnectX-6 at 100G.", _MISSING),
])
def test_nic_pcie_slot(text: str, value: Any) -> None:
    assert _read(text, "nic.pcie_limited") is value
