"""Pasted output and NCCL settings: generated batteries over the shapes nccl-tests, NCCL and people print.

nccl-tests tables (the new layout with 'root', the old one, the oldest 'bytes N … res' in ms, the per-iteration report's
21 cells) with and without their header, one- or two-sided, wrapped in fences, indents, quotes, rank labels or pipes; a
headless row's layout is the one whose own arithmetic holds (algbw = size / time, busbw at most twice algbw). Figures
quoted in prose, NCCL's log lines (whole, labelled, inline, quoted in a sentence), and settings written every way, with
the traps: a setting asked about or planned, another collective's table, the benchmark's arguments and message sizes.
"""

from __future__ import annotations

import itertools
import math

import pytest

from bwdoctor.chat.pasted import parse_pasted
from bwdoctor_parsers.nccl_tests import parse_nccl_tests
from tests.matching import same_value
from tests.matching import stated_facts as facts

BUS, ALG = "nccl.allreduce_busbw_gbytes_per_s", "nccl.allreduce_algbw_gbytes_per_s"
SIZES = [8, 1024, 1 << 20, 32 << 20, 128 << 20, 512 << 20, 1 << 30, 2 << 30]


def _busbw(size: int, peak: float) -> float:
    """A sweep's curve: near 0 at 8 bytes, the peak at the largest size."""
    return round(peak * min(1.0, math.log2(size) / math.log2(SIZES[-1])) ** 4, 2)


def _row(layout: str, size: int, peak: float, dtype: str = "float", op: str = "sum", sides: int = 2) -> str:
    width = {"float": 4, "half": 2, "bfloat16": 2, "double": 8, "int8": 1, "uint8": 1, "int32": 4}[dtype]
    bus = _busbw(size, peak)
    alg = round(bus / 1.875, 2)
    time = round(size / max(alg, 0.001) / 1e3, 1)
    if layout in ("new", "periter"):
        head = f"{size:>12}  {size // width:>12}  {dtype:>8}  {op:>6}  {-1:>6}"
        half = f"{time:>9}  {alg:>6.2f}  {bus:>6.2f}  {0:>6}"
        if layout == "periter":
            half += f"  {time * 0.9:>7.1f}  {time * 1.2:>7.1f}  {time * 1.1:>7.1f}  {1.5:>7.2f}"
    else:
        head = f"{size:>12}  {size // width:>12}  {dtype:>8}  {op:>6}"
        half = (f"{time / 1000:>9.3f}  {alg:>5.2f}  {bus:>5.2f}  {'0e+00':>7}" if layout == "oldest"
                else f"{time:>9}  {alg:>6.2f}  {bus:>6.2f}  {'0e+00':>7}")
    return head + ("  " + half) * sides


_HEADERS = {
    "new": "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw"
           "   busbw #wrong\n#        (B)    (elements)                               (us)  (GB/s)  (GB/s)"
           "            (us)  (GB/s)  (GB/s)       \n",
    "periter": "#       size         count      type   redop    root     time   algbw   busbw #wrong   i_min   i_max   "
               "i_p99   i_cv%     time   algbw   busbw #wrong   i_min   i_max   i_p99   i_cv%\n",
    "old": "#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw"
           "  error\n",
    "oldest": "#      bytes             N    type      op     time  algbw  busbw      res     time  algbw  busbw"
              "      res\n",
}
_OPS = {"all_reduce": "sum", "reduce_scatter": "sum", "all_gather": "none", "alltoall": "none", "broadcast": "none"}


def _table(collective: str = "all_reduce", layout: str = "new", peak: float = 18.75, *, header: bool = True,
           sides: int = 2, dtypes: tuple[str, ...] = ("float",), banner: bool = True) -> str:
    out = ""
    if banner:
        out += ("# nccl-tests version 2.13.9 nccl-headers=21903 nccl-library=21903\n"
                f"# Collective test starting: {collective}_perf\n") if layout in ("new", "periter") else ""
        out += ("# nThread 1 nGpus 1 minBytes 8 maxBytes 2147483648 step: 2(factor) warmup iters: 5 iters: 20\n#\n"
                "# Using devices\n#  Rank  0 Group  0 Pid  12 on node1 device  0 [0x07] NVIDIA H100 80GB HBM3\n#\n")
    out += _HEADERS[layout] if header else ""
    out += "".join(_row(layout, s, peak, d, _OPS[collective], sides) + "\n" for s in SIZES for d in dtypes)
    return out + "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 4.12345 \n#\n"


