"""Tool output pasted into a question: find it, hand it to the parser for its tool, keep the rest as prose.

People paste nccl-tests tables, NCCL_DEBUG=INFO lines, NCCL_* settings, iperf3 text or JSON,
perftest (ib_write_bw ...) tables, ibstat/ibstatus/ibv_devinfo, nvidia-smi (table, CSV, -q, topo -m),
lspci -vvv lines, ip addr/route, ethtool and training-log lines between their sentences. The parsers
in `tool_parsers/` read those; the word extractors must not (a log line '8 GPUs' is not the user's
statement), so the blocks are blanked out of the prose with spaces, keeping every offset of the
original question valid. A paste that looks cut off (a table header without rows, a row cut short,
a listing stopping inside a section, an unclosed code fence, broken JSON) is still read for what
it holds, and `Pasted.partial` says so.

Every note carries a stable code (bwdoctor_parsers.notes.Note) and is said in the reader's language from the
catalogue service/messages/pasted.yaml; the parsers' English stays what the probe prints.
"""

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bwdoctor.chat import text as tx
from bwdoctor.chat.entities import find_entities
from bwdoctor.chat.language import detect_language
from bwdoctor.chat.log_runs import slowest_run_pace
from bwdoctor.i18n import t
from bwdoctor_parsers.collective_bench import LINE as BENCH_LINE
from bwdoctor_parsers.collective_bench import parse_collective_bench
from bwdoctor_parsers.deepspeed_config import ROUTE as DEEPSPEED_CONFIG_ROUTE  # job-s11 ds config
from bwdoctor_parsers.deepspeed_config import parse_deepspeed_config  # job-s11 ds config
from bwdoctor_parsers.ethtool import parse_ethtool
from bwdoctor_parsers.ibstat import parse_ib_ports
from bwdoctor_parsers.ip_addr import parse_ip_addr
from bwdoctor_parsers.iperf3 import parse_iperf3_json
from bwdoctor_parsers.iperf3_text import parse_iperf3_text
from bwdoctor_parsers.kernel_log import parse_kernel_log
from bwdoctor_parsers.knb import parse_knb
from bwdoctor_parsers.lspci import parse_lspci
from bwdoctor_parsers.nccl_env import LabelledRun, labelled_runs, parse_nccl_env
from bwdoctor_parsers.nccl_log import parse_nccl_log
from bwdoctor_parsers.nccl_tests import parse_nccl_tests
from bwdoctor_parsers.net_monitors import ROUTE as NET_MONITOR_ROUTE
from bwdoctor_parsers.net_monitors import parse_net_monitor
from bwdoctor_parsers.nic_counters import ROUTE as NIC_COUNTERS_ROUTE
from bwdoctor_parsers.nic_counters import parse_nic_counters
from bwdoctor_parsers.notes import Note, make
from bwdoctor_parsers.nvidia_smi import ROUTE as GPU_MONITOR_ROUTE
from bwdoctor_parsers.nvidia_smi import parse_nvidia_smi
from bwdoctor_parsers.perftest import parse_perftest
from bwdoctor_parsers.rdma_devices import ROUTE as RDMA_DEVICES_ROUTE
from bwdoctor_parsers.rdma_devices import parse_rdma_devices
from bwdoctor_parsers.read_throughput import ROUTE as READ_THROUGHPUT_ROUTE
from bwdoctor_parsers.read_throughput import parse_read_throughput
from bwdoctor_parsers.training_log import ROUTE_HINT as TRAINING_LOG_HINT
from bwdoctor_parsers.training_log import parse_training_log

