"""What a turn asks for: a diagnosis, knowledge, a what-if, the reasoning behind the last answer, a
correction, help, or something outside what the product does.

Deterministic keyword rules, checked in a fixed order; each rule names the words that trigger it so
a misread turn can be traced to one pattern.
"""

import re
from enum import StrEnum

_IC = re.IGNORECASE


class Intent(StrEnum):
    """The kinds of turn the chat answers differently."""

    DIAGNOSE = "diagnose"
    KNOWLEDGE = "knowledge"
    WHAT_IF = "what_if"
    WHY = "why"
    CORRECTION = "correction"
    HELP = "help"
    OUT_OF_SCOPE = "out_of_scope"
    WHICH_LINK = "which_link"


_HELP = re.compile(r"^\s*(?:/?help|帮助|help me|hi|hello|hey|你好|您好|嗨|在吗)\s*[!！.。?？]*\s*$|what can you do|"
                   r"how (?:do|can) i use (?:you|this)|what do you do|who are you|你(?:能|可以|会)(?:做|干)(?:什么|啥)|"
                   r"怎么用你|你是谁|能帮我(?:做)?什么|使用说明", _IC)
_WHY = re.compile(r"^\s*(?:why|为什么|为啥|why\?)\s*[?？]?\s*$|why (?:do|did) you (?:say|think|conclude|suggest|recomme"
                  r"nd)|"
                  r"why is that|why that|how did you (?:get|conclude|calculate|compute|arrive|figure)|how do you know|"
                  r"what(?:'s| is) (?:the|your) (?:reasoning|evidence|basis)|explain (?:that|this|your|the reasoning)|"
                  r"show (?:me )?(?:the|your) (?:reasoning|evidence|math|working)|where does .* come from|"
                  r"为什么(?:这么|这样)说|为什么(?:是|会是)这个结论|为啥这么说|依据(?:是什么|呢)|根据(?:是什么|呢|什么)"
                  r"|"
                  r"怎么(?:得出|算出|判断出)(?:的|来的)|怎么算的|理由(?:是什么|呢)|凭什么|你怎么知道|推理过程|为什么判"
                  r"断|"
                  r"为什么认为|为什么你(?:觉得|认为|说)", _IC)
_CORRECTION = re.compile(r"^\s*(?:actually|correction|sorry|oops|wait|no[,，]|nope|not quite|my bad|i meant|"
                         r"不对|错了|更正|纠正|说错了|搞错了|不是的|抱歉|其实)|(?:^|[\s,，。.])(?:actually|i meant|i me"
                         r"an|"
                         r"should be|should have said|correction|rather|其实是|应该是|我是说|我说错了|写错了|改一下|更"
                         r"正一下)"
                         r"(?:[\s,，:：]|$)|(?:not|不是)\s*\S+?\s*(?:but|而是|，是|,\s*it'?s)", _IC)
_SLOW = re.compile(r"slow|bottleneck|stuck|waiting|idle|underutili|low (?:gpu )?util|not scaling|doesn'?t scale|"
                   r"scal(?:e|ing) (?:badly|poorly)|speed ?up|throughput|慢|瓶颈|上不去|卡住|等待|利用率|扩展性|加速比|"
                   r"不达预期|效率低|diagnos|诊断|排查|troubleshoot|problem|问题|why|为什么|怎么回事|咋回事|help|帮我看"
                   r"",
                   _IC)
_DOMAIN = re.compile(r"GPU|NCCL|bandwidth|带宽|network|网络|网卡|NIC|train|训练|iperf|all[-_ ]?reduce|gradient|梯度|"
                     r"checkpoint|node|节点|机器|cluster|集群|RDMA|InfiniBand|RoCE|latency|延迟|storage|存储|model|模型"
                     r"|"
                     r"batch|parallel|并行|cloud|云|instance|实例", _IC)
_QUESTION = re.compile(r"[?？]|吗|么|呢|是否|能否|能不能|要不要|会不会|是不是|怎么|如何|多少|哪|什么|啥|"
                       r"^(?:how|what|which|why|when|should|would|could|can|is|are|do|does|will)\b|"
                       r"\b(?:explain|tell me|difference)\b|讲讲|说说|介绍|区别", _IC | re.M)


