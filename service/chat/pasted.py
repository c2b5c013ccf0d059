"""Tool output pasted into a question: find it, hand it to the parser for its tool, keep the rest as prose.

People paste nccl-tests tables, NCCL_DEBUG=INFO lines, iperf3 text or JSON, nvidia-smi and
training-log lines between their sentences. The parsers in `tool_parsers/` read those; the word
extractors must not (a log line '8 GPUs' is not the user's statement), so the blocks are blanked
out of the prose with spaces, keeping every offset of the original question valid.
"""

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tool_parsers.ibstat import parse_ibstat
from tool_parsers.iperf3 import parse_iperf3_json
from tool_parsers.iperf3_text import parse_iperf3_text
from tool_parsers.nccl_log import parse_nccl_log
from tool_parsers.nccl_tests import parse_nccl_tests
from tool_parsers.nvidia_smi import parse_nvidia_smi
from tool_parsers.training_log import parse_training_log

# A line that belongs to tool output rather than to a sentence someone typed.
_TOOL_LINE = re.compile(
    r"NCCL (?:INFO|WARN)|^\s*(?:\[\d+,\d+\]<std(?:out|err)>:)?\s*#|"
    r"^\s*(?:\[\d+,\d+\]<std(?:out|err)>:)?\s*\d+\s+\d+\s+(?:float|half|bfloat16|int8|uint8|int32|double|fp8\w*)\s|"
    r"^\s*\[\s*(?:\d+|SUM|ID)\]\s|^\s*[|+][-=+| ]|^\s*\|.*\|\s*$|NVIDIA-SMI|"
    r"elapsed time per iteration|^\s*iteration\s+\d+/|\d+/\d+\s*\[[\d:]+<[\d:?]+|'loss':|\"loss\":|global_step|"
    r"^\s*step:\s*\d+|train_runtime|Connecting to host|^iperf3?:|Accepted connection|Server listening|"
    r"^\s*CA '|^\s*Port \d+:|^\s*(?:State|Physical state|Rate|Link layer|Base lid|SM lid|Port GUID):|"
    r"^\s*\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}|^\s*GPU\d+\s+(?:X|NV\d+|PIX|PXB|PHB|NODE|SYS)\b|^\s*GPU0\s+GPU1|"
    r"utilization\.gpu|^\s*\d+\s*%,\s*\d+\s*MiB|^\s*[{}\[\]]\s*$|^\s*\"[\w.]+\"\s*:")
_FENCE = re.compile(r"```[\w-]*\n(?P<body>.*?)```", re.DOTALL)


@dataclass
class Pasted:
    """The tool output pasted into one question: where it sits, what it was, and what its parsers found."""

    spans: list[tuple[int, int]] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def start(self) -> int:
        return self.spans[0][0] if self.spans else 0

    @property
    def end(self) -> int:
        return self.spans[-1][1] if self.spans else 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for the turn's record."""
        return {"spans": [list(s) for s in self.spans], "kinds": self.kinds, "facts": self.facts,
                "notes": self.notes}


def split_pasted(text: str) -> tuple[str, list[tuple[int, int]]]:
    """The prose (blocks blanked with spaces, same length) and the (start, end) of each block."""
    spans: list[tuple[int, int]] = []
    for m in _FENCE.finditer(text):
        spans.append((m.start(), m.end()))
    json_span = _json_span(text)
    if json_span:
        spans.append(json_span)
    pos = 0
    run_start = run_end = None
    for line in text.splitlines(keepends=True):
        a, b = pos, pos + len(line)
        pos = b
        inside = any(s <= a < e for s, e in spans)
        if not inside and _TOOL_LINE.search(line):
            run_start = a if run_start is None else run_start
            run_end = b
        elif not inside and not line.strip() and run_start is not None:
            continue  # a blank line inside pasted output
        else:
            if run_start is not None:
                spans.append((run_start, run_end))
            run_start = run_end = None
    if run_start is not None:
        spans.append((run_start, run_end))
    spans = _merge(spans)
    prose = list(text)
    for s, e in spans:
        if "\n" not in text[s:e].rstrip("\n") and not text[s:e].lstrip().startswith(("{", "```")):
            continue  # one line of output amid prose ("Megatron log: elapsed … on 4 nodes"): words read it too
        for i in range(s, e):
            if prose[i] != "\n":
                prose[i] = " "
    return "".join(prose), spans


def _json_span(text: str) -> tuple[int, int] | None:
    start = text.find("{")
    end = text.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        doc = json.loads(text[start:end + 1])
    except ValueError:
        return None
    return (start, end + 1) if isinstance(doc, dict) else None


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for s, e in sorted(spans):
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    return merged


Parser = Callable[[str], tuple[dict[str, Any], list[str]]]