# A line that belongs to tool output rather than to a sentence someone typed.
_TOOL_LINE = re.compile(
    # NCCL's line prefix host:pid:tid [cuda-dev]; before 2.3 the words after it lacked "NCCL".
    # (the host name bounded and starting a token: a long run of word characters costs linear time, not quadratic)
    r"NCCL (?:INFO|WARN)|(?<![\w.\-])[\w.\-]{1,80}:\d+:\d+\s+\[\d+\]\s+(?:NCCL\s+)?(?:INFO|WARN)\b|"
    r"^\s*(?:\[\d+,\d+\]<std(?:out|err)>:)?\s*#|"
    r"^\s*(?:\[\d+,\d+\]<std(?:out|err)>:)?\s*\d+\s+\d+\s+(?:float|half|bfloat16|int8|uint8|int32|double|fp8\w*)\s|"
    # nccl-tests' column header pasted without its '#' ('   size   count  type  redop root  time  algbw  busbw').
    r"^\s*size\s+count\s+type\s+redop\b|"
    r"^\s*\[\s*(?:\d+|SUM|ID)\]\s|^\s*[|+][-=+| ]|^\s*\|.*\|\s*$|NVIDIA-SMI|"
    r"elapsed time per iteration|^\s*iteration\s+\d+/|\d+/\d+\s*\[[\d:]+<[\d:?]+|'loss':|\"loss\":|global_step|"
    r"^\s*step:\s*\d+|train_runtime|Connecting to host|"
    # PaddlePaddle's metric lines ('iter: 594, …, reader_cost: 0.02042 s, batch_cost: 1.83910 s, …, ips: 521.99')
    r"(?<![\w.])(?:avg_)?(?:reader|batch)_cost:\s*\d|"
    # (s24 Paddle Fluid's 'Batch time: 15.881043, sample_per_second: 32.239696')
    r"(?<![\w.])Batch time:\s*[0-9.]+\s*,\s*sample_per_second:|"
    # (s29 wav2letter / flashlight's epoch line, 'bch(ms): 557.78 | smp(ms): 538.41 | fwd(ms): 9.84 | …', and its wrap)
    r"(?<![\w.-])(?:bch|smp|fwd|crit-fwd|bwd|optim)\(ms\):\s*\d|"
    # detectron2 / fast-reid's logger prefix ('[01/09 10:46:29 d2.utils.events]:').
    r"\[\d{2}/\d{2} \d{2}:\d{2}:\d{2} [\w.]+\]:|^iperf3?:|Accepted connection|Server listening|"
    # mmcv / mmengine's metric line without its logger prefix ('Epoch [1][50/1000] lr: …, time: 2.1, data_time: 1.8')
    r"(?<![\w.])time:\s*\d[^\n]*?(?<![\w.])data_time:\s*\d|(?<![\w.])data_time:\s*\d[^\n]*?(?<![\w.])time:\s*\d|"
    r"^\s*CA '|^\s*Port \d+:|==\(.*\)==>|^\s*(?:CA|Switch):\s|"
    r"^\s*(?:State|Physical state|Rate|Link layer|Base lid|SM lid|Port GUID):|"
    r"^\s*\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}|^\s*GPU\d+\s+(?:X|NV\d+|PIX|PXB|PHB|NODE|SYS)\b|^\s*GPU0\s+GPU1|"
    r"utilization\.gpu|^\s*\d+\s*%,\s*\d+\s*MiB|^\s*[{}\[\]]\s*$|^\s*\"[\w.]+\"\s*:|"
    # NCCL_* settings as whole lines (env dumps, export); command lines (mpirun -x ...) stay prose.
    r"NCCL version \d|^\s*\[\d+,\d+\]<std(?:out|err)>:|^\[rank\d+\]:|"
    r"^\s*(?:export\s+|set\s+|ENV\s+)?NCCL_[A-Z0-9_]+\s*[=:]|^\s*ENV\s+NCCL_[A-Z0-9_]+\s+\S+\s*$|"
    # a Kubernetes pod's env entry ('- name: NCCL_SOCKET_IFNAME' then 'value: "eth0"')
    r"^\s*-?\s*name\s*:\s*[\"']?NCCL_[A-Z0-9_]+[\"']?\s*$|^\s*value\s*:\s*[\"']?[\w.,:^=-]*[\"']?\s*$|"
    # perftest banner and table.
    r"#bytes\s+#iterations|BW Test\s*$|^\s*-{20,}\s*$|^\s*\d+\s+\d+\s+\d+\.\d+\s+\d+\.\d+\s+\d+\.\d+\s*$|"
    r"^\s*(?:Dual-port|Number of qps|Connection type|PCIe relax order|ibv_wr\* API|TX depth|CQ Moderation|Mtu|"
    r"Link type|GID index|Max inline data|rdma_cm QPs|Data ex\. method|local address|remote address|GID)\s*:|"
    # ibstatus and ibv_devinfo.
    r"^\s*Infiniband device '|^\s*hca_id:|"
    r"^\s+(?:default gid|base lid|sm lid|phys state|rate|link_layer|transport|fw_ver|"
    r"node_guid|sys_image_guid|vendor_id|vendor_part_id|hw_ver|board_id|phys_port_cnt|port|state|max_mtu|"
    r"active_mtu|port_lid|port_lmc|active_width|active_speed):|"
    # ethtool.
    r"^Settings for \S+:|^\s+(?:Supported|Advertised|Link partner advertised) (?:link modes|ports|pause frame use|"
    r"auto-negotiation|FEC modes):|^\s+(?:Speed|Duplex|Auto-negotiation|Link detected|Transceiver|PHYAD|MDI-X|Port|"
    r"Supports [\w -]+|Wake-on|Current message level|Supported pause frame use|Advertised pause frame use):|"
    r"^\s+(?:\d+base[A-Za-z0-9_]+(?:/(?:Full|Half))?\s*)+$|^\s+drv\s|"
    # nvidia-smi topo NIC rows and legend, nvidia-smi -q fields.
    r"^\s*NIC\d+\s+(?:X|PIX|PXB|PHB|NODE|SYS|NV\d+)\b|^\s*NIC\d+:\s*\S+\s*$|NIC Legend:|^\s*Legend:|"
    r"^\s*\S.*?\s{3,}:\s|GPU Link Info|PCIe Generation|^\s+Link Width\s*$|==NVSMI LOG==|^GPU [0-9A-F]{8}:|"
    r"^\s*\w+\s+=\s+Connection traversing|"
    # Framework banners whose words are not the user's (Lightning's device lines and model summary).
    r"^(?:GPU|TPU|HPU|IPU) available:|^LOCAL_RANK:|^\s*[┏┡└│┃]|^You are using a CUDA device|"
    r"set_float32_matmul_precision|site-packages/|^(?:Trainable|Non-trainable|Total) params|"
    # lspci -vvv.
    r"^(?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]\s|^\s*(?:ACSCtl|ACSCap|LnkCap|LnkSta|LnkCtl|DevCap|"
    r"DevCtl|DevSta|Capabilities):|"
    # ip addr / ip route / ip -br addr.
    r"^\d+:\s+[^:\s]+:\s+<[^>]*>\s+mtu|^\s+(?:link/\w+|inet6?|valid_lft|altname)\s|"
    r"^(?:default|\d{1,3}(?:\.\d{1,3}){3}(?:/\d{1,2})?)\s+(?:via|dev)\s|"
    r"^[\w.@-]+\s+(?:UP|DOWN|UNKNOWN)\s+(?:\d{1,3}(?:\.\d{1,3}){3}/\d|[0-9a-f:]+/\d|$)|"
    # ifconfig (net-tools 2.x and the old form).
    r"^[^:\s]+:\s+flags=\d+<[^>]*>\s+mtu\s+\d|^[^:\s]+\s+Link encap:|"
    r"^\s+inet\s+(?:addr:)?\d[\d.]+\s+.*?(?:netmask|Mask:)|"
    r"^\s+(?:inet6|ether|RX|TX|loop)\s.*?(?:prefixlen|txqueuelen|packets|errors|bytes)\b|^\s+(?:[A-Z]+\s)+\s*MTU:\d|"
    # Kernel log lines (dmesg's '[ 12.345678] ', journalctl's 'Mar  3 10:01:02 host kernel:', a NIC driver's prefix).
    r"^\s*\[\s*\d+\.\d{3,}\]\s|^\s*[A-Z][a-z]{2}\s+\d{1,2}\s+\d{2}:\d{2}:\d{2}\s+\S+\s+kernel:|"
    r"^\s*(?:ixgbe|i40e|ice|igb|e1000e|mlx5_core|mlx4_en|bnxt_en|tg3|r8169|ena|bonding)\b[\s:]|"
    # knb (Kubernetes network benchmark) report lines.
    r"^\s*Discovered (?:CPU|Kernel|k8s version|MTU)\s*:|^\s*bandwidth\s*=\s*\d+(?:\.\d+)?\s*[KMG]?bit/s\s*$|"
    r"^\s*(?:client|server) cpu\s*=\s*total\b|^\s*(?:Pod to (?:pod|Service)|Idle|TCP|UDP)\s*:\s*$|"
    # Rich progress bars.
    r"━|\d+/\d+\s+\d+:\d{2}:\d{2}\s*•|"
    # A collective benchmark's result lines (alpa/cupy: 'AllReduce: [[0, 1, 2, 3]]  Bytes: 2.00000 GB  Time: 0.01403 s
    # Bandwidth: 213.81 GB/s'): its GB/s are not an iperf3 figure the words would take them for.
    r"^\s*\w+:\s*\[\[[\d,\s\[\]]*\]\]\s+Bytes:|\bBytes:\s*[\d.]+\s*[KMGT]?i?B\s+Time:\s*[\d.]+\s*[mu]?s\s+Bandwidth:|"
    # NIC traffic monitors: iftop (screen and -t text), nload, sar -n DEV, nicstat, ifstat, dstat.
    r"^\s*(?:TX|RX|TOTAL):\s+(?:cum:\s*)?[\d.]+\s*[KMGT]?[bB]\s|^\s*Total (?:send|receive|send and receive) rate:|"
    r"^\s*(?:Peak rate|Cumulative) \(sent/received/total\):|(?:=>|<=)\s+[\d.]+\s*[KMGT]?[bB]\s+[\d.]+\s*[KMGT]?[bB]|"
    r"^(?:interface|IP address is|MAC address is|Listening on):?\s+\S+\s*$|"
    r"^\s*Device\s+[\w.@:-]+\s*(?:\[[^\]]*\])?\s*(?:\(\d+/\d+\))?\s*:\s*$|^\s*(?:Incoming|Outgoing):\s*$|"
    r"\b(?:Curr|Avg|Min|Max):\s*[\d.]+\s*[kKMGT]?(?:Bit|Byte)/s|\bTtl:\s*[\d.]+\s*[kKMGT]?(?:Bit|Byte)\b|^\s*={20,}\s*$|"
    r"^Linux\s+\S+\s+\([\w.-]+\)\s+\S+\s+_\w+_|\bIFACE\s+rxpck/s|^\s*Time\s+Int\s+rKB/s|"
    r"^\s*(?:\d{1,2}:\d{2}:\d{2}(?:\s*[AP]M)?|Average:)\s+[\w.@:-]+(?:\s+[\d.,]+){4,}\s*$|"
    r"^\s*(?:(?:KB/s|Kbps)\s+in\s+(?:KB/s|Kbps)\s+out\s*)+$|"
    r"^\s*(?:(?:(?:eth|ens|enp|eno|ib|bond|em|docker)\w*\d\w*|lo)\s*){1,8}$|"
    r"-net/[\w.@:]+-|^\s*recv\s+send\b|\|\s*recv\s+send\b|"
    # rows of figures only: five or more (dmon, full dstat), or a rate with dstat's unit ('1150M 1148M'); a typed
    # two-column table ('16  1800') stays prose
    r"^\s*(?:[\d.]+|-)(?:\s+(?:[\d.]+|-)){4,}\s*$|^\s*[\d.]+[BkMG]\s+[\d.]+[BkMG]\s*(?:[|:].*)?$|"
    r"^\s*[\d.]+[BkKMG]?(?:\s+[\d.]+[BkKMG]?){1,7}\s*[|:].*\|.*$|"
    # nvidia-smi dmon rows with date and time (-o DT), gpustat's host line, nvtop's bars.
    r"^\s*\d{8}\s+\d{2}:\d{2}:\d{2}(?:\s+\S+){3,}\s*$|^\S+\s+\w{3}\s+\w{3}\s+\d{1,2}\s+\d{2}:\d{2}:\d{2}\s+\d{4}\s+\d+\.\d+|"
    r"\bGPU\[[|\s]*\d{1,3}%\]|"
    # RDMA listings: ibdev2netdev, show_gids, rdma link / rdma statistic.
    r"\bport\s+\d+\s*(?:\(\w+\)\s*)?==>\s*\S+\s*\((?:Up|Down)\)|^\s*DEV\s+PORT\s+INDEX\s+GID\b|^\s*-{3,}\s+-{3,}\s+-{3,}|"
    r"^\s*\S+\s+\d+\s+\d+\s+[0-9a-fA-F]{4}(?::[0-9a-fA-F]{4}){7}\s|^\s*n_gids_found=\d+|^\s*link\s+[\w.-]+/\d+\s+\w+\s+\S+|"
    # NIC statistics: ethtool -S, RDMA hw_counters.
    r"^\s*NIC statistics:\s*$|^\s+(?:\[\d+\]:\s*)?[a-z][\w.\[\]]*_[\w.\[\]]*:\s+\d+\s*$|"
    r"^\s*(?:rx|tx|np|rp)_\w+:\s*\d+\s*$|/hw_counters/\w+:\d|"
    # s22 the PyTorch ImageNet example's meter lines ('Epoch: [1][100/5005]  Time 8.719 (0.361)  Data 8.597 (0.230)'):
    # the training log parser reads their data time against the step.
    r"^\s*Epoch:\s*\[\s*\d+\s*\]\s*\[\s*\d+\s*/\s*\d+\s*\][^\n]*\bTime\s+\d|"
    # PyTorch's errors around NCCL (the watchdog's timeout, the c10d exception lines).
    r"ProcessGroupNCCL\.cpp|Watchdog caught collective operation timeout|NCCL error in:|DistBackendError|"
    r"\bnccl(?:System|Internal|Remote|InvalidUsage|UnhandledCuda)Error\b|ChildFailedError|torch\.distributed\.elastic")


