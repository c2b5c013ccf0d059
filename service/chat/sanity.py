"""Values that cannot be true together, set aside and asked about instead of diagnosed.

A misread fact is worse than a missing one: it drives a confident wrong finding. So a count of nodes in
the thousands, more than 16 GPUs in one machine, or a measurement well above what the NIC can carry
('384 % of the NIC's rating') is not passed to the engine. The reply says what could not be reconciled
and asks; a bonded or multi-NIC node (nic.count) is the usual honest explanation of the last one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.chat.extract import Understood

MAX_NODES = 4096
MAX_GPUS_PER_NODE = 16
# A measurement may exceed the line rate a little (rounding, Gb vs GiB); beyond this it is a misread role.
_HEADROOM = 1.1


@dataclass(frozen=True)
class Conflict:
    """Facts that cannot all be right, and why, in both languages."""

    facts: tuple[str, ...]
    en: str
    zh: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for the reply."""
        return {"facts": list(self.facts), "en": self.en, "zh": self.zh}


def reconcile(stated: dict[str, Understood]) -> tuple[dict[str, Understood], list[Conflict]]:
    """Drop the facts that contradict the others or physics; say why."""
    facts = dict(stated)
    conflicts: list[Conflict] = []

    def value(name: str) -> Any:
        u = facts.get(name)
        return u.value if u is not None else None

    nodes = value("job.nodes")
    if isinstance(nodes, int | float) and nodes > MAX_NODES:
        facts.pop("job.nodes")
        conflicts.append(Conflict(("job.nodes",), f"{nodes:g} machines is more than I can take at face value "
                                  f"(“{stated['job.nodes'].text}”); how many machines does the job run on?",
                                  f"{nodes:g} 台机器不太可能（“{stated['job.nodes'].text}”），任务实际用了几台机器？"))
    gpus = value("job.gpus_per_node")
    if isinstance(gpus, int | float) and gpus > MAX_GPUS_PER_NODE:
        facts.pop("job.gpus_per_node")
        conflicts.append(Conflict(("job.gpus_per_node",), f"{gpus:g} GPUs in one machine is more than a server holds "
                                  f"(“{stated['job.gpus_per_node'].text}”); is that the total over all machines?",
                                  f"一台机器 {gpus:g} 张卡不太可能（“{stated['job.gpus_per_node'].text}”），"
                                  "这是所有机器加起来的总卡数吗？"))
    link = value("nic.speed_gbps")
    count = value("nic.count") or 1
    if isinstance(link, int | float) and link > 0:
        capacity = link * count
        for name, scale, unit in (("net.iperf3_gbps", 1.0, "Gb/s"), ("net.rdma_bw_gbps", 1.0, "Gb/s"),
                                  ("nccl.allreduce_busbw_gbytes_per_s", 8.0, "GB/s")):
            measured = value(name)
            if not isinstance(measured, int | float) or measured * scale <= capacity * _HEADROOM:
                continue
            if name.startswith("nccl.") and (value("job.nodes") in (None, 1)):
                continue  # inside one machine NCCL runs over NVLink, far above any NIC
            pct = 100 * measured * scale / capacity
            facts.pop(name)
            conflicts.append(Conflict(
                (name, "nic.speed_gbps"),
                f"{measured:g} {unit} (“{stated[name].text}”) is {pct:.0f} % of what a {link:g} Gb/s NIC can carry; "
                "is that figure from another tool or unit, or does each node have several NICs (how many)?",
                f"{measured:g} {unit}（“{stated[name].text}”）是 {link:g} Gb/s 网卡上限的 {pct:.0f} %，不可能；"
                "这个数字是不是别的工具或单位测的？还是每台机器有多块网卡（几块）？"))
    return facts, conflicts