_CLUSTER = r"[A-Za-z0-9][A-Za-z0-9_.-]{0,62}"
_WHICH_LINK = (
    re.compile(r"\b(?:which|what)\s+(?:\w+\s+)?(?:links?|NICs?|ports?|switch(?:es)?|cables?|uplinks?|nodes?|"
               r"elements?|parts?)\b[^?\n]{0,40}?\b(?:bad|broken|slow|slower|faulty|at fault|failing|degraded|"
               r"the problem|wrong|sick)\b[^?\n]{0,30}?\b(?:in|on|of)\s+(?:the\s+)?(?:cluster\s+(?P<name>"
               + _CLUSTER + r")|(?P<before>" + _CLUSTER + r")\s+cluster)", _IC),
    re.compile(r"\b(?:is there|are there|any)\s+(?:a\s+)?(?:bad|broken|slow|faulty|degraded)\s+(?:links?|NICs?|"
               r"ports?|switch(?:es)?|cables?|uplinks?)\b[^?\n]{0,20}?\b(?:in|on)\s+(?:the\s+)?(?:cluster\s+"
               r"(?P<name>" + _CLUSTER + r")|(?P<before>" + _CLUSTER + r")\s+cluster)", _IC),
    re.compile(r"(?:集群\s*(?P<name>" + _CLUSTER + r")|(?P<before>" + _CLUSTER + r")\s*集群)[^？?\n]{0,8}?"
               r"(?:哪条|哪个|哪根|哪台|哪些|哪里|哪儿|有没有)[^？?\n]{0,8}?(?:链路|网卡|端口|交换机|线|节点|上行|连接)?"
               r"[^？?\n]{0,8}?(?:有问题|坏|慢|故障|出问题|异常|不正常)", _IC),
)


def which_link_cluster(text: str) -> str | None:
    """The cluster named in "which link is bad in cluster X?" / "X 集群哪条链路有问题？", else None."""
    for pattern in _WHICH_LINK:
        m = pattern.search(text)
        if m:
            return m["name"] or m["before"]
    return None


def classify(text: str, *, has_facts: bool, has_changes: bool, topics: list[str],
             has_previous_facts: bool, has_previous_findings: bool) -> Intent:
    """The intent of one turn; order of the checks is the priority."""
    if _HELP.search(text) and not has_facts:
        return Intent.HELP
    if _WHY.search(text) and (has_previous_findings or has_previous_facts) and not has_changes:
        return Intent.WHY
    if has_changes:
        return Intent.WHAT_IF
    if _CORRECTION.search(text) and has_facts and has_previous_facts:
        return Intent.CORRECTION
    if topics and _QUESTION.search(text):
        return Intent.KNOWLEDGE
    if has_facts or _SLOW.search(text) and _DOMAIN.search(text):
        return Intent.DIAGNOSE
    if topics:
        return Intent.KNOWLEDGE
    if _SLOW.search(text) and has_previous_facts:
        return Intent.DIAGNOSE
    return Intent.OUT_OF_SCOPE