def _tool_line(line: str) -> bool:
    """A line of some tool's output (the all-reduce benchmarks' lines are their parser's to say)."""
    return bool(_TOOL_LINE.search(line) or BENCH_LINE.search(line))


# A line NCCL printed, alone on its line ('  NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0''): all of
# it is NCCL's, none the asker's, so the words must not read it ('RDMA Disabled' is not 'no RDMA').
_LOG_LINE = re.compile(r"\s*(?:\[\d+,\d+\]<std(?:out|err)>:|\[rank\d+\]:)?\s*(?:[\w.\-]+:\d+:\d+\s+\[\d+\]\s+)?"
                       r"NCCL (?:INFO|WARN)\b|"
                       # mmcv / mmengine's metric line ('Epoch [1][50/1000] lr: …, time: 2.105, data_time: 1.802')
                       r"\s*(?:Epoch|Iter)\s*(?:\(\w+\))?\s*\[\s*\d+\s*\]\s*\[\s*\d+\s*/\s*\d+\s*\][^\n]*\bdata_time:\s*\d")
# en-s10: 'NCCL WARN NET/IB : No device found. Training on 2 nodes is super slow.': after the message's end, a sentence
# of the asker's (a capital word, then words, no log prefix or ':') is prose for the readers, not NCCL's
_PROSE_AFTER_LOG = re.compile(r"[.!?]\s+(?P<prose>(?:[A-Z][a-z']*|I)\s+[a-z][\w'/-]*(?:\s+[\w~(][\w'/.,~%()-]*){1,}"
                              r"[^:\n]*$)")
# en-s12b the asker's words after a dash on the log's line ('… vendor err 129 (Recv) — happens on 4 nodes with RoCE'):
# an em or en dash only, as NCCL writes ' - ' in its own lines ('busId 1000 - Init COMPLETE')
_PROSE_AFTER_DASH = re.compile(r"\s[—–]\s*(?P<prose>[A-Za-z][a-z']*\s+[a-z][\w'/-]*(?:\s+[\w~(][\w'/.,~%()-]*){1,}"
                               r"[^:\n]*$)")
_FENCE = re.compile(r"```[\w-]*\n(?P<body>.*?)```", re.DOTALL)
# Lines outside the pasted blocks that set NCCL_* variables for a run: the settings are read from
# them too (a command line stays in the prose for the word readers). A question ("should I set
# NCCL_IB_DISABLE=1?") is not a setting.
_ENV_LINE = re.compile(r"^\s*(?:export\s+|set\s+)?NCCL_[A-Z0-9_]+=\S|(?:^|\s)(?:-x|-e|--env)\s+NCCL_[A-Z0-9_]+=\S|"
                       r"^\s*[\"']NCCL_[A-Z0-9_]+[\"']\s*:", re.M)


@dataclass
class Pasted:
    """The tool output pasted into one question: where it sits, what it was, and what its parsers found.

    ``sources`` names, for each fact, the kind of output it came from (``"nccl-tests"``, ``"ibstat"``);
    ``partial`` is True when some of the output looks cut off or could not be read whole.
    """

    spans: list[tuple[int, int]] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    partial: bool = False
    coded: list[Note] = field(default_factory=list)  # the notes with their codes, in `notes`' order
    # facts read from output that shows only part of the measurement: the words' figure for it should win
    partial_facts: set[str] = field(default_factory=set)
    language: str = "en"  # the language `notes` are said in

    def notes_in(self, lang: str) -> list[str]:
        """The notes said in `lang` (the reader's language may differ from the one the question was written in)."""
        return [say(n, lang) for n in self.coded]

    def add(self, note: Note) -> None:
        if note not in self.coded:
            self.coded.append(note)
            self.notes.append(say(note, self.language))

    @property
    def start(self) -> int:
        return self.spans[0][0] if self.spans else 0

    @property
    def end(self) -> int:
        return self.spans[-1][1] if self.spans else 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for the turn's record."""
        return {"spans": [list(s) for s in self.spans], "kinds": self.kinds, "facts": self.facts,
                "notes": self.notes, "sources": self.sources, "partial": self.partial,
                "partial_facts": sorted(self.partial_facts)}


# The label a launcher puts before each line of a rank's output: srun --label's '0: ', pdsh/mpirun's '[0] ', Open MPI's
# '[1,0]<stdout>:', torchrun's '[rank0]:'; and the '> ' of a quoted reply. The line after it is the tool's.
_LABEL = re.compile(r"^\s*(?:>+\s?|\d{1,5}:\s|\[\d{1,5}\]\s+|\[\d+,\d+\]<std(?:out|err)>:\s?|\[rank\d+\]:\s?)")
# 'ip addr' numbers its interfaces the way srun labels lines ('2: ens1f0: <BROADCAST,…> mtu 9000'): not a label.
# and gpustat numbers its GPUs the way pdsh labels ranks ('[0] NVIDIA A100-SXM4-80GB | 45°C,  62 % | …').
_NUMBERED_INTERFACE = re.compile(r"^\s*\d+:\s+[^:\s]+:\s+<|^\s*\[\d+\]\s+[^|\n]+\|\s*-?\d+\s*(?:°|'|º)?\s*C,")


def unlabel(body: str) -> str:
    """A block whose lines mostly carry a launcher's rank label ('0: #  size  count …', '[1,0]<stdout>: [SUM] …'),
    without the labels: every parser then reads the tool's own lines."""
    lines = body.splitlines()
    filled = [ln for ln in lines if ln.strip()]
    labelled = [ln for ln in filled if _LABEL.match(ln) and not _NUMBERED_INTERFACE.match(ln)]
    if not filled or len(labelled) * 2 < len(filled):
        return body
    return "\n".join(ln if _NUMBERED_INTERFACE.match(ln) else _LABEL.sub("", ln, count=1) for ln in lines)


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
        unlabelled = _LABEL.sub("", line, count=1)
        if not inside and (_tool_line(line) or unlabelled != line and _tool_line(unlabelled)) \
                and not _sentence_from_a_setting(unlabelled):
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
    spans = [(s, e) for s, e in _merge(spans) if not _typed_table(text[s:e]) and not _typed_notes(text[s:e])]
    spans = _merge(spans + [m.span() for m in [*_INLINE.finditer(text), *_QUOTED.finditer(text)]
                            if (_inline_output(m["body"]) if m.re is _INLINE else _NCCL_FRAGMENT.search(m["body"]))
                            and not any(s <= m.start() < e for s, e in spans)
                            and not (_NCCL_FRAGMENT.search(m["body"])
                                     and tx.ABSENT_BEFORE.search(text, max(0, m.start() - 40), m.start()))])
    prose = list(text)
    for s, e in spans:
        one_line = "\n" not in text[s:e].rstrip("\n")
        if one_line and not text[s:e].lstrip().startswith(("{", "`")) and not _LOG_LINE.match(text[s:e]):
            continue  # one line of output amid prose ("Megatron log: elapsed … on 4 nodes"): words read it too
        if one_line and _LOG_LINE.match(text[s:e]):  # en-s10: a log line, then the asker's own sentence on that line
            words = _PROSE_AFTER_LOG.search(text, s, e) or _PROSE_AFTER_DASH.search(text, s, e)
            e = words.start("prose") if words else e
        for i in range(s, e):
            if prose[i] != "\n":
                prose[i] = " "
    return "".join(prose), spans


# A whole line of a measuring tool's output quoted inline amid prose ('Actual (iperf3): `[SUM] 0.0000-10.0012 sec
# 72.1 GBytes  61.9 Gbits/sec`'): a block of its own, labelled by the words before it on the line.
_INLINE = re.compile(r"(?<!`)`(?P<body>[^`\n]{12,400})`(?!`)")


def _inline_output(body: str) -> bool:
    return _tool_line(body) and _kind_of(body) in _MEASUREMENTS or bool(_NCCL_FRAGMENT.search(body))


# One of NCCL's own log lines quoted in a sentence without its prefix ('the log says "NET/Socket : Using
# [0]eth0:10.0.0.1<0>"', "NCCL prints 'NCCL_IB_DISABLE set by environment to 1.'"): NCCL's words, read by its parser.
_NCCL_FRAGMENT = re.compile(r"NET/(?:Socket|IB)\s*:\s*(?:Using\s+\[|No device found)|"
                            r"\bNCCL_[A-Z0-9_]+ set (?:by environment )?to \S|"
                            r"Using (?:internal )?[Nn]etwork \w|\b(?:Ring|Channel) \d+\S*\s*:.*\bvia NET/\w|"
                            r"GPU Direct RDMA (?:Disabled|Enabled) for|\bNCCL version \d")

_QUOTED = re.compile(r"(?<![\w'\"])(?P<q>['\"“‘])(?P<body>[^'\"“”‘’\n]{12,300})['\"”’](?![\w])")


