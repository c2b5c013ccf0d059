"""Values that cannot be true together, set aside and asked about instead of diagnosed.

A misread fact is worse than a missing one: it drives a confident wrong finding. So a count of nodes in
the thousands, more than 16 GPUs in one machine, or a measurement well above what the NIC can carry
('384 % of the NIC's rating') is not passed to the engine. The reply says what could not be reconciled
and asks; a bonded or multi-NIC node (nic.count) is the usual honest explanation of the last one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bwdoctor.chat.extract import Understood
from bwdoctor.i18n import t

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


def _conflict(facts: tuple[str, ...], key: str, **values: Any) -> Conflict:
    return Conflict(facts, t(f"chat.{key}", "en", **values), t(f"chat.{key}", "zh", **values))


def _busbw_over_wire(nodes: Any, gpus: Any) -> float:
    """How far an all-reduce's bus bandwidth may exceed what each node's NICs carry: busbw counts 2(n-1)/n of the
    data per rank over all n ranks, the wire between machines 2(m-1)/m over m machines ('2 x 8 H100 on 4 x 400G':
    353 GB/s busbw over 200 GB/s of NICs is 1.875 x). 2 when the shape is not known (NVLS/SHARP aside)."""
    if not isinstance(nodes, int) or not isinstance(gpus, int) or nodes < 2 or gpus < 1:
        return 2.0
    ranks = nodes * gpus
    return (2 * (ranks - 1) / ranks) / (2 * (nodes - 1) / nodes)


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
        conflicts.append(_conflict(("job.nodes",), "too_many_nodes", nodes=nodes, text=stated["job.nodes"].text))
    gpus = value("job.gpus_per_node")
    if isinstance(gpus, int | float) and gpus > MAX_GPUS_PER_NODE:
        facts.pop("job.gpus_per_node")
        conflicts.append(_conflict(("job.gpus_per_node",), "too_many_gpus", gpus=gpus,
                                   text=stated["job.gpus_per_node"].text))
    base_gpus, speedup = value("job.baseline_gpus"), value("job.speedup")
    if isinstance(base_gpus, int) and isinstance(speedup, int | float) and value("job.nodes") == 1 \
            and value("job.gpus_per_node") == base_gpus and "job.baseline_nodes" not in facts:
        # s11 same as the baseline: '单机 8 卡，加到 16 卡…只快了 10%' — the job read as its own smaller run; a speed-up
        # between two runs of one size is no comparison, so the job's size is asked, not judged 'healthy' at 110 %
        said = facts.pop("job.gpus_per_node")
        facts.pop("job.nodes")
        conflicts.append(_conflict(("job.gpus_per_node", "job.nodes"), "same_as_the_baseline", gpus=base_gpus,
                                   text=said.text))
    link = value("nic.speed_gbps")
    count = value("nic.count") or 1
    if isinstance(link, int | float) and link > 0:
        capacity = link * count
        for name, scale, unit in (("net.iperf3_gbps", 1.0, "Gb/s"), ("net.rdma_bw_gbps", 1.0, "Gb/s"),
                                  ("nccl.allreduce_busbw_gbytes_per_s", 8.0, "GB/s")):
            measured = value(name)
            room = _HEADROOM * (_busbw_over_wire(value("job.nodes"), value("job.gpus_per_node"))
                                if name.startswith("nccl.") else 1.0)
            if not isinstance(measured, int | float) or measured * scale <= capacity * room:
                continue
            if name.startswith("nccl.") and (value("job.nodes") in (None, 1)):
                continue  # inside one machine NCCL runs over NVLink, far above any NIC
            pct = 100 * measured * scale / capacity
            facts.pop(name)
            conflicts.append(_conflict((name, "nic.speed_gbps"), "above_the_nic", measured=measured, unit=unit,
                                       text=stated[name].text, pct=pct, link=link))
    return facts, conflicts