# Knowledge topics: a key, the heuristics of the article it draws on, and the words that raise it.
TOPICS: dict[str, tuple[list[str], re.Pattern[str]]] = {
    "only-way": (["H36", "H34", "H39"], re.compile(
        r"唯一(?:的)?(?:出路|办法|方法|选择|途径)|只能加带宽|除了(?:加|升级|买)带宽|不加带宽|升不了带宽|加不了带宽|预算"
        r"有限|"
        r"only (?:way|option|solution|fix)|have to (?:buy|upgrade)|besides (?:adding|buying|upgrading)|other than "
        r"(?:adding|buying|upgrading)|without (?:upgrading|more bandwidth|buying)|can'?t (?:upgrade|afford)|"
        r"cannot (?:upgrade|afford)|(?:limited|tight) budget|software (?:fix|remed|option)", _IC)),
    "single-node": (["H37", "H20"], re.compile(
        r"(?:单机(?:多卡|\d+卡|[一二三四五六七八]卡)?|单台(?:机器|服务器)?|single[- ](?:node|machine|server|box)|"
        r"one (?:node|machine|server|box))[^。.?？]*(?:网络|带宽|网卡|network|bandwidth|NIC|interconnect)", _IC)),
    "cloud": (["H38", "H24"], re.compile(
        r"^(?=[\s\S]*(?:云|cloud|AWS|GCP|Azure|阿里云|腾讯云|华为云|instance|实例))"
        r"(?=[\s\S]*(?:带宽|bandwidth|network|网络))(?=[\s\S]*(?:选|choose|pick|configur|配置|select|规格|which|哪|"
        r"what kind|recommend))", _IC)),
    "latency": (["H18", "H19"], re.compile(
        r"延迟(?:和|与|跟|还是|vs)带宽|带宽(?:和|与|跟|还是|vs)延迟|latency (?:vs\.?|versus|or|and) bandwidth|"
        r"bandwidth (?:vs\.?|versus|or|and) latency|latency[- ]bound|延迟(?:问题|瓶颈)|是延迟还是带宽|"
        r"(?:difference|区别)[^。.?？]*(?:latency|延迟)|跨(?:可用区|地域|区域)[^。.?？]*(?:训练|影响|行不行|可以)|"
        r"cross[- ](?:zone|region|AZ)[^.?]*(?:training|ok|okay|fine|hurt|impact)", _IC)),
    "compression": (["H25"], re.compile(
        r"梯度压缩|梯度量化|压缩梯度|gradient compression|compress(?:ing)? (?:the )?gradients?|quanti[sz]\w* "
        r"(?:the )?gradients?|gradient quanti[sz]\w*|PowerSGD|error feedback|误差补偿", _IC)),
    "accumulation": (["H26"], re.compile(
        r"梯度累积|梯度累加|gradient accumulation|grad(?:ient)? accum\w*|accumulat\w* (?:the )?gradients?", _IC)),
    "async": (["H27"], re.compile(r"异步训练|异步更新|async\w* (?:training|SGD|updates?)|asynchronous", _IC)),
    "checkpoint": (["H29", "H3"], re.compile(
        r"checkpoint[^。.?？]*(?:频率|frequen|how often|bandwidth|带宽|慢|slow|network|网络|影响|impact)|"
        r"(?:保存|存)(?:checkpoint|检查点)[^。.?？]*(?:频率|带宽|慢|影响)|检查点", _IC)),
    "topology": (["H28"], re.compile(r"参数服务器[^。.?？]*(?:还是|vs|和|与|对比)|"
                                     r"ring all[-_ ]?reduce[^.?]*(?:vs|or|versus"
    "|better)|"
                                     r"(?:vs|versus|or) (?:a )?parameter server|拓扑|topology|同一机架|same rack",
                                     _IC)),
    "iperf3": (["H11", "H31"], re.compile(
        r"iperf3?[^。.?？]*(?:怎么|如何|命令|用法|how|command|run|use|usage)|(?:怎么|如何|how (?:do|to|can))[^。.?？]*"
        r"(?:测|measure|test)[^。.?？]*(?:带宽|bandwidth|throughput|吞吐)", _IC)),
    # the tool asked about (how to run it, what its figures mean), not a figure of it said as a symptom
    "nccl-tests": (["H33"], re.compile(
        r"(?:怎么|如何|怎样|how (?:do|to|can|should)|what (?:is|are|does)|什么是|是什么|什么意思|啥意思|meaning of|"
        r"explain|区别|difference|怎么看|how to read|interpret|which (?:number|figure|line|column)|哪个(?:数|值|指标)|"
        r"看哪)[^。.?？]*(?:nccl-tests|nccl tests|all_reduce_perf|busbw|bus ?bandwidth|algbw)|"
        r"(?:nccl-tests|nccl tests|all_reduce_perf|busbw|bus ?bandwidth|algbw)[^。.?？]*(?:mean|是什么|什么意思|啥意思|"
        r"怎么看|怎么用|怎么跑|怎么测|how (?:do|to|can)|区别|difference|interpret|which one)|"
        r"(?:怎么|如何|how)[^。.?？]*(?:测|measure)[^。.?？]*(?:all[-_ ]?reduce|集合通信|NCCL)", _IC)),
    # GPUDirect RDMA asked about: whether to turn it on, what it does, how to check it
    "gdr": (["H22"], re.compile(
        r"(?:要不要|需不需要|需要|是否(?:需要|要)?|该不该|应该|怎么|如何|有必要)\s*(?:开|开启|启用|打开|用|上|配置?)?\s*"
        r"(?:GDR|GPUDirect(?:\s*RDMA)?|GPU\s*Direct|nvidia[-_]peermem)|"
        r"(?:GDR|GPUDirect(?:\s*RDMA)?|nvidia[-_]peermem)[^。.?？]{0,12}(?:有用|有必要|有什么用|是什么|怎么开|怎么确认|生效)|"
        r"(?:do|should|would|can) (?:we|i|you) (?:need|enable|use|turn on|have)\s+(?:GDR|GPUDirect|GPU Direct|"
        r"nvidia-peermem)|(?:what is|how (?:do|to|can) (?:i|we)? ?(?:enable|check|verify|confirm))\s+(?:GDR|GPUDirect|"
        r"GPU Direct|nvidia-peermem)|is (?:GDR|GPUDirect(?: RDMA)?) (?:needed|necessary|worth|required|working)", _IC)),
    "how-much": (["H20", "H21", "H22", "H23"], re.compile(
        r"需要多少带宽|多少带宽(?:才)?(?:够|合适)|带宽(?:要|需要)多(?:少|大)|how much bandwidth|what (?:NIC|network|ban"
        r"dwidth) "
        r"(?:do|should|would)|(?:do|does) (?:we|i|it) need (?:InfiniBand|IB|RDMA|RoCE|100G|a faster)|"
        r"(?:enough|sufficient) (?:bandwidth|network)|够不够|够用吗|(?:is|are) \S+ enough|需要(?:上)?(?:IB|RDMA|Infin"
        r"iBand)", _IC)),
    "procedure": (["H30", "H31", "H32", "H33", "H34", "H35"], re.compile(
        r"怎么排查|如何排查|排查(?:流程|步骤|思路)|怎么(?:判断|确认|知道)[^。.?？]*(?:带宽|瓶颈|网络)|是不是带宽(?:的)?"
        r"(?:问题|瓶颈)|"
        r"how (?:do|can|should) (?:i|we) (?:tell|know|check|diagnose|troubleshoot|find out|confirm)|"
        r"is (?:it|the network|bandwidth|the bandwidth) (?:the|a|really the) bottleneck|troubleshooting (?:steps|proced"
        r"ure)|"
        r"where (?:do|should) (?:i|we) start", _IC)),
    "batch": (["H7"], re.compile(r"(?:batch ?size|批大小|batch)[^。.?？]*(?:带宽|bandwidth|通信|communication|traffic)|"
                                 r"(?:bigger|larger|大的?) batch[^。.?？]*(?:more|更多|通信|bandwidth)", _IC)),
    "parallelism": (["H13", "H14", "H15", "H16", "H6"], re.compile(
        r"(?:并行(?:方式|策略)|parallelism)[^。.?？]*(?:带宽|通信|bandwidth|communication|敏感|sensitiv)|"
        r"which parallelism|哪种并行|(?:tensor|pipeline|data) parallel\w*[^.?]*(?:bandwidth|sensitive|communicat)",
        _IC)),
    "why-bandwidth": (["H1", "H2", "H3", "H4", "H5"], re.compile(
        r"(?:为什么|为啥)[^。.?？]*(?:需要|吃|占用?|消耗)[^。.?？]*带宽|训练(?:为什么|为啥)?(?:需要|吃|占)带宽|"
        r"why (?:does|do) (?:distributed )?training (?:need|use|consume|eat)[^.?]*bandwidth|"
        r"what (?:uses|consumes|eats) (?:the )?bandwidth", _IC)),
}


def knowledge_topics(text: str) -> list[str]:
    """Topic keys the question touches, in the order of TOPICS (most specific first)."""
    return [key for key, (_, pattern) in TOPICS.items() if pattern.search(text)]


def topic_sources(topic: str) -> list[str]:
    """The article heuristics (H-ids) a topic draws on."""
    return TOPICS[topic][0]