_TOOL_TABLE = re.compile(r"NVIDIA-SMI|MiB|GPU-Util|Persistence|busbw|algbw|Bitrate|bits/sec", re.I)


def _typed_table(block: str) -> bool:
    """A markdown table a person typed ('| V100 (8 GPUs, single node) | 1h 20 mins |'): prose for the readers, not
    tool output — every line a table row (a '|---|' rule or not) and none of a tool's own words."""
    lines = [ln for ln in block.splitlines() if ln.strip()]
    return bool(lines) and all(ln.strip().startswith("|") for ln in lines) and not _TOOL_TABLE.search(block)


_NOTE_LINE = re.compile(r"^\s*[-*]?\s*[A-Za-z\u4e00-\u9fff][\w \u4e00-\u9fff/().-]{1,40}?\s*[:：]\s*\S")


def _typed_notes(block: str) -> bool:
    """A few 'Label: value' lines a person typed in a code block ('NVLink Bandwidth: NV8, 164.8GB/s' / 'Network
    Bandwidth: 4 CX7 NICs, 194GB/s in total'): a description of the setup, prose for the readers — unless a line is a
    tool's own output, a log line or code."""
    fence = _FENCE.fullmatch(block.strip())
    if fence is None:
        return False
    lines = [ln for ln in fence["body"].splitlines() if ln.strip()]
    return (0 < len(lines) <= 6 and all(_NOTE_LINE.match(ln) for ln in lines)
            and not any(_tool_line(ln) or _LOG_LINE.match(ln) for ln in lines)
            and not any(pattern.search(fence["body"]) for _, pattern, _ in _ROUTES)
            and not re.search(r"[=;{}]|^\s*(?:import|def|from|export|\$|#)", fence["body"], re.M))


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


# A parser's answer: facts, notes, and whether the output looked cut off.
Parsed = tuple[dict[str, Any], list[Note], bool]
Parser = Callable[[str], Parsed]

# The notes this module makes itself (English; the catalogue service/messages/pasted.yaml says them in each language).
NOTES = {
    "pasted.partial": "the pasted output looks cut off or incomplete; what it shows was read, the rest is unknown",
    "pasted.parse_failed": "{kind}: could not parse ({error})",
    "pasted.log_line": "{line}",
    "pasted.iperf3_error": "iperf3 reported an error: {error}",
    "pasted.iperf3_retransmits": "iperf3: {count} TCP retransmits",
    "pasted.iperf3_intervals": "iperf3: no summary line; the mean of the interval lines was used (partial output?)",
    "pasted.nccl_settings_passed": "NCCL settings passed without a value shown: {names}",
    "pasted.training_steps": "training log: {count} step times ({source})",
    "pasted.training_baseline": "training log: two runs pasted; {baseline:g} s per step after “{label}” is the "
                                "single-node baseline, {job:g} s per step the job",
    "pasted.baseline_block": "{kind}: the output after “{label}” is a single-node baseline, not the multi-node job; "
                             "its figures were not taken as the job's",
    "pasted.after_change_block": "{kind}: the output after “{label}” shows the state after a change, not the job's "
                                 "problem; its figures were not taken as the job's",
    "pasted.reference_block": "{kind}: the output after “{label}” is a reference or expected figure, not the job's "
                              "measurement; its figures were not taken as the job's",
    "pasted.nvidia_smi_snapshot": "nvidia-smi: one snapshot; utilisation over a minute of training is steadier",
    "pasted.ethtool_negotiated_lower": "ethtool: {nic} negotiated {speed:g} Gb/s but supports {rating:g} Gb/s",
    "pasted.other_nic_block": "{kind}: the output after “{label}” is of a NIC that does not carry the training "
                              "traffic; its figures were not taken as the job's",
    "pasted.gpus_idle": "nvidia-smi: every GPU shows 0 % with almost no memory in use, so no job was running on them; "
                        "no training utilisation was read from it",
    "pasted.collective_timeout": "PyTorch: a collective ({op}) ran {seconds:g} s until the watchdog's timeout: a hang "
                                 "or a rank that stopped, which no link is slow enough to explain",
}
PARTIAL_NOTE = NOTES["pasted.partial"]


def note(code: str, **params: Any) -> Note:
    """One of this module's own notes."""
    return make(NOTES, code, **params)


def say(item: Note, lang: str) -> str:
    """A note in `lang`, from the catalogue; its English text when the catalogue lacks the code."""
    try:
        return t("pasted." + item.code, lang, **item.params)
    except (KeyError, IndexError, ValueError):
        return item.text


def _iperf3_json(block: str) -> Parsed:
    result = parse_iperf3_json(block)
    notes = [note("pasted.iperf3_error", error=result.error)] if result.error and not result.ok else []
    if result.ok and result.retransmits:
        notes.append(note("pasted.iperf3_retransmits", count=result.retransmits))
    broken = result.error in ("not iperf3 JSON output", "iperf3 output has no end.sum_received.bits_per_second")
    return result.facts(), notes, broken


def _iperf3_text(block: str) -> Parsed:
    result = parse_iperf3_text(block)
    notes = [note("pasted.iperf3_error", error=result.error)] if result.error else []
    if result.ok and result.retransmits:
        notes.append(note("pasted.iperf3_retransmits", count=result.retransmits))
    if result.ok and result.role == "intervals":
        notes.append(note("pasted.iperf3_intervals"))
    return result.facts(), notes, result.ok and result.role == "intervals"


def _nccl_tests(block: str) -> Parsed:
    result = parse_nccl_tests(block)
    return result.all_facts(), result.coded_notes(), result.partial


def _collective_bench(block: str) -> Parsed:
    return parse_collective_bench(block).facts(), [], False


def _nccl_log(block: str) -> Parsed:
    result = parse_nccl_log(block)
    facts = result.all_facts()
    # The log also says which fabric NCCL found; record what the parser saw but did not turn into facts.
    # 'GPU Direct RDMA Disabled/Enabled for HCA 0 'mlx5_0'': NCCL's IB transport checked an RDMA device (HCA); GDR off
    # means the NIC does RDMA to host memory only, so the device is RDMA-capable all the same.
    if result.transport == "ib" or result.gdr_disabled_hcas or result.gdr_enabled_hcas:
        facts.setdefault("nic.rdma", True)
        if result.ib_link_layer in {"ib", "roce"}:
            facts.setdefault("nic.kind", "infiniband" if result.ib_link_layer == "ib" else "roce")
    if "libfabric" in (result.network_name or "").lower() and result.ofi_provider in (None, "efa"):
        facts.setdefault("nic.efa", True)  # 'via NET/AWS Libfabric/0': aws-ofi-nccl, so EFA unless told otherwise
    notes = [note("pasted.log_line", line=line) for line in result.evidence[:3]] + result.coded_notes()
    return facts, notes, False


def _nccl_env(block: str) -> Parsed:
    # "NCCL_IB_DISABLE=1?" asks whether to set it; only lines without a question mark are settings.
    result = parse_nccl_env("\n".join(line for line in block.splitlines() if "?" not in line and "？" not in line))
    notes = []
    if result.passed:
        notes.append(note("pasted.nccl_settings_passed", names=", ".join(result.passed)))
    return result.facts(), notes, False


def _deepspeed_config(block: str) -> Parsed:  # job-s11 ds config
    return parse_deepspeed_config(block), [], False


def _training_log(block: str) -> Parsed:
    result = parse_training_log(block)
    notes = [note("pasted.training_steps", count=len(result.step_times_s), source=result.source)] if result.source \
        else []
    facts = result.facts()
    if result.source == "tqdm" and (slowest := slowest_run_pace(block)) is not None:
        facts["job.step_time_s"] = round(slowest, 6)  # s33 bars of several labelled runs: the slow one's, no average
    return facts, notes, False


def _model_name(name: str) -> str:
    """The GPU model as the words name it: nvidia-smi's 'A100-SXM4-80GB', 'Tesla V100-SXM2-32GB' and 'GeForce RTX 3090'
    are the A100, the V100 and the RTX 3090 (its own name when no model is recognised in it)."""
    gpus = [e.name for e in find_entities(name) if e.kind == "gpu"]
    return gpus[0] if gpus else name


def _nvidia_smi(block: str) -> Parsed:
    result = parse_nvidia_smi(block)
    facts = result.facts()
    if isinstance(facts.get("gpu.model"), str):
        facts["gpu.model"] = _model_name(facts["gpu.model"])
    if result.topo_gpus:
        # a topology matrix is one machine's: the GPUs of its header are those each machine has (the job's unless the
        # words say fewer), its NIC columns the NICs
        facts.setdefault("gpu.count", result.topo_gpus)
        if result.topo_gpus > 1:
            facts["job.gpus_per_node"] = result.topo_gpus
    if result.topo_nics:
        facts["nic.count"] = result.topo_nics
    notes = [note("pasted.nvidia_smi_snapshot")] if result.gpus and any(
        g.util_pct is not None for g in result.gpus) else []
    if _idle(result.gpus):
        # no process holds memory on any GPU: the snapshot was taken when nothing ran, not during training
        facts.pop("gpu.util_pct", None)
        facts.pop("gpu.util_min_pct", None)
        notes = [note("pasted.gpus_idle")]
    return facts, notes + result.coded_notes(), False