def _wrap(text: str, how: str) -> str:
    lines = text.splitlines()
    if how == "fence":
        return "```\n" + text + "```\n"
    prefix = {"indent": "    ", "mpi": "[1,0]<stdout>:", "quote": "> ", "srun": "0: "}.get(how)
    if prefix is not None:
        return "".join(prefix + ln + "\n" for ln in lines)
    if how == "nohash":  # markdown ate the '#' of the comment lines
        return "".join((ln[1:] if ln.startswith("#") else ln) + "\n" for ln in lines)
    if how == "pipes":
        return "".join("| " + " | ".join(ln.lstrip("#").split()) + " |\n" for ln in lines if ln.strip("# "))
    return text


_LAYOUTS = ["new", "old", "oldest", "periter"]
_WRAPS = ["plain", "fence", "indent", "mpi", "quote", "srun", "nohash", "pipes"]


@pytest.mark.parametrize(("layout", "how", "header", "sides"), [
    (layout, how, header, sides)
    for layout, how, header, sides in itertools.product(_LAYOUTS, _WRAPS, [True, False], [2, 1])
    if header or how != "pipes"  # a table turned into pipes keeps its header row
])
def test_a_pasted_all_reduce_table_gives_the_peak_at_the_largest_sizes(layout: str, how: str, header: bool,
                                                                       sides: int) -> None:
    peak = 3.21 if sides == 1 else 18.75
    text = "2 nodes x 8 H100, all_reduce_perf -b 8 -e 2G -f 2 -g 1 gives:\n" + _wrap(
        _table(layout=layout, peak=peak, header=header, sides=sides), how) + "Is this normal?"
    got = parse_pasted(text)[1].facts.get(BUS)
    assert same_value(got, _busbw(SIZES[-1], peak), share=0.011), (got, layout, how, header, sides)


@pytest.mark.parametrize("sides", [1, 2])
def test_a_headless_per_iteration_row_is_told_by_its_arithmetic(sides: int) -> None:
    """13 cells are a two-sided row of the usual layout or one side of the per-iteration report: the columns whose
    algbw is size / time are the right ones (the p99 column is no bus bandwidth)."""
    result = parse_nccl_tests(_row("periter", 1 << 30, 18.75, sides=sides) + "\n")
    assert result.rows and same_value(result.rows[0].busbw_best, _busbw(1 << 30, 18.75))
    assert result.layout is not None and result.layout.startswith("per-iteration")


@pytest.mark.parametrize("dtypes", [("int8", "uint8", "int32", "float", "half", "double", "bfloat16"), ("half",)])
def test_every_dtype_of_a_sweep(dtypes: tuple[str, ...]) -> None:
    got = parse_pasted("all_reduce_perf -d all:\n" + _table(peak=20.0, dtypes=dtypes))[1].facts.get(BUS)
    assert same_value(got, _busbw(SIZES[-1], 20.0))


@pytest.mark.parametrize(("collective", "how", "banner"), list(itertools.product(
    ["all_gather", "reduce_scatter", "alltoall", "broadcast"], ["plain", "fence"], [True, False])))
def test_another_collectives_table_is_no_all_reduce(collective: str, how: str, banner: bool) -> None:
    text = f"$ mpirun -np 16 ./build/{collective}_perf -b 8 -e 2G -f 2 -g 1\n" + _wrap(
        _table(collective, peak=30.0, banner=banner), how)
    assert BUS not in parse_pasted(text)[1].facts


