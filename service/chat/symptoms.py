"""Symptoms that practitioners conclude from and the other readers cannot represent yet.

Each reader follows extract.py's conventions: it runs over the masked prose, returns `Understood` hits
made with `_hit`, reads the polarity of what it names itself ('no PFC', 'ECN 没开' → False) so that
`apply_negation` has nothing to flip, and skips clauses that only ask ('is PFC on?').

  - one node (or GPU) slower than the rest: 'one node is slower', '某一台机器特别慢', 'node 3's step time is
    2x the others', pairwise tests between nodes that disagree → job.straggler_suspected
  - synthetic data fast, real data slow ('用假数据速度正常，换真实数据就慢') → job.synthetic_data_fast
  - the IOMMU mode (intel_iommu=on, iommu=pt, amd_iommu=off, 'IOMMU passthrough fixed it') → pcie.iommu
  - GPUDirect RDMA on one node and not the other ('另一台没有 GDRDMA') → nccl.gdr_partial
  - PFC / ECN on the RoCE class said on or off → nic.pfc, nic.ecn; nccl-tests busbw that jumps between two
    figures, falls to a fraction now and then, or collapses at large sizes → nccl.busbw_unstable
  - the cloud's NCCL plugin absent: GCP's GPUDirect-TCPX/TCPXO → nccl.tcpx_plugin_missing, AWS's aws-ofi-nccl
    → nccl.net_plugin_missing
  - where the NIC sits from the GPU, in words: 'on different NUMA nodes', '跨 NUMA', 'through the CPU (PHB)', 'under
    the same PCIe switch' → gpu.nic_path
  - many small collectives: '980 small reduce-scatters per step', 'each all-reduce is only a few KB', '小消息很多',
    'latency dominates' → job.small_messages
"""

from __future__ import annotations

import re

from bwdoctor.chat import text as tx
from bwdoctor.chat.extract import Understood, _hit, _hit_span, extractor

_IC = re.IGNORECASE
_ASKS = re.compile(r"要不要|是否|能否|能不能|可不可以|会不会|有没有|吗|[?？]|(?<![A-Za-z])(?:should|would|could|"
                   r"whether|"
                   r"do (?:I|we) need|is it worth|check if|try)(?![A-Za-z])", _IC)


def _asks(text: str, pos: int) -> bool:
    """The clause only asks about the thing ('should PFC be on?', '要不要开 ECN'), it does not say it."""
    return bool(_ASKS.search(tx.clause(text, pos)))


# --------------------------------------------------------------------------- a straggler
_UNIT = r"(?:nodes?|machines?|servers?|hosts?|workers?|boxes|box|instances?|ranks?|GPUs?|cards?|Ｇ+)"
_HOST = r"(?:nodes?|machines?|servers?|hosts?|workers?|ranks?)"
_UNIT_ZH = r"(?:机器|节点|服务器|主机|实例|worker|卡|GPU|rank|Ｇ+)"  # st-s11 rank
_SLOW = r"(?:much |noticeably |significantly |clearly |a lot |way |far )?(?:slower|slow|lagging|behind|the bottleneck)"
_OTHERS = (r"(?:the others|the rest|(?:all )?(?:the )?other (?:nodes|machines|servers|hosts|workers|ranks|GPUs|ones)|"
           r"(?<=while )others|(?<=whereas )others|(?<=but )others)")
_STRAGGLER_EN = [
    # 'one node is slower', 'a few machines are much slower', 'one of the nodes lags behind'
    re.compile(rf"(?<![A-Za-z])(?:one|a single|a few|some|certain|a couple of|one or two|one of (?:the|our|my))\s+"
               rf"(?:\w+\s+)?{_UNIT}\s+(?:is|are|was|were|seems?|seem to be|runs?|is running)\s+"
               rf"(?:consistently |always |still )?{_SLOW}", _IC),
    # 'the slow node', 'find the low-speed node(s)', 'a straggling rank', 'stragglers'
    re.compile(rf"(?<![A-Za-z])(?:the|a|one|which|find|identify|locate|detect|spot|any)\s+(?:\w+\s+)?"
               rf"(?:slow(?:est)?|low[- ]speed|lagging|straggling|straggler)\s+{_HOST}(?:\(s\))?|"
               r"(?<![A-Za-z])stragglers?(?![A-Za-z])", _IC),
    # 'node 3's step time is 2x the others', 'GPU util on one machine is low while others are at 100%'
    re.compile(rf"(?<![A-Za-z])(?:on |of |for )?(?:one|a single|node|machine|host|server|worker|"
               rf"rank)\s*[\w·Ｇ-]{{0,12}}?"
               rf"(?:'s)?[^.;。；\n]{{0,60}}?(?:\d+(?:\.\d+)?\s*[x×]|twice|much (?:higher|longer|lower|slower)|slower|"
               rf"lower|higher|longer|low|slow)[^.;。；\n]{{0,30}}?(?:than |compared (?:to|with) |while |whereas |"
               rf"but )?"
               rf"{_OTHERS}", _IC),
    # 'One of our 16 nodes has GPU utilization 40% while the others are at 95%': one machine's figure against the rest's
    re.compile(rf"(?<![A-Za-z])(?:one|a single|one of (?:the|our|my)(?:\s+\d+)?)\s+{_UNIT}[^.;。；\n]{{0,60}}?"
               rf"\d+(?:\.\d+)?\s*(?:%|s\b|ms\b|GB/s|Gb/s|Gbps)[^.;。；\n]{{0,12}}?(?:while|whereas|but|and)\s+{_OTHERS}",
               _IC),
]
# h-symptoms one named member said to lag: 'rank 3 lags behind', 'node 2 always falls behind', 'one GPU trails the rest'
_LAGS = re.compile(
    rf"(?<![A-Za-z])(?:(?:rank|node|machine|host|server|worker|GPU)\s*#?\d+|(?:one|a single|one of (?:the|our|my))\s+"
    rf"(?:\w+\s+)?{_UNIT})\s+(?:is\s+|keeps\s+)?(?:always\s+|consistently\s+|often\s+|still\s+|constantly\s+)?"
    r"(?:lags?|lagging|falls?\s+behind|falling\s+behind|fell\s+behind|trails?|trailing)(?![A-Za-z])", _IC)
# A member named by what it does to the whole: only it is slow ('only machine B is slow', '只有 node3 慢'), taking it
# out fixes the job ('when I remove node 7 from the hostfile everything is fast again', '去掉 gpu05 就正常了'), taking
# it in slows it ('只要带上 gpu05 这台机器就变慢'), the rest wait for some ('some ranks wait a long time for the
# others'), one GPU throttles ('one of the GPUs is throttling', '其中一张卡温度很高而且降频了'), or one pair of
# machines tests slow beside a fine one ('between node1 and node2 is fine but node1 and node3 is slow')
_MEMBER = (r"(?:(?:node|machine|host|server|rank|worker|GPU|box)\s*[-_#]?\s*[A-Za-z0-9][\w-]{0,10}|"
           r"[A-Za-z][\w-]*\d[\w-]*)")
_MEMBER_ZH = rf"(?:{_MEMBER}|(?:节点|机器|服务器|主机)\s*[-_#]?\s*[A-Za-z0-9][\w-]{{0,10}})"
_ONE_MEMBER_SAID = [
    re.compile(rf"(?<![A-Za-z])only\s+(?:the\s+)?{_MEMBER}\s+(?:is|was|runs?|seems?(?:\s+to\s+be)?)\s+(?:\w+\s+)?"
               r"(?:slow|slower|lagging)(?![A-Za-z])|(?:只有|就只有|唯独)\s*" + _MEMBER_ZH + r"\s*(?:这台|这个)?\s*"
               r"(?:机器|节点|服务器)?\s*(?:特别|比较|明显)?\s*(?:慢|拖后腿|掉队)", _IC),
    re.compile(rf"(?<![A-Za-z])(?:remov\w*|exclud\w*|drop(?:ping|ped)?|without|tak(?:e|ing) out|kick(?:ing)? out)\s+"
               rf"(?:the\s+)?{_MEMBER}[^.;!?\n]{{0,48}}?(?:fast|fine|normal|ok|okay|good|back to normal|goes away|"
               r"disappears|full speed)(?![A-Za-z])", _IC),
    re.compile(rf"(?:去掉|拿掉|剔除|排除|踢掉|不用|摘掉)\s*{_MEMBER_ZH}\s*(?:这台|这个)?\s*(?:机器|节点|服务器)?"
               r"[^，,。；;\n]{0,10}?(?:就|又)?(?:正常|快|好)了?|(?:只要|一旦|每次)\s*(?:带上|加上|加入|包含|用到|用上)\s*"
               rf"{_MEMBER_ZH}\s*(?:这台|这个)?\s*(?:机器|节点|服务器)?[^，,。；;\n]{{0,8}}?(?:就|都)?"
               r"(?:变慢|慢|卡住?)", _IC),
    re.compile(r"(?<![A-Za-z])(?:some|a few|certain|several|two|the fast)\s+(?:of the\s+)?(?:ranks|GPUs|nodes|workers|"
               r"machines)\s+(?:keep\s+|always\s+|often\s+)?wait\w*\s+[^.;!?\n]{0,40}?for\s+(?:the\s+)?(?:others|rest|"
               r"slow(?:er|est)? ones?)(?![A-Za-z])", _IC),
    re.compile(r"(?<![A-Za-z])(?:one|a single|one of (?:the|our|my))\s+(?:\w+\s+)?GPUs?\s+(?:is\s+|was\s+|keeps\s+)?"
               r"(?:throttl\w*|overheat\w*|running hot|clocking down|downclock\w*)|"
               r"(?:其中|有|某)\s*(?:一|1)\s*(?:张|块|个)\s*"
               r"(?:卡|GPU|显卡)[^，,。；;\n]{0,12}?(?:降频|过热|温度(?:很|特别|非常)?高|掉频)", _IC),
    re.compile(rf"between\s+{_MEMBER}\s+and\s+{_MEMBER}\s+(?:is\s+|are\s+|looks?\s+|runs?\s+)?(?:fine|fast|ok|okay|"
               rf"normal|good)[^.;!?\n]{{0,16}}?(?:but|while|whereas)\s+(?:between\s+)?(?:{_MEMBER}\s+and\s+)?{_MEMBER}"
               r"[^.;!?\n]{0,24}?(?:slow|low)(?![A-Za-z])", _IC),
]
# 'two nodes are slower than one node': scaling, not one node behind the others
_THAN_FEWER = re.compile(r"[^.;。；\n]{0,20}?than\s+(?:on\s+|with\s+|using\s+)?(?:one|a single|single|\d+|fewer|"
                         r"the single)\b", _IC)
_STRAGGLER_ZH = [
    # '某一台机器特别慢', '有一个节点明显慢', '其中两台机器比较慢', '个别节点慢'
    re.compile(rf"(?:(?:某|其中|个别|少数|总有)\s*(?:一|两|几|1|2)?\s*(?:台|个|张|块)?|有\s*(?:一|1)\s*(?:台|个|张|块)|"
               rf"有个)\s*"
               rf"{_UNIT_ZH}[^，,。；;\n]{{0,8}}?(?:特别|明显|比较|格外|总是|一直)?\s*(?:慢|拖后腿|掉队|落后)"),
    # '4 个节点里有 1 个特别慢', '8 台机器中有两台明显慢': some of the machines counted before
    re.compile(rf"{_UNIT_ZH}\s*(?:里|中|当中|之中)(?:面)?\s*(?:有|的)?\s*(?:一|1|两|2|个别|几)\s*(?:台|个|张|块)\s*"
               r"(?:特别|明显|比较|格外|总是|一直)?\s*(?:慢|拖后腿|掉队|落后)"),
    # '一个节点拖慢了整体', '被一台机器拖累', '慢节点', '拖后腿的节点', '掉队的 rank'
    re.compile(rf"(?:一|某|个别|其中一?)\s*(?:台|个|张)?\s*{_UNIT_ZH}[^，,。；;\n]{{0,6}}?(?:拖慢|拖累|拖后腿)|"
               rf"(?:拖慢|拖累)[^，,。；;\n]{{0,6}}?(?:一台|一个|某台|某个)\s*{_UNIT_ZH}|(?:慢|掉队|落后)的?\s*(?:节点|"
               rf"rank)|"
               rf"拖后腿的\s*{_UNIT_ZH}|掉队"),
]
# Ranks (or nodes) whose times differ widely: '不同 rank 的 backward 耗时差别很大',
# '跨机那几个 rank 的 bw_time 明显更长', 'the backward time varies a lot between ranks',
# 'a few ranks take much longer than the rest'
_RANKS_DIFFER = re.compile(
    r"(?:不同|各个?|部分|某些|个别|那几个|几个)\s*(?:rank|卡|GPU|节点|机器|进程|worker)[^。；;\n]{0,24}?"
    r"(?:差别|差异|差距)(?:很|非常|特别|比较)?大|"
    r"(?:那几个|部分|某些|个别|少数)\s*(?:rank|卡|GPU|节点|机器|进程|worker)[^。；;\n]{0,24}?(?:明显|特别|总是)?"
    r"(?:更长|更慢|慢很多|长很多|慢得多)|"
    r"(?<![A-Za-z])(?:times?|durations?|step times?|backward(?: time)?)\s+(?:varies|vary|differs?)\s+(?:a lot|widely|"
    r"greatly|wildly|significantly)\s+(?:across|between|among)\s+(?:the\s+)?(?:ranks|nodes|GPUs|workers)|"
    r"(?<![A-Za-z])(?:a few|some|certain|two|several)\s+(?:of the\s+)?(?:ranks|nodes|GPUs|workers)\s+(?:take|takes|are|"
    r"run)\s+(?:much|far|significantly|a lot)\s+(?:longer|slower)", _IC)
# '其中一台的 GPU 利用率很低，其他都是 100%': one of them, the others, and a difference in one sentence;
# one named by its number ('node 7 的 step 时间是其他节点的两倍'), or a bare 'one machine' opening its
# clause ('一台机器特别慢，其他都正常')
_ONE_OF_ZH = re.compile(rf"(?:某|有|其中|只有)\s*(?:一|1)\s*(?:台|个|张)\s*{_UNIT_ZH}?|"
                        r"(?<![A-Za-z])(?:node|rank|host|worker|节点|机器|主机)\s*[-_#]?\d{1,4}(?![\d.])|"
                        rf"(?:^|(?<=[，,。；;：:\s]))(?P<bare>(?:一|1)\s*(?:台|个|张)\s*{_UNIT_ZH})", _IC)
# 'rank 5 is always the last to finish', 'the others wait for it', '其他卡都在等它'
_LAST_ONE = re.compile(
    r"(?<![A-Za-z])(?:node|rank|host|worker|machine|server|GPU)\s*[-_#]?\d{1,4}\s+(?:is|was|finishes|arrives|comes)\s+"
    r"(?:always\s+|consistently\s+|usually\s+|often\s+|every time\s+)?(?:the\s+)?(?:last|slowest)(?![A-Za-z])|"
    r"(?<![A-Za-z])(?:the\s+)?others?\s+(?:all\s+)?(?:wait|waiting|have to wait|are waiting|keep waiting)\s+"
    r"(?:for|on)\s+(?:it|him|her|that one|this one|node|rank|host)(?![A-Za-z])|"
    r"(?:其他|其余|别的)[^，,。；;\n]{0,8}?(?:都)?在等(?:它|这台|这个|那台|那个)|"
    r"(?:总是|每次都|一直)最后一个(?:完成|结束|到)", _IC)
# 'it is not one slow node', '不是某台机器慢', 'is one node dragging the rest down?': a straggler denied
# or only asked about
_DENIED_OR_ASKED = re.compile(r"(?:不是|并不是|并非|并没有|没有|not|n't|是不是|是否|会不会|有没有|whether|is it|"
                              r"is there|could it be|could|might)\s*(?:just\s+|only\s+|that\s+|a\s+|an\s+|因为|有)?$",
                              _IC)
_OTHERS_ZH = re.compile(r"其他|其余|别的|另外几|别人|大家")  # st-s11 别人
_WORSE_ZH = re.compile(r"慢|低|长|倍|差|拖|只有|才")
# 'no node is slower than the others', 'all nodes are equally fast', '没有慢节点', '各节点速度一样'
_NO_STRAGGLER = re.compile(
    rf"(?<![A-Za-z])(?:no|none of the|not one)\s+(?:single\s+)?{_UNIT}\s+(?:is|are|was|were|seems?)\s+{_SLOW}|"
    rf"(?<![A-Za-z])(?:all|every|each)\s+(?:the\s+)?{_UNIT}\s+(?:is|are|run|runs|show|shows|look|looks|have|has)\s+"
    r"(?:about |roughly |almost )?(?:equally fast|the same speed|the same step time|similar(?: speed| step times?)?|"
    r"equally)|no stragglers?|without stragglers?|"
    # 'we don't see any slow node', '没发现慢节点', '所有机器都一样慢'
    rf"(?:don't|do not|didn't|did not|can't|cannot|couldn't)\s+(?:see|find|notice|spot)\s+(?:any|a)\s+(?:single\s+)?"
    rf"(?:slow(?:er)?|straggl\w*|lagging)\s+{_UNIT}|没(?:有)?(?:看到|发现|找到)(?:有)?\s*(?:慢|掉队|拖后腿)的?\s*"
    r"(?:机器|节点|服务器|卡|rank)|所有(?:的)?\s*(?:机器|节点|服务器|卡|GPU)[^，,。；;\n]{0,4}?(?:都)?(?:一样|差不多|同样)|"
    r"没有(?:哪台|哪个|慢|掉队的?|拖后腿的?)\s*(?:机器|节点|服务器|卡)?|(?:各|每)(?:个|台)?\s*(?:节点|机器|卡)"
    r"[^，,。；;\n]{0,8}?(?:都)?(?:一样|差不多|一致|相同)", _IC)
# Results that depend on which nodes are paired: 'busbw depends on which two nodes I pick', '有的节点对明显慢'.
_WHICH_PAIR = re.compile(
    r"(?:depend\w*|vary|varies|varying|differs?|different)\s+(?:on|with|by|depending on)\s+(?:which|the)\s+"
    r"(?:two\s+|pair of\s+)?(?:nodes?|hosts?|machines?|servers?|pairs?)|(?:some|certain|a few|one)\s+(?:node\s+|"
    r"host\s+)?"
    r"pairs?\s+(?:are|is|gets?|gives?|shows?)\s+(?:much\s+|noticeably\s+)?(?:slower|lower)|"
    r"(?:取决于|跟|和|与)\s*(?:选|用|挑)?\s*(?:哪|哪两|哪几)\s*(?:台|个)\s*(?:机器|节点|服务器)|"
    r"(?:有的|部分|某些|个别)\s*(?:节点对|机器对|节点组合)[^，,。；;\n]{0,8}?(?:慢|低)", _IC)
