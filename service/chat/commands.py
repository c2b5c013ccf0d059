"""Command lines and environment settings in a question: read as what they configure, never as results.

'mpirun -np 32 … all_reduce_perf -b 8M -e 8G -g 8' says how a test was launched: 32 processes, sizes
from 8 MB, 8 GPUs per process — not 32 nodes and not an 8 MB/s bandwidth. This layer finds command
lines (on their own line, in backticks, or inline after a launcher word) and `NCCL_*` assignments,
turns the arguments that describe the job into facts (`--nnodes 2` → job.nodes), and blanks both out
of the prose so the word readers never see their numbers. Every number inside is accounted for as a
command-line argument.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from typing import Any

_LAUNCHER = (r"(?:sudo\s+)?(?:[A-Z_][A-Z0-9_]*=\S+\s+)*(?:mpirun|mpiexec|horovodrun|torchrun|deepspeed|srun|sbatch|"
             r"salloc|accelerate\s+launch|python3?\s+-m\s+torch\.distributed\.(?:launch|run)|"
             r"python3?\s+\S+\.py|(?:\./)?(?:build/)?(?:all_reduce|all_gather|reduce_scatter|alltoall|sendrecv|"
             r"broadcast|reduce)_perf(?:_mpi)?|ib_(?:write|read|send)_(?:bw|lat)|iperf3?|ping|ethtool|"
             r"nvidia-smi|ibstat|ibv_devinfo|lspci|ip\s+(?:addr|link|route|a)|docker\s+run|kubectl|"
             r"composer|llamafactory-cli|colossalai\s+run|NCCL_\w+=)")
_LINE_COMMAND = re.compile(rf"^[ \t]*(?:\$\s*|#\s*|>\s*)?(?P<cmd>{_LAUNCHER}[^\n]*)$", re.M)
_BACKTICK = re.compile(r"`(?P<cmd>[^`\n]+)`")
# A launcher inside a sentence: the command runs to the end of the clause of arguments.
_INLINE = re.compile(rf"(?<![\w/])(?P<cmd>{_LAUNCHER}(?:\s+(?:-{{1,2}}[\w.\-]+(?:[= ][^\s,，。;；]+)?|"
                     rf"[^\s,，。;；]*[/=.:_\-\d][^\s,，。;；]*|[A-Za-z_]+\.py))+)")
_ENV = re.compile(r"(?:(?:export|set|-x|--env|-e)\s+)?(?P<name>NCCL_[A-Z0-9_]+|FI_[A-Z0-9_]+|UCX_[A-Z0-9_]+|"
                  r"CUDA_VISIBLE_DEVICES|OMP_NUM_THREADS|GLOO_SOCKET_IFNAME|TP_SOCKET_IFNAME)"
                  r"\s*(?:=|:|：|\s+(?:is\s+)?(?:set\s+)?(?:to|=|设为|设置为|设成|为)\s*)\s*(?P<value>\"[^\"]*\"|'[^']*'|"
                  r"[^\s,，。;；`\"']+(?:,[^\s,，。;；`\"']+)*)")


_ENV_ZH = re.compile(r"(?P<name>NCCL_[A-Z0-9_]+)\s*[^\n=，。,;；`]{0,12}?"
                     r"(?:设成了?|设为|设置为|设置成|配置成|改成|设的是|用的是)\s*(?P<value>[A-Za-z0-9_.^\-]+)")


@dataclass
class Commands:
    """What the command lines and settings in a question say, and where they sit."""

    spans: list[tuple[int, int]] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)
    fact_spans: dict[str, tuple[int, int]] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    texts: list[str] = field(default_factory=list)


def read_commands(text: str) -> Commands:
    """Find command lines and NCCL_* settings; facts from the arguments that describe the job."""
    found = Commands()
    spans: list[tuple[int, int]] = []
    for pattern in (_LINE_COMMAND, _BACKTICK, _INLINE):
        for m in pattern.finditer(text):
            a, b = m.start("cmd"), m.end("cmd")
            body = m["cmd"]
            if pattern is _BACKTICK and not (re.match(_LAUNCHER, body.strip()) or _ENV.search(body)
                                             or body.strip().startswith("-")):
                continue
            if any(a < e and s < b for s, e in spans) or not _looks_like_command(body):
                continue
            spans.append((a, b))
            found.texts.append(body.strip())
            _command_facts(body, a, found)
    for m in _ENV_ZH.finditer(text):  # 'NCCL_SOCKET_IFNAME 我两边都设成了 lo'
        if m["name"] not in found.env:
            found.env[m["name"]] = m["value"]
            _env_facts(m["name"], m["value"], (m.start(), m.end()), found)
    for m in _ENV.finditer(text):
        value = m["value"].strip("\"'")
        found.env[m["name"]] = value
        if not any(s <= m.start() < e for s, e in spans):
            spans.append((m.start(), m.end()))
        _env_facts(m["name"], value, (m.start(), m.end()), found)
    found.spans = sorted(spans)
    return found


def _looks_like_command(body: str) -> bool:
    """'iperf3 -c host -P 8' is a command; 'iperf3 between our two boxes shows 3.2 Gbits/sec' is a sentence."""
    tokens = body.split()
    if len(tokens) <= 1:
        return bool(re.match(r"NCCL_\w+=", body.strip()))
    words = [t for t in tokens[1:] if re.fullmatch(r"[A-Za-z\u4e00-\u9fff]{2,}[,.;:]?", t)]
    options = [t for t in tokens if t.startswith("-") or "=" in t]
    return bool(options) and len(words) <= max(2, len(tokens) // 3)


def blank(text: str, spans: list[tuple[int, int]]) -> str:
    """The text with the given spans turned into spaces (offsets kept)."""
    chars = list(text)
    for a, b in spans:
        for i in range(a, b):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)


def _args(body: str) -> list[str]:
    try:
        return shlex.split(body)
    except ValueError:
        return body.split()


def _int(value: str | None) -> int | None:
    if value is None:
        return None
    m = re.match(r"^(\d+)(?::(\d+))?$", value.strip())
    if not m:
        return None
    return int(m.group(2) or m.group(1))


def _option(args: list[str], *names: str) -> str | None:
    for i, arg in enumerate(args):
        for name in names:
            if arg == name and i + 1 < len(args):
                return args[i + 1]
            if arg.startswith(name + "="):
                return arg.split("=", 1)[1]
    return None


def _put(found: Commands, fact: str, value: Any, span: tuple[int, int]) -> None:
    if value is not None and fact not in found.facts:
        found.facts[fact] = value
        found.fact_spans[fact] = span


def _command_facts(body: str, offset: int, found: Commands) -> None:
    """The job's shape from launcher arguments: torchrun, deepspeed, accelerate, srun, mpirun/horovodrun."""
    args = _args(body)
    span = (offset, offset + len(body))
    mpi = bool(re.match(r"\s*(?:sudo\s+)?(?:mpirun|mpiexec|horovodrun)", body))
    # '-N' is machines to srun and processes per machine to mpirun.
    nodes = _int(_option(args, "--nnodes", "--num_nodes", "--num-nodes", "--num_machines", "--num-machines",
                         "--nodes", *(() if mpi else ("-N",))))
    per_node = _int(_option(args, "--nproc_per_node", "--nproc-per-node", "--num_gpus", "--num-gpus",
                            "--gpus-per-node", "--ntasks-per-node", "--npernode", "-npernode",
                            *(("-N",) if mpi else ())))
    processes = _int(_option(args, "-np", "-n", "--num_processes", "--num-processes", "--ntasks"))
    hosts = _option(args, "-H", "--host", "--hosts")
    if hosts and re.fullmatch(r"[\w.\-]+(?::\d+)?(?:,[\w.\-]+(?::\d+)?)+", hosts):
        entries = hosts.split(",")
        nodes = nodes or len(entries)
        slots = {e.split(":")[1] for e in entries if ":" in e}
        if len(slots) == 1:
            per_node = per_node or int(slots.pop())
    if processes and nodes and not per_node and processes % nodes == 0:
        per_node = processes // nodes
    if processes and per_node and not nodes and processes % per_node == 0:
        nodes = processes // per_node
    shm = re.search(r"--shm-size[= ](\d+(?:\.\d+)?)([gmk])?b?", body, re.IGNORECASE)
    if shm:
        size = float(shm.group(1)) * {"g": 1.0, "m": 0.001, "k": 0.000001}.get((shm.group(2) or "g").lower(), 1.0)
        _put(found, "container.shm_gbytes", round(size, 6), span)
    if re.search(r"--ipc[= ]host", body):
        _put(found, "container.ipc_host", True, span)
    if nodes:
        _put(found, "job.nodes", nodes, span)
    if per_node and per_node <= 16:
        _put(found, "job.gpus_per_node", per_node, span)


# NCCL settings that are facts of the catalogue.
_ENV_FACTS: dict[str, tuple[str, Any]] = {
    "NCCL_IB_DISABLE": ("nccl.ib_disabled", bool),
    "NCCL_P2P_DISABLE": ("nccl.p2p_disabled", bool),
    "NCCL_SOCKET_IFNAME": ("nccl.socket_ifname", str),
    "NCCL_IB_HCA": ("nccl.ib_hca", str),
    "NCCL_IB_GID_INDEX": ("nic.gid_index", int),
}


def _env_facts(name: str, value: str, span: tuple[int, int], found: Commands) -> None:
    fact = _ENV_FACTS.get(name)
    if fact is None:
        return
    key, kind = fact
    if kind is bool:
        if value.strip() in {"0", "1"}:
            _put(found, key, value.strip() == "1", span)
    elif kind is int:
        if value.strip().isdigit():
            _put(found, key, int(value.strip()), span)
    elif value:
        _put(found, key, value, span)
