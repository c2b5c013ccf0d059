"""Machines of different GPUs compared with each other: two single-machine runs, not one job across them.

'我有两台服务器，一台 8×H100，一台 8×A100 … 两台上用同样的命令，为什么 A100 反而更快？', 'one box with 8 H100s and
another with 8 A100s: the same script is slower on the H100 one'. Each machine is described by its own GPUs, the
GPUs differ, and the question sets one against the other: the count of those machines ('两台', 'two servers') is
how many boxes are compared, not the nodes of a job. A job said to run across them ('多机训练', 'multi-node',
'across both machines', a launcher's node count) keeps its count: heterogeneous clusters exist.
"""

from __future__ import annotations

import re

from bwdoctor.chat.entities import GPU_MARK, Entity
from bwdoctor.chat.extract import Understood

_IC = re.IGNORECASE
_G = f"{GPU_MARK}+"
_NODE_EN = r"(?:box|node|machine|server|host|instance|VM|workstation)"
_GPUS = rf"(?:\d{{1,2}}\s*(?:[x×*]|张|块|卡|-)?\s*)?{_G}"
# One machine named with the GPUs it holds, at the GPU mark: '一台 8×H100', '另一台是 8 张 A100', 'one box with 8
# H100s', 'an 8xA100 server', 'the other node has 4 A100s'.
_ONE_BOX = re.compile(
    rf"(?:另外|另)?一(?:台|个节点)(?:机器|服务器|主机|节点)?\s*(?:上)?\s*(?:是|有|装了?|配了?|插了?|为|[:：])?\s*(?P<zh>{_GPUS})|"
    rf"(?<![A-Za-z])(?:one|another|the other|a second)(?:\s+{_NODE_EN})?\s+(?:with|has|having|of|holding|is|runs?)\s+"
    rf"(?:an?\s+)?(?P<en>{_GPUS})|"
    rf"(?<![A-Za-z])(?:an?|one|another|the other|a second)\s+(?P<en2>{_GPUS})s?\s*{_NODE_EN}(?![A-Za-z])", _IC)
# the two set against each other: a comparison of speed or time, or the same command run on each
_COMPARED = re.compile(r"比|更快|更慢|反而|不如|快得多|慢得多|差不多|(?:同样|相同)的(?:命令|脚本|代码|配置)|"
                       r"(?<![A-Za-z])(?:than|faster|slower|vs\.?|versus|compared|"
                       r"the same (?:command|script|code|config))(?![A-Za-z])", _IC)
# one job across the machines: then their count is the job's nodes
_ONE_JOB = re.compile(r"多机|跨机|多节点|双机|联合训练|一起训练|一起跑|组网|分布式训练|(?<![A-Za-z])(?:multi-?node|"
                      r"across (?:both|the two|two|the) (?:machines|nodes|servers|boxes)|together|nnodes|"
                      r"inter-?node)(?![A-Za-z])", _IC)


def _models_boxed(text: str, entities: list[Entity]) -> set[str]:
    """The GPU models of the machines described one by one with their GPUs."""
    where = {e.start: e.name for e in entities if e.kind == "gpu"}
    models = set()
    for m in _ONE_BOX.finditer(text):
        group = "zh" if m["zh"] else "en" if m["en"] else "en2"
        mark = text.find(GPU_MARK, m.start(group), m.end(group))
        if mark in where:
            models.add(where[mark])
    return models


def machines_compared(text: str, entities: list[Entity], hits: list[Understood]) -> list[Understood]:
    """Drop the count of machines that are compared with each other rather than joined in one job."""
    models = _models_boxed(text, entities)
    if len(models) < 2 or not _COMPARED.search(text) or _ONE_JOB.search(text):
        return hits
    return [h for h in hits if not (h.fact == "job.nodes" and h.value == len(models))]