# Pairwise tests that disagree: 'between node 1 and node 2 … 25 GB/s, between node 1 and node 3 … 39 GB/s'.
_PAIR = re.compile(r"between\s+(?:node|host|machine|server)s?\s*[\w·]{1,12}\s+and\s+(?:node|host|machine|server)?\s*"
                   r"[\w·]{1,12}|(?:节点|机器|主机|服务器)\s*[\w·]{1,12}\s*(?:和|与|跟|到)\s*(?:节点|机器|主机|"
                   r"服务器)?\s*"
                   r"[\w·]{1,12}\s*之间", _IC)
_FIGURE = re.compile(r"(?<![\w.])(?P<num>\d+(?:\.\d+)?)\s*(?:GB/s|Gb/s|Gbps|GB|G)(?![A-Za-z])")


# cmp-s10 two machines: one machine's figure against another's, far apart: '一台 GPU 利用率 95%，另一台只有 30%',
# 'node A at 95% GPU util, node B at 30%', 'node1 的 step 1.1 s，node2 要 2.6 s' → job.straggler_suspected
# (inferred): the machines of one job disagree. Runs of different sizes ('one node 95%, two nodes 60%') are no pair
# of machines.
_MACHINE_A = (r"(?:(?<![A-Za-z])(?:one|a)\s+(?:node|machine|server|host|box)|"
              r"(?:一|1)\s*(?:台|个)\s*(?:机器|节点|服务器)?|"
              r"(?<![A-Za-z])(?:node|machine|server|host|box|rank|机器|节点)\s*[-_#]?(?P<na>(?-i:[A-Z])|\d{1,3})(?![\w.])"
              r"(?!\s*(?:GPUs|cards|nodes|machines|卡|台|张|个)))")
_MACHINE_B = (r"(?:(?<![A-Za-z])the\s+other(?:\s+(?:one|node|machine|server|host|box))?|"
              r"(?<![A-Za-z])another(?:\s+(?:one|node|"
              r"machine|server|host|box))?|另(?:外)?\s*(?:一|1)?\s*(?:台|个)\s*(?:机器|节点|服务器)?|"
              # s12 the rest of the machines: '其他节点 GPU 利用率普遍在 20-40%', 'the other nodes sit at 30%'
              r"(?:其他|其余|其它|别的|剩下的?)\s*(?:的)?\s*(?:机器|节点|服务器)|(?<![A-Za-z])(?:the\s+)?(?:other|remaining)\s+"
              r"(?:nodes|machines|servers|hosts|boxes)|"
              r"(?<![A-Za-z])(?:node|machine|server|host|box|rank|机器|节点)\s*[-_#]?(?P<nb>(?-i:[A-Z])|\d{1,3})(?![\w.])"
              r"(?!\s*(?:GPUs|cards|nodes|machines|卡|台|张|个)))")
_TWO_MACHINES = re.compile(rf"{_MACHINE_A}[^。；;\n]{{0,30}}?(?<![\d.])(?P<a>\d{{1,3}}(?:\.\d+)?)\s*"
                           r"(?P<ua>%|s|ms|秒)(?![A-Za-z])"
                           rf"[^。\n]{{0,24}}?{_MACHINE_B}[^。；;\n\d]{{0,16}}?(?<![\d.])"
                           r"(?:\d{1,3}\s*[-~～到至]\s*)?(?P<b>\d{1,3}(?:\.\d+)?)\s*"
                           r"(?P<ub>%|s|ms|秒)(?![A-Za-z])", _IC)
_MACHINE_MEASURE = re.compile(r"利用率|使用率|(?<![A-Za-z])(?:util\w*|usage|load|SM)(?![A-Za-z])|step|迭代|iteration|"
                              r"耗时", _IC)
_NOT_MACHINE_MEASURE = re.compile(r"带宽|bandwidth|busbw|algbw|iperf|Gb/s|GB/s|line rate|线速|efficiency|效率|加速比|"
                                  r"scal", _IC)


def _two_machines(text: str) -> list[Understood]:
    """cmp-s10 two machines: two of the job's machines with figures far apart → job.straggler_suspected (inferred)."""
    for m in _TWO_MACHINES.finditer(text):
        sentence = tx.sentence(text, m.start())
        if m["na"] and m["nb"] and m["na"].lower() == m["nb"].lower() or not _MACHINE_MEASURE.search(sentence) \
                or _NOT_MACHINE_MEASURE.search(sentence) or _asks(text, m.start()):
            continue
        if ("%" in m["ua"]) != ("%" in m["ub"]):
            continue
        a, b = float(m["a"]), float(m["b"])
        if min(a, b) > 0 and max(a, b) / min(a, b) >= 1.5:
            hits = [_hit("job.straggler_suspected", True, m, inferred=True)]
            if "%" in m["ua"] and _GPU_LOAD_SAID.search(sentence) and not _CPU_LOAD_SAID.search(sentence):
                # s26 '节点 0 有 60%，节点 3 只有 20%': the least busy machine's GPUs
                hits.append(Understood("gpu.util_min_pct", min(a, b), m.group(0), m.start(), m.end()))
            return hits
    return []


_GPU_LOAD_SAID = re.compile(r"GPU\s*(?:的)?\s*(?:利用率|使用率|util\w*|usage|load)|显卡利用率", _IC)
_CPU_LOAD_SAID = re.compile(r"CPU|内存|memory|显存", _IC)


@extractor
def stragglers(text: str) -> list[Understood]:
    """'one node is slower', '某一台机器特别慢', pairs of nodes that test differently → job.straggler_suspected."""
    hits = [_hit("job.straggler_suspected", False, m) for m in _NO_STRAGGLER.finditer(text)]

    def add(m: re.Match[str], **flags: bool) -> None:
        if not any(h.start <= m.start() < h.end or m.start() <= h.start < m.end() for h in hits):
            hits.append(_hit("job.straggler_suspected", True, m, **flags))

    def denied(m: re.Match[str]) -> bool:
        a = tx.clause_bounds(text, m.start())[0]
        return bool(_DENIED_OR_ASKED.search(text, max(a, m.start() - 16), m.start()))

    for pattern in [*_STRAGGLER_EN, *_STRAGGLER_ZH, _LAST_ONE, _RANKS_DIFFER, _LAGS, *_ONE_MEMBER_SAID]:
        for m in pattern.finditer(text):
            if _THAN_FEWER.match(text, m.end()) or denied(m) or (pattern is _LAGS and _asks(text, m.start())):
                continue
            add(m)
    for m in _ONE_OF_ZH.finditer(text):
        a, b = tx.sentence_bounds(text, m.start())
        ca, cb = tx.clause_bounds(text, m.start())
        if _OTHERS_ZH.search(text, m.end(), b) and _WORSE_ZH.search(text, *((ca, cb) if m["bare"] else (a, b))) \
                and not denied(m):
            add(m)
    for m in _WHICH_PAIR.finditer(text):
        if not _asks(text, m.start()):
            add(m)
    pairs = []
    for m in _PAIR.finditer(text):
        figure = _FIGURE.search(text, m.end(), tx.sentence_bounds(text, m.end())[1])
        if figure is None:  # the figure may come first: '25 GB/s between node 1 and node 2'
            figure = _FIGURE.search(text, tx.clause_bounds(text, m.start())[0], m.start())
        if figure is not None:
            pairs.append((m, float(figure["num"])))
    values = [v for _, v in pairs]
    if len(pairs) >= 2 and min(values) > 0 and max(values) / min(values) >= 1.25:
        add(pairs[0][0], inferred=True)
    machines = _two_machines(text)  # cmp-s10 two machines
    if any(h.value is True for h in hits):
        machines = [h for h in machines if h.fact != "job.straggler_suspected"]  # the straggler said already
    return hits + machines


# --------------------------------------------------------------------------- synthetic data fast, real data slow
_SYNTHETIC = re.compile(r"(?<![A-Za-z])(?:synthetic|dummy|fake|random|randomly generated)\s+(?:input\s+)?(?:data|"
                        r"inputs?|"
                        r"tensors|batches|dataset)|--synthetic\w*|use_synthetic\w*|--use[-_]synthetic[\w-]*|合成数据|假数据|随机数据|"
                        # s29 tensorpack's '--fake', '--fake-data', '--dummy', 'use_fake_data'
                        r"(?<![\w-])--(?:fake|dummy)(?:[-_](?:data|input|inputs))?(?![\w-])|use_(?:fake|dummy)_data|"
                        r"(?:dummy|fake|synthetic)\s*数据|随机生成的?数据|模拟数据", _IC)
_REAL = re.compile(r"(?<![A-Za-z])(?:real|actual|true)\s+(?:\w+\s+)?(?:data|dataset|images|inputs?|ImageNet|samples)|"
                   r"(?:the|our|my)\s+(?:own\s+)?(?:dataset|data set)|真实数据|真数据|实际数据|真实的数据|真实数据集|"
                   r"真实图片|"
                   r"自己的数据|--data_dir|data_dir", _IC)
_PACE = re.compile(r"fast|slow|scal\w*|speed\w*|throughput|img/s|images?/s(?:ec)?|samples?/s|it/s|\d\s*[x×]|"
                   r"(?<![A-Za-z])(?:x|times)(?![A-Za-z])|速度|快|慢|加速|吞吐|正常|效率|%", _IC)
# 'synthetic data is just as slow', '假数据也一样慢': the input is not what differs.
_SAME_SLOW = re.compile(r"(?:also|too|as well|equally|just as|same|similar|both)[^.;。；\n]{0,20}?(?:slow|bad|poor)|"
                        r"(?:slow|bad|poor)[^.;。；\n]{0,12}?(?:too|as well|either)|"
                        r"(?:也|同样|一样|都)[^，,。；;\n]{0,6}?(?:慢|差|不行)|没(?:有)?(?:区别|差别)|no difference|"
                        r"same result", _IC)


# st-s11 what synthetic data alone does better: 'the throughput is 2x higher', '速度正常', '快很多'
_FASTER = re.compile(r"faster|higher|\d(?:\.\d+)?\s*[x×]|(?:is|runs?|scales?)\s+(?:fine|normally|well)|"
                     r"速度正常|就?很快|快很多|快了?\s*\d|(?:吞吐|速度)\S{0,4}(?:正常|高)|就正常", _IC)


# s29 a rate said for the synthetic run ('with --fake I get ~7.8 it/s') beside the real run's in the same unit
# ('for imagenet I only get 0.1~0.2 it/s'): far higher is fast with synthetic data
_RATE = re.compile(r"(?<![\w.])(?P<num>\d+(?:\.\d+)?)(?:\s*[-~～]\s*(?P<hi>\d+(?:\.\d+)?))?\s*"
                   r"(?P<unit>it/s|its/s|iters?/s|steps?/s|img/s|imgs/s|images?/s(?:ec)?|samples?/s(?:ec)?)(?![A-Za-z])",
                   _IC)


def _faster_than_said(text: str, m: re.Match[str], b: int) -> bool:
    """The synthetic run's rate, just after its name in the sentence, is at least twice another rate said in the same
    unit elsewhere in the question."""
    own = _RATE.search(text, m.end(), b)
    if own is None or _REAL.search(text, m.end(), own.start()):
        return False
    unit = own["unit"].lower()
    value = float(own["num"])
    others = [float(r["hi"] or r["num"]) for r in _RATE.finditer(text) if r.start() != own.start()
              and r["unit"].lower() == unit]
    return any(0 < o and value >= 2 * o for o in others)


@extractor
def synthetic_vs_real(text: str) -> list[Understood]:
    """Synthetic data named beside the real data ('synthetic 3.5x, real ImageNet 1.45x') → job.synthetic_data_fast."""
    hits = []
    for m in _SYNTHETIC.finditer(text):
        a, b = tx.sentence_bounds(text, m.start())
        b = tx.sentence_bounds(text, b)[1] if b < len(text) else b  # the contrast may sit in the next sentence
        same = _SAME_SLOW.search(text, a, b)
        if not _REAL.search(text, a, b) and (same or _FAST_WITHOUT_DATA.search(text, m.end(), b)
                                              or _faster_than_said(text, m, tx.sentence_bounds(text, m.start())[1])):
            hits.append(_hit("job.synthetic_data_fast", same is None, m))
            continue  # st-s11 the real data left unsaid: 'with synthetic data it is 2x faster', '用随机数据跑速度正常'
        if not _REAL.search(text, a, b) or not _PACE.search(text, a, b):
            continue  # both named and something about speed: 'synthetic data scales, real data does not
        hits.append(_hit("job.synthetic_data_fast", same is None, m))
    return hits


# s30 the same job timed with the data reading switched off (a reader's speed-test mode, the loader bypassed, one batch
# fed again and again): '关闭数据读取和预处理后，纯测试 GPU 利用率稳定在 90% 以上', 'with data loading disabled it
# runs at full speed', 'reusing a single batch the GPUs sit at 98%'. Fast so → job.synthetic_data_fast, as with
# synthetic data; the loads and step times said of that test are its own, not the job's.
_LOADER = (r"(?:(?:the\s+)?(?:data\s*[- ]?load(?:ing|er)s?|dataloaders?|DataLoader|input pipeline|data pipeline|"
           r"data reading|reader|data input|data preprocessing|preprocessing|I/?O))")
_DATA_OFF = re.compile(
    r"(?:关闭|关掉|关了|去掉|去除|跳过|屏蔽|禁用|绕过|绕开|注释掉|拿掉)(?:了)?\s*(?:掉)?\s*(?:真实)?(?:的)?\s*(?:数据|data)?\s*"
    r"(?:的)?\s*(?:读取|加载|预处理|读入|IO|I/O|reader|dataloader|data\s*loader|输入|读数据)|"
    r"不(?:读|加载|读取)(?:真实)?数据|数据(?:读取|加载|预处理)(?:和预处理)?\s*(?:都)?\s*(?:关掉|关闭|关了|去掉|跳过)|"
    r"(?:同一个|同一|一个固定的?|固定的?)\s*batch\s*(?:反复|重复|循环)|"
    r"speed_test_mode|reader_queue_speed_test|"
    rf"(?<![A-Za-z])(?:with|after)\s+{_LOADER}\s+(?:disabled|turned off|switched off|removed|skipped|bypassed|cut out)|"
    rf"(?<![A-Za-z])without\s+(?:any\s+)?{_LOADER}(?![A-Za-z])|"
    rf"(?:disabl|skipp|bypass|remov|cutt)(?:e|ed|ing|s)?\s+{_LOADER}(?![A-Za-z])|"
    r"(?:reus|repeat|recycl)(?:e|ed|ing|es)\s+(?:the same|a single|one|a fixed)\s+(?:\w+\s+)?batch", _IC)
_FAST_WITHOUT_DATA = re.compile(_FASTER.pattern + r"|(?:利用率|util\w*|usage)[^，,。;；\n]{0,16}?"
                                r"(?:[6-9]\d|100)(?:\.\d+)?\s*%|"
                                r"(?:[6-9]\d|100)(?:\.\d+)?\s*%\s*(?:GPU\s*)?(?:利用率|util\w*)|"
                                r"(?:GPU|利用率|util\w*)[^，,。;；\n]{0,8}?(?:很高|跑满|打满|拉满|满载|saturated|maxed|pegged)|"
                                r"GPUs?\s+(?:sit|sits|are|is|stay|stays|run|runs|ran|were|was)\s+(?:at\s+)?(?:about\s+|~)?"
                                r"(?:[6-9]\d|100)(?:\.\d+)?\s*%|full speed|at speed|"
                                r"(?<!not )(?<!n't )(?<!never )(?<!as )(?<![A-Za-z])(?:fast|quick)(?![A-Za-z])", _IC)
_RUN_FIGURES = {"gpu.util_pct", "cpu.util_pct", "job.step_time_s", "job.data_wait_pct"}


def _data_off_spans(text: str) -> list[tuple[re.Match[str], int]]:
    """Each data-off condition with the end of what is said of that test (its sentence, to a mention of real data)."""
    out = []
    for m in _DATA_OFF.finditer(text):
        if _asks(text, m.start()):
            continue
        b = tx.sentence_bounds(text, m.start())[1]
        real = _REAL.search(text, m.end(), b)
        out.append((m, real.start() if real else b))
    return out


@extractor
def fast_without_the_data(text: str) -> list[Understood]:
    """'关闭数据读取和预处理后 … GPU 利用率稳定在 90% 以上' → job.synthetic_data_fast True; '… 也一样慢' → False."""
    for m, end in _data_off_spans(text):
        a = tx.sentence_bounds(text, m.start())[0]
        same = _SAME_SLOW.search(text, m.end(), end)
        # ('the job is fast with data loading switched off': the pace may be said before the condition)
        if same or _FAST_WITHOUT_DATA.search(text, m.end(), end) or (
                _FAST_WITHOUT_DATA.search(text, a, m.start()) and not _REAL.search(text, a, m.start())):
            return [_hit("job.synthetic_data_fast", same is None, m)]
    return []


def figures_without_the_data(text: str, hits: list[Understood]) -> list[Understood]:
    """The loads and step times said of a run with the data reading off (or on synthetic data) are that test's."""
    spans = [(m.end(), end) for m, end in _data_off_spans(text)]
    for m in _SYNTHETIC.finditer(text):
        b = tx.sentence_bounds(text, m.start())[1]
        real = _REAL.search(text, m.end(), b)
        spans.append((m.end(), real.start() if real else b))
    if not spans:
        return hits
    return [h for h in hits if h.fact not in _RUN_FIGURES or h.source != "words"
            or not any(a <= h.start < b and tx.clause_bounds(text, h.start)[0] <= a + 40 for a, b in spans)]


# --------------------------------------------------------------------------- IOMMU
_IOMMU_PARAM = re.compile(r"(?<![A-Za-z_])(?P<k>intel_iommu|amd_iommu|iommu)\s*=\s*(?P<v>on|off|pt|1|0|force|strict|"
                          r"nopt|soft|passthrough|disabled?)(?![A-Za-z])", _IC)
_IOMMU = re.compile(r"(?<![A-Za-z_])(?:IOMMU|VT-d|AMD-Vi)(?![A-Za-z_])", _IC)
# What follows the word decides, or the verb just before it: 'IOMMU passthrough', 'IOMMU is off', 'disabled the IOMMU'.
# ('GPU passthrough' into a VM is another passthrough and is not read.)
_TO = r"\s*(?:is\s+|was\s+)?(?:(?:in|set to|to|mode|=|设为|设成|改成|改为|为|是|已|已经|用)\s*)*"
_IOMMU_PT_AFTER = re.compile(rf"{_TO}(?:pass[- ]?through|pt|直通)(?![A-Za-z])", _IC)
_IOMMU_OFF_AFTER = re.compile(rf"{_TO}(?:disabled|off|turned off|switched off|关掉|关闭|关了|禁用|没开|未开启|"
                              rf"not enabled)"
                              r"(?![A-Za-z])", _IC)
_IOMMU_ON_AFTER = re.compile(rf"{_TO}(?:enabled|turned on|on(?=\s*(?:$|[,.;:)，。；：）]|and |but |by default))|开着|"
                             rf"开启|打开|开了|启用|"
                             r"是开的)(?![A-Za-z])", _IC)
