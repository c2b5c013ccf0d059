"""Command lines and environment settings in a question: read as what they configure, never as results.

'mpirun -np 32 … all_reduce_perf -b 8M -e 8G -g 8' says how a test was launched: 32 processes, sizes
from 8 MB, 8 GPUs per process — not 32 nodes and not an 8 MB/s bandwidth. This layer finds command
lines (on their own line, in backticks, or inline after a launcher word) and `NCCL_*` assignments,
turns the arguments that describe the job into facts (`--nnodes 2` → job.nodes), and blanks both out
of the prose so the word readers never see their numbers. Every number inside is accounted for as a
command-line argument.

Framework arguments and config names say how the job is set up, in a command line or quoted alone in a
sentence: `--per_device_train_batch_size 4`, `--tensor-model-parallel-size 4`, `--bf16`, `cutoff_len: 2048`,
`ds_z3_config.json` (ZeRO-3). A setting asked about ('should I set --bf16?', 'what if we used
--nproc_per_node 4') is a change to try, not the job: it goes to `proposed`, never to `facts`.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bwdoctor.chat import text as tx
from bwdoctor.chat.batches import splits_the_batch
from bwdoctor_parsers.nccl_env import labelled_runs, shell_value

_LAUNCHER = (r"(?:sudo\s+)?(?:[A-Z_][A-Z0-9_]*=\S+\s+)*(?:mpirun|mpiexec|horovodrun|torchrun|deepspeed|srun|sbatch|"
             r"SBATCH\s+-|salloc|accelerate\s+launch|python3?\s+-m\s+[A-Za-z_][\w.]*|swift\s+(?:sft|pt|rlhf)|"
             r"python3?\s+\S+\.py|(?:\./)?(?:build/)?(?:all_reduce|all_gather|reduce_scatter|alltoall|sendrecv|"
             r"broadcast|reduce)_perf(?:_mpi)?|ib_(?:write|read|send)_(?:bw|lat)|iperf3?|ping|ethtool|"
             r"nvidia-smi|ibstat|ibv_devinfo|lspci|ip\s+(?:addr|link|route|a)|ifconfig|docker\s+run|kubectl|"
             r"composer|llamafactory-cli|colossalai\s+run|fleetrun|NCCL_\w+=|(?:ba)?sh\s+\S*dist_train\.sh)")
_LINE_COMMAND = re.compile(rf"^[ \t]*(?:\$\s*|#\s*|>\s*)?(?P<cmd>{_LAUNCHER}[^\n]*)$", re.M)
# s29 a shell line's continuation: 'python train.py … --amp \\' then '    --model resnet50 -j10' is one command (the
# backslash and the break read as spaces, same length, whether or not the break was already softened), when the next
# line goes on with an option
_CONTINUED = re.compile(r"(?<=[ \t])\\[ \t]*\n(?=[ \t]*-{1,2}[A-Za-z])|(?<=[ \t])\\(?=[ \t]+-{1,2}[A-Za-z])")
_SCRIPT_LINE = re.compile(r"^[ \t]*(?:[A-Z_][A-Z0-9_]*=\S+\s+)*python3?\s+[\w./\-]+\.py(?![\w])", re.M)


def _continued(text: str) -> str:
    """The text with a training script's continuation backslashes blanked (same length), so that its command reads
    whole: only a '*.py' script run by python, whose short options ('-j10') the next lines carry."""
    chars = list(text)
    for m in _CONTINUED.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        first = line_start
        while first > 0 and re.search(r"\\[ \t]*\n$", text[max(0, first - 80):first]):
            first = text.rfind("\n", 0, first - 1) + 1  # back to the command's first line
        if _SCRIPT_LINE.match(text, first) or _SCRIPT_LINE.match(text, line_start):
            chars[m.start():m.end()] = " " * (m.end() - m.start())
    return "".join(chars)
_BACKTICK = re.compile(r"`(?P<cmd>[^`\n]+)`")
# A launcher inside a sentence: the command runs to the end of the clause of arguments.
# (a comma inside an argument, '-H a:8,b:8', is part of it; a comma before a space ends the clause)
_ARG = r"(?:[^\s,，。;；?？]|,(?=\S))"
_INLINE = re.compile(rf"(?<![\w/])(?P<cmd>{_LAUNCHER}(?:\s+(?:-{{1,2}}[\w.\-]+(?:[= ]{_ARG}+)?|"
                     rf"{_ARG}*[/=.:_\-\d]{_ARG}*|[A-Za-z_]+\.py))+)")
_ENV = re.compile(r"(?:(?:export|set|-x|--env|-e)\s+)?(?P<name>NCCL_[A-Z0-9_]+|FI_[A-Z0-9_]+|UCX_[A-Z0-9_]+|"
                  r"CUDA_VISIBLE_DEVICES|OMP_NUM_THREADS|GLOO_SOCKET_IFNAME|TP_SOCKET_IFNAME|"
                  # cnt CaffeOnSpark's and other launchers' 'DEVICES=1': the GPUs each worker machine runs
                  r"(?<![A-Za-z_])DEVICES(?==\d))"
                  r"\s*(?:=|:|：|->|→|=>|为|设为|设置为|设成|"
                  # s13 thread 'Turns out NCCL_SOCKET_IFNAME was set to eth0'
                  r"\s+(?:(?:is|was|are|were|got|has been|had been)\s+)?(?:set\s+)?(?:to|=|设为|设置为|设成|为)\s*|"
                  # python's environment: 'os.environ["NCCL_IB_DISABLE"] = "1"', 'os.environ.setdefault("NCCL_…", "x")'
                  r"[\"']\s*\]\s*=|[\"']\s*,\s*(?=[\"'])|"
                  # said in words with 'is': 'NCCL_SOCKET_IFNAME is eth1', 'NCCL_IB_DISABLE is 1' (a device, a number)
                  r"\s+(?:is|was)\s+(?=(?:(?:eth|ens|enp|eno|ib|bond|em|en|net|mlx5_)\w*|\d{1,3})(?![\w.]))|"
                  # '… 是 bond0', or the name and an interface apart as in a listing: 'NCCL_SOCKET_IFNAME eth0'
                  r"\s*是(?!否|不是)\s*|[ \t]+(?=(?:eth|ens|enp|eno|ib|bond|em|net)\w*\d\w*(?![\w\-]|\.\w)))"
                  r"\s*(?P<value>\"[^\"]*\"|'[^']*'|"
                  # a comma-separated value stops before another variable ('--export=ALL,NCCL_A=ib0,NCCL_B=1')
                  r"[^\s,，。;；`\"'?？!！()（）]+(?:,(?![A-Za-z_]\w*=)[^\s,，。;；`\"'?？!！()（）]+)*(?<![.:]))")


_ENV_ZH = re.compile(r"(?P<name>NCCL_[A-Z0-9_]+)\s*[^\n=，。,;；`]{0,12}?"
                     # job-s11 set verbs: 'NCCL_SOCKET_IFNAME 设置的是 bond0', '指定为 ens3', '配置为 mlx5_0'
                     r"(?:设成了?|设为|设置为|设置成|设置的是|设置了|设定为|配置成|配置为|配置的是|指定为|指定成|指定的是|指定了|"
                     r"改成了?|改为|设的是?|用的是|指定的|设置的)\s*(?:了\s*)?(?P<value>[A-Za-z0-9_.^:\-]+(?:,[A-Za-z0-9_.^:\-]+)*(?<![.:]))")


# A row of a markdown table of settings typed in the question: '| NCCL_SOCKET_IFNAME | eth0 |', '| `NCCL_IB_GID_INDEX` |
# `3` | RoCE v2 |' (a third cell of words at most: '| NCCL_IB_DISABLE | 1 | 0 |' compares two runs, neither the job;
# the row may run on into the next line's words, the reader's lines being joined)
_ENV_TABLE = re.compile(r"\|[ \t]*`?(?P<name>NCCL_[A-Z0-9_]+)`?[ \t]*\|[ \t]*`?(?P<value>[A-Za-z0-9_.^:\-]+"
                        r"(?:,[A-Za-z0-9_.^:\-]+)*)`?[ \t]*\|"
                        r"(?=[^|\n]*(?:\n|$)|[^|\n\d]*[A-Za-z\u4e00-\u9fff]{2}[^|\n]*\|)")


# Several settings given one value: 'set GLOO_SOCKET_IFNAME and NCCL_SOCKET_IFNAME both to enp4s0',
# 'NCCL_SOCKET_IFNAME 和 GLOO_SOCKET_IFNAME 都设成了 eth0' (a verb of setting: 'NCCL_A, NCCL_B=1' gives 1 to one)
_SETTING_NAME = r"(?:NCCL|GLOO|TP|UCX)_[A-Z0-9_]+"
_ENV_SHARED = re.compile(rf"(?P<names>{_SETTING_NAME}(?:\s*(?:,|，|、|/|and|&|和|与|以及)\s*{_SETTING_NAME})+)\s*"
                         r"(?:(?:are|were|both|all|都|均|全部|也)\s*)*"
                         r"(?:(?:(?:are|were)\s+)?(?:both\s+|all\s+)?(?:set\s+)?to|设成了?|设为|设置为|设置成|设置的是|指定为|改成了?|改为)"
                         r"\s*`?(?P<value>[A-Za-z0-9_.^:\-]+(?:,[A-Za-z0-9_.^:\-]+)*(?<![.:]))")


# A setting named after its value: 'the default `eth0` (always given an IP) is used for NCCL_SOCKET_IFNAME'.
_ENV_REVERSED = re.compile(r"(?<![\w])`?(?P<value>(?:eth|ens|enp|eno|ib|bond|net)\d[\w.\-]{0,12})`?[^.。;；\n]{0,60}?"
                           r"(?:is|was|are|gets?)\s+(?:used|set|picked|chosen)\s+(?:for|as)\s+(?:the\s+)?"
                           r"(?P<name>NCCL_SOCKET_IFNAME|GLOO_SOCKET_IFNAME)|"
                           # 'we pinned NCCL to eth1 via NCCL_SOCKET_IFNAME', 'NCCL is forced onto ib0 with …'
                           # ('I pointed NCCL at ens3 with NCCL_SOCKET_IFNAME')
                           r"(?:(?:pinned|bound|restricted|forced|limited|told|pointed|set)\s+NCCL|NCCL\s+(?:is|was)\s+"
                           r"(?:pinned|bound|restricted|forced|limited|set|pointed))\s+(?:(?:on)?to|at)\s+"
                           r"(?:use\s+)?`?(?P<value2>(?:eth|ens|enp|eno|ib|bond|net)\d[\w.\-]{0,12})`?\s+(?:via|with|using|"
                           r"through|by)\s+(?:the\s+)?`?(?P<name2>NCCL_SOCKET_IFNAME)", re.IGNORECASE)


@dataclass
class Commands:
    """What the command lines and settings in a question say, and where they sit."""

    spans: list[tuple[int, int]] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)
    fact_spans: dict[str, tuple[int, int]] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    texts: list[str] = field(default_factory=list)
    # Settings asked about ('should I set --bf16?'): a what-if, kept apart from the job's facts.
    proposed: dict[str, Any] = field(default_factory=dict)
    proposed_spans: dict[str, tuple[int, int]] = field(default_factory=dict)


# a measuring tool named, then straight away a figure with a rate's unit: its result said in words, no command line
_TOOL_THEN_FIGURE = re.compile(r"\s*(?:iperf3?|ib_(?:write|read|send)_bw|(?:\./)?(?:build/)?all_reduce_perf)\s+"
                               r"(?:(?:shows?|gives?|gets?|reports?|says?|is|was|=|:|：|测得|测出|只有|跑出)\s*)?(?:~|≈|about\s+)?"
                               r"\d+(?:\.\d+)?\s*(?:[GMK]bits?/s(?:ec)?|[GMK]bps|[GMK]B/s|[GMK]b/s|GBytes)",
                               re.IGNORECASE)


def read_commands(text: str, set_aside: Callable[[int], bool] | None = None) -> Commands:
    """Find command lines, framework settings and NCCL_* settings; facts from what describes the job.

    `set_aside(pos)`: whether a command starting at pos is someone else's (a maintainer's reproduction in the thread):
    its numbers are accounted for, its facts are not the job's."""
    found = Commands()
    text = _continued(text)
    spans: list[tuple[int, int]] = []
    read: list[tuple[dict[str, Any], tuple[int, int]]] = []  # facts of each command or setting, with its span
    whole_batch = splits_the_batch(text)  # a bare '--batch-size 520' under YOLO or MXNet is the whole step's batch
    micro_option = _MICRO_OPTION.search(text)  # beside it, '--train_batch_size' is the global batch
    training_workers = bool(TRAINING_WORKERS.search(text))
    for pattern in (_LINE_COMMAND, _BACKTICK, _INLINE):
        for m in pattern.finditer(text):
            a, b = m.start("cmd"), m.end("cmd")
            body = m["cmd"]
            if pattern is _BACKTICK and not (re.match(_LAUNCHER, body.strip()) or _ENV.search(body)
                                             or body.strip().startswith("-")):
                continue
            if _TOOL_THEN_FIGURE.match(body):
                continue  # 'iperf3 9.41 Gbits/sec (one stream), 9.9 with -P 4': a tool named with its result, in words
            prose_after = _CJK_OUTSIDE_QUOTES.search(body)
            if prose_after and pattern is not _BACKTICK:
                # 'iperf3 -c 10.0.0.2 -P 4 跑出来 18.6 Gbits/sec，网卡 25G': a command ends where Chinese words begin
                body = body[:prose_after.end()].rstrip()
                b = a + len(body)
            said = _RESULT_SAID.search(body) if pattern is not _BACKTICK else None
            if said:
                # '… all_reduce_perf -b 8M -e 1G gives 3.2 GB/s busbw': the words after the arguments say its result
                body = body[:said.start()].rstrip()
                b = a + len(body)
            # en-s10: 'NCCL_DEBUG=INFO says "NET/IB : Using …"': settings, then a verb of saying begins the words
            told = re.match(r"(?:[A-Z][A-Z0-9_]*=\S+\s+)+(?=(?:says|said|shows|showed|prints|printed|reports|"
                            r"reported|gives|gave|outputs|logs|indicates|tells)\b)", body)
            if told and pattern is _LINE_COMMAND:
                body, b = body[:told.end()].rstrip(), a + len(body[:told.end()].rstrip())
            ended = _SENTENCE_AFTER.search(body) if pattern is _LINE_COMMAND else None
            if ended and _looks_like_command(body) and _looks_like_command(body[:ended.start()]) \
                    and not re.search(r"(?:^|\s)-{1,2}[A-Za-z]|\w=\S", body[ended.end():]):
                # en-s12b 'accelerate launch … train.py. Network is 25GbE.': a dot and a space end the command, when
                # no option or setting follows (those still are the command's)
                body, b = body[:ended.start()], a + ended.start()
            settings = _SETTINGS_THEN_WORDS.match(body) if pattern is _LINE_COMMAND else None
            if settings:  # counts-s11 settings, then words: 'NCCL_MIN_NCHANNELS=16 NCCL_NTHREADS=512, 2 nodes'
                body, b = body[:settings.end()].rstrip(), a + len(body[:settings.end()].rstrip())
            if pattern is _LINE_COMMAND and not _looks_like_command(body):
                # a command line that ran into the next sentence when line breaks were softened: keep its arguments
                # (after a setting, 'NCCL_SOCKET_IFNAME=eth0 across 2 nodes', a count inside the words is one of them)
                # (s14 never a script's argument after its file: 'bash dist_train.sh configs/x.py 8')
                count = r"|(?<!\.py\s)(?<!\.yaml\s)(?<!\.yml\s)\d+(?=\s+[A-Za-z\u4e00-\u9fff]{2,})" \
                    if re.match(r"[A-Z][A-Z0-9_]*=\S+\s", body) else ""
                sentence = re.search(rf"\s+(?:(?:[A-Za-z\u4e00-\u9fff]{{2,}}{count})[,.;:]?\s+){{2,}}", body)
                if sentence and _looks_like_command(body[:sentence.start()]):
                    body, b = body[:sentence.start()], a + sentence.start()
            if any(a < e and s < b for s, e in spans) or not _looks_like_command(body):
                continue
            spans.append((a, b))
            found.texts.append(body.strip())
            read.append((_command_facts(body, whole_batch=whole_batch, training_workers=training_workers), (a, b)))
    if _SLURM.search(text):  # counts-s11 slurm: '用 slurm 提交，-N 4 --gpus-per-node=8': srun's machines, quoted alone
        for m in _SLURM_NODES.finditer(text):
            if not any(s <= m.start() < e for s, e in spans):
                spans.append((m.start(), m.end()))
                read.append(({"job.nodes": int(m["n"])}, (m.start(), m.end())))
    for pattern in (_PROSE_OPTION, _CONFIG_SETTING, _VALUE_FIRST_SETTING, _CONFIG_NAME):  # settings alone in a sentence
        for m in pattern.finditer(text):
            if any(s <= m.start() < e for s, e in spans):
                continue
            setting = m.group(0)
            if pattern is _VALUE_FIRST_SETTING:
                if re.search(r"[A-Za-z]\w*[_-][\w-]*\s*[:=]?\s*$", text[max(0, m.start() - 60):m.start()]):
                    continue  # the value of the setting named before it
                setting = f"{m['key']}={m['value']}"
            if pattern is _CONFIG_SETTING:
                # 'precision 16' is prose; 'cutoff_len 2048', 'accum-grad 4' are settings
                if m["spaced"] and not re.search(r"[_-]", m["key"]):
                    continue
                if m["key"].lower() in {"bf16", "fp16", "fp8"} and (m["value"] or "").lower() not in _TRUE | _FALSE:
                    continue  # 'bf16: 989 TFLOPS' is a datasheet figure, not a switch
                if m["key"].lower() in {"devices", "gpus"} and not re.fullmatch(r"(?:devices|gpus)\s*=\s*\d+",
                                                                                setting):
                    continue  # s12 'Trainer(devices=4, …)' is a setting; 'GPUs: 2 nodes …', 'Devices: 8' are prose
                setting = f"{m['key']}={m['value'] or m['spaced']}"
            if pattern is _CONFIG_SETTING and m["key"].lower() == "workers":
                continue  # a bare 'workers: 4' is some role's count (a parameter server's), not the loader's
            facts = _setting_facts(_args(setting), whole_batch=whole_batch, training_workers=training_workers,
                                   per_device_train_batch=pattern is _PROSE_OPTION and not micro_option)
            if pattern is _CONFIG_NAME and facts.get("job.zero_stage") is None:  # 'train_config.yaml' says nothing
                continue
            if facts:  # a setting read, even as 'off' ('bf16: false'), is accounted for
                spans.append((m.start(), m.end()))
                read.append((facts, (m.start(), m.end())))
    for m in _ENV_REVERSED.finditer(text):  # 'the default `eth0` … is used for NCCL_SOCKET_IFNAME'
        name, value = (m["name"] or m["name2"]).upper(), m["value"] or m["value2"]
        if name not in found.env:
            found.env[name] = value
            read.append((_env_facts(name, value), (m.start(), m.end())))
    for m in _ENV_SHARED.finditer(text):  # 'NCCL_SOCKET_IFNAME 和 GLOO_SOCKET_IFNAME 都设成了 eth0'
        if re.search(r"应该|要不要|是否|需不需要|是不是|能不能|should", text[max(0, m.start() - 16):m.end()], re.I):
            continue
        for name in re.findall(_SETTING_NAME, m["names"]):
            if name not in found.env:
                found.env[name] = m["value"]
                read.append((_env_facts(name, m["value"]), (m.start(), m.end())))
    for m in [*_ENV_ZH.finditer(text), *_ENV_TABLE.finditer(text)]:  # 'NCCL_SOCKET_IFNAME 我两边都设成了 lo'
        if re.search(r"应该|要不要|是否|需不需要|是不是|能不能", m.group(0)) or re.match(r"\s*(?:吗|么|呢|[?？])",
                                                                                      text[m.end():]):
            continue  # job-s11 set verbs: 'NCCL_IB_GID_INDEX 应该设置为 3 吗？' asks what to set
        if m["name"] not in found.env:
            found.env[m["name"]] = m["value"]
            read.append((_env_facts(m["name"], m["value"]), (m.start(), m.end())))
    compared = _compared_runs(text)
    # rr-s10 runs under settings: a setting that conditions one of compared figures, not said as current, is no fact
    trial = [r.setting_span for r in setting_runs(text) if r.compared and not r.now]
    for m in _ENV.finditer(text):
        if not any(s <= m.start() < e for s, e in spans):
            spans.append((m.start(), m.end()))
        # '-x NCCL_IB_HCA=$ibcards': the value the text gives the shell variable, or none at all
        value = shell_value(text, m["value"].strip("\"'"))
        if value is None:
            continue
        if any(a <= m.start() < b and (m["name"], value) in own for a, b, own in compared):
            continue  # one labelled run's own setting ('# TCP' … NCCL_IB_DISABLE=1): maybe not the job's
        if any(a <= m.start("name") < b for a, b in trial):
            continue  # rr-s10 runs under settings: one compared run's ('NCCL_IB_DISABLE=1 gives 1.2 GB/s, with IB 20')
        found.env[m["name"]] = value
        if _NO_LONGER.search(text, m.end()) and m["name"] in {n["name"] for n in _NO_LONGER.finditer(text, m.end())}:
            continue  # '之前只能靠 NCCL_P2P_DISABLE=1 绕过去 … 现在也不需要 NCCL_P2P_DISABLE 了': a setting of the past
        read.append((_env_facts(m["name"], value), (m.start(), m.end())))
    found.spans = sorted(spans)
    prose = blank(text, found.spans)  # sentences read without the dots and '?' inside commands
    for facts, span in read:
        if _not_set(prose, *span) or _side_test(prose, *span) or (set_aside is not None and set_aside(span[0])):
            continue
        asked = _asked(prose, span[0])
        for key, value in facts.items():
            if key.startswith("_"):  # working values ('-np' before the shape is known)
                continue
            if asked:
                _put(found.proposed, found.proposed_spans, key, value, span)
            elif key == "job.parallelism" and found.facts.get(key) not in {None, value, "data"} and value != "data":
                found.facts[key] = "hybrid"  # job-s11 settings apart: 'TP=8 PP=4' are tensor and pipeline, both
            else:
                _put(found.facts, found.fact_spans, key, value, span)
    nodes = found.facts.get("job.nodes")
    if nodes and "job.gpus_per_node" not in found.facts:
        # s13 settings apart: accelerate's config 'num_machines: 2' … 'num_processes: 16', one line each: 8 a machine
        for facts, span in read:
            n = facts.get("_processes")
            if n and n % nodes == 0 and 1 <= n // nodes <= 16 and not _asked(prose, span[0]) \
                    and not _not_set(prose, *span) and not (set_aside is not None and set_aside(span[0])):
                _put(found.facts, found.fact_spans, "job.gpus_per_node", n // nodes, span)
                break
    return found


# A later sentence that says a setting is no longer needed or used ('现在也不需要 NCCL_P2P_DISABLE 了', 'we no longer
# need NCCL_P2P_DISABLE', "don't need NCCL_P2P_DISABLE anymore"): the value set before is not the job's now.
_NO_LONGER = re.compile(r"(?:不再需要|不再用|也不需要|也不用|(?<!需)不需要再?|不用再?|无需再?|"
                        r"no longer (?:need|use|set)|"
                        r"(?:don't|do not|doesn't) (?:need|use) (?:to set )?)\s*`?(?P<name>NCCL_[A-Z0-9_]+)`?"
                        r"(?:[^.。;；\n]{0,20}?(?:了|anymore|any more))?", re.IGNORECASE)
_FENCED = re.compile(r"```[\w-]*\n(?P<body>.*?)```", re.DOTALL)


def _compared_runs(text: str) -> list[tuple[int, int, set[tuple[str, str]]]]:
    """(start, end, settings only it has) of each run in a code block of labelled launch commands ('# TCP' / 'mpirun
    … -x NCCL_IB_DISABLE=1', '# roce v1' / 'mpirun … -x NCCL_IB_HCA=mlx4_0:2'). The pasted-output reader, which sees
    the words around the block, decides which run is the job's; here a setting of one run only is no fact."""
    out: list[tuple[int, int, set[tuple[str, str]]]] = []
    for m in _FENCED.finditer(text):
        runs = labelled_runs(m["body"])
        base = m.start("body")
        out.extend((base + run.start, base + run.end, run.own(runs)) for run in runs)
    return out


# A setting asked about or proposed in its sentence: 'should I set --bf16?', 'what if we used --nproc_per_node 4',
# '要不要加 --bf16', '如果把 --gradient_accumulation_steps 改成 8'. 'I ran …', 'we launch with …' describe the job.
_ASK_CUE = re.compile(
    r"what if|what happens if|what about|how about|(?<![A-Za-z])if (?:we|i|you|it|the|our|my)\b|suppose|assuming we|"
    r"were to|should (?:i|we)|do (?:i|we) need|would (?:it|using|setting|adding|passing|switching|changing|raising|"
    r"increasing|lowering|reducing)|(?:could|can) (?:i|we) (?:use|set|add|pass|enable|switch|try|turn on|change)|"
    r"is it (?:worth|better|ok|okay|safe)|"
    r"(?<![A-Za-z])try(?:ing)?\b|recommend|(?<![A-Za-z])(?:maybe|perhaps|plan(?:ning)? to|thinking (?:of|about))\b|"
    r"打算|计划|考虑|instead of|suggest(?:ed|s|ion)?\b|advi[sc]e[ds]?\b|told (?:me|us) to|"
    r"有人说|网上说|让我|让我们|"
    r"如果|假如|假设|要是|若是|倘若|要不要|需不需要|是否(?:需要|应该)?|应不应该|该不该|能不能|可不可以|试试|试一下|"
    r"建议", re.IGNORECASE)
# '… if I run X, I get 12 GB/s': a condition that reports what happened is the job as it ran.
_REPORTED = re.compile(r"(?<![A-Za-z])(?:i|we|it)\s+(?:get|got|see|saw|only get|measure[sd]?)\b|得到|跑出|测出|只有",
                       re.IGNORECASE)


# 'make sure we don't export NCCL_IB_DISABLE=1 or NCCL_SOCKET_IFNAME=eth0; we set neither', '没有设置 NCCL_IB_HCA=mlx5':
# a setting said to be absent is no fact at all.
_NOT_SET = re.compile(r"(?:(?<![A-Za-z])(?:don't|do not|didn't|did not|doesn't|does not|never|not|no longer)\s+"
                      r"(?:(?:\w+\s+)?(?:export|set|setting|use|using|pass|passing|add|adding|specify|enable))?|"
                      r"(?:没有|没|(?<![要需用])不要|(?<!用)不用|未|并未|无需|(?<!需)不需要)\s*(?:再)?\s*(?:export|设置|设|加|用|配置|指定|导出))"
                      r"(?P<between>[\s,、/]*(?:(?:or|and|nor|either|或者?|和|也)[\s,、/]*)*)$", re.IGNORECASE)
_NEITHER = re.compile(r"^\s*(?:is|was|are|were)?\s*(?:not|n't|never)\s+(?:set|exported|used|passed)|"
                      r"^[^.。;；?？!！]{0,40}?(?:(?:set|exported|export|use|used)\s+"
                      r"(?:neither|none of (?:them|these))|"
                      r"neither (?:is|was|of them is) set|都没(?:有)?(?:设|设置|配置|加|用))", re.IGNORECASE)


def _not_set(prose: str, start: int, end: int) -> bool:
    """Whether its sentence says a setting is not in use: a negated 'export' before it, or 'we set neither'."""
    a, b = tx.sentence_bounds(prose, start)
    return bool(_NOT_SET.search(prose[a:start]) or _NEITHER.search(prose[end:b + 60]))


# A check run on one device beside the job ('只指定 NCCL_IB_HCA=mlx5_0 单卡测的时候能到 24 GB/s', 'when I pin
# NCCL_IB_HCA=mlx5_0 to test a single NIC'): its settings narrow that check, they are not the job's.
_ONE_DEVICE = re.compile(r"单卡|单张(?:网)?卡|单个(?:网卡|HCA|口)|单网卡|单口|"
                         r"(?:一|1)\s*张(?:网)?卡|(?:一|1)\s*个(?:网卡|口|HCA)|"
                         r"(?<![A-Za-z])(?<!our )(?<!the )(?<!my )(?<!its )(?:a\s+)?(?:single|one|1)[- ]"
                         r"(?:NIC|HCA|card|rail|port|IB (?:card|port|NIC))s?\b|"
                         r"\bonly one (?:NIC|HCA|card|rail|port)\b", re.IGNORECASE)
_WHEN = re.compile(r"(?:的)?时候|(?<![同实及随临当按准])时(?![间延刻])|"
                   r"(?<![A-Za-z])(?:when|whenever|while)(?![A-Za-z])", re.IGNORECASE)


def _side_test(prose: str, start: int, end: int) -> bool:
    """Whether the clause holding a setting is a check on one device ('… 单卡测的时候', 'when testing a single NIC'):
    a 'when' and a single device in the same clause."""
    a, b = tx.clause_bounds(prose, start)
    clause = prose[a:max(b, end)]
    return bool(_ONE_DEVICE.search(clause) and _WHEN.search(clause))


_OWN_RUN = re.compile(r"(?<![A-Za-z])(?:our|my|current(?:ly)?|we (?:run|launch|use|start)|launched|"
                      r"现在|目前|我们的|我的)(?![A-Za-z])", re.IGNORECASE)


def _asked(prose: str, start: int) -> bool:
    """Whether a setting at `start` is asked about or proposed: a cue before it in its sentence."""
    a, b = tx.sentence_bounds(prose, start)
    before = prose[a:start]
    cue = _ASK_CUE.search(before)
    if cue is None:
        return False
    if re.match(r"if\b", cue.group(0), re.IGNORECASE) and _REPORTED.search(prose[start:b]):
        return False
    if _OWN_RUN.search(before[cue.end():]):  # 'how can we speed up our run, launched with torchrun …'
        return False
    return not re.search(r"(?:already|then|now|已经|后来|现在|目前)\s*$", before[:cue.start()], re.IGNORECASE)


_SET_COMMAND = re.compile(r"\s*(?:sudo\s+)?(?:ip\s+link\s+set|ifconfig)\s+(?:dev\s+)?[\w.\-]+\s+(?:up|down|mtu)\b")


# A verb of saying a result, then a figure with its unit: the prose after a command ('… -g 1 gives 3.2 GB/s',
# '… and we get ~9 Gbits/sec')
_RESULT_SAID = re.compile(r"\s+(?:and\s+|but\s+|which\s+|that\s+)?(?:(?:I|we|it|this|that)\s+)?(?:only\s+)?"
                          r"(?:gives?|gave|shows?|showed|reports?|reported|returns?|returned|yields?|outputs?|got|gets?|get|"
                          r"sees?|saw|reach(?:es|ed)?|tops out at|maxes out at|peaks at|results? in|hits?|achieves?|"
                          # nccl-cmp s13 an arrow to its result: '… -g 8 => busbw 4 GB/s', '… -> 4.2 GB/s'
                          r"achieved|=>|->|→|⇒)\s+"
                          r"(?:(?:only|just)\s+)?"
                          r"(?:(?:an?\s+|the\s+)?(?:busbw|algbw|bus bandwidth|bandwidth|throughput|speed)\s+"
                          r"(?:of\s+|is\s+|=\s*|:\s*)?)?"
                          r"(?:only\s+|just\s+|about\s+|around\s+|roughly\s+|approximately\s+|~\s*)?\d+(?:\.\d+)?\s*"
                          r"(?:[GMK](?:B|b|bit|bits|byte|bytes)?(?:/s|ps|/sec|its/sec)|s/it|it/s|samples/s|tokens/s|ms\b|s\b)"
                          # 'nvidia-smi topo -m shows NV12 between all GPUs': the path it printed
                          r"|\s+(?:shows?|showed|says|reports?|gives?)\s+(?:NV\d{1,2}|PIX|PXB|PHB|NODE|SYS)\b",
                          re.IGNORECASE)
# The first Chinese character or full-width punctuation outside quotes: commands are written in ASCII.
_CJK_OUTSIDE_QUOTES = re.compile(r"""^(?:[^"'\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]|"[^"]*"|'[^']*')*?"""
                                 r"(?=[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef])")


def _looks_like_command(body: str) -> bool:
    """'iperf3 -c host -P 8' is a command; 'iperf3 between our two boxes shows 3.2 Gbits/sec' is a sentence."""
    tokens = body.split()
    if _SET_COMMAND.match(body):
        return True  # 'ip link set dev eth0 mtu 9000' has no option, only words: a command all the same
    if len(tokens) <= 1:
        return bool(re.match(r"NCCL_\w+=", body.strip()))
    words = [t for t in tokens[1:] if re.fullmatch(r"[A-Za-z\u4e00-\u9fff]{2,}[,.;:]?", t)]
    # (a lone '=' is no setting: 'all_reduce_perf busbw: 1 node = 180 GB/s, 2 nodes = 18 GB/s' is a sentence)
    options = [t for t in tokens if t.startswith("-") or "=" in t.strip("=")]
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


# s29 a training script's short options, as PyTorch's ImageNet example and timm's train.py name them: '-b 512' is
# '--batch-size', '-j10' / '-j 10' is '--workers' (only for a '*.py' script: to nccl-tests '-b' is the first size)
_SCRIPT = re.compile(r"(?<![\w/.\-])[\w./\-]+\.py(?![\w])")
_SHORT_OPTIONS = {"-b": "--batch-size", "-j": "--workers"}


def _short_options(body: str, args: list[str]) -> list[str]:
    """The args with a script's '-b 512', '-j10' spelt as their long options; other commands' args unchanged."""
    if not _SCRIPT.search(body) or _NCCL_TEST.search(body):
        return args
    out: list[str] = []
    for i, arg in enumerate(args):
        glued = re.fullmatch(r"(-[bj])(\d{1,5})", arg)
        if glued:
            out += [_SHORT_OPTIONS[glued[1]], glued[2]]
        elif arg in _SHORT_OPTIONS and i + 1 < len(args) and re.fullmatch(r"\d{1,5}", args[i + 1]):
            out.append(_SHORT_OPTIONS[arg])
        else:
            out.append(arg)
    return out


def _int(value: str | None) -> int | None:
    if value is None:
        return None
    m = re.match(r"^(\d+)(?::(\d+))?[.?？!！)）]?$", value.strip())  # '--nnodes 2?' ends a sentence
    if not m:
        return None
    return int(m.group(2) or m.group(1))


# counts-s11 settings, then words: settings alone on a line, then a comma or a semicolon and words of a sentence
_SETTINGS_THEN_WORDS = re.compile(r"(?:[A-Z_][A-Z0-9_]*=(?:[^\s,，;；]|,(?=\S))+\s*)+"
                                  r"(?=[,，;；]\s*[A-Za-z\d\u4e00-\u9fff])")
# en-s12b a full stop after an argument, then a word: no command has one, so the words after it are prose
_SENTENCE_AFTER = re.compile(r"(?<=[A-Za-z0-9_)\]])\.\s+(?=[A-Za-z][A-Za-z']*(?:[\s,:]|$))")
_SLURM = re.compile(r"slurm|sbatch|srun|salloc", re.IGNORECASE)  # counts-s11 slurm
_SLURM_NODES = re.compile(r"(?<![\w\-])-N\s*=?\s*(?P<n>[1-9]\d{0,3})(?![\w.])")  # counts-s11 slurm


def _option(args: list[str], *names: str) -> str | None:
    for i, arg in enumerate(args):
        for name in names:
            if arg == name and i + 1 < len(args):
                return args[i + 1]
            if arg.startswith(name + "="):
                return arg.split("=", 1)[1]
            if len(name) == 2 and name[1].isalpha() and arg[len(name):].isdigit() and arg.startswith(name):
                return arg[len(name):]  # counts-s11 glued: 'srun -N2' reads as '-N 2'
    return None


def _put(facts: dict[str, Any], spans: dict[str, tuple[int, int]], fact: str, value: Any,
         span: tuple[int, int]) -> None:
    """The first value said for a fact stands."""
    if value is not None and fact not in facts:
        facts[fact] = value
        spans[fact] = span


def _command_facts(body: str, *, whole_batch: bool = False, training_workers: bool = False) -> dict[str, Any]:
    """The job's shape and set-up from a command line: torchrun, deepspeed, accelerate, srun, mpirun/horovodrun."""
    args = _short_options(body, _args(body))
    mpi = bool(re.match(r"\s*(?:sudo\s+)?(?:[A-Z_][A-Z0-9_]*=\S+\s+)*(?:mpirun|mpiexec|horovodrun)", body))
    facts = _setting_facts(args, per_device_train_batch=_per_device_train_batch(body, args),
                           whole_batch=whole_batch or splits_the_batch(body), training_workers=training_workers,
                           nccl_test=bool(_NCCL_TEST.search(body)))
    # '-N' is machines to srun and processes per machine to mpirun; '-ppn'/'-perhost' are Intel MPI's and MPICH's.
    slurm = bool(re.match(r"\s*(?:#\s*)?(?:SBATCH\s|srun\s|sbatch\s|salloc\s)", body))
    total = _int(_option(args, "--gpus", "-G")) if slurm else None
    if total and facts.get("job.gpus_per_node") in {None, total} and not _option(args, "--gpus-per-node"):
        facts.pop("job.gpus_per_node", None)  # s14 Slurm's '--gpus=16' is the job's GPUs in all, not each machine's
    else:
        total = None
    nodes = facts.get("job.nodes") or _int(_option(args, *(() if mpi else ("-N",))))
    per_node = facts.get("job.gpus_per_node") or _int(_option(args, "-npernode", "-ppn", "-perhost",
                                                              *(("-N",) if mpi else ())))
    ppr = re.fullmatch(r"ppr:(\d{1,2}):node(?::\S*)?", _option(args, "--map-by") or "") if mpi else None
    if per_node is None and ppr:
        per_node = int(ppr[1])  # cnt Open MPI's '--map-by ppr:8:node': so many processes on each machine
    processes = facts.pop("_processes", None) or _int(_option(args, "-np", "-n"))
    # s13 a launcher's environment: 'LOCAL_WORLD_SIZE=4 WORLD_SIZE=8 torchrun …' (the ranks of a machine, of all)
    local = re.search(r"(?<![\w])LOCAL_WORLD_SIZE=(\d{1,2})(?![\w.])", body)
    world = re.search(r"(?<![\w])WORLD_SIZE=(\d{1,5})(?![\w.])", body)
    per_node = per_node or (int(local.group(1)) if local and int(local.group(1)) else None)
    processes = processes or (int(world.group(1)) if world and int(world.group(1)) else None)
    if re.search(r"--ps_hosts|--job_name[= ]+[\"']?ps(?![\w-])", body):
        facts["job.comm_pattern"] = "parameter_server"  # TF1's flags: a parameter-server job's processes
    if re.match(r"\s*(?:sudo\s+)?ib_(?:write|read|send)_(?:bw|lat)\b", body) and (
            gid := re.search(r"\s(?:-x|--gid-index)[= ](\d{1,3})(?![\w.])", body)):
        facts["nic.gid_index"] = int(gid[1])  # perftest's '-x 3': the RoCE GID index the test ran on
    if re.match(r"\s*(?:sudo\s+)?(?:docker|podman|nvidia-docker)\s+run\b", body) and re.search(
            r"\s--net(?:work)?(?:=|\s+)host(?![\w-])", body):
        facts["net.pod_overlay"] = False  # 'docker run --net=host …': the container uses the host's network stack
    hosts = _option(args, "-H", "--host", "--hosts")
    if hosts and re.fullmatch(r"[\w.\-]+(?::\d+)?(?:,[\w.\-]+(?::\d+)?)+", hosts):
        entries = hosts.split(",")
        nodes = nodes or len(entries)
        slots = {e.split(":")[1] for e in entries if ":" in e}
        if len(slots) == 1:
            per_node = per_node or int(slots.pop())
    # s13 DeepSpeed's '--include localhost:0,1,2,3', '--include node1:0,1@node2:0,1': the hosts, each with its GPUs
    include = _option(args, "--include", "-i") if re.search(r"(?<![\w-])deepspeed(?![\w-])", body) else None
    if include and re.fullmatch(r"[\w.\-]+:\d{1,2}(?:,\d{1,2})*(?:@[\w.\-]+:\d{1,2}(?:,\d{1,2})*)*", include):
        groups = include.split("@")
        sizes = {len(g.split(":", 1)[1].split(",")) for g in groups}
        if len(groups) > 1:
            nodes = nodes or len(groups)
        if len(sizes) == 1:
            per_node = per_node or sizes.pop()
    if total and not processes:
        processes = total
    elif slurm and not processes and _option(args, "--gpus-per-task") == "1":
        processes = _int(_option(args, "--ntasks", "-n"))  # s14 '--ntasks=16 --gpus-per-task=1': a rank a GPU
    if mpi is False and (ws := _int(_option(args, "--world-size", "--world_size"))) and re.search(
            r"--multiprocessing[-_]distributed(?![\w-])", body):
        nodes = nodes or ws  # s14 PyTorch's ImageNet example: with '--multiprocessing-distributed', machines
    # s14 OpenMMLab's 'tools/dist_train.sh CONFIG 8': the script's second argument is each machine's GPUs
    per_node = per_node or _int(m[1]) if (m := _DIST_TRAIN.search(body)) else per_node
    gpus_per_process = _int(_option(args, "-g", "--ngpus")) if _NCCL_TEST.search(body) else None
    if gpus_per_process and not mpi and not nodes and not processes:
        nodes, per_node = 1, gpus_per_process  # 'all_reduce_perf -g 8' alone: one process driving 8 GPUs of a machine
    nodes, per_node = _shape(nodes, per_node, processes)
    if gpus_per_process and gpus_per_process > 1 and mpi and nodes and per_node and per_node * gpus_per_process <= 16:
        per_node *= gpus_per_process  # s14 'mpirun -np 2 -H a,b … all_reduce_perf -g 8': one process of 8 GPUs each
    if processes and not nodes and not per_node and slurm:
        facts["_processes"] = processes  # s14 '#SBATCH --gpus=16' on a line of its own: '#SBATCH --nodes=2' divides it
    shm = re.search(r"--shm-size[= ](\d+(?:\.\d+)?)([gmk])?b?", body, re.IGNORECASE)
    if shm:
        size = float(shm.group(1)) * {"g": 1.0, "m": 0.001, "k": 0.000001}.get((shm.group(2) or "g").lower(), 1.0)
        facts["container.shm_gbytes"] = round(size, 6)
    if re.search(r"--ipc[= ]host", body):
        facts["container.ipc_host"] = True
    # the interface MPI's TCP transport is pinned to ('--mca btl_tcp_if_include eth0'), or Horovod's
    iface = re.search(r"(?:-?-mca\s+btl_tcp_if_include|--network-interface(?:s)?)[= ]\s*"
                      r"(?P<nic>[A-Za-z][\w.\-]*)(?![\w,/])", body)
    if iface and iface["nic"] not in {"lo", "docker0"}:
        facts["nic.name"] = iface["nic"]
        if iface.group(0).startswith("--network-interface") and re.search(r"horovodrun", body):
            facts["nccl.socket_ifname"] = iface["nic"]  # sweep-s10 horovodrun: it passes its interface on to NCCL
    # the MTU an interface is set to ('ip link set dev eth0 mtu 9000', 'ifconfig ib0 mtu 4092')
    mtu = re.search(r"(?:\bip\s+link\s+set\s+(?:dev\s+)?\S+|\bifconfig\s+\S+)(?:\s+\w+)*?\s+mtu\s+(?P<mtu>\d{3,5})\b",
                    body)
    if mtu and 576 <= int(mtu["mtu"]) <= 65520:
        facts["nic.mtu"] = int(mtu["mtu"])
    facts.pop("job.nodes", None)
    facts.pop("job.gpus_per_node", None)
    if nodes:
        facts["job.nodes"] = nodes
    if per_node and per_node <= 16:
        facts["job.gpus_per_node"] = per_node
    return facts


_NCCL_TEST = re.compile(r"(?<![\w-])\w+_perf(?:_mpi)?(?![\w-])")
_DIST_TRAIN = re.compile(r"(?<![\w-])dist_(?:train|test)\.sh\s+\S+\s+(\d{1,2})(?![\w.])")


def _shape(nodes: int | None, per_node: int | None, processes: int | None) -> tuple[int | None, int | None]:
    """Nodes and processes per node, one derived from the total where only it is missing.

    '-np 16' alone is a total of ranks, not a node count: it settles nothing without one of the other two.
    """
    if processes and nodes and not per_node and processes % nodes == 0:
        per_node = processes // nodes
    if processes and per_node and not nodes and processes % per_node == 0:
        nodes = processes // per_node
    return nodes, per_node


# Framework argument names (long options, `key=value` overrides and config keys, '-' read as '_') → facts.
# s30 the RL frameworks' trainer shape: slime's and OpenRLHF's '--actor-num-nodes 2 --actor-num-gpus-per-node 8'
# (s14 SageMaker's estimator: 'instance_count=2' are the machines the job runs on)
_NODES = {"nnodes", "num_nodes", "num_machines", "nodes", "actor_num_nodes", "instance_count"}
_PER_NODE = {"nproc_per_node", "num_gpus", "gpus_per_node", "n_gpus_per_node", "num_gpus_per_node",
             "ntasks_per_node", "npernode", "ppn", "perhost",
             "devices", "gpus",  # s12 Lightning's Trainer(devices=4, num_nodes=4): the GPUs of each node
             "gpu_num_per_node", "num_gpus_per_machine",  # s24 OneFlow's '--gpu_num_per_node=8'
             "actor_num_gpus_per_node"}
# cnt a training script's own GPU flag: MegEngine's and many repos' '--ngpus 8', '--n_gpus 4', '--num-gpu 2'
# (never 'nproc', the shell's count of CPU cores)
# (GPUs of the one machine the script runs on; never nccl-tests' '-g'/'--ngpus', the GPUs each of its processes drives)
_SCRIPT_GPUS = {"ngpus", "n_gpus", "ngpu", "n_gpu", "num_gpu", "gpu_num", "gpus_num", "num_devices"}
_PROCESSES = {"num_processes", "ntasks"}
_SEQ_LEN = {"cutoff_len", "max_length", "seq_length", "seq_len", "max_seq_length", "max_seq_len", "model_max_length",
            "max_sequence_length", "sequence_length"}
_MICRO = {"per_device_train_batch_size", "per_gpu_train_batch_size", "micro_batch_size", "micro_batch_size_per_gpu",
          "train_micro_batch_size_per_gpu", "ppo_micro_batch_size_per_gpu", "micro_train_batch_size", "batch_size",
          "batch_size_per_device", "batch_size_per_gpu", "per_device_batch_size",  # s24 OneFlow's per device
          "samples_per_gpu", "imgs_per_gpu"}  # h-step mmdetection's and mmcv's batch of each GPU
_GLOBAL = {"global_batch_size", "train_batch_size"}
_ACCUM = {"gradient_accumulation_steps", "grad_accum_steps", "gradient_accumulation", "accumulate_grad_batches",
          "accum_grad", "grad_accum"}
_DEGREES = {"tensor_model_parallel_size": "job.tp_degree", "tensor_parallel_size": "job.tp_degree",
            "tp_size": "job.tp_degree", "pipeline_model_parallel_size": "job.pp_degree",
            "pipeline_parallel_size": "job.pp_degree", "pp_size": "job.pp_degree",
            "expert_model_parallel_size": "job.ep_degree", "expert_parallel_size": "job.ep_degree",
            "ep_size": "job.ep_degree", "tp": "job.tp_degree", "pp": "job.pp_degree", "ep": "job.ep_degree",
            # Megatron's first name for tensor parallelism and DeepSpeed's ('--model-parallel-size 2', 'mp_size 4');
            # a config's bare keys ('tensor_parallel: 8', 'pipeline_parallel: 2')
            "model_parallel_size": "job.tp_degree", "mp_size": "job.tp_degree", "tensor_parallel": "job.tp_degree",
            "pipeline_parallel": "job.pp_degree", "tensor_parallel_degree": "job.tp_degree",
            "pipeline_parallel_degree": "job.pp_degree"}
_ZERO = {"zero_stage"}
# s27 a MoE's routing set as an option: Megatron's '--moe-router-topk 2', HF configs' 'num_experts_per_tok'
_MOE_TOP_K = {"moe_router_topk", "moe_top_k", "num_experts_per_tok", "moe_topk"}
# the data loader's worker processes: PyTorch's examples' '--workers 8', 'num_workers=0', the HF Trainer's
# '--dataloader_num_workers 4' (a bare 'workers:' key in a config is some other role's: a parameter server's)
_LOADER_WORKERS = {"num_workers", "dataloader_num_workers", "workers", "num_data_workers", "data_workers",
                   # s29 YOLOv4-pytorch's '"NUMBER_WORKERS": 0', YOLOX's 'data_num_workers', mmcv's 'workers_per_gpu'
                   "number_workers", "num_worker", "data_num_workers", "workers_per_gpu", "dataloader_workers"}
# Ray Train's 'ScalingConfig(num_workers=4, use_gpu=True)' counts training workers, not loader processes
TRAINING_WORKERS = re.compile(r"ScalingConfig|(?<![A-Za-z])Ray(?![A-Za-z])|TorchTrainer|use_gpu", re.IGNORECASE)
# the model's shape, which the engine's tensor-parallel volume needs: Megatron's and HF configs' names
_MODEL_SHAPE = {"num_layers": "model.layers", "num_hidden_layers": "model.layers", "n_layer": "model.layers",
                "hidden_size": "model.hidden_size", "d_model": "model.hidden_size", "n_embd": "model.hidden_size"}
_ZERO_CONFIG = {"deepspeed", "deepspeed_config", "ds_config", "deepspeed_config_file", "config_file"}
_PRECISION = {"bf16", "fp16", "fp8", "mixed_precision", "precision", "torch_dtype", "dtype",
              "use_fp16", "use_bf16", "use_amp_fp16"}  # s29 icefall's and k2's '--use-fp16 1'
_FSDP = {"fsdp", "use_fsdp"}
_STRATEGY = {"strategy", "distributed_type", "sharding_strategy", "fsdp_sharding_strategy"}
_NAMES = (_NODES | _PER_NODE | _SCRIPT_GPUS | _PROCESSES | _SEQ_LEN | _MICRO | _GLOBAL | _ACCUM | set(_DEGREES) | _ZERO
          | _ZERO_CONFIG | _PRECISION | _FSDP | _STRATEGY | set(_MODEL_SHAPE) | _LOADER_WORKERS | _MOE_TOP_K)


# The argument naming the model a job trains ('--model Qwen2.5-VL-7B-Instruct', '--model_name_or_path
# /data/llama-2-70b-hf', verl's 'actor_rollout_ref.model.path=...'): its name says its size.
_MODEL_ARG = {"model", "model_name_or_path", "model_name", "model_id", "model_path", "pretrained_model_name_or_path",
              "pretrained_model", "base_model", "hf_model",
              # s22 a launcher's model id: ms-swift's '--model_type internvl2-26b', '--model_id_or_path
              # qwen/Qwen1.5-32B'
              "model_type", "model_id_or_path", "model_name_or_id"}


# s24 a model's config chosen by its size alone: ColossalAI's and torchtitan-style '--config 7b', '--model_size 13B'
# (a config file's name, 'configs/llama_7b.yaml', says less: left alone)
_SIZE_CONFIG = {"config", "model_size", "model_config"}
_SIZE_ALONE = re.compile(r"(?:(?:llama|gpt|opt|qwen|mixtral|bloom)\d?[_-]?)?\d{1,4}(?:\.\d{1,3})?[bBmM]", re.IGNORECASE)


def _alternation(names: set[str]) -> str:
    """A regex alternation of names, '_' matching '-' too, longest first."""
    return "|".join(n.replace("_", "[_-]") for n in sorted(names, key=len, reverse=True))


# '--bf16', '--nproc_per_node 4', '--deepspeed ds_z3_config.json' quoted alone in a sentence.
_PROSE_OPTION = re.compile(rf"(?<![\w\-])--(?:{_alternation(_NAMES | _MODEL_ARG)})(?![\w\-])(?:(?:\s*=\s*|\s+)"
                           r"(?P<value>\d[\w.\-]*(?<![.\-])|(?:true|false)(?![\w])|"
                           r"[\w./\-]*[./_\d][\w./\-]*(?<![.\-])))?", re.IGNORECASE)
# 'cutoff_len: 2048', 'max_seq_len=8192', '"train_micro_batch_size_per_gpu": 4', 'bf16: true' in a config quoted in
# prose; a snake_case name may be followed by its number alone ('cutoff_len 2048', as a thread lists its settings).
# 'global_batch_size = 4 * 4 * 2' is arithmetic, left to the words.
_CONFIG_SETTING = re.compile(
    rf"(?<![\w\-.])[\"']?(?P<key>(?:[A-Za-z_]\w*\.)*(?:{_alternation(_NAMES - {'nodes'})}|zero_optimization\.stage))"
    r"(?:[\"']?\s*[:=]\s*[\"']?(?P<value>\d[\w.\-]*(?<![.\-])(?![\w\-]|\.\w)|true|false|True|False|[A-Za-z][\w\-]*\d[\w\-]*)|"
    # (or a Chinese verb of setting between: 'per_device_train_batch_size 设的 4', 'gradient_accumulation_steps 设成 8')
    r"(?:[ \t]+|[ \t]*(?:设的是?|设成了?|设为|设置为|设置成|设置的是|改成了?|改为|开到)[ \t]*)"
    r"(?P<spaced>\d+)(?!\w|\.\d))"
    r"(?!\s*[*×x/+]\s*\d)",
    re.IGNORECASE)
# h-step a batch setting said with its value first, as the terms of a product ('2 per_device_train_batch_size × 8
# gradient_accumulation_steps × 8 num_gpus', '4 micro_batch_size'): only the batch's and accumulation's snake_case names
# (a count of GPUs said so may be the whole run's), and never a value that is the setting's before it
# ('per_device_train_batch_size 2 gradient_accumulation_steps 8' is read by name first)
_VALUE_FIRST = {n for n in _MICRO | _GLOBAL | _ACCUM if "_" in n}
_VALUE_FIRST_SETTING = re.compile(rf"(?<![\w.\-])(?P<value>\d{{1,5}})[ \t]+(?P<key>{_alternation(_VALUE_FIRST)})"
                                  r"(?![\w\-])", re.IGNORECASE)
# A DeepSpeed config named in a sentence: 'ds_z3_config.json', 'ds_config_zero2.json', 'llama3_full_sft_ds3.yaml'.
_CONFIG_NAME = re.compile(r"(?<![\w/.\-])[\w./\-]*\.(?:json|ya?ml)(?![\w])|"
                          r"(?<![\w/.\-])(?:ds_z[0-3]|ds_config_zero[0-3]|zero[0-3]_config|ds_zero[0-3])[\w\-]*(?![\w.])")
# '7B', '1.5b', '350m' standing alone between separators; 'A3B' (active parameters of '30B-A3B') and '8x7B' (experts
# times size, not the total) are no size.
_SIZE_IN_NAME = re.compile(r"(?<![A-Za-z0-9.])(?P<num>\d{1,4}(?:\.\d{1,3})?)(?P<scale>[BbMm])(?![A-Za-z0-9])")
_ZERO_IN_NAME = re.compile(r"(?:^|[^a-z0-9])(?:zero|ds_?z|ds|z)[_\-]?(?:stage[_\-]?)?(?P<n>[0-3])(?![0-9])")
_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off", "none"}


def _settings(args: list[str]) -> list[tuple[str, str | None]]:
    """(name, value) of each long option or `key=value` override: '--seq-length 4096' → ('seq_length', '4096').

    A dotted override keeps its path ('actor.ppo_micro_batch_size_per_gpu'); a flag without a value reads None.
    """
    out: list[tuple[str, str | None]] = []
    for i, arg in enumerate(args):
        value: str | None
        if re.match(r"--[A-Za-z]|-[a-z]{2,}(?:=|$)", arg):
            name, eq, value = arg.lstrip("-").partition("=")
            if not eq:
                following = args[i + 1] if i + 1 < len(args) else None
                value = following if following is not None and not following.startswith("-") else None
        elif re.match(r"\+{0,2}[A-Za-z_][\w.\-]*=", arg):
            name, _, value = arg.lstrip("+").partition("=")
        else:
            continue
        out.append((name.lower().replace("-", "_"), value))
    return out


def _zero_in_name(name: str) -> int | None:
    """The ZeRO stage a DeepSpeed config's name says: 'ds_z3_offload_config.json' → 3, 'zero2' → 2."""
    base = re.sub(r"\.(?:json|ya?ml)$", "", name.rsplit("/", 1)[-1].lower())
    m = _ZERO_IN_NAME.search(base)
    return int(m["n"]) if m else None


def _model_size(value: str) -> float | None:
    """The size, in billions of parameters, a model's name says: 'Qwen2.5-VL-7B-Instruct' → 7, 'opt-350m' → 0.35;
    None for a name without one, a shell variable, or a mixture of experts named by its experts ('Mixtral-8x7B')."""
    base = value.strip("\"'/").rsplit("/", 1)[-1]
    if not base or base.startswith("$") or re.search(r"\d[xX]\d", base):
        return None
    m = _SIZE_IN_NAME.search(base)
    if not m:
        return None
    size = float(m["num"]) / (1000 if m["scale"].lower() == "m" else 1)
    return size if 0.01 <= size <= 2000 else None


def _precision(key: str, value: str | None) -> str | None:
    """'--bf16', '--fp16 True', '--mixed_precision=bf16', '--precision bf16-mixed' → the catalogue's precision."""
    v = (value or "").strip("\"'").lower()
    key = {"use_fp16": "fp16", "use_bf16": "bf16", "use_amp_fp16": "fp16"}.get(key, key)
    if key in {"bf16", "fp16", "fp8"}:
        return None if v in _FALSE else key
    if key == "mixed_precision":
        return {"bf16": "bf16", "fp16": "fp16", "fp8": "fp8", "no": "fp32"}.get(v)
    v = {"bfloat16": "bf16", "float16": "fp16", "half": "fp16", "float32": "fp32", "float": "fp32"}.get(
        v.removeprefix("torch."), v)  # '--torch_dtype bfloat16', 'dtype=torch.float16'
    m = re.fullmatch(r"(bf16|fp16|16|fp32|32|fp8|transformer[-_]engine)(?:[-_](?:mixed|true))?", v)
    if not m:
        return None
    return {"16": "fp16", "32": "fp32", "transformer-engine": "fp8", "transformer_engine": "fp8"}.get(m.group(1),
                                                                                                    m.group(1))


_MICRO_OPTION = re.compile(rf"--(?:{_alternation(_MICRO - {'batch_size'})})(?![\w-])", re.IGNORECASE)


def _per_device_train_batch(body: str, args: list[str]) -> bool:
    """`--train_batch_size` is per GPU under `accelerate launch` and as a training script's own option (diffusers, the
    HF examples, FastVideo: 'Batch size (per device) for the training dataloader'); beside a micro-batch option
    (OpenRLHF's `--micro_train_batch_size`), under the `deepspeed` launcher or as a config key it is the global
    batch."""
    if re.match(r"\s*(?:\S+=\S+\s+)*accelerate\s", body):
        return True
    if re.match(r"\s*(?:\S+=\S+\s+)*deepspeed\s", body):
        return False  # the DeepSpeed launcher passes DeepSpeed's own train_batch_size: the global batch
    names = {name for name, _ in _settings([a for a in args if a.startswith("--")])}
    return "train_batch_size" in names and not names & (_MICRO - {"batch_size"})


def _setting_facts(args: list[str], *, per_device_train_batch: bool = False,
                   whole_batch: bool = False, training_workers: bool = False,
                   nccl_test: bool = False) -> dict[str, Any]:
    """Facts from framework arguments, overrides and config names; a name read without a fact maps to None.

    `per_device_train_batch`: `--train_batch_size` is per GPU (_per_device_train_batch). `whole_batch`: a bare
    `--batch-size` is the whole step's batch (batches.splits_the_batch). `training_workers`: 'num_workers' counts
    training workers (Ray Train's ScalingConfig), not loader processes. `nccl_test`: the command is an nccl-tests
    binary, whose '--ngpus' is each process's GPUs (read by _command_facts), not a script's GPU count.
    """
    facts: dict[str, Any] = {}

    def put(fact: str, value: Any) -> None:
        if facts.get(fact) is None:
            facts[fact] = value

    for token in args:
        if _CONFIG_NAME.fullmatch(token.rsplit("=", 1)[-1]):
            put("job.zero_stage", _zero_in_name(token.rsplit("=", 1)[-1]))
    for name, value in _settings(args):
        key = name.rsplit(".", 1)[-1]
        number = _int(value.strip("\"'")) if value else None
        gres = re.fullmatch(r"gpu(?::[\w.-]+)?:(\d{1,2})", (value or "").strip("\"'")) if key in {"gres", "gpus"} \
            else None
        listed = re.fullmatch(r"(?:[\w.\-]+,)+[\w.\-]+", (value or "").strip("\"'")) \
            if key in {"ips", "gpus", "devices"} else None
        if listed and key == "ips":
            put("job.nodes", len(listed.group(0).split(",")))  # zh-s12b Paddle's 'fleetrun --ips=10.0.0.1,10.0.0.2'
        elif listed and all(d.isdigit() for d in listed.group(0).split(",")):
            put("job.gpus_per_node", len(listed.group(0).split(",")))  # zh-s12b '--gpus=0,1,2,3': each node's devices
        elif gres and 1 <= int(gres.group(1)) <= 16:
            put("job.gpus_per_node", int(gres.group(1)))  # Slurm '--gres=gpu:8', '--gres=gpu:a100:4': per node
        elif key in _NODES and number:
            put("job.nodes", number)
        elif (key in _PER_NODE or (key in _SCRIPT_GPUS and not nccl_test)) and number:
            put("job.gpus_per_node", number if number <= 16 else None)
        elif key in _PROCESSES and number:
            put("_processes", number)
        elif key in _SEQ_LEN and number:
            put("job.seq_len", number if 16 <= number <= 10_000_000 else None)
        elif key == "batch_size" and number and whole_batch:
            put("job.global_batch_size", number)
        elif key in _MICRO and number:
            put("job.micro_batch_size", number)
        elif key in _GLOBAL and number:
            # s30 only '--train_batch_size' may be per GPU; '--global-batch-size 5760' is the global batch by its name
            per_gpu = per_device_train_batch and key == "train_batch_size"
            put("job.micro_batch_size" if per_gpu else "job.global_batch_size", number)
        elif key in _ACCUM and number:
            put("job.grad_accum_steps", number)
        elif key in _LOADER_WORKERS and number is not None and not training_workers:
            put("job.dataloader_workers", number if number <= 4096 else None)
        elif key in _DEGREES and number:
            put(_DEGREES[key], number if number <= 512 else None)
        elif key in _MOE_TOP_K and number:
            put("job.moe_top_k", number if number <= 64 else None)
            put("job.moe", True if number <= 64 else None)
        elif key in _MODEL_SHAPE and number:
            put(_MODEL_SHAPE[key], number if number <= 1_000_000 else None)
        elif (key in _ZERO or (key == "stage" and "zero" in name)) and number is not None:
            put("job.zero_stage", number if number <= 3 else None)
        elif key in _ZERO_CONFIG and value:
            put("job.zero_stage", _zero_in_name(value))
        elif (key in _MODEL_ARG or (key == "path" and name.split(".")[-2:] == ["model", "path"])) and value:
            put("job.model_params_b", _model_size(value))
        elif key in _SIZE_CONFIG and value and _SIZE_ALONE.fullmatch(value.strip("\"'")):
            put("job.model_params_b", _model_size(value))
        elif key in _PRECISION:
            put("job.precision", _precision(key, value))
        elif key in _FSDP and (value or "").lower() not in _FALSE:
            put("_fsdp", True)
        elif key in _STRATEGY and re.match(r"[\"']?(?:fsdp2?|FULL_SHARD|SHARD_GRAD_OP|HYBRID_SHARD|deepspeed_stage_3)",
                                           value or "", re.IGNORECASE):
            put("_fsdp", True)  # verl's 'actor.strategy=fsdp2', Lightning's 'strategy=fsdp', accelerate's 'FSDP'

    kinds = set()
    if facts.pop("_fsdp", None) or (facts.get("job.zero_stage") or 0) >= 1:
        kinds.add("fsdp")
    if (facts.get("job.tp_degree") or 0) > 1:
        kinds.add("tensor")
    if (facts.get("job.pp_degree") or 0) > 1:
        kinds.add("pipeline")
    if kinds:  # as the words read 'ZeRO-3' (fsdp) and 'TP=4 with ZeRO' (hybrid)
        facts["job.parallelism"] = kinds.pop() if len(kinds) == 1 else "hybrid"
    elif facts.get("job.zero_stage") == 0:
        facts["job.parallelism"] = "data"
    if facts.get("_processes"):  # '--num_processes 16 --num_machines 2' (the caller may add '-N'/'-H' first)
        nodes, per_node = _shape(facts.get("job.nodes"), facts.get("job.gpus_per_node"), facts["_processes"])
        facts["job.nodes"], facts["job.gpus_per_node"] = nodes, per_node if per_node and per_node <= 16 else None
    return facts


# NCCL settings that are facts of the catalogue.
_ENV_FACTS: dict[str, tuple[str, Any]] = {
    "NCCL_IB_DISABLE": ("nccl.ib_disabled", bool),
    "NCCL_P2P_DISABLE": ("nccl.p2p_disabled", bool),
    "NCCL_SOCKET_IFNAME": ("nccl.socket_ifname", str),
    "NCCL_IB_HCA": ("nccl.ib_hca", str),
    "NCCL_IB_GID_INDEX": ("nic.gid_index", int),
}


def _env_facts(name: str, value: str) -> dict[str, Any]:
    """The catalogue fact an NCCL_* setting gives, if any; CUDA_VISIBLE_DEVICES=0,1,2,3 is the GPUs a machine runs."""
    if name in ("CUDA_VISIBLE_DEVICES", "DEVICES"):
        devices = value.strip().strip("\"'")
        if re.fullmatch(r"\d{1,2}(?:,\d{1,2}){1,15}", devices):
            return {"job.gpus_per_node": len(devices.split(","))}  # a list of indices: as many GPUs as listed
        if not re.fullmatch(r"\d{1,2}", devices):
            return {}
        # one bare number: CUDA_VISIBLE_DEVICES=3 names one GPU; cnt 'DEVICES=1' (CaffeOnSpark's) counts them
        count = 1 if name == "CUDA_VISIBLE_DEVICES" else int(devices)
        return {"job.gpus_per_node": count} if 1 <= count <= 16 else {}
    if name == "NCCL_NET":  # 'NCCL_NET=Socket' / 'NCCL_NET=IB': the network NCCL is told to use
        net = value.strip().strip("\"'").lower()
        return {"nccl.transport": "socket"} if net == "socket" else {"nccl.transport": "ib"} if net == "ib" else {}
    if name == "NCCL_NET_GDR_LEVEL":  # 'LOC' (or 0): GPUDirect RDMA never used; a distance ('PHB', 'SYS', 2) allows it
        level = value.strip().strip("\"'").upper()
        return {"nccl.gdr_disabled": True} if level in {"LOC", "0"} else {}
    if name == "NCCL_VERSION":  # job-s11 version set: a container's 'NCCL_VERSION=2.19.3-1' names the NCCL it ships
        version = re.match(r"[\"']?v?(2\.\d{1,2}(?:\.\d{1,2})?)(?![\d])", value.strip())
        return {"nccl.version": version[1]} if version else {}
    fact = _ENV_FACTS.get(name)
    if fact is None:
        return {}
    key, kind = fact
    value = value.strip()
    if name == "NCCL_IB_HCA" and value:
        # rr-s10 HCA list: 'NCCL_IB_HCA=mlx5_0,mlx5_1,…,mlx5_7' names the node's RDMA NICs NCCL uses, one rail each; a
        # '^' list excludes, a prefix ('mlx5') matches any number, a single one counts nothing
        hcas = {h.lstrip("=") for h in value.split(",")}
        if not value.startswith("^") and len(hcas) >= 2 and all(
                re.fullmatch(r"[A-Za-z][\w-]*?_?\d+(?::\d+)?", h) for h in hcas):
            return {key: value, "nic.count": len(hcas)}
        return {key: value}
    if kind is bool:
        return {key: value == "1"} if value in {"0", "1"} else {}
    if kind is int:
        return {key: int(value)} if value.isdigit() else {}
    return {key: value} if value else {}


# rr-s10 runs under settings: a figure whose condition is an NCCL setting or a transport switched on or off
# ('NCCL_IB_DISABLE=1 gives 1.2 GB/s', 'NCCL_ALGO=Tree gives 9 GB/s', 'with IB enabled 20 GB/s',
# '关掉 IB 只有 1.2 GB/s', 'without it 20 GB/s'). Two settings, or one beside a figure said without any
# ('we get 20 GB/s; with NCCL_IB_DISABLE=1 only 1.2 GB/s'), are a comparison: a setting of one compared run is
# the job's only when said as current ('now', '现在'), and so is its figure (extract.runs_under_settings).
_SWITCHED = r"(?:IB|RDMA|GDR|GDRDMA|GPUDirect(?:\s+RDMA)?|P2P|NVLS|SHARP|CollNet|NVLink|RoCE|InfiniBand)"
_RUN_SETTING = re.compile(
    rf"(?-i:(?<![\w])NCCL_[A-Z0-9_]+\s*=\s*[^\s,，。;；]+)|"
    rf"(?<![A-Za-z])(?:without|w/o)\s+(?:it|that|them)(?![A-Za-z])|"
    rf"(?<![A-Za-z])(?:with|without|w/o|w/)\s+{_SWITCHED}\s+(?:enabled|disabled|on|off|turned\s+(?:on|off))(?![A-Za-z])|"
    rf"(?<![A-Za-z]){_SWITCHED}\s+(?:enabled|disabled|on|off|turned\s+(?:on|off))(?![A-Za-z])|"
    rf"(?:开启|打开|开着|开了|关掉|关闭|关了|禁用|启用|不开|不用|去掉|(?<![展公离])开|(?<![机相])关)\s*(?:了)?\s*{_SWITCHED}(?![A-Za-z])|"
    rf"(?<![A-Za-z]){_SWITCHED}\s*(?:开启|打开|关掉|关闭|禁用|启用|开着|关着)", re.IGNORECASE)
# a figure with a rate's unit (bits or bytes per second); a bare 'G' is a size or a link
_RUN_RATE = re.compile(r"(?<![\w.])(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>[GMT](?:B|b|bit|bits|byte|bytes)?(?:/s|ps|/sec)|"
                       r"[GMT]bits?/sec|[GMT]Bytes/sec)(?![A-Za-z])")
# a tool or a command between the setting and the figure: the setting is that command's, the figure its own
_RUN_TOOL = re.compile(r"iperf|ib_\w+_bw|perftest|qperf|netperf|ethtool|ibstat|网卡|NIC|link|port|\w_perf|\./|mpirun|"
                       r"mpiexec|torchrun|srun|deepspeed|python|horovodrun|accelerate", re.IGNORECASE)
_RUN_NOT_A_RUN = re.compile(r"\s*(?:的)?\s*(?:网卡|网口|NICs?|links?|ports?|HCAs?|cards?|IB|RoCE|InfiniBand|ethernet|"
                            r"interfaces?)(?![A-Za-z])", re.IGNORECASE)
_RUN_NOW = re.compile(r"(?<![A-Za-z])(?:now|currently|current|our job|in training|by default|default)(?![A-Za-z])|"
                      r"现在|目前|当前|默认|训练时|训练的时候", re.IGNORECASE)


_RUN_WANTED = re.compile(r"should|expect\w*|would|could|theor\w*|spec|datasheet|rated|"
                         r"应该|理论|期望|预期|标称|额定|目标|(?<![A-Za-z])(?:target|up to|instead of)(?![A-Za-z])",
                         re.IGNORECASE)


_WITHOUT_IT = re.compile(r"(?<![A-Za-z])(?:without|w/o)\s+(?:it|that|this|them|the setting)(?![A-Za-z])|"
                         r"不加(?:的话|就|则)|不设(?:的话|就|则)|去掉(?:的话|之后|以后|后|就)", re.IGNORECASE)


@dataclass
class SettingRun:
    start: int  # the figure
    end: int
    gbps: float
    setting: str  # lower-cased, spaces collapsed ('nccl_ib_disable=1', 'with ib enabled')
    setting_span: tuple[int, int]
    now: bool  # said as the job's current run
    compared: bool = False


def setting_runs(text: str) -> list[SettingRun]:
    """The runs under settings in `text` (its settings not blanked), each marked compared or not."""
    rates = list(_RUN_RATE.finditer(text))
    runs: list[SettingRun] = []
    last = 0
    for m in rates:
        a = max(tx.clause_bounds(text, m.start())[0], last)
        last = m.end()
        setting = None
        for s in _RUN_SETTING.finditer(text, a, m.start()):
            setting = s
        if setting is None or _RUN_TOOL.search(text, setting.end(), m.start()) or _RUN_NOT_A_RUN.match(text, m.end()):
            continue  # another tool's figure, or a link's rate ('with … a 100Gbps NIC')
        unit = m["unit"]
        scale = {"M": 0.001, "T": 1000.0}.get(unit[0].upper(), 1.0)
        if re.match(r"[GMT](?:B|/|[Bb]ytes)", unit):
            scale *= 8.0  # bytes
        runs.append(SettingRun(m.start(), m.end(), float(m["num"]) * scale,
                               re.sub(r"\s+", " ", setting.group(0).lower()), (setting.start(), setting.end()),
                               bool(_RUN_NOW.search(text, a, m.end() + 12))))
    # a run under an NCCL setting beside a figure said without one is compared with it too ('we get 20 GB/s; with
    # NCCL_IB_DISABLE=1 it drops to 1.2 GB/s'), unless that figure is one wanted ('should reach 40 GB/s')
    plain = [m for m in rates if all(r.start != m.start() for r in runs)
             and not _RUN_WANTED.search(text, max(tx.clause_bounds(text, m.start())[0], m.start() - 30), m.start())
             and not _RUN_NOT_A_RUN.match(text, m.end())]
    # (or beside the run without it, however that went: 'with NCCL_IB_DISABLE=1 it runs at 1 GB/s, without it it hangs')
    without = bool(runs) and bool(_WITHOUT_IT.search(text, runs[0].end, tx.sentence_bounds(text, runs[0].end)[1]))
    compared = len({r.setting for r in runs}) >= 2 or (len(runs) == 1 and runs[0].setting.startswith("nccl_")
                                                        and (bool(plain) or without))
    for r in runs:
        r.compared = compared
    return runs
