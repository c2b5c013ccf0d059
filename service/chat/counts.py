"""The grammar of hardware counts: how many machines, and how many GPUs in each.

People write the same shape many ways: '4台8卡A100', '4台机器，每台8卡', '两机十六卡', '单机8卡',
'2 nodes x 8 GPUs', '2x8 H100', 'two boxes with 4 RTX 4090 each', '16 GPUs across 2 nodes',
'4xH100-80G nodes', '3 single-GPU machines'. This module reads them as one grammar over the masked
prose (GPU model names already turned into GPU_MARK runs by `entities`, so '4090' is never a count):

    COUNT  := digits | Chinese numerals (两, 十六) | English words (two, a pair of)
    NODE   := 台 | 机 | 节点 | node | machine | server | box | host | instance | VM
    GPU    := 卡 | GPU | card | accelerator | device | a masked GPU model
    shape  := COUNT NODE [, each] COUNT GPU          (4台8卡, 2 nodes with 8 GPUs each)
            | COUNT x COUNT GPU                      (2x8 H100: nodes x GPUs per node)
            | COUNT GPU (across|on|over) COUNT NODE  (a total, divided by the nodes)
            | COUNT x GPU NODE                       (8xA100 nodes: GPUs per node)
            | COUNT COUNT-GPU NODE                   (two 8-GPU nodes)
            | 单机 COUNT 卡 | single node ... | COUNT NODE | COUNT GPU

'N机M卡' names the total (2机16卡 is 8 per machine) when M is a multiple of N; 'N台M卡' names a machine
type (4台8卡 is 8 per machine). A count of one (单机, a single GPU) is weak: it is usually the baseline
of a comparison, and never overrides a larger count stated elsewhere.
"""

from __future__ import annotations

import re
from bisect import bisect_left, insort

from bwdoctor.chat import text as tx
from bwdoctor.chat.entities import GPU_MARK, INSTANCE_MARK
from bwdoctor.chat.extract import Understood
from bwdoctor.chat.units import parse_number

_IC = re.IGNORECASE
_CN = "零〇一二两俩三四五六七八九十百千"
# A count: bounded runs so a string of numerals costs linear time, never a backtracking search. '第一张' is an
# ordinal (which one), never how many.
COUNT = (rf"(?:(?<![A-Za-z\d.,{_CN}第])(?<!第\s)\d{{1,5}}(?!\d)(?![.,]\d)|(?<![{_CN}第])(?<!第\s)[{_CN}]{{1,5}}(?![{_CN}])"
         rf"|双(?=\s*(?:卡|机|台|节点|GPU|路|网卡|口|{GPU_MARK}))|(?<![A-Za-z])(?:a pair of|a couple of|one|two|three|four|five|six|seven|eight|nine|ten|twelve|"
         r"sixteen|thirty-two|dual|quad)(?![A-Za-z]))")
# '8 台交换机', '两台 leaf 交换机': machines of the network, not of the job
_NOT_A_NODE = r"(?!\s*(?:[A-Za-z][\w-]*\s*)?(?:交换机|switch|路由器|防火墙|存储|NAS|显示器|打印机))"
# counts-zh-s13 '交换机 2 台，服务器 6 台': a count said after a switch (or another box of the network) counts those boxes
_NOT_AFTER_A_SWITCH = r"(?<!交换机)(?<!交换机\s)(?<!交换机：)(?<!交换机:)(?<!路由器)(?<!路由器\s)(?<!switch\s)(?<!switches\s)"
_NODE_ZH = (rf"(?:台{_NOT_A_NODE}|个节点|节点|个?机器|个?服务器|个?主机|机(?![器房架柜]))"
            r"(?:机器|服务器|节点|主机|物理机|实例|云主机|虚拟机|GPU服务器|机)?")
# (s14 a role between the count and the machine: '2 identical GPU nodes', '16 GPUs over 2 GPU nodes', '4 compute nodes')
_NODE_EN = (rf"(?:(?:GPU|compute)[- ](?=(?:nodes?|machines?|servers?|boxes|box|hosts?|instances?|VMs?|workstations?)(?![A-Za-z])))?"
            rf"(?:nodes?|machines?|servers?|boxes|box|hosts?|instances?|VMs?|workers? nodes?|computers?|PCs?|rigs?|"
            rf"workstations?|desktops?"
            rf"|{INSTANCE_MARK}+)(?![-_]?\d)")  # ('slots=8 node02': a host's name, not eight nodes)
# '8 张 NVLink 的 A800', '8 张 80G 的卡': a form or memory size may stand between the count and the GPU
# (s22 free cards: '每台两块空卡', '两张空闲的卡' are the GPUs left for the job)
_GPU_ZH = (rf"(?:(?:张|块|个)?\s*(?:(?:空闲|闲置|空余|可用|没人用)的?\s*|空(?=\s*(?:卡|GPU|gpu|显卡)))?"
           rf"(?:(?:NVLink|NVL|SXM\d?|PCIe|\d{{2,3}}\s?GB?|满血版?)\s*(?:的|版)?\s*)?"
           rf"(?:卡|GPU|gpu|显卡|{GPU_MARK}+)|(?:张|块)\s*(?-i:(?:16|24|32|40|48|80|94|96|141|192)\s?G(?:B)?)(?![A-Za-z/\d])(?!\s*(?:的)?\s*(?:RoCE|IB|网卡|以太网|NIC)))")  # '每台 8 张 80G': by their memory
# s33 a memory size may stand before the GPUs ('4 48GB GPUs', '8 80G cards'), as it does in Chinese
_GPU_EN = (r"(?:(?-i:(?:16|24|32|40|48|80|94|96|141|192)\s?G(?:B)?)\s+)?"
           rf"(?:GPUs?|gpus?|cards?|accelerators?|devices?|NPUs?|{GPU_MARK}+s?)")
_MARK = rf"{GPU_MARK}+"
# 'two DGX boxes', 'four identical nodes', 'Two AWS p3dn instances' (masked to '·'), never 'processes per node'
# (job-s12b nor a verb: '2 are GPU workers' says what two of them are, not two GPUs)
_ADJ = (r"(?:(?!(?:per|each|with|and|or|on|in|of|for|to|a|an|the|vs|than|are|is|was|were|processes|ranks|GPUs?|cards?|NICs?|IB|InfiniBand|"
        r"RoCE|RDMA|network|Ethernet|"
        # a NIC named by its make or model ('2 ConnectX-6 cards', '2 Mellanox cards'): network cards, no GPUs
        r"ConnectX[-\w]*|CX-?\d\w*|Mellanox|BlueField[-\w]*|mlx\w*|SmartNICs?|DPUs?|"
        r"HCAs?|ports?|cores?|CPUs?|threads|workers|jobs|tasks|hours?|minutes?|mins?|seconds?|secs?|times|steps?|epochs?|"
        r"iterations?|days?|weeks?|[KMGT]i?(?:b|bits?|bytes?|bps|bE)?|Gig(?:E|abit)?|gigabit|links?|cables?)\b)[`'\"]?(?:[A-Za-z][A-Za-z0-9\-]*(?:\.[A-Za-z0-9]+)*|·+|Ｇ+|▪+)[`'\"]?\s+){0,3}?")
_EACH = r"(?:each|apiece|per (?:node|machine|server|box|host)|/node|a node|a machine|on each|in each|in every)"

# A count given under a label, as in a form or a table of the setup: '节点数：4', '机器数 3', '每节点 GPU 数：8', '卡数：16',
# 'nodes: 4', 'number of nodes = 2', 'GPUs per node: 8', 'total GPUs: 32'. The value ends there: a unit of its own
# ('4 台', '8 GPUs') may follow, never a size, a rate or a share ('GPUs: 80%', 'GPU 数：8×H100' is read as a shape).
# (s12 the count changed to: '节点数扩展到 4', '卡数增加到 16', 'number of nodes increased to 8')
_LABEL_SEP = (r"\s*(?:[:：=]|为|是|(?<![A-Za-z])(?:is|are|of)(?![A-Za-z])|(?:从\s*\d{1,4}\s*(?:个|台)?\s*)?(?:扩展|扩|增加|加|提高|提升|"
              r"升|变)(?:了)?(?:到|至|成|为)|(?<![A-Za-z])(?:(?:was |is |were )?(?:increased|scaled|grown|raised|went up|goes up|"
              r"grew|grows) to)(?![A-Za-z]))?\s*")
_LABEL_END = (r"(?:\s*(?:台|个|张|块|卡|nodes?|machines?|servers?|GPUs?|cards?)(?![A-Za-z])(?!\s*(?:per|/|[:：=]|数))"
              # (s14 never the next label's first word: 'GPUs per node: 8\nNode count: 2')
              r"(?![ \t]*(?:[A-Za-z_]+[ \t]*){1,3}[:：=]))?(?![\d.]*\d)"
              # (counts-s11: a label after it, 'Number of nodes: 2 GPUs per node: 8', is no unit of its)
              # (en-s12b: the next line of a form is another label, 'Nodes: 16\nFabric: EFA', no unit of its)
              # (s14 or any label of a form after it: 'Number of nodes: 4 Number of GPUs per node: 8')
              r"(?![ \t]*(?!(?:GPUs?|gpus?|cards?|GPU\s*数|卡数)\s*(?:per|/|数|[:：=])|[A-Za-z][A-Za-z /_-]{0,40}?[:：=]\s*\d"
              # (s14 or the next line's first word, its break softened: 'GPUs per node: 8\nTraining is slow')
              r"|(?![KMGT]i?[bB])[A-Z][a-z]{2,}(?![A-Za-z]*\s*(?:per|/|each)))"
              r"(?:%|％|[x×*/]|倍|秒|分钟|小时|天|步|轮|次|GPU|卡|(?!(?:and|or|but|with|each|per|in|on)(?![A-Za-z]))[A-Za-z]))")
# s14 right after another label's value ('Nodes: 2 GPUs: 16', its line break softened): the word starts a label
_AFTER_A_VALUE = r"(?:(?<=[:：=]\d\s)|(?<=[:：=]\s\d\s)|(?<=[:：=]\d\d\s)|(?<=[:：=]\s\d\d\s))"
_LABEL_NODES = (r"(?:(?<!交换)(?:节点|机器|服务器|主机|物理机|实例)\s*(?:的)?\s*(?:总)?(?:数量|个数|台数|数)|(?<!交换机)台数"
                r"|(?<![A-Za-z])(?:(?:total )?number of (?:nodes|machines|servers|hosts|instances)|(?:node|machine|server|host)"
                r"[ _]?(?:count|num)|num[_ ](?:nodes|machines)|#\s?(?:nodes|machines|servers|hosts))(?![A-Za-z])"
                # (s14 a count before it is another label's value: 'GPUs per node: 8\nNodes: 2'; never '8 nodes: 10
                # it/s', eight machines' figure)
                rf"|(?<![\w-])(?:(?<!\d\s)|{_AFTER_A_VALUE})(?:nodes|machines|servers|hosts)(?=\s*[:：=])"
                # '节点：2', '服务器：4 台' (never '每个节点：8', a machine's share)
                r"|(?<![每单个台一/])(?:节点|机器|服务器|主机)(?=\s*[:：]))")  # counts-s11 ('GPU/节点：8')
_LABEL_PER = (rf"(?:(?:每(?:台|个节点|节点|机|台机器|台服务器)|单机|单节点)\s*(?:的)?\s*(?:GPU|卡|显卡|{GPU_MARK}+)\s*(?:数量|个数|数)"
              r"|(?<![A-Za-z])(?:number of )?(?:GPUs?|gpus?|cards|devices) ?(?:per|/) ?(?:node|machine|server|host)(?![A-Za-z])"
              # s13 a machine's ranks: 'LOCAL_WORLD_SIZE: 8', 'local_world_size=4', NCCL's 'localRanks 8'
              r"|(?<![A-Za-z])(?:local[ _-]?world[ _-]?size|localRanks)(?![A-Za-z])"
              r"|(?:GPU|卡|显卡)\s*(?:数)?\s*/\s*(?:节点|机器|台|机))")  # counts-s11 ('GPU/节点：8')
_LABEL_TOTAL = (rf"(?:(?:总)?(?:GPU|卡|显卡|{GPU_MARK}+)\s*(?:的)?\s*(?:总)?(?:数量|个数|数)(?!据)|总卡数"
                r"|(?<![A-Za-z])(?:(?:the )?(?:total )?number of GPUs|total GPUs|GPU count|GPUs in total)(?![A-Za-z])"
                rf"|(?<![\w-])(?:(?<!\d\s)|{_AFTER_A_VALUE})GPUs(?=\s*[:：=]))")