_IOMMU_OFF_BEFORE = re.compile(r"(?:disabl\w*|turn(?:ed|ing)? off|switch(?:ed|ing)? off|关掉了?|关闭了?|关了|禁用了?|"
                               r"no|without)\s*"
                               r"(?:the\s+)?$", _IC)
_IOMMU_ON_BEFORE = re.compile(r"(?:enabl\w*|turn(?:ed|ing)? on|开启了?|打开了?|开了)\s*(?:the\s+)?$", _IC)


@extractor
def iommu(text: str) -> list[Understood]:
    """intel_iommu=on / iommu=pt / amd_iommu=off / 'IOMMU passthrough' / 'IOMMU 已关闭' → pcie.iommu."""
    hits = []
    params = list(_IOMMU_PARAM.finditer(text))
    for m in params:
        v = m["v"].lower()
        mode = ("passthrough" if v in {"pt", "passthrough"}
                else "off" if v in {"off", "0", "disable", "disabled"} else "on")
        if mode == "on" and m["k"].lower() != "iommu":
            # 'intel_iommu=on iommu=pt' is passthrough: the second setting refines the first
            near = text[m.end():min(len(text), m.end() + 40)]
            if re.search(r"(?<![A-Za-z_])iommu\s*=\s*pt", near, _IC):
                continue
        hits.append(_hit("pcie.iommu", mode, m))
    for m in _IOMMU.finditer(text):
        if any(p.start() <= m.start() < p.end() for p in params) or _asks(text, m.start()):
            continue
        before, after = tx.before(text, m.start(), 24), text[m.end():tx.clause_bounds(text, m.start())[1]]
        if _IOMMU_PT_AFTER.match(after):
            hits.append(_hit("pcie.iommu", "passthrough", m))
        elif _IOMMU_OFF_AFTER.match(after) or _IOMMU_OFF_BEFORE.search(before):
            hits.append(_hit("pcie.iommu", "off", m))
        elif _IOMMU_ON_AFTER.match(after) or _IOMMU_ON_BEFORE.search(before):
            hits.append(_hit("pcie.iommu", "on", m))
    return hits


# --------------------------------------------------------------------------- GPUDirect RDMA on one side only
_GDR_WORD = r"(?:/?GDRDMA|GDR|GPU\s?Direct(?:\s?RDMA)?|nvidia[-_]peermem|nv_peer_mem(?:ory)?)"
_ONE = r"(?:one|1|a single|the first|the second|some)"
_GDR_PARTIAL = [
    # 'only one node shows GDRDMA', 'GDR works on only one of the two nodes'
    re.compile(rf"only\s+(?:on\s+)?{_ONE}\s+(?:of the\s+\w+\s+)?{_UNIT}[^.;。；\n]{{0,40}}?{_GDR_WORD}|"
               rf"{_GDR_WORD}[^.;。；\n]{{0,40}}?only\s+(?:on|for|in)\s+{_ONE}(?:\s+of the\s+\w+)?\s+{_UNIT}", _IC),
    # 'GDR is used on node A but not on node B', 'one node shows /GDRDMA and the other does not'
    re.compile(rf"{_GDR_WORD}[^.;。；\n]{{0,60}}?(?:but not|and not)\s+(?:on\s+)?(?:the other|another|node|host|"
               rf"machine|"
               rf"server)|(?:one|some)\s+{_UNIT}[^.;。；\n]{{0,30}}?{_GDR_WORD}[^.;。；\n]{{0,40}}?(?:the others?|"
               rf"another)\s+"
               r"(?:\w+\s+)?(?:doesn't|does not|don't|do not|has no|have no|shows? no|lacks?|without)", _IC),
    # 'some connections go via NET/IB/0/GDRDMA and others via NET/IB/1'
    re.compile(rf"(?:some|half (?:of )?the)\s+(?:of the\s+)?(?:channels?|connections?|lines?|peers?|ranks?)"
               rf"[^.;。；\n]{{0,40}}?{_GDR_WORD}[^.;。；\n]{{0,40}}?(?:others|the rest|some (?:do not|don't|"
               rf"not))", _IC),
    # '只有一台机器上的 GPU 用上了 GDRDMA', '另一台没有 GDRDMA', '部分通道走了 GDRDMA、有的没有'
    re.compile(rf"(?:只有|仅)\s*(?:一|1|某)\s*(?:台|个)\s*{_UNIT_ZH}?[^，,。；;\n]{{0,16}}?(?:用上|用到|用了|有|出现|"
               rf"能用|走了?|"
               rf"显示)\s*了?\s*{_GDR_WORD}|另(?:一|外一)?\s*(?:台|个)\s*{_UNIT_ZH}?[^，,。；;\n]{{0,10}}?(?:没有|"
               rf"用不了|不能用|"
               rf"不走|没)[^，,。；;\n]{{0,6}}?{_GDR_WORD}|(?:部分|有的|一部分)\s*(?:通道|连接|channel|rank|节点|机器)?"
               rf"[^，,。；;\n]{{0,16}}?{_GDR_WORD}[^。；;\n]{{0,20}}?(?:有的|另一部分|其他|"
               rf"其余)[^。；;\n]{{0,8}}?(?:没有|不|没)",
               _IC),
    # '能用 GDRDMA 的那台 … 不能用的那台': the two nodes compared
    re.compile(rf"(?:能用|可以用|有)\s*{_GDR_WORD}\s*的那?\s*(?:台|个)?{_UNIT_ZH}?[^。；;\n]{{0,40}}?(?:不能用|用不了|"
               rf"没有)的那?\s*"
               r"(?:台|个)", _IC),
]


@extractor
def gdr_partial(text: str) -> list[Understood]:
    """GPUDirect RDMA on one node (or some channels) and not the others → nccl.gdr_partial."""
    hits: list[Understood] = []
    for pattern in _GDR_PARTIAL:
        for m in pattern.finditer(text):
            if not _asks(text, m.start()) and not any(h.start <= m.start() < h.end for h in hits):
                hits.append(_hit("nccl.gdr_partial", True, m))
    return hits


# --------------------------------------------------------------------------- RoCE congestion control and unstable busbw
_OFF_BEFORE = re.compile(r"(?:no|without|not using|lack of|missing|没有|没|未|无|不开|没开|没配置?|未配置|未开启|"
                         r"没启用|"
                         r"关(?:掉|闭|了)了?)\s*(?:any\s+|the\s+|configured\s+|配置\s*|开启?\s*)?"
                         # zh-s12b the setting's owner named between: '没开 RoCE 的 PFC', '没配交换机的 ECN'
                         r"(?:(?:RoCE(?:\s?v2)?|IB|InfiniBand|网卡|交换机|网络)\s*的\s*)?$", _IC)
# 'PFC and ECN are both off', 'PFC 和 ECN 都没开': the verb after a pair covers both
_PAIRED = r"^\s*(?:(?:and|or|/|和|与|、|跟)\s*(?:PFC|ECN|DCQCN)\s*)?(?:both\s+|are\s+both\s+|都\s*|也\s*)?"
_OFF_AFTER = re.compile(_PAIRED + r"(?:is|was|are|were)?\s*(?:not\s+(?:configured|enabled|set up|on|turned on|"
                                  r"in place)|"
                        r"disabled|off(?![A-Za-z])|missing|isn't (?:configured|enabled|on)|aren't (?:configured|"
                        r"enabled|on)|"
                        r"没开|没有开|没配置?|没有配置?|未配置|未开启|没启用|关(?:掉|闭|了))", _IC)
_ON_AFTER = re.compile(_PAIRED + r"(?:is|was|are|were)?\s*(?:(?:properly |correctly )?(?:configured|enabled|"
                       r"on(?=\s*(?:$|[,.;:)，。；：）]|and |but ))|set up|turned on|in place|working)|已(?:经)?(?:开|"
                       r"配|启用)|"
                       r"开(?:了|着|启)|配(?:了|好)|正常)", _IC)
_ON_BEFORE = re.compile(r"(?:with|enabled|configured|开了|开启了?|配置了|配了|启用了?)\s*(?:the\s+)?$", _IC)
_FLOW = {
    "nic.pfc": re.compile(r"(?<![A-Za-z])(?:PFC|priority flow control|lossless (?:Ethernet|class|fabric|network|RoCE)|"
                          r"无损(?:以太网|网络|队列))(?![A-Za-z])", _IC),
    "nic.ecn": re.compile(r"(?<![A-Za-z])(?:ECN|DCQCN)(?![A-Za-z])", _IC),
}
# net-s12b pause frames seen: PFC sends pause frames only where it is configured, so frames seen arriving say it is on
_PAUSE_FRAMES_SEEN = re.compile(
    r"\s*(?:pause\s*)?(?:frames?|帧|报文)\s*(?:(?:are|were|do|does|did|is)\s+)?(?:(?:actually|really|indeed|clearly|definitely)\s+)?"
    r"(?:reach\w*|arriv\w*|received|seen|showing up|show up|coming in|sent|being sent|hit\w*|counted|increas\w*|"
    r"有|在涨|在增加|能收到|收到|到达|都到了|发出)|\s*(?:pause\s*)?(?:counters?|计数)\s*(?:are|were|is)?\s*"
    r"(?:increas\w*|ris\w*|going up|non-?zero|在涨|在增加|增长|不为\s*0)", _IC)
_NO_FLOW_CONTROL = re.compile(r"(?:no|without)\s+(?:any\s+)?(?:flow|congestion)\s+control|(?:没有|没开|"
                              r"没配)\s*(?:任何)?\s*(?:流控|拥塞控制)|"
                              r"lossy\s+(?:Ethernet|fabric|network|RoCE)", _IC)

# nccl-tests busbw said to jump between two figures, fall to a fraction now and then, or collapse at large sizes.
_BUSBW = re.compile(r"busbw|bus ?bandwidth|bus bw|nccl-tests|all_?reduce_perf|[a-z_]+_perf\b|总线带宽|algbw", _IC)
_SWINGS = re.compile(r"(?:jumps?|jumping|swings?|swinging|varies|varying|bounces?|fluctuates?|"
                     r"oscillates?)\s+(?:wildly\s+)?"
                     r"between|(?:sometimes|occasionally|now and then|randomly|intermittently)\s+(?:drops?|falls?|"
                     r"collapses?|goes)"
                     r"(?:\s+down)?\s+to|(?:drops?|falls?|collapses?)\s+(?:sometimes|occasionally|now and then|"
                     r"randomly|"
                     r"intermittently)|(?:collapses?|drops? (?:sharply|off)|falls? off|tanks?)\s+(?:at|for|with|on)\s+"
                     r"(?:large|larger|big|bigger)\s+(?:message|buffer|transfer)?\s*sizes?|"
                     r"(?:时不时|偶尔|经常|不时|有时(?:候)?)\s*(?:会)?\s*(?:掉|跌|降|骤降)到?|"
                     r"在[^，,。；;\n]{0,12}?之间\s*(?:跳|波动|变化)|"
                     r"大(?:消息|包|size|尺寸)[^，,。；;\n]{0,8}?(?:骤降|掉下来|掉到|下降|上不去)", _IC)


@extractor
def roce_congestion(text: str) -> list[Understood]:
    """'no PFC configured', 'ECN 没开', 'PFC is enabled' → nic.pfc / nic.ecn; 'busbw jumps between 20 and 90 GB/s',
    'sometimes falls to 0.x GB/s', 'collapses at large sizes' → nccl.busbw_unstable."""
    hits = []
    for fact, pattern in _FLOW.items():
        for m in pattern.finditer(text):
            if _asks(text, m.start()):
                continue
            before = tx.before(text, m.start(), 20)
            after = tx.after(text, m.end(), 40)
            if fact == "nic.pfc" and _PAUSE_FRAMES_SEEN.match(after) and not re.search(
                    r"(?:no|not|never|没有?|未|无)\s*(?:any\s+)?$", before, _IC):
                hits.append(_hit(fact, True, m))  # net-s12b: 'the PFC frames are reaching the senders': PFC is on
                continue
            if re.match(r"\s*(?:storm|pause|frames?|counters?|风暴|帧)", after, _IC):
                continue  # 'PFC storms', 'PFC pause frames': traffic of a PFC that is on, said elsewhere
            if _OFF_BEFORE.search(before) or _OFF_AFTER.search(after):
                hits.append(_hit(fact, False, m))
            elif _ON_AFTER.search(after) or _ON_BEFORE.search(before):
                hits.append(_hit(fact, True, m))
    for m in _NO_FLOW_CONTROL.finditer(text):
        if not _asks(text, m.start()):
            hits.append(_hit("nic.pfc", False, m))
    for m in _SWINGS.finditer(text):
        earlier = tx.before(text, m.start(), 120, same_clause=False)
        if _BUSBW.search(tx.sentence(text, m.start())) or _BUSBW.search(earlier):
            hits.append(_hit("nccl.busbw_unstable", True, m))
    return hits


# --------------------------------------------------------------------------- the cloud's NCCL plugin
_TCPX = re.compile(r"(?<![A-Za-z])(?:GPUDirect[- ]?)?TCPXO?(?![A-Za-z])(?:\s+(?:NCCL\s+)?(?:net\s+)?plugin)?", _IC)
_OFI = re.compile(r"aws-ofi-nccl|aws_ofi_nccl|OFI[- ]NCCL(?:\s+plugin)?|libnccl-net(?:-ofi)?\.so", _IC)
_ABSENT_BEFORE = re.compile(r"(?:no|without|not using|not use|missing|lacks?|no sign of|没有|没|未|不用|没装|未安装|"
                            r"没用)\s*(?:the\s+|any\s+|"
                            r"装\s*|用\s*|安装\s*)?$", _IC)
_ABSENT_AFTER = re.compile(r"^\s*(?:plugin\s+)?(?:is|was|are)?\s*(?:not\s+(?:installed|loaded|found|present|used|"
                           r"configured|"
                           r"enabled|there)|missing|absent|isn't (?:installed|loaded)|没装|没有装|未安装|没加载|没有|"
                           r"没用)", _IC)
_PRESENT_AFTER = re.compile(r"^\s*(?:plugin\s+)?(?:is|was|are)?\s*(?:(?:properly |correctly )?(?:installed|loaded|"
                            r"enabled|in use|"
                            r"working|configured)|装好|已安装|已经装|加载了|已加载)", _IC)
_PRESENT_BEFORE = re.compile(r"(?:installed|loaded|enabled|using|with|装了|装好了?|用了|用的是|"
                             r"加载了)\s*(?:the\s+)?$", _IC)


@extractor
def cloud_plugins(text: str) -> list[Understood]:
    """'no GPUDirect-TCPX plugin' → nccl.tcpx_plugin_missing; 'without aws-ofi-nccl' → nccl.net_plugin_missing."""
    hits = []
    for fact, pattern in (("nccl.tcpx_plugin_missing", _TCPX), ("nccl.net_plugin_missing", _OFI)):
        for m in pattern.finditer(text):
            if _asks(text, m.start()):
                continue
            before, after = tx.before(text, m.start(), 40), tx.after(text, m.end(), 24)
            # 'no GPUDirect-TCPX NCCL plugin and no receive-datapath-manager': the nearest word before decides
            if _ABSENT_BEFORE.search(before) or _ABSENT_AFTER.match(after) or re.search(
                    r"(?:no|without|没有|没装)\s+(?:[\w-]+\s+){0,2}$", before, _IC):
                hits.append(_hit(fact, True, m))
            elif _PRESENT_AFTER.match(after) or _PRESENT_BEFORE.search(before):
                hits.append(_hit(fact, False, m))
    return hits


# --------------------------------------------------------------------------- where the NIC sits from the GPU
# What `nvidia-smi topo -m` would show, said in words. Read only where the sentence names both a GPU and a NIC:
# 'GPUs on different sockets' is GPU to GPU, and 'NUMA nodes per socket set to 4' (NPS, a BIOS setting) is no path.
# (a device's own name, 'mlx5_0', reaches the readers masked as '······')
_NIC_WORD = re.compile(r"(?<![A-Za-z])(?:NICs?|HCAs?|mlx5_\d+|ConnectX[-\w]*|CX-?\d|"
                       r"(?:network|IB|RDMA|RoCE|InfiniBand)\s+(?:cards?|adapters?|devices?|interfaces?)|Mellanox|"
                       r"网卡|IB\s*卡|RDMA\s*卡)|·{4,}", _IC)
_GPU_WORD = re.compile(r"(?<![A-Za-z])(?:GPUs?\d*|GPU\s?\d+)(?![A-Za-z])|显卡|(?<!网)(?<!IB)(?<!RDMA)卡", _IC)
_SOCKET = (r"(?:CPU\s+)?(?:sockets?|NUMA(?:\s+(?:nodes?|domains?|regions?))?|CPUs?|processors?|root complex(?:es)?)"
           r"(?!\s*(?:models?|types?|frequenc|generations?|vendors?|cores?|usage|load|governor))")
_SOCKET_ZH = r"(?:CPU|NUMA|插槽|socket|处理器|路\s*CPU)"
_SWITCH = r"PCIe\s*(?:switch|bridge|交换芯片|交换机|桥)|PLX|PEX\s?\d*"
_PATHS: list[tuple[str, re.Pattern[str]]] = [
    # across the link between sockets: 'on different NUMA nodes', 'cross-NUMA', '跨 NUMA', '不在同一个 CPU 下'
    ("sys", re.compile(rf"(?:on|in|under|attached to|connected to|behind|hang(?:s|ing)? off|belong to|sit on)?\s*"
                       rf"(?:two\s+)?(?:different|separate|opposite|other)\s+{_SOCKET}|"
                       rf"cross[- ]?(?:NUMA|socket|CPU)|across\s+(?:the\s+)?(?:two\s+)?(?:CPU\s+)?(?:sockets|NUMA"
                       rf"(?:\s+nodes|\s+domains)?|CPUs)|inter[- ]socket|remote\s+(?:NUMA|socket)|"
                       rf"(?:over|through|via|across)\s+(?:the\s+)?(?:UPI|QPI|xGMI|Infinity Fabric|SMP interconnect|"
                       rf"socket interconnect)|"
                       rf"跨\s*(?:两个|两颗|两路)?\s*{_SOCKET_ZH}|不在同一(?:个|颗|路)?\s*{_SOCKET_ZH}|"
                       rf"(?:分别)?(?:挂|接|插|位于|在)\s*(?:在)?\s*不同(?:的)?\s*{_SOCKET_ZH}|"
                       rf"另一(?:个|颗|路)\s*{_SOCKET_ZH}", _IC)),
    # through the CPU's host bridge: 'go through the CPU (PHB)', '之间隔着一个 CPU', 'not under the same PCIe switch'
    ("phb", re.compile(rf"(?:go(?:es)?|goes|going|routed|traffic|path|has to go|pass(?:es)?)\s+(?:only\s+)?(?:through|"
                       rf"via)\s+(?:the\s+)?(?:CPU(?:'s)?|host bridge|root complex|root port)(?:\s+(?:host bridge|root "
                       rf"complex|root port))?(?!\s*(?:memory|RAM|DRAM|buffer))|"
                       rf"(?:not|n't)\s+(?:\w+\s+)?(?:under|behind|on|share|sharing|attached to|connected to)\s+"
                       rf"(?:the\s+|a\s+)?(?:same\s+)?(?:{_SWITCH})|"
                       rf"(?:attached|connected|wired)\s+(?:directly\s+)?to\s+the\s+same\s+(?:CPU|socket|root complex)"
                       rf"(?!\s*(?:memory|RAM))|"
                       rf"(?:隔着|经过|通过|经由|要过|走)\s*(?:一个|一颗|了)?\s*CPU(?!\s*(?:内存|的内存))|"
                       rf"不在同一(?:个|颗)?\s*(?:{_SWITCH})|"
                       rf"(?:挂|接|插)\s*(?:在)?\s*同一(?:个|颗|路)?\s*CPU\s*(?:下|上)", _IC)),
    # under one PCIe switch: 'behind the same PCIe switch', '在同一个 PCIe switch 下'
    ("pxb", re.compile(rf"(?:under|behind|on|share|sharing|shares|attached to|connected to|hang(?:s|ing)? off)\s+"
                       rf"(?:the\s+|a\s+|one\s+)?(?:same\s+|single\s+|common\s+)?(?:{_SWITCH})|"
                       rf"同一(?:个|颗|块)?\s*(?:{_SWITCH})", _IC)),
]
# nvidia-smi topo -m's own words in prose: 'GPU0 to mlx5_0 is SYS', '(PHB)'
_TOPO_WORD = re.compile(r"(?<![A-Za-z_])(?P<v>PIX|PXB|PHB|NODE|SYS|SOC)(?![A-Za-z_])")
_NOT_BEFORE = re.compile(r"(?:not|n't|never|no longer|instead of|rather than|不是|并不|并非|没有|而不是)\s*"
                         r"(?:\w+\s+)?$", _IC)