def _idle(gpus: list[Any]) -> bool:
    """Every GPU at 0 % with under 2 % of its memory in use (a CUDA context alone takes about that)."""
    return bool(gpus) and all(g.util_pct == 0 and g.mem_used_mib is not None and g.mem_total_mib
                              and g.mem_used_mib < 0.02 * g.mem_total_mib for g in gpus)


# PyTorch's watchdog: 'Watchdog caught collective operation timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, …
# Timeout(ms)=1800000) ran for 1800431 milliseconds before timing out.'
_WATCHDOG = re.compile(r"Watchdog caught collective operation timeout:.*?OpType=(?P<op>\w+).*?"
                       r"ran for (?P<ms>\d+) milliseconds")


def _torch_errors(block: str) -> Parsed:
    """No fact: the watchdog's timeout says the collective hung, which is the question's subject, not a rate."""
    m = _WATCHDOG.search(block)
    return ({}, [note("pasted.collective_timeout", op=m["op"], seconds=round(int(m["ms"]) / 1000))] if m else [],
            False)


def _ib_ports(block: str) -> Parsed:
    result = parse_ib_ports(block)
    return result.facts(), result.coded_notes(), result.partial


def _perftest(block: str) -> Parsed:
    result = parse_perftest(block)
    return result.facts(), result.coded_notes(), result.partial


def _knb(block: str) -> Parsed:
    return parse_knb(block).facts(), [], False


def _lspci(block: str) -> Parsed:
    result = parse_lspci(block)
    return result.facts(), result.coded_notes(), False


def _ip_addr(block: str) -> Parsed:
    result = parse_ip_addr(block)
    return result.facts(), result.coded_notes(), False


def _kernel_log(block: str) -> Parsed:
    result = parse_kernel_log(block)
    return result.facts(), result.coded_notes(), False


_HOSTFILE_LINE = re.compile(r"^\s*(?P<host>[A-Za-z0-9][\w.\-]*)\s+(?:slots|max_slots)\s*=\s*(?P<slots>\d{1,3})\s*$",
                            re.M)


def _hostfile(block: str) -> Parsed:
    """An MPI / DeepSpeed hostfile ('node1 slots=8' a line): the machines of the run, and their GPUs when all agree."""
    entries = {m["host"]: int(m["slots"]) for m in _HOSTFILE_LINE.finditer(block)}
    facts: dict[str, Any] = {"job.nodes": len(entries)} if entries else {}
    if entries and len(set(entries.values())) == 1 and 1 <= next(iter(entries.values())) <= 16:
        facts["job.gpus_per_node"] = next(iter(entries.values()))
    return facts, [], False


# the command line above ethtool's output ('$ ethtool bond0 | grep Speed'), which names the interface when the
# output is cut to the Speed line and has no 'Settings for bond0:'
_ETHTOOL_COMMAND = re.compile(r"(?:^|[$#]\s*|\s)(?:sudo\s+)?ethtool\s+(?P<iface>[A-Za-z][\w.@-]{1,15})(?=\s|$|\|)",
                              re.M)
# a Linux bonding or teaming device: the interface is several ports aggregated, by what it is
_BOND_DEVICE = re.compile(r"(?:bond|team)\d+(?:\.\d+)?")


def _bond_looked_up(pasted: Pasted, text: str) -> None:
    """A bond's speed looked up with ethtool ('every node is 20000Mb/s: $ ethtool bond0 | grep Speed'): the link the
    question measures is a bond, whether the output or the words give the figure."""
    if any(_BOND_DEVICE.fullmatch(m["iface"]) for m in _ETHTOOL_COMMAND.finditer(text)):
        pasted.facts["nic.bonded"] = True
        pasted.sources["nic.bonded"] = "ethtool"


def _ethtool_command_above(pasted: Pasted, text: str, spans: list[tuple[int, int]]) -> None:
    """ethtool's output cut to its Speed line, with the command that names the interface left in the prose just above
    ('$ ethtool bond0 | grep Speed' then 'Speed: 20000Mb/s'): the speed is that interface's, a bond's when it is one.
"""
    if pasted.sources.get("nic.speed_gbps") != "ethtool" or "nic.name" in pasted.facts:
        return
    for s, e in spans:
        commands = list(_ETHTOOL_COMMAND.finditer(text, max(0, s - 120), s))
        command = commands[-1] if commands else None
        if command and "Speed:" in text[s:e] and not text[command.end():s].strip("\n |").count("\n"):
            pasted.facts["nic.name"] = command["iface"]
            if _BOND_DEVICE.fullmatch(command["iface"]):
                pasted.facts["nic.bonded"] = True
                pasted.sources["nic.bonded"] = "ethtool"
            return


def _ethtool(block: str) -> Parsed:
    result = parse_ethtool(block)
    facts = result.facts()
    if result.speed_gbps:
        facts["nic.speed_gbps"] = result.speed_gbps  # negotiated ("Speed: 25000Mb/s")
    command = _ETHTOOL_COMMAND.search(block)
    interface = result.interface or (command["iface"] if command and not command["iface"].startswith("-") else None)
    if interface:
        facts["nic.name"] = interface
        if _BOND_DEVICE.fullmatch(interface) and result.speed_gbps:
            facts["nic.bonded"] = True  # 'ethtool bond0 … Speed: 20000Mb/s': the speed read is a bond's
    notes = []
    rating = result.max_supported_gbps
    if rating and result.speed_gbps and result.speed_gbps < rating:
        notes.append(note("pasted.ethtool_negotiated_lower", nic=result.interface or "the NIC",
                          speed=result.speed_gbps, rating=rating))
    return facts, notes, False


def _net_monitor(block: str) -> Parsed:
    result = parse_net_monitor(block)
    return result.facts(), [], result.partial


def _nic_counters(block: str) -> Parsed:
    result = parse_nic_counters(block)
    return result.facts(), result.coded_notes(), False


def _rdma_devices(block: str) -> Parsed:
    return parse_rdma_devices(block).facts(), [], False


def _read_throughput(block: str) -> Parsed:  # s21 a streamer's or loader's 'Read throughput is 1.20 GB per second'
    return parse_read_throughput(block).facts(), [], False