# --------------------------------------------------------------------------- figures quoted in prose
_SAID = [
    "busbw is only {v} GB/s", "all_reduce_perf reports busbw {v} GB/s", "nccl-tests bus bandwidth: {v} GB/s",
    "algbw 1.71 busbw {v}", "总线带宽 {v}GB/s", "nccl-tests 的 busbw 只有 {v} GB/s", "Avg bus bandwidth: {v}",
    "all_reduce_perf peaks at {v} GB/s busbw", "we get around {v} GB/s bus bandwidth in nccl-tests", "busBW = {v} GB/s",
    "busbw around {v}", "busbw只有{v}", "all_reduce_perf 的 busbw 才 {v}", "busbw 从 24 掉到了 {v}",
    "busbw went from 24 to {v} after the upgrade", "max busbw {v} GB/s at 8G", "busbw {v}GB/s @ 1G messages",
    "busbw is {v}, theoretical busbw should be 24", "I only get {v} GB/s busbw with all_reduce_perf",
]
_AROUND = ["2 nodes with 8 A100 each, {} — is that expected?", "{}. Training is slow across nodes.",
           "两台机器 {}，正常吗？"]


@pytest.mark.parametrize(("said", "around"), list(itertools.product(_SAID, _AROUND)))
def test_a_bus_bandwidth_said_in_words(said: str, around: str) -> None:
    got = facts(around.format(said.format(v=3.2))).get(BUS)
    assert same_value(got, 3.2), got


@pytest.mark.parametrize("text", [
    "all_reduce_perf -b 8 -e 8G -f 2 -g 8 on 2 nodes is slow",
    "I ran ./build/all_reduce_perf -b 8M -e 8G -f 2 -g 8 and it is slow",
    "nccl-tests: -b 1G -e 8G -f 2 -g 1 -n 20",
    "all_gather_perf busbw is 30 GB/s", "reduce_scatter 的 busbw 只有 3.2", "our all_gather busbw is 30 GB/s",
    "what busbw should I expect on 2 nodes with 400G IB?", "期望 busbw 达到 20GB/s", "理论 busbw 应该是 24GB/s",
    "theoretical busbw should be 200 on 4 NICs",
])
def test_arguments_sizes_wishes_and_other_collectives_are_no_all_reduce_figure(text: str) -> None:
    assert facts(text).get(BUS) is None


# --------------------------------------------------------------------------- NCCL's log lines
_LOG_LINES = {
    "Ring 00 : 0[0] -> 1[1] via NET/Socket/0": {"nccl.transport": "socket"},
    "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA": {"nccl.transport": "ib", "nccl.gdr_disabled": False},
    "Using network Socket": {"nccl.transport": "socket"},
    "NET/Socket : Using [0]eth0:10.0.0.1<0>": {"nccl.socket_ifname": "eth0", "nccl.transport": "socket"},
    "NET/Socket : Using [0]bond0:10.0.0.1<0> [1]ens5:10.0.1.1<0>": {"nccl.socket_ifname": "bond0"},
    "NCCL_IB_DISABLE set by environment to 1.": {"nccl.ib_disabled": True},
    "NCCL_P2P_DISABLE set by environment to 1.": {"nccl.p2p_disabled": True},
    "NCCL_SOCKET_IFNAME set by environment to ens5": {"nccl.socket_ifname": "ens5"},
    "NCCL_IB_GID_INDEX set by environment to 3.": {"nic.gid_index": 3},
    "NET/IB : No device found.": {"nccl.transport": "socket"},
    "NCCL version 2.18.3+cuda12.1": {"nccl.version": "2.18.3"},
}
_HOST = "node1:12345:12345 [0] NCCL INFO "
_LOG_WRAPS = {
    "full": _HOST + "{}", "bare": "NCCL INFO {}", "mpi": "[1,0]<stdout>:" + _HOST + "{}",
    "rank": "[rank0]:" + _HOST + "{}",
    "timestamped": "2024-05-01 10:00:01,123 " + _HOST + "{}", "fence": "```\n" + _HOST + "{}\n```",
    "inline": "NCCL prints `" + _HOST + "{}`", "quoted": "the log says '{}'", "double-quoted": 'NCCL says "{}"',
}