_HEDGE = re.compile(r"suspect|maybe|perhaps|probably|possibly|might|may be|I think|I guess|likely|怀疑|可能|估计|好像|"
                    r"似乎|大概|猜", _IC)
_DASH = re.compile(r"\s[—–-]{1,2}\s|——")
_WORST_FIRST = ["sys", "node", "phb", "pxb", "pix"]


def _clause_asks(text: str, pos: int) -> bool:
    """Like _asks, with a dash also ending the clause: 'we suspect cross-NUMA traffic — how do we confirm it?'."""
    a, b = tx.clause_bounds(text, pos)
    dashes = [m for m in _DASH.finditer(text, a, b)]
    a = max([a] + [m.end() for m in dashes if m.end() <= pos])
    b = min([b] + [m.start() for m in dashes if m.start() >= pos])
    return bool(_ASKS.search(text, a, b))


@extractor
def gpu_nic_path(text: str) -> list[Understood]:
    """'the NIC and the GPU are on different NUMA nodes', '跨 NUMA', 'through the CPU (PHB)', 'under the same PCIe
    switch' → gpu.nic_path, the farthest one said (the fact is the worst-placed GPU's)."""
    hits: list[Understood] = []
    found = [(value, m) for value, pattern in _PATHS for m in pattern.finditer(text)]
    found += [(m["v"].lower().replace("soc", "sys"), m) for m in _TOPO_WORD.finditer(text)]
    for value, m in found:
        s = tx.sentence(text, m.start())
        if not (_NIC_WORD.search(s) and _GPU_WORD.search(s)) or _clause_asks(text, m.start()):
            continue
        if _NOT_BEFORE.search(tx.before(text, m.start(), 24)) and not m.group(0).lower().startswith("not"):
            continue  # 'not on different sockets': not SYS, and which other path is not said
        if any(h.start <= m.start() < h.end or m.start() <= h.start < m.end() for h in hits):
            continue
        hedged = bool(_HEDGE.search(tx.before(text, m.start(), 60)))
        inferred = hedged or value == "phb" and not m.group(0).upper() == "PHB"
        hits.append(_hit("gpu.nic_path", value, m, inferred=inferred))
    if len({h.value for h in hits}) > 1:
        worst = min(hits, key=lambda h: _WORST_FIRST.index(h.value))
        hits = [h for h in hits if h.value == worst.value]
    return hits


# --------------------------------------------------------------------------- many small collectives
# The count or the size of the job's collectives, or latency said to dominate: '980 small reduce-scatters per step',
# 'thousands of tiny all-reduces', 'each all-reduce is only a few KB', '小消息很多', 'latency dominates'. Not what
# nccl-tests shows at its small sizes (latency-bound by design), which is about the benchmark, not the job.
_COLL = (r"(?:all[- _]?reduce|reduce[- _]?scatter|all[- _]?gather|all[- _]?to[- _]?all|broadcast|collective|"
         r"NCCL (?:call|kernel|op)|send/recv|p2p (?:send|op))s?")
_PIECES = (rf"(?:{_COLL}|messages?|tensors?|buckets?|packets?|transfers?|calls?|ops|operations|kernels?|"
           r"chunks?)")
_MANY = (r"(?:many|lots of|a lot of|a large number of|large numbers of|numerous|thousands of|hundreds of|tons of|"
         r"\d[\d,]*k?)")
_SMALL_EN = re.compile(rf"(?<![\w.]){_MANY}\s+(?:very\s+)?(?:small|tiny|little|short)\s+(?:\S+\s+)?{_PIECES}"
                       rf"(?![A-Za-z])|"
                       rf"(?:small|tiny)\s+(?:messages?|{_COLL}|buckets?|packets?)\s+(?:dominate|are the "
                       rf"(?:norm|bulk))|"
                       # 'the allreduce messages are tiny', 'our buckets are very small'
                       rf"(?<![A-Za-z]){_PIECES}\s+(?:are|were|is|was)\s+(?:all\s+|very\s+|really\s+|quite\s+|so\s+)?"
                       rf"(?:small|tiny)(?![A-Za-z])|"
                       r"latency[- ](?:bound|dominated|limited)|latency (?:dominates|is dominating|is the bottleneck)|"
                       r"(?:dominated|bound|limited) by (?:the\s+)?(?:network\s+)?latency", _IC)
# a count of collectives without 'small': '980 reduce-scatter calls', 'thousands of all-reduces per step'
_COUNT_EN = re.compile(rf"(?<![\w.])(?P<n>\d[\d,]*|thousands|hundreds|tens of thousands)\s+(?:of\s+)?"
                       rf"(?:separate\s+|individual\s+)?{_COLL}(?P<calls>\s+(?:calls?|ops|operations|launches|kernels|"
                       r"invocations))?(?![A-Za-z])", _IC)
_PER_STEP = re.compile(r"per (?:step|iteration|batch|micro-?batch|group(?: launch)?|launch|bucket|forward|backward)|"
                       r"(?:each|every|one|a single) (?:step|iteration|group launch|launch|bucket)|每(?:个|一)?\s*"
                       r"(?:step|步|迭代|轮|iter)", _IC)
_FEW_KB = re.compile(r"(?:(?:only|just|merely|about|around|~|under|less than)\s*)?(?:a few|few|several|a couple of|"
                     r"\d+(?:\.\d+)?)\s*(?:KB|KiB|kB|K|bytes)(?![A-Za-z])|"
                     r"(?:只有|才|仅|就)\s*(?:几|\d+(?:\.\d+)?)\s*(?:KB|KiB|K|字节)", _IC)
_EACH = re.compile(rf"(?:each|every|per|one)\s+(?:\w+\s+)?(?:{_PIECES}|message)|"
                   rf"(?:{_PIECES})\s+(?:of|is|are|were|carry|carries)\s+(?:only|just|merely)|"
                   r"(?:每次|每个|每条)\s*(?:all[-_ ]?reduce|通信|消息|集合通信)?", _IC)
_SMALL_ZH = re.compile(r"(?:小消息|小包|小数据包|小张量|(?:小|很小)的\s*(?:all[-_ ]?reduce|通信|集合通信|消息|包|张量|"
                       r"bucket|桶))"
                       r"[^，,。；;\n]{0,6}?(?:很多|太多|特别多|非常多|较多|频繁|居多|为主|多)|"
                       r"(?:大量|很多|许多|频繁的?|成千上万|上千|几千|数千|上百|几百)\s*(?:个|次|条)?\s*(?:的)?\s*"
                       r"(?:很小的|小的|小)\s*(?:消息|包|数据包|张量|通信|集合通信|all[-_ ]?reduce|allreduce|"
                       r"reduce[-_ ]?scatter|all[-_ ]?gather|bucket|桶|梯度桶)|"
                       r"延迟(?:占主导|为主|主导|是瓶颈|成为瓶颈|占大头)|受(?:网络)?延迟(?:限制|制约)|"
                       r"latency\s*bound", _IC)
_COUNT_ZH = re.compile(rf"(?:上千|几千|数千|上百|几百|成千上万|\d[\d,]*)\s*(?:次|个)\s*(?:的)?\s*{_COLL}", _IC)
_NOT_SMALL = re.compile(rf"(?:no|not many|few|without)\s+(?:small|tiny)\s+(?:messages|{_COLL}|packets)|"
                        r"not\s+latency[- ](?:bound|dominated|limited)|latency\s+(?:is\s+not|isn't)\s+(?:the\s+)?"
                        rf"(?:issue|problem|bottleneck)|(?:messages|buckets|{_COLL})\s+are\s+(?:all\s+)?(?:large|big|"
                        r"hundreds of MB)|"
                        r"没有(?:很多)?小消息|不是小消息|消息都(?:很|比较)?大|不是延迟(?:的问题|瓶颈)|延迟不是(?:问题|"
                        r"瓶颈)", _IC)
_BENCH = re.compile(r"busbw|algbw|bus ?bandwidth|nccl-tests|[a-z_]+_perf\b|ib_\w+_(?:lat|bw)|osu_|small (?:message )?"
                    r"sizes|小(?:消息)?尺寸|sweep", _IC)


@extractor
def small_messages(text: str) -> list[Understood]:
    """'980 small reduce-scatters per step', 'thousands of tiny all-reduces', 'each all-reduce is only a few KB',
    '小消息很多', 'latency dominates' → job.small_messages (False: 'not latency-bound', '消息都很大')."""
    hits = [_hit("job.small_messages", False, m) for m in _NOT_SMALL.finditer(text) if not _asks(text, m.start())]

    def add(m: re.Match[str]) -> None:
        if _asks(text, m.start()) or _BENCH.search(tx.sentence(text, m.start())):
            return  # 'is it latency-bound?'; nccl-tests is latency-bound at small sizes by design
        if not any(h.start <= m.start() < h.end or m.start() <= h.start < m.end() for h in hits):
            hits.append(_hit("job.small_messages", True, m))

    for m in list(_SMALL_EN.finditer(text)) + list(_SMALL_ZH.finditer(text)):
        n = re.match(r"\d[\d,]*", m.group(0))
        if n is None or int(n.group(0).replace(",", "")) >= 50:
            add(m)
    for m in list(_COUNT_EN.finditer(text)) + list(_COUNT_ZH.finditer(text)):
        digits = re.match(r"\d[\d,]*", m.group(0))
        if digits is not None and int(digits.group(0).replace(",", "")) < 100:
            continue  # '8 all-reduces': a handful
        sentence = tx.sentence(text, m.start())
        if m.groupdict().get("calls") or _PER_STEP.search(sentence):
            add(m)
    for m in _FEW_KB.finditer(text):
        a, b = tx.clause_bounds(text, m.start())
        if _EACH.search(text, a, b) and re.search(rf"{_COLL}|message|通信|消息", text[a:b], _IC):
            add(m)
    return hits


# --------------------------------------------------------------------------- communication's share of a step, measured
# What a profile shows: 'NCCL takes 75% of the step', 'allreduce accounts for 40% of iteration time', 'Nsight 里 NCCL
# 通信占了 75% 的时间', '60% 的时间花在 all-reduce 上'. Not a bandwidth share ('NCCL reaches 75% of line rate'), nor GPU
# utilisation.
_COMM_WHO = (r"(?:NCCL(?:\s+(?:kernels?|calls?|communication|collectives?|all[-_ ]?reduce))?|communication|comms?|"
             r"all[-_ ]?reduces?|allreduce|reduce[-_ ]?scatter|all[-_ ]?gather|collectives?|gradient (?:sync|exchange)|"
             r"ncclDevKernel\w*|ncclKernel\w*)")
_PCT = rf"(?P<pct>{tx.SHARE})"  # in per cent or in words ('half of the step', '一半的时间')
_ABOUT = r"(?:(?:about|around|roughly|nearly|almost|over|more than|~|≈|up to|大约|约|近|将近|差不多|超过)\s*)?"
_SHARE_OF = (r"(?:of\s+(?:the\s+|each\s+|every\s+|total\s+|all\s+)?(?:\w+\s+)?(?:step|iteration|iter|time|runtime|"
             r"run ?time|wall[- ]?(?:clock )?time|training time|GPU time|timeline|trace|profile|total)(?:\s+time)?)")
_COMM_SHARE_EN = [
    re.compile(rf"(?<![A-Za-z]){_COMM_WHO}\s+(?:\w+\s+){{0,2}}?(?:takes?|took|taking|accounts? for|accounted for|"
               rf"occup(?:ies|y|ied)|consumes?|consumed|eats?(?: up)?|ate|uses?|used|is|are|was|were|makes? up|"
               rf"dominates? with)\s+{_ABOUT}{_PCT}\s*{_SHARE_OF}", _IC),
    re.compile(rf"{_ABOUT}{_PCT}\s*{_SHARE_OF}?\s*(?:is|was|goes|went|are|were)?\s*(?:spent\s+)?(?:in|on|to|waiting "
               rf"(?:for|on))\s+(?:the\s+)?{_COMM_WHO}(?![A-Za-z])", _IC),
    # 'in the trace, 70% of the time is NCCL': the whole named, then what it is
    re.compile(rf"{_ABOUT}{_PCT}\s*{_SHARE_OF}\s+(?:is|was|are|were)\s+(?:all\s+|just\s+|pure\s+)?"
               rf"{_COMM_WHO}(?![A-Za-z])", _IC),
]
_COMM_SHARE_ZH = [
    re.compile(rf"(?:NCCL|通信|all[-_ ]?reduce|allreduce|集合通信|梯度同步|reduce[-_ ]?scatter|all[-_ ]?gather|"
               rf"网络延迟|网络通信|网络传输|"
               rf"参数同步|梯度通信)\s*(?:通信|kernel|"
               rf"操作|调用)?[^，,。；;\n%]{{0,6}}?(?:占了?|占用了?|占到了?|花了|用了)\s*"
               # s12 the whole named first: '网络延迟占了总训练时间的 35%', '通信占每个 step 时间的 40%'
               rf"(?:(?:总|整个|整体|每个|每一?步|每轮)?\s*(?:的)?\s*(?:训练|运行|迭代|step|iteration)?\s*(?:时间|耗时|时长)\s*的\s*)?"
               rf"(?:大约|约|近|将近|差不多|超过)?\s*"
               rf"{_PCT}(?:\s*(?:的)?\s*(?:时间|耗时|step|时长|运行时间|训练时间))?", _IC),
    # ('GPU 有 60% 的时间在空等通信': the time the GPUs wait on communication is its share too)
    re.compile(rf"{_PCT}\s*(?:的)?\s*(?:时间|耗时)\s*(?:都)?\s*(?:花|耗|用)?\s*(?:在|于)\s*(?:了)?\s*(?:空等|等待|等)?\s*(?:NCCL|通信|"
               rf"all[-_ ]?reduce|allreduce|集合通信|梯度同步)", _IC),
]
# a share of bandwidth or of a device's capacity, not of time: 'NCCL reaches 75% of line rate', 'GPU util 75%'
_NOT_TIME_SHARE = re.compile(r"line[- ]?rate|bandwidth|peak|bus ?bw|busbw|algbw|Gb/s|GB/s|util|利用率|带宽|线速|"
                             r"theoretical|理论", _IC)


@extractor
def comm_share(text: str) -> list[Understood]:
    """'NCCL takes 75% of the step', 'Nsight 里 NCCL 通信占了 75% 的时间' → job.comm_time_pct."""
    hits: list[Understood] = []
    for pattern in _COMM_SHARE_EN + _COMM_SHARE_ZH:
        for m in pattern.finditer(text):
            pct = tx.share_value(m["pct"])
            if pct is None or not 0 < pct <= 100 or _asks(text, m.start()):
                continue
            near = text[max(m.start(), m.start("pct") - 12):min(len(text), m.end("pct") + 24)]
            if _NOT_TIME_SHARE.search(near) or _NOT_TIME_SHARE.search(m.group(0)):
                continue
            if any(h.start <= m.start() < h.end or m.start() <= h.start < m.end() for h in hits):
                continue
            hits.append(_hit("job.comm_time_pct", pct, m, "pct"))
    return hits


# --------------------------------------------------------------------------- scaling efficiency said as a figure
_EFFICIENCY_SAID = [
    re.compile(r"(?<![A-Za-z])(?:scaling|parallel|weak[- ]scaling|strong[- ]scaling)\s+efficiency\s*"
               # the runs it is of, said between ('scaling efficiency from 1 to 4 nodes is 55%', 'at 4 nodes: 85 %')
               r"(?:(?:from|going from|across|on|at|with|for|when going to|to)\s+[^,.;:%\d]{0,12}\d{1,4}\s*(?:-\s*)?"
               r"(?:to\s+\d{1,4}\s*)?(?:nodes?|machines?|GPUs?|servers?|hosts?)\s*)?"
               r"(?:is|was|of|at|:|=|drops? to|fell to|falls? to|only|just|about|around|roughly|~|\s)*"
               r"(?P<pct>\d{1,3}(?:\.\d+)?)\s*%", _IC),
    re.compile(r"(?<![\d.])(?P<pct>\d{1,3}(?:\.\d+)?)\s*%\s*(?:of\s+linear(?:\s+scaling)?|(?:(?:scaling|parallel)\s+)?"
               r"efficien(?:cy|t)|linear scaling|的?\s*(?:扩展|并行|加速)效率|的?线性度)", _IC),
    re.compile(r"(?:扩展效率|并行效率|加速效率|线性度|扩展比)\s*(?:只有|仅有|仅|才|为|是|在|约|大约|大概|只|不到|掉到|降到|:|：|=|\s)*"
               r"(?P<pct>\d{1,3}(?:\.\d+)?)\s*%"),
]
# 'the goal is 90% scaling efficiency', '希望扩展效率达到 90%', 'should be at least 80 %': a figure wanted, not measured
_WANTED = re.compile(r"goal|target|aim|hope|want|expect|should|at least|ideally|达到|希望|期望|目标|至少|要求|理想|"
                     r"can't hit|cannot reach|达不到|"
                     # what others advertise or report: 'the ~100% scaling efficiency they advertise', '官方号称 90%'
                     r"advertis\w*|claim\w*|they (?:get|got|report\w*|show\w*)|号称|宣称|官方|博客|blog|paper|"
                     r"论文", _IC)


