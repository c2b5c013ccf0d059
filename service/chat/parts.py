"""GPUs given to one part of a job: a share of the machine's cards, not how many the job has.

RL and RLHF jobs split a machine's GPUs between the trainer and a part that only runs forward: the generation engine
(vLLM, SGLang), a reward, reference or critic model, an inference server. A count said of that part ('试过把 vLLM 放到 2
张卡上', 'vLLM on 1 GPU', 'dedicate 2 GPUs to the reward model', '用 1 张卡做生成') says how the cards were shared;
beside a count said for the job ('8*A800') it is no job.gpus_per_node. Said alone it is left as read: the part may be
all the question is about.
"""

from __future__ import annotations

import re

from bwdoctor.chat import text as tx
from bwdoctor.chat.extract import Understood

_IC = re.IGNORECASE
_COUNT_FACTS = {"job.gpus_per_node", "gpu.count", "job.nodes"}
# the parts of a job that run beside the trainer on some of its cards
_PART = (r"(?:(?<![A-Za-z])(?:vllm|sglang|TGI|rollouts?|generation|generat(?:e|ing) (?:the )?completions|"
         r"inference (?:server|engine|worker)s?|reward[_ ]model|RM|ref(?:erence)?[_ ]model|critic(?: model)?|"
         r"judge(?: model)?)(?![A-Za-z])|推理(?:服务|引擎)?|生成|采样|奖励模型|参考模型|打分模型|评判模型)")
# the count placed under the part: the part named before it in its clause ('把 vLLM 放到 2 张卡上', 'vLLM on 2 GPUs',
# 'vllm uses 1 GPU'), or the cards said to be for it after ('2 GPUs for vLLM', '1 张卡给 vLLM', '2 张卡做生成')
_PART_BEFORE = re.compile(rf"{_PART}[^，,。.;；\n]{{0,24}}$", _IC)
_FOR_PART_AFTER = re.compile(rf"^[^，,。.;；\n]{{0,12}}?(?:(?<![A-Za-z])(?:for|to|dedicated to|reserved for|running)\s+"
                             rf"(?:the\s+)?|给|留给|用于|用来|跑|做|专门|单独)\s*{_PART}", _IC)


def drop_counts_of_a_part(text: str, hits: list[Understood]) -> list[Understood]:
    """Counts of GPUs said of a part of the job (above) left out where a GPU count of another value is said besides."""
    gpus = [h for h in hits if h.fact in ("job.gpus_per_node", "gpu.count") and h.source == "words"]
    part = {h.start for h in gpus if _of_a_part(text, h)}
    if not part or not {h.value for h in gpus if h.start not in part} - {h.value for h in gpus if h.start in part}:
        return hits
    return [h for h in hits if not (h.fact in _COUNT_FACTS and h.start in part)]


def _of_a_part(text: str, h: Understood) -> bool:
    a, b = tx.clause_bounds(text, h.start)
    return bool(_PART_BEFORE.search(text, a, h.start) or _FOR_PART_AFTER.search(text[h.end:b]))