# ('多机的单卡吞吐只有单机的一半': after '的', '单卡' followed by a pace is each GPU's pace, no run on one GPU)
_EACH_CARDS_PACE = r"(?:的)?\s*(?:吞吐|速度|性能|效率)"
_SHAPES: list[tuple[str, re.Pattern[str]]] = [
    # counts-zh-s13 groups: '4 台 4 卡 + 1 台 8 卡', '2 台 8 卡和 2 台 4 卡': machines of two kinds, summed (their GPUs each
    # one count only where both kinds agree)
    ("groups", re.compile(rf"(?P<n>{COUNT})\s*(?:台|个节点|节点|机)\s*(?:机器|服务器)?\s*(?P<m>{COUNT})\s*(?:张|块)?\s*(?:卡|GPU|显卡)"
                          rf"(?:\s*{_MARK})?\s*(?:\+|＋|加)\s*(?P<n2>{COUNT})\s*(?:台|个节点|节点|机)\s*"
                          rf"(?:机器|服务器)?\s*(?P<m2>{COUNT})\s*(?:张|块)?\s*(?:卡|GPU|显卡)")),
    # cnt 'two A800*8 machines', '2 台 H100×8 服务器': machines counted, each of the model times its GPUs
    ("n-mark-times-nodes", re.compile(rf"(?P<n>{COUNT})\s*(?:台|个)?\s*{_MARK}\s*[*x×]\s*(?P<m>\d{{1,2}})(?!\d|\.\d)\s*-?\s*"
                                      rf"(?:(?:nodes|machines|servers|boxes|hosts|instances|workstations)(?![A-Za-z])|"
                                      rf"机器|服务器|节点)", _IC)),
    ("label-per", re.compile(rf"{_LABEL_PER}{_LABEL_SEP}(?P<m>{COUNT}){_LABEL_END}", _IC)),
    # s14 a total's label whose value says it is each machine's: 'GPUs: 8 per node, 2 nodes', '卡数：8/台'
    ("label-per", re.compile(rf"{_LABEL_TOTAL}{_LABEL_SEP}(?P<m>{COUNT})\s*(?:GPUs?|cards?|张|块|卡)?\s*(?:(?<![A-Za-z])per\s*|/\s*)"
                             r"(?:node|machine|server|host|box|台|机|节点)(?![A-Za-z])", _IC)),
    ("label-nodes", re.compile(rf"{_LABEL_NODES}{_LABEL_SEP}(?P<n>{COUNT}){_LABEL_END}", _IC)),
    # '节点 2 个', '机器 4 台', '服务器共 3 台': the machines, the count after the word
    # (s30 or a verb of using between: '训练节点用了 100 个', '机器申请了 4 台'; never of each machine: '每个节点用了 8 个')
    # (s34 never a word counted before it: '两台机器：一台做 ps …' counts two machines, then one of them)
    ("nodes-after", re.compile(rf"(?<![每单各台个])(?<!每个)(?<!每台)(?:节点|机器|服务器|主机)\s*(?:[:：]|共|一共|总共|"
                               rf"(?:一共|总共|共)?(?:用了|使用了|开了|起了|申请了|跑了))?\s*(?P<n>{COUNT})\s*(?:个|台)"
                               rf"(?!\s*(?:GPU|卡|显卡|rank|进程|网卡|口|核|CPU|线程|worker|trainer|pserver|ps|容器|pod|{GPU_MARK}|[x×*]))",
                               _IC)),
    ("label-total", re.compile(rf"{_LABEL_TOTAL}{_LABEL_SEP}(?P<m>{COUNT}){_LABEL_END}", _IC)),
    # 4台8卡A100, 2机16卡, 两台机器每台8张卡, 4个节点，每个节点8张A100, 4台 8*A100
    ("zh", re.compile(rf"{_NOT_AFTER_A_SWITCH}(?P<n>{COUNT})\s*(?P<nw>{_NODE_ZH})\s*[，,、]?\s*(?:的)?\s*"
                      # zh-s12b the model before each's share: '两台机器，A100 各 8 张', '两台，显存 80G 的 A100 各 8 张'
                      rf"(?:(?:显存\s*\d{{2,3}}\s*GB?\s*的\s*)?{GPU_MARK}+\s*(?:显卡|GPU)?\s*(?=各|每台))?\s*(?P<each>每台|每个节点|每节点|每机|每个|各|都是|均为|都有)?"
                      # s22 one card each said as 单卡: '双节点单卡', '两机单卡' (one card in all cannot span two machines)
                      rf"\s*(?:(?:机器|服务器)?(?:上)?(?:有|装|配|配了|插了)?)?\s*(?:x(?P<m2>\d{{1,2}})(?!\d)|(?:[x×*]\s*)?(?P<m>{COUNT}|单(?=\s*(?:卡|GPU|gpu|显卡))(?<!的单)(?!卡{_EACH_CARDS_PACE})))\s*(?:[x×*]\s*)?(?:{_GPU_ZH}"
                      # counts-s11: '两台机器各 4 张': each's share said bare, the GPUs named elsewhere
                      r"|(?P<bare>张|块)(?=\s*(?:[，,。；;、)）!?！？\n]|$)))")),
    # counts-zh-s13 '多机多卡（2x8）', '多节点 (4*8) 训练': a multi-machine run, then machines times GPUs in brackets
    ("multi-paren", re.compile(r"(?:多机(?:多卡)?|多节点|多台(?:机器)?|跨机|(?<![A-Za-z])multi-?node(?![A-Za-z]))\s*(?:训练)?\s*[(（]\s*"
                               r"(?P<n>\d{1,3})\s*[x×*]\s*(?P<m>\d{1,2})\s*(?:卡|GPUs?)?\s*[)）]", _IC)),
    # 8卡*4台 / 8卡 x 4台
    ("zh-rev", re.compile(rf"(?P<m>{COUNT})\s*{_GPU_ZH}\s*[x×*]\s*(?P<n>{COUNT})\s*(?:台|个节点|节点|机)")),
    # counts-s11: '8卡×2', '8 GPUs x 2': a machine's GPUs, times the machines (never a memory, a rate or more GPUs after)
    ("gpus-times", re.compile(rf"(?P<m>{COUNT})\s*(?:{_GPU_ZH}|{_GPU_EN})\s*[x×*]\s*(?P<n>\d{{1,2}})(?![\d.])"
                              rf"(?!\s*(?:GPUs?|cards?|卡|显卡|张|块|[x×*=]|%|倍|[KMGT]i?B?(?![A-Za-z])|Gb|bit|byte))"
                              # (cnt never one machine after: 'one A100*8 node' is a node of eight, not eight nodes)
                              r"(?!\s*-?\s*(?:node|machine|server|box|host|instance|workstation)(?![A-Za-z]))", _IC)),
    # 2 nodes x 8 GPUs, 2 nodes with 8 A100s each, two boxes with 4 RTX 4090 each, 4 machines each with 8 GPUs
    ("en", re.compile(rf"(?P<n>{COUNT})[\s-]*{_ADJ}{_NODE_EN}\s*,?\s*(?P<each0>each\s*(?:with|has|having|:)?|[x×*]|with|having|"
                      rf"of|each (?:has|have)|(?:that |which )?(?:each )?(?:has|have))\s*(?:(?:up to|about|around)\s*)?"
                      rf"(?P<m>{COUNT}|(?<![A-Za-z])(?:a )?single(?= ))\s*(?:[x×*]\s*)?{_ADJ}{_GPU_EN}(?:\s*(?P<each>{_EACH}))?",
                      _IC)),
    # 2 nodes x H100 x 8: machines, then the model and how many of it each holds
    ("en-mark", re.compile(rf"(?P<n>{COUNT})[\s-]*{_ADJ}{_NODE_EN}\s*(?:[x×*,]|with|of)\s*{_MARK}s?\s*[x×*]\s*"
                           rf"(?P<m>\d{{1,2}})(?!\d|\.\d)", _IC)),
    # 2x(8xA100) nodes, 4 x (8 x H100): machines, each holding the bracketed GPUs
    # (never a PCIe link: 'PCIe Gen4 x16 cards' is a generation and a width, no 4 machines of 16 GPUs)
    ("nxm-paren", re.compile(rf"(?<![\d.A-Za-z])(?<!Gen )(?<!PCIe )(?P<n>\d{{1,4}})\s*[x×*]\s*[(（]\s*(?P<m>\d{{1,2}})\s*[x×*]?\s*"
                             rf"(?:{_MARK}|{_GPU_EN})(?:[^)）]{{0,12}}[)）])?", _IC)),
    # 2x8 H100, 2 x 8 GPUs, 4*8卡
    ("nxm", re.compile(rf"(?<![\d.A-Za-z])(?<!Gen )(?<!PCIe )(?P<n>\d{{1,4}})\s*[x×*]\s*(?P<m>\d{{1,2}})\s*(?:[x×*]\s*)?(?:{_GPU_EN}|{_GPU_ZH})",
                       _IC)),
    # '2 台 H100（2*8*80G）': machines x GPUs x each GPU's memory
    ("nxm", re.compile(r"(?<![\d.A-Za-z])(?<!Gen )(?<!PCIe )(?P<n>\d{1,3})\s*[x×*]\s*(?P<m>\d{1,2})\s*[x×*]\s*(?:16|24|32|40|48|64|80|94|96|141|"
                       r"192)\s*G(?:B|iB)?(?![A-Za-z/\d])")),
    # '8 GPUs = 4 per node x 2 nodes', '4 GPUs per node × 2 nodes': the GPUs each holds, times the machines
    ("m-per-x-n", re.compile(rf"(?P<m>{COUNT})\s*(?:{_ADJ}{_GPU_EN}\s*)?(?:per|each|a|/)\s*(?:node|machine|server|host|box)"
                             rf"\s*[x×*]\s*(?P<n>{COUNT})\s*(?:{_NODE_EN})", _IC)),
    # two 8-GPU nodes, 4 8xA100 nodes, 2 x 8xH100 servers
    # (counts-s11: 'running on 2 (8xA100) nodes': the machine's GPUs in brackets)
    ("n-m-node", re.compile(rf"(?P<n>{COUNT})\s*(?:[x×*]\s*)?{_ADJ}(?P<paren>[(（]\s*)?(?P<m>\d{{1,2}})\s*(?:-|\s)?(?:[x×*]\s*)?"
                            rf"(?:{_GPU_EN}|卡|way(?![A-Za-z]))"
                            rf"\s*(?:{_MARK}s?\s*)?(?(paren)[)）]\s*){_NODE_EN}", _IC)),
    # counts-s11: 'only 4 of the 8 GPUs on each', 'just 2 out of 8 GPUs per node': the GPUs each machine's share uses
    ("of-each", re.compile(rf"(?<![A-Za-z])(?:only|just)\s+(?:use\s+|using\s+|used\s+)?(?P<m>{COUNT})\s+(?:out\s+)?of\s+"
                           rf"(?:the\s+|our\s+|its\s+|their\s+|all\s+)?(?P<t>{COUNT})\s+{_ADJ}{_GPU_EN}\s*(?:on|in|of|per|/)?\s*"
                           rf"(?:each|every|node|machine|server|host|box)(?![A-Za-z])", _IC)),
    # counts-s11: '1N8G', '2N16G' (machines, then the GPUs in all, as Megatron's and many clusters' notes write a run)
    ("n-g", re.compile(r"(?<![A-Za-z\d.])(?P<n>\d{1,3})\s?N\s?(?P<m>\d{1,4})\s?G(?![A-Za-z\d])", _IC)),
    # counts-s11: 'a 16-GPU job (2x8)', '32 GPUs (4 x 8)': the GPUs in all, then machines times GPUs in brackets
    ("total-paren", re.compile(rf"(?P<t>\d{{1,4}})\s*-?\s*{_ADJ}(?:{_GPU_EN}|{_GPU_ZH})[^()（）\n]{{0,12}}?[(（]\s*(?P<n>\d{{1,3}})\s*"
                               rf"(?:nodes?\s*)?[x×*]\s*(?P<m>\d{{1,2}})\s*(?:GPUs?)?\s*[)）]", _IC)),
    # counts-s11: '两个 8 卡节点', '2 台 8 卡的服务器': machines, each holding the GPUs said before its word
    ("n-m-node-zh", re.compile(rf"(?P<n>{COUNT})\s*(?:个|台)\s*(?P<m>{COUNT})\s*(?:张|块)?\s*(?:卡|GPU|显卡)\s*(?:的)?\s*"
                               rf"(?:{_MARK}\s*)?(?:节点|机器|服务器|主机|机(?![房架柜]))")),
    # counts-s11: '8 卡机器 × 4', '8-GPU nodes x 4': a machine of so many GPUs, times the machines
    ("m-node-x-n", re.compile(rf"(?P<m>{COUNT})\s*(?:-\s*)?(?:张|块)?\s*(?:卡|GPU|显卡)\s*(?:的)?\s*(?:{_MARK}\s*)?"
                              rf"(?:机器|服务器|节点|{_NODE_EN})\s*[x×*]\s*(?P<n>\d{{1,3}})(?![\d.])"
                              # (s14 '2 GPU servers x 4 GPUs': GPUs after the times are each machine's, the count before
                              # the machines')
                              rf"(?!\s*(?:[-]?\s*)?(?:{_GPU_EN}|卡|张|块|显卡))", _IC)),
    # 2 pods with 8 GPUs each, 4 个 pod，每个 pod 4 卡: a training pod holding several GPUs is one machine's share (the
    # GPUs of each must be said, so '4 Pod 4 Cards' stays four processes)
    # (counts-zh-s13 'volcano 起了 4 个 worker，每个 worker 8 卡': a worker of a training operator is a pod, its GPUs each)
    ("pods", re.compile(rf"(?P<n>{COUNT})\s*(?:个)?\s*(?:(?:worker\s*)?pods?|(?P<wk>workers?))(?![A-Za-z])\s*(?:上)?\s*[,，]?\s*"
                        rf"(?:(?:each\s*)?(?:with|having|has|:)|每个\s*pod\s*(?:上)?|每\s*pod|(?(wk)每个\s*workers?\s*(?:上)?|(?!))|各)\s*(?:有|用|分配|挂|是|分配了|申请了?)?\s*"
                        rf"(?P<m>{COUNT})\s*(?:[x×*]\s*)?(?:{_ADJ}{_GPU_EN}|{_GPU_ZH})(?:\s*(?P<each>{_EACH}))?", _IC)),
    # s13 '2 pods (one per node)': pods placed one a machine are the machines
    ("pods-one-a-node", re.compile(rf"(?P<n>{COUNT})\s*(?:worker\s*)?pods?\s*[(（,，]?\s*(?:one|1|a single)\s+(?:pod\s+)?"
                                   rf"(?:per|on each|each on its own|a)\s+(?:node|machine|host|server)(?![A-Za-z])", _IC)),
    # two DGX Sparks, our two RDMA-linked DGX Spark boxes: a desktop machine with one GPU each
    ("spark", re.compile(rf"(?P<n>{COUNT})\s*(?:[x×*]|台|个)?\s*(?:[A-Za-z][\w-]{{0,20}}\s+){{0,3}}?DGX[- ]?Sparks?"
                         rf"(?![A-Za-z])", _IC)),
    # two DGX A100 nodes, two HGX-H100: a DGX (or an HGX board) holds eight GPUs
    # (counts-s11: 'two 8-GPU DGX-1s')
    ("dgx", re.compile(rf"(?P<n>{COUNT})?\s*(?:[x×*]\s*)?(?:standard\s+)?(?:\d{{1,2}}-GPU\s+)?[DH]GX[- ]?(?:{_MARK}|A100|H100|H200|B200|-?1|-?2)\s*"
                       rf"(?:{_NODE_EN}|机器|服务器|节点)?"
                       # counts-s11: 'two DGX boxes', '两台 DGX 服务器': the model unsaid
                       # (s14 said bare: 'from 1 DGX to 2 DGX', '2 DGXs')
                       rf"|(?P<n2>{COUNT})\s*(?:[x×*]\s*|台|个)?\s*[DH]GXs?\s*(?:{_NODE_EN}|机器|服务器|节点|(?![\w-]))", _IC)),
    # 16 GPUs across 2 nodes, 16张卡分布在2台机器上, 8 GPUs on each of 2 nodes
    ("total", re.compile(rf"(?P<m>{COUNT})\s*(?:[x×*]\s*)?{_ADJ}(?:{_GPU_EN}|{_GPU_ZH})\s*(?:in total\s*)?(?:,\s*)?"
                         rf"(?P<each>on each of|in each of)?\s*(?:across|over|on|in|spread (?:over|across)|split (?:over|across)|"
                         rf"distributed (?:over|across)|from|分布在|分在|分到|跨|在|\(|（)\s*(?:the\s*)?(?P<n>{COUNT})\s*"
                         rf"(?:{_ADJ}{_NODE_EN}|{_NODE_ZH})", _IC)),
    # counts-zh-s13 bare total: '（A100）一共 16 张，分在两台机器上', '共 32 块，分布在 4 个节点': the GPUs in all said by their
    # measure word alone (the board named before), spread over the machines after
    ("total", re.compile(rf"(?:一共|总共|共计|合计|共|总计)\s*(?:有|是)?\s*(?P<m>{COUNT})\s*(?:张|块)\s*[，,、]?\s*"
                         rf"(?:分布在|分在|分到|分散在|放在|插在|在)\s*(?P<n>{COUNT})\s*{_NODE_ZH}")),
    # 4 Pod 4 Cards 2 Machine: GPUs then machines, side by side: a total over those machines
    ("gpus-nodes", re.compile(rf"(?P<m>{COUNT})\s*{_GPU_EN}\s*,?\s*(?P<n>{COUNT})\s*{_NODE_EN}(?![A-Za-z])", _IC)),
    # 'V100*8', 'A800*8*80G', 'H100 x 8': a machine's GPUs, the count after the model
    # 'A100 8 张', 'H800 八块': the model, then how many of it (a bare count: a machine's, or a total a machine count divides)
    # (counts-zh-s13 'GPU 8 张', '显卡 4 块': the GPUs named by the word, then how many)
    ("mark-count", re.compile(rf"(?:{_MARK}|(?<![A-Za-z])GPU|显卡|(?<![\u4e00-\u9fffA-Za-z])卡)\s*(?P<m>{COUNT})\s*(?:张|块)(?!\s*(?:的)?\s*(?:网卡|网口|NIC|HCA|IB|RoCE|盘|硬盘|SSD))")),
    # 'an A100-40G*8 node', 'H100 x 8 server', 'A800*8 机器': one machine holding them (a plural, '… x 8 nodes', or
    # '… x 8 台' counts machines)
    ("mark-times-node", re.compile(rf"{_MARK}\s*[*x×]\s*(?P<m>\d{{1,2}})(?!\d|\.\d)\s*-?\s*(?:(?:node|machine|server|box|host|"
                                   rf"instance|workstation)(?![A-Za-z])|机器|服务器)", _IC)),
    # cnt 'some A100-40G × 8 nodes', '几台 A800*8 服务器': machines counted by a quantifier, so the count after the
    # model is each one's GPUs even before a plural
    ("mark-times-node", re.compile(rf"(?:(?<![A-Za-z])(?:some|several|a few|multiple)\s+|多台\s*|几台\s*|若干台?\s*|一些\s*)"
                                   rf"{_MARK}\s*[*x×]\s*(?P<m>\d{{1,2}})(?!\d|\.\d)\s*-?\s*(?:(?:nodes|machines|servers|boxes|"
                                   rf"hosts|instances|workstations)(?![A-Za-z])|机器|服务器|节点)", _IC)),
    ("mark-times", re.compile(rf"{_MARK}\s*[*x×]\s*(?P<m>\d{{1,2}})(?!\d|\.\d)(?!\s*(?:nodes?|machines?|servers?|台|节点))",
                              _IC)),
    # 'a3-highgpu-8g x 4', 'p4d.24xlarge * 2': instances of a type, counted after it
    ("instance-times", re.compile(rf"{INSTANCE_MARK}+\s*[x×*]\s*(?P<n>\d{{1,4}})(?!\d|\.\d)")),
    # GCP's accelerator notation: A100-80G:4 (four per machine)
    ("accel", re.compile(rf"{_MARK}:(?P<m>\d{{1,2}})(?!\d)")),
    # 8xA100 nodes, 4xH100-80G servers (no machine count: GPUs per node only)
    ("per-node", re.compile(rf"(?<![\d.])(?P<m>\d{{1,2}})\s*[x×*]\s*{_MARK}\s*(?:-?\s*(?:based\s*)?{_ADJ}{_NODE_EN}|机器|服务器|节点)",
                            _IC)),
    # 8 GPUs per node, 每台8卡, 每台机器 8 张 A100, each node has 8 GPUs, 8 cards each
    # counts-s11: '8 of them per node'
    ("per-node2", re.compile(rf"(?P<m>{COUNT})\s*(?:[x×*]\s*)?(?:{_ADJ}{_GPU_EN}|of them)\s*(?:{_EACH})(?![A-Za-z])", _IC)),
    ("per-node3", re.compile(rf"(?:每台|每个节点|每节点|每机|单台|每个\s*(?:node|server|host|机器|服务器)(?![A-Za-z])"
                             # counts-zh-s13 '主节点和从节点各 8 张', '两边机器上各 4 张': each machine named before its share
                             rf"|(?:(?<=节点)|(?<=机器)|(?<=服务器)|(?<=主机))\s*(?:上)?\s*(?:都)?各)\s*(?:机器|服务器|节点)?\s*(?:上)?\s*(?:有|装|配|配了|插了|是)?\s*"
                             rf"(?P<m>{COUNT})\s*(?:[x×*]\s*)?(?:{_GPU_ZH}|(?P<bare>张|块)(?=\s*(?:[，,。；;、)）!?！？\n]|$)))")),
    ("per-node4", re.compile(rf"(?:each|every|per) (?:node|machine|server|box|host)\s*(?:has|have|with|having|contains|"
                             rf"is equipped with|:)\s*(?P<m>{COUNT})\s*(?:[x×*]\s*)?{_ADJ}{_GPU_EN}", _IC)),
    # 单机8卡, single node with 8 GPUs, one machine with 4 GPUs
    # (s21 '单台最高支持 100Gbps', '单台可插 8 卡': what each machine can take, a per-machine spec, no count of machines)
    ("single", re.compile(rf"(?:单机|单台(?!\s*(?:最高|最多|最大|可以?|能|支持))(?:机器|服务器)?|单节点|"
                          rf"(?<![同第另每任])一台(?:机器|服务器)?(?:上)?)\s*(?:的)?\s*(?:(?P<m>{COUNT})\s*{_GPU_ZH}|"
                          rf"(?P<one>单卡))?"
                          rf"|(?<![A-Za-z])(?:a single|single|one|1)[- ](?:node|machine|server|box|host|instance|{INSTANCE_MARK}+)\s*"
                          rf"(?:(?:with|having|of|,)\s*(?P<m2>{COUNT})\s*(?:[x×*]\s*)?{_ADJ}{_GPU_EN})?", _IC)),
    # an 8-GPU node, a 4 GPU server: the GPUs of one machine (but '4 GPU nodes' are four machines)
    # (job-s12b 'an 8*GPU machine', 'an 8xGPU server': one machine of eight GPUs; '2x GPU servers' stays two servers)
    ("per-node5", re.compile(rf"(?P<m>\d{{1,2}})-(?:GPU|card)\s+{_NODE_EN}|(?P<m2>\d{{1,2}})\s*(?:[x×*]\s*)?GPU\s+"
                             rf"(?:node|machine|server|box|host|instance|workstation)(?![A-Za-z])", _IC)),
    # cnt '8卡机器共 3 台', '用的是 8 卡服务器': GPUs glued before a machine word are each machine's (never '8卡机器 × 4',
    # read above, nor '2 台 8 卡机器')
    # (the machine word looked at, not taken: '8卡机器共 3 台' counts the machines after it)
    ("per-node6", re.compile(rf"(?<![\d.台个])(?P<m>{COUNT})\s*(?:张|块)?\s*(?:卡|GPU|显卡)(?=\s*(?:的)?\s*(?:{_MARK}\s*)?"
                             r"(?:机器|服务器|节点|主机|物理机))")),
    # 'another 8 A100 machine', 'an 8 H100 node', 'one 4 RTX 3090 server': one machine, the count its GPUs
    # (s24 the board hyphened to the count: 'an 8-A100 node', 'each 4-V100 box')
    ("one-node-of", re.compile(rf"(?<![A-Za-z])(?:an?|one|another|single|each|every|the|our|my|this|that)\s+(?P<m>\d{{1,2}})"
                               rf"(?:\s*|-)(?:[x×*]\s*)?{_MARK}\s+(?:GPU\s+)?(?:node|machine|server|box|host|instance|workstation)"
                               rf"(?![A-Za-z])", _IC)),
    # N nodes / N台机器 / two-node / 3 single-GPU machines
    # counts-s11 of ours: 'the job uses 2 of our 10 nodes', 'runs on 4 out of the 8 GPUs': those picked of all there are
    ("of-ours", re.compile(rf"(?<![A-Za-z])(?:uses?|used|using|runs? on|ran on|running on|spans?|spanning|trains? on|trained on)\s+"
                           rf"(?:only\s+|just\s+)?(?P<n>{COUNT})\s+(?:out\s+)?of\s+(?:(?:the|our|its|their|all(?:\s+the)?)\s+)?"
                           rf"(?P<t>{COUNT})\s+(?:(?P<w>{_NODE_EN})|{_ADJ}{_GPU_EN})(?![A-Za-z])", _IC)),
    # counts-s11: '3 个 node' (a Chinese measure word before an English machine word)
    # (s12 'an 8-GPU A100 80GB server': a count hyphened to 'GPU' is the GPUs a machine holds)
    ("nodes", re.compile(rf"(?P<n>{COUNT})(?!-GPU)\s*(?:-|\s)?(?:[x×*]\s*|(?:个|台)\s*(?=(?:nodes?|machines?|hosts?|VMs?)(?![A-Za-z])))?(?:·+\s*)?(?:{_MARK}s?\s+)?(?:GPU\s+)?(?P<sg>single[- ]GPU\s+)?"
                         rf"{_ADJ}{_NODE_EN}"
                         r"(?![A-Za-z])"
                         # (s24 '100 个 MPI 节点', '4 个 GPU 节点', '8 个计算节点': the machines' role between)
                         # (counts-zh-s13 '4 个 worker 节点', '3 个从节点': the machines' role between; '交换机 2 台' the
                         # network's machines, no count of the job's)
                         rf"|(?<![另某]){_NOT_AFTER_A_SWITCH}(?P<n2>{COUNT})\s*(?:个\s*(?:MPI|GPU|CPU|计算|训练|[Ww]orker|从|工作|主)\s*(?=节点))?{_NODE_ZH}",
                         _IC)),  # s21 '另一台服务器' is another, no count
    # 'both nodes have 8 GPUs', 'both of our servers': two machines (weak: a count said outright wins)
    ("both", re.compile(r"(?<![A-Za-z])both\s+(?:of\s+(?:the|our|my|these|those)\s+)?(?:nodes|machines|servers|boxes|hosts|"
                        r"instances|VMs|workstations|computers)(?![A-Za-z])", _IC)),
    # 'the job spans 3 of them', 'uses 8 of the nodes': some of the machines (or GPUs) named before, picked for the job
    ("of-them", re.compile(rf"(?<![A-Za-z])(?:uses?|used|using|spans?|spanned|spanning|runs? (?:on|across)|ran (?:on|across)|"
                           rf"running (?:on|across)|trains? on|trained on|training on|allocated?|reserved?|gets?|got)\s+"
                           rf"(?:only\s+|just\s+)?(?P<n>{COUNT})\s+of\s+(?:them|those|these|the\s+(?P<w>{_NODE_EN}|{_GPU_EN}))"
                           # 'our p5.48xlarge nodes (16 of them)': how many of the things just named
                           rf"(?![A-Za-z])|[(（]\s*(?P<n2>{COUNT})\s+of\s+them\s*[)）]", _IC)),
    # single GPU / 单卡
    # ('多机的单卡吞吐只有单机的一半': each GPU's pace on the machines named, no run on one GPU)
    ("single-gpu", re.compile(rf"(?:(?<!的)单卡|单卡(?!{_EACH_CARDS_PACE}))|single[- ]GPU|one GPU|a single GPU|1 GPU(?!s)|1张卡|一张卡", _IC)),
    # 8 H800 nodes (64 ranks): one rank per GPU, a total the machines divide
    # world size 16, world_size=16, WORLD_SIZE: 16: the ranks in all, one a GPU
    # (s13 never 'LOCAL_WORLD_SIZE: 8', a machine's ranks: label-per)
    # (s14 never torchelastic's 'group_world_size=2', the agents: one a machine)
    ("world", re.compile(rf"(?<![A-Za-z])(?<!local_)(?<!local )(?<!local-)(?<!group_)world[ _-]?size{_LABEL_SEP}(?P<m>{COUNT})(?![\d.]*\d)", _IC)),
    # (never workers counted for each GPU: 'we use 4 workers per GPU' are the data loader's)
    ("ranks", re.compile(rf"(?P<m>{COUNT})\s*(?:个)?\s*(?:GPU\s*)?(?:ranks?|processes|procs|workers|进程)(?![A-Za-z])"
                         r"(?!\s*(?:per|for each|on each|for every)\s+(?:GPU|card|device|process|rank))", _IC)),
    # M GPUs / M张卡 / 8 A100s / 8卡
    ("gpus", re.compile(rf"(?<!Gen)(?<!Gen )(?P<m>{COUNT})\s*(?:[x×*]\s*)?(?:-|\s)?{_ADJ}(?:{_GPU_EN}|{_GPU_ZH})(?![A-Za-z])"
                        rf"(?!\s*{_NODE_EN})", _IC)),
]