@extractor
def scaling_efficiency(text: str) -> list[Understood]:
    """'scaling efficiency is only 55%', '扩展效率只有 55%', '62% of linear' → job.scaling_efficiency_pct (the share
    the user measured; with the runs' sizes known the engine derives its own from the speed-up)."""
    hits: list[Understood] = []
    for pattern in _EFFICIENCY_SAID:
        for m in pattern.finditer(text):
            pct = float(m["pct"])
            if not 0 < pct <= 100 or _WANTED.search(tx.clause(text, m.start())):
                continue
            if any(h.start < m.end() and m.start() < h.end for h in hits):
                continue
            hits.append(_hit("job.scaling_efficiency_pct", pct, m, "pct"))
    return hits


# --------------------------------------------------------------------------- little compute per GPU and step
# The compute/communication ratio: a small model (the MNIST / CIFAR examples, LeNet, ResNet-18/50, MobileNet), or a
# per-GPU batch of a few samples of such a model. VGG and AlexNet are left out (their large fully connected layers make
# them heavy on bytes), and so are models of a billion parameters and language models, whose batch of 1 is no light
# step.
_SMALL_NET = re.compile(
    r"(?<![A-Za-z])(?:(?:fashion[-_ ]?)?mnist|cifar[-_ ]?(?:10|100)?|lenet(?:[-_]?5)?|"
    r"resnet[-_ ]?(?:18|20|32|34|50|56)|"
    r"mobilenet(?:[-_ ]?v[123])?|squeezenet|shufflenet|efficientnet[-_ ]?b0)(?![A-Za-z0-9])", _IC)
_SMALL_SAID = re.compile(
    r"(?<![A-Za-z])(?:(?:a|the|our|my|this|very|quite|rather|relatively)\s+)?(?:small|tiny|toy|little|simple|"
    r"lightweight)\s+(?:CNN|MLP|model|network|net|convnet)(?![A-Za-z])|"
    r"(?:the\s+)?model\s+is\s+(?:very\s+|quite\s+|pretty\s+|rather\s+)?(?:small|tiny)|"
    r"(?:compute|computation)\s+(?:per\s+(?:step|GPU|iteration)\s+)?is\s+(?:very\s+|tiny|so\s+)?"
    r"(?:small|tiny|light|short)|"
    r"小模型|模型(?:很|比较|非常|太|特别)?小|(?:计算量|计算)(?:很|比较|非常|太|特别)?(?:小|少|轻)", _IC)
_TINY_BATCH = re.compile(
    r"(?:per[- ](?:GPU|device|card|rank)|each GPU'?s?|每(?:张|个)?(?:卡|GPU)|单卡)\s*(?:micro[-_ ]?)?"
    r"(?:batch(?:[-_ ]?size)?|bs)"
    r"\s*(?:of|=|:|：|is|was|为|是|只有|才|仅)?\s*(?P<n>[1-4])(?!\d|\.\d)|"
    r"(?:micro[-_ ]?)?(?:batch[-_ ]?size|bs)\s*(?:of|=|:|：|is|was|为|是|只有|才|仅)?\s*(?P<n2>[1-4])\s*"
    r"(?:per|each|/)\s*"
    r"(?:GPU|device|card|rank)|每卡\s*(?P<n3>[1-4])\s*(?:个样本|张图|条)", _IC)
_HEAVY = re.compile(r"(?<![A-Za-z])(?:LLM|GPT|Llama|LLaMA|Qwen|Mistral|Mixtral|BERT|T5|transformer|tokens?|"
                    r"ViT|vit_\w+|MAE|Swin|CLIP|diffusion|SDXL|UNet|"
                    r"seq(?:uence)?"
                    r"[-_ ]?len\w*|\d+(?:\.\d+)?\s?[Bb](?![A-Za-z])|billion)|大模型|亿参数|VGG|AlexNet", _IC)
# 'unlike ResNet-50', 'even ResNet-50 would', 'a model larger than ResNet-50', '比 ResNet-50 大': another model
_OTHER_MODEL = re.compile(r"(?:unlike|even|than|e\.g\.|such as|like|比|不像|例如|比如|换成|换用|改用|对比|"
                          r"switch(?:ed|ing)? to|compared (?:to|with)|vs\.?)\s*$", _IC)
_NOT_SMALL_MODEL = re.compile(r"(?:not|isn't|is not|no)\s+(?:a\s+)?(?:small|tiny|toy)\s+model|"
                              r"model\s+is\s+(?:not|n't)\s+"
                              r"(?:small|tiny)|不是小模型|模型(?:并)?不小|模型(?:很|比较|非常)大", _IC)


def light_model_name(name: str, text: str = "", start: int = 0) -> bool:
    """A model name that is a light step per GPU ('ResNet50', 'resnet18', 'MobileNetV2', 'LeNet-5'), in a question that
    names no heavy model beside it and not as another model ('even ResNet-50 would …'): for the entity reader, since
    names with digits reach the word readers masked."""
    return (bool(_SMALL_NET.fullmatch(name.strip())) and not _HEAVY.search(text) and not _NOT_SMALL_MODEL.search(text)
            and not _OTHER_MODEL.search(text[max(0, start - 12):start]))


@extractor
def light_compute(text: str) -> list[Understood]:
    """'tf1_mnist_keras.py', 'a small CNN on CIFAR-10', '每卡 batch 只有 2', '计算量很小' → job.light_compute."""
    hits = [_hit("job.light_compute", False, m) for m in _NOT_SMALL_MODEL.finditer(text) if not _asks(text, m.start())]
    if hits or _HEAVY.search(text):
        return hits
    for pattern in (_SMALL_NET, _SMALL_SAID, _TINY_BATCH):
        for m in pattern.finditer(text):
            if _asks(text, m.start()) or _OTHER_MODEL.search(tx.before(text, m.start(), 12)):
                continue
            hits.append(_hit("job.light_compute", True, m))
            return hits
    return hits


# --------------------------------------------------------------------------- the pod network and a service mesh
# Kubernetes: NCCL in pods on the default pod network runs over the CNI's overlay ('Flannel', 'Calico', 'pods without
# hostNetwork', '默认 CNI 网络，没开 hostNetwork'); hostNetwork: true, '--net=host' say it does not.
_CNI = re.compile(r"(?<![A-Za-z])(?:flannel|calico|weave[- ]?net|cilium|antrea|kube-router)(?![A-Za-z])|"
                  r"(?<![A-Za-z])(?:CNI|pod|overlay|容器|Pod)\s*(?:overlay\s*)?(?:networks?|networking|网络)|"
                  r"(?<![A-Za-z])(?:CNI|VXLAN)\s*overlay|覆盖网络", _IC)
# 'weave' alone names Weave Net only where Kubernetes is the topic ('k8s with weave'), not the English verb
_WEAVE = re.compile(r"(?<![A-Za-z])weave(?![A-Za-z-])", _IC)
_K8S = re.compile(r"(?<![A-Za-z])(?:k8s|kubernetes|kubectl|pods?|CNI|kubespray|kubeadm)(?![A-Za-z])", _IC)
# a secondary network that gives the pods the host's NICs ('Multus + SR-IOV for the IB NICs', 'RDMA shared device
# plugin'): the CNI named beside it ('the default network is Calico') is then no evidence that training runs on it
_SECONDARY_NET = re.compile(r"(?<![A-Za-z])(?:Multus|SR-?IOV|host-device|rdma[- ]shared[- ]device[- ]plugin|"
                            r"k8s-rdma-shared-dev-plugin|(?:RDMA|SR-?IOV)\s+device\s+plugin|network-operator)(?![A-Za-z])",
                            _IC)
_DENIED_BEFORE = re.compile(r"(?:(?:(?<![A-Za-z])(?:not|never|no|without)|n't)\s*(?:[A-Za-z]+\s+){0,2}|"
                            r"(?:没有|没|不|未)(?:用|使用|开|配置?|装)?)\s*$", _IC)
_HOSTNET = re.compile(r"(?<![A-Za-z])(?:hostNetwork|host[- ]network(?:ing)?|--net(?:work)?[= ]host)(?![A-Za-z])|"
                      r"主机网络|宿主机网络", _IC)
_HOSTNET_ON_AFTER = re.compile(r"^\s*(?:mode\s*)?(?:[:=]\s*)?[\"']?(?:true|enabled|on)\b|"
                               r"^\s*(?:is\s+|was\s+)?(?:enabled|"
                               r"turned on|on)\b|^\s*(?:模式)?\s*(?:已|已经)?(?:开启|打开|开了|启用)", _IC)
_HOSTNET_OFF_AFTER = re.compile(r"^\s*(?:[:=]\s*)?[\"']?(?:false|disabled|off)\b|"
                                r"^\s*(?:is\s+|was\s+)?(?:disabled|off|not "
                                r"(?:set|enabled|used))\b|^\s*(?:没开|未开启|关闭|没有开)", _IC)
_HOSTNET_OFF_BEFORE = re.compile(r"(?:without|no|not (?:using|on|with)|don't use|do not use|没开|没有开|没用|未开启|"
                                 r"不用|没有)\s*(?:the\s+)?$", _IC)
_HOSTNET_ON_BEFORE = re.compile(r"(?:with|using|use|uses|enabled|turned on|开了|开启了?|用了|使用)\s*(?:the\s+)?$", _IC)
_NOT_OURS = re.compile(r"(?:instead of|rather than|switched (?:away )?from|moved (?:away )?from|no longer|not|without|"
                       r"而不是|不再|换掉了?|不用)\s*(?:the\s+)?(?:default\s+)?$", _IC)


@extractor
def pod_network(text: str) -> list[Understood]:
    """'Flannel', 'pods without hostNetwork talk over the CNI overlay', '默认 CNI 网络，没开 hostNetwork' →
    net.pod_overlay True; 'hostNetwork: true', '--net=host' → False."""
    hits: list[Understood] = []
    for m in _HOSTNET.finditer(text):
        if _asks(text, m.start()):
            continue
        after, before = tx.after(text, m.end(), 24), tx.before(text, m.start(), 24)
        if _HOSTNET_OFF_AFTER.match(after) or _HOSTNET_OFF_BEFORE.search(before):
            hits.append(_hit("net.pod_overlay", True, m))
        elif (m.group(0).lower().startswith("--net") or _HOSTNET_ON_AFTER.match(after)
              or _HOSTNET_ON_BEFORE.search(before)):
            hits.append(_hit("net.pod_overlay", False, m))
    if any(h.value is False for h in hits):
        return [h for h in hits if h.value is False] if not any(h.value for h in hits) else []
    if any(not (_asks(text, m.start()) or _NOT_OURS.search(tx.before(text, m.start(), 24))
                or _DENIED_BEFORE.search(tx.before(text, m.start(), 24))) for m in _SECONDARY_NET.finditer(text)):
        return hits  # which interface NCCL then takes (the NIC given, or the CNI's eth0) the words rarely say
    cni = list(_CNI.finditer(text)) + (list(_WEAVE.finditer(text)) if _K8S.search(text) else [])
    for m in cni:
        if _asks(text, m.start()) or _NOT_OURS.search(tx.before(text, m.start(), 24)):
            continue
        if not any(h.start <= m.start() < h.end for h in hits):
            hits.append(_hit("net.pod_overlay", True, m))
    return hits


_MESH = re.compile(r"(?<![A-Za-z])(?:istio|envoy|linkerd|service[- ]mesh|服务网格)(?![A-Za-z])", _IC)
_MESH_OFF = re.compile(r"istio-injection\s*[=:]\s*disabled|sidecar\.istio\.io/inject\s*[=:]\s*[\"']?false|"
                       r"linkerd\.io/inject\s*[=:]\s*disabled|"
                       r"(?:without|no|not using|disabled|turned off|removed|没有|没用|关闭了?|关掉了?|去掉了?)\s+"
                       r"(?:the\s+)?"
                       r"(?:istio|envoy|linkerd|service[- ]mesh|sidecars?)(?:\s+(?:injection|sidecars?|proxy))?|"
                       r"(?:istio|sidecar)(?:[- ]injection)?\s+(?:is\s+|was\s+)?(?:disabled|turned off|off)|"
                       r"(?:istio|sidecar)\s*(?:注入)?\s*(?:已|已经)?(?:关闭|关掉|禁用|没开)", _IC)


@extractor
def sidecar_proxy(text: str) -> list[Understood]:
    """'The namespace has Istio injection turned on', 'an Envoy sidecar in every pod' → net.sidecar_proxy True;
    'istio-injection=disabled', 'sidecar.istio.io/inject: "false"' → False."""
    off = [_hit("net.sidecar_proxy", False, m) for m in _MESH_OFF.finditer(text) if not _asks(text, m.start())]
    if off:
        return off
    for m in _MESH.finditer(text):
        if _asks(text, m.start()) or _NOT_OURS.search(tx.before(text, m.start(), 24)):
            continue
        return [_hit("net.sidecar_proxy", True, m)]
    return []


# --------------------------------------------------------------------------- fine on one machine, slow across machines
# The scaling said in words, without figures: '单机多卡没问题，一上多机就训得非常慢', 'works fine on a single node
# but is very slow across nodes' → diag.poor_scaling. (With figures, comparisons.py reads the speed-up itself.)
_ONE_OK_EN = re.compile(r"(?:fine|OK|okay|well|fast|normal(?:ly)?|great)\s+(?:on|with|in)\s+(?:a\s+)?"
                        r"(?:single|one|1)[- ]?(?:node|machine|server|host|box)|"
                        r"(?:single|one)[- ](?:node|machine|server)\s+(?:training\s+)?"
                        r"(?:is|runs|works|was)\s+(?:\w+\s+)?(?:fine|OK|okay|fast|normal)", _IC)
_MANY_SLOW_EN = re.compile(r"(?:multi[- ]?node|multiple (?:nodes|machines|servers)|across (?:nodes|machines|servers)|"
                           r"two (?:nodes|machines|servers)|more (?:nodes|machines)|distributed)[^.;!?\n]{0,40}?"
                           r"(?:very |extremely |really |much |terribly |painfully |super )?(?:slow|slower|crawls)",
                           _IC)
_ONE_OK_ZH = re.compile(r"(?:单机|单节点|单台)(?:多卡|单卡)?[^，,。；;\n]{0,8}?"
                        r"(?:没问题|正常|很快|挺快|没毛病|速度(?:还)?(?:可以|正常)|OK|ok)")
_MANY_SLOW_ZH = re.compile(r"(?:多机|多节点|两机|双机|跨机|跨节点|分布式)[^，,。；;\n]{0,12}?"
                           r"(?:非常|很|特别|极其|巨|太|超级)?慢")


# s11 barely faster: 'throughput barely improves over one instance', 'hardly any speed-up from the second node',
# '加了机器速度几乎没提升', '两台机器和一台差不多': more machines, about the pace of one
_BARELY_FASTER = re.compile(
    r"(?<![A-Za-z])(?:barely|hardly|scarcely|almost no|nearly no|little to no|virtually no)\s+(?:any\s+)?"
    r"(?:improves?|improvement|faster|speed-?ups?|gains?|better|increases?|scales?|scaling)(?![A-Za-z])"
    r"(?=[^.;!?\n]{0,40}?(?:(?:over|than|compared (?:to|with)|vs\.?|from)\s+(?:a\s+|the\s+)?(?:single|one|1)[- ]?"
    r"(?:node|machine|server|host|box|instance|VM)|(?:second|extra|more|additional|another)\s+(?:node|machine|server|"
    r"instance|VM)s?))|"
    r"(?:多机|多台|两台|两机|双机|加了?(?:一台|机器|节点)|扩到\s*\d+\s*台)[^，,。；;\n]{0,16}?(?:几乎|基本|根本)\s*(?:上)?"
    r"(?:没有?|不)\s*(?:提升|变快|加速|提高|快)|(?:两台|两机|双机|多机)[^，,。；;\n]{0,8}?(?:和|跟|与)\s*(?:一台|单机|单台)"
    r"[^，,。；;\n]{0,4}?差不多", _IC)


# The scale-out said BEFORE the barely ('Scaling from 1 node to 2 nodes gives almost no speedup', 'Adding a
# second node gives almost no speed-up', 'Going from one machine to two machines barely improves throughput'): the
# pattern above looks only after it. Speed words only: 'the loss barely improves' is no scaling.
_SCALE_OUT_EN = (r"(?<![A-Za-z])(?:from\s+(?:a\s+)?(?:single|one|1)\s*(?:node|machine|server|host|box|instance|VM)s?"
                 r"\s+to\s+(?:two|three|four|eight|more|multiple|several|\d+)(?:\s+(?:nodes|machines|servers|hosts|boxes|"
                 r"instances|VMs))?|(?:adding|added|add)\s+(?:a\s+|the\s+)?(?:second|another|more|extra|\d+\s+more)\s+"
                 r"(?:node|machine|server|host|box|instance|VM)s?)")
_BARELY_AFTER_SCALE_OUT = re.compile(
    _SCALE_OUT_EN + r"[^.;!?\n]{0,40}?(?<![A-Za-z])(?:barely|hardly|scarcely|almost no|nearly no|little to no|"
    r"virtually no)\s+(?:any\s+)?(?:speed-?ups?|faster|gains?|(?:improves?|increases?)\s+(?:the\s+)?"
    r"(?:throughput|speed|performance|samples/s|tokens/s|it/s))(?![A-Za-z])", _IC)


@extractor
def slow_only_across_nodes(text: str) -> list[Understood]:
    """'单机多卡没问题，一上多机就训得非常慢', 'fine on one node but very slow across nodes' → diag.poor_scaling."""
    for m in _BARELY_FASTER.finditer(text):
        if not _asks(text, m.start()):
            return [_hit("diag.poor_scaling", True, m)]
    for m in _BARELY_AFTER_SCALE_OUT.finditer(text):  # its two ends may lie in two clauses: neither may ask
        if not _asks(text, m.start()) and not _asks(text, m.end() - 1):
            return [_hit("diag.poor_scaling", True, m)]
    for one, many in ((_ONE_OK_ZH, _MANY_SLOW_ZH), (_ONE_OK_EN, _MANY_SLOW_EN)):
        for m in one.finditer(text):
            if _asks(text, m.start()):
                continue
            a, b = tx.sentence_bounds(text, m.start())
            slow = many.search(text, m.end(), b)
            if slow is not None and not _asks(text, slow.start()):
                return [_hit_span("diag.poor_scaling", True, text, m.start(), slow.end())]
    return []


# --------------------------------------------------------------------------- one NIC of several carries the traffic
# 'NCCL only uses one of them', 'UCX picked only eth1 for TCP', 'only one NIC is used', '只走了一张网卡'. Names of
# interfaces reach the readers masked ('······'), so any short token stands for the one named.
_LIB = r"(?:NCCL|UCX|Gloo|MPI|NIXL|it|traffic|the job|training|the transfer|all traffic)"
_ONE_NIC = (r"(?:one|1|a single)\s+(?:of\s+(?:them|the(?:ir|se)?\s+(?:[\w-]+\s+){0,3}?"
            r"(?:NICs|interfaces|HCAs|ports|rails|cards))|"
            r"(?:[\w-]+\s+){0,2}?(?:NIC|interface|HCA|port|rail|network card|network interface)(?![A-Za-z]))")