# Which parser to try for which content; several may apply to one block (NCCL lines inside an
# nccl-tests run). The first route that gives a fact keeps it: what a tool measured or NCCL says it
# uses comes before a setting or a snapshot.
_ROUTES: list[tuple[str, re.Pattern[str], Parser]] = [
    ("iperf3-json", re.compile(r"\"(?:end|start|intervals)\"\s*:|\"error\"\s*:\s*\"", re.S), _iperf3_json),
    ("iperf3", re.compile(r"bits/sec"), _iperf3_text),
    ("knb", re.compile(r"^\s*Discovered (?:MTU|k8s version)\s*:|^\s*Pod to (?:pod|Service)\s*:\s*$", re.M | re.I),
     _knb),
    ("perftest", re.compile(r"#bytes\s+#iterations|BW average\[|BW Test\s*$|^\s*GID index\s*:\s*\d|"
                            r"\bib_(?:write|read|send)_(?:bw|lat)\s.*(?:-x\s*|--gid-index[=\s]\s*)\d", re.M),
     _perftest),
    ("nccl-tests", re.compile(r"busbw|Avg bus bandwidth|out-of-place|nccl-tests version|Collective test starting|"
                              r"^\s*\d+\s+\d+\s+(?:float|half|bfloat16|int8|"
                              r"uint8|int32|uint32|int64|uint64|double|fp8\w*)\s+(?:sum|prod|min|max|avg|none)\b",
                              re.I | re.M), _nccl_tests),
    ("collective-bench", BENCH_LINE, _collective_bench),
    ("nccl-log", re.compile(r"NCCL (?:INFO|WARN)|NCCL version \d|via NET/|NET/(?:IB|Socket|Plugin|OFI)\s*:?|"
                            r"INFO Using internal Network"), _nccl_log),
    ("ibstat", re.compile(r"Link layer:|CA type:|Infiniband device '|^\s*hca_id:|==\(\s*(?:\d+X\s|\w+/)", re.M),
     _ib_ports),
    ("ethtool", re.compile(r"Settings for \S+:|Supported link modes:"), _ethtool),
    ("hostfile", _HOSTFILE_LINE, _hostfile),
    ("kernel-log", re.compile(r"\bLink (?:is )?(?:up|down)\b|link status definitely (?:up|down)|carrier lost|"
                              r"available PCIe bandwidth|not sufficient for optimal performance", re.I), _kernel_log),
    ("lspci", re.compile(r"ACSCtl:|LnkSta:|LnkCap:"), _lspci),
    ("nvidia-smi", re.compile(r"NVIDIA-SMI|GPU-Util|utilization\.gpu|pcie\.link|GPU Link Info|Attached GPUs|"
                              r"^\s*(?:PCIe Generation|Link Width)\s*$|"
                              r"^\s*GPU0\s+(?:GPU1|NIC0|CPU Affinity)|\d+MiB\s*/\s*\d+MiB|"
                              + GPU_MONITOR_ROUTE.pattern, re.M), _nvidia_smi),
    ("nic-monitor", NET_MONITOR_ROUTE, _net_monitor),
    ("torch-errors", _WATCHDOG, _torch_errors),
    ("nic-counters", NIC_COUNTERS_ROUTE, _nic_counters),
    ("rdma-devices", RDMA_DEVICES_ROUTE, _rdma_devices),
    ("read-throughput", READ_THROUGHPUT_ROUTE, _read_throughput),
    ("ip", re.compile(r"^[^:\s]+:\s+flags=\d+<[^>]*>\s+mtu\s+\d|^[^:\s]+\s+Link encap:|"
                      r"^\d+:\s+[^:\s]+:\s+<[^>]*>\s+mtu|^(?:default|\d{1,3}(?:\.\d{1,3}){3}(?:/\d{1,2})?)\s+"
                      r"(?:via|dev)\s|^[\w.@-]+\s+(?:UP|DOWN|UNKNOWN)\s+\d{1,3}(?:\.\d{1,3}){3}/\d", re.M), _ip_addr),
    ("nccl-env", re.compile(r"NCCL_[A-Z0-9_]+\s*(?:=|:\s|[\"']\s*[\]:,=])|NCCL_[A-Z0-9_]+ set (?:by environment )?to|"
                            r"^\s*-?\s*name\s*:\s*[\"']?NCCL_[A-Z0-9_]+[\"']?\s*$|^\s*ENV\s+NCCL_[A-Z0-9_]+\s+\S",
                            re.M),
     _nccl_env),
    ("deepspeed-config", DEEPSPEED_CONFIG_ROUTE, _deepspeed_config),  # job-s11 ds config
    ("training-log", re.compile(r"elapsed time per iteration|it/s|s/it|train_runtime|train_steps_per_second|"
                                r"\d\s*(?:s|sec)/(?:step|iter)\b|\d\s*(?:iters?|steps?)/s\b|"
                                r"step[_ ]time\s*[=:]|train_step_timing|global_step|step:\s*\d+|iteration\s+\d+/|"
                                r"train_speed\(iter/s\)|(?<![\w.])data_time:\s*\d|\biter:\s*\d+\s.*\btime:\s*\d|"
                                r"step\w*\(\)\s*[=:]\s*\d|\bstep\s*[:#]?\s*\d+\s*[|,].*\btime:\s*\d|"
                                + TRAINING_LOG_HINT.pattern,  # the parser's own forms (phase timers, timing dicts)
                                re.I),
     _training_log),
]


_OTHER_COLLECTIVE_RUN = re.compile(r"(?<![A-Za-z])(?:all_?gather|all_?to_?all|reduce_?scatter|broadcast|sendrecv|"
                                   r"(?<!all_)reduce|gather|scatter|hypercube)_perf\b", re.IGNORECASE)


def _other_collective_named(pasted: Pasted, text: str, spans: list[tuple[int, int]]) -> None:
    """'I ran all_gather_perf -b 16M …:' then the table or its 'Avg bus bandwidth' line: another collective's bus
    bandwidth, named in the words before the paste (the table alone cannot tell), is no all-reduce figure."""
    if pasted.sources.get("nccl.allreduce_busbw_gbytes_per_s") != "nccl-tests" or not spans:
        return
    table = next((a for a, b in spans if re.search(r"bus ?bandwidth|busbw|#\s+size", text[a:b], re.IGNORECASE)),
                 spans[0][0])
    before = text[max(0, table - 240):table]
    if _OTHER_COLLECTIVE_RUN.search(before) and not re.search(r"all_?reduce", before, re.IGNORECASE):
        for key in ("nccl.allreduce_busbw_gbytes_per_s", "nccl.allreduce_algbw_gbytes_per_s"):
            pasted.facts.pop(key, None)
            pasted.sources.pop(key, None)


def parse_pasted(text: str, lang: str | None = None) -> tuple[str, Pasted]:
    """Prose with the pasted output blanked, and the facts the parsers found in that output.

    All blocks are parsed together: one run of output is often split by a line the extractor took
    for prose (an mpirun banner, a blank line with a stray word), and the parsers want the whole run.
    The notes are said in `lang`, else in the language of the prose around the output.
    """
    prose, spans = split_pasted(text)
    pasted = Pasted(spans=spans, language=lang or detect_language(prose if prose.strip() else text))
    _bond_looked_up(pasted, text)
    if not spans and not _ENV_LINE.search(text):
        return prose, pasted
    bodies = []
    for s, e in spans:
        body = text[s:e]
        fence = _FENCE.fullmatch(body.strip())
        inline = _INLINE.fullmatch(body.strip()) or _QUOTED.fullmatch(body.strip())
        bodies.append(unlabel(fence["body"] if fence else inline["body"] if inline else body))
    blocks = _blocks(text, prose, spans, bodies)
    body = "\n".join(b.body for b in blocks if b.role == "job")
    settings = _setting_lines(text, spans)
    for kind, pattern, parser in _ROUTES:
        given = body + "\n" + settings if kind == "nccl-env" and settings else body
        if not pattern.search(given):
            continue
        try:
            facts, notes, partial = parser(_json_only(body) if kind == "iperf3-json" else given)
        except Exception as exc:  # a parser bug must not lose the rest of the question
            pasted.add(note("pasted.parse_failed", kind=kind, error=type(exc).__name__))
            pasted.partial = True
            continue
        if facts or notes or partial:
            pasted.kinds.append(kind)
            for key, value in facts.items():
                if key not in pasted.facts:
                    pasted.facts[key] = value
                    pasted.sources[key] = kind
            for item in notes:
                pasted.add(item)
            pasted.partial = pasted.partial or partial
    _gpu_links_said_by_the_words(pasted, blocks, prose)
    _ethtool_command_above(pasted, text, spans)
    if pasted.facts.get("nic.rdma") is False and pasted.sources.get("nic.rdma") == "nccl-log" \
            and (_IN_A_CONTAINER.search(text) or _RDMA_ADAPTER_NAMED.search(prose)):
        # (or the words name an RDMA adapter the hosts have: 'We have ConnectX-6 cards', NCCL just cannot open it)
        # 'NET/IB : No device found' inside a container says the devices were not passed in, not that the hosts lack
        # them ('同样的脚本在宿主机上直接跑没问题，一进容器 NCCL 就打 No device found')
        del pasted.facts["nic.rdma"]
    _set_aside(pasted, blocks)
    _drop_unset(pasted, body, prose)
    _other_collective_named(pasted, text, spans)
    _mark_partial_measurements(pasted, blocks, prose)
    if text.count("```") % 2:
        pasted.partial = True  # a code fence opened and never closed: the paste was cut
    if pasted.partial:
        pasted.add(note("pasted.partial"))
    return prose, pasted


# Words just before a pasted block that say it is a single-node run, within one machine (a baseline when the question is
# about several nodes), or a run across several nodes (the job).
_SINGLE_NODE_LABEL = re.compile(
    r"单机|单节点|单台|一台机器|(?<![\d.])1\s*台|机内|节点内|同一(?:台)?(?:机器|节点)|"
    r"\bsingle[- ]?(?:node|machine|host|server)\b|\bone (?:node|machine|host|server)\b|\b1[- ]?(?:node|machine)\b|"
    r"\b(?:within|inside|in) (?:a |one |the same |a single |each )?(?:node|machine|host|server)\b|"
    r"\bintra[- ]?(?:node|machine|host)\b|\bbaseline\b|基线|"
    # a launcher's or config's node count ('nnodes=1', '--nnodes 1', 'trainer.nnodes=1', 'NNODES=1', 'num_nodes: 1')
    r"\b(?:n_?nodes|num_?nodes|num_machines|node_count)\s*[=:]?\s*1(?!\d|\.\d)", re.IGNORECASE)
_MULTI_NODE_LABEL = re.compile(
    r"多机|多节点|多台|双机|两台|[2-9二三四五六七八]\s*台|跨机|跨节点|机间|节点间|"
    r"\bmulti[- ]?(?:node|machine|host)s?\b|"
    r"\b(?:[2-9]|\d{2,}|two|four|eight)[- ]?(?:\w+[- ])?(?:nodes|machines|hosts|servers)\b|"
    r"\b(?:across|between) (?:the |all |two |\d+ )?(?:nodes|machines|hosts|servers)\b|\binter[- ]?(?:node|host)\b|"
    r"\b(?:n_?nodes|num_?nodes|num_machines|node_count)\s*[=:]?\s*(?:[2-9]|\d{2,})(?!\d|\.\d)",
    re.IGNORECASE)