@pytest.mark.parametrize(("line", "wrap"), list(itertools.product(_LOG_LINES, _LOG_WRAPS)))
def test_an_nccl_log_line_however_it_is_pasted(line: str, wrap: str) -> None:
    read = facts("2 nodes, training is slow.\n" + _LOG_WRAPS[wrap].format(line) + "\nwhat is wrong?")
    for key, want in _LOG_LINES[line].items():
        assert same_value(read.get(key), want), (key, read.get(key), want)


@pytest.mark.parametrize("text", [
    "日志里从来没有 `via NET/IB/0/GDRDMA`，为什么？",
    "the log never shows 'Channel 00/0 : 0[0] -> 8[0] via NET/IB/0/GDRDMA'",
])
def test_a_log_line_said_to_be_missing_is_not_read(text: str) -> None:
    assert facts(text).get("nccl.gdr_disabled") is not False


# --------------------------------------------------------------------------- settings written every way
_SETTINGS = [("NCCL_SOCKET_IFNAME", "bond0", "nccl.socket_ifname", "bond0"),
             ("NCCL_IB_DISABLE", "1", "nccl.ib_disabled", True),
             ("NCCL_IB_DISABLE", "0", "nccl.ib_disabled", False), ("NCCL_P2P_DISABLE", "1", "nccl.p2p_disabled", True),
             ("NCCL_IB_GID_INDEX", "3", "nic.gid_index", 3), ("NCCL_NET_GDR_LEVEL", "0", "nccl.gdr_disabled", True),
             ("NCCL_NET_GDR_LEVEL", "LOC", "nccl.gdr_disabled", True)]
_FORMS = {
    "export": "export {n}={v}", "export-line": "I launch with:\nexport {n}={v}\ntorchrun --nnodes 2 train.py",
    "mpirun": "mpirun -np 16 -x {n}={v} python train.py", "environ": "os.environ['{n}'] = '{v}'",
    "environ-dq": 'os.environ["{n}"] = "{v}"', "k8s": 'env:\n  - name: {n}\n    value: "{v}"\n',
    "json": '{{"env": {{"{n}": "{v}"}}}}', "json-lines": '"env": {{\n    "{n}": "{v}",\n    "NCCL_DEBUG": "INFO"\n}}',
    "table": "| variable | value |\n|---|---|\n| {n} | {v} |\n", "table-eq": "| setting |\n|---|\n| {n}={v} |\n",
    "zh-set": "设置了 {n} 为 {v}", "zh-ba": "把 {n} 设成 {v}", "zh-ba-le": "我把 {n} 设置成了 {v}",
    "en-set-to": "I set {n} to {v}",
    "en-with": "we run with {n}={v}", "backtick": "we use `{n}={v}`", "docker": "docker run -e {n}={v} image",
    "env-prefix": "{n}={v} torchrun --nproc_per_node 8 train.py", "dockerfile": "ENV {n}={v}",
    "yaml": 'env_vars:\n  {n}: "{v}"\n', "slurm": "#SBATCH --export=ALL,{n}={v}",
}


@pytest.mark.parametrize(("setting", "form"), list(itertools.product(_SETTINGS, _FORMS)))
def test_a_setting_however_it_is_written(setting: tuple[str, str, str, object], form: str) -> None:
    name, value, fact, want = setting
    got = facts(_FORMS[form].format(n=name, v=value) + "\n2 nodes x 8 GPUs, training is slow.").get(fact)
    assert same_value(got, want), (got, want)


_NOT_THE_JOBS = [
    "should I set {n}={v}?", "Should I try {n}={v}?", "要不要设置 {n}={v}？", "I'm going to try {n}={v} tomorrow",
    "maybe {n}={v} would help?", "(maintainer: try setting {n}={v})",
    "Maintainer reply: please export {n}={v} and rerun",
    "我打算试一下 {n}={v}", "would setting {n}={v} help?", "We don't set {n}={v}.", "I plan to set {n}={v} next",
]