_ONE_NIC_EN = re.compile(
    rf"(?<![A-Za-z]){_LIB}\s+(?:\w+\s+){{0,2}}?(?:only|just)\s+(?:uses?|used|using|picks?|picked|selects?|selected|"
    rf"chose|goes over|went over|sends? over|sent over)\s+{_ONE_NIC}|"
    r"(?<![A-Za-z])(?:only|just)\s+(?:uses?|used|using|goes over|went over)\s+(?:one|1|a single)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:NIC|HCA|port|rail|interface)(?![A-Za-z])|"
    rf"(?:picked|picks|selected|selects|chose|uses|used)\s+only\s+(?:{_ONE_NIC}|[\w·-]{{2,16}}\s+(?:for|as)\s+"
    r"(?:TCP|data|traffic|RDMA|the transport|transport)|"
    # s14 one interface by name, the others said beside it ('UCX picked only eth1 even though there are 2 NICs')
    r"(?<=(?:ked|cks|ted|ose|cts) only )·{3,16}(?![\w·])(?=\s*,?\s*(?:even though|although|though|while|but|out of|"
    r"of the|among)[^.;。；\n]{0,30}?(?:NICs|interfaces|HCAs|ports|rails)(?![A-Za-z])))|"
    r"(?:only|just)\s+(?:one|1|a single)\s+"
    r"(?:of\s+(?:the|our|its|their)\s+(?:[\w-]+\s+){0,2}?|(?:EFA|IB|RoCE|RDMA)\s+)?"
    r"(?:NICs?|interfaces?|HCAs?|ports?|rails?|devices?|adapters?)\s+"
    r"(?:is|are|was|were|gets?|got|shows?|showed|carries|carried)\s+(?:being\s+)?(?:used|active|busy|traffic|"
    r"carrying)|"
    # 'the traffic only shows on mlx5_0', 'traffic goes only over one port' (its interface masked as '······')
    r"(?<![A-Za-z])traffic\s+(?:only\s+(?:shows?|showed|appears?|goes|went|flows?)\s+(?:up\s+)?|"
    r"(?:shows?|showed|appears?|goes|went|flows?|is)\s+(?:up\s+)?only\s+)(?:on|over|through)\s+"
    r"(?:one\s+(?:NIC|HCA|port|interface|rail)(?![A-Za-z])|·{3,}|(?:eth|ens|enp|mlx5_|ib)\w+)|"
    # s30 one NIC's bandwidth for several: 'using only a single NIC's bandwidth', 'we only get the bandwidth of one
    # port', 'capped at one link's throughput', 'no more than a single NIC's worth of bandwidth'
    r"(?:(?<![A-Za-z])(?:only|just)|no more than|capped at|limited to|stuck at)\s+"
    r"(?:(?:get|gets|got|getting|see|sees|saw|seeing|reach\w*|use|uses|used|using|achiev\w*|hit|hits|give|gives|gave|giving)\s+)?(?:the\s+)?(?:"
    r"(?:one|1|a single)\s+(?:NIC|port|interface|HCA|link|card|adapter)(?:'s|’s)\s+(?:worth of\s+)?|"
    r"(?:bandwidth|throughput|speed)\s+of\s+(?:only\s+)?(?:one|1|a single)\s+"
    r"(?:NIC|port|interface|HCA|link|card|adapter)(?![A-Za-z]))(?:(?:bandwidth|throughput|speed)(?![A-Za-z]))?|"
    # 'the other three NICs sit idle', 'the remaining 7 HCAs stay idle'
    r"(?:the\s+)?(?:other|remaining|rest of the)\s+(?:\w+\s+)?(?:NICs|interfaces|HCAs|ports|rails)"
    r"(?:\s+of\s+\w+\s+\w+)?\s+"
    r"(?:sit|sat|stay|stayed|are|were|remain|remained|go|went)\s+(?:completely\s+|totally\s+)?(?:idle|unused)", _IC)
_ONE_NIC_ZH = re.compile(r"只(?:用|走|使用|跑)(?:上|到)?了?\s*(?:其中)?(?:的)?\s*(?:一|1)\s*(?:张|块|个|条)\s*"
                         r"(?:(?:EFA|IB|RoCE|RDMA|HCA|mlx)\s*)?(?:网卡|网口|HCA|rail|接口|端口|口|虚拟网卡)|"
                         # '其他三张网卡都闲着', '另外 7 张网卡没有流量': the rest of the NICs idle
                         r"(?:其他|其它|另外|剩下)(?:的)?\s*(?:几|两|三|四|五|六|七|\d+)?\s*(?:张|块|个)?\s*(?:网卡|网口|HCA|端口)"
                         r"\s*(?:都|全)?\s*(?:闲着|空闲|空着|没有?流量|没用上|用不上)|"
                         r"(?:只有|仅|仅有)\s*(?:一|1)\s*(?:张|块|个)\s*(?:网卡|网口|HCA)\s*(?:有流量|在用|被用|在跑|在传)|"
                         # s30 one NIC's bandwidth for several: '带宽只有一张网卡的', '只跑到单网卡的带宽',
                         # '相当于一个口的速度'
                         r"(?:只有|仅有|只能跑到|只跑到|只能到|只到|只达到|只是)\s*(?:一|1|单)\s*(?:张|块|个|条)?\s*"
                         r"(?:网卡|网口|端口|链路|口)\s*的\s*(?:(?:带宽|速度|速率|水平)(?![\d数])|(?=\s*(?:[，,。.;；!！?？]|$)))|"
                         r"(?:只|仅)?相当于\s*(?:一|1|单)\s*(?:张|块|个|条)?\s*(?:网卡|网口|端口|链路|口)(?![\d数])")
# '…是两个虚拟网卡，我们只用上了其中一个': one of the NICs named just before
# s11 one of the ports: '网卡有两个口…结果跨机只走了一个' — the ports named before, one of them used
_ONE_OF_THEM_ZH = re.compile(r"只(?:用|走|使用|跑)(?:上|到)?了?\s*(?:其中(?:的)?)?\s*(?:一|1)\s*(?:个|张|块|条)"
                             r"(?!\s*(?:GPU|卡|显卡|节点|机器|进程|rank|stream|流|线程|channel|通道))", _IC)
_NIC_NAMED_ZH = re.compile(r"网卡|网口|端口|HCA|NIC|port|rail|QSFP|口", _IC)
_ALL_NICS = re.compile(r"(?:uses?|used|using|over)\s+all\s+(?:of\s+)?(?:the\s+)?(?:\w+\s+)?(?:NICs|interfaces|HCAs|"
                       r"rails)|所有(?:的)?网卡都(?:有流量|用上了|在用)", _IC)


@extractor
def one_nic_used(text: str) -> list[Understood]:
    """'NCCL only uses one of them', 'UCX picked only eth1 for TCP', '只走了一张网卡' → net.one_nic_used True;
    'NCCL uses all eight NICs' → False."""
    for value, patterns in ((False, (_ALL_NICS,)), (True, (_ONE_NIC_EN, _ONE_NIC_ZH))):
        for pattern in patterns:
            for m in pattern.finditer(text):
                if not _asks(text, m.start()):
                    return [_hit("net.one_nic_used", value, m)]
    for m in _ONE_OF_THEM_ZH.finditer(text):
        if _NIC_NAMED_ZH.search(text, max(0, m.start() - 30), m.start()) and not _asks(text, m.start()):
            return [_hit("net.one_nic_used", True, m)]
    return []


# --------------------------------------------------------------------------- the NIC's own PCIe slot caps it
# The driver's boot message (ixgbe/i40e: 'This is not sufficient for optimal performance of this card'; mlx5:
# 'PCIe bandwidth … limited by 8.0 GT/s PCIe x4 link'), or a NIC said to sit in an old or narrow slot ('the NIC is in
# an x4 PCI Express 2 slot', '网卡插在 PCIe 2.0 x4 的槽上'). A slot said of a GPU is the GPU readers' (gpu.pcie_*).
_NIC_SLOT_DRIVER = re.compile(
    r"not sufficient for optimal performance|at least \d+\s*GT/s of bandwidth is required|"
    r"PCI-?e(?:xpress)? bandwidth[^.\n]{0,60}?(?:is\s+)?limited by|(?:available\s+)?PCIe bandwidth,?\s+limited by", _IC)
_SLOT_NIC_WORD = re.compile(r"(?<![A-Za-z])(?:NICs?|network (?:card|adapter|interface card)s?|"
                            r"(?:Ethernet|server) adapters?|ConnectX|XL710|X520|X710|E810|ixgbe|i40e|mlx[45]|"
                            r"\d+\s*G(?:bit|b|bE|igE)?\s*(?:card|NIC)s?)|"
                            r"网卡|网口卡", _IC)
_SLOT_GPU_WORD = re.compile(r"(?<![A-Za-z])(?:GPUs?|graphics card|显卡)|显卡|GPU", _IC)
_SLOT = re.compile(r"(?<![A-Za-z])(?:x(?P<w1>[1248])\s*PCI[- ]?(?:Express|e)\s*(?:Gen\s*)?(?P<g1>[123])(?:\.0)?|"
                   r"PCI[- ]?(?:Express|e)\s*(?:Gen\s*)?(?P<g2>[123])(?:\.0)?\s*(?:\([^)]{0,12}\)\s*)?"
                   r"[x×](?P<w2>[1248])|"
                   r"Gen\s*(?P<g3>[123])\s*[x×](?P<w3>[1248]))(?![\d])", _IC)


@extractor
def nic_pcie_slot(text: str) -> list[Understood]:
    """The NIC's PCIe slot too slow for its ports (the driver's warning, or a NIC in a Gen1–3 x1–x8 slot) →
    nic.pcie_limited True."""
    for m in _NIC_SLOT_DRIVER.finditer(text):
        return [_hit("nic.pcie_limited", True, m)]
    for m in _SLOT.finditer(text):
        sentence = tx.sentence(text, m.start())
        if _SLOT_NIC_WORD.search(sentence) and not _SLOT_GPU_WORD.search(sentence) and not _asks(text, m.start()):
            return [_hit("nic.pcie_limited", True, m)]
    return []


# --------------------------------------------------------------------------- stalls now and then
# Training said to stall now and then, or at a regular interval, without a figure for the spread:
# '每隔一段时间就卡一下', '时不时卡顿几秒', '梯度同步时间时不时异常升高', '训练时快时慢', 'every few hundred steps it
# stalls for 20-30 seconds', 'training freezes for a few seconds every few minutes' → job.step_time_cv 0.3, inferred and
# weak (extract.py's convention for 'fluctuates'). A hang that does not come back ('hangs at the first all_reduce',
# '一直卡住'), a loss that swings, a stall denied, asked about, or said of another run or of before a change: nothing.
_EVERY_ZH = (r"(?:每隔?\s*(?:一段时间|一阵子?|一会儿?|几分钟|几秒|几百步|几十步|几千步|"
             r"(?:\d+|[一两几十百千]+)\s*(?:个)?\s*(?:步|steps?|iters?|iterations?|分钟|秒|s|min)(?![A-Za-z]))|"
             r"时不时|不时地?|偶尔|隔三差五|隔一会儿?|"
             r"隔一段时间|动不动|周期性(?:地)?|间歇性(?:地)?|经常|总是会|老是)")
_STOP_ZH = (r"(?:卡\s*(?:一下|一会儿?|顿|住|了?一下|(?:个)?\s*(?:几|十几|几十|\d+(?:\s*[-~到]\s*\d+)?)\s*"
            r"(?:秒|s|分钟))|停顿|顿一下|停(?:一下|几秒|住)|掉速|变慢|慢(?:一下|下来)|"
            # cmp-s10 odd step: '隔一段时间就会有一次特别慢的 step', '每几百步有一个 step 特别慢'
            r"(?:特别|非常|很|超级|巨)?慢的\s*(?:step|步|迭代|iter)|(?:step|步|迭代|iter)\s*(?:会)?(?:特别|非常|很|超级|巨)?慢)")
_RISE_ZH = r"(?:异常|突然|明显)?(?:升高|飙升|飙高|变长|增大|暴涨|突增|变大|拉长)"
_TIME_SUBJECT = re.compile(r"时间|耗时|延迟|时延|step|迭代|同步|通信|all_?reduce|all-reduce|latency|(?<![A-Za-z])time|"
                           r"duration|iteration|(?<![A-Za-z])sync", _IC)
_STALL_ZH = re.compile(rf"{_EVERY_ZH}[^，,。；;：:\n]{{0,12}}?(?:(?P<stop>{_STOP_ZH})|(?P<rise>{_RISE_ZH}))")
_SWING_ZH = re.compile(r"时快时慢|忽快忽慢|一阵快一阵慢|快一阵慢一阵|一会儿?快一会儿?慢|有时快有时慢|有时候快有时候慢")
_EVERY_EN = (r"(?:every\s+(?:few|couple of|\d+|so many|(?:few\s+)?(?:hundred|thousand)|\d+\s*[-–~]\s*\d+|"
             r"(?:one|two|three|five|ten|fifty|hundred)(?:\s+hundred)?)\s+(?:steps|iterations|iters|minutes|seconds|batches|"
             r"epochs)|every\s+(?:step|iteration|minute|epoch)\s+or\s+so|every\s+now\s+and\s+then|now\s+and\s+then|"
             r"from\s+time\s+to\s+time|every\s+so\s+often|occasionally|periodically|intermittently|at\s+regular\s+intervals|"
             r"once\s+in\s+a\s+while)")
# cmp-s10 odd step: a sentence about steps now and then (or one step among the rest): its 'slower' is no smaller run
ODD_STEPS = re.compile(rf"{_EVERY_ZH}|(?<![A-Za-z]){_EVERY_EN}(?![A-Za-z])|(?:一次|个别|某(?:个|些|几个)|有的|有些)\s*"
                       r"(?:特别|非常|很)?(?:慢的)?\s*(?:step|步|迭代|iter)|(?<![A-Za-z])(?:some|a few|certain|the odd|"
                       r"occasional)\s+(?:slow\s+)?(?:step|iteration|iter)s?(?![A-Za-z])", _IC)
_STOP_EN = (r"(?:stall(?:s|ed|ing)?|paus(?:e|es|ed|ing)|freez(?:e|es|ing)|froze|hiccups?|hangs?\s+for|hung\s+for|"
            r"gets?\s+stuck\s+for|slows?\s+(?:way\s+)?down|slowed\s+down|stutter(?:s|ing)?|"
            # cmp-s10 odd step: 'every few hundred steps one step is 10x slower', 'a step takes 5x longer'
            r"(?:step|iteration|iter|batch)\s+(?:is|takes?|took|was|runs?)\s+(?:about\s+|~|roughly\s+)?"
            r"(?:\d+(?:\.\d+)?\s*(?:x|×|times)\s+|much\s+|way\s+|a lot\s+)?(?:slower|longer)|"
            r"slow\s+(?:step|iteration)s?)")
_RISE_EN = r"(?:spikes?|spiked|spiking|jumps?|jumped|shoots?\s+up|blows?\s+up)"
_STALL_EN = re.compile(rf"(?<![A-Za-z]){_EVERY_EN}[^.;:\n]{{0,40}}?(?<![A-Za-z])(?:(?P<stop>{_STOP_EN})|"
                       rf"(?P<rise>{_RISE_EN}))(?![A-Za-z])|"
                       rf"(?<![A-Za-z])(?:(?P<stop2>{_STOP_EN})|(?P<rise2>{_RISE_EN}))(?![A-Za-z])[^.;:\n]{{0,40}}?"
                       rf"(?<![A-Za-z]){_EVERY_EN}(?![A-Za-z])", _IC)
# the stall denied, asked about, or another run's ('before the switch to RDMA it stalled every few minutes')
_STALL_NOT = re.compile(r"(?:没有|没|不会|并不|从不|从来没有?|不再|no|not|never|n't|without|nor|no longer)\s*"
                        r"(?:\S{0,3}\s*)?$|"
                        r"(?:会不会|是否|是不是|有没有|可能会|(?<![A-Za-z])(?:would|could|will|whether|if|might)(?![A-Za-z]))",
                        _IC)
_STALL_ELSEWHERE = re.compile(r"之前|以前|原来|上次|过去|当初|(?:别的|另一个|其他)(?:任务|作业|集群|团队)|"
                              r"(?<![A-Za-z])(?:before|previously|used to|last (?:time|week|month|run)|earlier|"
                              r"another (?:job|run|cluster|team)|"
                              r"other (?:jobs?|runs?|clusters?|teams?))(?![A-Za-z])", _IC)
_LOSS = re.compile(r"(?<![A-Za-z])(?:loss|accuracy|acc|grad(?:ient)?[_ ]norm|lr|learning rate)(?![A-Za-z])|"
                   r"损失|准确率|精度|梯度范数|学习率|温度|temperature|功耗|power|内存|显存|memory", _IC)


@extractor
def stalls(text: str) -> list[Understood]:
    """'每隔一段时间就卡一下', '梯度同步时间时不时异常升高', '训练时快时慢', 'every few hundred steps it stalls for
    20 s' → job.step_time_cv 0.3 (inferred, weak)."""
    hits: list[Understood] = []
    for pattern in (_STALL_ZH, _STALL_EN, _SWING_ZH):
        for m in pattern.finditer(text):
            a, b = tx.clause_bounds(text, m.start())
            sa = tx.sentence_bounds(text, m.start())[0]
            before = text[a:m.start()]
            if _STALL_NOT.search(before) or _STALL_NOT.search(m.group(0)) or _STALL_ELSEWHERE.search(text, sa, m.end()):
                continue
            rise = m.groupdict().get("rise") or m.groupdict().get("rise2")
            subject = text[max(sa, m.start() - 30):m.end()]
            if rise and (not _TIME_SUBJECT.search(subject) or _LOSS.search(subject)):
                continue  # 'loss 时不时升高', 'GPU 温度时不时升高': not a time that rises
            if not rise and _LOSS.search(text[max(a, m.start() - 12):m.start()]):
                continue
            if pattern is _SWING_ZH and re.search(r"busbw|nccl-tests|带宽|bandwidth|网速|下载|上传",
                                                  tx.clause(text, m.start()), _IC):
                continue  # a benchmark's or a transfer's figure that wavers: not the training's steps
            if _asks(text, m.start()) and re.search(r"会不会|是否|是不是|有没有|吗\s*[?？]?\s*$", text[a:b]):
                continue
            hits.append(_hit("job.step_time_cv", 0.3, m, inferred=True, weak=True))
            return hits
    return hits