# Words just before a pasted block that say it shows the state after a change the user tried or proposes ('after the
# fix is applied:', '修复后：', 'if I set NCCL_ALGO=Ring:'): the job's problem state is another block of that tool.
# Turning on NCCL's debug log is how the output was got, not a change to the job.
_AFTER_CHANGE_LABEL = re.compile(
    r"\bafter (?:the |this |that |a |our |my |your )?(?:fix|patch|change|upgrade|update|workaround)|"
    r"\bafter (?:applying|installing|upgrading|updating|setting|exporting|changing|switching|adding|removing|"
    r"disabling|enabling|rebuilding|building|patching|fixing)\b(?!.{0,30}(?:NCCL_DEBUG|debug|log))|"
    r"\bwith (?:the |this |that |your )?(?:fix|patch|workaround)\b|\b(?:fixed|patched) (?:version|build|run)\b|"
    r"\b(?:if|when|once) (?:I|we|you) (?:set|change|switch|export|add|use|disable|enable|apply|remove)\b"
    r"(?!.{0,30}(?:NCCL_DEBUG|debug|log))|"
    r"修复后|修复之后|修好后|补丁后|打了补丁|打补丁后|应用补丁|升级(?:之)?后|"
    r"(?:改成|改为|换成|设成|设为|设置为|加上|去掉|关掉|打开).{0,40}?(?:之后|以后|后)|如果(?:我|我们)?(?:设|改|把|加|关|开)",
    re.IGNORECASE)
# Words just before a pasted block that say it shows what was expected or another tool's reference figure
# ('Expected (iperf2):', '期望：', 'for reference:'), beside a block of that tool that is not so labelled.
_REFERENCE_LABEL = re.compile(r"\bexpected\b|\bexpectation\b|\bfor reference\b|\breference\b|\bideal\b|"
                              r"\biperf ?2\b|期望|预期|参考|理想", re.IGNORECASE)
# Words just before a NIC monitor's output that say the NIC it watches carries no training traffic ('iftop on the
# storage NIC:', '存储网卡 nload：', 'the management port').
_OTHER_NIC_LABEL = re.compile(r"\bstorage\b|\bNFS\b|\bLustre\b|\bGPFS\b|\bCeph\b|\bmanagement\b|\bmgmt\b|\bBMC\b|"
                              r"\bIPMI\b|\bfront[- ]?end\b|存储|管理(?:网|口)|带外", re.IGNORECASE)
# Words that say a pasted table is only part of the output ('Part of the all_reduce_perf output:', '部分输出：').
_PART_LABEL = re.compile(r"\b(?:part of|parts of|some of|an? (?:excerpt|snippet|extract)|excerpt|snippet|partial|"
                         r"truncated|(?:first|last|a few) (?:lines|rows))\b|部分|节选|片段|截取|摘录|前几行|后几行",
                         re.IGNORECASE)
# A message size the words talk about ('4GB all-reduce', 'at 8 GB', '1G 消息'), to compare with the table's rows.
_NAMED_SIZE = re.compile(r"(?:\b(?:at|@|size|sizes|message|messages|msg|buffer|up to)\s+(?:of\s+)?|消息|大小|数据量)"
                         r"\s*(?P<a>\d+(?:\.\d+)?)\s*(?P<ua>[KMG])i?B?\b(?!\s*/\s*s)|"
                         r"(?P<b>\d+(?:\.\d+)?)\s*(?P<ub>[KMG])i?B?\s*(?:messages?|msgs?|buffers?|all[- ]?reduce|"
                         r"allreduce|消息)", re.IGNORECASE)
_MEASURED = ("nccl.allreduce_busbw_gbytes_per_s", "nccl.allreduce_algbw_gbytes_per_s")
# The tools whose output is a measurement of one run, which a single-node run gives as a baseline; a log or a listing
# describes the job's own setup ('看 NCCL 日志发现只有一台机器用上了 GDRDMA：' introduces the job's log).
_MEASUREMENTS = {"nccl-tests", "collective-bench", "training-log", "perftest", "iperf3", "iperf3-json", "knb"}


@dataclass
class _Block:
    """One pasted block, the words that introduce it, and whose state it shows.

    ``role``: ``"job"`` (the job's problem state, read for facts), ``"baseline"`` (a single-node run beside a multi-node
    job), ``"after"`` (the state after a change the user tried or proposes) or ``"reference"`` (what was expected, or
    another tool's figure, beside the job's own run of the tool).
    """

    start: int
    body: str
    label: str
    kind: str | None
    role: str = "job"


# An RDMA adapter the words name ('We have ConnectX-6 cards'): NCCL's 'No device found' then says it cannot open it.
_RDMA_ADAPTER_NAMED = re.compile(r"ConnectX|Mellanox|(?<![A-Za-z])(?:CX-?[3-8]|mlx[45]_?\w*|BlueField|HCAs?)"
                                 r"(?![A-Za-z])", re.IGNORECASE)
_IN_A_CONTAINER = re.compile(r"docker|podman|container|容器|(?<![A-Za-z])pods?(?![A-Za-z])|kubernetes|k8s|enroot|pyxis|"
                             r"singularity|apptainer", re.IGNORECASE)


# lspci's link lines pasted without their device line ('lspci -vvv on the GPU:', 'GPU 的 LnkSta：'): a GPU's when the
# words that label them name a GPU and no NIC, or, with a label naming neither, when the question's words name a GPU
# and no NIC anywhere
_LSPCI_HEADER = re.compile(r"^(?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]\s", re.M)
_GPU_LINK_LABEL = re.compile(r"GPU|显卡|(?<![A-Za-z])(?:[AHLV]100|H[28]00|A[48]00|H20|A10G?|A30|A6000|T4|RTX\s?\d{4}|"
                             r"[AL]40S?|3D controller|cards?)(?![A-Za-z\d])", re.IGNORECASE)
_NIC_LINK_LABEL = re.compile(r"网卡|交换|(?<![A-Za-z])(?:NICs?|HCAs?|ConnectX\S*|CX-?\d|mlx5\w*|Mellanox|"
                             r"Ethernet controller|Infiniband controller|NVMe|switch)(?![A-Za-z])", re.IGNORECASE)
_GPU_LINK_FACTS = ("gpu.pcie_gen", "gpu.pcie_width", "gpu.pcie_gen_max", "gpu.pcie_width_max")


def _gpu_links_said_by_the_words(pasted: Pasted, blocks: list[_Block], prose: str) -> None:
    if any(k in _GPU_LINK_FACTS for k in pasted.facts):
        return
    for block in blocks:
        if block.kind != "lspci" or block.role != "job" or _LSPCI_HEADER.search(block.body):
            continue
        named = block.label if _GPU_LINK_LABEL.search(block.label) else prose
        if not _GPU_LINK_LABEL.search(named) or _NIC_LINK_LABEL.search(named) or _NIC_LINK_LABEL.search(block.label):
            continue
        for key, value in parse_lspci(block.body).facts(headless_are_gpus=True).items():
            if key in _GPU_LINK_FACTS and key not in pasted.facts:
                pasted.facts[key] = value
                pasted.sources[key] = "lspci"


def _kind_of(body: str) -> str | None:
    """The first route whose pattern the block matches: the tool it is output of."""
    return next((kind for kind, pattern, _ in _ROUTES if pattern.search(body)), None)


def _label_before(text: str, start: int, floor: int) -> str:
    """The last line of prose before a block (after the previous block): how a person labels what they paste."""
    before = text[floor:start].rstrip()
    line = before.rsplit("\n", 1)[-1].strip() if before else ""
    clauses = [c for c in re.split(r"[。！？；!?;]|\.\s", line) if c.strip()]  # the last sentence labels the block
    return clauses[-1].strip()[-120:] if clauses else ""


def _blocks(text: str, prose: str, spans: list[tuple[int, int]], bodies: list[str]) -> list[_Block]:
    """Each block with its label and role. Several blocks of one tool are told apart by the words before each:
    a single-node measurement ('Within one node:', '单机：') is a baseline when the question is about several nodes or
    another run of that tool is not single-node; a block after a change ('after the fix is applied:', '修复后：')
    is set aside when another run of that tool shows the state before it. Anything not clear stays the job's."""
    blocks = []
    floor = 0
    for (start, end), body in zip(spans, bodies, strict=True):
        runs = labelled_runs(body)
        if runs:
            blocks.extend(_pick_run(text, start, end, body, runs))
        else:
            blocks.append(_Block(start, body, _label_before(text, start, floor), _kind_of(body)))
        floor = end
    several_nodes = bool(_MULTI_NODE_LABEL.search(prose))
    single = [bool(_SINGLE_NODE_LABEL.search(b.label) and not _MULTI_NODE_LABEL.search(b.label)) for b in blocks]
    for i, block in enumerate(blocks):
        if block.kind is None:
            continue
        others = [j for j, b in enumerate(blocks) if j != i and b.kind == block.kind]
        if single[i] and block.kind in _MEASUREMENTS and (several_nodes or any(not single[j] for j in others)):
            block.role = "baseline"
    for i, block in enumerate(blocks):
        if block.kind is not None and block.role == "job" and _AFTER_CHANGE_LABEL.search(block.label) and any(
                b.kind == block.kind and b.role == "job" and not _AFTER_CHANGE_LABEL.search(b.label)
                for j, b in enumerate(blocks) if j != i):
            block.role = "after"
    for block in blocks:
        if block.kind == "nic-monitor" and _OTHER_NIC_LABEL.search(block.label):
            block.role = "other-nic"
    for i, block in enumerate(blocks):
        if block.kind is not None and block.role == "job" and _REFERENCE_LABEL.search(block.label) and any(
                b.kind == block.kind and b.role == "job" and not _REFERENCE_LABEL.search(b.label)
                for j, b in enumerate(blocks) if j != i):
            block.role = "reference"
    return blocks