@pytest.mark.parametrize(("setting", "form"), list(itertools.product(_SETTINGS[:5], _NOT_THE_JOBS)))
def test_a_setting_asked_about_planned_or_suggested_is_not_the_jobs(setting: tuple[str, str, str, object],
                                                                    form: str) -> None:
    name, value, fact, _ = setting
    assert facts(form.format(n=name, v=value) + "\n2 nodes x 8 GPUs, training is slow.").get(fact) is None


def test_a_table_comparing_two_runs_gives_neither() -> None:
    text = "| var | before | after |\n|---|---|---|\n| NCCL_IB_DISABLE | 1 | 0 |\n"
    assert facts(text).get("nccl.ib_disabled") is None


@pytest.mark.parametrize(("said", "fact", "want"), [
    ("gid index 3", "nic.gid_index", 3), ("GID index = 3", "nic.gid_index", 3), ("gid_index 3", "nic.gid_index", 3),
    ("NCCL_IB_GID_INDEX 3", "nic.gid_index", 3), ("gid 索引为 3", "nic.gid_index", 3),
    ("NCCL_IB_GID_INDEX is 3", "nic.gid_index", 3),
    ("用的 GID index 是 3", "nic.gid_index", 3), ("we use GID 3 (RoCE v2)", "nic.gid_index", 3),
    ("NCCL_SOCKET_IFNAME eth0", "nccl.socket_ifname", "eth0"),
    ("NCCL_SOCKET_IFNAME 是 bond0", "nccl.socket_ifname", "bond0"),
    ("我们的 NCCL_SOCKET_IFNAME 是 eth0", "nccl.socket_ifname", "eth0"),
    ("NCCL_SOCKET_IFNAME 指定了 bond0", "nccl.socket_ifname", "bond0"),
    ("it's using the Socket transport instead of IB", "nccl.transport", "socket"),
    ("NCCL_DEBUG=INFO shows it is using socket", "nccl.transport", "socket"), ("通信走的 IB", "nccl.transport", "ib"),
    ("NCCL ends up on TCP", "nccl.transport", "socket"), ("NCCL 走的是 socket", "nccl.transport", "socket"),
])
def test_a_setting_or_transport_said_in_words_ending_its_sentence(said: str, fact: str, want: object) -> None:
    got = facts(f"RoCE between 2 nodes, slow all-reduce. {said}. busbw is low").get(fact)
    assert same_value(got, want), (got, want)


@pytest.mark.parametrize(("said", "fact"), [
    ("which GID index should I use?", "nic.gid_index"), ("should NCCL_IB_GID_INDEX be 3?", "nic.gid_index"),
    ("NCCL_IB_GID_INDEX 要设成 3 吗？", "nic.gid_index"), ("should NCCL_SOCKET_IFNAME be eth0?", "nccl.socket_ifname"),
    ("GLOO_SOCKET_IFNAME=eth0", "nccl.socket_ifname"), ("is it using the IB transport?", "nccl.transport"),
    ("how do I make NCCL use IB instead of sockets?", "nccl.transport"), ("I want NCCL to use IB", "nccl.transport"),
    ("Our storage is slow, it's using TCP", "nccl.transport"),
])
def test_a_question_or_another_setting_in_words_is_none(said: str, fact: str) -> None:
    assert facts(f"2 nodes. {said}").get(fact) is None


@pytest.mark.parametrize(("said", "fact", "wrong"), [
    ("NCCL_IB_DISABLE=1 didn't help", "nccl.ib_disabled", False),
    ("试过 NCCL_P2P_DISABLE=1 没用", "nccl.p2p_disabled", False),
    ("I tried NCCL_IB_DISABLE=1, no change", "nccl.ib_disabled", False),
    ("NCCL_IB_DISABLE 设成 1 之后速度一样", "nccl.ib_disabled", False),
])
def test_a_setting_tried_is_never_read_as_its_opposite(said: str, fact: str, wrong: object) -> None:
    """The convention of roles/test_scopes_negation.py: a setting tried is at most the one tried, never its opposite."""
    got = facts(f"2 nodes x 8 GPUs. {said}.").get(fact)
    assert got is None or not same_value(got, wrong)
