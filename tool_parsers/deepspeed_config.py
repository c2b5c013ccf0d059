"""A DeepSpeed config (``ds_config.json``) as people paste it → the facts of the job it sets up.

Pasted whole, cut short or inline in a sentence (``"zero_optimization": {"stage": 1}``), so it is read key by key
rather than as one JSON document: ``zero_optimization.stage`` → ``job.zero_stage`` (and the sharded data parallelism
it is, ``job.parallelism`` fsdp; stage 0 is plain data parallel), ``train_micro_batch_size_per_gpu`` →
``job.micro_batch_size``, ``gradient_accumulation_steps`` → ``job.grad_accum_steps``, ``train_batch_size`` →
``job.global_batch_size``, ``"bf16"``/``"fp16"`` with ``"enabled": true`` → ``job.precision``. A value DeepSpeed fills
in itself (``"auto"``) says nothing.
"""

from __future__ import annotations

import re
from typing import Any

#: Where a paste is a DeepSpeed config: one of its own keys, quoted, with a value.
ROUTE = re.compile(
    r"\"(?:zero_optimization|train_micro_batch_size_per_gpu|gradient_accumulation_steps|train_batch_size)\""
    r"\s*:|\"(?:bf16|bfloat16|fp16)\"\s*:\s*\{\s*\"enabled\""  # s13 the precision blocks alone
)

_STAGE = re.compile(r"\"zero_optimization\"\s*:\s*\{[^{}]*?\"stage\"\s*:\s*\"?(?P<n>[0-3])\b")
_INTS = {
    "train_micro_batch_size_per_gpu": "job.micro_batch_size",
    "gradient_accumulation_steps": "job.grad_accum_steps",
    "train_batch_size": "job.global_batch_size",
}
_PRECISION = re.compile(
    r"\"(?P<p>bf16|bfloat16|fp16)\"\s*:\s*\{[^{}]*?\"enabled\"\s*:\s*(?P<on>true|false|\"auto\")", re.IGNORECASE
)


def parse_deepspeed_config(text: str) -> dict[str, Any]:
    """The facts a DeepSpeed config sets (empty when it sets none of them)."""
    facts: dict[str, Any] = {}
    if stage := _STAGE.search(text):
        facts["job.zero_stage"] = int(stage["n"])
        facts["job.parallelism"] = "fsdp" if int(stage["n"]) >= 1 else "data"
    for key, fact in _INTS.items():
        m = re.search(rf"\"{key}\"\s*:\s*(?P<n>\d{{1,6}})\b", text)
        if m and int(m["n"]) >= 1:
            facts[fact] = int(m["n"])
    for m in _PRECISION.finditer(text):
        if m["on"].lower() == "true":
            facts["job.precision"] = "fp16" if m["p"].lower() == "fp16" else "bf16"
            break
    return facts