# --------------------------------------------------------------------------- a link that goes down and comes back
# In words, not pasted: 'the link keeps flapping', 'port 1 goes down and up every few hours', 'the IB port keeps going
# down', '网口频繁 down', '链路闪断', 'dmesg 里有 Link is Down' → nic.link_flaps True; 'no link flaps', 'dmesg 里没有
# link down', '链路没有断过' → False.
_LINK_WORD = r"(?:links?|ports?|NICs?|interfaces?|HCAs?|IB\s+ports?|网口|网卡|端口|链路|IB\s*口|光口|光模块)"
_FLAP_EN = re.compile(
    rf"(?<![A-Za-z])(?:{_LINK_WORD}\s+(?:\w+\s+){{0,2}}?(?:is\s+|are\s+|keeps?\s+|kept\s+)?flap(?:s|ping|ped)?|"
    rf"link\s+flap(?:s|ping)?|flapping\s+(?:\w+\s+)?{_LINK_WORD}|"
    rf"{_LINK_WORD}\s+(?:\w+\s+){{0,2}}?(?:keeps?|kept)\s+(?:going|dropping|flipping)\s+(?:down|offline|up and down)|"
    rf"{_LINK_WORD}\s+(?:\w+\s+){{0,2}}?(?:goes|went|go)\s+down\s+and\s+(?:comes?\s+|came\s+)?(?:back\s+)?up|"
    rf"{_LINK_WORD}\s+(?:\w+\s+){{0,2}}?(?:drops?|dropped|bounces?|bounced)\s+(?:and\s+comes?\s+back|"
    r"(?:every|now and then|from time to time|occasionally|intermittently|randomly))|"
    r"(?:dmesg|kernel log|syslog|journal)[^.;\n]{0,40}?(?:link\s+(?:is\s+)?down|port error))", _IC)
_FLAP_ZH = re.compile(
    rf"闪断|{_LINK_WORD}\s*(?:\S{{0,6}}?)\s*(?:频繁|反复|经常|时不时|不时|偶尔|老是|总是|动不动就?|隔一段时间就?)\s*"
    r"(?:会)?\s*(?:down|掉线|断开|断掉|断|掉|up\s*/?\s*down|down\s*/?\s*up|重连)|"
    rf"{_LINK_WORD}\s*(?:\S{{0,6}}?)\s*(?:时断时续|断断续续|一会儿?\s*(?:up|通)\s*一会儿?\s*(?:down|断))|"
    r"(?:dmesg|内核日志|系统日志|syslog)[^，,。；;\n]{0,16}?(?:有|出现|看到|报)[^，,。；;\n]{0,8}?(?:link\s*(?:is\s*)?down|端口\s*down|"
    r"网口\s*down|port error)", _IC)
_NO_FLAP = re.compile(
    r"(?<![A-Za-z])(?:no|without(?:\s+any)?)\s+(?:link\s+)?(?:flaps?|flapping|link\s+(?:downs?|drops?|resets?))|"
    r"(?:link|port)\s+(?:is\s+|was\s+|has\s+been\s+)?(?:stable|never\s+(?:went|goes|dropped|flapped))|"
    r"(?:never|didn't|did not|doesn't|does not)\s+(?:go|went|goes)?\s*(?:down|flap)|"
    r"(?:dmesg|内核日志|日志)[^，,。；;\n]{0,10}?(?:里|中)?\s*(?:没有|没|无)[^，,。；;\n]{0,8}?(?:link\s*(?:is\s*)?down|down|"
    r"断开|闪断)|"
    r"(?:链路|网口|端口|网卡)\s*(?:没有|没|从没|从来没有?)\s*(?:断过|掉过|down\s*过|闪断)|"
    r"没有(?:出现)?(?:过)?\s*闪断", _IC)


@extractor
def link_flaps(text: str) -> list[Understood]:
    """'the link keeps flapping', '网口频繁 down', '链路闪断' → nic.link_flaps True; 'no link flaps' → False."""
    for m in _NO_FLAP.finditer(text):
        if not _asks(text, m.start()):
            return [_hit("nic.link_flaps", False, m)]
    for pattern in (_FLAP_EN, _FLAP_ZH):
        for m in pattern.finditer(text):
            before = tx.before(text, m.start(), 16)
            if _asks(text, m.start()) or re.search(r"(?:没有|没|不是|并非|no|not|n't|never)\s*$", before, _IC) \
                    or _STALL_ELSEWHERE.search(tx.clause(text, m.start())):
                continue
            return [_hit("nic.link_flaps", True, m)]
    return []


# --------------------------------------------------------------------------- the links' cables
# s22 cabling: what the training links are cabled with ('cheap passive copper DACs', 'DAC 线', '无源铜缆', 'AOC',
# '光纤') → nic.cable, and how long the runs are ('on the cable runs longer than 5 meters', '线缆长 7 米')
# → nic.cable_length_m. A copper cable's reach shrinks as the lane rate grows, so a passive one too long for its rate
# errs and retrains.
_ACTIVE_COPPER = re.compile(r"(?<![A-Za-z])(?:active\s+(?:copper|DACs?|twinax)|ACCs?|AECs?)(?![A-Za-z])|"
                            r"有源铜缆|有源\s*DAC", _IC)
_PASSIVE_COPPER = re.compile(r"(?<![A-Za-z])(?:passive\s+(?:copper\s+)?(?:DACs?|cables?|twinax|copper)|"
                             r"(?<!active )(?<!active copper )DACs?(?:\s+cables?)?|direct[- ]attach(?:ed)?\s+copper|"
                             r"copper\s+(?:DACs?|twinax))(?![A-Za-z])|无源铜缆|(?<!有源)DAC\s*(?:线|线缆|铜缆)|"
                             r"(?<!有源)铜缆", _IC)
_OPTICAL = re.compile(r"(?<![A-Za-z])(?:AOCs?|active\s+optical(?:\s+cables?)?|optical\s+(?:cables?|links?|"
                      r"transceivers?)|fib(?:er|re)(?:\s+optics?)?|optics|transceivers?)(?![A-Za-z])|"
                      r"光纤|光模块|光缆", _IC)
_CABLE_KINDS = (("active_copper", _ACTIVE_COPPER), ("passive_copper", _PASSIVE_COPPER), ("optical", _OPTICAL))
_CABLE_WORD = re.compile(r"(?<![A-Za-z])(?:cables?|cabled|cabling|DACs?|AOCs?|twinax|copper|fib(?:er|re)|runs?)"
                         r"(?![A-Za-z])|"
                         r"线缆|电缆|铜缆|光纤|线长|跳线|DAC\s*线", _IC)
_CABLE_LENGTH = re.compile(r"(?<![\d.])(?P<n>\d{1,3}(?:\.\d)?)\s*(?:m|meters?|metres?|米)(?![A-Za-z/²])", _IC)
_CABLE_CHANGED = re.compile(r"(?:replac\w*|swapp\w*|switch\w*|chang\w*|mov\w*)\s+(?:\w+\s+){0,4}?(?:with|to|for)\s*$|"
                            r"(?:换成|换为|改成|改用|更换为|换了|替换为|替换成)\s*$", _IC)


@extractor
def cabling(text: str) -> list[Understood]:
    """'cabled with cheap passive copper DACs' → nic.cable passive_copper; 'the cable runs longer than 5 meters'
    → nic.cable_length_m 5 (a bound read as the length it reaches). Two kinds said, with none named as the one
    changed to, are no reading: the cables in use are then unknown."""
    said: list[tuple[str, re.Match[str]]] = []
    for kind, pattern in _CABLE_KINDS:
        for m in pattern.finditer(text):
            if any(o.start() <= m.start() < o.end() for _, o in said) or _asks(text, m.start()):
                continue
            said.append((kind, m))
    hits: list[Understood] = []
    kinds = {k for k, _ in said}
    changed = [(k, m) for k, m in said if _CABLE_CHANGED.search(text, max(0, m.start() - 40), m.start())]
    if len(kinds) == 1:
        hits.append(_hit("nic.cable", said[0][0], said[0][1]))
    elif changed:
        hits.append(_hit("nic.cable", changed[-1][0], changed[-1][1]))
    if not said:
        return hits
    for m in _CABLE_LENGTH.finditer(text):
        sa, sb = tx.sentence_bounds(text, m.start())
        n = float(m["n"])
        if 0.3 <= n <= 100 and _CABLE_WORD.search(text, sa, sb) and not _asks(text, m.start()):
            hits.append(_hit_span("nic.cable_length_m", n, text, m.start("n"), m.end()))
            break
    return hits


# --------------------------------------------------------------------------- the GPUs' load swings, or waits for data
# 'GPU 利用率忽高忽低', 'GPU util keeps jumping around', 'GPU 在等数据', 'GPU 吃不饱' → gpu.util_pct 50, inferred: the
# convention for 'GPU utilisation low / 上不去' (extract.py). With a figure in the clause the figure reader decides.
_GPU = r"(?:GPU|显卡)s?\s*(?:的)?\s*(?:利用率|使用率|占用率|util(?:i[sz]ation)?|usage|load)?"
_GPU_SWING = re.compile(
    rf"{_GPU}\s*(?:一直|总是|经常)?\s*(?:忽高忽低|时高时低|一会儿?高一会儿?低|上下(?:跳|波动|浮动|起伏)|跳来跳去|来回跳|"
    r"波动(?:很大|大|厉害|明显|得厉害)|很不稳定|锯齿状?)|"
    rf"(?<![A-Za-z]){_GPU}\s+(?:is\s+|are\s+|keeps\s+|kept\s+)?(?:fluctuat\w*|jump\w*\s+(?:around|up and down)|"
    r"swing\w*|oscillat\w*|spiky|bounc\w*(?:\s+around)?|goes up and down|(?:is\s+)?all over the place|erratic|"
    r"saw-?tooth\w*)", _IC)
_GPU_WAITS_ZH = re.compile(r"(?:GPU|显卡|(?<![显网])卡)\s*(?:都|经常|一直|大部分时间|很多时候|基本)?\s*(?:在)?\s*"
                           r"(?:等数据|空等|吃不饱|喂不饱)", _IC)


@extractor
def gpu_swings(text: str) -> list[Understood]:
    """'GPU 利用率忽高忽低', 'GPU util fluctuates', 'GPU 在等数据', 'GPU 吃不饱' → gpu.util_pct 50 (inferred)."""
    for pattern in (_GPU_SWING, _GPU_WAITS_ZH):
        for m in pattern.finditer(text):
            clause = tx.clause(text, m.start())
            if re.search(r"%", clause) or _asks(text, m.start()) \
                    or _STALL_NOT.search(tx.before(text, m.start(), 8)) \
                    or _STALL_ELSEWHERE.search(text, tx.sentence_bounds(text, m.start())[0], m.start()):
                continue
            return [_hit("gpu.util_pct", 50, m, inferred=True)]
    return []


# --------------------------------------------------------------------------- data loading said to lag
# '数据加载跟不上', '数据读取是瓶颈', 'the dataloader is the bottleneck', 'data loading can't keep up', 'GPU 在等数据',
# 'the GPUs are waiting for data' → job.data_loading_slow True; 'the dataloader is fast', '数据加载不是瓶颈',
# '数据加载很快' → False. A guess ('有人说是 IO 跟不上', 'maybe the dataloader is the bottleneck') or a question:
# nothing.
# where the data lives, as a user names it when its reads are slow
_STORE = (r"(?:NFS|S3|GCS|OSS|Lustre|GPFS|HDFS|Ceph\w*|NAS|CephFS|JuiceFS|Alluxio|blob\s+storage|object\s+storage|"
          r"(?:network|shared|remote)\s+(?:storage|file\s*system|disk|drive)|the\s+bucket|buckets?|disk|HDD)(?![A-Za-z])")
_LOADING = (r"(?:数据加载|加载数据|数据载入|载入数据|数据读取|读取数据|读数据|数据预处理|数据管线|数据管道|数据\s*IO|"
            r"(?:图片|图像|视频|JPEG|jpeg)\s*解码|(?:JPEG|image|video)\s+decoding|"  # st-s11 decoding
            r"dataloader|DataLoader|"
            r"data\s*loader|data[- ]?loading|loading\s+(?:the\s+)?data|input\s+pipeline|data\s+pipeline|"
            r"reading\s+(?:the\s+)?data|data\s+reading|"
            # h-symptoms the reads from where the data lives: 'reading from NFS', 'loading images from S3', '读 NFS'
            rf"(?:reading|loading|fetching|streaming)\s+(?:(?:the\s+)?(?:data(?:set)?|images|samples|files|batches|"
            rf"shards)\s+)?(?:from|off)\s+(?:the\s+|our\s+|an?\s+)?{_STORE}|(?:读|读取|加载)\s*{_STORE}|"
            # 'loading of batches', 'the IO speed', 'disk I/O' (a file or a disk's reads, not the network's)
            r"loading\s+of\s+(?:the\s+)?(?:data|batches|samples|images)|"
            r"(?<![Nn]etwork )(?<!NIC )(?<!网络)(?:the\s+)?(?:disk\s+|file\s+|data\s+)?"
            r"(?<![Nn]etwork )(?<!NIC )(?<!网络)I/?O\s+(?:speed|throughput|reads?)|disk\s+I/?O|磁盘\s*IO|"
            # a bare IO said slow: 'IO 太慢了', 'IO 跟不上' (not the network's: '网络 IO')
            r"(?<![A-Za-z])(?<!网络)(?<!网络 )(?<!网卡)(?<!网卡 )I/?O"
            r"(?=\s*(?:太|很|特别|非常|比较|有点)?慢|\s*跟不上))")
_LOADING_SLOW = re.compile(
    # (where from, between: 'loading data from the disk is the bottleneck')
    rf"{_LOADING}(?:\s+(?:from|off)\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?(?=\s+is\b))?"
    rf"\s*(?:的)?\s*(?:速度)?\s*(?:is|was|seems(?:\s+to\s+be)?|looks(?:\s+like)?|became|是|成了|成为|就是)?\s*"
    r"(?:(?:the|a|our|我们的)\s*)?(?:(?:main|real|明显的?|主要)\s*)?(?:bottleneck|瓶颈)|"
    rf"{_LOADING}\s*(?:速度)?\s*(?:\S{{0,4}}?)(?:跟不上|太慢|很慢|特别慢|非常慢|慢得离谱|喂不饱|拖后腿)|"
    # a bare 慢 right after the loading words: 'GPU 利用率忽高忽低，数据读取慢', '数据加载比较慢'
    rf"{_LOADING}\s*(?:速度)?\s*(?:比较|有点|有些|偏|较)?慢(?![慢])|"
    rf"{_LOADING}\s+(?:is|was|are)\s+(?:very\s+|really\s+|too\s+|extremely\s+|so\s+|quite\s+|pretty\s+)?slow|"
    # the loader as the subject of its verb: 'the Dataloader loads data very slowly', 'the DataLoader keeps stalling'
    r"(?:data\s*loader|DataLoader|dataloader)s?\s+(?:loads?|reads?|fetch(?:es)?|returns?|yields?)\s+(?:the\s+)?"
    r"(?:data|batches|samples|images)?\s*(?:very\s+|really\s+|too\s+|extremely\s+|so\s+|quite\s+)?slow(?:ly)?|"
    r"(?:data\s*loader|DataLoader|dataloader)s?\s+(?:keeps?\s+|often\s+|always\s+|constantly\s+)?stall(?:s|ing|ed)?|"
    r"(?:数据|图片|样本|文件)(?:读|加载|读取)(?:得|的)\s*(?:很|太|特别|非常|比较|有点|有些)?慢|"
    rf"{_LOADING}\s+(?:can't|cannot|can not|couldn't|doesn't|does not|isn't|is not)\s+keep(?:ing)?\s+up|"
    # h-symptoms the loader unable to feed the GPUs: 'can not catch up with the batch consumption', 'can't feed the
    # GPUs fast enough', 'can not provide data in time'
    rf"{_LOADING}s?\s+(?:can't|cannot|can not|couldn't|is unable to|are unable to|fails? to)\s+(?:catch\s+up|"
    r"feed\s+(?:the\s+|all\s+the\s+)?GPUs?|provide\s+(?:the\s+)?(?:data|batches|samples)\s+(?:in\s+time|fast\s+enough|quickly\s+enough)|"
    r"supply\s+(?:the\s+)?(?:data|batches|GPUs?))|"
    # s21 the data read into memory said slow: '数据放在 Lustre 上，不管是读到 CPU 还是读到 GPU 显存都很慢'
    r"(?<![解])读(?:取)?(?:到|进)\s*(?:CPU|GPU|内存|显存|主机内存)[^，。,;；]{0,16}?(?:都|也)?(?:很慢|太慢|特别慢|非常慢)|"
    r"(?:GPUs?|显卡|(?<![显网])卡)\s*(?:are\s+|is\s+)?(?:always\s+|mostly\s+)?"
    # s21 idle first: 'the GPUs sit idle waiting for data', 'the GPUs are idle, waiting on the dataloader'
    r"(?:(?:sit(?:s|ting)?\s+|are\s+|is\s+|stay\s+)?idle,?\s+)?"
    r"(?:(?:waiting|starving|starved)\s+(?:on|for)\s+"
    r"(?:the\s+)?(?:data|input|batches|(?:the\s+)?dataloader)|(?:都|一直|经常)?\s*(?:在)?\s*(?:空等|等)数据)|"
    # s21 the bottleneck named first: 'the bottleneck is data loading', '瓶颈在数据加载上'
    rf"(?:the\s+)?(?:main\s+|real\s+)?bottleneck\s+(?:is|was|seems\s+to\s+be|turned\s+out\s+to\s+be)\s+(?:the\s+)?{_LOADING}|"
    rf"瓶颈\s*(?:在|是|就是|出在)\s*(?:于)?\s*{_LOADING}|"
    # s22 a wait for the data, whoever waits and for how long: 'the model waits about 2 minutes for data loading',
    # 'idle 70% of the time, waiting for data', '每 20 个 batch 要等 2 分钟加载数据', 'GPU 大部分时间在等待数据'
    rf"(?<![A-Za-z])(?:wait(?:s|ed|ing)?|stall(?:s|ed|ing)?|sits?\s+idle|idl(?:es|ed|ing))\s+"
    r"(?:[^\s,.;:!?，。；：]+\s+){0,4}?(?:for|on)\s+(?:the\s+)?(?:next\s+)?"
    r"(?:data(?![\w-])(?!\s*(?:parallel\w*|cent(?:er|re)s?|sets?|base|types?|points?|transfers?|movement|exchange|"
    r"sync\w*|plane|path|rates?|volume|traffic|team))|"
    rf"batch(?:es)?(?![\w-])(?!\s*(?:jobs?|queue|scheduler|size))|{_LOADING})|"
    r"等(?:待)?了?\s*(?:\d+(?:\.\d+)?\s*(?:秒|分钟|分|小时|s|min|mins|minutes?)\s*(?:左右|多)?\s*(?:的)?\s*)?"
    rf"(?:{_LOADING}|数据(?![集并库中心量包类]))|"
    # s22 the loader's time said to rise: 'the data time goes up after several iterations', 'data_time 变得很大'
    r"(?:data[_ ]time|data\s+wait(?:ing)?\s+time|数据(?:加载|读取)?(?:时间|耗时))\s*(?:的)?\s*"
    r"(?:(?:suddenly|then|quickly|sharply|gradually|always|often|突然|一下子|逐渐|会|就|又)\s*)?"
    r"(?:goes up|went up|going up|increases?|increased|increasing|jumps?|jumped|jumping|grows?|grew|spikes?|spiked|"
    r"rises?|rose|balloons?|ballooned|(?:is|was|are|gets?|got|becomes?|became)\s+(?:very\s+|too\s+|really\s+|so\s+)?"
    r"(?:high|large|long|big|huge)(?![A-Za-z])|"
    r"变(?:得)?(?:很|非常|特别)?(?:长|大|高)|很(?:大|长|高)|暴涨|飙升|上升|增加|增大|变多)", _IC)
