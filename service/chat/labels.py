"""Human names for facts and derived figures, in both languages, with their values in familiar units.

The echo ('here is what I understood') and the arithmetic read 'NIC 25 Gb/s', not 'nic.speed_gbps=25'.
"""

from typing import Any

from service.chat.units import format_number


def _gb(v: Any) -> str:
    return f"{format_number(v)} Gb/s"


def _pct(v: Any) -> str:
    return f"{format_number(v)} %"


def _s(v: Any) -> str:
    return f"{format_number(v)} s"


# fact → (English name, Chinese name, formatter)
FACTS: dict[str, tuple[str, str, Any]] = {
    "job.model_params_b": ("model size", "模型规模", lambda v: f"{format_number(v)}B"),
    "job.precision": ("gradient precision", "梯度精度", lambda v: str(v).upper()),
    "job.parallelism": ("parallelism", "并行方式", str),
    "job.nodes": ("nodes", "机器数", format_number),
    "job.gpus_per_node": ("GPUs per node", "每台 GPU 数", format_number),
    "job.global_batch_size": ("global batch", "全局 batch", format_number),
    "job.grad_accum_steps": ("gradient accumulation steps", "梯度累积步数", format_number),
    "job.comm_pattern": ("gradient exchange", "梯度同步方式", str),
    "job.async": ("asynchronous training", "异步训练", str),
    "job.step_time_s": ("multi-node step time", "多机 step 耗时", _s),
    "job.step_time_baseline_s": ("single-node step time", "单机 step 耗时", _s),
    "job.step_time_cv": ("step-time variation (CV)", "step 耗时波动（CV）", format_number),
    "job.checkpoint_interval_steps": ("checkpoint every (steps)", "checkpoint 间隔（步）", format_number),
    "job.checkpoint_size_gbytes": ("checkpoint size", "checkpoint 大小", lambda v: f"{format_number(v)} GB"),
    "job.checkpoint_target": ("checkpoints written to", "checkpoint 写入", str),
    "job.data_source": ("training data on", "训练数据位置", str),
    "job.critical": ("important run", "重要训练", str),
    "node.instance_type": ("instance type", "实例规格", str),
    "node.instance_bandwidth_gbps": ("instance bandwidth cap", "实例带宽上限", _gb),
    "gpu.count": ("GPUs seen", "GPU 数", format_number),
    "gpu.model": ("GPU model", "GPU 型号", str),
    "gpu.util_pct": ("GPU utilisation", "GPU 利用率", _pct),
    "gpu.util_min_pct": ("least busy GPU", "最闲 GPU 利用率", _pct),
    "gpu.mem_used_pct": ("GPU memory used", "显存占用", _pct),
    "gpu.nvlink": ("NVLink", "NVLink", str),
    "gpu.pcie_gen": ("PCIe generation", "PCIe 代数", format_number),
    "gpu.pcie_width": ("PCIe width", "PCIe 宽度", lambda v: f"x{format_number(v)}"),
    "cpu.util_pct": ("CPU utilisation", "CPU 利用率", _pct),
    "cpu.iowait_pct": ("CPU iowait", "CPU iowait", _pct),
    "mem.used_pct": ("memory used", "内存占用", _pct),
    "nic.kind": ("network kind", "网络类型", str),
    "nic.speed_gbps": ("NIC link speed", "网卡速率", _gb),
    "nic.max_speed_gbps": ("NIC rating (fastest mode it supports)", "网卡额定速率（最高支持）", _gb),
    "nic.mtu": ("MTU", "MTU", lambda v: f"{format_number(v)} bytes"),
    "nic.rdma": ("RDMA", "RDMA", str),
    "nic.rx_gbps": ("observed NIC traffic in", "网卡入流量", _gb),
    "nic.tx_gbps": ("observed NIC traffic out", "网卡出流量", _gb),
    "net.iperf3_gbps": ("measured throughput (iperf3)", "实测吞吐（iperf3）", _gb),
    "net.rtt_ms": ("round-trip time", "往返延迟", lambda v: f"{format_number(v)} ms"),
    "nccl.allreduce_busbw_gbytes_per_s": ("nccl-tests busbw", "nccl-tests busbw", lambda v: f"{format_number(v)} GB/s"),
    "nccl.transport": ("NCCL transport", "NCCL 传输方式", str),
    "nccl.socket_ifname": ("NCCL socket interface", "NCCL socket 网卡", str),
    "nccl.ib_disabled": ("NCCL_IB_DISABLE", "NCCL_IB_DISABLE", str),
    "storage.read_gbps": ("storage read rate", "存储读取速率", _gb),
    "cluster.zones": ("availability zones", "可用区数", format_number),
    "cluster.regions": ("regions", "地域数", format_number),
    # derived
    "comm.grad_gbytes": ("gradient volume per sync", "每次同步的梯度量", lambda v: f"{format_number(v)} GB"),
    "comm.link_gbytes_per_s": ("effective link rate", "有效链路速率", lambda v: f"{format_number(v)} GB/s"),
    "comm.sync_time_naive_s": ("naive sync time (size ÷ link rate)", "朴素同步时间（数据量 ÷ 带宽）", _s),
    "comm.allreduce_time_s": ("ring all-reduce per sync", "ring all-reduce 每次同步", _s),
    "comm.allreduce_amortised_s": ("all-reduce per step (amortised)", "每步分摊的 all-reduce", _s),
    "comm.fraction": ("communication share of a step", "通信占每步时间", lambda v: f"{format_number(100 * v)} %"),
    "net.efficiency_pct": ("measured ÷ rated", "实测/标称", _pct),
    "job.step_slowdown": ("multi-node slowdown", "多机变慢倍数", lambda v: f"{format_number(v)}×"),
}

_VALUES_ZH = {"True": "是", "False": "否", "data": "数据并行", "tensor": "张量并行", "pipeline": "流水线并行",
              "fsdp": "FSDP/ZeRO", "hybrid": "混合并行", "nas": "NAS/共享存储", "object_store": "对象存储",
              "local": "本地盘", "network": "网络存储", "parameter_server": "参数服务器", "allreduce": "all-reduce",
              "ethernet": "以太网", "infiniband": "InfiniBand", "roce": "RoCE", "socket": "socket (TCP)", "ib": "IB"}
_VALUES_EN = {"True": "yes", "False": "no", "nas": "NAS / shared file system", "object_store": "object storage",
              "local": "local disk", "network": "network storage", "parameter_server": "parameter server",
              "fsdp": "FSDP/ZeRO", "socket": "socket (TCP)"}


def fact_name(fact: str, lang: str) -> str:
    """The fact's name in the reply's language (the key itself when unknown)."""
    entry = FACTS.get(fact)
    return fact if entry is None else entry[1 if lang == "zh" else 0]


def fact_value(fact: str, value: Any, lang: str) -> str:
    """The value with its unit, or the enum word in the reply's language."""
    entry = FACTS.get(fact)
    text = entry[2](value) if entry else format_number(value)
    table = _VALUES_ZH if lang == "zh" else _VALUES_EN
    return table.get(str(value), text) if isinstance(value, bool | str) else text


def describe(fact: str, value: Any, lang: str) -> str:
    """'NIC rated speed 25 Gb/s' / '网卡标称速率 25 Gb/s'."""
    sep = " " if lang != "zh" else " "
    return f"{fact_name(fact, lang)}{sep}{fact_value(fact, value, lang)}"