def _iperf3_json(block: str) -> tuple[dict[str, Any], list[str]]:
    result = parse_iperf3_json(block)
    notes = [f"iperf3 reported an error: {result.error}"] if result.error and not result.ok else []
    if result.ok and result.retransmits:
        notes.append(f"iperf3: {result.retransmits} TCP retransmits")
    return result.facts(), notes


def _iperf3_text(block: str) -> tuple[dict[str, Any], list[str]]:
    result = parse_iperf3_text(block)
    notes = [f"iperf3 reported an error: {result.error}"] if result.error else []
    if result.ok and result.retransmits:
        notes.append(f"iperf3: {result.retransmits} TCP retransmits")
    return result.facts(), notes


def _nccl_tests(block: str) -> tuple[dict[str, Any], list[str]]:
    result = parse_nccl_tests(block)
    facts = result.facts()
    notes = []
    if facts and result.avg_busbw_gbytes_per_s is not None:
        notes.append(f"nccl-tests: peak busbw at the largest sizes {facts['nccl.allreduce_busbw_gbytes_per_s']} GB/s "
                     f"(the 'Avg bus bandwidth' {result.avg_busbw_gbytes_per_s} GB/s averages tiny sizes too)")
    return facts, notes


def _nccl_log(block: str) -> tuple[dict[str, Any], list[str]]:
    result = parse_nccl_log(block)
    facts = result.facts()
    # The log also says which fabric NCCL found; record what the parser saw but did not turn into facts.
    if result.transport == "ib":
        facts.setdefault("nic.rdma", True)
        if result.ib_link_layer in {"ib", "roce"}:
            facts.setdefault("nic.kind", "infiniband" if result.ib_link_layer == "ib" else "roce")
    notes = list(result.evidence[:3])
    if result.gdr_partial:
        notes.append("NCCL log: GPUDirect RDMA on some connections only (one node may lack it)")
    return facts, notes


def _training_log(block: str) -> tuple[dict[str, Any], list[str]]:
    result = parse_training_log(block)
    notes = [f"training log: {len(result.step_times_s)} step times ({result.source})"] if result.source else []
    return result.facts(), notes


def _nvidia_smi(block: str) -> tuple[dict[str, Any], list[str]]:
    result = parse_nvidia_smi(block)
    facts = result.facts()
    notes = ["nvidia-smi: one snapshot; utilisation over a minute of training is steadier"] if result.gpus else []
    return facts, notes


def _ibstat(block: str) -> tuple[dict[str, Any], list[str]]:
    return parse_ibstat(block).facts(), []


# Which parser to try for which content; several may apply to one block (NCCL lines inside an
# nccl-tests run).
_ROUTES: list[tuple[str, re.Pattern[str], Parser]] = [
    ("iperf3-json", re.compile(r"\"(?:end|start|intervals)\"\s*:|\"error\"\s*:\s*\"", re.S), _iperf3_json),
    ("iperf3", re.compile(r"bits/sec"), _iperf3_text),
    ("nccl-tests", re.compile(r"busbw|Avg bus bandwidth|out-of-place", re.I), _nccl_tests),
    ("nccl-log", re.compile(r"NCCL (?:INFO|WARN)"), _nccl_log),
    ("nvidia-smi", re.compile(r"NVIDIA-SMI|GPU-Util|utilization\.gpu|^\s*GPU0\s+GPU1|\d+MiB\s*/\s*\d+MiB", re.M),
     _nvidia_smi),
    ("ibstat", re.compile(r"Link layer:|CA type:"), _ibstat),
    ("training-log", re.compile(r"elapsed time per iteration|it/s|s/it|train_runtime|train_steps_per_second|"
                                r"train_step_timing|global_step|step:\s*\d+|iteration\s+\d+/", re.I), _training_log),
]


def parse_pasted(text: str) -> tuple[str, Pasted]:
    """Prose with the pasted output blanked, and the facts the parsers found in that output.

    All blocks are parsed together: one run of output is often split by a line the extractor took
    for prose (an mpirun banner, a blank line with a stray word), and the parsers want the whole run.
    """
    prose, spans = split_pasted(text)
    pasted = Pasted(spans=spans)
    if not spans:
        return prose, pasted
    bodies = []
    for s, e in spans:
        body = text[s:e]
        fence = _FENCE.fullmatch(body.strip())
        bodies.append(fence["body"] if fence else body)
    body = "\n".join(bodies)
    for kind, pattern, parser in _ROUTES:
        if not pattern.search(body):
            continue
        try:
            facts, notes = parser(_json_only(body) if kind == "iperf3-json" else body)
        except Exception as exc:  # a parser bug must not lose the rest of the question
            pasted.notes.append(f"{kind}: could not parse ({type(exc).__name__})")
            continue
        if facts or notes:
            pasted.kinds.append(kind)
            for key, value in facts.items():
                pasted.facts.setdefault(key, value)
            pasted.notes.extend(notes)
    return prose, pasted


def _json_only(body: str) -> str:
    span = _json_span(body)
    return body[span[0]:span[1]] if span else body