# h-symptoms the job said bound by its input, or most of its time said to go to the loader: 'we are IO bound',
# (s34 and the gerund straight after: 'most of the training time is spent loading data')
# 'bottlenecked by data loading', 'the dataloader takes most of the step time', 'dataloader 占了大部分时间',
# 'IO 是瓶颈'; a negation just before ('not IO bound', '不是 IO 瓶颈') says the opposite (False)
_MOST = (r"(?:most|the\s+bulk|the\s+majority|(?:a\s+)?large\s+(?:part|share|chunk)|a\s+big\s+(?:part|chunk|share)|"
         r"nearly\s+all|almost\s+all)")
_LOADING_BOUND = re.compile(
    r"(?<![A-Za-z])(?<![Nn]etwork )(?<!NIC )(?<!网络)"
    r"(?:I/?O|input|data[- ]?loading|data[- ]?loader|dataloader|DataLoader|disk|storage)[- ]?bound(?![A-Za-z])|"
    rf"(?<![A-Za-z])(?:bottleneck(?:ed)?|limited|throttled|held\s+back|starved)\s+(?:by|on)\s+(?:the\s+)?"
    rf"(?:{_LOADING}|I/?O(?![A-Za-z])|disk\s+reads|storage(?![A-Za-z])|reads\s+from\s+{_STORE})|"
    rf"{_LOADING}s?\s+(?:takes?|took|eats?|ate|uses?|accounts?\s+for|dominates|is|(?:is\s+|are\s+)?taking)\s+(?:up\s+)?"
    rf"{_MOST}\s+of\s+"
    r"(?:the\s+|each\s+|every\s+)?(?:\w+\s+)?(?:time|step|iteration)|"
    rf"(?<![A-Za-z]){_MOST}\s+of\s+(?:the\s+|each\s+)?(?:\w+\s+)?(?:time|step)\s+(?:is|was|goes)\s+(?:spent\s+|lost\s+)?"
    rf"(?:(?:in|on|into|to|waiting\s+(?:for|on))\s+|(?<=spent\s)|(?<=lost\s))(?:the\s+)?{_LOADING}|"
    rf"{_LOADING}\s*(?:占了?|占用了?|花了?|耗了?)\s*(?:绝)?(?:大部分|大半|一大半|大多数)\s*(?:的)?\s*(?:时间|耗时)|"
    rf"(?:绝)?(?:大部分|大半|一大半|大多数)\s*(?:的)?\s*(?:时间|耗时)\s*(?:都)?\s*(?:花|耗|用|浪费|卡)在\s*(?:了)?\s*{_LOADING}|"
    r"(?<![A-Za-z])(?<!网络)(?<!网络 )(?<!网卡)(?<!网卡 )I/?O\s*(?:是|成了|成为|就是)?\s*(?:主要的?)?\s*瓶颈|"
    # the loader's time against the compute's: 'data loading time is longer than the compute',
    # '读数据的时间比计算时间还长'
    rf"(?:{_LOADING}|data[_ ]time)\s*(?:time\s+)?(?:is\s+|was\s+)?(?:much\s+|far\s+|even\s+)?(?:longer|more)\s+than\s+"
    r"(?:the\s+)?(?:compute|computation|forward|training|GPU|model)|"
    rf"{_LOADING}\s*(?:的)?\s*(?:时间|耗时)\s*比\s*(?:GPU\s*)?(?:计算|训练|前向|前向传播|模型)\S{{0,4}}?(?:还|都)?(?:长|久|多)|"
    rf"瓶颈\s*(?:在|是|就是|出在)\s*(?:于)?\s*(?<![A-Za-z])I/?O(?![A-Za-z])", _IC)
_NEGATED = re.compile(r"(?:not|n't|never|no\s+longer|rather\s+than|instead\s+of|不是|并不是|并非|没有|不)"
                      r"\s*(?:\S+\s+)?$",
                      _IC)
_LOADING_FAST = re.compile(
    rf"{_LOADING}\s*(?:的)?\s*(?:速度)?\s*(?:is\s+|was\s+|are\s+)?(?:not|isn't|is not|不是|并不是|并非|没有成为)\s*"
    r"(?:the\s+|a\s+)?(?:bottleneck|瓶颈|问题)|"
    rf"{_LOADING}\s*(?:的)?\s*(?:速度)?\s*(?:is\s+|was\s+|are\s+)?(?:(?:very|quite|pretty|plenty)\s+)?"
    r"(?:fast|quick|fine|keeps up|keeping up)(?![A-Za-z])|"
    rf"{_LOADING}\s*(?:速度)?\s*(?:很快|挺快|够快|没问题|跟得上|不慢)|"
    # h-symptoms 'not a data loading problem', '不是数据加载的问题'
    rf"(?:不是|并不是|并非)\s*{_LOADING}\s*(?:的)?\s*(?:问题|瓶颈)|"
    rf"(?:not|n't|isn't)\s+(?:a\s+|the\s+)?{_LOADING}\s+(?:problem|issue|bottleneck)", _IC)
_GUESS = re.compile(r"有人说|怀疑|猜|可能|也许|是不是|会不会|是否|(?<![A-Za-z])(?:maybe|perhaps|I guess|guess|suspect|"
                    r"someone said|might|could|whether|if)(?![A-Za-z])", _IC)


# s21 the loader's time as a training log names it (mmcv/mmengine's 'data_time'), said to swing or to take seconds:
# 'data_time 时快时慢，慢的时候 20 几秒', 'data_time spikes to 15 s' (a step waits that long for its batch)
_DATA_TIME_SLOW = re.compile(
    r"(?<![A-Za-z_])data[_ ]time(?![A-Za-z_])(?:[^。.;；?？\n]|(?<=\d)\.(?=\d)){0,30}?"
    r"(?:时快时慢|忽快忽慢|忽高忽低|慢的时候|很慢|特别慢|非常慢|"
    r"(?<![A-Za-z])(?:spik\w*|jump\w*|fluctuat\w*|(?:is|was|gets?)\s+(?:very\s+|really\s+)?(?:slow|high|huge))(?![A-Za-z])|"
    r"(?<![\d.])(?:[5-9]|[1-9]\d+)(?:\.\d+)?\s*(?:几|多)?\s*(?:秒|s(?![A-Za-z])|sec))", _IC)
_YES_NO_QUESTION = re.compile(r"\s*(?:is|are|was|were|does|do|did|can|could|would|will)(?![A-Za-z])[^?？]*[?？]\s*$",
                              _IC)


# the cause found, by the poster or a replier: '目前已经确定是数据载入的问题', '问题出在数据加载上', 'it turned out
# to be a data loading problem', 'the slowness is caused by the dataloader' ('不是数据加载的问题' denies it)
_LOADING_CAUSE = re.compile(
    rf"是\s*{_LOADING}\s*(?:上)?\s*(?:的)?\s*(?:问题|导致|造成|引起|慢|瓶颈)|问题(?:出|就)?在\s*(?:于)?\s*{_LOADING}|"
    rf"(?<![A-Za-z])(?:is|was|it's|turned\s+out\s+to\s+be|was\s+found\s+to\s+be|proved\s+to\s+be)\s+"
    rf"(?:an?\s+|the\s+)?(?:slow\s+)?{_LOADING}\s+(?:problem|issue|bottleneck)(?![A-Za-z])|"
    rf"(?<![A-Za-z])(?:caused|explained)\s+by\s+(?:the\s+|a\s+)?(?:slow\s+)?{_LOADING}", _IC)


@extractor
def data_loading(text: str) -> list[Understood]:
    """'数据加载跟不上', 'the dataloader is the bottleneck', 'GPU 在等数据' → job.data_loading_slow True;
    'the dataloader is fast', '数据加载不是瓶颈' → False."""
    for value, pattern in ((False, _LOADING_FAST), (True, _LOADING_SLOW), (True, _DATA_TIME_SLOW)):
        for m in pattern.finditer(text):
            a = tx.clause_bounds(text, m.start())[0]
            if _asks(text, m.start()) or _GUESS.search(text, max(a, m.start() - 20), m.start()) \
                    or _STALL_ELSEWHERE.search(text, max(a, m.start() - 20), m.start()):
                continue
            if value and re.search(r"(?:没有|没|不|并不|no|not|n't)\s*$", text[max(a, m.start() - 8):m.start()], _IC):
                continue
            if _YES_NO_QUESTION.match(tx.sentence(text, m.start())):
                continue  # s22 'is the GPU waiting for data, or for the network?': asked, in a later clause
            return [_hit("job.data_loading_slow", value, m)]
    for m in (*_LOADING_BOUND.finditer(text), *_LOADING_CAUSE.finditer(text)):
        a = tx.clause_bounds(text, m.start())[0]
        if _asks(text, m.start()) or _GUESS.search(text, max(a, m.start() - 20), m.start()) \
                or _STALL_ELSEWHERE.search(text, max(a, m.start() - 20), m.start()) \
                or _YES_NO_QUESTION.match(tx.sentence(text, m.start())):
            continue
        negated = _NEGATED.search(text[max(a, m.start() - 14):m.start()]) is not None
        return [_hit("job.data_loading_slow", not negated, m)]
    return []


# --------------------------------------------------------------------------- data packed in shards
# s21 'we train with webdataset', 'the images are in TFRecord shards', 'mosaicml-streaming (MDS)', 'litdata' →
# job.data_sharded True: large sequential reads, which network file systems serve well (a shard format asked about,
# 'would packing into webdataset help?', is the scopes' what-if)
_SHARDED = re.compile(r"(?<![A-Za-z])(?:web-?dataset|WebLoader|TFRecords?|tfrecord\w*|MDS shards?|"
                      r"mosaicml[- ]streaming|StreamingDataset|litdata|tar shards?|\.tar shards?)(?![A-Za-z])", _IC)


@extractor
def data_sharded(text: str) -> list[Understood]:
    """'我们用 webdataset 训练', 'the images are in TFRecord shards' → job.data_sharded True."""
    for m in _SHARDED.finditer(text):
        if _asks(text, m.start()) or _GUESS.search(text, max(tx.clause_bounds(text, m.start())[0], m.start() - 20),
                                                   m.start()):
            continue
        return [_hit("job.data_sharded", True, m)]
    return []


# --------------------------------------------------------------------------- checkpoint saves said to be slow
# '保存模型的时候很慢', '存 checkpoint 要卡好几分钟', 'saving checkpoints takes forever', 'checkpointing stalls the run'
# → job.checkpoint_slow True (how long is checkpoints()'s, extract.py); '保存很快', 'saving is quick' → False.
_SAVE = (r"(?:(?:保存|存|写)\s*(?:一次|一个|下)?\s*(?:模型|checkpoint|ckpt|检查点|权重|存档)|"
         r"(?:模型|权重)\s*(?:的)?\s*(?:保存|写入|存储|写盘)|"  # s21 the model first: '模型保存到 HDFS 上特别慢'
         r"(?:checkpoint|ckpt|检查点)\s*(?:的)?\s*"
         r"(?:保存|写入|存储|写盘)?|(?:saving|writing|dumping)\s+(?:a\s+|the\s+|each\s+)?(?:checkpoints?|ckpts?|(?:the\s+)?models?|"
         r"weights)|checkpoint(?:ing|s)?(?:\s+saves?)?|(?:the\s+)?(?:checkpoint|model)\s+saves?|"
         r"(?:checkpoint|ckpt|model)\s+(?:saving|writing)|(?<![A-Za-z])(?:every|each)\s+(?:model\s+)?save(?![A-Za-z])|"
         r"(?<![A-Za-z])save\s+(?:a\s+|the\s+)?(?:checkpoints?|ckpts?)|"
         r"torch\.save(?:\s*(?:到|to)\s*\S{1,12}\s*)?)")  # st-s11
# s21 where the save goes, said between the save and how it goes ('checkpoint 保存到 NAS 上经常卡住',
# 'saving a checkpoint to the shared filesystem stalls training')
_TO_TARGET_ZH = r"(?:\s*(?:到|至|进)\s*[^，。,;；\s]{1,12}?\s*(?:上|里|中))?"
_TO_TARGET_EN = r"(?:\s+(?:to|on|onto|into)\s+(?:the\s+|a\s+|an\s+|our\s+)?[\w/.:-]+(?:\s+[\w/.:-]+)?)?"
_SAVE_SLOW = re.compile(
    rf"{_SAVE}{_TO_TARGET_ZH}\s*(?:的时候|时|期间)?\s*(?:\S{{0,4}}?)(?:很慢|特别慢|非常慢|太慢|慢得|巨慢|超级慢|极慢|卡(?:住|很久|好久|半天)|"
    r"要很久|要好久|要好几分钟|要半天|特别久|很久|"
    # h-symptoms a long time said without its figure: '存一次 ckpt 要十几分钟', '要好几个小时'
    r"(?:要|需要|得|花)\s*(?:十几|几十|好几|二三十|十多)\s*(?:个)?\s*(?:分钟|小时))|"
    rf"(?<![A-Za-z]){_SAVE}{_TO_TARGET_EN}\s+(?:is|are|was|were|takes?|took)\s+"
    r"(?:very\s+|extremely\s+|really\s+|so\s+|too\s+|painfully\s+)?"
    r"(?:slow|forever|ages|(?:a\s+)?(?:very\s+|really\s+|quite\s+|so\s+)?long\s+time|minutes)|"
    rf"(?<![A-Za-z]){_SAVE}{_TO_TARGET_EN}\s+(?:needs?|needed|requires?|required)\s+(?:a\s+)?(?:very\s+|really\s+)?"
    r"long\s+time|"
    # h-symptoms 'the time it takes to save a checkpoint is quite long'
    r"(?<![A-Za-z])time\s+(?:it\s+takes\s+|needed\s+|required\s+|spent\s+)?(?:to\s+)?(?:save|write)\s+"
    r"(?:a\s+|the\s+|each\s+)?(?:checkpoints?|ckpts?|models?)\s+(?:is|was|gets)\s+"
    r"(?:quite\s+|very\s+|really\s+|so\s+|too\s+|extremely\s+)?(?:long|huge)(?![A-Za-z])|"
    rf"(?<![A-Za-z]){_SAVE}{_TO_TARGET_EN}\s+(?:stalls?|blocks?|freezes?|holds?\s+up|hangs?)\s+(?:the\s+)?"
    r"(?:training|run|job|GPUs)|"
    # s21 the save's pace named first: 'the speed of saving models during multi-machine training is very slow'
    rf"(?<![A-Za-z])(?:speed|pace|throughput)\s+of\s+{_SAVE}[^.。;；?？]{{0,60}}?\s(?:is|was|are|were|seems|gets)\s+"
    r"(?:very\s+|extremely\s+|really\s+|so\s+|too\s+|painfully\s+|quite\s+)?slow(?![A-Za-z])|"
    # s22 overhead: 'checkpointing added a lot of overhead to the run', '保存 checkpoint 的开销很大'
    rf"(?<![A-Za-z]){_SAVE}\s+(?:adds?|added|adding|causes?|caused|brings?|brought|introduces?|introduced)\s+"
    r"(?:a\s+lot\s+of|lots\s+of|significant|substantial|huge|massive|major|big|considerable|noticeable|much|so\s+much|too\s+much|"
    r"a\s+(?:big|huge|major|significant|large)|large)\s+(?:\w+\s+)?overhead|"
    rf"{_SAVE}\s*(?:的)?\s*(?:开销|耗时|时间开销)\s*(?:非常|特别|很|太|巨)\s*(?:大|高|长)", _IC)
_SAVE_FAST = re.compile(rf"{_SAVE}{_TO_TARGET_ZH}\s*(?:的时候|时)?\s*(?:很快|挺快|不慢|没问题|只要几秒)|"
                        rf"(?<![A-Za-z]){_SAVE}{_TO_TARGET_EN}\s+(?:is|are|was|takes?)\s+(?:very\s+|quite\s+)?"
                        r"(?:fast|quick|only a few seconds)",
                        _IC)


@extractor
def checkpoint_slow(text: str) -> list[Understood]:
    """'保存模型的时候很慢', 'saving checkpoints takes forever' → job.checkpoint_slow True; '保存很快' → False."""
    for value, pattern in ((False, _SAVE_FAST), (True, _SAVE_SLOW)):
        for m in pattern.finditer(text):
            a = tx.clause_bounds(text, m.start())[0]
            if _asks(text, m.start()) or _GUESS.search(text, max(a, m.start() - 20), m.start()) \
                    or _STALL_ELSEWHERE.search(text, max(a, m.start() - 20), m.start()):
                continue
            if value and re.search(r"(?:没有|没|不|并不|no|not|n't)\s*$", text[max(a, m.start() - 8):m.start()], _IC):
                continue
            return [_hit("job.checkpoint_slow", value, m)]
    # a stall said in the sentence that names the saves: '每 500 步存一次 checkpoint，每次都卡几十秒', 'every 1000
    # steps it stalls for a minute; we checkpoint to NFS' (inferred: the user puts them side by side)
    for m in re.finditer(rf"{_STOP_ZH}|(?<![A-Za-z]){_STOP_EN}(?![A-Za-z])", text, _IC):
        a, b = tx.sentence_bounds(text, m.start())
        save = re.search(_SAVE, text[a:b], _IC)
        ca = tx.clause_bounds(text, m.start())[0]
        periodic = re.search(r"每\s*(?:隔)?\s*(?:\d+|[一两几十百千]+)\s*(?:个)?\s*(?:步|steps?|iters?)|每次(?:都)?|"
                             r"(?:保存|存)\s*(?:一次|一个|下)?\s*(?:模型|checkpoint|ckpt|检查点|权重)?\s*(?:的)?(?:时候|时)|"
                             r"(?<![A-Za-z])every\s+(?:\d+|few|couple of|(?:few\s+)?"
                             r"(?:hundred|thousand))\s+(?:steps|iterations|iters)|(?:when|while|whenever)\s+(?:it\s+)?"
                             r"(?:saves|saving|checkpoints|checkpointing)", text[ca:m.start()], _IC)
        if save is None or periodic is None or _asks(text, m.start()) \
                or _STALL_NOT.search(tx.before(text, m.start(), 8)) or _STALL_ELSEWHERE.search(text, a, m.end()) \
                or _GUESS.search(text, a, m.start()):
            continue
        return [_hit("job.checkpoint_slow", True, m, inferred=True)]
    return []