# Shapes that cannot match without a word of their own: looked for only where that word is.
_NEEDS = {
    "label-per": re.compile(r"数|per|/|local", _IC),
    "label-nodes": re.compile(r"数|number|count|num|#|:|：|=", _IC),
    "label-total": re.compile(r"数|number|count|total|:|：|=", _IC),
    "pods": re.compile(r"pod|worker", _IC),
    "pods-one-a-node": re.compile(r"pod", _IC),
    "of-them": re.compile(r"(?<![A-Za-z])of(?![A-Za-z])", _IC),
    "of-ours": re.compile(r"(?<![A-Za-z])of(?![A-Za-z])", _IC),  # counts-s11 of ours
    "world": re.compile(r"world", _IC),
    "both": re.compile(r"both", _IC),
}


def _count(text: str | None) -> int | None:
    if not text:
        return None
    word = text.strip().lower()
    if word in {"dual", "a pair of", "a couple of", "双"}:
        return 2
    if word == "quad":
        return 4
    if word in {"single", "a single", "单"}:  # 'two nodes, each with a single A100'; s22 '双节点单卡'
        return 1
    n = parse_number(word)
    return int(n) if n is not None and n == int(n) and n > 0 else None


def _hit(fact: str, value: int, text: str, a: int, b: int, *, weak: bool = False) -> Understood:
    return Understood(fact, value, text[a:b], a, b, weak=weak)


_RANGE_OF_GPUS = re.compile(r"(?<![\w.])(?<!from )(?<!From )(?<!从)(?<!从 )(?<!由)(?<!由 )\d{1,2}\s*(?:-|~|～|to|或|到|至)\s*\d{1,2}(?=\s*(?:张|块|个)?\s*(?:GPUs?|cards?|卡|显卡)"
                            r"(?![A-Za-z0-9]))", re.IGNORECASE)
# cnt a choice of machine counts: '扩展到 4 或 8 个节点后', 'on 2 or 4 nodes it hangs', '节点数扩展到 4 或 8 后': the job
# runs on one or the other, neither is its count; more than one machine either way is said
_ALT = r"\s*(?:或者?|或是|(?<![A-Za-z])or(?![A-Za-z]))\s*"  # (never '2/4': a ratio or a date as often as a choice)
_WORD_COUNT = r"(?<![A-Za-z])(?:two|three|four|five|six|eight|ten|sixteen)(?![A-Za-z])|[两二三四五六八十]"
# (and a range, 'on 4 to 8 nodes', '2-4 台机器上都很慢': each of them; never 'from 1 to 4 nodes', a move)
_ALT_OR_RANGE = r"\s*(?:或者?|或是|(?<![A-Za-z])(?:or|to)(?![A-Za-z])|-|~|～|–|到|至)\s*"
_CHOICE_OF_MACHINES = re.compile(
    rf"(?<![A-Za-z0-9_.{_CN}])(?<!from )(?<!From )(?<!从)(?<!从 )(?<!由)(?<!由 )(?<![\d.]x)(?<![\d.]×)"
    rf"(?P<a>\d{{1,3}}|{_WORD_COUNT}){_ALT_OR_RANGE}(?P<b>\d{{1,3}}|{_WORD_COUNT})(?![A-Za-z0-9_.{_CN}])\s*(?:个|台)?\s*"
    r"(?=(?:节点|机器|服务器|主机|台|机(?![器房架柜])|"
    r"(?:nodes|machines|servers|hosts)(?![A-Za-z])))"
    r"|(?:节点|机器|服务器|主机)\s*(?:数|数量|个数|台数)\s*(?:扩展|扩|增加|加|提高|提升|上|改|变)?\s*(?:到|至|为|成)?\s*"
    rf"(?P<a2>\d{{1,3}}){_ALT}(?P<b2>\d{{1,3}})(?![\w.])", _IC)


_A_MOVE_BEFORE = re.compile(r"(?<![A-Za-z])(?:from|going|went|moving|scal\w+)(?![A-Za-z])|从|由|扩展|扩", _IC)


def _choice_of_machines(text: str) -> tuple[str, list[Understood], list[int]]:
    """A choice of machine counts ('4 或 8 个节点'): the text with its first count and the 'or' blanked (same length,
    so 'on 2 or 4 nodes with 8 GPUs each' still reads each machine's GPUs), job.multi_node where both counts are more
    than one machine, and where the second count starts (its machine count, read there, is no count of the job's)."""
    hits, seconds = [], []
    for m in _CHOICE_OF_MACHINES.finditer(text):
        a, b = _count(m["a"] or m["a2"]) or 0, _count(m["b"] or m["b2"]) or 0
        ranged = not re.search(_ALT, m.group(0))
        if a == b or ranged and (a > b or a == 1 or _A_MOVE_BEFORE.search(text, tx.clause_bounds(text, m.start())[0],
                                                                          m.start())):
            continue  # ('8-4 nodes' is no range; '(1 to 2 nodes)', 'going from 8 to 16 GPUs (2 to 4 nodes)' a move)
        if min(a, b) > 1:
            hits.append(Understood("job.multi_node", True, m.group(0), m.start(), m.end(), source="choice", weak=True))
        at, second = (m.start("a"), m.start("b")) if m["a"] else (m.start("a2"), m.start("b2"))
        text = text[:at] + " " * (second - at) + text[second:]
        seconds.append(second)
    return text, hits, seconds


_AT_LEAST = re.compile(r"(?P<n>(?<![\d.])\d{1,4})\+(?=\s*(?:nodes|machines|servers|hosts|台|个节点|节点|机))", re.IGNORECASE)


# s11 used per node: the GPUs of each machine the job uses, said after what the machines have ('8 GPUs each, but we
# only use 4 per node', '每台 8 张卡，我们每台只用了 4 张')
_USED_PER_NODE = re.compile(
    r"(?<![A-Za-z])(?:use|uses|used|using|run(?:s|ning)? on|ran on|train(?:s|ing)? on)\s+(?:only\s+|just\s+)?"
    r"(?P<n>\d{1,2}|one|two|four|six|eight)\s+(?:GPUs?\s+|cards?\s+|of them\s+)?(?:(?:per|on each|of each|in each|from each)\s+"
    r"(?:node|machine|server|host|box)(?![A-Za-z])|(?:on|of|in|from) each(?![A-Za-z])(?!\s+[A-Za-z]))|"  # s13 'only 4 GPUs from each'
    r"每台(?:机器|节点|服务器)?\s*(?:都)?\s*(?:只|仅)\s*(?:用了?|使用了?|跑了?)\s*(?P<n2>\d{1,2}|[一两二三四五六七八])\s*(?:张|块)|"
    # counts-zh-s13 '每台机器 8 张卡，我们只用了其中 4 张': some of each machine's GPUs (each machine said before it)
    r"(?:只|仅)\s*(?:用了?|使用了?|跑了?|启用了?)\s*其中(?:的)?\s*(?P<n3>\d{1,2}|[一两二三四五六七八])\s*(?:张|块)",
    re.IGNORECASE)
# s11 n of them: machines counted as so many of those named ('Two of these machines', 'NC24ads A100 v4 VMs, 2 of them')
_SOME_OF_THE_MACHINES = re.compile(
    r"(?<![\w.])(?P<n>two|three|four|five|six|eight|\d{1,2})\s+of\s+(?:these|those|the|our|such)\s+(?:\w+\s+)?"
    r"(?:machines|nodes|servers|boxes|VMs|instances|hosts)(?![A-Za-z])|"
    # s12 an aside between: 'p3.8xlarge instances (10 Gbps networking) — 4 of them —'
    r"(?<![A-Za-z])(?:machines|nodes|servers|boxes|VMs|instances|hosts)(?:\s*[(（][^()（）\n]{0,40}[)）])?\s*[,，—–-]*"
    r"\s*(?P<n2>two|three|four|five|six|eight|\d{1,2})\s+of\s+them(?![A-Za-z])", re.IGNORECASE)
# s11 NIC devices: the tools and words of RDMA NICs, whose 'devices' are no GPUs
_NIC_TOOLS = re.compile(r"ibv_\w+|ibstat|ibdev2netdev|show_gids|fi_info|(?<![A-Za-z])(?:HCAs?|mlx\d\w*|RDMA|InfiniBand|IB|"
                        r"RoCE|EFA|NICs?|ib_\w+)(?![A-Za-z])|网卡", re.IGNORECASE)


def _clause_of(text: str, m: re.Match[str]) -> tuple[int, int]:
    return tx.clause_bounds(text, m.start())[0], tx.clause_bounds(text, max(m.start(), m.end() - 1))[1]


# A pasted block is blanked to spaces of the same length: a count and a noun on either side of one
# ('print_batch_step=3', a log line, then '显卡使用情况…') are no phrase of the asker's.
_ACROSS_A_PASTE = re.compile(r"[ ]{12,}")


# counts-zh-s13 list item: a count after others and a list's mark ('8、8、4 张卡', '8/8/4 卡', '8,8,4 GPUs'); a rising
# series ('用 2、4、8 张卡分别训练') is runs of growing size, its last the largest run, and stays read
_LIST_ITEM = re.compile(r"(?<![\d.])(?:\d{1,3}\s*(?:、|/|,(?!\s))\s*){1,8}\Z")


def _one_of_a_list(text: str, m: re.Match[str]) -> bool:
    said = _LIST_ITEM.search(text, max(0, m.start() - 40), m.start())
    if not said:
        return False
    lead = re.match(COUNT, m.group(0))
    items = [int(x) for x in re.findall(r"\d{1,3}", said.group(0))] + [(_count(lead.group(0)) or 0) if lead else 0]
    return not all(a < b for a, b in zip(items, items[1:], strict=False))


# 'one' before a modal or a verb of its own is the pronoun ('one should launch more servers', 'one can run 8 workers')
_ONE_THE_PRONOUN = re.compile(r"one\s+(?:should|must|can|could|would|may|might|needs?\s+to|has\s+to|had\s+to|will|shall|"
                              r"usually|typically|often|normally)(?![A-Za-z])", re.IGNORECASE)


# 'the new one has H100s', 'which one has 8 GPUs', 'one has V100s, the other A100s': 'one' stands for a thing named
# before (a cluster, a machine, a run), no count of GPUs
_ONE_OF_THEM = re.compile(r"one(?![A-Za-z])", re.IGNORECASE)
_ONE_NAMED_BEFORE = re.compile(r"(?<![A-Za-z])(?:the|this|that|which|each|every|any|no|other|another|new|old|older|newer|"
                               r"first|second|third|last|slow|fast|slower|faster|bad|good|broken|same|big|small|bigger|"
                               r"smaller)\s+\Z", re.IGNORECASE)
_THE_OTHER = re.compile(r"[^.;!?\n]{0,60}?(?:,|;|and|but|while|whereas)\s+the\s+other(?![A-Za-z])", re.IGNORECASE)


