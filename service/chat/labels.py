"""Human names for facts and derived figures, in both languages, with their values in familiar units.

The echo ('here is what I understood') and the arithmetic read 'NIC 25 Gb/s', not 'nic.speed_gbps=25'.
Names and display formats are the fact catalogue's (rules/facts.yaml); only the words for enum values
are the chat's own.
"""

from typing import Any

from service.chat.units import format_number
from service.engine import builtin_catalogue

_VALUES_ZH = {"True": "是", "False": "否", "data": "数据并行", "tensor": "张量并行", "pipeline": "流水线并行",
              "fsdp": "FSDP/ZeRO", "hybrid": "混合并行", "nas": "NAS/共享存储", "object_store": "对象存储",
              "local": "本地盘", "network": "网络存储", "parameter_server": "参数服务器", "allreduce": "all-reduce",
              "ethernet": "以太网", "infiniband": "InfiniBand", "roce": "RoCE", "socket": "socket (TCP)", "ib": "IB"}
_VALUES_EN = {"True": "yes", "False": "no", "nas": "NAS / shared file system", "object_store": "object storage",
              "local": "local disk", "network": "network storage", "parameter_server": "parameter server",
              "fsdp": "FSDP/ZeRO", "socket": "socket (TCP)"}


# Names for the facts the catalogue gives no label yet, so a reply never shows 'job.baseline_gpus'.
_NAMES: dict[str, tuple[str, str]] = {
    "job.baseline_nodes": ("nodes of the run compared with", "对比运行的机器数"),
    "job.baseline_gpus": ("GPUs of the run compared with", "对比运行的 GPU 数"),
    "job.speedup": ("speed-up over the smaller run", "相对小规模运行的加速比"),
    "job.negative_scaling": ("slower with more GPUs/nodes", "加卡/加机器反而变慢"),
    "job.zero_stage": ("ZeRO stage", "ZeRO 阶段"), "job.tp_degree": ("tensor-parallel degree", "张量并行度"),
    "job.pp_degree": ("pipeline-parallel degree", "流水线并行度"),
    "job.ep_degree": ("expert-parallel degree", "专家并行度"),
    "job.moe": ("mixture of experts", "MoE 模型"), "job.moe_top_k": ("MoE top-k", "MoE top-k"),
    "job.seq_len": ("sequence length", "序列长度"), "job.micro_batch_size": ("micro-batch size", "micro-batch 大小"),
    "job.total_gpus": ("GPUs in total", "GPU 总数"),
    "model.hidden_size": ("hidden size", "隐藏层维度"), "model.layers": ("layers", "层数"),
    "nic.count": ("NICs per node", "每台网卡数"), "nic.bonded": ("bonded interface", "网卡绑定（bond）"),
    "nic.efa": ("EFA", "EFA"), "nic.name": ("NIC", "网卡"), "nic.gid_index": ("RoCE GID index", "RoCE GID 索引"),
    "nic.pfc": ("PFC (lossless Ethernet)", "PFC（无损以太网）"),
    "net.rdma_bw_gbps": ("ib_write_bw (perftest) throughput", "ib_write_bw（perftest）实测带宽"),
    "nccl.allreduce_algbw_gbytes_per_s": ("nccl-tests algbw", "nccl-tests algbw"),
    "nccl.version": ("NCCL version", "NCCL 版本"), "nccl.ib_hca": ("NCCL_IB_HCA", "NCCL_IB_HCA"),
    "nccl.net_plugin_missing": ("NCCL network plugin missing", "缺少 NCCL 网络插件"),
    "nccl.gdr_disabled": ("GPUDirect RDMA off", "GPUDirect RDMA 未启用"),
    "nccl.gdr_partial": ("GPUDirect RDMA on some channels only", "GPUDirect RDMA 只在部分通道启用"),
    "gpu.driver_version": ("GPU driver version", "GPU 驱动版本"),
    "gpu.pcie_gen_max": ("highest PCIe generation", "PCIe 最高代数"),
    "gpu.pcie_width_max": ("widest PCIe link", "PCIe 最大链路宽度"),
    "pcie.acs_enabled": ("PCIe ACS enabled", "PCIe ACS 已开启"),
    "container.shm_gbytes": ("container /dev/shm size", "容器 /dev/shm 大小"),
    "container.ipc_host": ("container with --ipc=host", "容器使用 --ipc=host"),
    "diag.poor_scaling": ("scales poorly", "扩展性差"), "diag.comm_bound": ("communication-bound", "通信瓶颈"),
    "node.id": ("node", "节点"), "node.cluster": ("cluster", "集群"), "node.region": ("region", "地域"),
    "node.zone": ("availability zone", "可用区"), "node.rack": ("rack", "机架"),
    "node.leaf_switch": ("leaf switch", "叶交换机"), "node.rail": ("rail", "rail"),
    "cluster.nodes": ("nodes in the cluster", "集群机器数"), "cluster.stragglers": ("straggler nodes", "掉队节点"),
    "cluster.nic_speed_min_gbps": ("slowest NIC in the cluster", "集群最慢网卡"),
}


def fact_name(fact: str, lang: str) -> str:
    """The fact's name in the reply's language (the catalogue's, else the chat's own, else the key)."""
    name = builtin_catalogue().label(fact, lang)
    if name == fact and fact in _NAMES:
        return _NAMES[fact][1 if lang == "zh" else 0]
    return name


def fact_value(fact: str, value: Any, lang: str) -> str:
    """The value with its unit, or the enum word in the reply's language."""
    spec = builtin_catalogue().get(fact)
    text = spec.show(value, format_number) if spec is not None else format_number(value)
    table = _VALUES_ZH if lang == "zh" else _VALUES_EN
    return table.get(str(value), text) if isinstance(value, bool | str) else text


def describe(fact: str, value: Any, lang: str) -> str:
    """'NIC negotiated link speed 25 Gb/s' / '网卡协商速率 25 Gb/s'."""
    sep = " " if lang != "zh" else " "
    return f"{fact_name(fact, lang)}{sep}{fact_value(fact, value, lang)}"