def _pick_run(text: str, start: int, end: int, body: str, runs: list[LabelledRun]) -> list[_Block]:
    """The runs of a block of labelled commands as blocks of their own. The words name the job's run by a setting only
    it has ('加了 `-x NCCL_IB_HCA=mlx4_0:2` 走 RDMA'): the other runs are set aside as comparisons. When the words name
    none, or more than one, the settings the runs do not share are left unread: which run is the job's is unknown."""
    outside = text[:start] + " " + text[end:]
    named = [i for i, run in enumerate(runs)
             if any(re.search(rf"{k}\s*=\s*{re.escape(v)}(?![\w:,.-])", outside) for k, v in run.own(runs))]
    if len(named) == 1:
        return [_Block(start + run.start, body[run.start:run.end], run.label, _kind_of(body[run.start:run.end]),
                       role="job" if i == named[0] else "comparison") for i, run in enumerate(runs)]
    shared = "\n".join(f"{k}={v}" for k, v in runs[0].env.items() if all(r.env.get(k) == v for r in runs[1:]))
    rest = re.sub(r"(?:-x\s+|--env\s+|-e\s+|export\s+)?NCCL_[A-Z0-9_]+=\S*", " ", body)
    return [_Block(start, shared + "\n" + rest, "", _kind_of(body))]


def _set_aside(pasted: Pasted, blocks: list[_Block]) -> None:
    """What the blocks that are not the job's problem state give: a single-node training log's step time is the
    baseline (job.step_time_baseline_s); every such block gets a note saying its figures were not taken as the job's."""
    baselines = [parse_training_log(b.body) for b in blocks if b.role == "baseline" and b.kind == "training-log"]
    timed = [r for r in baselines if r.source and r.median_s]
    for block in blocks:
        if block.role in ("job", "comparison"):
            continue  # a comparison run's settings were left out; the message catalogue has no note for it yet
        label = block.label[-40:]
        if block.role == "baseline" and block.kind == "training-log" and len(timed) == 1:
            baseline = timed[0].facts()["job.step_time_s"]
            pasted.facts.setdefault("job.step_time_baseline_s", baseline)
            pasted.sources.setdefault("job.step_time_baseline_s", "training-log")
            if "job.step_time_s" in pasted.facts:
                pasted.add(note("pasted.training_baseline", baseline=baseline, label=label,
                                job=pasted.facts["job.step_time_s"]))
                continue
        code = {"baseline": "pasted.baseline_block", "reference": "pasted.reference_block",
                "other-nic": "pasted.other_nic_block"}.get(
            block.role, "pasted.after_change_block")
        pasted.add(note(code, kind=block.kind, label=label))


def _mark_partial_measurements(pasted: Pasted, blocks: list[_Block], prose: str) -> None:
    """nccl-tests figures from a table that shows only part of the run ('Part of the output:', a cut table, rows that
    stop before the message size the words talk about) go into `partial_facts`: a figure the words state for the same
    measurement is the whole run's and should win over them."""
    tables = [b for b in blocks if b.role == "job" and b.kind == "nccl-tests"]
    if not tables or not any(pasted.sources.get(k) == "nccl-tests" for k in _MEASURED):
        return
    result = parse_nccl_tests("\n".join(b.body for b in tables))
    largest = result.max_size_bytes or 0
    named = [float(m["a"] or m["b"]) * _UNIT[(m["ua"] or m["ub"]).upper()] for m in _NAMED_SIZE.finditer(prose)]
    if result.partial or any(_PART_LABEL.search(b.label) for b in tables) or any(n > largest for n in named):
        pasted.partial_facts.update(k for k in _MEASURED if pasted.sources.get(k) == "nccl-tests")


_UNIT = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def _setting_lines(text: str, spans: list[tuple[int, int]]) -> str:
    """The lines outside the pasted blocks that set NCCL_* variables, questions left out."""
    lines = []
    pos = 0
    for line in text.splitlines(keepends=True):
        start, pos = pos, pos + len(line)
        if any(s <= start < e for s, e in spans) or "?" in line or "？" in line:
            continue
        if _ENV_LINE.search(line) and not _NOT_SET.search(line) and _made_of_settings(line):
            lines.append(line.rstrip("\n"))
    return "\n".join(lines)


def _sentence_from_a_setting(line: str) -> bool:
    """A line that starts with an NCCL_* setting and goes on in words: a sentence broken after its verb, not output."""
    return bool(re.match(r"\s*(?:export\s+|set\s+)?NCCL_[A-Z0-9_]+\s*=", line)) and not _made_of_settings(line)


def _made_of_settings(line: str) -> bool:
    """'export NCCL_IB_DISABLE=1  # debug', 'NCCL_DEBUG=INFO python train.py': settings, a command at most; a sentence
    that starts with one ('NCCL_IB_DISABLE=1 was suggested if I were on a single node, but I am not') is prose."""
    words = [w for w in line.split("#", 1)[0].split()
             if not re.match(r"(?:export|set|-x|-e|--env)$|[\"']?[A-Za-z_][A-Za-z0-9_]*[\"']?\s*[=:]", w)]
    return len(words) <= 3


# 'make sure we don't export NCCL_IB_DISABLE=1 … we set neither', '不要设 NCCL_P2P_DISABLE=1': not set at all
_NOT_SET = re.compile(r"(?:don't|do not|doesn't|not|never|neither|nor|without|no longer|"
                      r"不要|别|不用|没有|没|未|无需|不需要)\s+"
                      r"(?:\w+\s+){0,3}?(?:export(?:ed)?\s+|set(?:ting)?\s+|设(?:置)?\s*|加\s*)?NCCL_", re.IGNORECASE)


# A variable the words say was not set ('我没有设 NCCL_IB_DISABLE，也没设 NCCL_SOCKET_IFNAME', "I didn't set
# NCCL_SOCKET_IFNAME", 'NCCL_SOCKET_IFNAME is not set', 'NCCL_SOCKET_IFNAME 和 NCCL_IB_HCA 都没设').
_NAMES = r"`?NCCL_[A-Z0-9_]+`?(?:\s*(?:,|、|/|和|与|或|及|or|and|nor)\s*`?NCCL_[A-Z0-9_]+`?)*"
_UNSET_SAID = re.compile(
    rf"(?:没有|没|未|并未|从未|不曾)\s*(?:设置?|配置|设定|指定|导出|export|加)(?:过|了)?\s*(?:任何)?\s*(?P<a>{_NAMES})|"
    rf"(?P<b>{_NAMES})\s*(?:也|都|均)?\s*(?:没有|没|未)\s*(?:设置?|配置|设定|指定)|"
    rf"(?<![A-Za-z])(?:didn't|did not|don't|do not|haven't|have not|never|neither)\s+(?:\w+\s+)?"
    rf"(?:set|export|specify|pass|use)(?:\s+(?:either|any of))?\s+(?P<c>{_NAMES})|"
    rf"(?P<d>{_NAMES})\s+(?:is|was|are|were)\s+(?:not|never|n't)\s+(?:set|exported|specified)", re.IGNORECASE)
# Facts the NCCL log infers when no setting says them, and the setting each stands for: the interface NCCL picked itself
# ('NET/Socket : Using [0]eno1') is no NCCL_SOCKET_IFNAME the user set.
_INFERRED = {"nccl.socket_ifname": "NCCL_SOCKET_IFNAME"}


def _drop_unset(pasted: Pasted, body: str, prose: str) -> None:
    """A fact the log inferred for a setting the words say was never set is not that setting; the log's own echo of
    the setting ('NCCL_SOCKET_IFNAME set by environment to eth0') shows it was set after all and keeps it."""
    unset = {name.strip("`").upper() for m in _UNSET_SAID.finditer(prose)
             for name in re.findall(r"NCCL_[A-Z0-9_]+", m.group(0), re.IGNORECASE)}
    for fact, name in _INFERRED.items():
        echoed = re.search(rf"{name}\s*(?:=|set (?:by environment )?to)", body)
        if name in unset and pasted.sources.get(fact) == "nccl-log" and not echoed:
            del pasted.facts[fact]
            del pasted.sources[fact]


def _json_only(body: str) -> str:
    span = _json_span(body)
    return body[span[0]:span[1]] if span else body