def read_counts(text: str, unmasked: str | None = None) -> list[Understood]:
    """job.nodes and job.gpus_per_node hits from the masked prose (weak where the count is one).

    `unmasked` (the same text before GPU names were masked, same length) lets '2x H100 DGX boxes' be read as two
    DGX machines rather than two GPUs per machine."""
    # 'it breaks on 2+ nodes', '3+ 台机器': at least that many, read as that many (same length: spans stay)
    text = _AT_LEAST.sub(lambda m: m["n"] + " ", text)
    # s29 a range of GPUs ('usually 2-3 GPUs are at 100 %', '2~3 张卡', '2 to 3 GPUs') is some of them, no count of
    # the job's: left unread (blanked, same length); 'from 8 to 16 GPUs' is a move, read as such
    text = _RANGE_OF_GPUS.sub(lambda m: " " * len(m.group(0)), text)
    hits: list[Understood] = []
    text, hits, seconds = _choice_of_machines(text)
    named = _named_machines(text)
    taken: list[tuple[int, int]] = []  # kept sorted and disjoint: a lookup is a bisection, not a scan

    def free(m: re.Match[str], group: int | str = 0) -> bool:
        start, end = m.start(group), m.end(group)
        i = bisect_left(taken, (start, -1))
        before = taken[i - 1] if i else None
        after = taken[i] if i < len(taken) else None
        return (before is None or before[1] <= start) and (after is None or end <= after[0])

    machine_only: list[Understood] = []  # '8-GPU VMs': a machine's GPUs without a machine count
    full = False  # '4 nodes with 4 GPUs each': both counts in one shape
    single: list[Understood] = []  # '单机 8 卡', 'one node with 4x 1080 Ti'
    loose: list[tuple[Understood, Understood, str]] = []  # '2 nodes with 8 GPUs': per node, or in all?
    shaped = False  # '2 nodes with 1 RTX 2080 each': machines and their GPUs, both said, more than one machine
    for shape, pattern in _SHAPES:
        if shape in _NEEDS and not _NEEDS[shape].search(text):
            continue  # a rare shape is only looked for where its key word is (the grammar's cost stays per shape)
        for m in pattern.finditer(text):
            if not free(m) or _ACROSS_A_PASTE.search(m.group(0)):
                continue
            got = _shape(shape, m, text, unmasked)
            if got is None:
                continue
            if re.search(r"devices?", m.group(0), re.IGNORECASE) and _NIC_TOOLS.search(text, *_clause_of(text, m)):
                continue  # s11 NIC devices: 'ibv_devices lists 4 devices' counts RDMA devices, not GPUs
            if shape in {"gpus", "nodes", "per-node3", "zh"} and _one_of_a_list(text, m):
                continue  # counts-zh-s13 '每台分别有 8、8、4 张卡': the last of a list of counts, no count of all
            if _ONE_THE_PRONOUN.match(m.group(0)) or _ONE_OF_THEM.match(m.group(0)) and (
                    _ONE_NAMED_BEFORE.search(text, max(0, m.start() - 16), m.start()) or _THE_OTHER.search(text, m.end())):
                continue  # net-s12b: 'so one should launch more server instances': 'one' is anyone, no count
            insort(taken, (m.start(), m.end()))
            hits.extend(got)
            if shape in _FULL_SHAPES and len(got) == 2 and not any(h.weak for h in got):
                full = True
            elif shape.startswith("per-node") or shape in {"accel", "mark-times", "mark-times-node", "one-node-of"}:
                machine_only.extend(got)
            if shape == "single" or any(h.fact == "job.nodes" and h.value == 1 for h in got):
                single.extend(h for h in got if h.fact == "job.gpus_per_node")
            elif any(h.fact == "job.nodes" and h.value > 1 and not h.weak for h in got) and any(
                    h.fact == "job.gpus_per_node" and not h.weak for h in got):
                shaped = True
            # (counts-zh-s13 '双节点 8 卡（每个节点 4 卡）': the Chinese shape is loose the same way, when not said each)
            if shape in {"en", "zh"} and got[0].value > 1 and not m.groupdict().get("each") \
                    and not (m.groupdict().get("each0") or "").startswith("each"):
                loose.append((got[0], got[1], shape))
    # '2 machines with 8 GPUs (each machine has 4 GPUs)': a machine's share said on its own divides the loose count too
    alone = {x.value for x in single} | {x.value for x in machine_only if x.fact == "job.gpus_per_node" and not x.weak}
    where = {id(h): i for i, h in enumerate(hits)}  # by identity, so each look-up is constant time
    each_alone = {x.value for x in machine_only if x.fact == "job.gpus_per_node" and not x.weak}
    for nodes, per, said in loose:
        # '2 nodes with 8 GPUs is slower than one node with 4x 1080 Ti': eight in all, four a machine
        # (counts-zh-s13: '双节点 8 卡（每个节点 4 卡）' by each machine's share only; '两台 8 卡，一台 4 卡' is two kinds)
        if nodes.value > 1 and per.value % nodes.value == 0 and per.value // nodes.value in (
                each_alone if said == "zh" else alone):
            hits[where[id(per)]] = Understood(per.fact, per.value // nodes.value, per.text, per.start, per.end)
    for group in (h for h in named if h.source == "one-by-one"):
        # counts-zh-s13 '一台机器上 8 张卡、另一台 4 张卡': machines of different sizes have no one count of GPUs each
        each = [h for h in hits if h.fact == "job.gpus_per_node" and group.start <= h.start and h.end <= group.end]
        if len({h.value for h in each}) > 1:
            hits = [h for h in hits if h not in each]
    within = [(h.start, h.end) for h in named if h.source == "master-workers"]
    if within:  # counts-zh-s13: the workers counted inside 'a master node and 3 worker nodes' are a part, not the job's
        hits = [h for h in hits if h.fact != "job.nodes" or not any(a <= h.start and h.end <= b for a, b in within)]
    hits.extend(named)
    for m in _GPUS_NAMED.finditer(text):  # '只用每台的 GPU0', 'we only use GPU0 and GPU1': the GPUs the job runs on
        # (never 'it only uses GPU0', 'NCCL 只用了 GPU0': a symptom, not a choice)
        hits.append(Understood("job.gpus_per_node", len(set(re.findall(r"\d+", m["gpus"]))), text[m.start():m.end()],
                               m.start(), m.end(), source="named"))
    hits.extend(_gpus_listed(text))
    hits.extend(_hosts_listed(unmasked or text))  # s14 'Hosts: 10.0.0.1, 10.0.0.2', 'nodes: gpu01, gpu02'
    hits.extend(_hostfile_entries(unmasked or text))  # counts-s11 hostfile (s13 by the unmasked words: an address is masked)
    for count, a, b in elided_node_counts(text):  # s13 elided: 'works on 1 node, slow on 2': the noun left out
        hits.append(Understood("job.nodes", count, text[a:b], a, b))
    for m in _USED_PER_NODE.finditer(text):  # s11 used per node: 'using only 4 GPUs per node', '每台只用了 4 张'
        if m["n3"] and not re.search(r"每台|每个节点|每节点|每机|每个机器|单机|单台", text[tx.sentence_bounds(text, m.start())[0]:m.start()]):
            continue  # counts-zh-s13 ('一共 16 张卡，只用了其中 4 张': some of all the GPUs, not of each machine's)
        n = parse_number(m["n"] or m["n2"] or m["n3"])
        if n and n == int(n) and 1 <= n <= 16:  # (a shape may have read the same words: this reading comes last)
            hits.append(Understood("job.gpus_per_node", int(n), m.group(0), m.start(), m.end()))
    for m in _SOME_OF_THE_MACHINES.finditer(text):  # s11 n of them: 'two of these machines', 'A100 VMs, 2 of them'
        n = parse_number(m["n"] or m["n2"])
        # (the count itself must be free: the aside between may hold the machines' GPUs, '(8 GPUs each)')
        if n and n == int(n) and 1 < n <= 64 and free(m, 0 if m["n"] else "n2"):
            at = m.start("n") if m["n"] else m.start("n2")
            hits.append(Understood("job.nodes", int(n), text[at:m.end()], at, m.end()))
    hits = _only_some_used(text, hits)  # '8 GPUs show in nvidia-smi but only 4 are used'
    lone = {id(h) for h in single}
    aside = {id(h) for h in machine_only}
    if single and not any(h.fact == "job.nodes" and h.value > 1 for h in hits):
        # one machine is all the question names: '单机 8 卡' is the job, not a baseline
        hits = [Understood(h.fact, h.value, h.text, h.start, h.end, h.source, h.inferred, h.value == 1, h.hypothetical)
                if id(h) in lone else h for h in hits]
    elif single and shaped:
        # '2 nodes with 1 RTX 2080 each … 1 node with 2 GPUs: ~2x': a single machine's GPUs beside a multi-machine run
        # whose shape is said whole are a side run's (its baseline or a check), not the job's
        hits = [Understood(h.fact, h.value, h.text, h.start, h.end, h.source, h.inferred, True, h.hypothetical)
                if id(h) in lone else h for h in hits]
    if full and machine_only:
        # '4 nodes with 4 GPUs each (with 8-GPU VMs it is horrible)': the job's whole shape outranks an aside
        hits = [Understood(h.fact, h.value, h.text, h.start, h.end, h.source, h.inferred, True, h.hypothetical)
                if id(h) in aside else h for h in hits]
    hits = _parts_of_the_machines(text, hits)  # counts-zh-s13 parts
    if unmasked is not None:  # '2 ConnectX-6 cards', '4 BlueField-2 cards': a masked NIC model's cards are NICs
        hits = [h for h in hits if h.fact not in _GPU_COUNTS or not _NIC_MODEL_CARDS.search(unmasked, h.start, h.end)]
    if seconds:  # cnt a choice of machine counts: the second one read is no count of the job's
        hits = [h for h in hits if h.fact != "job.nodes" or not any(h.start <= at < h.end for at in seconds)]
    return _machines_picked(text, _workers_of_a_parameter_server(text, _used_and_installed(text, _spread_totals(
        text, _drop_side_runs(text, _drop_added(text, hits)), unmasked))))


# a count of cards named by a NIC's model: network cards, no GPUs
_NIC_MODEL_CARDS = re.compile(r"(?<![A-Za-z])(?:ConnectX|CX-?\d|BlueField|mlx\d)[-\w]*\s*(?:cards?|卡)", _IC)
_GPU_COUNTS = {"job.gpus_per_node", "gpu.count", "job.total_gpus"}


# some of a machine's GPUs said in use with the noun left out: '8 GPUs show in nvidia-smi but only 4 are used', '…, yet
# only 2 of them are busy', '8 张卡，但只有 4 张在用': the job runs on those, the machine has the others
_ONLY_SOME_USED = re.compile(r"(?:(?<![A-Za-z])(?:but|yet|while|and)\s+|[,，]\s*)only\s+(?P<n>\d{1,2})\s+(?:of them\s+)?"
                             r"(?:are|is|were|get|got)\s+(?:actually\s+)?(?:used|being used|in use|utili[sz]ed|busy|working)"
                             r"(?![A-Za-z])|(?:但|可是|然而)?\s*(?:只有|只|仅)\s*(?P<n2>\d{1,2}|[一两二三四五六七八])\s*(?:张|块)\s*"
                             r"(?:在用|被用到|被使用|在跑|有负载|在工作)", _IC)


def _only_some_used(text: str, hits: list[Understood]) -> list[Understood]:
    for m in _ONLY_SOME_USED.finditer(text):
        n = _count(m["n"] or m["n2"])
        a = tx.sentence_bounds(text, m.start())[0]
        machine = [h for h in hits if h.fact == "job.gpus_per_node" and a <= h.start < m.start() and n and h.value > n]
        if machine:
            h = machine[-1]
            kept = [x for x in hits if x is not h]
            return [*kept, Understood("gpu.count", h.value, h.text, h.start, h.end),
                    Understood("job.gpus_per_node", n, m.group(0), m.start(), m.end())]
    return hits


# counts-zh-s13 parts: '用 8 台机器训练，其中 2 台是 A100，6 台是 V100', '4 个节点里有 1 个特别慢': the machines counted
# after 其中 (or 里/中 有) are some of those counted before, not the job's
_PARTS = re.compile(r"其中|(?:里|中)(?:面)?\s*(?:有|的)")


_PICKED_OF = re.compile(r"(?:用|使用|跑|占|申请|分配|拿|选|挑|启用|调度)(?:了|到)?\s*\Z")


def _parts_of_the_machines(text: str, hits: list[Understood]) -> list[Understood]:
    nodes = [h for h in hits if h.fact == "job.nodes" and not h.weak]
    if len(nodes) < 2:
        return hits
    drop = set()
    for m in _PARTS.finditer(text):
        if _PICKED_OF.search(text, max(0, m.start() - 8), m.start()):
            continue  # ('集群 16 台，这次只用了其中 4 台': those picked are the job's)
        a, b = tx.sentence_bounds(text, m.start())
        whole = [h for h in nodes if a <= h.start and h.end <= m.start()]
        if not whole:
            continue
        most = max(h.value for h in whole)
        drop |= {id(h) for h in nodes if m.end() <= h.start < b and h.value < most}
    return _kinds_of_the_machines(text, [h for h in hits if id(h) not in drop])


def _kinds_of_the_machines(text: str, hits: list[Understood]) -> list[Understood]:
    """counts-zh-s13 kinds: '三台服务器，两台 8 卡，一台 4 卡', '3 台机器，一台 4 张，另外两台各 2 张': machines counted in all,
    then by kind, the kinds' machines adding up to all; the kinds are no machine counts of the job's, and kinds with
    different GPUs have no one count of GPUs each."""
    for whole in [h for h in hits if h.fact == "job.nodes" and not h.weak and h.value > 1]:
        b = tx.sentence_bounds(text, whole.start)[1]
        kinds: dict[tuple[int, int], dict[str, Understood]] = {}
        for h in hits:
            if whole.end <= h.start < b and h.fact in {"job.nodes", "job.gpus_per_node"}:
                kinds.setdefault((h.start, h.end), {})[h.fact] = h
        pairs = [k for k in kinds.values() if len(k) == 2]
        if len(pairs) < 2 or sum(k["job.nodes"].value for k in pairs) != whole.value:
            continue
        drop = {id(k["job.nodes"]) for k in pairs}
        if len({k["job.gpus_per_node"].value for k in pairs}) > 1:
            drop |= {id(k["job.gpus_per_node"]) for k in pairs}
        return [h for h in hits if id(h) not in drop]
    return hits


# A machine added or taken away ('加了一台机器以后', '每加一台机器', 'added one more node', 'adding another node'): how
# many changed, not how many the job has.
_ADDED = re.compile(r"(?:(?:每|再|多)?(?:加|增加|添加|扩)(?:了|上)?|(?:减|去掉|拿掉|少)(?:了)?)\s*$|"
                    r"(?<![A-Za-z])(?:add(?:ed|ing)?|remov(?:ed|ing)|drop(?:ped|ping)?)\s+(?:just\s+)?$", _IC)
_ADDED_AFTER = re.compile(r"\s*(?:more|extra|additional)(?![A-Za-z])", _IC)


# job-s12b one machine given a role of the job ('一台做 scheduler', 'one is the server', '一台是 master'): a part of the job's
# machines, not a one-machine run beside it
_ROLE_OF_ONE = re.compile(r"\s*(?:机器|服务器|节点)?\s*(?:做|是|当|作为|用作|跑|(?<![A-Za-z])(?:is|as|acts as|runs)(?![A-Za-z]))\s*"
                          r"(?:the\s+|a\s+)?(?:scheduler|(?:parameter\s+|PS\s+)?server|master|chief|ps)(?![A-Za-z])", _IC)


def _drop_added(text: str, hits: list[Understood]) -> list[Understood]:
    return [h for h in hits if not (h.fact == "job.nodes" and h.value == 1 and (
        _ROLE_OF_ONE.match(text, h.end) or _ADDED.search(text, max(0, h.start - 12), h.start)
        or _ADDED_AFTER.match(text, h.start + len(h.text.split()[0]) if h.text.split() else h.end)))]


# the verb that picks the machines a job runs on: '这次只用了 2 台', 'only used 2 nodes', 'this run uses 4 machines'
# (counts-zh-s13 the job named before its machines: '集群 32 台，本次任务 8 台 × 8 卡', '这次训练用 4 台')
_PICKED_NODES = re.compile(r"(?:只用了?|仅用了?|只跑了?|只在|用了|只开了?|(?:本次|这次|此次|当前|我的|我们的)\s*(?:任务|训练|作业|实验)\s*(?:用|使用|跑|申请)?了?|(?<![A-Za-z])(?:only|just)\s+(?:uses?|used|using|ran on|runs? on|"
                           r"running on|on)|(?<![A-Za-z])(?:this|the|my|our) (?:job|run|training) (?:uses|used|runs on|ran on|is on|"
                           r"spans))\s*(?:其中\s*)?(?:的\s*)?$", _IC)


_WORKS_FINE = re.compile(r"[^，,。.;；]{0,12}?(?:能|可以|就能|都能)?\s*(?:正常(?:跑|运行|训练|工作)?|跑得?(?:很)?正常|没(?:有)?问题|"
                         r"一切正常|(?<![A-Za-z])(?:works?|worked|runs?|ran|is|was|it's)\s+(?:just\s+)?(?:fine|ok(?:ay)?|"
                         r"normally|great)(?![A-Za-z]))", re.IGNORECASE)


def _machines_picked(text: str, hits: list[Understood]) -> list[Understood]:
    """'我们有 10 台机器，但是这次只用了 2 台': the machines picked for the job are its machines; a larger count said
    without a picking verb (what there is) becomes weak."""
    nodes = [h for h in hits if h.fact == "job.nodes" and not h.weak and not h.hypothetical]
    picked = [h for h in nodes if _PICKED_NODES.search(text, max(0, h.start - 16), h.start)]
    working = {id(h) for h in picked if _WORKS_FINE.match(text, h.end)}
    if working:
        # job-s12b '只用两台机器能正常跑，多加几个 IP 就容易卡住', 'with only 2 nodes it works fine': a run that works, beside
        # the one that does not, is no pick of the job's machines
        return [Understood(h.fact, h.value, h.text, h.start, h.end, h.source, h.inferred, True, h.hypothetical)
                if id(h) in working else h for h in hits]
    if not picked:
        return hits
    job = max(h.value for h in picked)
    spans = {(h.start, h.end) for h in picked}
    weaker = {id(h) for h in nodes if (h.start, h.end) not in spans and h.value > job}
    return [Understood(h.fact, h.value, h.text, h.start, h.end, h.source, h.inferred, True, h.hypothetical)
            if id(h) in weaker else h for h in hits]


# Machines given a parameter server's worker role ('2 台做 worker', '2 台机器作为 worker', 'two machines as workers',
# '2 worker nodes') beside machines given the server role: the workers are the GPU machines of the job.
_WORKER_ROLE = re.compile(
    rf"(?P<n>{COUNT})\s*(?:台|个)?\s*(?:机器|服务器|节点|主机|nodes?|machines?|servers?|VMs?|boxes|hosts?)?\s*"
    rf"(?:做|作为|当|跑|用作|用来跑|as(?: the)?)\s*(?:GPU\s*)?workers?(?![A-Za-z])"
    rf"|(?P<n2>{COUNT})\s*(?:台|个)?\s*(?:GPU\s*)?worker\s*(?:nodes?|machines?|VMs?|hosts?|servers?|节点|机器|服务器)", _IC)
_SERVER_ROLE = re.compile(r"(?:做|作为|当|跑|用作|as(?: the)?)\s*(?:CPU[- ]?(?:only\s*)?)?(?:parameter\s*)?servers?(?![A-Za-z])|"
                          r"server\s*(?:nodes?|machines?|VMs?|节点|机器)|(?:parameter|PS)\s*servers?|参数服务器", _IC)


def _workers_of_a_parameter_server(text: str, hits: list[Understood]) -> list[Understood]:
    """'用 4 台机器：2 台做 worker、2 台做 server': the job runs on the two workers; the machines in all (more than the
    workers) are a weak count."""
    workers = None
    for m in _WORKER_ROLE.finditer(text):
        n = _count(m["n"] or m["n2"])
        a, b = tx.sentence_bounds(text, m.start())
        if n and _SERVER_ROLE.search(text, max(a, m.start() - 120), min(b, m.end() + 120)):
            workers = (n, m)
            break
    if workers is None:
        return hits
    n, m = workers
    out = [Understood(h.fact, h.value, h.text, h.start, h.end, h.source, h.inferred, True, h.hypothetical)
           if h.fact == "job.nodes" and h.value > n else h for h in hits]
    return out + [Understood("job.nodes", n, m.group(0), m.start(), m.end())]


# '为了对比又只用 1 张卡跑', '只用一半的 rank，在 Server1 和 Server3 之间跑 16 卡 ring', 'for comparison I also ran on a
# single GPU', '另外单独设 NCCL_IB_HCA=mlx5_0 只用一张卡时': a run set beside the job; its counts are not the job's
_SIDE_RUN = re.compile(r"为了?(?:对比|比较|对照)|作为(?:对比|对照|参照|基线)|做(?:个|一下)?(?:对比|对照)|单独(?:设|用|跑|测|开)|"
                       r"只(?:用|跑|开)了?一半|(?:用|跑|开)一半的|"
                       r"(?<![A-Za-z])(?:(?:with|using|on|ran|run|running) (?:only )?half (?:the|of the|as many)|for comparison|"
                       r"as a (?:baseline|comparison)|by comparison|in comparison)(?![A-Za-z])", _IC)


_GPUS_NAMED = re.compile(
    r"(?:(?:只|仅)(?:用|使用|跑)(?!了)|(?<![A-Za-z])(?:(?:I|we) (?:only|just) (?:use|used|ran on|run on)|using only|"
    r"(?:by )?only using|on purpose on))\s*"
    r"(?:每台(?:机器|服务器)?(?:上)?的?\s*|各台的?\s*|each (?:node|machine|server)'s\s+|(?:the\s+)?)"
    r"(?P<gpus>GPU\s?\d{1,2}(?:\s{0,2}(?:和|、|,|/|and|与)\s{0,2}(?:GPU\s?)?\d{1,2}){0,7})(?!\d|\.\d)", _IC)


# The GPUs listed one by one, as PyTorch's collect_env and `nvidia-smi -L` print them: 'GPU 0: NVIDIA A100-SXM4-80GB
# GPU 1: NVIDIA A100-SXM4-80GB …', '[GPU 0] H100 …'. Indices from 0 with none missing count a machine's GPUs.
_GPU_ITEM = re.compile(rf"(?<![A-Za-z])(?:GPU|gpu|cuda:?)\s?\[?(?P<i>\d{{1,2}})\]?\s*[:：\]]\s*(?:[A-Za-z]+\s+){{0,2}}?{_MARK}")


def _gpus_listed(text: str) -> list[Understood]:
    """job.gpus_per_node for a machine's GPUs listed by index (weak: the GPUs a machine has, which a job may not all use)."""
    out: list[Understood] = []
    run: list[re.Match[str]] = []
    for m in [*_GPU_ITEM.finditer(text), None]:
        if m is not None and (not run or m.start() - run[-1].end() <= 160):
            run.append(m)
            continue
        indices = sorted({int(x["i"]) for x in run})
        if len(indices) >= 2 and indices == list(range(len(indices))):
            a, b = run[0].start(), run[-1].end()
            out.append(Understood("job.gpus_per_node", len(indices), text[a:b][:80], a, b, weak=True, source="listed"))
        run = [m] if m is not None else []
    return out


# counts-s11 hostfile: a hostfile's entries quoted in a sentence or pasted without a fence ('node1 slots=8 and node2
# slots=8'): one machine each, holding its slots' GPUs when all agree
# (s13 a host by its address: '10.0.0.1 slots=4')
_HOST_SLOTS = re.compile(r"(?<![\w.\-])(?P<host>[A-Za-z][\w.\-]{0,40}|\d{1,3}(?:\.\d{1,3}){3})\s+(?:max_)?slots\s*=\s*"
                         r"(?P<slots>\d{1,3})(?![\w.])")


# s13 elided: a bare count set against a count of machines said just before it in its sentence ('works on 1 node, slow
# on 2', 'one machine is fine, two are slow', 'with 2 nodes it is fine, with 4 it hangs'): so many machines, the noun
# left out. The count must end its phrase (no noun, unit or figure after it) and be more than the one before (the
# larger run is the job's).
_ELIDED_AFTER = re.compile(
    rf"(?:,|;|\s(?:but|while|whereas|yet|and|vs\.?|versus))\s+(?:(?:but|and|then|it(?:'s| is| gets| was)?|is|gets|"
    rf"goes|runs?|ran|works?|slow(?:er|s)?|fast(?:er)?|much|very|really|way|terribly|painfully|hangs?|fails?|"
    rf"crawls?|drops?|degrades?|only|just)\s+){{0,3}}?(?:(?P<prep>on|with|across|using|over|for|at)\s+)?"
    rf"(?P<n>{COUNT})"
    rf"(?=\s*(?:[,.;:!?)\n]|$)|\s+(?:is|are|was|were|gets?|got|takes?|took|runs?|ran|gives?|gave|hangs?|fails?|"
    rf"crawls?|becomes?|it|they|the|we|I)(?![A-Za-z]))", _IC)
_NODE_COUNT_SAID = re.compile(rf"(?P<n>{COUNT})\s*(?:-|\s)?(?:nodes?|machines?|servers?|boxes|box|hosts?|instances?|VMs?)"
                              rf"(?![A-Za-z])", _IC)


# cnt elided pick: fewer machines picked of those said before, the noun left out ('We have 8 nodes but only use 2 for
# this job', 'we have 10 machines but the job only uses 4'): the job's machines (the verb of picking makes the larger
# count what there is, _machines_picked)
_ELIDED_PICK = re.compile(
    rf"(?<![A-Za-z])(?:only|just)\s+(?:uses?|used|using|runs?\s+on|ran\s+on|running\s+on|trains?\s+on|trained\s+on)\s+"
    rf"(?P<n>{COUNT})(?=\s*(?:[,.;:!?)\n]|$)|\s+(?:for|in|at|to|right now|now|today|because|since|and|but)(?![A-Za-z]))", _IC)


_GPU_COUNT_SAID = re.compile(rf"(?:{COUNT})\s*(?:[x×*]\s*)?(?:张|块)?\s*(?:GPUs?|cards?|卡|{GPU_MARK}+)", _IC)


def elided_node_counts(text: str) -> list[tuple[int, int, int]]:
    """(count, start, end) of the machine counts said without their noun after a count of machines."""
    out: list[tuple[int, int, int]] = []
    for m in _ELIDED_PICK.finditer(text):  # cnt elided pick
        n = _count(m["n"])
        a = max(tx.sentence_bounds(text, m.start())[0], m.start() - 80)
        said = list(_NODE_COUNT_SAID.finditer(text, a, m.start()))
        before = _count(said[-1]["n"]) if said else None
        if n and before and n < before:
            out.append((n, m.start("n"), m.end("n")))
    for m in _ELIDED_AFTER.finditer(text):
        n = _count(m["n"])
        if not n or n > 512 or (not m["prep"] and not re.match(r"\s+(?:is|are|was|were|gets?|got|takes?|took|runs?|ran|"
                                                                r"gives?|gave|hangs?|fails?|crawls?|becomes?)", text[m.end():],
                                                                _IC)):
            continue  # a bare subject must have its verb: 'two are slow', never 'and 2, ...'
        a = max(tx.sentence_bounds(text, m.start())[0], m.start() - 80)
        said = list(_NODE_COUNT_SAID.finditer(text, a, m.start()))
        before = _count(said[-1]["n"]) if said else None
        if said and _GPU_COUNT_SAID.search(text, said[-1].end(), m.start()):
            continue  # '2 nodes with 8 GPUs each, only 8 are used': the noun left out is the GPUs said last
        if not before or before >= n:
            continue  # (a smaller run said after, 'slow on 4 nodes, fine with 2', is a baseline: left to the comparisons)
        out.append((n, m.start("n"), m.end("n")))
    return out


_HOST = r"(?:\d{1,3}(?:\.\d{1,3}){3}|[A-Za-z][\w-]*\d[\w-]*)"
_HOSTS_LISTED = re.compile(rf"(?<![\w-])(?:nodes|hosts|machines|servers|节点|机器|主机|服务器)(?:\s*(?:list|列表))?\s*[:：=]\s*"
                           rf"(?P<list>{_HOST}(?:\s*[,，、]\s*{_HOST})+)(?![\w.])", _IC)


def _hosts_listed(text: str) -> list[Understood]:
    """s14 the machines named one by one under a label ('Hosts: 10.0.0.1, 10.0.0.2', 'nodes: gpu01, gpu02'): as many
    machines as names (the same name twice is one machine)."""
    out = []
    for m in _HOSTS_LISTED.finditer(text):
        names = {x.strip() for x in re.split(r"[,，、]", m["list"])}
        if 1 < len(names) <= 64:
            out.append(Understood("job.nodes", len(names), text[m.start():m.end()], m.start(), m.end()))
    return out


def _hostfile_entries(text: str) -> list[Understood]:
    entries = list(_HOST_SLOTS.finditer(text))
    hosts = {m["host"] for m in entries}
    if len(hosts) < 2:
        return []
    a, b = entries[0].start(), entries[-1].end()
    out = [Understood("job.nodes", len(hosts), text[a:b][:80], a, b, source="hostfile")]
    slots = {int(m["slots"]) for m in entries}
    if len(slots) == 1 and 1 <= min(slots) <= 16:
        out.append(Understood("job.gpus_per_node", min(slots), text[a:b][:80], a, b, source="hostfile"))
    return out


def _drop_side_runs(text: str, hits: list[Understood]) -> list[Understood]:
    """Counts said inside a side run (from its clause to the end of its sentence) are not the job's."""
    merged: list[list[int]] = []  # spans in order of their start, overlapping ones joined: a lookup is a bisection
    for m in _SIDE_RUN.finditer(text):
        a, b = tx.clause_bounds(text, m.start())[0], tx.sentence_bounds(text, m.start())[1]
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    if not merged:
        return hits
    starts = [a for a, _ in merged]

    def inside(pos: int) -> bool:
        i = bisect_left(starts, pos + 1) - 1
        return i >= 0 and merged[i][0] <= pos < merged[i][1]

    return [h for h in hits if h.fact not in {"job.nodes", "job.gpus_per_node"} or not inside(h.start)]


# Machines counted by naming them: 'clusterA: m0, m1, m2', 'node1, node2 and node3', 'gpu01-gpu04', 'node1-4',
# 'Server1-Server2-Server3-Server4', 'Server 1、2 … Server 3、4' (one stem, its indices gathered over the question).
_SEP = r"\s{0,2}(?:,|、|，|-|~(?!\s+\d)|/|&|and|or|和|与|及|以及|到|至|to|through)\s{0,2}"  # en-s10: '~ 23' is about 23
# ('node1 and node2, 8 GPUs per node': a count of something after the names is no further name)
_NOT_A_COUNT = r"(?!\s*(?:GPUs?|cards?|卡|张|块|nodes?|machines?|servers?|台|个|[x×*]|G\b|GB|TB|%|Gb|Gbps))"
_HOST_LIST = re.compile(
    rf"(?<![\w.:/=-])(?P<stem>[A-Za-z](?:[A-Za-z_-]{{0,15}}[A-Za-z])?)(?P<gap>[-_ ]?)(?P<first>\d{{1,3}})(?![\w.%])"
    rf"(?P<rest>(?:{_SEP}(?:(?P=stem)[-_ ]?)?\d{{1,3}}(?![\w.%]){_NOT_A_COUNT}){{1,16}})", _IC)
_HOST_ITEM = re.compile(rf"(?P<sep>{_SEP})(?P<stem>[A-Za-z][A-Za-z_-]*[-_ ]?)?(?P<i>\d{{1,3}}){_NOT_A_COUNT}", _IC)
# stems that name machines themselves; any other stem needs three names and a word for machines in its sentence
_MACHINE_STEM = re.compile(r"(?:node|server|srv|host|machine|worker|box|vm|instance|compute|cn|gn|dgx|hgx)[a-z]*", _IC)
# en-s10: a tool's name ('iperf3 ~ 23 Gbps') is no machine's stem
_NOT_MACHINE = re.compile(r"(?:iperf|gpu|cuda|card|dev|device|rank|nic|hca|mlx|eth|en[sop]\w*|ib|bond|port|rail|channel|tp|pp|dp|ep|sp|"
                          r"zero|stage|step|epoch|iter|test|case|run|v|ver|version|gen|x|sm|fp|bf|int|nv|nvlink|numa|cpu|"
                          r"socket|core|phase|layer|fig|table|cx|lane|link|pcie|gid|qp|mtu|ring|tree|p|q|t|round|trial|"
                          r"exp|experiment|item|line|option|method|way|case|scenario|group|level)", _IC)
_MACHINE_WORD = re.compile(r"machines?|nodes?|servers?|hosts?|clusters?|boxes|instances|集群|机器|服务器|节点|主机|--host|-H\b|"
                           r"hostfile|台", _IC)
_CLUSTER_LABEL = re.compile(r"(?:cluster|集群|group|组|pod)[\w-]{0,8}\s*[:：]\s*$", _IC)
# '一台在 Google Cloud、一台在 AWS', 'one box on GCP and one on AWS': machines counted one by one
# … and by what each holds ('一台 8 卡 H100，另外一台 8 卡 A100'; one of them must be 'another': '一台 8 卡 … 一台 8 卡' may be
# one machine said twice)
_ONE_BY_ONE_ZH = re.compile(rf"(?P<other>另|另外|还有|再|(?<=[和与跟])|(?<=[和与跟]\s))?(?:一|(?<![\u4e00-\u9fff])这)(?:台|个节点|个机器)(?:机器|服务器|节点|主机|实例)?\s*(?:上)?\s*[:：]?\s*(?:也|都)?\s*"
                            rf"(?:在|放在|位于|部署在|跑在|是|"  # counts-s11: '另一台也是 8 张 4090'
                            rf"(?P<gpus>(?:有|装|配|装了|配了|插了|是)?\s*{COUNT}\s*(?:张|块)?\s*(?:卡|GPU|显卡|{GPU_MARK})))", _IC)
_ONE_BY_ONE_EN = re.compile(
    r"(?<![A-Za-z])(?:one|a)\s+(?:box|node|machine|server|host|instance|VM)\s+(?:is\s+|sits\s+|running\s+|runs\s+)?"
    r"(?:on|in|at)\s+[^,.;!?\n]{1,40}?(?:,\s*|\s+)(?:and\s+)?(?:another|one|the other|a second)"
    r"(?:\s+(?:one|box|node|machine|server|host|instance|VM))?\s+(?:is\s+|sits\s+|running\s+|runs\s+)?(?:on|in|at)\s"
    # 'one node has 8 H100s and another has 8 A100s', 'one machine with 4 GPUs, the other with 2'
    rf"|(?<![A-Za-z])(?:one|a)\s+(?:box|node|machine|server|host|instance|VM)\s+(?:has|with|having|holds)\s+{COUNT}\s"
    r"[^,.;!?\n]{0,30}?(?:,\s*|\s+)(?:and\s+|while\s+|but\s+)?(?:another|the other|a second)"
    rf"(?:\s+(?:one|box|node|machine|server|host|instance|VM))?\s+(?:has|with|having|holds)\s+{COUNT}(?![\d.]*\d)", _IC)


_LETTERED = re.compile(r"(?:(?<![A-Za-z])(?:machines?|nodes?|servers?|hosts?|boxes)|机器|节点|服务器|主机)\s*"
                       r"(?P<names>(?-i:[A-Z])(?:\s*(?:,|、|，|/)\s*(?:(?:machine|node|server|host)\s+)?(?-i:[A-Z]))*"
                       r"\s*(?:,?\s*(?:and|&)\s+|和|与|及|、|/)\s*(?:(?:machine|node|server|host)\s+)?(?-i:[A-Z]))"
                       r"(?![A-Za-z0-9])", _IC)
_MASTER_AND_WORKERS = re.compile(rf"(?P<m>{COUNT})\s*(?:个)?\s*(?:master(?:s)?|主)\s*(?:节点|node)?\s*(?:\+|,|，|、|and|和|加|plus|(?<=主)\s)\s*"
                                 rf"(?P<w>{COUNT})\s*(?:个)?\s*(?:workers?|从)(?![A-Za-z])\s*(?:节点|nodes?)?"
                                 # counts-zh-s13 '主节点和从节点各 8 张', '主节点 + 从节点': one of each, uncounted, their
                                 # GPUs said each (weak: a count said outright wins)
                                 r"|(?P<pair>(?:主节点|master\s*节点|master\s*node)\s*(?:\+|、|和|与|跟|及|以及|加|and|/)\s*"
                                 r"(?:从节点|worker\s*节点|worker\s*node|slave\s*节点|slave\s*node))(?=\s*(?:上)?\s*(?:各|都|分别|每台|每个))", _IC)


def _indices(m: re.Match[str]) -> list[int] | None:
    """The indices a host list names, a range ('gpu01-gpu04', 'node1-4', 'node1~node8') spelled out."""
    items = [("", True, m["first"])] + [(x["sep"].strip().lower(), bool(x["stem"]), x["i"])
                                        for x in _HOST_ITEM.finditer(m["rest"])]
    out = [int(m["first"])]
    for (sep, named, i), (_, _, prev) in zip(items[1:], items[:-1], strict=True):
        # 'node1-4', 'gpu01-gpu04', 'node0-node3': a range; 'Server1-Server2-Server3' a list joined by dashes
        if sep in {"~", "到", "至", "to", "through"} or sep == "-" and (not named or len(items) == 2):
            if not int(prev) < int(i) <= int(prev) + 64:
                return None
            out.extend(range(int(prev) + 1, int(i) + 1))
        else:
            out.append(int(i))
    return out


def _named_machines(text: str) -> list[Understood]:
    """job.nodes hits for machines named one by one (weak: a named count yields to one said outright)."""
    lists: dict[str, list[tuple[re.Match[str], list[int], bool]]] = {}
    for m in _HOST_LIST.finditer(text):
        stem = m["stem"].lower()
        machine = bool(_MACHINE_STEM.fullmatch(stem))
        padded_gpu = stem == "gpu" and len(m["first"]) > 1 and m["first"].startswith("0") and not m["gap"]  # 'gpu01-gpu04': host names
        if not machine and (_NOT_MACHINE.fullmatch(stem) and not padded_gpu or m["gap"] == " "):
            continue
        idx = _indices(m)
        if idx is None or len(set(idx)) < 2 or max(idx) - min(idx) + 1 > len(set(idx)) and min(idx) > 1:
            # 'node 3 and node 7 are slow': two of the machines, not how many there are
            continue
        a, b = tx.sentence_bounds(text, m.start())
        a, b = max(a, m.start() - 120), min(b, m.end() + 120)  # a window, so a long sentence costs linear time
        if not machine and (len(set(idx)) < 3 or not _MACHINE_WORD.search(text, a, b)):
            continue
        labelled = bool(_CLUSTER_LABEL.search(text[max(0, m.start() - 20):m.start()]))
        lists.setdefault(stem, []).append((m, idx, labelled))
    hits: list[Understood] = []
    for found in lists.values():
        if any(labelled for _, _, labelled in found):
            n = max(len(set(idx)) for _, idx, _ in found)  # 'clusterA: m0, m1, m2; clusterB: m3, m4, m5': one cluster
        else:
            n = len({i for _, idx, _ in found for i in idx})
        hits.extend(_hit("job.nodes", n, text, m.start(), m.end(), weak=True) for m, _, _ in found)
    for m in _LETTERED.finditer(text):  # s12 'machines A and B', '节点 A、B、C': machines named by a letter each
        letters = set(re.findall(r"(?<![A-Za-z])[A-Z](?![A-Za-z])", m["names"]))
        if len(letters) >= 2:
            hits.append(_hit("job.nodes", len(letters), text, m.start(), m.end(), weak=True))
    hits.extend(_numbered_zh(text))  # counts-zh-s13 numbered: '节点1 8 卡，节点2 8 卡'
    for m in _MASTER_AND_WORKERS.finditer(text):  # s12 'a PyTorchJob with 1 master and 3 workers': its pods, a machine each
        if m["pair"]:
            hits.append(_hit("job.nodes", 2, text, m.start(), m.end(), weak=True))
            continue
        masters, workers = _count(m["m"]), _count(m["w"])
        if masters and workers and masters <= 2 and 1 <= workers <= 256:
            # (counts-zh-s13: '一个 master 节点加 3 个 worker 节点': machines said, the workers' count no total of its own)
            said = bool(re.search(r"节点|nodes?(?![A-Za-z])", m.group(0), _IC))
            hits.append(Understood("job.nodes", masters + workers, m.group(0), m.start(), m.end(), weak=not said,
                                   source="master-workers" if said else "words"))
    for group in _one_by_one(text):
        a, b = group[0][0], group[-1][1]
        hits.append(Understood("job.nodes", len(group), text[a:b], a, b, source="one-by-one"))
    for m in _ONE_BY_ONE_EN.finditer(text):
        hits.append(_hit("job.nodes", 2, text, m.start(), m.end()))
    return hits


# counts-zh-s13 numbered: machines named by a Chinese word and an index, one by one over the question ('节点1 8 卡，节点2
# 8 卡', '机器 1 和机器 2', '服务器1、服务器2、服务器3'); an index never a count ('节点 2 台', '节点数 2', '第 2 台') nor an
# ordinal picked out of more ('节点 3 和节点 7 很慢' leaves gaps: two of the machines, not how many)
_NUMBERED_ZH = re.compile(r"(?<![第每单各\w])(?P<w>节点|机器|服务器|主机)\s?(?P<i>\d{1,2})(?![\d.])"
                          r"(?!\s*(?:台|个|张|块|卡|G|%|号|倍|秒|小时|分钟|次|以上|以下|上的第))"
                          # 'node1 节点 … node2 节点', 'node1 上 8 卡，node2 上 8 卡' (glued: 'node 3' may be a count)
                          r"|(?<![\w.-])(?P<we>node|server|host|worker)(?P<ie>\d{1,2})(?![\w.-])(?=\s*(?:节点|机器|服务器|主机|上|和|、|，|,))"
                          # '机器 A 有 8 张卡，机器 B 有 8 张卡': machines named by a letter one by one
                          r"|(?<![第每单各\w])(?P<wl>节点|机器|服务器|主机)\s?(?P<il>(?-i:[A-H]))(?![A-Za-z0-9])"
                          # '第 1 台机器 8 卡，第 2 台机器 8 卡', '第一台 … 第二台': machines counted by their ordinals
                          r"|第\s?(?P<io>\d{1,2}|[一二三四五六七八九十])\s?(?P<wo>台|个节点|个机器|个服务器|节点)", _IC)


def _numbered_zh(text: str) -> list[Understood]:
    if not re.search(r"[\u4e00-\u9fff]", text):
        return []
    by_word: dict[str, list[re.Match[str]]] = {}
    for m in _NUMBERED_ZH.finditer(text):
        by_word.setdefault((m["w"] or m["we"] or (m["wl"] + "·" if m["wl"] else "第" + m["wo"][-1])).lower(), []).append(m)
    out: list[Understood] = []
    for found in by_word.values():
        idx = sorted({ord(m["il"]) - ord("A") + 1 if m["il"] else _count(m["io"]) or 0 if m["io"] else int(m["i"] or m["ie"])
                      for m in found})
        if len(idx) >= 2 and idx[0] in (0, 1) and idx == list(range(idx[0], idx[-1] + 1)):
            out.append(_hit("job.nodes", len(idx), text, found[0].start(), found[-1].end(), weak=True))
    return out


def _one_by_one(text: str) -> list[list[tuple[int, int]]]:
    """Sentences that count two or more machines one by one ('一台在 GCP、一台在 AWS'), with where each is said."""
    by_sentence: dict[int, list[re.Match[str]]] = {}
    for m in _ONE_BY_ONE_ZH.finditer(text):
        # (counts-zh-s13 '一台：双卡 3090；另一台：双卡 3090': a semicolon parts the machines listed, not the sentence)
        stop = max(text.rfind(c, 0, m.start()) for c in "。！？!?\n")
        by_sentence.setdefault(stop, []).append(m)
    # (counts-zh-s13 '一台 8 卡 3090 和一台 8 卡 3090': joined by 和, two; '一台8卡一台4卡': machines of two sizes are two)
    return [[(m.start(), m.end()) for m in v] for v in by_sentence.values()
            if len(v) >= 2 and any(not m["gpus"] or m["other"] is not None for m in v)
            or len(v) >= 2 and len({_gpus_said(m["gpus"]) for m in v}) > 1]


def _gpus_said(words: str | None) -> int | None:
    said = re.search(COUNT, words or "")
    return _count(said.group(0)) if said else None


# the verb that picks the GPUs a job runs on: '各用 1 张', '只开了 4 张卡', '仅启用 2 张', 'only enabled 4 GPUs'
_PICKED = re.compile(r"(?:各用|只用|仅用|用了?|使用了?|(?:只|仅)?(?:开了?|启用了?|打开了?)|uses?|using|used|runs? on|running on|"
                     r"with only|(?:only )?enabled?|(?:only )?enabling)\s*(?:其中\s*)?(?:的\s*)?$", _IC)
_USING = re.compile(r"(?:各用|只用|仅用|用了?|使用了?|跑了?|起了?|uses?|using|used|runs? on|running on|with only)\s*(?:其中\s*)?$"
                    r"|(?:各|每台|每个节点|每机|each|per node)\s*$", _IC)
_RANK_WORD = re.compile(r"ranks?|processes|进程", _IC)


# s22 free cards: the GPUs a machine has free are those the job gets ('每台两块空卡', 'two free GPUs on each')
_FREE_GPUS = re.compile(r"空闲|闲置|空余|可用|没人用|空\s*(?:卡|GPU|gpu|显卡)|(?<![A-Za-z])(?:free|idle|available|unused|spare)(?![A-Za-z])",
                        _IC)
# s22 inventory: a count under a label of the hardware ('环境：H800 8 卡 * 2', 'Hardware: 2 nodes x 8 A100', 'GPU 是
# h800*4') is what the machines have
_INVENTORY = re.compile(r"(?:环境|硬件|配置|设备|机器配置|硬件配置|硬件环境|服务器配置)\s*(?:信息)?\s*[:：]|"
                        r"(?<![A-Za-z])(?:environment|hardware|hw|specs?)\s*[:：]|GPU\s*(?:型号)?\s*(?:是|为|[:：])", _IC)


def _in_inventory(text: str, h: Understood) -> bool:
    a = tx.sentence_bounds(text, h.start)[0]
    return bool(_INVENTORY.search(text, max(a, h.start - 40), h.start))


def _shape_beside_inventory(text: str, hits: list[Understood], gpus: list[Understood]) -> list[Understood]:
    """s22 inventory: '想搭双节点单卡的多机训练 … 环境：H800 8 卡 * 2': the same machines counted twice, once as the
    hardware they are (under its label) and once with fewer GPUs in the job's own words, use the fewer."""
    listed = [h for h in gpus if _in_inventory(text, h) and not h.weak]
    said = [h for h in gpus if not h.weak and h not in listed]
    machines = {h.value for h in hits if h.fact == "job.nodes" and not h.weak and not h.hypothetical}
    if not listed or not said or len(machines) != 1 or not max(h.value for h in said) < min(h.value for h in listed):
        return []
    return said


def _used_and_installed(text: str, hits: list[Understood]) -> list[Understood]:
    """'每台机器 6 张 GPU … 各用 1 张跑 nccl-tests', '一共 16 张 A100 … 每台 4 个 rank': the GPUs the job runs on are
    job.gpus_per_node; a larger count of GPUs a machine has is gpu.count."""
    gpus = [h for h in hits if h.fact == "job.gpus_per_node" and not h.hypothetical]
    # '我用了 2 台服务器，每台 8 张卡': a verb before a machine count picks the machines, not their GPUs
    machines = {(h.start, h.end) for h in hits if h.fact == "job.nodes"}
    used = [h for h in gpus if _PICKED.search(text[max(0, h.start - 12):h.start]) and (h.start, h.end) not in machines
            or (h.source == "ranks" and _USING.search(text[max(0, h.start - 8):h.start]))
            or _RANK_WORD.search(h.text) and re.search(r"每台|每个节点|每机|per node|each", text[max(0, h.start - 8):h.end + 10],
                                                       _IC)
            or _FREE_GPUS.search(h.text)] or _shape_beside_inventory(text, hits, gpus)
    if not used:
        return hits
    job = used[-1].value
    picked = {id(h) for h in used}  # by identity: a membership test is then constant time
    installed = [h for h in gpus if id(h) not in picked and h.value > job]
    if not installed:
        return hits
    put = {id(h) for h in installed}
    out = [h for h in hits if id(h) not in put]
    machine = max(installed, key=lambda h: h.value)
    out.append(Understood("gpu.count", machine.value, machine.text, machine.start, machine.end))
    out.extend(Understood(h.fact, h.value, h.text, h.start, h.end, h.source, h.inferred, False, h.hypothetical) for h in used)
    return [h for h in out if not (id(h) in picked and h.weak)]


# counts-s11: the new shapes say both counts
_FULL_SHAPES = {"n-mark-times-nodes", "multi-paren", "gpus-times", "n-m-node-zh", "m-node-x-n", "n-g", "total-paren", "zh", "zh-rev", "en", "en-mark", "nxm", "nxm-paren", "n-m-node",
                "total", "gpus-nodes", "pods"}


# a run over machines: 'we train over 2 nodes', 'NCCL over 2 nodes', 'DDP runs over 4 machines' (the run spans them)
_RUN_OVER = re.compile(r"(?<![A-Za-z])(?:train(?:s|ed|ing)?|runs?|ran|running|NCCL|all[-_ ]?reduce|jobs?|distributed|"
                       r"spread|DDP|FSDP|Horovod|DeepSpeed|sync(?:s|ed|ing)?|communicat\w*|scales?|scaled|scaling|"
                       r"split)"
                       # sweep-s10 run over: what is run named between ('training VGG11 data-parallel over 16 nodes')
                       # s13 the GPUs it runs on between: 'Training on H100 NVL 94GB over 2 nodes'
                       r"(?:\s+(?:on|with|using)\s+[Ｇ·]+)?"
                       r"(?:\s+(?!(?:is|are|was|were|gets?|got|slow\w*|fast\w*|drops?|degrad\w*|breaks?|fails?|poorly|badly|"
                       r"well|fine|down|up|worse|better|much|time|speed|throughput|efficiency|to|from|for|with|at|on|in|by|"
                       r"than|when|beyond|past)(?![\w-]))[A-Za-z·][\w.·-]{0,24}){0,2}"
                       r"\s+over\s*$", re.IGNORECASE)

def _shape(shape: str, m: re.Match[str], text: str, unmasked: str | None = None) -> list[Understood] | None:
    a, b = m.start(), m.end()
    g = m.groupdict()
    n = _count(g.get("n") or g.get("n2"))
    per = _count(g.get("m") or g.get("m2"))
    out: list[Understood] = []
    if shape == "groups":  # counts-zh-s13 groups
        n1, n2, m1, m2 = _count(g["n"]), _count(g["n2"]), _count(g["m"]), _count(g["m2"])
        if not (n1 and n2 and m1 and m2):
            return None
        return [_hit("job.nodes", n1 + n2, text, a, b)] + ([_hit("job.gpus_per_node", m1, text, a, b)] if m1 == m2 else [])
    if shape == "pods":
        if g.get("wk") and re.search(r"master|主", text[max(0, a - 30):a], _IC):
            return None  # counts-zh-s13: '1 个 master + 3 个 worker': the workers are some of the pods (_MASTER_AND_WORKERS)
        if not n or not per or not (g.get("each") or re.search(r"每|各|each", m.group(0), _IC)):
            return None
        return [_hit("job.nodes", n, text, a, b, weak=n == 1), _hit("job.gpus_per_node", per, text, a, b)]
    if shape == "pods-one-a-node":
        return [_hit("job.nodes", n, text, a, b, weak=n == 1)] if n else None
    if shape == "spark":
        return [_hit("job.nodes", n, text, a, b, weak=n == 1), _hit("job.gpus_per_node", 1, text, a, b)] if n else None
    if shape == "dgx":
        # a DGX-2 holds sixteen V100s, the other DGX and HGX systems eight
        out = [_hit("job.gpus_per_node", 16 if re.search(r"DGX[- ]?2(?!\d)", m.group(0), _IC) else 8, text, a, b)]
        spread = _SPREAD_OVER.search(text, max(0, a - 40), a)
        if n and spread and (_count(spread["t"]) or 0) % n == 0:
            # s14 '8 GPUs across 2 DGX boxes': the GPUs said over the machines, not all those each one holds
            return [_hit("job.nodes", n, text, a, b, weak=n == 1),
                    _hit("job.gpus_per_node", (_count(spread["t"]) or 0) // n, text, spread.start(), b)]
        if n:
            out.append(_hit("job.nodes", n, text, a, b, weak=n == 1))
        return out
    if shape == "gpus-times" and (not per or per > 16):  # counts-s11
        return None
    if shape == "of-each":  # counts-s11 ('only 4 of the 8 GPUs on each')
        return [_hit("job.gpus_per_node", per, text, a, b)] if per and per < (_count(g["t"]) or 0) <= 16 else None
    if shape == "of-ours":  # counts-s11 of ours: the count picked, never more than those there are
        if not n or not (_count(g["t"]) or 0) > n:
            return None
        if g.get("w"):
            return [_hit("job.nodes", n, text, a, b, weak=n == 1)]
        return [Understood("job.gpus_per_node", n, text[a:b], a, b, weak=n == 1, source="gpus")]
    if shape == "n-g":  # counts-s11 ('2N16G': sixteen in all)
        return [_hit("job.nodes", n, text, a, b, weak=n == 1), _hit("job.gpus_per_node", per // n, text, a, b)] \
            if n and per and per % n == 0 and per // n <= 16 else None
    if shape == "total-paren":  # counts-s11 ('a 16-GPU job (2x8)': the product the total said)
        return [_hit("job.nodes", n, text, a, b, weak=n == 1), _hit("job.gpus_per_node", per, text, a, b)] \
            if n and per and n * per == int(g["t"]) else None
    if shape == "zh" and g.get("bare") and not (g.get("each") and _GPU_NAMED.search(text)):  # counts-s11
        return None
    if shape in {"zh", "zh-rev", "en", "en-mark", "nxm", "nxm-paren", "multi-paren", "n-m-node", "m-per-x-n", "gpus-times", "n-m-node-zh",
                 "m-node-x-n"}:  # counts-s11
        if not n or not per:
            return None
        # (counts-zh-s13 '2机*8卡', '4节点x8卡': machines times each's GPUs, never a total)
        times = shape == "zh" and re.search(r"[x×*]", text[m.end("nw"):m.start("m2") if g.get("m2") else m.start("m")])
        # s14 '2机8卡/机', '2 台 8 卡/台': the GPUs said of each machine
        times = times or (shape in {"zh", "en"} and _EACH_AFTER.match(text, b))
        if shape == "zh" and not g.get("each") and not times and g["nw"].startswith("机") and per >= n and per % n == 0:
            per //= n  # 2机16卡: sixteen in all
        elif shape in {"zh", "en"} and not g.get("each") and not times and not (g.get("each0") or "").startswith("each") \
                and per > 8 and per % n == 0:
            per //= n  # '2 nodes with 16 GPUs': a machine holds 8
        elif shape in {"zh", "en"} and not g.get("each") and not times and n > 1 and per > 8 and per % n:
            # '3 机 16 卡', '3 nodes with 16 GPUs': more than a machine holds, and not shared evenly: the GPUs in all
            return [_hit("job.nodes", n, text, a, b), Understood("job.total_gpus", per, text[a:b], a, b, weak=True)]
        out.append(_hit("job.nodes", n, text, a, b, weak=n == 1))
        out.append(_hit("job.gpus_per_node", per, text, a, b, weak=per == 1 and n == 1))
    elif shape == "total":
        if not n or not per:
            return None
        if not g.get("each"):
            if per % n:
                return None
            per //= n
        out.append(_hit("job.nodes", n, text, a, b, weak=n == 1))
        out.append(_hit("job.gpus_per_node", per, text, a, b))
    elif shape == "n-mark-times-nodes":
        if not n or not per or per > 16 or n > 1024:
            return None
        out.append(_hit("job.nodes", n, text, a, b, weak=n == 1))
        out.append(_hit("job.gpus_per_node", per, text, a, b))
    elif shape.startswith("per-node") or shape in {"accel", "mark-times", "mark-times-node", "one-node-of"}:
        if not per or per > 64:
            return None
        if shape == "per-node" and per != 8 and unmasked and re.search(r"[DH]GX", unmasked[a:b]):
            # '2x H100 DGX boxes': two DGX machines of eight GPUs, not two GPUs a machine
            return [_hit("job.nodes", per, text, a, b, weak=per == 1), _hit("job.gpus_per_node", 8, text, a, b)]
        if g.get("bare") and not _GPU_NAMED.search(text):
            return None  # '每台 4 张' counts GPUs only where the question speaks of GPUs
        if shape == "mark-times" and per > 8:
            # s12 model times a total: 'A100 x 16（2 nodes）' — more than a machine holds is a bare count, which the
            # machines said beside it divide (_spread_totals)
            out.append(Understood("job.gpus_per_node", per, text[a:b], a, b, source="gpus"))
            return out
        out.append(_hit("job.gpus_per_node", per, text, a, b))
        if shape == "per-node3" and m.group(0).startswith("单台"):
            out.append(_hit("job.nodes", 1, text, a, b, weak=True))  # '单台 8 卡 A100 服务器': one machine, said whole
        if shape == "one-node-of" and re.match(r"(?:an?|one|single)\s", m.group(0), _IC):
            out.append(_hit("job.nodes", 1, text, a, b, weak=True))  # 'an 8 A100 node': one machine
        if shape in {"per-node", "mark-times-node"} and _ONE_MACHINE.search(text, max(0, a - 12), a) \
                and not re.search(r"s\s*$", m.group(0)):
            out.append(_hit("job.nodes", 1, text, a, b, weak=True))  # 'on a 4xA6000 Lambda instance': one machine
    elif shape == "single":
        out.append(_hit("job.nodes", 1, text, a, b, weak=True))
        if g.get("one"):
            out.append(_hit("job.gpus_per_node", 1, text, a, b, weak=True))
        elif per:
            out.append(_hit("job.gpus_per_node", per, text, a, b, weak=True))
    elif shape == "instance-times":
        if not n:
            return None
        out.append(_hit("job.nodes", n, text, a, b, weak=n == 1))
    elif shape == "nodes":
        if not n:
            return None
        if _is_gpu_context(text, a):
            return None
        series = bool(re.search(rf"(?:\d{{1,4}}|{_CN_WORDS})\s*(?:,\s*(?:or\s+|and\s+)?|\s+(?:or|and)\s+|/|、|或|和)\s*$",
                                text[max(0, a - 12):a], _IC))
        threshold = bool(re.search(r"(?:超过|多于|大于|以上的?|more than|over|above|beyond|past|>)\s*$", text[max(0, a - 10):a], _IC))
        if threshold and _RUN_OVER.search(text, max(0, a - 40), a):
            threshold = False  # 'we train over 2 nodes', 'NCCL over 2 nodes': across them, not more than them
        if threshold:
            return None  # '超过 6 台以后', 'beyond 8 nodes': a threshold in a trend, not the size of the run
        # '搭了一个 3 节点的 CaffeOnSpark 集群', 'our 16-node cluster': what the cluster has, which a run may not all use
        cluster = bool(_CLUSTER_AFTER.match(text, b) or _CLUSTER_BEFORE.search(text, max(0, a - 40), a))
        # '其中 1 台是 A800，其余 3 台是 H800', 'the other 3 nodes': some of the machines (unless picked: '只用其中 4 台')
        part = bool(_PART_OF_MACHINES.search(text, max(0, a - 14), a))
        # 'with 1, 2 or 5 machines': the last of a series of runs, not the size of this one
        out.append(_hit("job.nodes", n, text, a, b, weak=n == 1 or cluster or series or part))
        if g.get("sg"):
            out.append(_hit("job.gpus_per_node", 1, text, a, b))
    elif shape == "single-gpu":
        if _EACH_HAS.search(text, max(0, a - 30), a):
            # 'each machine uses one GPU', '每台各用一张卡': every machine's share, not a run on one machine (weak still: a
            # count said outright elsewhere wins)
            return [_hit("job.gpus_per_node", 1, text, a, b, weak=True)]
        out.append(_hit("job.gpus_per_node", 1, text, a, b, weak=True))
        out.append(_hit("job.nodes", 1, text, a, b, weak=True))
    elif shape == "of-them":
        if not n:
            return None
        said = g.get("w") or _referent(unmasked or text, a)
        if not said:
            return None
        a = m.start("n") if g.get("n") else a  # the count, after the verb that picks it ('only use 8 of them')
        if re.match(rf"{_GPU_EN}$", said, _IC):
            out.append(Understood("job.gpus_per_node", n, text[a:b], a, b, weak=n == 1, source="gpus"))
        else:
            out.append(_hit("job.nodes", n, text, a, b, weak=n == 1))
    elif shape in {"label-nodes", "nodes-after"}:
        if not n:
            return None
        out.append(_hit("job.nodes", n, text, a, b, weak=n == 1))
    elif shape == "both":
        out.append(_hit("job.nodes", 2, text, a, b, weak=True))
    elif shape == "mark-count":
        if not per:
            return None
        out.append(Understood("job.gpus_per_node", per, text[a:b], a, b, weak=per == 1, source="gpus"))
    elif shape == "label-per":
        if not per or per > 64:
            return None
        out.append(_hit("job.gpus_per_node", per, text, a, b))
    elif shape in {"label-total", "world"}:
        if not per:
            return None
        out.append(Understood("job.gpus_per_node", per, text[a:b], a, b, weak=per == 1, source="total"))
    elif shape == "gpus":
        if not per:
            return None
        out.append(Understood("job.gpus_per_node", per, text[a:b], a, b, weak=per == 1, source="gpus"))
    elif shape == "ranks":
        if not per or per < 2:
            return None
        out.append(Understood("job.gpus_per_node", per, text[a:b], a, b, source="ranks"))
    elif shape == "gpus-nodes":
        if not n or not per or per % n:
            return None
        out.append(_hit("job.nodes", n, text, a, b, weak=n == 1))
        out.append(_hit("job.gpus_per_node", per // n, text, a, b, weak=per == n == 1))
    return out


_SPREAD_OVER = re.compile(rf"(?P<t>{COUNT})\s*(?:{_GPU_EN}|{_GPU_ZH})\s*(?:in total\s*)?,?\s*(?:across|over|spread (?:over|across)|"
                          r"split (?:over|across)|distributed (?:over|across)|分布在|分在)\s*(?:the\s*)?$", _IC)
_EACH_AFTER = re.compile(r"\s*(?:/|每)\s*(?:机(?!器)|台|节点|node|machine|server|host)(?![A-Za-z])", _IC)
_EACH_HAS = re.compile(r"(?<![A-Za-z])(?:each|every|per)(?:\s+(?:one|node|machine|server|box|host|instance|VM|worker|pod|rank|process))?\s*,?\s*"
                       r"(?:(?:only\s+)?(?:uses?|used|has|have|with|having|runs?(?: on)?|gets?|holds?)\s+)?(?:only\s+|just\s+)?$"
                       r"|(?:每台|每个节点|每节点|每机|每个机器|各)(?:机器|服务器)?\s*(?:上)?\s*(?:都|各)?\s*(?:只)?(?:用|有|是|插|装|跑)?\s*(?:了)?\s*$",
                       _IC)
_PLURALS = re.compile(r"(?<![A-Za-z])(?:nodes|machines|servers|hosts|boxes|instances|VMs|GPUs|cards|devices|"
                      r"accelerators|[A-Z]{1,3}\d{2,4}s|\d{4}s)(?![A-Za-z])", _IC)


def _referent(text: str, at: int) -> str | None:
    """What 'them' stands for: the last machines or GPUs named before `at` ('Our nodes are 8xA100 and the job spans 3 of
    them': the nodes)."""
    last = None
    for m in _PLURALS.finditer(text, max(0, at - 160), at):
        last = m.group(0)
    if last is None:
        return None
    return "GPUs" if re.match(r"GPUs|cards|devices|accelerators|[A-Z]{1,3}\d{2,4}s|\d{4}s", last, _IC) else "nodes"


_GPU_NAMED = re.compile(rf"GPU|显卡|卡|card|{GPU_MARK}", _IC)
_PART_OF_MACHINES = re.compile(r"(?<!用)(?<!跑)(?<!用了)(?<!跑了)(?:其中|其余|其他|其它|剩下的?|剩余的?)\s*(?:的)?\s*$|"
                               r"(?<![A-Za-z])(?:the other|the remaining|the rest of(?: the)?|of which|of them,?)\s+$", _IC)
_CN_WORDS = r"(?:one|two|three|four|five|six|eight|[一二两三四五六七八九十]{1,2})"
_CLUSTER_AFTER = re.compile(r"\s*(?:的)?\s*(?:[A-Za-z][\w-]{0,20}\s*){0,2}(?:集群|cluster)", _IC)
# '集群有 100 台机器', '集群一共 50 台', 'the cluster has 64 nodes', 'a cluster of 32 machines': what the cluster holds
_CLUSTER_BEFORE = re.compile(r"(?:(?:集群|机房)\s*(?:里|中|内|上)?\s*(?:(?:总共|一共|共)\s*(?:有)?|有|共有|规模(?:是|为)?|是)"
                             r"|(?:cluster|fleet)\s*(?<![A-Za-z])(?:has|have|had|of|with|consists of|contains|comprises|"
                             r"is made of)(?![A-Za-z]))\s*(?:about|around|over|some|大约|约|大概)?\s*$", _IC)
_ONE_MACHINE = re.compile(r"(?<![A-Za-z])(?:an?|one|single|a single)\s+$", _IC)


def _is_gpu_context(text: str, pos: int) -> bool:
    """'8 GPU nodes' is eight nodes; '8 GPUs' alone is not (checked by the GPU shape)."""
    return False


# GPUs of which a machine holds at most eight (the SXM/OAM boards: HGX/DGX, MI300X, Ascend 910 servers): more of them
# counted bare ('用了 16 张 H100', 'training on 32 A100 GPUs') are the job's GPUs in all, not one machine's
_EIGHT_A_MACHINE = re.compile(r"(?<![A-Za-z0-9])(?:[AHB][1-8]00|H20|GB[23]00|MI[23]\d{2}X?|(?:Ascend\s?)?910[BC]?)(?![0-9])", _IC)


# the GPUs named by no model: 'GPUs', 'cards', '卡', '显卡' right after the count
_GENERIC_GPUS = re.compile(r"\d\s*(?:-\s*)?(?:张|块|个)?\s*(?:GPUs?|cards?|卡|显卡)(?![A-Za-z0-9])", _IC)  # (cnt hyphened: "a 16-GPU run")
_MASKED = re.compile(r"[Ｇ·]")  # a named board, masked by the entity reader


def _spread_totals(text: str, hits: list[Understood], unmasked: str | None = None) -> list[Understood]:
    """A bare GPU count ('16 GPUs') beside a machine count in its sentence: a total when it divides evenly.

    '16 GPUs, 2 nodes' is 8 per node; '8 GPUs' alone is one node's; 'we have 4 nodes, 8 GPUs each' was
    already read by the grammar.
    """
    nodes = [h for h in hits if h.fact == "job.nodes" and h.value > 1]
    # A machine's GPUs said in a full shape ('2 nodes with 8 V100 each') outrank a bare count said
    # elsewhere ('4 GPUs share one PCIe switch', 'the 16 GPUs').
    shaped = any(h.fact == "job.gpus_per_node" and h.source != "gpus" and not h.weak for h in hits)
    by_sentence: dict[tuple[int, int], list[Understood]] = {}  # the machines said in each sentence, looked up once
    for x in nodes:
        by_sentence.setdefault(tx.sentence_bounds(text, x.start), []).append(x)
    out = []
    for h in hits:
        if h.source not in {"gpus", "ranks", "total"}:
            out.append(h)
            continue
        total_cue = h.source == "total" or re.search(r"in total|total|一共|总共|合计|共|across (?:them|both|all|the (?:nodes|machines|servers)|"
                              r"nodes|machines|servers)|分布在", tx.before(text, h.start, 10) + tx.after(text, h.end, 22), _IC) \
            or re.search(r"(?:multi[- ]?node|多机|多节点|分布式)\s*(?:setup|run|training|cluster|训练|集群|环境)?\s*(?:[(（:：,，]|with|on|of|"
                         r"uses?|using|用了?)?\s*$", tx.before(text, h.start, 26), _IC)
        # '各起 4 个进程', 'Each node runs 8 ranks': said of one machine
        # (cnt '2 nodes x 8 ranks', '2 台 * 8 进程': the machines times each one's share)
        per_node_cue = not total_cue and (_PER_MACHINE_CUE.search(tx.before(text, h.start, 12) + tx.after(text, h.end, 14))
                                          or _EACH_RUNS.search(tx.before(text, h.start, 30))
                                          or _NODES_TIMES.search(tx.before(text, h.start, 16)))
        near = by_sentence.get(tx.sentence_bounds(text, h.start), [])
        if not near and total_cue:
            near = nodes[-1:]  # '16 GPUs across nodes' in a table: the machines named elsewhere
        n = int(h.value)
        if not near and total_cue and h.value > 1:
            # 'one machine with 8 GPUs is fast; multi-node (64 GPUs) is slow': the same machines, so 64 ÷ 8 of them
            machine = [x.value for x in hits if x.fact == "job.gpus_per_node" and x.source != "gpus" and 1 < x.value < n
                       and n % x.value == 0]
            if machine:
                out.append(Understood("job.nodes", n // machine[-1], h.text, h.start, h.end, inferred=True))
                continue
            # '单机多卡（一共 8 卡）20s 一步；换成多机多卡（一共 16 卡）': the total of one machine measures the machines
            whole = [x.value for x in hits if x.source == "gpus" and x.fact == "job.gpus_per_node" and 1 < x.value < n
                     and n % x.value == 0 and _ONE_MACHINE_TOTAL.search(text, max(0, x.start - 16), x.start)]
            if whole and _MULTI_MACHINE.search(tx.before(text, h.start, 16, same_clause=False)):
                out.append(Understood("job.nodes", n // whole[-1], h.text, h.start, h.end, inferred=True))
                out.append(Understood("job.gpus_per_node", whole[-1], h.text, h.start, h.end, inferred=True))
                continue
        if near and not per_node_cue and n > near[-1].value and n % near[-1].value == 0 and (n > 8 or total_cue):
            out.append(Understood(h.fact, n // near[-1].value, h.text, h.start, h.end, weak=shaped))
        elif near and not per_node_cue and n > 8 and n > near[-1].value > 1 and n % near[-1].value:
            # '3 nodes, 16 H20 GPUs', '3 机 16 卡': more GPUs than a machine holds said beside machines they do not
            # divide among: the job's GPUs in all, never 16 on each machine
            out.append(Understood("job.total_gpus", n, h.text, h.start, h.end, weak=True))
        elif total_cue or (h.source == "ranks" and not per_node_cue):
            # a total with no machine count to divide it by says nothing about one machine: the job's GPUs in all,
            # when it counts GPUs ('one or two workers may fail to save' counts no job)
            if h.source != "ranks" and n > 1:
                out.append(Understood("job.total_gpus", n, h.text, h.start, h.end, weak=True))
        elif not per_node_cue and n > 8 and not near and unmasked and h.source == "gpus" \
                and _EIGHT_A_MACHINE.search(unmasked, h.start, h.end + 2):
            out.append(Understood("job.total_gpus", n, h.text, h.start, h.end, weak=True))
        elif per_node_cue or n <= 8 or (n <= 16 and not (_GENERIC_GPUS.search(h.text) and not _MASKED.search(h.text))):
            # s10: nine to sixteen GPUs said bare ('16 GPUs', '16 张卡') are rarely one machine, but a board named may
            # be ('用 16 张 4090')
            out.append(Understood(h.fact, n, h.text, h.start, h.end, weak=h.weak or shaped))
        else:  # 'AlexNet on 128 K80 GPUs': more than a machine holds, so the GPUs of the whole job
            out.append(Understood("job.total_gpus", n, h.text, h.start, h.end, weak=True))
    return out


# 'each with 8 GPUs', '8 GPUs per node', '每台 8 卡': a count said of one machine; never a rate's or a GPU's 'per'
# ('3B tokens per day on 64 GPUs', 'batch 4 per GPU on 64 GPUs')
_PER_MACHINE_CUE = re.compile(r"每台|每个|每机|各|apiece|/node|(?<![A-Za-z])(?:each|per)(?![A-Za-z])(?!\s*(?:day|hour|h|min\w*|"
                              r"sec\w*|s|ms|step|iter\w*|epoch|token|sample|image|batch|GPU|card|device|rank|process|"
                              r"worker|second|week|month)s?(?![A-Za-z]))", _IC)


# (s14 the one who runs them between: 'On each node I run 8 processes', 'on every machine we launch 4 ranks')
_EACH_RUNS = re.compile(r"(?:each|every|per)\s+(?:node|machine|server|host|box|worker)\s*,?\s+(?:(?:I|we|you|they)\s+)?(?:runs?|launch(?:es)?|starts?|spawns?|"
                        r"gets?|has|uses?)\s*$|(?:每台|每个节点|每节点)(?:机器|服务器)?\s*(?:上)?\s*(?:各)?\s*(?:起|跑|启动|开)(?:了)?\s*$",
                        _IC)
_NODES_TIMES = re.compile(r"(?<![A-Za-z])(?:nodes|machines|servers|hosts|boxes)\s*[x×*]\s*$|(?:台|机|节点)\s*[x×*]\s*$", _IC)
_ONE_MACHINE_TOTAL = re.compile(r"(?:单机|单台(?:机器|服务器)?|单节点|(?<![A-Za-z])(?:a single|single|one)[- ](?:node|machine|server|box))"
                                r"[^，,。；;!?]{0,6}?[（(]?\s*(?:一共|总共|共|in total|total)?\s*$", _IC)
_MULTI_MACHINE = re.compile(r"(?:多机|多节点|多台|multi[- ]?(?:node|machine|server))[^，,。；;!?]{0,6}?[（(]?\s*"
                            r"(?:一共|总共|共|in total|total)?\s*$", _IC)


# NICs per node: 'eight 400Gb ConnectX-7 NICs', '4x 400Gbps ConnectX-7', '4 张 200Gb RoCEv2 网卡', '每个节点 4 个 IB 口',
# 'a single Intel 100Gbps NIC'. A masked NIC model ('·····') counts as the NIC word when it names one.
_NIC_WORD = r"(?:(?:IB|InfiniBand|RoCE(?:\s?v2)?|RDMA|EFA|[EHNX]DR\d*)\s?links?|mlx5\s?(?:devices?|设备|HCAs?)|网卡|网口|光口|网络接口|NICs?|HCAs?|network\s+(?:interfaces?(?:\s+cards?)?|cards?)|ENIs?|rails?|(?:IB|RDMA|RoCE)\s*(?:口(?!卡)|卡|ports?|cards?)|adapters?|口(?!卡|网卡)|(?:EDR|HDR|NDR|XDR)\d*\s*(?:IB)?)"
_NIC_COUNT = re.compile(
    rf"(?P<n>{COUNT}|a single|single|双(?=\s?\d))\s{{0,3}}(?:[x×*]\s{{0,3}})?(?:张|块|个|根|条)?\s{{0,3}}(?:dual[- ]port\s{{0,3}})?"
    rf"(?:(?:\d+(?:\.\d+)?\s?G\w*(?:/s)?|Intel|Mellanox|NVIDIA|Broadcom|RoCE(?:\s?v2)?|InfiniBand|IB|RDMA|EFA|mlx\d?|"
    rf"ConnectX-?\d*|CX-?\d|的|[(（]\s?(?:IB|RoCE|RDMA|EFA|HCA)\s?[)）])\s{{0,3}}){{0,4}}"
    rf"(?P<nic>{_NIC_WORD}|·{{3,}}(?:\s{{0,3}}(?:网卡|NICs?|HCAs?|cards?))?)", _IC)
_NIC_MODEL = re.compile(r"ConnectX|CX-?\d|BlueField|mlx\d", _IC)


_NIC_MEASURE_AFTER = re.compile(r"(?:'s|’s|\s*的)\s*(?:worth of\s+)?(?:bandwidth|throughput|speed|带宽|速度|速率|水平)|"
                                r"\s*的\s*(?:[，,。.;；!！?？]|$)", _IC)
_NIC_MEASURE_BEFORE = re.compile(r"(?:(?:bandwidth|throughput|speed)\s+of\s+(?:only\s+)?|(?:只|仅)?相当于\s*)$", _IC)


def read_nic_count(masked: str, unmasked: str) -> list[Understood]:
    """nic.count hits: how many NICs (rails) each node has."""
    hits = []
    for m in _NIC_COUNT.finditer(masked):
        if m["nic"].startswith("·") and not _NIC_MODEL.match(unmasked[m.start("nic"):m.end("nic")]):
            continue
        n = 1 if m["n"].lower() in {"a single", "single"} else 2 if m["n"] == "双" else _count(m["n"])
        between = masked[m.end("n"):m.start("nic")]
        if re.fullmatch(r"\s*[xX]\s*", between) and re.match(r"[EHNX]DR|FDR|QDR", m["nic"]) and n in {1, 2, 4, 8, 12}:
            continue  # '4xEDR', '4X HDR': the link's lane width, not four NICs
        if not n or n > 32 or (n >= 10 and not re.search(r"[x×*]|张|块|个", between)):
            continue  # '100 Gbps NIC' is a rate, not a hundred NICs
        if m["n"] != "双" and (re.match(r"\s*G", between) or re.match(r"\d", between.strip()[:1] or "x") and "G" in between[:3]):
            continue
        if re.search(r"还是\s*$", masked[max(0, m.start() - 4):m.start()]) or re.match(r"\s*还是", masked[m.end():]):
            continue  # '是单口还是双口？': the choice asked about, neither side a count
        if _NIC_STATE_AFTER.match(masked, m.end()):
            continue  # s14 'one IB link is down', '一张网卡坏了': the state of some NICs, not how many there are
        if _BUSY_NICS.match(masked, m.end()) or re.search(r"(?:只有|仅有|only)\s*$", masked[max(0, m.start() - 6):m.start()], _IC) \
                and _BUSY_NICS.match(masked, m.end()):
            continue  # '只有两张网卡在干活': how many NICs carry traffic, a symptom, not how many there are
        if _PART_OF_NICS.search(masked[max(0, m.start() - 30):m.start()]):
            continue  # '其他 3 张网卡没流量', 'only one NIC was used': some of the NICs, not how many there are
        if _PER_GPU_AFTER.match(masked, m.end()) or n == 1 and _PER_GPU_BEFORE.search(masked, max(0, m.start() - 24),
                                                                                        m.start()):
            continue  # 'one 200G NIC per GPU', '一卡一网卡': NICs for each GPU, not for the node
        if _NIC_MEASURE_AFTER.match(masked, m.end()) or _NIC_MEASURE_BEFORE.search(masked[max(0, m.start() - 24):m.start()]):
            continue  # s30 'using only a single NIC's bandwidth', '带宽相当于一个口': a measure of rate, not how many NICs
        if re.match(r"\s*的话", masked[m.end():]) or re.search(r"(?:如果|要是|假如|若|(?<![A-Za-z])if)\s*$",
                                                              masked[max(0, m.start() - 6):m.start()], _IC):
            continue  # '双口的话有没有做 bond': a case asked about
        n *= _groups_holding(masked, m.start())
        hits.append(Understood("nic.count", n, unmasked[m.start():m.end()], m.start(), m.end()))
    for m in _NIC_AFTER.finditer(masked):
        # '200Gb 网卡两张', '网卡 4 块', 'NICs: 4', '网卡数量：2', 'number of HCAs = 8': the count after the word
        n = _count(m["n"] or m["n1"] or m["n2"])
        if not n or n > 32 or _BUSY_NICS.match(masked, m.end()) or re.match(r"\s*(?:还是|的话)", masked[m.end():]):
            continue
        if _PART_OF_NICS.search(masked[max(0, m.start() - 30):m.start()]):
            continue
        hits.append(Understood("nic.count", n * _groups_holding(masked, m.start()), unmasked[m.start():m.end()],
                               m.start(), m.end()))
    for m in _NIC_PAIRS.finditer(masked):  # 'every node has 8 GPU-NIC pairs': a NIC for each GPU
        hits.append(Understood("nic.count", _count(m["n"]), unmasked[m.start():m.end()], m.start(), m.end()))
    for m in _PORTED_CARD.finditer(masked):  # 'a dual-port 10Gbit card': its two ports (weak: a card, not a count)
        hits.append(Understood("nic.count", _count(m["n"]), unmasked[m.start():m.end()], m.start(), m.end(), weak=True))
    for m in _RATED_PORTS.finditer(masked):  # 'two 100GbE ports bonded', '2 个 25G 口做了 bond': ports of a rate, counted
        n = _count(m["n"] or m["n2"])
        if n and 1 <= n <= 16 and not _SWITCH_SAID.search(tx.sentence(masked, m.start())) \
                and not _PART_OF_NICS.search(masked[max(0, m.start() - 30):m.start()]) \
                and not _BUSY_NICS.match(masked, m.end()) and not any(h.start <= m.start() < h.end for h in hits):
            hits.append(Understood("nic.count", n * _groups_holding(masked, m.start()), unmasked[m.start():m.end()],
                                   m.start(), m.end()))
    for m in _RATED_CARDS.finditer(masked):  # '2 块 200G 卡' beside a network word: cards of a link's rate, no GPUs
        if _NETWORK_WORDS.search(tx.sentence(masked, m.start())) and not any(h.start <= m.start() < h.end for h in hits):
            hits.append(Understood("nic.count", _count(m["n"]), unmasked[m.start():m.end()], m.start(), m.end()))
    for m in _RATE_TIMES.finditer(masked):  # 'IB 200Gb * 4': four of them (a NIC's rating, not '31 Gbps x 2' measured)
        hits.append(Understood("nic.count", int(m["n"]), unmasked[m.start():m.end()], m.start(), m.end()))
    for pattern in (_N_RAIL, _NIC_THEN_PER_NODE):  # net-s11 '8-rail 400G', 'NICs are … 400G, 8 per node'
        for m in pattern.finditer(masked):
            if masked[m.start()] == "·" and not _NIC_MODEL.match(unmasked[m.start():]):
                continue  # a masked GPU or other model, not a NIC's
            group = "n" if m["n"] else "n2"
            n = _count(m[group])
            if n and 1 <= n <= 16:
                hits.append(Understood("nic.count", n, unmasked[m.start(group):m.end()], m.start(group), m.end()))
    for m in _MODEL_TIMES.finditer(masked):  # 'CX6 ×2': the card's model, then how many
        if _NIC_MODEL.match(unmasked[m.start():]) and not any(h.start <= m.start("n") < h.end for h in hits):
            hits.append(Understood("nic.count", int(m["n"]), unmasked[m.start():m.end()], m.start(), m.end()))
    hits += [h for h in _device_ranges(masked, unmasked) if not any(x.start <= h.start < x.end for x in hits)]
    hits += [h for h in _nic_names_listed(unmasked) if not any(x.start <= h.start < x.end for x in hits)]
    return [h for h in hits if not _LINKS_HEAD.search(h.text) or _a_rate_with_the_links(masked, h)] \
        + _rate_after_the_count(masked, unmasked, hits)


# s14 a node's RDMA devices written as a range from the first: 'mlx5_0 … mlx5_7', 'mlx5_0 到 mlx5_7', 'mlx5_[0-7]',
# 'mlx5_{0..7}', 'mlx5_0-7' — the kernel numbers a node's devices from 0, so the range names all of them
_DEV = r"(?P<dev>(?:mlx\d|bnxt_re|irdma|rdmap|hns_|efa_?)[A-Za-z]*_?)"
_DEVICE_RANGE = re.compile(
    rf"(?<![\w=,])(?:{_DEV}0\s*(?:…|\.{{2,3}}|-|–|~|～|到|至|through|thru|to)\s*(?P=dev)(?P<hi>\d{{1,2}})"
    rf"|{_DEV.replace('dev', 'dev2')}(?:\[0\s*-\s*(?P<hi2>\d{{1,2}})\]|\{{0\.\.(?P<hi3>\d{{1,2}})\}}|0-(?P<hi4>\d{{1,2}})))"
    r"(?!\w|,\s*(?:mlx|bnxt|irdma|rdmap|hns|efa))", _IC)
# a host named between or just before the devices ('node1: mlx5_0 … mlx5_3, node2: …'): each node's list, not one node's
_HOST_NAMED = re.compile(r"(?<![A-Za-z])(?:node|host|server|machine|worker|节点|机器|服务器|主机)\s*[-_]?\s*[A-Za-z]?\d+\s*[:：]", _IC)
_BOND_SAID = re.compile(r"bond|team|LACP|聚合|绑定", _IC)


def _device_ranges(masked: str, unmasked: str) -> list[Understood]:
    """nic.count from a range of RDMA device names, the same count in every range said (two nodes' ranges alike)."""
    found = []
    for m in _DEVICE_RANGE.finditer(unmasked):
        n = int(next(g for g in (m["hi"], m["hi2"], m["hi3"], m["hi4"]) if g)) + 1
        sentence = tx.sentence(unmasked, m.start())
        if not 2 <= n <= 16 or _BOND_SAID.search(sentence) or _HOST_NAMED.search(sentence):
            continue  # a bond's ports are one link; hosts named each have their own devices
        if _PART_OF_NICS.search(masked[max(0, m.start() - 30):m.start()]) or _BUSY_NICS.match(masked, m.end()) \
                or _NIC_STATE_AFTER.match(masked, m.end()):
            continue  # 'only mlx5_0 … mlx5_3 carry traffic', 'mlx5_0 到 mlx5_3 都 down 了': some of them, a state
        found.append(Understood("nic.count", n, m.group(0), m.start(), m.end()))
    return found if len({h.value for h in found}) == 1 else []


# cnt a configuration's list of a node's RDMA interfaces: k8s-rdma-shared-dev-plugin's 'ifNames: [ibs10, ibs11, ibs18,
# ibs19]', 'interfaces: ib0, ib1, ib2, ib3', '网卡：mlx5_0、mlx5_1': as many NICs as names (an RDMA device's or an IPoIB
# interface's names only: an Ethernet list, 'eth0,eth1', may be a bond's members or a socket's fallbacks)
_RDMA_NAME = r"(?:ib[a-z]{0,2}\d{1,3}(?:[a-z]\d{1,3}){0,3}|mlx\d_\d{1,3}|bnxt_re\d{1,2}|irdma\d{1,2}|rdmap?\w{0,10}\d)"
_NIC_NAMES_LISTED = re.compile(
    r"(?<![A-Za-z_])(?:if_?names?|interfaces?|(?:rdma|ib|hca|nic)_?(?:devices?|devs?|hcas?|interfaces?|names?)|devices?|"
    r"HCAs?|NICs?|网卡|接口|设备)\s*[:：=]\s*[\[(（]?\s*"
    rf"(?P<names>{_RDMA_NAME}(?:\s*(?:,|，|、|\s(?:and|和)\s)\s*{_RDMA_NAME}){{1,15}})\s*[\])）]?(?![\w-])", _IC)


def _nic_names_listed(unmasked: str) -> list[Understood]:
    """nic.count from a configured list of RDMA interface names: each distinct name is one NIC of the node."""
    hits = []
    for m in _NIC_NAMES_LISTED.finditer(unmasked):
        names = set(re.findall(_RDMA_NAME, m["names"], _IC))
        if len(names) >= 2:
            hits.append(Understood("nic.count", len(names), m.group(0), m.start(), m.end()))
    return hits


_LINKS_HEAD = re.compile(r"links?$", _IC)


def _a_rate_with_the_links(masked: str, h: Understood) -> bool:
    """'2 IB links at 200 Gb/s' counts the node's links; 'one IB link is down', '2 NDR links between the leaf
    switches' count none: a rate said with them, and no switch, makes them the node's."""
    return bool(re.search(r"\d\s*G", h.text) or _RATE_AFTER_COUNT.match(masked, h.end)) \
        and not _SWITCH_SAID.search(tx.sentence(masked, h.start))


_MODEL_TIMES = re.compile(r"·{3,}\s*[x×*]\s*(?P<n>[1-9]|1[0-6])(?![\d.])"
                          r"(?!\s*(?:nodes?|machines?|servers?|hosts?|GPUs?|cards?|台|节点|机|卡|服务器))", _IC)
# s14 the rate right after the NICs counted: 'two ConnectX-6 (200G)', '4 mlx5 devices, 200G each', '2 个 mlx5 设备，每个
# 200G', 'IB 8口 200G', 'CX6 ×2, 100G' — a bare figure of a link's rate that says no unit of bytes
_RATE_AFTER_COUNT = re.compile(r"\s*(?:[(（,，:：]\s*|\s(?:at|of)\s+)?(?:each\s+|每(?:个|张|块|口)?\s*|都是\s*)?"
                               r"(?P<r>10|25|40|50|56|100|200|400|800)\s*(?-i:G(?:b|bps|b/s|bE|bit/s)?)(?![A-Za-z/\d])"
                               r"(?:\s*(?:each|apiece))?", _IC)


# after the figure: bytes or a GPU's memory, the node's total ('400G total per node'), or a test's figure ('10G measured
# with iperf3'): no rate of each NIC
_NOT_EACH_RATE = re.compile(r"\s*(?:B(?![A-Za-z])|bytes|显存|内存|memory|(?:in\s+)?total|aggregate|combined|overall|"
                            r"(?:的\s*)?(?:switch|交换机|storage|存储|NFS|management|mgmt|管理|uplink)|per (?:node|"
                            r"server|machine|host)|总|合计|一共|共|[^.;。；\n]{0,12}?(?:measur|iperf|perftest|ib_\w+_bw|test|"
                            r"实测|测))", _IC)


def _rate_after_the_count(masked: str, unmasked: str, counts: list[Understood]) -> list[Understood]:
    """The link rate written just after a count of NICs: the rate of each of them (a bare 'G' beside NICs is bits)."""
    out = []
    for h in counts:
        if h.weak:
            continue
        m = _RATE_AFTER_COUNT.match(masked, h.end)
        if m and not _NOT_EACH_RATE.match(masked, m.end()):
            out.append(Understood("nic.speed_gbps", float(m["r"]), unmasked[m.start("r"):m.end()], m.start("r"), m.end()))
    return out


_PER_GPU_AFTER = re.compile(r"\s*(?:per|for each|for every|each)\s+(?:GPU|card|accelerator)(?![A-Za-z])|\s*(?:对应)?每(?:张|块)?(?:卡|GPU)",
                            _IC)
# cnt the GPU said before the one NIC counted for it: '一卡一网卡', '两卡一网卡', '每张 GPU 对应一张 200G 网卡', 'each GPU
# has its own NIC' (never '8 张 A100 4 张 IB 网卡', the machine's NICs after its GPUs)
_PER_GPU_BEFORE = re.compile(r"(?:每|[一两二]|(?<!\d)[12](?![\d.]))\s*(?:张|块|个)?\s*(?:卡|GPU|显卡|·+)\s*(?:都)?\s*(?:对应|配|配了|搭配|接|有)?\s*(?:一)?\s*$|"
                             r"(?<![A-Za-z])(?:each|every|per)\s+(?:GPU|card|accelerator)\s+(?:has|gets|with|having)\s+"
                             r"(?:its\s+own\s+|a\s+dedicated\s+)?$", _IC)
# a NIC's ports counted before their rate ('two 100GbE ports', '2x 25G links', '两个 25G 口'); a switch's ports are not
# the node's
_RATED_PORTS = re.compile(
    rf"(?P<n>{COUNT})\s{{0,3}}(?:[x×*]\s{{0,3}})?(?:个|条|根)?\s{{0,3}}\d+(?:\.\d+)?\s?(?:GbE|GigE|GE|Gb/s|Gbps|Gbit|Gb|G)"
    r"\s{0,3}(?:(?:Ethernet|RoCE(?:\s?v2)?|IB|InfiniBand|QSFP\d*|SFP\+?|SFP28|optical|光)\s{0,3})?"
    r"(?:ports?|links?|端口|网口|光口|口)(?![A-Za-z])|"
    # the ports counted, then their rate: '8 ports of 400G per node', '2 links of 100GbE'
    rf"(?P<n2>{COUNT})\s{{0,3}}(?:ports?|links?)\s+of\s+\d+(?:\.\d+)?\s?(?:GbE|GigE|GE|Gb/s|Gbps|Gbit|Gb|G)(?![A-Za-z/])",
    _IC)
_SWITCH_SAID = re.compile(r"交换机|(?<![A-Za-z])switch(?:es)?(?![A-Za-z])", _IC)
# net-s11 rails and NICs counted after their rate
_N_RAIL = re.compile(r"(?<![\d.])(?P<n>[1-9]|1[0-6])[- ]rails?(?![A-Za-z])", _IC)
_NIC_THEN_PER_NODE = re.compile(
    r"(?:NICs?|HCAs?|网卡|·{3,})[^.;。；\n]{0,24}?\d+\s*G(?:b|bps|b/s|bE)?(?![A-Za-z])\s*(?:[)）])?\s*[,，]\s*"
    rf"(?:(?P<n>{COUNT})\s*(?:per|each|on each|in each)\s+(?:node|server|host|machine|box)(?![A-Za-z])|"
    rf"每(?:个)?(?:节点|台(?:机器|服务器)?)\s*(?P<n2>{COUNT})\s*(?:张|块|个)(?!\s*(?:卡|GPU|显卡)))", _IC)


_NIC_AFTER = re.compile(
    rf"(?:(?:网卡|网口|NICs?|HCAs?|IB\s*卡|RDMA\s*网卡|RoCE\s*网卡|"
    # zh-s10 fabric cards: 'IB 是 4 张 200G 的', 'RoCE 有 8 张': the fabric named, then how many cards of it
    rf"(?:(?<![A-Za-z])IB|InfiniBand|RoCE(?:\s?v2)?)(?:\s*网络)?(?=\s*(?:是|有)\s*(?:{COUNT})\s*(?:张|块)))"
    rf"\s*(?:[:：]|有|是|共|一共|总共|各)?\s*(?:(?P<n>{COUNT})\s*"
    rf"(?:张|块|个|根|条|片|口)(?!\s*(?:卡|GPU|显卡))|[x×*]\s*(?P<n1>[1-9]|1[0-6])(?!\d|\.\d))"
    rf"|(?:(?:网卡|网口|NIC|HCA|IB\s*卡)\s*(?:的)?\s*(?:数量|个数|数|count)|(?<![A-Za-z])number of (?:NICs|HCAs|rails)|"
    rf"(?<![\w-])(?:NICs|HCAs)(?=\s*[:=]))\s*(?:[:：=]|为|是|(?<![A-Za-z])is(?![A-Za-z]))?\s*(?P<n2>{COUNT})(?![\d.]*\d)"
    rf"(?!\s*(?:%|[x×*]|G|Gb|Gbps|M|倍)))", _IC)
_RATE_TIMES = re.compile(r"(?<![\d.])(?:10|25|40|50|56|100|200|400|800)\s*(?:G|Gb|Gbps|Gb/s|GbE)\s*"
                         r"(?:(?:IB|InfiniBand|RoCE(?:\s?v2)?|EFA|[EHNX]DR|网卡|NICs?)\s*){0,2}[*x×]\s*(?P<n>[1-9]|1[0-6])(?!\d|\.\d)"
                         r"(?!\s*(?:nodes?|machines?|servers?|hosts?|boxes|instances?|GPUs?|台|机|节点|服务器|卡))",
                         _IC)
# '2 块 200G 卡', '8 张 400G 的 IB 卡': cards counted with a link's rate; a GPU's memory ('8 块 32G 卡') is no link rate
_RATED_CARDS = re.compile(rf"(?P<n>{COUNT})\s*(?:张|块|个)\s*(?:25|50|56|100|200|400|800)\s*G(?:b|bps|b/s|bE)?\s*(?:的\s*)?"
                          r"(?:IB|RoCE|RDMA)?\s*卡", _IC)
_NETWORK_WORDS = re.compile(r"网卡|网络|网口|带宽|IB|RoCE|RDMA|NCCL|NIC|交换机|互联", _IC)


_NIC_STATE_AFTER = re.compile(r"\s*(?:(?:is|was|are|were|went|goes|keeps?)\s+)?(?:down|dead|broken|failed|failing|flapping|"
                              r"missing|not (?:up|working|detected|active))(?![A-Za-z])|\s*(?:坏了|掉了|挂了|down了|不通|掉线)",
                              _IC)
_BUSY_NICS = re.compile(r"\s*(?:在干活|在用|在跑|有流量|被用|用上了|跑满|are (?:used|busy|active)|(?:is|are) carrying|carry traffic|"
                        r"show traffic|get traffic)", _IC)


_PART_OF_NICS = re.compile(r"(?:其他|其它|其余|另外|剩下的?|剩余的?|(?<![A-Za-z])(?:the )?other|remaining|the rest of(?: the)?|"
                           r"(?:只|仅)(?:用了|走了|跑了|用上了)|only (?:uses?|used|using|use)|is only using|"
                           # 'traffic only goes over one NIC', 'all of it went through a single port': the NICs used
                           r"(?:only|just)\s+(?:goes|go|going|went|flows?|flowing|flowed|runs?|ran|travels?|passes|passed)\s+"
                           r"(?:over|through|via|on|across)|(?:goes|go|went|flows?|runs?|ran)\s+(?:over|through|via|on)\s+"
                           r"(?:only|just))\s*(?:the\s+|a\s+)?$", _IC)
# 'two PCIe switches, each with 4 GPUs and 1 NIC', '两个 PCIe switch，每个 switch 下挂 4 张 GPU + 1 张网卡': per group
_GROUP = r"(?:PCIe\s*)?(?:switch(?:es)?|交换芯片|PLX|PEX|CPUs?|sockets?|NUMA(?:\s*nodes?)?|root complex(?:es)?)"
_GROUPS = re.compile(rf"(?P<k>{COUNT})\s*(?:个|颗|路)?\s*{_GROUP}(?![A-Za-z])", _IC)
_EACH_GROUP = re.compile(r"每个|每颗|每路|各|(?<![A-Za-z])(?:each|every|per)(?![A-Za-z])", _IC)
_NIC_PAIRS = re.compile(rf"(?:(?:every|each|per)\s+(?:node|machine|server|host|box)\s+(?:has|have|with|contains)\s+|"
                        rf"每台(?:机器|服务器|节点)?\s*(?:有|是)?\s*)(?P<n>{COUNT})\s*(?:对\s*)?GPU\s*[-/与和+&]\s*"
                        rf"(?:NIC|HCA|网卡)s?", _IC)
_PORTED_CARD = re.compile(r"(?<![A-Za-z\d])(?:an?|one|the|our|my|this|that|一张|一块)\s*(?P<n>dual|quad|two|four|双|四)[- ]?"
                          r"(?:port(?:ed)?|口)\s*(?:[\w.-]+\s+){0,3}?(?:cards?|NICs?|adapters?|HCAs?|网卡|卡)(?![A-Za-z])", _IC)


def _groups_holding(masked: str, at: int) -> int:
    """How many groups the NICs said at `at` are counted per: two switches 'each' with one NIC are two NICs."""
    a = max(tx.sentence_bounds(masked, at)[0], at - 80)
    groups = list(_GROUPS.finditer(masked, a, at))
    if not groups:
        return 1
    g = groups[-1]
    k = _count(g["k"])
    between = masked[g.end():at]
    if not k or k > 16 or len(between) > 50 or not _EACH_GROUP.search(between):
        return 1
    return k


# Several machines said without their count: 'multi-node training', '多机训练', 'across the nodes', '跨机通信',
# 'each node has…' ('单机多卡' is one machine; a what-if or a negation is the scopes' to judge).
_SEVERAL_MACHINES = re.compile(
    r"(?<!单)多机(?!器)|多节点|多个节点|多台(?:机器|服务器|主机|节点)|多台\s*(?:\d{1,2}|[两四八])\s*(?:张|块)?\s*(?:卡|GPU)|跨机|跨节点|跨服务器|(?:机器|节点|服务器|主机)(?:之|相互)?间|"
    r"机间|每台(?:机器|服务器|主机|节点)|每个节点|各(?:台|个)(?:机器|节点|服务器)|"
    # job-s12b a role between: 'each worker node', 'every GPU machine', '每个 worker 节点', '每台 GPU 机器'
    r"(?:每个|每台|各个)\s*(?:worker|GPU|计算)\s*(?:节点|机器|服务器)|(?<![A-Za-z])(?:each|every) (?:worker|GPU|compute) "
    r"(?:node|machine|server|host)(?![A-Za-z])|"
    r"(?<![A-Za-z])(?:multi-?node|multi-?machine|multiple (?:nodes|machines|servers|hosts)|several (?:nodes|machines|servers|"
    r"hosts)|across (?:the |all |our |multiple |several )?(?:nodes|machines|servers|hosts)|between (?:the |our )?(?:nodes|"
    r"machines|servers|hosts)|inter-?node|cross-?node|node-to-node|each (?:node|machine|server|host)|every (?:node|machine|"
    r"server|host)|other (?:nodes|machines)|all (?:the )?(?:nodes|machines))(?![A-Za-z])", re.IGNORECASE)


def read_several_machines(text: str) -> list[Understood]:
    """job.multi_node: the job spans several machines, their number unsaid (a count said is read_counts')."""
    for m in _SEVERAL_MACHINES.finditer(text):
        if _DATA_MOVED.search(tx.clause(text, m.start())):
            continue  # s21 'every image has to be transferred between the servers': the data's trip, not the job's span
        return [_hit("job.multi_node", True, text, m.start(), m.end(), weak=True)]
    return []


# data or files carried from one machine to another: the storage's path, no training across those machines
# (files, images, samples or a data set, not bare 'data': 'how much data is sent between the nodes' is the job's traffic)
_DATA_MOVED = re.compile(r"(?:数据集|图片|图像|文件|样本)[^，,。;；]{0,12}?(?:传输|传|拷贝|拷|复制|搬)|"
                         r"(?<![A-Za-z])(?:images?|files|samples|dataset)\s+(?:\w+\s+){0,3}?(?:transferred|copied|moved|"
                         r"sent|streamed|fetched)(?![A-Za-z])", re.IGNORECASE)
