"""Scaling comparisons: the most telling symptom there is, read as facts.

'Two machines are slower than one', 'it gets worse with every node I add', '3 hours on one box, 5 hours
on two', '单机一个 epoch 20 分钟，两台反而要 35 分钟', '慢了大约 8 倍' — each says how the job scales:
  job.negative_scaling  the larger run is slower than the smaller one (or worsens with every node)
  job.speedup           throughput of the job ÷ throughput of the baseline (baseline time ÷ job time)
  job.baseline_nodes / job.baseline_gpus   the size of the smaller run
The baseline side's counts are returned too, so the caller keeps them from overriding the job's.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import lru_cache

from bwdoctor.chat import text as tx
from bwdoctor.chat.counts import COUNT, _count, elided_node_counts
from bwdoctor.chat.entities import GPU_MARK
from bwdoctor.chat.extract import Understood
from bwdoctor.chat.scopes import OTHER_CLUSTER
from bwdoctor.chat.symptoms import ODD_STEPS
from bwdoctor.chat.units import MULTIPLE_WORDS, parse_number, time_to_seconds

_CN = "一二两三四五六七八九十百"

_IC = re.IGNORECASE

_SMALL = (r"(?:a single|single|one|1|单|一)\s*(?:-|\s)?(?:台|个)?\s*(?:node|machine|server|box|host|instance|GPU|card|"
          r"机器|服务器|节点|机|卡|张卡|GPU)|单机(?:单卡|多卡)?|单节点|单卡|单台|一台")
# 'slower than the single node', 'even slower than that one node', 'slower than the 2-node run', 'slower than one'
_SLOWER_THAN = re.compile(r"(?:slower|worse|longer|(?:much |a lot |way )?more time|less throughput|lower throughput|less|lower)(?:\s+(?:on|with|using|across|"
                          r"over)\s+[^,.;:!?]{1,30}?|\s+(?:in\s+)?(?:multi-?(?:node|machine|host|GPU)|distributed|parallel))?"
                          r"\s+than\s+(?:on\s+|with\s+|in\s+)?"
                          r"(?P<obj>[^,.;:!?，。；：\n]{0,40})", _IC)
# a figure right after 'less than' bounds it ('less than 2x the throughput of one node', 'lower than 50% of …')
_A_BOUND = re.compile(r"\s*(?:about\s+|roughly\s+|around\s+|~\s*)?\d+(?:\.\d+)?\s*(?:x|×|times|%|倍|-?fold)(?![A-Za-z])", _IC)
# '比单机还慢', '远远比单机多卡训练要慢', '不如 1 卡', '赶不上一台', '比 1 台服务器 5 张卡耗时更长'
_SLOWER_THAN_ZH = re.compile(r"(?:比|较)(?P<obj>(?:\s*[A-Za-z][\w.-]{3,40})?[^，。,;；！？?!\n]{1,24}?)(?:还|都|更|要|反而|也)?\s*(?:耗时|时间|用时)?"
                             r"(?:更|还|要)?(?:慢|差|长|久|低)"
                             r"|(?:不如|还不如|赶不上|比不上|不及)(?P<obj2>[^，。,;；！？?!\n]{1,16})")
# 'not as fast as on one node', '多机训练的速度没有单机快', '8 卡还没有 4 卡快': the larger run not as fast as the smaller
_NOT_AS_FAST = re.compile(r"(?:not|n't|no)\s+(?:nearly\s+|even\s+|quite\s+)?(?:as|so)\s+(?:fast|quick)\s+as\s+(?:on\s+|with\s+|"
                          r"using\s+|in\s+)?(?P<obj>[^,.;:!?，。；：\n]{1,30})"
                          r"|(?:没有|没)(?P<obj2>[^，。,;；！？?!\n]{1,16}?)(?:那么|这么|这样)?\s*(?:快|高)(?![了些点])"
                          # s14 'takes twice as long as on 2 nodes', '3x as slow as one node': the smaller run after 'as'
                          r"|(?:twice|two times|three times|thrice|four times|\d+(?:\.\d+)?\s*(?:x|×|times))\s+as\s+"
                          r"(?:slow|long)\s+as\s+(?:on\s+|with\s+|using\s+|in\s+)?(?P<obj3>[^,.;:!?，。；：\n]{1,30})", _IC)
# s12 slow compared to: 'Very slow during multi GPU training compared to single GPU training', 'multi-node is slow
# relative to one node': the run asked about slower than the one it is compared with
_SLOW_COMPARED = re.compile(r"(?<![A-Za-z])(?:slow|slower|worse)(?![A-Za-z])[^,.;:!?，。；：\n]{0,40}?\s(?:compared (?:to|with)|"
                            r"relative to|vs\.?|versus)\s+(?:on\s+|with\s+|using\s+|in\s+|the\s+)?"
                            r"(?P<obj>[^,.;:!?，。；：\n]{1,40})", _IC)
_NOT_COMPARED = re.compile(r"(?:(?<![A-Za-z])(?:not|no|never)|n't|并不|并没有?|没有?|不)\s*(?:any\s+|much\s+|really\s+|even\s+)?\Z",
                           _IC)
# (`a` starts at a word: a lazy run that may start in a pasted block's blanked spaces costs its length squared)
_FASTER_THAN = re.compile(r"(?P<a>[^\s,.;:!?，。；][^,.;:!?，。；\n]{0,29}?)\s+(?:is|are|was|were|ran|runs|run|got|gets)\s+(?:\w+\s+)?"
                          r"(?:(?:faster|quicker)\s+than|(?P<fk>twice|two times|three times|thrice|four times|"
                          # h-step the smaller run so many times as fast ('1 node is twice as fast as 2 nodes')
                          r"\d+(?:\.\d+)?\s*(?:x|×|times))\s+as\s+(?:fast|quick)\s+as)\s+(?P<b>[^,.;:!?，。；\n]{1,30})"
                          r"|(?P<a2>[^，。,;；！？?!\n]{1,16}?)比(?P<b2>[^，。,;；！？?!\n]{1,16}?)(?:还|更|要)?(?:快|短)", _IC)
# '两台反而要 1 小时 45 分钟', '4 卡并行反而接近 3 小时', '反而更慢'
_ANOTHER_CLUSTER = re.compile(rf"{OTHER_CLUSTER}|旧集群|老集群|原来的集群|之前的集群|(?<![A-Za-z])(?:old|previous) cluster", _IC)
_INSTEAD = re.compile(r"(?:反而|竟然|居然|却|倒)(?:每(?:个)?\s*(?:step|步|iter|iteration|迭代|epoch|轮)|速度|训练|时间|耗时|用时|"
                      r"(?:step|epoch)\s*(?:time|耗时|时间)?)?\s*(?:还|更|要|接近|变得?)?(?:更|还)?(?:慢|长|久|低|差|要|接近|需要|花)")
# s34 the larger run said slower with the smaller left unsaid: '分布式更慢了', '多机反而更慢', '多卡训练变慢了',
# 'distributed training is even slower' (a comparand said, 'slower than …', is read above; a wish or a question is none)
_LARGER_SLOWER = re.compile(r"(?:分布式|多机|多节点|多卡|双机|两机|双节点)(?:多卡)?\s*(?:的)?\s*(?:训练|运行|版本|任务|模式)?\s*"
                            r"(?:反而|竟然|居然|却|倒)?\s*(?:还|要)?\s*(?:更慢|变慢|更加慢)|"
                            r"(?<![A-Za-z])(?:distributed|multi-?node|multi-?GPU|multi-?machine)\s+(?:training\s+|runs?\s+|jobs?\s+|"
                            r"version\s+|setup\s+)?(?:is|was|gets|got|became|becomes|turned\s+out|turns\s+out)\s+(?:to\s+be\s+)?"
                            r"(?:even\s+|actually\s+|much\s+)?slower(?![A-Za-z])(?!\s+than)|"
                            # h-step 'going multi-node made it slower', 'moving to 2 nodes makes training slower'
                            r"(?<![A-Za-z])(?:going|moving|switching|scaling(?:\s+out)?)\s+(?:to\s+)?(?:multi-?node|"
                            r"multiple (?:nodes|machines)|distributed|more (?:nodes|machines)|(?:2|two|4|four|8|eight) "
                            r"(?:nodes|machines))\s+(?:has\s+)?(?:made|makes|make)\s+(?:it|training|things|everything|"
                            r"the (?:training|job|run))\s+(?:even\s+|actually\s+|much\s+)?slower(?![A-Za-z])(?!\s+than)", _IC)
# counts-zh-s13 fell instead: '速度不升反降', '速度没有提升，反而下降了', '吞吐却降低了': the pace fell where more machines
# should have raised it (the pace named before it: '显存反而下降' or '时间反而降低' is no slower run)
_INSTEAD_FELL = re.compile(r"不(?:升|增|涨)反(?:降|减)|不快反慢|(?:反而|竟然|居然|却|倒)\s*(?:还)?\s*(?:下降|降低|降了|变少|减少|掉了)")
_PACE_BEFORE = re.compile(r"速度|吞吐|性能|it/s|samples?/s|tokens?/s|tok/s|样本数|效率|MFU|TFLOPS", _IC)
_NOT_PACE_BEFORE = re.compile(r"时间|耗时|用时|显存|内存|loss|损失|占用|延迟|利用率", _IC)
# counts-zh-s13 time times: '双机训练耗时是单机的 2 倍', '两台的总时间是一台的 1.5 倍': the larger run takes longer for the same work
_TIME_TIMES = re.compile(r"(?:耗时|训练时间|总时间|总耗时|用时|一个\s*epoch\s*(?:的)?(?:时间|耗时)?)\s*(?:是|为|变成了?|达到了?|居然是|竟然是)\s*"
                         r"(?P<obj>[^，。,;；！？?!\n]{1,12}?)的\s*(?P<k>\d+(?:\.\d+)?|[两二三四五六七八九十])\s*(?:多)?倍")
_SMALL_FASTER = re.compile(r"(?:单机|单节点|单台|一台(?:机器)?|1\s*台(?:机器)?|1\s*机)(?:\s*(?:上|的|跑|训练|单卡|多卡|\d{1,2}\s*卡))*"
                           r"\s*(?:反而|倒是|倒|竟然|居然)(?:还)?(?:更|要)?快")
# h-step the smaller run faster than a larger one left uncounted: '单卡比多卡快', '单机训练反而比多机还快', '一台机器跑得比
# 分布式还快' (the smaller run is the baseline; '多机单卡比单机单卡慢' is read above, the cards there each machine's)
_SMALL_FASTER_THAN = re.compile(
    r"(?<![多机])(?P<small>单机|单节点|单台(?:机器)?|一台(?:机器)?|单卡|单张卡|一张卡)(?!单卡|多卡|\d)\s*(?:上)?\s*(?:训练|跑|运行)?\s*"
    r"(?:得|的)?\s*(?:速度)?\s*(?:反而|竟然|居然|却|倒)?\s*比\s*"
    r"(?:多机|多卡|多节点|分布式|双机|两机|双卡|两卡|多台(?:机器)?)(?:多卡|单卡)?\s*(?:训练|跑|运行)?\s*(?:的)?\s*(?:速度)?\s*"
    r"(?:还|都|要)?\s*(?:更)?快")
_ASKING = re.compile(r"是否|会不会|吗|(?<![什怎])么|能否|可能|要不要|如果|假如")
_WHY = re.compile(r"为什么|为啥|怎么|咋|(?<![A-Za-z])why(?![A-Za-z])", _IC)


_WONDER_ZH = re.compile(r"会不会|是否|能否|可不可以|要不要|会[^，。,;；！？?!\n]{0,12}(?:吗|么)")
_WONDER_EN = re.compile(r"\s*(?:(?:and|so|but)\s+)?(?:will|would|could|might|should|what if|if|suppose|assuming|"
                        r"is it going to|are we going to)(?![A-Za-z])", _IC)


def _wondered(text: str, start: int, end: int) -> bool:
    """s14 'Will 4 nodes be slower than 1 node?', '两机会不会比单机还慢？', 'If we add a node, would it be slower than
    one?': a comparison wondered about, not one seen; a why-question ('Why are 2 nodes slower than 1?'), one about
    what is normal ('Is it normal that …?') or a conditional that reports ('If I run on 2 nodes it is slower than on
    one') says it was seen."""
    clause = tx.clause_bounds(text, start)
    if _WONDER_ZH.search(text, clause[0], max(end, clause[1])):
        return True
    sentence = tx.sentence_bounds(text, start)
    head = _WONDER_EN.match(text, sentence[0], start)
    if head is None:
        return False
    return bool(re.search(r"[?？]", text[start:sentence[1] + 1]))


def _asked(text: str, a: int, b: int) -> bool:
    """counts-zh-s13: whether the words from a to the end of their clause ask whether it is so ('双机是否会变慢？'); a
    why-question asks about what happened ('为什么双机变慢了？' says it did)."""
    clause = tx.clause_bounds(text, a)
    end = max(b, clause[1])
    if _ASKING.search(text, a, end):
        return True
    mark = re.compile(r"[?？]").search(text, a, min(len(text), end + 1))
    return mark is not None and not _WHY.search(text, tx.sentence_bounds(text, a)[0], mark.start())


_WORSE_WITH_MORE = re.compile(
    r"(?:gets?|got|getting|becomes?|grows?)\s+(?:even\s+)?(?:worse|slower|longer)\s+(?:with|for)\s+(?:every|each)\s+"
    r"(?:node|machine|server|GPU|worker)|(?:the more|more) (?:nodes|machines|GPUs|servers)[^.。]{0,30}(?:slower|worse|"
    r"longer)|slow(?:s)? down as (?:we|I) add|negative scaling|scales? negatively|越加越慢|越多越慢|"
    r"(?:机器|节点|卡|GPU)越(?:多|加)[^。]{0,16}?(?:越慢|反而慢|越长|越大|越久|反而越长|反而越慢)|"
    r"加(?:了)?(?:机器|节点|卡)(?:以后|之后|后)?(?:反而|却)?(?:更|变)慢|"
    # '加了一台机器之后速度反而下降了', '增加到两个节点后吞吐却降低了'
    # (counts-zh-s13 '扩到两机就慢了一倍', '加到4台反而更慢', '扩展到 4 个节点后速度反而下降': the machines by 台 or 机 alone)
    r"(?:加|增加|添加|多加|扩展|扩容|扩)(?:了|上|到|至)?\s*(?:(?:第?[一两二三四五六七八九十\d]{1,2}|几)?\s*(?:台|个|张|块)?\s*"
    r"(?:机器|节点|服务器|卡|GPU)|(?:第?[一两二三四五六七八九十\d]{1,2}|几)\s*(?:台|机(?![器房架柜])))"
    r"[^。；;\n]{0,12}?(?:反而|却|竟然|居然|就)[^。；;\n，,]{0,8}?(?:慢|下降|降低|变长|更长|更久|掉|变差|减少)|"  # counts-s11 就
    # 'after adding a second node the throughput dropped', 'adding more GPUs made it slower'
    r"(?:after|when|once|since)\s+(?:I\s+|we\s+)?add(?:ing|ed)?\s+(?:a\s+|an\s+|another\s+|one more\s+|more\s+|a second\s+|"
    r"\w+\s+(?:more\s+)?)?(?:nodes?|machines?|servers?|GPUs?|hosts?)\b[^.;。；\n]{0,40}?(?:slower|drops?|dropped|went down|"
    r"goes down|decreased|got worse|gets worse|fell|falls)|adding\s+(?:a\s+|another\s+|more\s+|a second\s+|\w+\s+(?:more\s+)?)?"
    r"(?:nodes?|machines?|servers?|GPUs?|hosts?)\s+(?:\w+\s+){0,2}?(?:makes?|made)\s+(?:it|training|things|the job)\s+slower|"
    # 'adding a second node makes every epoch take longer' (an epoch is the same work; a step on more GPUs may be more)
    r"adding\s+(?:a\s+|another\s+|more\s+|a second\s+|\w+\s+(?:more\s+)?)?(?:nodes?|machines?|servers?|GPUs?|hosts?)\s+"
    r"(?:\w+\s+){0,2}?(?:makes?|made)\s+(?:every|each|the|an?)?\s*(?:(?:training\s+)?(?:epoch|run)|training)s?\s+"
    r"(?:take\s+|takes\s+)?(?:longer|slower)|"
    # 'with more nodes the training time goes up instead of down', 'as we add nodes the epoch time increases'
    r"(?:with|as (?:we|I) add|adding)\s+more\s+(?:nodes|machines|servers|GPUs|hosts)[^.;。；\n]{0,30}?(?:training|epoch|"
    r"total|run|wall[- ]?clock)\s+(?:time|duration)s?\s+"
    r"(?:goes up|went up|increases?|increased|grows?|grew|rises?|rose)|"
    # '每加一台机器就更慢一点', '每增加一个节点，step 时间都会变长'
    r"每(?:加|增加|多|扩|添)(?:一|1)?\s*(?:台|个|张|块)?\s*(?:机器|节点|服务器|卡|GPU|node|机)[^。；;\n]{0,16}?"
    r"(?:更慢|变慢|越慢|慢一(?:点|些)|变长|更长|越长|更久|下降|降低|掉)|"
    r"(?:slower|worse) (?:on|with) (?:more|additional) (?:nodes|machines|GPUs)|"
    # s14 'every node I add makes the step slower', 'each extra machine slows training down'
    r"(?:every|each)\s+(?:(?:added|extra|new|additional)\s+)?(?:node|machine|server|host|GPU)\s+(?:(?:I|we)\s+add(?:ed)?\s+)?"
    r"(?:just\s+|only\s+)?(?:makes?|made|slows?|slowed)\s+(?:it|things|everything|training|the \w+(?: time)?)\s+"
    r"(?:(?:even|a bit|a little|much)\s+)?(?:slower|longer|worse|down)|"
    # 'my training gets slower when I add more nodes', 'it runs slower as we add machines'
    r"(?:gets?|getting|got|becomes?|became|runs?|ran|is|are)\s+(?:much\s+|even\s+|a lot\s+)?(?:slower|worse)\s+(?:when|as|whenever|"
    r"every time|each time|once|after)\s+(?:I|we|you)\s+(?:add|added|adding|use|scale to)\s+(?:more|another|additional|a second|"
    r"extra)\s+(?:nodes|machines|servers|hosts|node|machine|server|GPUs)|"
    r"(?:time|step time|epoch time|runtime|it) (?:grows|increases|goes up|rises) (?:with|for) (?:every|each) (?:added |extra |new )?"
    r"(?:node|machine|server|GPU|worker)", _IC)
_TIMES_SLOWER = re.compile(
    rf"(?P<k>\d+(?:\.\d+)?)\s*(?:x|×|times|倍)\s*(?:slower|longer|more time)|慢了?\s*(?:大约|约|近|将近|差不多)?\s*"
    rf"(?P<k2>\d+(?:\.\d+)?|[{_CN}]{{1,4}})\s*(?:多)?\s*倍|(?P<k3>\d+(?:\.\d+)?)\s*倍(?:的)?(?:时间|慢)"
    r"|(?P<k4>twice|two times|three times|thrice|four times|\d+(?:\.\d+)?\s*(?:x|×|times))\s+as\s+(?:slow|long)"
    r"|(?P<half>half|a third|a quarter) as fast"
    r"|(?P<halved>(?<![A-Za-z])(?:halve[sd]|is cut in half|was cut in half|dropp?(?:ed|s)? (?:by )?(?:in )?half)(?![A-Za-z])|"
    r"(?:直接|几乎|基本|差不多)?(?:减半|砍半|少了一半|掉了一半|降了一半|下降了一半))"
    r"|(?:only|只有|仅)[^，。,;；]{0,16}?(?P<frac>1\s*/\s*\d+|三分之一|四分之一|五分之一|一半|half)\s*(?:of\s*)?(?:the\s*)?(?:speed|速度|throughput|吞吐)?",
    _IC)
_FRACTIONS = {"三分之一": 3, "四分之一": 4, "五分之一": 5, "一半": 2, "half": 2, "a third": 3, "a quarter": 4,
              "halves": 2, "halved": 2, "减半": 2, "砍半": 2, **MULTIPLE_WORDS}
# what is slower is not the job's pace: a collective, a link, a benchmark ('the all-reduce is 3x slower across nodes')
_NOT_THE_JOB = re.compile(r"all[-_ ]?reduce|all[-_ ]?gather|reduce[-_ ]?scatter|all-?to-?all|collective|busbw|algbw|bandwidth|带宽|"
                          r"latency|延迟|时延|nccl-tests|_perf|iperf|ib_\w+|通信|communication|comm\b|p2p|send|recv|"
                          r"loading|加载|启动|startup|init", re.IGNORECASE)
# '30% slower across 4 nodes', 'about 2x slower with 2 nodes': slower on a larger run, the smaller one left unsaid
_SLOWER_ON = re.compile(r"(?:(?P<pct>\d+(?:\.\d+)?)\s*%|(?P<k>\d+(?:\.\d+)?)\s*(?:x|×|times))\s+slower\s+"
                        r"(?:(?:when\s+)?(?:on|with|across|using|running on|over|in)\s+)(?P<obj>[^,.;:!?，。；：\n]{1,30})",
                        re.IGNORECASE)

# cmp-s10 settings compared: 'ZeRO-3 is 2x slower than ZeRO-2 on 2 nodes', 'fp16 is 30% slower than bf16 on 4 nodes',
# '2 台机器上 zero3 比 zero2 慢两倍': what is compared is a setting (a name with a version or stage, a framework, a
# transport, an algorithm, KEY=VALUE) on the same machines; a size after it is where both ran, not a smaller run
_SETTING = re.compile(r"(?:·{2,}|[A-Za-z][A-Za-z_]*[-_ ]?\d+(?:\.\d+)*(?![\w.])|(?-i:[A-Z][A-Z0-9]*_[A-Z0-9_]+)(?:=\S+)?|\w+=\w+|"
                      r"(?:ZeRO|DDP|FSDP|Megatron|DeepSpeed|Horovod|Gloo|NCCL|MPI|TCP|RDMA|IB|RoCE|Ring|Tree|NVLS|CollNet|"
                      r"SHARP|GDR|GPUDirect|PyTorch|torch|CUDA|TF32|bf16|fp16|fp32|AMP|Adam|SGD|LAMB|activation checkpointing|"
                      r"gradient checkpointing|offload|overlap|bucket|stage|tensor parallel|pipeline parallel|"
                      # en-s12b collectives compared: 'all_gather is much slower than all_reduce on 4 nodes'
                      r"all[_-]?(?:reduce|gather|to[_-]?all)|reduce[_-]?scatter|broadcast|send[_/]?recv)(?![A-Za-z])|"
                      # a setting switched off, or the steps' usual pace: 'slower than without it', '比不开慢 30%',
                      # 'takes 10x longer than usual on our 4-node job'
                      r"不开|不用|不加|关掉|关闭|没开|没用|没加|(?<![A-Za-z])(?:without|w/o|disabled|turned off|usual|normal|"
                      r"average|the (?:rest|others|other steps|median))(?![A-Za-z])|平时|平常|正常|其他\s*(?:step|步)|其余)", _IC)
_LEADING = re.compile(r"(?:\s*(?:the|a|an|on|with|using|in|when|running|training|run|ran|it|we|I|did|does|was|is|just|only|"
                      r"our|that|those|these|even|用|在|跑|使用)(?![A-Za-z])\s*)*", _IC)
_AGAINST = re.compile(r"\s*(?:than|as|compared (?:to|with)|vs\.?|versus|relative to)\s+(?P<obj>[^,.;:!?，。；：\n]{1,40})", _IC)
_AGAINST_ZH = re.compile(r"(?:比|比起|相比|相比于|较)\s*(?P<obj>[^，。,;；！？?!\n]{1,24}?)\s*(?:还|都|更|要|反而|也)?\s*\Z")


def _a_setting(obj: str) -> bool:
    """cmp-s10 settings compared: whether the thing a run is compared with is a setting rather than a run's size."""
    rest = obj[_LEADING.match(obj).end():].lstrip()  # type: ignore[union-attr]
    m = _SETTING.match(rest)
    if not m:
        return False
    sizes = run_sizes(rest, 0, len(rest))
    if sizes and sizes[0][3] == 0 or _RUN_SINGLE.match(rest):
        return False
    tail = rest[m.end():]
    lead = len(tail) - len(tail.lstrip(" 的"))
    # a run named by its setting ('lora_finetune_single_device 单卡'): the size right after the name is that run's
    return not (run_sizes(tail, lead, len(tail)) and run_sizes(tail, lead, len(tail))[0][3] == lead
                or _RUN_SINGLE.match(tail, lead))


def _settings_compared(text: str, start: int, end: int) -> bool:
    """cmp-s10 settings compared: a figure of slowness whose other side is a setting ('2x slower than ZeRO-2 on 2 nodes',
    'zero3 比 zero2 慢两倍')."""
    after = _AGAINST.match(text, end)
    if after and _a_setting(after["obj"]):
        return True
    before = _AGAINST_ZH.search(text, max(tx.clause_bounds(text, start)[0], start - 30), start)
    return bool(before and _a_setting(before["obj"]))


def _sizes_of_the_runs(text: str, small: Size, big: Size, found: Scaling) -> list[Understood]:
    """The smaller run's size as the baseline (its span kept from the job's counts), the larger's machines as the job's."""
    fact = "job.baseline_gpus" if small[2] == "gpus" else "job.baseline_nodes"
    out = [Understood(fact, small[0], text[small[3]:small[4]], small[3], small[4])]
    found.baseline_spans.append((small[3], small[4]))
    if big[2] == "nodes" and big[0] > 0:
        out.append(Understood("job.nodes", big[0], text[big[3]:big[4]], big[3], big[4]))
    elif big[2] == "gpus" and small[2] == "gpus" and big[0] > small[0] > 0:
        # s11 bare classifier: 'GPU 从 8 张加到 16 张' — the larger run's GPUs are the job's, machines unsaid
        out.append(Understood("job.total_gpus", big[0], text[big[3]:big[4]], big[3], big[4], weak=True))
    return out


# A duration or a rate, with the size of the run it belongs to nearby.
_DURATION = re.compile(r"(?P<mi>\d+)\s*(?:min|mins|minutes?|分钟|分)\s*,?\s*(?P<ss>\d+(?:\.\d+)?)\s*(?:s|sec|secs|seconds?|秒)"
                       r"(?![A-Za-z/])|"  # '3 分 47 秒', '1 min 20 s'
                       r"(?P<hh>\d+(?:\.\d+)?)\s*(?:h|hrs?|hours?|小时|个小时|天|days?)\s*,?\s*(?P<mm>\d+)\s*(?:min|mins|minutes?|分钟|分|"
                       r"小时|h)(?![A-Za-z])|(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>h|hrs?|hours?|小时|个小时|min|mins|minutes?|分钟|s|sec|secs|"
                       r"seconds?|秒|ms|毫秒|days?|天)(?![A-Za-z])(?!/(?!\s*epoch\b))(?!\s*/\s*(?:it|step|iter))", _IC)  # '45 min/epoch'
_RATE = re.compile(r"(?P<num>\d+(?:\.\d+)?)\s*(?P<k>[kK](?![A-Za-z]{2}))?\s*(?P<unit>wps|ups|tok/s|tokens/s|words/s|"
                   r"TFLOP[Ss]?(?:/s)?(?![A-Za-z])|"  # model TFLOPs achieved: a rate of work, per GPU when '/GPU' follows
                   r"(?:img|imgs|images|samples|sample|seq|sequences|tokens|tok|"
                   r"it|its|iters?|iterations?|steps?|examples)\s*/\s*(?:s|sec|second)|(?:张|样本|条|tokens?)\s*/\s*(?:s|秒)|"
                   r"samples? per second|images? per second|tokens? per second|it/s|s/it|secs?/it|sec/iter|s/iter|"
                   r"(?:s|secs?|seconds?)\s*/\s*(?:iteration|step)|iterations? per second|steps? per second|"
                   # '30/s/gpu', '30 /sec per GPU': a per-GPU rate with its count unnamed (the GPU after it says per-GPU)
                   r"/\s*(?:s|sec)(?=\s*(?:/|per)\s*(?:gpu|card|device)))", _IC)
# 'the wps is just over 10k', 'throughput drops to 850 samples/s': the unit named before the figure
# (s14 never a figure whole-less or on the next line: '8 GPUs - 1200 samples/s⏎16 GPUs - 1500 samples/s')
_RATE_BEFORE = re.compile(r"(?P<unit>wps|ups|tokens/s|tok/s|samples/s|img/s|throughput|吞吐(?:量)?)[ \t]*(?:is|was|of|=|:|：|drops? to|"
                          r"falls? to|goes? (?:down|up) to|只有|是|为|降到|掉到)?\s*(?:(?:just|only|about|around|roughly|over|under|"
                          r"below|above|barely|~|约|大约)\s*)*(?P<num>\d+(?:\.\d+)?)(?!\d|\.\d)\s*(?P<k>[kK](?![A-Za-z]))?(?!\s*(?:%|GB|Gb|MB|Mb|"
                          r"[A-Za-z]+/s|nodes?|machines?|servers?|GPUs?|cards?|台|机|卡|节点|张))", _IC)
# '每秒 1200 张图', '每秒能跑 3 个 step', '每秒钟处理 5 万 tokens': the unit of time before the figure
_RATE_PER_SECOND = re.compile(r"每秒(?:钟)?\s*(?:能|可以|大约|约|只有|只能|才|仅)?\s*(?:处理|训练|跑|算|过)?\s*(?:了)?\s*"
                              r"(?P<num>\d+(?:\.\d+)?)\s*(?P<k>[kK万](?![A-Za-z]))?\s*(?:多\s*)?"
                              r"(?:(?P<step>(?:个\s*)?(?:steps?|iters?|iterations?|步|次迭代|个?迭代|batch(?:es)?))|"
                              r"(?:张|个|条|幅)?\s*(?:图片?|图像|样本|samples?|tokens?|images?|imgs?|句|序列)|张|条)", re.IGNORECASE)
# '单节点一个 step 几十秒', '要半个小时': durations said in round words, approximate (ratios only when they are clear)
_ROUGH_DURATION = re.compile(r"(?P<w>十几|几十|几百|几)\s*(?:个)?\s*(?P<unit>秒|分钟|小时|天)|(?P<n>[一两二三四五六七八九十\d]{1,3})?\s*个?半\s*(?:个)?\s*小时")
_ROUGH = {"几": 3, "十几": 15, "几十": 30, "几百": 300}
_SIZE = re.compile(rf"(?P<n>{COUNT})\s*(?:-|\s)?(?:台|个)?\s*(?P<w>nodes?|machines?|servers?|boxes|box|hosts?|instances?|"
                   rf"GPUs?|cards?|台(?:机器|服务器)?|机器|服务器|节点|机|卡|张卡|{GPU_MARK}+|workers?(?![\w-])|"
                   # s11 bare classifier: 'GPU 从 8 张加到 16 张' (run_sizes keeps it only after a GPU named)
                   r"张(?=\s*(?:$|[，,。；;、)）]|加|扩|增|升|到|变|的时候|时)))"
                   # '1xGPU', '8x GPUs': a count glued to its GPUs by a times sign
                   rf"|(?P<nx>{COUNT})\s*[x×]\s*(?P<wx>GPUs?|cards?)(?![A-Za-z])"
                   # 'both GPUs', 'both H100s', 'both nodes': two of them
                   rf"|(?<![A-Za-z])(?P<both>both)\s+(?:the\s+|our\s+)?(?P<wb>nodes|machines|servers|boxes|hosts|"
                   rf"GPUs|cards|{GPU_MARK}+s?)(?![A-Za-z])"
                   # s12 bare both: '40 min on a single server and 35 min on both': the two machines named before
                   r"|(?<![A-Za-z])(?:on|with|across|using)\s+(?P<both0>both)(?:\s+of\s+them)?"
                   r"(?=\s*(?:[,.;:!?)]|$|and\b|together|combined|(?:it\s+)?(?:takes?|took|needs?|is|was|runs?|ran|gets?|got|"
                   r"gives?|gave)\b|\d))"
                   rf"|(?P<single>单机|单节点|单卡|单台|一台|单个(?:节点|机器|服务器|主机)|"  # counts-s11 '单个节点'
                   # cnt one worker holding GPUs: '单个 worker 4 张卡', 'a single worker with 8 GPUs' (one machine)
                   rf"(?:单个|一个|(?<![A-Za-z])(?:a single|single|one))\s*worker(?=\s*(?:[,，、]\s*)?(?:每台|各|with|having|has)?\s*"
                   rf"(?:有|用)?\s*{COUNT}\s*(?:张|块|个)?\s*(?:GPUs?|cards?|卡|显卡|{GPU_MARK}))|"
                   rf"a single (?:node|machine|server|box|GPU)|single[- ](?:node|machine|server|box|GPU)|one (?:node|machine|"
                   rf"server|box|GPU))"
                   # GPUs named by a model the masks leave alone ('dual P4', 'single P4 GPU', '4 T4'): a letter and digits
                   rf"|(?P<gn>{COUNT}|a single|single)\s*(?:[x×]\s*)?(?:Tesla\s+)?(?P<gm>[PTKAL]\d{{1,3}})(?![\w.-])"
                   rf"(?:\s*(?:GPUs?|cards?))?", _IC)


@dataclass
class Scaling:
    """What the question says about scaling, as facts, and the spans they came from."""

    hits: list[Understood] = field(default_factory=list)
    baseline_spans: list[tuple[int, int]] = field(default_factory=list)


def read_scaling(text: str, lines: str | None = None) -> Scaling:
    """Negative scaling, a speed-up from a pair of times or rates, and the baseline's size.

    `lines` is the same text with the line breaks it was typed with (the readers see wrapped lines joined); tables of
    runs are read from it.
    """
    found = Scaling()
    for pattern, group in ((_SLOWER_THAN, "obj"), (_SLOWER_THAN_ZH, "obj"), (_NOT_AS_FAST, "obj"), (_SLOW_COMPARED, "obj")):
        for m in pattern.finditer(text):
            obj = m[group] or m.groupdict().get("obj2") or m.groupdict().get("obj3") or ""
            if m.groupdict().get("obj3") and _PER_STEP.search(tx.sentence(text, m.start())):
                continue  # s14 'a step takes twice as long as on one node': a step on more GPUs does more work
            if _A_BOUND.match(text, m.start(group)) and re.match(r"(?:less|lower)\b", m.group(0), _IC):
                continue  # 'less than 2x the throughput of one node': a bound on the speed-up, not a slower run
            if _a_setting(obj) or ODD_STEPS.search(tx.sentence(text, m.start())):
                continue  # cmp-s10 settings compared ('slower than ZeRO-2 on 2 nodes'): both ran on those machines
            if _THAN_A_TARGET.search(text, m.start(), m.end()):
                continue  # s12 'slower than expected on 4 nodes': short of a target; the nodes are the job's
            if _wondered(text, m.start(), m.end()):
                continue  # s14 'Will 4 nodes be slower than 1 node?': a comparison wondered about, not seen
            bare = re.fullmatch(r"\s*(?P<n>\d{1,2})\s*", obj)
            if bare and _numbered_item(text, int(bare["n"])):
                continue  # s21 '1. SSD + 2×3090 …；2. HDD + 4×A100，比 1 慢很多': item 1 of the list, no run size
            size = _run_size(obj)
            if size is not None and size[0] == 1 and _NOUNLESS_ONE.fullmatch(obj):
                # 'on several GPUs it is slower than on one', '两张卡比一张还慢': one of what the job's side counts
                size = (1, _kind_said_before(text, m.start()) or size[1])
            if size is None:
                size = _bare_run(text, obj, m.start())  # counts-s11 bare than
            if size is None:
                if _STANDALONE.search(obj):  # 'slower than the non-distributed run': its size is left to _standalone
                    found.hits.append(Understood("job.negative_scaling", True, m.group(0), m.start(), m.end()))
                continue
            n, kind = size
            if not _NOT_COMPARED.search(text, max(tx.clause_bounds(text, m.start())[0], m.start() - 12), m.start()):
                # ('two nodes aren't slower than one', '多机并不比单机慢': the runs compared, the larger not slower)
                found.hits.append(Understood("job.negative_scaling", True, m.group(0), m.start(), m.end()))
            fact = "job.baseline_gpus" if kind == "gpus" else "job.baseline_nodes"
            found.hits.append(Understood(fact, n, m.group(0), m.start(), m.end()))
            gpus = [s for s in run_sizes(obj, 0, len(obj)) if s[2] == "gpus"]
            nodes = [s for s in run_sizes(obj, 0, len(obj)) if s[2] == "nodes"]
            if kind == "nodes" and gpus:  # '比 1 台服务器 5 张卡还慢': the baseline's GPUs too
                found.hits.append(Understood("job.baseline_gpus", gpus[0][0], m.group(0), m.start(), m.end()))
            elif kind == "gpus" and nodes:  # 'slower than 8 GPUs on one node': the baseline's machines too
                found.hits.append(Understood("job.baseline_nodes", nodes[0][0], m.group(0), m.start(), m.end()))
            found.baseline_spans.append((m.start() + (m.start(group) - m.start() if m[group] else 0), m.end()))
    for m in _FASTER_THAN.finditer(text):  # 'two nodes were faster than four': the smaller run wins
        left, right = _run_size(m["a"] or m["a2"] or ""), _run_size(m["b"] or m["b2"] or "")
        bare = re.fullmatch(rf"\s*(?:the\s+)?(?P<n>{COUNT})\s*(?:台|个)?\s*", m["b"] or m["b2"] or "", _IC)
        if left is not None and bare and _count(bare["n"]):
            right = (_count(bare["n"]) or 0, left[1])  # 'two nodes were faster than four', '3 cards … than one'
        if left is None or right is None or left[1] != right[1] or left[0] == right[0]:
            continue
        if left[0] > right[0]:
            # s29 the larger run faster than the smaller ('So 3 cards are barely faster than one'): the smaller is
            # the baseline, and no run is slower
            if not re.search(r"[?？]|(?<![A-Za-z])(?:should|would|could|expect\w*|if)(?![A-Za-z])", m.group(0), _IC) \
                    and not {h.fact for h in found.hits} & {"job.baseline_nodes", "job.baseline_gpus"}:
                fact = "job.baseline_gpus" if right[1] == "gpus" else "job.baseline_nodes"
                found.hits.append(Understood(fact, right[0], m.group(0), m.start(), m.end()))
                k = float(_FRACTIONS.get(m["fk"].lower()) or parse_number(re.sub(r"\s*(?:x|×|times)$", "", m["fk"]))
                          or 0) if m["fk"] else 0.0
                if k > 1:  # h-step '4 nodes are twice as fast as 1 node': the speed-up said outright
                    found.hits.append(Understood("job.speedup", k, m.group(0), m.start(), m.end()))
            continue
        found.hits.append(Understood("job.negative_scaling", True, m.group(0), m.start(), m.end()))
        k = float(_FRACTIONS.get(m["fk"].lower()) or parse_number(re.sub(r"\s*(?:x|×|times)$", "", m["fk"])) or 0) \
            if m["fk"] else 0.0
        if k > 1:  # 'one node is twice as fast as two': the larger run at half the pace
            found.hits.append(Understood("job.speedup", round(1 / k, 4), m.group(0), m.start(), m.end()))
        fact = "job.baseline_gpus" if left[1] == "gpus" else "job.baseline_nodes"
        found.hits.append(Understood(fact, left[0], m.group(0), m.start(), m.end()))
    for m in _INSTEAD.finditer(text):
        sentence = tx.sentence(text, m.start())
        if _ANOTHER_CLUSTER.search(sentence):
            continue  # s12 '之前在另一个集群上跑得很好，现在 2 台 … 反而慢了': slower than another cluster, not than fewer machines
        if re.search(_SMALL, sentence, _IC) or re.search(r"多机|两机|双机|多节点|两台|2\s*台", sentence):
            found.hits.append(Understood("job.negative_scaling", True, m.group(0), m.start(), m.end()))
    for m in _LARGER_SLOWER.finditer(text):  # s34 the larger run slower, the smaller unsaid
        if not _asked(text, m.end(), m.end()) and not _wondered(text, m.start(), m.end()) \
                and not _ANOTHER_CLUSTER.search(tx.sentence(text, m.start())) \
                and not _ASKING.search(text, tx.clause_bounds(text, m.start())[0], m.start()):
            found.hits.append(Understood("job.negative_scaling", True, m.group(0), m.start(), m.end()))
    for m in _INSTEAD_FELL.finditer(text):  # counts-zh-s13 fell instead
        a = tx.sentence_bounds(text, m.start())[0]
        clause = tx.clause_bounds(text, m.start())
        sentence = tx.sentence(text, m.start())
        if not (m.group(0).startswith("不") or _PACE_BEFORE.search(text, max(a, m.start() - 30), m.start())) \
                or _NOT_PACE_BEFORE.search(text, clause[0], m.start()) or _ANOTHER_CLUSTER.search(sentence) \
                or _asked(text, m.end(), clause[1]):
            continue
        if re.search(_SMALL, sentence, _IC) or _LARGER_RUN.search(sentence) or any(
                n > 1 for n, _, kind, _, _ in run_sizes(sentence, 0, len(sentence)) if kind == "nodes"):
            found.hits.append(Understood("job.negative_scaling", True, m.group(0), m.start(), m.end()))
    for m in _SMALL_FASTER.finditer(text):  # counts-zh-s13 the smaller faster: '…训练非常慢，单机 4 卡反而更快'
        sentence = tx.sentence(text, m.start())
        if not _asked(text, m.end(), m.end()) and (_LARGER_RUN.search(text) or any(
                n > 1 for n, _, kind, _, _ in run_sizes(text, 0, len(text)) if kind == "nodes")) \
                and not _ANOTHER_CLUSTER.search(sentence):
            found.hits.append(Understood("job.negative_scaling", True, m.group(0), m.start(), m.end()))
    for m in _SMALL_FASTER_THAN.finditer(text):  # h-step '单卡比多卡快'
        found.baseline_spans.append(m.span("small"))  # (asked or not, the one card is no machine of the job's)
        if _asked(text, m.end(), m.end()) or _ANOTHER_CLUSTER.search(tx.sentence(text, m.start())):
            continue
        found.hits.append(Understood("job.negative_scaling", True, m.group(0), m.start(), m.end()))
        fact = "job.baseline_gpus" if "卡" in m["small"] else "job.baseline_nodes"
        found.hits.append(Understood(fact, 1, m.group(0), m.start(), m.end()))
    for m in _TIME_TIMES.finditer(text):  # counts-zh-s13 time times
        k = parse_number(m["k"]) or 0
        a = tx.sentence_bounds(text, m.start())[0]
        larger = [s for s in run_sizes(text, max(a, m.start() - 30), m.start()) if s[2] == "nodes" and s[0] > 1] \
            or _LARGER_RUN.search(text, max(a, m.start() - 30), m.start())
        if k > 1 and larger and (_RUN_SINGLE.search(m["obj"]) or _run_size(m["obj"])) \
                and not _asked(text, m.end(), m.end()):
            found.hits.append(Understood("job.negative_scaling", True, m.group(0), m.start(), m.end()))
    for m in _WORSE_WITH_MORE.finditer(text):
        if _TARGET.search(tx.clause(text, m.start())) or _TARGET.search(tx.clause(text, m.end() - 1)) or re.match(
                r"\s*(?:will|would|could|might|is it going to|are we going to)(?![A-Za-z])", tx.clause(text, m.start()), _IC):
            continue  # 'when we add GPUs, should it be slower?', 'Will it get slower …?': a question of what to expect
        found.hits.append(Understood("job.negative_scaling", True, m.group(0), m.start(), m.end()))
    for m in _TIMES_SLOWER.finditer(text):
        if per_gpu_pace(text, m.start()):
            continue  # ('每卡吞吐下降了一半': each GPU's pace, read by _per_gpu_ratio)
        if m["frac"] and (_TARGET.search(m.group(0)) or re.match(r"\s*(?:of\s+)?(?:what\s+|the\s+|our\s+)?(?:we|I|you)?\s*"
                                                              r"(?:were\s+|was\s+)?(?:expect|hop|predict|estimat|plann|target)",
                                                              text[m.end():m.end() + 30], _IC)):
            continue  # 'tokens/s 只有预期的一半', 'only half of what we expected': short of a target, not of a smaller run
        if m["frac"]:
            frac = m["frac"].replace(" ", "")
            k = float(frac.split("/")[1]) if "/" in frac else float(_FRACTIONS.get(frac.lower(), 0))
        elif m["halved"]:
            k = 2.0
            clause = tx.clause_bounds(text, m.start())
            if not _RATIO_PACE.search(text, clause[0], m.start()) or _OTHER_MEASURE.search(text, clause[0], m.start()):
                continue  # ('显存减半', 'the batch is halved')
        elif m["k4"] or m["half"]:
            if m.group(0).lower().endswith("long") and _PER_STEP.search(tx.sentence(text, m.start())):
                continue  # s14 'a step takes twice as long on 2 nodes': a step on more GPUs does more work
            said = (m["k4"] or m["half"]).lower()
            k = float(_FRACTIONS.get(said) or parse_number(re.sub(r"\s*(?:x|×|times)$", "", said)) or 0)
        else:
            k = parse_number(m["k"] or m["k2"] or m["k3"] or "") or 0.0
            if m["k2"] and k == 1:
                k = 2.0  # s14 '慢了一倍': the time grown by once itself, twice as long (as '增加了一倍')
        if _NOT_THE_JOB.search(text, tx.clause_bounds(text, m.start())[0], m.start()) \
                or _settings_compared(text, m.start(), m.end()):  # cmp-s10 settings compared
            continue
        if ODD_STEPS.search(tx.sentence(text, m.start())):
            continue  # cmp-s10 odd step: 'every few hundred steps one step is 10x slower' is jitter, not a smaller run
        if _THAN_A_TARGET.search(text, tx.clause_bounds(text, m.start())[0], min(len(text), m.end() + 40)):
            continue  # s12 '比预期慢了近 3 倍', '3x slower than expected': short of a target, not of a smaller run
        sentence = tx.sentence(text, m.start())
        # (s14 or two runs counted in GPUs: '16 GPUs are 3x slower than 8 GPUs')
        gpu_runs = {n for n, _, kind, _, _ in run_sizes(sentence, 0, len(sentence)) if kind == "gpus"}
        if k > 1 and (re.search(rf"{_SMALL}|than (?:on )?one|比|单机|multi|多机|node|machine|台|两机|双机|分布式|distributed",
                                sentence, _IC) or len(gpu_runs) == 2):
            found.hits.append(Understood("job.speedup", round(1 / k, 4), m.group(0), m.start(), m.end()))
            found.hits.append(Understood("job.negative_scaling", True, m.group(0), m.start(), m.end()))
    for m in _GOES_UP.finditer(text):  # 'when I add 2 GPUs from a second machine … the epoch goes up to 22 hours'
        if _ADDING.search(text, max(0, m.start() - 400), m.start()):
            found.hits.append(Understood("job.negative_scaling", True, m.group(0), m.start(), m.end()))
    for m in _RATE_MOVES.finditer(text):  # 'when I add a second node, throughput drops from 1200 to 900 tokens/s'
        before, after = float(m["a"]), float(m["b"])
        added = _ADDING.search(text, max(tx.sentence_bounds(text, m.start())[0], m.start() - 200), m.start())
        if added and before > 0 and after > 0:
            found.hits.append(Understood("job.speedup", round(after / before, 4), m.group(0), m.start(), m.end()))
            if after < before:
                found.hits.append(Understood("job.negative_scaling", True, m.group(0), m.start(), m.end()))
            if re.search(r"second|第二|another|一台", added.group(0), _IC):
                found.hits.append(Understood("job.baseline_nodes", 1, added.group(0), added.start(), added.end()))
    for m in _TIMES_FOR_TIMES.finditer(text):  # '6x the throughput for 8x the compute': the speed-up, said outright
        said, more = float(m["k"] or m["k2"]), float(m["n"] or m["n2"])
        if 0 < said and more > 1:
            found.hits.append(Understood("job.speedup", said, m.group(0), m.start(), m.end()))
            if said < 1:
                found.hits.append(Understood("job.negative_scaling", True, m.group(0), m.start(), m.end()))
    for m in _SLOWER_ON.finditer(text):
        size = _run_size(m["obj"])
        many = _MULTI_NODE.match(m["obj"]) or re.match(r"(?:multiple|several|more) (?:nodes|machines|GPUs)", m["obj"], _IC)
        clause = tx.clause_bounds(text, m.start())
        if (size is None or size[0] < 2) and not many or re.search(r"\bthan\b", text[m.end():clause[1]], _IC) \
                or _NOT_THE_JOB.search(text, clause[0], m.start()) or _TARGET.search(text, *clause):
            continue
        speedup = 1 - float(m["pct"]) / 100 if m["pct"] else 1 / float(m["k"]) if float(m["k"]) > 1 else 0.0
        if 0 < speedup < 1:
            found.hits.append(Understood("job.speedup", round(speedup, 4), m.group(0), m.start(), m.end()))
            found.hits.append(Understood("job.negative_scaling", True, m.group(0), m.start(), m.end()))
    for m in _PERCENT_FASTER.finditer(text):
        if per_gpu_pace(text, m.start()):
            continue
        if _a_setting(text[m.end():m.end() + 40]) or _settings_compared(text, m.start(), m.end()):
            continue  # cmp-s10 settings compared ('fp16 is 30% slower than bf16 on 4 nodes')
        pct = float(m["pct"] or m["pct2"])
        sign = 1 if re.search(r"faster|quicker|快", m.group(0), _IC) else -1
        speedup = 1 + sign * pct / 100
        if speedup > 0:
            found.hits.append(Understood("job.speedup", round(speedup, 4), m.group(0), m.start(), m.end()))
            if speedup < 1:
                found.hits.append(Understood("job.negative_scaling", True, m.group(0), m.start(), m.end()))
    found.hits.extend(_pairs(text, found))
    found.hits.extend(_series(text, found))
    found.hits.extend(_respectively(text, found))
    found.hits.extend(_tables(lines if lines and len(lines) == len(text) else text, found))
    for m in _SAME_AS.finditer(text):  # '训练时间跟只用一个 node 差不多', 'no faster than a single node'
        group = next(g for g in ("obj", "obj2", "obj3", "obj4") if m[g])
        obj = m[group] or ""
        size = _run_size(obj)
        if size is None or not _PACE.search(tx.clause(text, m.start())):
            continue
        start, end = m.start(group), m.start(group) + len(obj)
        side = run_sizes(text, start, end)
        # '单机八卡和双机十六卡的训练速度相同', '1 node gives the same throughput as 2 nodes': both runs named, the
        # smaller is the baseline whichever side it is on
        subject = [s for s in run_sizes(text, tx.clause_bounds(text, m.start())[0], m.start(group)) if s[2] == size[1]
                   and s[4] <= start]
        if subject and subject[-1][0] == size[0]:
            continue
        if subject and subject[-1][0] < size[0] and subject[-1][3] >= m.start():
            # ('the same speed on 4 GPUs as on 8 GPUs': the smaller run said inside the comparison)
            side = [subject[-1]]
            size, start, end = (subject[-1][0], size[1]), subject[-1][3], subject[-1][4]
        elif subject and subject[-1][0] < size[0]:
            lo = tx.clause_bounds(text, m.start())[0]
            side = run_sizes(text, lo, m.start())
            size, start, end = (subject[-1][0], size[1]), side[0][3], m.start()
        fact = "job.baseline_gpus" if size[1] == "gpus" else "job.baseline_nodes"
        found.hits.append(Understood(fact, size[0], m.group(0), m.start(), m.end()))
        gpus = [s for s in side if s[2] == "gpus"]
        if size[1] == "nodes" and gpus:  # '单机八卡': the baseline's GPUs too
            found.hits.append(Understood("job.baseline_gpus", gpus[0][0], m.group(0), m.start(), m.end()))
        found.baseline_spans.append((start, end))
        if not any(h.fact == "job.speedup" for h in found.hits) and not _EACH_ONES_PACE.search(tx.sentence(text, m.start())):
            # 'no faster than a single DGX', '跟单机差不多': the larger run gains nothing, a speed-up of about 1
            found.hits.append(Understood("job.speedup", 1.0, m.group(0), m.start(), m.end()))
    found.hits.extend(_loads_compared(text, found))
    found.hits.extend(_figure_moves(text, found))
    found.hits.extend(_count_chain(text, found))
    found.hits.extend(_versus(text, found))
    found.hits.extend(_said_ratios(text, found))
    found.hits.extend(_time_ratios(text, found))  # s14 a ratio of times
    found.hits.extend(_per_gpu_ratio(text, found))
    found.hits.extend(_factor_over_one(text, found))
    found.hits.extend(_speedup_named(text, found))
    found.hits.extend(_scales_up_to(text, found))
    found.hits.extend(_compared_with(text, found))
    found.hits.extend(_standalone(text, found))
    found.hits.extend(_fine_alone(text, found))
    found.hits.extend(_fine_then_slower(text, found))  # counts-zh-s13 fine then slower
    found.hits.extend(_fine_and_slow(text, found))  # cnt fine and slow
    found.hits.extend(_run_versus_run(text, found))  # cnt run against run
    found.hits.extend(_added_to_total(text, found))  # cmp-s10 added to a total
    found.hits.extend(_one_more_machine(text, found))  # counts-s11 one more
    found.hits.extend(_longer_after_one_more(text, found))  # counts-zh-s13 longer after one more
    found.hits.extend(_grown_then_slower(text, found))  # nccl-cmp s13 grown, then slower
    found.hits.extend(_range_of_runs(text, found))  # s13 range of runs
    return found


# nccl-cmp s13 grown, then slower: 'when I scale out to 2 nodes, throughput actually decreases', 'Scaling to 4 nodes makes
# training slower', 'Going from 1 to 2 nodes, the speed goes down instead of up', '扩到两机后速度反而下降了', '换成两机训练后
# 速度不升反降': the run grown to a count of machines (two or more) and its pace said to fall, no figure in between; never
# a question of what to expect ('should', 'would it …?') nor a benchmark's figure ('busbw drops').
_GROWN = re.compile(rf"(?<![A-Za-z])(?:(?:going|go|goes|went|moving|move|moved|scaling|scale|scaled|expanding|expanded|"
                    rf"switching|switched)\s+(?:up\s+|out\s+)?(?:from\s+(?P<f>{COUNT}|one|a single)\s+(?:nodes?\s+|machines?\s+)?)?"
                    rf"to\s+(?P<n>{COUNT})\s*(?:-\s*)?(?:nodes?|machines?|servers?|hosts?|boxes)(?![A-Za-z])|"
                    rf"(?:扩到|扩展到|扩容到|加到|增加到|上到|换成|切到|改成|用了|用上|改用)\s*(?P<n2>{COUNT})\s*"
                    rf"(?:台(?:机器|服务器)?|个?(?:节点|机器|服务器)|机器|服务器|机))", _IC)
_FALLS_OFF = re.compile(r"(?<![A-Za-z])(?:(?:actually|even)\s+)?(?:decreases?|decreased|drops?|dropped|goes down|went down|"
                        r"gets? (?:slower|worse)|got (?:slower|worse)|(?:makes?|made)\s+(?:it|training|things|the job|everything)\s+"
                        r"slower|(?:is|are|was|were|becomes?|became|runs?|ran)\s+(?:even\s+|much\s+|actually\s+)?slower)"
                        r"(?![A-Za-z])(?!\s+than)|反而(?:更|变得?|还)?(?:慢|下降|降低|降了|减少|变差)|不升反降|不增反降|不快反慢",
                        _IC)
_PACE_OF_THE_JOB = re.compile(r"速度|训练|吞吐|性能|throughput|speed|training|it\b|things|everything|the job|performance", _IC)


def _grown_then_slower(text: str, found: Scaling) -> list[Understood]:
    if any(h.fact == "job.negative_scaling" for h in found.hits):
        return []
    for m in _GROWN.finditer(text):
        n = _count(m["n"] or m["n2"])
        if not n or n < 2:
            continue
        a, b = tx.sentence_bounds(text, m.start())
        fall = _FALLS_OFF.search(text, m.end(), b) or _FALLS_OFF.search(text, a, m.start())
        if fall is None or re.search(r"\d", text[min(m.end(), fall.start()):max(m.end(), fall.start())]):
            continue
        between = text[min(m.start(), fall.start()):max(m.end(), fall.end())]
        if _TARGET.search(text, a, b) or _NOT_THE_JOB.search(between) or _OTHER_MEASURE.search(between) \
                or re.search(r"(?<![A-Za-z])(?:will|would|could|might|if)(?![A-Za-z])|会不会|是否|如果|假如", text[a:b], _IC) \
                or _NOT_RATIO.search(text, max(a, fall.start() - 8), fall.start()) \
                or not _PACE_OF_THE_JOB.search(between + text[fall.end():min(b, fall.end() + 12)]):
            continue
        hits = [Understood("job.negative_scaling", True, between, min(m.start(), fall.start()), max(m.end(), fall.end()))]
        small = _count("1" if m["f"] and m["f"].lower() in {"one", "a single"} else m["f"]) if m["f"] else None
        if small and small < n and not any(h.fact == "job.baseline_nodes" for h in found.hits):
            hits.append(Understood("job.baseline_nodes", small, m.group(0), m.start("f"), m.end("f")))
            found.baseline_spans.append((m.start("f"), m.end("f")))
        return hits
    return []


# s13 range of runs: 'When scaling from 2 to 8 nodes the step time doubles', 'going from 1 to 2 nodes, busbw drops': a
# run grown from one size to another, what changed said in words no ratio reads; the smaller is the baseline
_RANGE_OF_RUNS = re.compile(
    rf"(?<![A-Za-z])(?:scal\w*|go(?:ing|es)?|went|mov(?:e|es|ed|ing)|grow(?:s|ing)?|grew|increas\w*|expand\w*|jump\w*|"
    rf"switch\w*)\s+(?:up\s+|out\s+)?from\s+(?P<a>{COUNT})\s*(?:-\s*)?(?:nodes?|machines?|servers?|hosts?|GPUs?|cards?)?"
    rf"\s*(?:to|->|→)\s*(?P<b>{COUNT})\s*(?:-\s*)?(?P<w>nodes?|machines?|servers?|hosts?|GPUs?|cards?)(?![A-Za-z])", _IC)


# s29 runs named by their GPUs' model: 'from 100x V100 to 400x V100' (the model masked), '从 8 张 A100 扩到 32 张 A100'
_RANGE_OF_GPU_RUNS = re.compile(
    rf"(?:(?<![A-Za-z])from|从|由)\s*(?P<a>{COUNT})\s*(?:[x×*]|张|块)?\s*{GPU_MARK}+s?\s*(?:to|->|→|到|扩到|加到|增加到)\s*"
    rf"(?P<b>{COUNT})\s*(?:[x×*]|张|块)?\s*{GPU_MARK}+", _IC)


_WHAT_IF_RANGE = re.compile(r"[?？]|(?<![A-Za-z])(?:would|could|should|if|plan(?:s|ning|ned)?|want|wants|will|going to|"
                            r"consider\w*|thinking|expect\w*|help)(?![A-Za-z])", _IC)


def _range_of_runs(text: str, found: Scaling) -> list[Understood]:
    if {h.fact for h in found.hits} & {"job.baseline_nodes", "job.baseline_gpus"}:
        return []
    for m in [*_RANGE_OF_RUNS.finditer(text), *_RANGE_OF_GPU_RUNS.finditer(text)]:
        small, large = _count(m["a"]), _count(m["b"])
        if not small or not large or small >= large:
            continue
        if _WHAT_IF_RANGE.search(tx.clause(text, m.start()) if "w" not in m.groupdict() else tx.sentence(text, m.start())):
            continue  # 'Would it help to go from 2 nodes to 4 nodes?': a move weighed, the job still on the smaller
        fact = "job.baseline_gpus" if "w" not in m.groupdict() or re.match(r"GPU|card", m["w"], _IC) \
            else "job.baseline_nodes"
        found.baseline_spans.append((m.start("a"), m.end("a")))
        return [Understood(fact, small, m.group(0), m.start("a"), m.end("a"))]
    return []


# counts-s11 one more: '单机正常，加了一台机器就变慢了', 'when I add a second node it gets slower', 'adding another node
# makes it slower': one machine added to the run said before it (one machine where none is said), a pace in its sentence
_ONE_MORE = re.compile(
    r"(?:再|多)?(?:加|增加|添加|加上|接入)了?\s*(?:一|1)\s*台\s*(?:机器|服务器|节点|主机)?|(?:再|多)?(?:加|增加|添加|加上)了?\s*"
    r"(?:一|1)\s*个\s*(?:机器|服务器|节点|主机)|(?:加|增加|添加|加上|接入)了?\s*第二台(?:机器|服务器|节点|主机)?|"
    r"(?<![A-Za-z])(?:add(?:ed|ing|s)?|bring(?:ing)? in|brought in)\s+(?:(?:a|the)\s+second|another|one more|an?\s+extra|"
    r"1 more|(?:a|the)\s+2nd)\s+(?:node|machine|server|host|box|instance|VM)(?![A-Za-z])", _IC)


# s13 the pace said as the step's time after the machine added: 'When I add a second node, it takes 2700ms'
_A_DURATION = re.compile(r"(?<![\d.])\d+(?:\.\d+)?\s*(?:ms|s|sec|secs|seconds|秒|毫秒)(?![A-Za-z/])", _IC)


_PACE_OF = re.compile(r"(epoch|step|iter|迭代|轮|batch)", _IC)


def _longer_after_one_more(text: str, found: Scaling) -> list[Understood]:
    """counts-zh-s13 longer after one more: '一台 8 卡的机器上每个 epoch 2 小时。加了第二台机器以后，一个 epoch 要 3 小时多': the
    same measure of time, before a machine was added and after, grew."""
    if any(h.fact == "job.negative_scaling" for h in found.hits):
        return []
    for m in _ONE_MORE.finditer(text):
        a = max(text.rfind("\n\n", 0, m.start()) + 1, m.start() - 200)
        b = tx.sentence_bounds(text, m.end())[1]
        before = [q for q in _quantities(text, a, m.start())[0] if q[0] == "time"]
        after = [q for q in _quantities(text, m.end(), b)[0] if q[0] == "time"]
        if not before or not after or _TARGET.search(text, m.end(), b) or _asked(text, after[0][3], after[0][3]):
            continue
        then, now = before[-1], after[0]
        pace_then = _PACE_OF.findall(text[max(a, then[2] - 20):then[2]].lower())
        pace_now = _PACE_OF.findall(text[max(m.end(), now[2] - 20):now[2]].lower())
        if pace_then and pace_now and pace_then[-1] == pace_now[-1] and now[1] > then[1] * 1.1:
            return [Understood("job.negative_scaling", True, text[then[2]:now[3]], then[2], now[3])]
    return []


def _one_more_machine(text: str, found: Scaling) -> list[Understood]:
    if any(h.fact == "job.nodes" for h in found.hits):
        return []
    said = [h.value for h in found.hits if h.fact == "job.baseline_nodes"]
    for m in _ONE_MORE.finditer(text):
        a, b = tx.sentence_bounds(text, m.start())
        if _TARGET.search(tx.clause(text, m.start())) or not (_SLOWER_WORD.search(text, m.end(), b)
                                                               or _RATIO_PACE.search(text, m.end(), b)
                                                               or _A_DURATION.search(text, m.end(), b)):
            continue
        before = [s for s in run_sizes(text, 0, m.start()) if s[2] == "nodes"]
        after = [s for s in run_sizes(text, m.end(), len(text)) if s[2] == "nodes" and s[0] > 1]
        if after or len({s[0] for s in before}) > 1:
            return []  # the machines counted after it, or several runs before it: the count is said, not added
        second = re.search(r"second|2nd|第二", m.group(0), _IC)
        if not (said or before or second) or re.search(r"每\s*\Z|(?:every|each)\s+(?:time\s+)?(?:I|we)?\s*\Z",
                                                        text[max(0, m.start() - 12):m.start()], _IC):
            continue  # ('加了一台机器以后…', '每加一台机器…': a machine added to a run of unsaid size)
        k = said[0] if said else 1 if second else before[-1][0]
        return [Understood("job.nodes", k + 1, m.group(0), m.start(), m.end(), inferred=True)] + (
            [] if said else [Understood("job.baseline_nodes", k, m.group(0), m.start(), m.end())])
    return []


# ------------------------------------------------------------------------------- cmp-s10 added to a total
# '最近加了两台机器，总共 6 台', 'we added two more nodes, 6 in total', 'added 2 nodes for a total of 6', '新增 4 个节点，
# 现在一共 12 个': the machines added are no run; the total is the job, the total less those added the run before
_ADD_VERB = (r"(?:(?:新)?(?:加|增加|添加|扩|扩容|多加|新增|加上|补)了?|(?<![A-Za-z])(?:added|adding|add|bought|got|brought in|"
             r"brought up|provisioned)(?![A-Za-z]))")
_ADDED_TO_TOTAL = re.compile(
    rf"{_ADD_VERB}\s*(?:in\s+)?(?:another\s+|an?\s+extra\s+)?(?P<n>{COUNT})\s*(?:more\s+|extra\s+|new\s+|additional\s+)?"
    r"(?:个|台)?\s*(?P<w>nodes?|machines?|servers?|hosts?|boxes|instances?|机器|服务器|节点|台机器|台)"
    r"[^。.;；!?！？\n]{0,24}?(?:(?:总共|一共|合计|总计|共计|共|现在是?|目前是?|变成|达到|到了|"
    r"(?<![A-Za-z])(?:for a total of|to a total of|total(?:ing|ling)?|bringing (?:it|us|the (?:total|count|cluster))\s+to|"
    r"making(?: it)?|to make|now(?: at| have| with| running)?|(?:we|I) now have)(?![A-Za-z]))\s*(?:有|是|了|of)?\s*"
    rf"(?P<m>{COUNT})(?:\s*(?:个|台)?\s*(?:nodes?|machines?|servers?|hosts?|boxes|instances?|机器|服务器|节点|台|in total)"
    r"|(?=\s*(?:[，,。.;；]|$)))"
    rf"|(?P<m2>{COUNT})\s*(?:nodes?|machines?|servers?|hosts?|boxes|instances?)?\s*(?:in total|in all|altogether|total)"
    r"(?![A-Za-z]))", _IC)


def _added_to_total(text: str, found: Scaling) -> list[Understood]:
    """cmp-s10 added to a total: the total the job, the total less those added its baseline; the added count no size."""
    out: list[Understood] = []
    for m in _ADDED_TO_TOTAL.finditer(text):
        n, total = _count(m["n"]) or 0, _count(m["m"] or m["m2"]) or 0
        if not 0 < n < total or _TARGET.search(tx.clause(text, m.start())) or _NOT_COMPARED.search(text, max(0, m.start() - 6),
                                                                                                  m.start()):
            continue
        out.append(Understood("job.baseline_nodes", total - n, m.group(0), m.start(), m.end(), inferred=True))
        at = m.start("m") if m["m"] else m.start("m2")
        out.append(Understood("job.nodes", total, m.group(0), at, m.end()))
        found.baseline_spans.append((m.start("n"), m.end("w")))
    return out


# ------------------------------------------------------------------------------- a ratio said between two run sizes
# 'scaling from 1 to 4 nodes only gives 2.1x', '4 卡到 16 卡吞吐只涨了 30%', '2 台机器的速度只有单机的 1.2 倍', '16 GPUs give
# us 3.5x the throughput of 4 GPUs', '8 机扩展效率只有 50%（相对单机）', 'going from 4 to 8 nodes made it slower': two run
# sizes of one kind in a sentence and what the larger gets against the smaller — a factor, a rise in per cent, a scaling
# efficiency, a fraction, or only a direction. The larger run is the job, the smaller its baseline.
_RANGE_JOIN = re.compile(r"\s*(?:to|→|->|=>|~|到|扩到|扩展到|扩容到|加到|增加到|增到|升到|变成|上到)\s*", _IC)
_BARE_FROM = re.compile(rf"(?:(?<![A-Za-z])from|从|由)\s*(?P<n>{COUNT})\s*(?:个|台)?\s*"
                        r"(?:to|→|->|=>|到|扩到|扩展到|扩容到|加到|增加到|增到|升到)\s*\Z", _IC)
_BARE_THAN = re.compile(rf"(?:(?<![A-Za-z])than|比)\s*(?:(?:on|with|using|in)\s+)?(?:the\s+|a\s+)?(?P<n>{COUNT})\s*(?:个|台)?"
                        r"(?=\s*(?:[,.;:!?，。；：！？)）]|$|快|慢|还|要|更|alone|by itself))", _IC)
_BARE_TO = re.compile(rf"\s*(?:to|→|->|=>|到|扩到|扩展到|扩容到|加到|增加到|增到|升到)\s*(?P<n>{COUNT})(?!\s*(?:个|台|张|块)?\s*"
                      r"(?:[A-Za-z\d.%]|卡|机|台|节点|服务器|倍|秒|分|小时|天|步))", _IC)  # counts-s11 bare to
_BARE_FROM_WORD = re.compile(r"(?:(?<![A-Za-z])from|从|由)\s*(?:(?:a|one)\s+)?\Z", _IC)  # counts-s11 bare to
_BARE_ARROW = re.compile(rf"(?<![\w.])(?P<n>{COUNT})\s*(?:→|->|=>)\s*\Z", _IC)
_K = r"(?P<k>\d+(?:\.\d+)?|[一两二三四五六七八九十]{1,3}(?:点[一二三四五六七八九])?)"
_FACTOR = re.compile(rf"{_K}\s*(?:x|×|倍|times)(?![A-Za-z\d])"
                     r"(?!\s*[·Ｇ])"  # s11 times a model: '每台 8×A100' counts the GPUs (the model masked), no factor
                     r"(?!\s*(?:the\s+)?(?:slower|longer|more time|compute|GPUs?|nodes?|machines?|cards?|hardware|resources|"
                     r"的?(?:时间|卡|机器|节点|资源|算力)))"
                     r"|(?:speed-?up|加速比|scaling factor)\s*(?:of|is|was|=|:|：|是|为|只有|仅为|仅|才|just|only|about|around|"
                     r"roughly|~|\s)*\s*(?P<k2>\d+(?:\.\d+)?)(?![\d.%])", _IC)
_RISE = re.compile(r"(?:涨|提升|提高|增加|增长|加快|快)了?\s*(?:只有|仅|才|大约|约|不到)?\s*(?P<p>\d+(?:\.\d+)?)\s*%|"
                   r"(?P<p2>\d+(?:\.\d+)?)\s*%\s*(?:more|higher|faster|better|increase|improvement|gain|speed-?up|"
                   r"(?:more|higher) throughput)|"
                   r"(?:improv|increas|rais|gain|boost|grew|grow|went up|goes up|rose|rise)\w*\s+(?:\w+\s+){0,2}?by\s+"
                   r"(?:only\s+|just\s+|about\s+|around\s+|roughly\s+|~\s*)?(?P<p3>\d+(?:\.\d+)?)\s*%", _IC)
# 'two-node throughput is about 70% of single-node throughput', '多机的速度只有单机的 60%': one run's pace as a share of
# the other's
_SHARE = re.compile(r"(?P<p>\d+(?:\.\d+)?)\s*%\s*of(?![A-Za-z])|的\s*(?P<p2>\d+(?:\.\d+)?)\s*%", _IC)
_EFFICIENCY = re.compile(r"(?:scaling\s+|parallel\s+)?efficiency|扩展效率|加速效率|并行效率|线性度|扩展性", _IC)
_EFFICIENCY_PCT = re.compile(r"(?P<p>\d+(?:\.\d+)?)\s*%")
_PART = re.compile(r"(?P<f>一半|halve[sd]|减半|砍半|half|三分之一|四分之一|五分之一|1\s*/\s*[2-9])", _IC)
_UNDER = re.compile(r"不到|还不到|不足|less than|under|not even|below", _IC)
_RATIO_PACE = re.compile(r"速度|吞吐|性能|快|慢|加速|效率|throughput|speed|perf|fast|quick|slow|gives?|gave|yields?|got|get|"
                         r"reach(?:es|ed)?|achieves?|achieved|达到|"
                         r"tok/s|samples/s|img/s|it/s|epoch|step|iter|训练", _IC)
# a ratio of something other than pace: 'GPU 利用率只有单机的 50%', 'uses 4x the memory'
_OTHER_MEASURE = re.compile(r"利用率|util|显存|memory|内存|带宽|bandwidth|功耗|power|温度|cost|费用|价格|price", _IC)
_SLOWER_WORD = re.compile(r"(?<![A-Za-z])(?:slower|slows? down|worse|longer)(?![A-Za-z])|(?:更|变|反而|还)慢|慢了|变长|更长|更久", _IC)
# a figure wanted or predicted is no measurement: 'should be near-linear', '两机应该快一倍才对', 'expected ~1.9x'
# (en-s12b 'Is it expected that 2 nodes are only 1.5x faster than one node?' asks whether the job's figure is normal)
_TARGET = re.compile(r"(?<![A-Za-z])(?:should|ought to|(?<!is it )(?<!is this )(?<!is that )expect(?:ed|ing)?|ideally|in theory|theoretical(?:ly)?|supposed to|"
                     r"would (?:be|give|get)|hope|hoping|target|goal)(?![A-Za-z])|应该|应当|理应|本应|理论上|理论值|预期|期望|"
                     r"希望|目标|才对|按理", re.IGNORECASE)
_THAN_A_TARGET = re.compile(r"比\s*(?:预期|期望|预计|预想|理论|估计|计划|估算)|(?<![A-Za-z])than\s+(?:what\s+)?(?:we\s+|I\s+)?"
                            r"(?:had\s+|have\s+)?(?:expected|anticipated|planned|estimated|predicted|projected|calculated|"
                            r"(?:in\s+)?theory|the theoretical|the estimate)", re.IGNORECASE)
_NOT_RATIO = re.compile(r"(?:not|n't|没有|并没有|并不|不)\s*\Z", _IC)


def _numbered_item(text: str, n: int) -> bool:
    """Whether the question lists items numbered n and n + 1 or n - 1 ('1. …；2. …', '1) … 2) …', '（1）…（2）…')."""
    def item(k: int) -> bool:
        return k > 0 and bool(re.search(rf"(?:^|(?<=[\s：:；;。，,]))(?:{k}\s*[.．、)）](?!\d)|[(（]{k}[)）])", text))
    return item(n) and (item(n + 1) or item(n - 1))


def _ratio_sizes(text: str, a: int, b: int) -> tuple[Size, Size, bool, bool] | None:
    """The two run sizes of one kind a sentence compares, in the order said, whether they are said as a range ('from 1
    to 4 nodes', '单机到双机') and whether more runs are named ('2 机比单机快 1.8 倍，但 4 机只比单机快 2.5 倍': then the
    smallest and the largest); None unless two counts of one kind differ (machines first)."""
    sizes = run_sizes(text, a, b)
    ranged = False
    for s in list(sizes):  # 'from 1 to 4 nodes', '2→8 nodes': a bare count before the range's end takes its word
        m = _BARE_FROM.search(text, max(a, s[3] - 24), s[3]) or _BARE_ARROW.search(text, max(a, s[3] - 12), s[3])
        n = _count(m["n"]) if m else None
        if m and n and not any(t[3] <= m.start("n") < t[4] for t in sizes):
            sizes.append((n, m.start("n"), s[2], m.start("n"), m.end("n")))
            ranged = True
    for s in list(sizes):  # counts-s11 bare to: 'from one machine to two', '从 2 台扩到 4': the count after takes its word
        m = _BARE_TO.match(text, s[4], b)
        n = _count(m["n"]) if m and _BARE_FROM_WORD.search(text, max(a, s[3] - 8), s[3]) else None
        if m and n and not any(t[3] <= m.start("n") < t[4] for t in sizes):
            sizes.append((n, m.start("n"), s[2], m.start("n"), m.end("n")))
            ranged = True
    kinds = {s[2] for s in sizes}
    for m in _BARE_THAN.finditer(text, a, b):  # '4 machines are only 1.3x faster than one': the count takes the other's word
        n = _count(m["n"])
        if n and m["n"].isdigit() and _numbered_item(text, n):
            continue  # s21 '1. SSD + 2×3090 …；2. HDD + 4×A100，比 1 慢很多': item 1 of the list, no run size
        if n and len(kinds) == 1 and not any(t[3] <= m.start("n") < t[4] for t in sizes):
            sizes.append((n, m.start("n"), next(iter(kinds)), m.start("n"), m.end("n")))
    if len(sizes) == 1:  # s14 'from 3000 on one node to 1800 on two': a bare count after the run takes its word
        for m in _ELLIPTIC.finditer(text, sizes[0][4], b):
            n = _count(m["n"])
            if n and n != sizes[0][0] and not (m["n"].isdigit() and _numbered_item(text, n)) \
                    and re.match(r"\s*(?:[,.;:!?，。；：)）]|$|(?:and|but|vs|it|we)(?![A-Za-z]))", text[m.end("n"):], _IC):
                sizes.append((n, m.start("n"), sizes[0][2], m.start("n"), m.end("n")))
                break
    sizes.sort(key=lambda s: s[3])
    for kind in ("nodes", "gpus"):
        same = [s for s in sizes if s[2] == kind]
        values = {s[0] for s in same}
        if len(values) == 2 and len(same) == 2:
            first, second = same
            ranged = ranged or bool(_RANGE_JOIN.fullmatch(text, first[4], second[3]))
            return first, second, ranged, False
        if len(values) >= 2:
            small = min(same, key=lambda s: (s[0], s[3]))
            big = min((s for s in same if s[0] == max(values)), key=lambda s: s[3])
            return small, big, ranged, True
    ones = [s for s in sizes if s[2] == "nodes"]
    multi = _MULTI_NODE.search(text, a, b)
    if multi and ones and {s[0] for s in ones} == {1} and not any(s[2] == "gpus" for s in sizes):
        # '多机训练的速度只有单机的 60%': the job on several machines, how many unsaid (0)
        many_run: Size = (0, multi.start(), "nodes", multi.start(), multi.end())
        return (ones[0], many_run, False, False) if ones[0][3] < multi.start() else (many_run, ones[0], False, False)
    return None


_MULTI_NODE = re.compile(r"多机|多节点|多台|(?<![A-Za-z])(?:multi-?node|multiple (?:nodes|machines)|distributed)(?![A-Za-z])",
                         _IC)


# 'Going from 1 to 2 nodes the throughput goes from 3000 samples/s to 3500 samples/s', '从单机扩到 4 机，step 时间从 0.8 s
# 变成了 2.4 s', 'tokens/s per GPU drops from 3000 to 1800 when going multi-node', 'epoch 时间从单机 4 卡的 20 分钟变成了
# 35 分钟': a figure that moves as the run grows, the first figure the smaller run's, the second the larger's.
_NUM = r"\d+(?:\.\d+)?\s*[kK]?(?!\d|\.\d)"  # en-s10: '… from 45k to 52k.': a full stop after the 'k' ends the figure
# (s14 each figure led by its measure, '从 每卡 300 samples/s 变成 每卡 200', '从每秒 1200 tokens 变成每秒 1500 tokens', or
# followed by a unit of a few words, 'from 300 samples/s per GPU to 200 samples/s per GPU')
_LEAD = r"(?:(?P<{}>每秒(?:钟)?)|每(?:张|块|个)?(?:卡|GPU))?\s*"
_MOVE = re.compile(rf"(?:(?<![A-Za-z])from|从|由)\s*(?:[^,，;；。\n]{{1,12}}?的\s*)?{_LEAD.format('pa')}(?P<a>{_NUM})"
                   r"(?P<ua>[^\d,，;；。]{0,14}?|\s*[A-Za-z/]+\s+per\s+(?:GPU|card|device)|\s*[(（][^()（）\n]{1,20}[)）])\s*"
                   r"(?:to|到|→|->|=>|降到|掉到|涨到|升到|变成了?|变为|降至|降低到|减少到|提升到|提高到|增加到|增长到|下降到|上升到)"
                   rf"\s*(?:了\s*)?{_LEAD.format('pb')}(?P<b>{_NUM})|(?<![\w.])(?P<a2>{_NUM})(?P<ua2>[^\d,，;；。]{{0,14}}?)\s*(?:→|->|=>)\s*(?P<b2>{_NUM})",
                   _IC)
# from one machine to several, their count unsaid: the smaller run is one machine
_GOING_MULTI = re.compile(r"(?:going|go|goes|went|moving|move|switching|switch|scaling|scale|moved|switched)\s+(?:to\s+|up\s+to\s+)?"
                          r"(?:multi-?node|multiple (?:nodes|machines|hosts)|multi-?machine|multi-?host|across (?:nodes|machines))|"
                          r"单机(?:扩展|扩)?(?:到|→|->|变成|换成|切到)多(?:机|节点)|上多机|换成多机|(?:改|换|切)(?:成|到)多(?:机|节点)", _IC)
_GOING_TO = re.compile(rf"(?<![A-Za-z])(?:going|go|goes|went|moving|moved|scaling|scaled|switching|switched|expanding|"
                       rf"expanded)\s+(?:up\s+|out\s+)?to\s+(?P<n>{COUNT})\s*(?:-\s*)?(?:nodes?|machines?|servers?|hosts?)(?![A-Za-z])|"
                       rf"(?:上到|扩到|扩展到|扩容到|加到|增加到|换成|变成|用了|用上|改用)\s*(?P<n2>{COUNT})\s*(?:台|个)?\s*(?:机器|节点|服务器|机)", _IC)
# nccl-cmp s13 a pace's unit said once, before its two figures: a rate ('it/s') or the time of a step ('s/it')
_PACE_NAMED = re.compile(r"(?<![A-Za-z/])(?:(?P<rate>it/s|its/s|iters?/s|iterations?/s)|s/it|sec/it|s/iter|secs?/iter)"
                         r"(?![A-Za-z/])[^\d,，;；。\n]{0,12}\Z", _IC)
_RATE_NAMED = re.compile(r"throughput|吞吐|tokens?/s|samples?/s|img/s|images?/s|tok/s|速度|speed|tps|TFLOPS", _IC)


# a further run after a move: '… but adding 2 GPUs from a second server makes it 22h', '再加上第二台机器的 2 张卡，反而要 22 小时'
_FURTHER_STEP = re.compile(rf"(?:adding|add|added|after adding|加上|再加上?|又加了?|加了)\s*[^.;。；]{{0,50}}?"
                           rf"(?:makes?|made|takes?|took|goes? (?:up )?to|went (?:up )?to|becomes?|became|"
                           rf"变成了?|反而要|要|需要|涨到了?|变为)\s*(?:it\s+|了\s*)?(?P<c>{_NUM})\s*\S{{0,8}}", _IC)


def _figure_moves(text: str, found: Scaling) -> list[Understood]:
    """A figure said to move from one value to another as the run grows from one size to another (same sentence)."""
    hits: list[Understood] = []
    fixed = bool(_FIXED_GLOBAL_BATCH.search(text))
    for m in _MOVE.finditer(text):
        a, b = tx.sentence_bounds(text, m.start())
        if any(h.fact == "job.speedup" and a <= h.start < b for h in found.hits) or _TARGET.search(text, a, b):
            continue
        sizes = run_sizes(text, a, b)
        ga, gb = ("a", "b") if m["a"] else ("a2", "b2")
        if any(s[3] <= m.start(ga) < s[4] or s[3] <= m.start(gb) < s[4] for s in sizes):
            continue  # the sizes' own range ('from 1 to 2 nodes')
        va, vb = _figure_value(m[ga]), _figure_value(m[gb])
        after = _RATE.match(text, m.start(gb)) or _DURATION.match(text, m.start(gb)) or (
            _RATE_PER_SECOND.match(text, m.start("pb")) if ga == "a" and m["pb"] else None)
        before = _RATE.match(text, m.start(ga)) or _DURATION.match(text, m.start(ga)) or (
            _RATE_PER_SECOND.match(text, m.start("pa")) if ga == "a" and m["pa"] else None)
        unit = after or before
        if unit is not None:
            qs, _ = _quantities(text, unit.start(), unit.end())
            if len(qs) != 1:
                continue
            kind, said, inverse = qs[0][0], _figure_value(m[gb] if after else m[ga]), False
            scale = qs[0][1] / said if said and kind != "step" else 1.0
            if kind == "step" and _INVERSE.search(unit.group(0)):
                va, vb, inverse = 1 / va if va else 0.0, 1 / vb if vb else 0.0, True
            elif kind == "step":
                scale = qs[0][1] / said if said else 1.0
            if not inverse:
                va, vb = va * scale, vb * scale
            if kind == "rate" and _PER_GPU.search(text, max(a, m.start() - 30), min(b, m.end() + 20)):
                kind = "rate-per-gpu"
        elif re.search(r"[%％]|\d\s*(?:GB|Gb|MB|Mb|x|×|倍)", text[m.start(ga):m.end(gb) + 3]):
            continue
        elif (named := _PACE_NAMED.search(text, max(a, m.start() - 20), m.start())) is not None:
            # nccl-cmp s13 unit named before: 'it/s dropped from 2.1 to 0.9', 's/it 从 1.2 变成 3.5': the unit once, first
            kind = "rate" if named["rate"] else "step"
        elif _RATE_NAMED.search(text, max(a, m.start() - 40), m.start()):
            kind = "rate-per-gpu" if _PER_GPU.search(text, max(a, m.start() - 40), min(b, m.end() + 20)) else "rate"
        else:
            continue
        if kind == "time" and _per_step(text, m.start()):
            kind = "step"
        if va <= 0 or vb <= 0 or _OTHER_MEASURE.search(text, max(a, m.start() - 30), m.start()):
            continue
        pair = _ratio_sizes(text, a, b)
        multi = _GOING_MULTI.search(text, a, b)
        if pair is not None:
            first, second, ranged, _ = pair
            if ranged and first[0] > second[0] > 0:
                continue  # a run made smaller
            small, big = (first, second) if 0 < first[0] < second[0] or second[0] == 0 else (second, first)
        elif multi is not None:
            small, big = (1, multi.start(), "nodes", multi.start(), multi.end()), (0, multi.start(), "nodes", 0, 0)
        elif (grown := _GOING_TO.search(text, a, b)) is not None and (n := _count(grown["n"] or grown["n2"])) and n > 1:
            # 'throughput went from 1200 to 1500 img/s when going to 2 nodes': the larger run named, the smaller is the
            # one before it (one machine when the larger is two; else unsaid)
            at = grown.start("n") if grown["n"] else grown.start("n2")
            big = (n, at, "nodes", at, grown.end())
            small = (1 if n == 2 else 0, grown.start(), "nodes", grown.start(), at)
            if kind == "rate":
                hits.append(Understood("job.speedup", round(vb / va, 4), text[m.start():m.end()], m.start(), m.end()))
                if vb < va:
                    hits.append(Understood("job.negative_scaling", True, text[m.start():m.end()], m.start(), m.end()))
                if small[0]:
                    hits += _sizes_of_the_runs(text, small, big, found)
            if not (small[0] and kind == "step"):
                continue
            # nccl-cmp s13 step times as the run grew to two: 's/it 从 1.2 变成 3.5，用了两台机器之后' (read on below)
        elif (more := _ONE_MORE.search(text, a, b)) is not None and re.search(r"second|2nd|第二", more.group(0), _IC) \
                and not any(s[2] == "nodes" and s[0] > 2 for s in run_sizes(text, 0, len(text))):
            # s12 second machine: 'throughput dropped from 5200 tokens/s/GPU to 2100 after we added the second node',
            # '加了第二台机器以后从 3000 掉到 1200': one machine, then two
            small = (1, more.start(), "nodes", more.start(), more.start())
            big = (2, more.start(), "nodes", more.start(), more.end())
        else:
            continue
        scale = big[0] / small[0] if big[0] else 0.0
        speedup: float | None
        if kind == "rate":
            speedup = vb / va
        elif kind == "rate-per-gpu":
            speedup = vb / va * scale if scale and big[2] == small[2] else None
        elif kind == "time":
            speedup = va / vb
        else:
            speedup = va / vb * (scale if not fixed else 1.0) if scale or fixed else None
        words = text[m.start():m.end()]
        reach = b
        if b < len(text) and re.match(r"\s*(?:再|又|但|然后|可是|but|then|and then|adding|after adding)", text[b:b + 16], _IC):
            reach = tx.sentence_bounds(text, b + 1)[1]  # '…降到 9 小时；再加上第二台机器的 2 张卡，反而要 22 小时'
        further = _FURTHER_STEP.search(text, m.end(), reach) if kind == "time" else None
        later = _quantities(text, further.start("c"), further.end()) [0] if further else []
        if further and len(later) == 1 and later[0][0] == "time" and later[0][1] > 0 and vb > 0:
            # '… from 21h to 9h, but adding 2 GPUs from a second server makes it 22h': the run asked about is the
            # last one, its smaller run the one before it
            words = text[m.start(gb):further.end()]
            speedup = vb / later[0][1]
            hits.append(Understood("job.speedup", round(speedup, 4), words, m.start(gb), further.end()))
            if speedup < 1:
                hits.append(Understood("job.negative_scaling", True, words, m.start(gb), further.end()))
            if big[2] == "gpus" and big[0] > 0:
                hits.append(Understood("job.baseline_gpus", big[0], text[big[3]:big[4]], big[3], big[4]))
                found.baseline_spans.append((big[3], big[4]))
            if re.search(r"second|another|other|第二|另一", further.group(0), _IC):
                hits.append(Understood("job.baseline_nodes", 1, words, m.start(gb), further.end()))
                hits.append(Understood("job.nodes", 2, further.group(0), further.start(), further.end()))
            continue
        if speedup is not None:
            hits.append(Understood("job.speedup", round(speedup, 4), words, m.start(), m.end()))
            if speedup < 1:
                hits.append(Understood("job.negative_scaling", True, words, m.start(), m.end()))
        if kind == "rate-per-gpu":
            hits.append(Understood("job.scaling_efficiency_pct", round(vb / va * 100, 1), words, m.start(), m.end()))
        if kind == "step":
            hits.append(Understood("job.step_time_s", round(vb, 6), text[m.start(gb):m.end(gb)], m.start(gb), m.end(gb)))
            hits.append(Understood("job.step_time_baseline_s", round(va, 6), text[m.start(ga):m.end(ga)], m.start(ga),
                                   m.end(ga)))
        hits += _sizes_of_the_runs(text, small, big, found)
    return hits


# 'On a single node GPU util is ~98%; on 2 nodes it drops to 45%', '两机 GPU 利用率只有 40%，而单机能到 90%', 'GPU util: 1 node
# 95%, 2 nodes 50%', 'GPU 利用率从单机的 90% 掉到了 30%': the GPUs' load of each run; the job's is the larger run's.
_UTIL = re.compile(r"(?<![A-Za-z])(?:(?:GPU|SM)[- ]?(?:util(?:ization|isation)?|usage|activity|load)|Volatile GPU-Util|"
                   r"util(?:ization|isation)?)(?![A-Za-z])|(?:GPU|显卡|卡)\s*(?:的)?\s*(?:利用率|使用率|占用率)|利用率", _IC)
_NOT_GPU_LOAD = re.compile(r"CPU|网卡|带宽|bandwidth|NIC|IB|内存|memory|显存|link|network|网络|磁盘|disk|PCIe|NVLink", _IC)
# the measure a share is of: the GPUs' load, or something else ('Memory-Usage', '显存', 'bandwidth')
_MEASURE_WORD = re.compile(_UTIL.pattern + r"|(?<![A-Za-z])(?:Memory-Usage|memory|bandwidth|CPU|NIC|efficiency|MFU|"
                           r"loss|accuracy|acc)(?![A-Za-z])|显存|内存|带宽|效率|网卡|CPU", _IC)
# (a range is one figure, its middle: 'With 2 nodes: 40-50%')
_PCT_FIGURE = re.compile(r"(?<![\d.])(?:(?P<lo>\d{1,3}(?:\.\d+)?)\s*%?\s*(?:-|~|～|–|到|至)\s*)?(?P<p>\d{1,3}(?:\.\d+)?)\s*%")
_LOAD_MOVE = re.compile(r"(?:from|从)\s*(?P<lead>[^\d%，,。；;\n]{0,10}?)(?P<a>\d{1,3}(?:\.\d+)?)\s*%\s*[^\d%，,。；;\n]{0,12}?"
                        r"(?:to|到|降到|掉到|变成|变为|降至)\s*(?:了\s*)?(?:只有\s*)?(?P<b>\d{1,3}(?:\.\d+)?)\s*%", _IC)
_ONE_RUN = re.compile(r"单机|单节点|单台|(?<![A-Za-z])(?:a single|single|one|1)[- ](?:node|machine|server|host|box)(?![A-Za-z])", _IC)


def _load_run(text: str, a: int, b: int) -> int | None:
    """The machines of the run a clause names: a count, 0 for several uncounted ('多机', 'multi-node'), None if none."""
    nodes = [s[0] for s in run_sizes(text, a, b) if s[2] == "nodes"]
    if len(set(nodes)) == 1:
        return nodes[0]
    if not nodes and _MULTI_NODE.search(text, a, b):
        return 0
    return None


def _loads_compared(text: str, found: Scaling) -> list[Understood]:
    hits: list[Understood] = []
    for a, b in _sentence_spans(text):
        util = _UTIL.search(text, a, b)
        if util is None or _NOT_GPU_LOAD.search(text, max(a, util.start() - 8), util.end()):
            continue
        move = _LOAD_MOVE.search(text, util.end(), b)
        if move is not None and move.start() - util.end() < 30:
            # a load said to fall as the run grows, beside a larger run ('With 2 nodes', '从单机的 90%')
            one = _ONE_RUN.search(text, move.start("lead"), move.end("lead"))
            if one is not None:  # '从单机的 90%': the machine the load fell from is the baseline
                hits.append(Understood("job.baseline_nodes", 1, one.group(0), one.start(), one.end()))
                found.baseline_spans.append((one.start(), one.end()))
            if one is not None or (_load_run(text, *tx.sentence_bounds(text, move.start())) or 1) != 1:
                hits.append(Understood("gpu.util_pct", float(move["b"]), move.group(0), move.start("b"), move.end("b")))
            continue
        pcts = [m for m in _PCT_FIGURE.finditer(text, util.end(), b)]
        if len(pcts) != 2 or not 0 < float(pcts[0]["p"]) <= 100 or not 0 < float(pcts[1]["p"]) <= 100:
            continue
        lo = a
        runs: list[int | None] = []
        for i, m in enumerate(pcts):  # each load's run is named in its own stretch: after the last load, up to the next
            hi = pcts[i + 1].start() if i + 1 < len(pcts) else b
            clause = tx.clause_bounds(text, m.start())
            named = [w for w in _MEASURE_WORD.finditer(text, max(lo, util.start()), m.start())]
            if named and not _UTIL.fullmatch(named[-1].group(0)):
                runs.append(None)  # ('… GPU-Util near 100 %. With two nodes the GPU Memory-Usage drops to 60 %')
            else:
                runs.append(_load_run(text, max(lo, clause[0]), min(hi, clause[1])))
            lo = m.end()
        (r1, r2), (m1, m2) = runs, pcts
        if r1 is None or r2 is None or r1 == r2:
            continue
        job = m1 if (r1 == 0 or (r2 != 0 and r1 > r2)) else m2
        value = (float(job["lo"]) + float(job["p"])) / 2 if job["lo"] else float(job["p"])
        hits.append(Understood("gpu.util_pct", value, job.group(0), job.start(), job.end()))
    return hits


# 'increase the number of nodes from 2 to 8', 'training nodes (4 → 8 → 16)', '节点数 4→8→16', 'GPU 数从 8 增加到 16': the runs'
# sizes as bare counts after the word they count; the first is the baseline, the last the job.
_STEP_TO = r"\s*(?:→|->|=>|to|到|增加到|增到|扩到|扩展到|扩容到|加到|升到|变成|变为)\s*"
_BARE_COUNT = r"(?:\d{1,5}|[一两二三四五六七八九十]{1,3})(?![\d.,]\d)"
_COUNT_CHAIN = re.compile(
    r"(?:(?<![A-Za-z])(?:number of |num of |# ?of )?(?:training |compute |worker |GPU )?(?P<w>nodes|machines|servers|hosts|GPUs|cards)"
    r"(?![A-Za-z])|(?P<wz>节点|机器|服务器|台数|卡|GPU)\s*(?:数量|数|个数)?)"
    rf"\s*(?:\(|（|:|：|=)?\s*(?:(?<![A-Za-z])from\s+|从\s*|由\s*)?(?:了\s*)?"
    rf"(?P<chain>{_BARE_COUNT}(?:{_STEP_TO}{_BARE_COUNT}){{1,6}})"
    r"(?!\s*(?:[A-Za-z%％]|秒|分|小时|天|倍|台|个|张|块|机|卡|节点|G\b|/))", re.IGNORECASE)


def _count_chain(text: str, found: Scaling) -> list[Understood]:
    hits: list[Understood] = []
    for m in _COUNT_CHAIN.finditer(text):
        a, b = tx.sentence_bounds(text, m.start())
        if not (_PACE.search(text, a, b) or re.search(r"scal|扩展", text[a:b], _IC)) or _TARGET.search(text, a, m.start()):
            continue
        counts = [c for c in re.finditer(_BARE_COUNT, m["chain"])]
        values = [_count(c.group(0)) or 0 for c in counts]
        if any(not 0 < x < y for x, y in zip(values, values[1:], strict=False)):
            continue  # a series that does not grow is no scaling of the run
        kind = "gpus" if re.search(r"GPU|card|卡", m["w"] or m["wz"], _IC) else "nodes"
        base = m.start("chain") + counts[0].start(), m.start("chain") + counts[0].end()
        last = m.start("chain") + counts[-1].start(), m.start("chain") + counts[-1].end()
        hits.append(Understood("job.baseline_gpus" if kind == "gpus" else "job.baseline_nodes", values[0], text[slice(*base)],
                               *base))
        found.baseline_spans.append(base)
        if kind == "nodes":
            hits.append(Understood("job.nodes", values[-1], text[slice(*last)], *last))
        slower = _SLOWER_WORD.search(text, m.end(), b)
        if slower and not _NOT_RATIO.search(text, max(a, slower.start() - 8), slower.start()):
            hits.append(Understood("job.negative_scaling", True, text[m.start():slower.end()], m.start(), slower.end()))
    return hits


# 'multi-node is slower than single-node, about 1.5 s/it vs 1.0 s/it', '单机和两机分别是 0.6 和 1.2 s/it' is _respectively's:
# two runs named, then their two figures joined by 'vs', in the order the runs were named.
_VS_JOIN = re.compile(r"\s*(?:vs\.?|versus|v\.s\.|对比|对|against)\s*", _IC)
_RUN_MENTION = re.compile(r"单机|单节点|单台|多机|多节点|多台|(?<![A-Za-z])(?:a single|single|one|1)[- ](?:node|machine|server|host|box)"
                          r"(?![A-Za-z])|(?<![A-Za-z])(?:multi-?node|multiple (?:nodes|machines)|multi-?machine|distributed)(?![A-Za-z])",
                          _IC)


def _versus(text: str, found: Scaling) -> list[Understood]:
    hits: list[Understood] = []
    for a, b in _sentence_spans(text):
        quantities, rough = _quantities(text, a, b)
        for q in list(quantities):  # '3000 vs 2200 tokens/s': the first figure in the second's unit
            bare = re.search(rf"(?<![\w.])(?P<n>{_NUM})(?:{_VS_JOIN.pattern})\Z", text[max(a, q[2] - 30):q[2]], _IC)
            said = re.match(_NUM, text[q[2]:q[3]])
            if bare and said and q[0] != "step" and _figure_value(said.group(0)):
                at = max(a, q[2] - 30) + bare.start("n")
                value = _figure_value(bare["n"]) * q[1] / _figure_value(said.group(0))
                quantities.append((q[0], value, at, at + len(bare["n"])))
        quantities.sort(key=lambda q: q[2])
        for q1, q2 in zip(quantities, quantities[1:], strict=False):
            if q1[0] != q2[0] or q1[2] in rough or q2[2] in rough or not _VS_JOIN.fullmatch(text, q1[3], q2[2]):
                continue
            runs: list[tuple[int, int, int]] = [(s[0], s[3], s[4]) for s in run_sizes(text, a, q1[2]) if s[2] == "nodes"]
            for m in _RUN_MENTION.finditer(text, a, q1[2]):
                if not any(x <= m.start() < y for _, x, y in runs):
                    many = not re.match(r"单|a single|single|one|1", m.group(0), _IC)
                    runs.append((0 if many else 1, m.start(), m.end()))
            runs.sort(key=lambda r: r[1])
            if len(runs) != 2 or runs[0][0] == runs[1][0]:
                continue
            (n1, s1, e1), (n2, s2, e2) = runs
            big_first = n1 == 0 or (n2 != 0 and n1 > n2)
            (vb, qb), (vs, qs) = ((q1[1], q1), (q2[1], q2)) if big_first else ((q2[1], q2), (q1[1], q1))
            small = (n2, s2, e2) if big_first else (n1, s1, e1)
            kind = q1[0]
            speedup = vb / vs if kind.startswith("rate") else vs / vb if kind == "time" else None
            words = text[min(s1, s2):q2[3]]
            if speedup is not None and kind != "rate-per-gpu":
                hits.append(Understood("job.speedup", round(speedup, 4), words, min(s1, s2), q2[3]))
                if speedup < 1:
                    hits.append(Understood("job.negative_scaling", True, words, min(s1, s2), q2[3]))
            if kind == "step":
                hits.append(Understood("job.step_time_s", round(vb, 6), text[qb[2]:qb[3]], qb[2], qb[3]))
                hits.append(Understood("job.step_time_baseline_s", round(vs, 6), text[qs[2]:qs[3]], qs[2], qs[3]))
            if small[0] > 0:
                hits.append(Understood("job.baseline_nodes", small[0], text[small[1]:small[2]], small[1], small[2]))
                found.baseline_spans.append((small[1], small[2]))
    return hits


# counts-s11 range: a figure that moves in the sentence ('从 21 小时降到 9 小时') belongs to the runs the figure-move reader
# pairs, not to a plain range
_FIGURE_MOVE = re.compile(r"(?:(?<![A-Za-z])from|从)\s*\d+(?:\.\d+)?\s*(?:(?!台|卡|机|节点|个|nodes?|machines?|servers?|GPUs?|cards?)"
                          r"[^\d\s,，。;；]){0,8}\s*(?:to|降到|升到|涨到|变成|到)\s*\d", _IC)


def _said_ratios(text: str, found: Scaling) -> list[Understood]:
    hits: list[Understood] = []
    done = [(h.start, h.fact) for h in found.hits if h.fact in {"job.speedup", "job.negative_scaling"}]
    pos = 0
    while pos < len(text):
        a, b = tx.sentence_bounds(text, pos)
        pos = max(b, pos + 1)
        pair = _ratio_sizes(text, a, b)
        if pair is None:
            continue
        first, second, ranged, many = pair
        small, big = (first, second) if 0 < first[0] < second[0] or second[0] == 0 else (second, first)
        if ranged and first[0] > second[0] and not many:
            continue  # 'from 8 down to 4 nodes': a run made smaller
        said = [f for pos, f in done if a <= pos < b]
        outside = [(s[3], s[4]) for s in run_sizes(text, a, b)] + [(s[3], s[4]) for s in (first, second)]
        # what follows the largest run is said of it ('…, with 4 nodes only 2.2x'); with two runs, the whole sentence
        scale = big[0] / small[0]  # 0: the larger run's size unsaid
        speedup, slower = None, False
        if not scale:  # runs of unsaid size: only a figure in their own clause ('多机训练的速度只有单机的 60%')
            clause = tx.clause_bounds(text, first[3])
            if clause == tx.clause_bounds(text, second[3]):
                speedup, slower = _ratio_in(text, *clause, a, outside, scale)
        else:
            speedup, slower = _ratio_in(text, big[4], b, a, outside, scale, loose=many)
            if speedup is None and not slower and not many:
                speedup, slower = _ratio_in(text, a, b, a, outside, scale)
        if speedup is not None and not ranged and not many and first is small \
                and tx.clause_bounds(text, first[3]) == tx.clause_bounds(text, second[3]) \
                and not _from_efficiency(text, a, b, speedup, scale):  # counts-s11 (an efficiency is the larger run's)
            speedup = 1 / speedup  # '单机的速度是两机的 1.5 倍': the smaller run is the one said faster
        if speedup is None and ranged and not slower:
            m = _SLOWER_WORD.search(text, second[4], b)
            slower = m is not None and not _NOT_RATIO.search(text, max(a, m.start() - 8), m.start())
        if speedup is None and not slower:
            if ranged and not many and first is small and small[0] > 0 and _RATIO_PACE.search(text, a, b) \
                    and not _TARGET.search(text, a, b) and not _FIGURE_MOVE.search(text, a, b) \
                    and not any(h.fact in {"job.baseline_nodes", "job.baseline_gpus"} for h in found.hits + hits):
                hits += _sizes_of_the_runs(text, small, big, found)  # counts-s11 range: 'from 2 to 4 nodes, throughput …'
            continue
        span = (min(first[3], second[3]), b)
        words = text[span[0]:span[1]].strip()
        if speedup is not None and "job.speedup" not in said:
            hits.append(Understood("job.speedup", round(speedup, 4), words, *span))
        if (slower or (speedup is not None and speedup < 1)) and "job.negative_scaling" not in said:
            hits.append(Understood("job.negative_scaling", True, words, *span))
        hits += _sizes_of_the_runs(text, small, big, found)
    return hits


# s14 a ratio of times ('使用2机16卡的step_time大约是使用单机8卡的2倍', 'the epoch time on 2 nodes is 1.5x that of 1 node'):
# the measure before the factor is a time, not a pace; a step's time ('step time', '每步') grows with the work of a
# step (the same per-GPU batch), a whole run's or epoch's does not
_TIME_MEASURE = re.compile(r"(?P<step>step[_ ]?time|iter(?:ation)?[_ ]?time|time per (?:step|iteration|iter|batch)|"
                           r"每(?:个)?\s*(?:step|步|iter|迭代|batch)(?:的)?\s*(?:耗时|时间|用时)?|(?:step|迭代)\s*(?:耗时|时间))|"
                           r"epoch[_ ]?time|time per epoch|training time|run ?time|wall[- ]?clock(?: time)?|耗时|用时|时间|时长", _IC)
_PACE_MEASURE = re.compile(r"速度|吞吐|throughput|speed|tok/s|tokens/s|samples/s|img/s|it/s|加速|效率|性能|perf", _IC)


def _timed(text: str, pos: int) -> re.Match[str] | None:
    """The time measure a factor at `pos` is said of (its clause, before it), none if a pace is named between."""
    a = tx.clause_bounds(text, pos)[0]
    times = list(_TIME_MEASURE.finditer(text, max(a, pos - 40), pos))
    if not times or _PACE_MEASURE.search(text, times[-1].end(), pos) \
            or re.search(r"(?:慢|快|多|长|增加)了?\s*(?:大约|约|近|将近|差不多)?\s*\Z", text[max(a, pos - 8):pos]):
        return None  # ('耗时多了三倍', '时间慢了 3 倍': a slowdown, read as one)
    return times[-1]


def _time_ratios(text: str, found: Scaling) -> list[Understood]:
    """s14 a ratio of times: the run named first takes k times the other's time ('2 机的 step time 是单机的 2 倍'), so
    the larger run's throughput is the other's × (the scale, for a step's time) ÷ its share of time."""
    hits: list[Understood] = []
    if any(h.fact == "job.speedup" for h in found.hits):
        return hits
    for m in _FACTOR.finditer(text):
        timed = _timed(text, m.start())
        k = parse_number(m["k"] or "") if m["k"] else None
        a, b = tx.sentence_bounds(text, m.start())
        pair = _ratio_sizes(text, a, m.start()) if timed and k else None
        if pair is None and timed and k and re.match(r"\s*(?:that|those|the|of)(?![A-Za-z])", text[m.end():], _IC):
            pair = _ratio_sizes(text, a, b)  # '… is 3 times the step time on 1 node': the other run after the factor
        if pair is None or not k or pair[2] or pair[3] or _TARGET.search(text, a, b) or _wondered(text, m.start(), m.end()):
            continue
        first, second = pair[0], pair[1]
        if not first[0] or not second[0] or timed is None:
            continue
        big_over_small = k if first[0] > second[0] else 1 / k  # the larger run's time ÷ the smaller's
        scale = max(first[0], second[0]) / min(first[0], second[0])
        speedup = (scale if timed["step"] else 1.0) / big_over_small
        small, big = sorted((first, second))
        span = (min(first[3], second[3]), m.end())
        words = text[span[0]:span[1]]
        hits.append(Understood("job.speedup", round(speedup, 4), words, *span))
        if speedup < 1:
            hits.append(Understood("job.negative_scaling", True, words, *span))
        hits += _sizes_of_the_runs(text, small, big, found)
        break
    return hits


def _from_efficiency(text: str, a: int, b: int, speedup: float, scale: float) -> bool:
    """counts-s11: whether the speed-up is the sentence's scaling efficiency times the scale (never to be inverted)."""
    named = _EFFICIENCY.search(text, a, b) if scale else None
    if named is None:
        return False
    return any(abs(float(p["p"]) / 100 * scale - speedup) < 1e-9
               for p in _EFFICIENCY_PCT.finditer(text, named.end(), min(b, named.end() + 40)))


def _ratio_in(text: str, a: int, b: int, sa: int, sizes: list[tuple[int, int]],
              scale: float, loose: bool = False) -> tuple[float | None, bool]:
    """The factor text[a:b] says one run gets over the other (None if none) and whether it says the larger is slower;
    `sa` starts the sentence (its efficiency may be named before the figure), `scale` is how many times larger the
    larger run is (an efficiency is a share of it). `loose`: a factor right after the largest of several runs needs
    no word of pace in its own clause ('with 2 nodes we get 1.7x the throughput of 1 node, with 4 nodes only 2.2x')."""
    def free(m: re.Match[str]) -> bool:  # not part of a run's size, and no figure wanted ('两机应该快一倍才对')
        return not any(x <= m.start() < y for x, y in sizes) and not _TARGET.search(tx.clause(text, m.start())) \
            and not per_gpu_pace(text, m.start())  # (each GPU's pace: _per_gpu_ratio's)

    named = _EFFICIENCY.search(text, sa, b) if scale > 0 else None
    if named:
        p = next((p for p in _EFFICIENCY_PCT.finditer(text, max(a, named.end()), min(b, max(a, named.end()) + 40))
                  if free(p)), None)
        if p and 0 < float(p["p"]) <= 100:
            return float(p["p"]) / 100 * scale, False
    paced: list[bool] = []  # whether the sentence names a pace, found once

    def sentence_paced() -> bool:
        if not paced:
            paced.append(bool(_RATIO_PACE.search(text, sa, b)))
        return paced[0]

    for m in _FACTOR.finditer(text, a, b):
        if not free(m) or re.search(r"(?:慢|(?:耗时|时间|用时)[^，,。]{0,4}?(?:多|长|增加))(?:了|的)?\s*(?:大约|约|近|将近|差不多)?\s*\Z",
                                    text[max(a, m.start() - 12):m.start()]):
            continue  # ('慢了 3 倍', '耗时多了三倍': a slowdown, read as one where the runs are named)
        if _timed(text, m.start()):
            continue  # s14 'step_time 是单机的 2 倍': a ratio of times, _time_ratios'
        k = parse_number(m["k"] or m["k2"] or "")
        if k == 1 and re.search(r"(?:快|提升|提高|加速|增加|增长)了?\s*\Z", text[max(a, m.start() - 6):m.start()]):
            k = 2.0  # '只快了一倍': twice as fast
        if k and 0 < k <= 4 * (scale or 8) and not _OTHER_MEASURE.search(tx.clause(text, m.start())) and (sentence_paced() if loose else _RATIO_PACE.search(tx.clause(text, m.start()))):
            return k, False
    for m in _RISE.finditer(text, a, b):
        if free(m) and _RATIO_PACE.search(tx.clause(text, m.start())):  # ('显存占用涨了 10%' is no speed)
            return 1 + float(m["p"] or m["p2"] or m["p3"]) / 100, False
    for m in _SHARE.finditer(text, a, b):
        share = float(m["p"] or m["p2"])
        if free(m) and 0 < share < 100 and sentence_paced() and not _EFFICIENCY.search(text, sa, b) \
                and not _OTHER_MEASURE.search(tx.clause(text, m.start())):
            return share / 100, False
    for m in _PART.finditer(text, a, b):
        if not free(m) or not sentence_paced():
            continue
        f = m["f"].replace(" ", "").lower()
        k = float(f.split("/")[1]) if "/" in f else float(_FRACTIONS.get(f, 0))
        if k > 1:
            under = _UNDER.search(text, max(sa, m.start() - 16), m.start())
            return (None, True) if under else (1 / k, True)
    return None, False


# 'throughput per GPU drops by 60% compared to a single node', '每卡吞吐下降了一半', 'per-GPU throughput on 2 nodes is
# only 70% of single-node': each GPU's pace on the larger run as a share of its pace on the smaller is the scaling
# efficiency (the speed-up per added GPU), not the speed-up; the runs, when named, are the job and its baseline.
_PER_GPU_RATIO = re.compile(
    r"(?:(?<![A-Za-z])(?:drops?|dropped|falls?|fell|decreas(?:es|ed|e)|goes down|went down|is down|was down|lower|"
    r"shrinks?|shrank)(?![A-Za-z])|下降|降低|减少|掉|少)了?\s*(?:by\s+)?(?:about\s+|around\s+|roughly\s+|~\s*|大约|约|近|将近)?"
    r"(?P<down>\d+(?:\.\d+)?)\s*%(?!\s*(?:of|的))|"
    r"(?P<half>(?<![A-Za-z])(?:halve[sd]|is halved|was halved|(?:is |was )?cut in half|drops? (?:by )?(?:in )?half|"
    r"dropped (?:by )?(?:in )?half|(?:is|are|was|were|only|just)\s+(?:about\s+|roughly\s+|only\s+)?half\s+(?:of|that of|what))"
    r"(?![A-Za-z])|减半|砍半|(?:下降|降|掉|少)了?一半|只有\s*(?:[^，,。；;\d]{0,8}的)?\s*一半)|"
    r"(?P<share>\d+(?:\.\d+)?)\s*%\s*of(?![A-Za-z])|的\s*(?P<share2>\d+(?:\.\d+)?)\s*%|"
    r"(?:降到|掉到|降至|只有|仅有|仅|才)\s*(?P<share3>\d+(?:\.\d+)?)\s*%", _IC)


def _per_gpu_ratio(text: str, found: Scaling) -> list[Understood]:
    hits: list[Understood] = []
    said = {h.fact for h in found.hits}
    for m in _PER_GPU_RATIO.finditer(text):
        if not per_gpu_pace(text, m.start()) or _TARGET.search(tx.clause(text, m.start())) \
                or _OTHER_MEASURE.search(tx.clause(text, m.start())):
            continue
        if m["half"]:
            pct = 50.0
        elif m["down"]:
            pct = 100 - float(m["down"])
        else:
            pct = float(m["share"] or m["share2"] or m["share3"])
        if not 0 < pct < 100 or "job.scaling_efficiency_pct" in said:
            continue
        a, b = tx.sentence_bounds(text, m.start())
        hits.append(Understood("job.scaling_efficiency_pct", pct, text[m.start():m.end()], m.start(), m.end()))
        pair = _ratio_sizes(text, a, b)
        if pair is not None and not said & {"job.baseline_nodes", "job.baseline_gpus"}:
            first, second, _, _ = pair
            small, big = (first, second) if 0 < first[0] < second[0] or second[0] == 0 else (second, first)
            if small[0] > 0:
                hits += _sizes_of_the_runs(text, small, big, found)
        elif pair is None and not said & {"job.baseline_nodes", "job.baseline_gpus"}:
            hits += _the_run_it_is_a_share_of(text, m.end(), b, found)
        break
    return hits


def _the_run_it_is_a_share_of(text: str, start: int, end: int, found: Scaling) -> list[Understood]:
    """'… is half of what a single node gets per GPU', '只有单机的一半': the one run named after the share is the one the
    job's GPUs are compared with, the baseline, never the job itself."""
    after = [s for s in run_sizes(text, start, min(end, start + 40)) if s[0] > 0]
    if len(after) != 1:
        return []
    n, _, kind, s, e = after[0]
    found.baseline_spans.append((s, e))
    return [Understood("job.baseline_gpus" if kind == "gpus" else "job.baseline_nodes", n, text[s:e], s, e)]


# '多机训练加速比只有 1.5', 'a speedup of only 2.1x on 4 nodes', '8 卡的加速比才 3.2', 'only a 1.8x speed-up on 4 nodes':
# the speed-up named as such, the run it is over left unsaid. '加速比' is always one of scale; an English 'speedup' is one
# only beside a run of several machines or GPUs, and never one a change brought ('a 2x speedup after enabling NCCL_IB').
_SPEEDUP_NAMED = re.compile(
    r"(?:(?<![A-Za-z])speed-?ups?|加速比)\s*(?:(?:of|is|was|were|=|:|：|是|为|只有|仅为|仅有|仅|才|只|就|大约|约|"
    r"大概|just|only|about|around|roughly|approximately|barely|~|≈)\s*)*(?P<k>\d+(?:\.\d+)?)\s*(?:x|×|倍)?(?![\d.%A-Za-z])"
    r"(?!\s*(?:to|→|->|到|提到|升到|降到|变成)\s*\d)"  # ('从 0.933 提到了 0.945': a figure that moved)
    r"|(?P<k2>\d+(?:\.\d+)?)\s*(?:x|×|倍)(?:的)?\s*(?:speed-?up|加速比?)(?![A-Za-z])"
    # s12 a factor a run gets: 'it scales to only 1.2x on two servers', 'two servers only give 1.2x', 'we get 1.3x on 2
    # nodes' (never '8x H100', a count of GPUs, nor '3x slower', a pace said the other way)
    r"|(?<![A-Za-z])(?:scal(?:es|ed|ing)|gives?|gave|giving|gets?|got|getting|reach(?:es|ed)?|achiev(?:es|ed)|see|saw)\s+"
    r"(?:(?:to|us|me|only|just|about|around|roughly|barely|a|an|~)\s+|~)*(?P<k3>\d+(?:\.\d+)?)\s*(?:x|×)"
    r"(?![A-Za-z\d])(?!\s*(?:[ＧG·▪]|GPUs?|cards?|nodes?|machines?|servers?|slower|faster|longer|more|less|worse|"
    r"higher|lower|speed-?ups?|卡))", _IC)
# 'speedup' said of something else than the scale: a change made to the job, a collective, a kernel, a benchmark
_CHANGE_SPEEDUP = re.compile(r"(?<![A-Za-z])(?:after|enabl\w*|turn\w* on|switch\w*|upgrad\w*|fix\w*|by using|with the|"
                             r"thanks to|compil\w*|from (?:using|setting))(?![A-Za-z])|开启|打开|升级|改成|换成|之后|以后|优化后",
                             _IC)
_SCALED_RUN = re.compile(r"多机|多节点|多卡|跨机|分布式|(?<![A-Za-z])(?:multi-?(?:node|machine|GPU|host)|distributed|scal\w*|"
                         r"across (?:nodes|machines))(?![A-Za-z])", _IC)


def _speedup_named(text: str, found: Scaling) -> list[Understood]:
    """One speed-up named in the question (two of them, or one beside several runs, leave whose it is unsaid)."""
    if any(h.fact == "job.speedup" for h in found.hits):
        return []
    hits: list[Understood] = []
    for m in _SPEEDUP_NAMED.finditer(text):
        a, b = tx.sentence_bounds(text, m.start())
        k = float(m["k"] or m["k2"] or m["k3"])
        clause = tx.clause_bounds(text, m.start())
        contrast = re.search(r".*(?:(?<![A-Za-z])(?:but|however|yet|instead)(?![A-Za-z])|但|却|结果|实际)", text[clause[0]:m.start()],
                             _IC | re.DOTALL)
        wanted_from = clause[0] + (contrast.end() if contrast else 0)
        if not 0 < k <= 1024 or _TARGET.search(text, wanted_from, clause[1]) or _ASKS_FOR.search(text, *clause) \
                or _NOT_THE_JOB.search(text, clause[0], m.start()) or _CHANGE_SPEEDUP.search(text, a, b):
            continue
        over = _OVER.match(text, m.end(), clause[1])
        if over and _run_size(re.split(r"\s+(?:on|with|for|in|at|across|using)\s+|在|用", text[over.end():clause[1]])[0]) is None:
            continue  # ('H100 gives a 3x speedup over A100', 'a 2x speedup vs the old cluster')
        sizes = run_sizes(text, a, b)
        if any(len({s[0] for s in sizes if s[2] == kind}) > 1 for kind in ("nodes", "gpus")):
            return []  # ('2 机共 4 卡加速比 3.5，3 机 6 卡 5.23，4 机 8 卡只有 5.46': a series, the job's figure unsure)
        # s12 the factor hoped for before 'but' ('I expected ~16x speedup but got 9x') is a target, not a second run
        hoped = clause[0] if contrast and _TARGET.search(text, clause[0], wanted_from) else wanted_from
        if any(not m.start() <= f.start() < m.end() and not any(z[3] <= f.start() < z[4] for z in sizes)
               and float(f["k"]) != k and not hoped <= f.start() < wanted_from for f in _OTHER_FACTOR.finditer(text, a, b)):
            return []  # ('my 2-node speed-up is 1.97x with synthetic data, but with real data it is only 1.45x')
        if "加速比" not in m.group(0) and not any(s[0] > 1 for s in sizes) and not _SCALED_RUN.search(text, a, b):
            continue  # ('a 2x speedup' of what, unsaid)
        hits.append(Understood("job.speedup", k, m.group(0), m.start(), m.end()))
        if k < 1:
            hits.append(Understood("job.negative_scaling", True, m.group(0), m.start(), m.end()))
    if len({h.value for h in hits if h.fact == "job.speedup"}) > 1:
        return []  # ('with synthetic data the speed-up is 1.97x, with real data only 1.45x')
    return hits


# en-s12b a factor over one machine: 'throughput is 1.3x of a single node', '1.3x the throughput of one node', 'a 1.3x
# speedup over a single node', '1.3x faster than a single node': that machine is the run compared with, the factor the
# job's speed-up (not '3x the throughput of a single GPU', nor a factor hoped for or asked)
_FACTOR_OVER_ONE = re.compile(r"(?<![\w.])(?P<k>\d+(?:\.\d+)?)\s*(?:x|×|times)\s+(?:(?:the\s+)?(?:throughput|speed|"
                              r"performance|speed-?up)\s+)?(?:of|over|compared (?:to|with)|relative to|vs\.?|versus|"
                              r"(?:faster|quicker|more)\s+than|that of)\s+(?:that of\s+)?(?:the\s+)?(?P<one>(?:a single|single|"
                              r"one|1)[- ]?(?:node|machine|server|box|host)s?)(?![A-Za-z])", _IC)


def _factor_over_one(text: str, found: Scaling) -> list[Understood]:
    """The speed-up over one machine said as a factor, the larger run left unsaid or said elsewhere."""
    if any(h.fact in {"job.speedup", "job.baseline_nodes", "job.baseline_gpus"} for h in found.hits):
        return []
    for m in _FACTOR_OVER_ONE.finditer(text):
        k = float(m["k"])
        clause = tx.clause_bounds(text, m.start())
        if not 0 < k <= 1024 or _TARGET.search(text, *clause) or _ASKS_FOR.search(text, *clause) \
                or _NOT_THE_JOB.search(text, clause[0], m.start()) \
                or _CHANGE_SPEEDUP.search(text, *tx.sentence_bounds(text, m.start())):
            continue
        found.baseline_spans.append((m.start("one"), m.end("one")))
        hits = [Understood("job.speedup", k, m.group(0), m.start(), m.end()),
                Understood("job.baseline_nodes", 1, m.group(0), m.start("one"), m.end("one"))]
        if k < 1:
            hits.append(Understood("job.negative_scaling", True, m.group(0), m.start(), m.end()))
        return hits
    return []


_OVER = re.compile(r"\s*(?:over|vs\.?|versus|compared (?:to|with)|relative to|against|than|相比|相对于?|比)\s*", _IC)
_OTHER_FACTOR = re.compile(r"(?<![\w.])(?P<k>\d+(?:\.\d+)?)\s*(?:x|×|倍)(?![A-Za-z\d])", _IC)
# 'Scaling falls off after 4 nodes', 'scales linearly up to 8 GPUs, then flattens', '超过 4 台以后加速比就上不去了', '8 卡以内
# 还是线性的': the size up to which the job scaled well is the run the larger job is compared with, not the job's size.
_RUN_WORD = r"(?:-\s*)?(?P<w>nodes?|machines?|servers?|hosts?|GPUs?|cards?|台(?:机器|服务器)?|个?节点|机|卡|张卡)"
_FALLS = (r"(?:falls? off|fell off|drops? off|dropped off|drops|dropped|degrades?|degraded|breaks? down|broke down|gets? worse|"
          r"got worse|tanks?|tanked|plateaus?|plateaued|flattens?|flattened|saturates?|saturated|stops? (?:scaling|improving)|"
          r"stopped (?:scaling|improving)|collapses?|collapsed|goes (?:bad|down)|went (?:bad|down))")
_SCALES_UP_TO = re.compile(
    rf"(?<![A-Za-z])(?:scaling|it|throughput|speed-?up|efficiency|performance|training)\s+(?:\w+\s+)?{_FALLS}\s+(?:after|beyond|"
    rf"past|above|over|once (?:we|I) (?:go|get) (?:past|beyond|above|over))\s+(?P<n>{COUNT})\s*{_RUN_WORD}(?![A-Za-z])|"
    rf"(?<![A-Za-z])scales?\s+(?:well|fine|nicely|linearly|ok|okay|almost linearly|near[- ]linearly)\s+(?:up\s+)?to\s+"
    rf"(?P<n2>{COUNT})\s*{_RUN_WORD.replace('?P<w>', '?P<w2>')}(?![A-Za-z])|"
    rf"(?:超过|超出|大于|多于)\s*(?P<n3>{COUNT})\s*{_RUN_WORD.replace('?P<w>', '?P<w3>')}\s*(?:以后|之后|后|以上)?[，,]?\s*"
    rf"(?:扩展性|扩展效率|加速比|效率|速度|吞吐|性能|训练)?\s*(?:就|便|则)?\s*(?:上不去|不行|变差|很差|下降|掉|不再线性|不线性|不再提升)|"
    rf"(?P<n4>{COUNT})\s*{_RUN_WORD.replace('?P<w>', '?P<w4>')}\s*以(?:内|下)\s*(?:都|还|基本)?(?:是|能)?\s*(?:线性|接近线性|近似线性)",
    _IC)


def _scales_up_to(text: str, found: Scaling) -> list[Understood]:
    if {h.fact for h in found.hits} & {"job.baseline_nodes", "job.baseline_gpus"}:
        return []
    for m in _SCALES_UP_TO.finditer(text):
        if _TARGET.search(tx.clause(text, m.start())) or _ASKS_FOR.search(tx.clause(text, m.start())):
            continue
        group = next(g for g in ("n", "n2", "n3", "n4") if m[g])
        n = _count(m[group])
        word = m["w" + group[1:]]
        if not n:
            continue
        fact = "job.baseline_gpus" if re.search(r"GPU|card|卡", word, _IC) else "job.baseline_nodes"
        found.baseline_spans.append((m.start(group), m.end("w" + group[1:])))
        return [Understood(fact, n, m.group(0), m.start(group), m.end("w" + group[1:]))]
    return []


# a speed-up asked about, not measured: 'what speedup should 8 nodes give?', '加速比能到多少'
_ASKS_FOR = re.compile(r"(?<![A-Za-z])(?:what|how much|how many|which|would|could|will|can we|can I)(?![A-Za-z])|多少|能到|能否|"
                       r"能不能|会不会|吗|[?？]", _IC)


# '与单机相比，双机训练速度下降了 40%', '相比单机，两机的吞吐反而降低了', 'compared to a single node, throughput on 2 nodes
# dropped': a smaller run named as the reference, and the pace of the larger run said to fall against it.
_COMPARED = re.compile(r"(?:与|和|跟|同)(?P<obj>[^，。,;；！？?!\n]{1,16}?)(?:相比|比较|对比|比起来)(?:之下)?|"
                       r"(?:相比于?|相较于?|比起|对比|较之)(?P<obj2>[^，。,;；！？?!\n]{1,16}?)(?=[，,]|\s*(?:而言|来说|的话)|"
                       # (counts-zh-s13 '相比 4 卡，': the count's unit after a space is still the run's)
                       r"\s+(?!(?:张|块)?\s*(?:卡|台|机|节点|GPU|nodes?(?![A-Za-z])|GPUs?(?![A-Za-z]))))|"
                       r"(?<![A-Za-z])(?:compared (?:to|with)|relative to|versus|vs\.?|against)\s+(?:running\s+)?(?:on\s+|with\s+|"
                       r"using\s+)?(?P<obj3>[^,.;:!?，。；：\n]{1,30}?)(?=[,，]|\s+(?:the|our|my|it|we|training|throughput|"
                       r"speed|step|epoch)\b)", _IC)
_DECLINE = re.compile(r"(?:下降|降低|减少|掉|变慢|更慢|慢|减半|缩水)(?:了)?\s*(?:大约|约|近|将近|差不多)?\s*(?:(?P<p>\d+(?:\.\d+)?)\s*%)?|"
                      r"(?<![A-Za-z])(?:drops?|dropped|falls?|fell|decreas\w*|goes down|went down|lower|worse|slower|"
                      r"halved|halves)(?![A-Za-z])(?:\s+(?:by\s+)?(?:about\s+|around\s+|~\s*)?(?P<p2>\d+(?:\.\d+)?)\s*%)?", _IC)


_GAIN = re.compile(r"提升|提高|加速|快了|变快|涨了|增加了|(?<![A-Za-z])(?:faster|speed-?up|gain)(?![A-Za-z])", _IC)


def _compared_with(text: str, found: Scaling) -> list[Understood]:
    """A smaller run named as the reference ('与单机相比', 'compared to a single node') and the pace of a larger one
    said to fall against it, in the same sentence: negative scaling, by a share when one is given."""
    hits: list[Understood] = []
    said = {h.fact for h in found.hits}
    for m in _COMPARED.finditer(text):
        group = "obj" if m["obj"] else "obj2" if m["obj2"] else "obj3"
        ref = _run_size(m[group] or "")
        if ref is None:
            continue
        a, b = tx.sentence_bounds(text, m.start())
        rest = [s for s in run_sizes(text, a, b) if not m.start(group) <= s[3] < m.end(group) and s[2] == ref[1]]
        if not rest or any(s[0] <= ref[0] for s in rest):
            continue  # the run compared must be the larger
        fall = next((d for d in _DECLINE.finditer(text, m.end(), b)
                     if not _NOT_RATIO.search(text, max(a, d.start() - 8), d.start())
                     and not _OTHER_MEASURE.search(tx.clause(text, d.start())) and not _TARGET.search(text, a, b)), None)
        if fall is None or not (_PACE.search(text, a, b) or re.search(r"slower|慢", fall.group(0), _IC)) \
                or per_gpu_pace(text, fall.start()):
            # counts-zh-s13 compared with: '相比 4 卡，8 卡只提升了 20%', '和单卡相比，双卡几乎没有加速': the smaller run named as
            # the reference of a larger one's pace is its baseline, whichever way the pace went
            if fall is None and not said & {"job.baseline_nodes", "job.baseline_gpus"} and _GAIN.search(text, m.end(), b) \
                    and not _TARGET.search(text, a, b) and not _asked(text, m.end(), b):
                fact = "job.baseline_gpus" if ref[1] == "gpus" else "job.baseline_nodes"
                found.baseline_spans.append((m.start(group), m.end(group)))
                return [Understood(fact, ref[0], m[group], m.start(group), m.end(group))]
            continue
        words = text[m.start():fall.end()]
        if "job.negative_scaling" not in said:
            hits.append(Understood("job.negative_scaling", True, words, m.start(), fall.end()))
        pct = fall["p"] or fall["p2"]
        if pct and 0 < float(pct) < 100 and "job.speedup" not in said:
            hits.append(Understood("job.speedup", round(1 - float(pct) / 100, 4), words, m.start(), fall.end()))
        elif re.search(r"减半|halve", fall.group(0), _IC) and "job.speedup" not in said:
            hits.append(Understood("job.speedup", 0.5, words, m.start(), fall.end()))
        if not said & {"job.baseline_nodes", "job.baseline_gpus"}:
            fact = "job.baseline_gpus" if ref[1] == "gpus" else "job.baseline_nodes"
            hits.append(Understood(fact, ref[0], m[group], m.start(group), m.end(group)))
        found.baseline_spans.append((m.start(group), m.end(group)))
        break
    return hits


# The larger run is no faster than a smaller one: the smaller one is the baseline of the comparison.
# (cnt the larger run said between: 'the same speed on 8 GPUs as on 4 GPUs')
_SAME_AS = re.compile(r"(?:the\s+)?same\s+(?:speed|time|throughput|pace|step time|performance)?\s*"
                      r"(?:(?:on|with|using)\s+[^,.;:!?，。；：\n]{1,24}?\s+)?as\s+(?:on\s+|with\s+|using\s+)?"
                      r"(?P<obj>[^,.;:!?，。；：\n]{1,30})|(?:no|not any|not)\s+faster\s+than\s+(?:on\s+|with\s+)?"
                      r"(?P<obj3>[^,.;:!?，。；：\n]{1,30})|"
                      # 'with 2 nodes it is as fast as with 1 node' (never 'twice as fast as', 'not as fast as')
                      r"(?:(?<=is )|(?<=was )|(?<=are )|(?<=were )|(?<=just )|(?<=about )|(?<=only )|(?<=roughly )|(?<=it's ))"
                      r"as\s+(?:fast|quick)\s+as\s+(?:on\s+|with\s+|using\s+)?(?P<obj4>[^,.;:!?，。；：\n]{1,30})|"
                      r"(?:跟|和|与|同)(?P<obj2>[^，。,;；！？?!\n]{1,16}?)(?:的)?\s*(?:速度|时间|耗时|用时|吞吐)?\s*(?:差不多|一样|一致|"
                      r"相当|相同|相近|持平|没(?:什么|啥)?(?:区别|差别))(?!的)", _IC)
# ('每个节点的速度和单节点时一致', 'per-GPU throughput is the same as on one node': each one's pace kept, linear scaling)
_EACH_ONES_PACE = re.compile(r"每个?(?:节点|台|机器?|卡|张卡|GPU)|(?<![A-Za-z])(?:per[- ](?:node|GPU|device|card|machine)|"
                             r"each (?:node|GPU|machine|card)'?s?)(?![A-Za-z])", _IC)
_PACE = re.compile(r"速度|时间|耗时|用时|吞吐|慢|快|time|speed|throughput|fast|slow|epoch|step|iter|tok/s|samples/s", _IC)


# 'Standalone without kvstore: … On 3 machines each node is 10 times slower': a run on one machine alone, named with no
# count, is the baseline of a comparison the question makes with a larger run.
_STANDALONE = re.compile(r"(?<![\w-])(?:stand-?alone|non-distributed|undistributed)(?![\w-])|单机版|单机模式", _IC)


def _standalone(text: str, found: Scaling) -> list[Understood]:
    facts = {h.fact for h in found.hits}
    if not facts & {"job.negative_scaling", "job.speedup"} or facts & {"job.baseline_nodes", "job.baseline_gpus"}:
        return []
    if not any(n > 1 for n, _, kind, _, _ in run_sizes(text, 0, len(text)) if kind == "nodes"):
        return []
    m = _STANDALONE.search(text)
    return [Understood("job.baseline_nodes", 1, m.group(0), m.start(), m.end())] if m else []


# '同样的代码在单台 8 卡上用 MirroredStrategy 就很快', 'on a single node it runs fine': a smaller run said to go well
_FINE = re.compile(r"(?:(?:很|挺|非常|比较|就|都|跑得|速度)(?:快|正常)|正常|(?:跑得|跑的)?好好的)(?![^，。,;；]*(?:吗|么|\?|？))|没(?:有|什么|啥)?问题|"
                   r"(?<![\w-])(?:runs?|ran|works?|worked|trains?|trained|is|was|are|were|goes|went)\s+(?:\w+\s+)?"
                   r"(?:fine|fast|well|quickly|normally|great|ok|okay)(?![\w-])", _IC)
_NOT_FINE = re.compile(r"不|没|未|也慢|not|n't|never|no\b", _IC)


# counts-zh-s13 fine then slower: '单机正常，双机变慢', '单机 8 卡没问题，两台就慢了很多', 'one node is fine, two nodes got
# slower': the larger run said to have become slower than the one machine said to go well (a bare '很慢' is its pace, not a
# comparison, and stays unread)
_BECAME_SLOWER = re.compile(r"(?:就|却|反而|都|也)?\s*(?:变得?|更|反而)\s*(?:特别|非常|很|十分|更|好)?慢|慢了(?!吗|么)|慢(?:了)?(?:很多|不少|一倍|好多|得多|一截)|"
                            r"(?<![A-Za-z])(?:got|gets|became|becomes|is|was)\s+(?:much\s+|a lot\s+)?slower(?![A-Za-z])", _IC)
_LARGER_RUN = re.compile(r"多机|多节点|多台|双机|两机|双节点|跨机|跨节点|(?<![A-Za-z])(?:multi-?node|multiple (?:nodes|machines)|"
                         r"distributed)(?![A-Za-z])", _IC)


def _fine_then_slower(text: str, found: Scaling) -> list[Understood]:
    if any(h.fact == "job.negative_scaling" for h in found.hits):
        return []
    for m in _FINE.finditer(text):
        a = tx.clause_bounds(text, m.start())[0]
        ones = [s for s in run_sizes(text, a, m.start()) if s[2] == "nodes"]
        if len(ones) != 1 or ones[0][0] != 1 or _NOT_FINE.search(text, ones[0][4], m.start()) \
                or _NOT_FINE.search(m.group(0)) and not re.fullmatch(r"没(?:有|什么|啥)?问题", m.group(0)):
            continue  # ('单机没问题' is fine said with a negation of its own)
        rest = text[m.end():tx.sentence_bounds(text, m.start())[1]]
        for slower in _BECAME_SLOWER.finditer(rest):
            before = rest[max(0, slower.start() - 16):slower.start()]
            at = m.end() + slower.start()
            if _NOT_FINE.search(before[-3:]) or _TARGET.search(before) or _ASKING.search(before[-6:]) \
                    or _asked(text, at, at + len(slower.group(0))):
                continue  # ('单机正常，双机是否会变慢？': a question of what to expect)
            size = [s for s in run_sizes(before, 0, len(before)) if s[2] == "nodes" and s[0] > 1]
            if size or _LARGER_RUN.search(before):
                return [Understood("job.negative_scaling", True, text[ones[0][3]:at + len(slower.group(0))], ones[0][3],
                                   at + len(slower.group(0)))]
    return []


def _fine_alone(text: str, found: Scaling) -> list[Understood]:
    """A run on one machine said to go well, in a question about a larger one: that machine is the baseline."""
    if {h.fact for h in found.hits} & {"job.baseline_nodes", "job.baseline_gpus"}:
        return []
    if not any(n > 1 for n, _, kind, _, _ in run_sizes(text, 0, len(text)) if kind == "nodes") \
            and not any(n > 1 for n, _, _ in elided_node_counts(text)):  # s13 elided: 'fine on 1 node, slow on 2'
        return []
    for m in _FINE.finditer(text):
        a, b = tx.clause_bounds(text, m.start())
        ones = [s for s in run_sizes(text, a, m.start()) if s[2] == "nodes"]
        if len(ones) == 1 and ones[0][0] == 1 and not _NOT_FINE.search(text, ones[0][4], m.start()) \
                and not _NOT_FINE.search(m.group(0)):
            one = ones[0]
            found.baseline_spans.append((one[3], one[4]))
            return [Understood("job.baseline_nodes", 1, text[one[3]:m.end()], one[3], m.end())]
    return []


# cnt fine and slow: a smaller run said to go well beside a larger one of the same kind said to go slowly ('8卡训练正常，
# 16卡训练很慢', '4卡没问题，8卡就很慢', '8 GPU training is fine, 16 GPU training is slow', 'the 16-GPU run is slow, the 8-GPU
# run is fine'): the smaller run is the baseline (its count no count of the job's), the larger the job
_SLOW_SAID = re.compile(r"慢|下降|降低|掉|(?<![A-Za-z])(?:slow\w*|worse|drops?|dropped|degrad\w*|poor(?:ly)?|bad(?:ly)?|"
                        r"hangs?|stalls?)(?![A-Za-z])", _IC)
_CONTRAST = re.compile(r"(?<![A-Za-z])(?:but|however|while|whereas|yet)(?![A-Za-z])|但是?|却|可是|然而", _IC)
# (never a machine's share: 'each node has 8 GPUs and runs fine', '每台 8 卡正常')
_SHARE_OF_EACH = re.compile(r"每|各|(?<![A-Za-z])(?:each|every|per)(?![A-Za-z])", _IC)


def _fine_and_slow(text: str, found: Scaling) -> list[Understood]:
    if {h.fact for h in found.hits} & {"job.baseline_nodes", "job.baseline_gpus", "job.speedup"}:
        return []
    for m in _FINE.finditer(text):
        if _NOT_FINE.search(m.group(0)) and not re.fullmatch(r"没(?:有|什么|啥)?问题", m.group(0)):
            continue
        a, b = tx.clause_bounds(text, m.start())
        # ('runs fine on 8 GPUs but slows down on 32 GPUs': a contrast parts the clause)
        a = max([a] + [c.end() for c in _CONTRAST.finditer(text, a, m.start())])
        b = next((c.start() for c in _CONTRAST.finditer(text, m.end(), b)), b)
        mine = run_sizes(text, a, b)
        if len(mine) != 1 or mine[0][3] < m.start() and _NOT_FINE.search(text, mine[0][4], m.start()) \
                or _SHARE_OF_EACH.search(text, a, b) or _asked(text, a, b):
            continue
        n, _, kind, s, e = mine[0]
        sa, sb = tx.sentence_bounds(text, m.start())
        others = [x for x in run_sizes(text, sa, a) + run_sizes(text, b, sb) if x[2] == kind]
        if len(others) != 1 or others[0][0] <= n:
            continue
        oa, ob = tx.clause_bounds(text, others[0][3])
        if not _SLOW_SAID.search(text, oa, ob) or _SHARE_OF_EACH.search(text, oa, ob) or _asked(text, oa, ob):
            continue
        found.baseline_spans.append((s, e))
        return [Understood("job.baseline_gpus" if kind == "gpus" else "job.baseline_nodes", n, text[s:m.end()], s, m.end())]
    return []


# cnt run against run: 'the 16-GPU run vs the 8-GPU run', '16 GPU job versus 8 GPU job', '2 nodes vs 1 node' (no figures
# between): the smaller run is the baseline
_RUN_WORD = r"(?:\s*(?:runs?|jobs?|training|setup|case|config(?:uration)?|训练|任务))?"


def _run_versus_run(text: str, found: Scaling) -> list[Understood]:
    if {h.fact for h in found.hits} & {"job.baseline_nodes", "job.baseline_gpus"}:
        return []
    for a, b in _sentence_spans(text):
        sizes = run_sizes(text, a, b)
        for (n1, _, k1, s1, e1), (n2, _, k2, s2, e2) in zip(sizes, sizes[1:], strict=False):
            if k1 != k2 or n1 == n2:
                continue
            if not re.fullmatch(rf"{_RUN_WORD}{_VS_JOIN.pattern}(?:the\s+|a\s+|an\s+)?", text[e1:s2], _IC):
                continue
            small = (n1, s1, e1) if n1 < n2 else (n2, s2, e2)
            found.baseline_spans.append((small[1], small[2]))
            return [Understood("job.baseline_gpus" if k1 == "gpus" else "job.baseline_nodes", small[0],
                               text[small[1]:small[2]], small[1], small[2])]
    return []


_GOES_UP = re.compile(r"(?:epoch|step|iteration|training|run)(?:\s*time)?\s+(?:\w+\s+){0,2}?(?:goes|went|jumps?|jumped|rises?|rose|"
                      r"increases?|increased|grows?|grew|climbs?|climbed)\s+(?:up\s+)?to|"
                      r"(?:epoch|step|迭代|训练)[^，。,;；\n]{0,12}?(?:反而)?(?:涨到|增加到|升到|变成了?|延长到)", _IC)
_RATE_MOVES = re.compile(r"(?:throughput|吞吐(?:量)?|speed|速度|samples/s|tokens/s|tok/s|img/s|it/s)[^，,。.;；\n]{0,16}?"
                         r"(?:drops?|dropped|falls?|fell|goes down|went down|decreases?|decreased|rises?|rose|goes up|went up|"
                         r"掉|降|下降|变|涨|升)(?:了)?\s*(?:from\s+|从\s*)?(?P<a>\d+(?:\.\d+)?)\s*(?:[A-Za-z/]+(?:/s)?\s*)?"
                         r"(?:to|到|变成|降到|掉到)\s*(?P<b>\d+(?:\.\d+)?)", _IC)
_ADDING = re.compile(r"(?:when|once|after|if)\s+(?:I|we)\s+add|adding\s+(?:a\s+)?(?:second|another|more|\d+)|"
                     r"(?:a second|another) (?:machine|node|server|box)|加(?:了|上)?(?:一台|第二台|机器|节点)|"
                     r"(?:增加|扩展)到\s*(?:两|2|多)\s*(?:台|机|个节点)", _IC)
_TIMES_FOR_TIMES = re.compile(
    r"(?P<k>\d+(?:\.\d+)?)\s*(?:x|×|times)\s+(?:the\s+)?(?:throughput|speed|performance|samples/s|tokens/s)\s+"
    r"(?:for|with|from|on|using)\s+(?P<n>\d+(?:\.\d+)?)\s*(?:x|×|times)\s+(?:the\s+)?(?:compute|GPUs|nodes|machines|"
    r"hardware|resources)|(?P<n2>\d+(?:\.\d+)?)\s*倍(?:的)?(?:卡|机器|节点|资源|算力)[^，,。；;]{0,8}?(?:只|仅)?(?:有|快了?|提升了?)"
    r"\s*(?P<k2>\d+(?:\.\d+)?)\s*倍", _IC)
_PERCENT_FASTER = re.compile(r"(?P<pct>\d+(?:\.\d+)?)\s*%\s*(?P<dir>faster|quicker|slower)\s+than|"
                             r"(?:快|慢)了?\s*(?P<pct2>\d+(?:\.\d+)?)\s*%", _IC)


# (counts-s11: '单个节点' is one machine too)
# (s22 a whole number: the 1 of 'less than 10%' or '1.5' is no run on one machine)
# (s24 one board named by its model: '比单块 3090 还慢', '比一张 A100 还慢', 'slower than on a single 3090')
_RUN_SINGLE = re.compile(rf"单机|单节点|单台|一台|单卡|一卡|单个(?:节点|机器|服务器|主机)|(?<![\d.])1\s*卡|"
                         rf"(?:单|一)\s*(?:块|张|个)\s*(?:卡|显卡|GPU|{GPU_MARK}+)|"
                         r"(?<![A-Za-z])(?:a single|single|one|that one|the one|(?<![\d.])1(?![\d.,%]))"
                         rf"(?:[- ](?:node|machine|server|box|host|instance|GPU|card)s?|\s*{GPU_MARK}+)?(?![A-Za-z])", _IC)


def _bare_run(text: str, obj: str, at: int) -> tuple[int, str] | None:
    """counts-s11 bare than: 'with 4 nodes the epoch takes longer than with 2': a bare count takes the kind of the run
    said before it in its sentence."""
    bare = re.fullmatch(rf"\s*(?:(?:on|with|using|in)\s+)?(?:the\s+)?(?P<n>{COUNT})\s*(?:个|台)?\s*", obj, _IC)
    n = _count(bare["n"]) if bare else None
    if n and bare and bare["n"].isdigit() and _numbered_item(text, n):
        return None  # s21 '1. SSD + 2×3090 …；2. HDD + 4×A100，比 1 慢很多': item 1 of the list, no run size
    sizes = run_sizes(text, tx.sentence_bounds(text, at)[0], at) if n else []
    return (n, sizes[-1][2]) if n and sizes and sizes[-1][0] > n else None


_PRONOUN_ONE = re.compile(r"\s*(?:the|this|that|our|my|your|their|its)\s+(?:[A-Za-z-]+\s+){0,2}?ones?(?![A-Za-z])"
                          r"(?!\s*(?:node|machine|server|box|host|GPU|card))", _IC)


# 'one' with its noun left out ('slower than on one', '比一张还慢', 'than with a single one')
_NOUNLESS_ONE = re.compile(r"\s*(?:(?:on|with|using|in)\s+)?(?:(?:a\s+)?single(?:\s+one)?|one|1|一张|一块|一台|单张|单块)\s*"
                           r"(?:(?:alone|only)\s*)?(?:还|都|更|要|反而|也)?\s*", _IC)
_KIND_NOUN = re.compile(rf"(?P<g>GPUs?|cards?|devices?|卡|张|块|{GPU_MARK}+)|(?P<n>nodes?|machines?|servers?|hosts?|boxes|"
                        r"instances?|台|机(?![器房架柜])|节点)", _IC)


def _kind_said_before(text: str, at: int) -> str | None:
    """Whether the last run named before `at` in its sentence counts GPUs or machines."""
    nouns = list(_KIND_NOUN.finditer(text, tx.sentence_bounds(text, at)[0], at))
    return None if not nouns else "gpus" if nouns[-1]["g"] else "nodes"


def _run_size(obj: str) -> tuple[int, str] | None:
    """The size of the run named after 'than' / '比': (count, 'nodes' or 'gpus'), or None if it names no run."""
    if _PRONOUN_ONE.match(obj):
        return None  # 'as fast as the old one', 'slower than this one': a pronoun, no run on one machine
    sizes = run_sizes(obj, 0, len(obj))
    if sizes:
        n, _, kind, _, _ = sizes[0]
        return n, kind
    m = _RUN_SINGLE.search(obj)
    if m:
        return 1, "gpus" if re.search(rf"GPU|card|卡|{GPU_MARK}", m.group(0), _IC) else "nodes"
    if re.fullmatch(r"\s*(?:一|单)\s*(?:张|块)\s*(?:还|都|更|要|反而|也)?\s*", obj):
        return 1, "gpus"  # '两张卡比一张还慢': one card, its noun left out
    return None


# The counts before the last of a series of them ('1, 2 or ' of '1, 2 or 5 machines', '1/2/' of '1/2/4 nodes'), the series
# opened by a preposition or a clause ('with 1, 2 or', '，1/2/'), not by a run's figure ('2 nodes 3500, 4 nodes').
_LISTED_BEFORE = re.compile(rf"(?:(?<![^(（:：,，;；。、\n])|\b(?:with|on|across|using|over|for|at|in|of|tried)\s+|用|在|试了?)"
                            rf"(?P<list>{COUNT}(?:\s*(?:/|、|,|，)\s*{COUNT})*)"
                            rf"\s*(?:/|、|,|，|和|及|或|or|and|,\s*(?:and|or))\s*\Z", _IC)


def _listed(text: str, start: int, n: int) -> bool:
    """Whether the size at `start` (a count of `n`) ends a rising series of counts ('with 1, 2 or 5 machines', '1/2/4
    机'): a range of runs or options said at once, not the one run a figure beside it was measured on."""
    m = _LISTED_BEFORE.search(text, max(0, start - 60), start)
    if not m:
        return False
    counts = [_count(c.group(0)) or 0 for c in re.finditer(COUNT, m["list"], _IC)] + [n]
    return all(0 < x < y for x, y in zip(counts, counts[1:], strict=False))


# cnt a worker's own GPUs said right after it: '单个 worker 4 张卡', '2 个 worker、每台 4 张卡', '2 workers with 8 GPUs
# each' (a machine of the job, not a process of one GPU)
_WORKER_HOLDS_GPUS = re.compile(rf"\s*(?:[,，、]\s*)?(?:(?:每台|每个|各|(?:each\s+)?(?:with|having|has)|each)\s*(?:有|用|是)?\s*)?"
                                rf"{COUNT}\s*(?:张|块|个)?\s*(?:[x×*]\s*)?(?:GPUs?|cards?|卡|显卡|{GPU_MARK}+)", _IC)


def run_sizes(text: str, a: int, b: int) -> list[tuple[int, int, str, int, int]]:
    """(value, position, 'nodes'|'gpus', start, end) of the run sizes named in text[a:b]; a size ending a series of
    counts ('1, 2 or 5 machines') names no single run."""
    out = []
    for m in _SIZE.finditer(text, a, b):
        if m["n"] and _listed(text, m.start(), _count(m["n"]) or 0):
            continue
        if m["gm"]:
            n = 1 if "single" in m["gn"].lower() else _count(m["gn"])
            if n:
                out.append((n, m.start(), "gpus", m.start(), m.end()))
            continue
        if m["single"]:
            kind = "gpus" if re.search(r"GPU|卡", m["single"], _IC) else "nodes"
            out.append((1, m.start(), kind, m.start(), m.end()))
            continue
        if m["both0"]:
            out.append((2, m.start(), "nodes", m.start(), m.end()))
            continue
        if m["nx"] or m["both"]:
            n = _count(m["nx"]) if m["nx"] else 2
            kind = "gpus" if re.search(rf"GPU|card|{GPU_MARK}", m["wx"] or m["wb"], _IC) else "nodes"
            if n:
                out.append((n, m.start(), kind, m.start(), m.end()))
            continue
        n = _count(m["n"])
        if not n:
            continue
        if m["w"] == "张" and not re.search(rf"GPU|显卡|卡|{GPU_MARK}", text[max(a, m.start() - 24):m.start()], _IC):
            continue  # s11 bare classifier: '8 张' counts GPUs only where GPUs were just named
        if m["w"].lower().startswith("worker"):
            if _WORKER_HOLDS_GPUS.match(text, m.end()):
                out.append((n, m.start(), "nodes", m.start(), m.end()))
                continue  # cnt '单个 worker 4 张卡', '2 workers, each with 4 GPUs': a worker holding GPUs is a machine
            if _parameter_server(text):
                continue  # a parameter-server job's workers are machines or processes: how many GPUs each, unsaid
            kind = "gpus"  # data-parallel workers ('the 4-worker case', Ray Train, Horovod): one GPU each
        else:
            kind = "gpus" if re.search(rf"GPU|card|卡|张|{GPU_MARK}", m["w"], _IC) else "nodes"
        out.append((n, m.start(), kind, m.start(), m.end()))
    return out


# a parameter server named, or machines given its roles ('2 台做 worker、2 台做 server', 'workers and servers')
_PARAMETER_SERVER = re.compile(r"parameter[ -]servers?|\bPS\b|kv-?store|dist[_-]sync|BytePS|参数服务器|"
                               r"(?:做|作为|\bas(?: the)?)\s*servers?\b|workers?\s*(?:和|与|及|、|/|,|and)\s*(?:\w+\s*)?servers?\b|"
                               r"servers?\s*(?:和|与|及|、|/|,|and)\s*(?:\w+\s*)?workers?\b", _IC)


@lru_cache(maxsize=8)
def _parameter_server(text: str) -> bool:
    """Whether the question names a parameter server (its workers are not one GPU each); once per question."""
    return bool(_PARAMETER_SERVER.search(text))


def _pairs(text: str, found: Scaling) -> list[Understood]:
    """'3 hours on one box, 5 hours on two' / '单机 20 分钟，两台 35 分钟' / '128 img/s on one node, 17 on two'."""
    hits: list[Understood] = []
    fixed = bool(_FIXED_GLOBAL_BATCH.search(text))
    for start, end in _sentence_spans(text):
        quantities, rough = _quantities(text, start, end)
        quantities = quantities + _echoed_rate(text, start, end, quantities)  # cmp-s10 echoed rate
        for kind in ("time", "step", "rate", "rate-per-gpu"):
            same = [q for q in quantities if q[0] == kind]
            if len(same) != 2:
                continue
            (_, v1, a1, b1), (_, v2, a2, b2) = same
            left_end, right_start = tx.clause_bounds(text, a1)[1], tx.clause_bounds(text, a2)[0]
            sentence1, sentence2 = tx.sentence_bounds(text, a1), tx.sentence_bounds(text, a2)
            if sentence1 != sentence2:  # one side per sentence: each side's run is named anywhere in its sentence
                left_end, right_start = sentence1[1], sentence2[0]
            left, right = (start, max(b1, min(left_end, a2))), (min(a2, max(right_start, b1)), end)
            s1, s2 = _matching_sizes(_sizes_near(text, a1, b1, *left), _sizes_near(text, a2, b2, *right))
            if s1 is None or s2 is None or s1[0] == s2[0]:
                # '单机 8 卡训练 60h；2 台机器、每台 8 卡训练 40h': the GPUs are alike, the machines named a clause away differ
                s1, s2 = _matching_sizes(_sizes_near(text, a1, b1, *left, wide=True),
                                         _sizes_near(text, a2, b2, *right, wide=True))
            if s1 is None or s2 is None or s1[0] == s2[0]:
                # '1.2 s on one node to 2.0 s on two': each figure's run named right after it
                s1, s2 = _matching_sizes(_sizes_near(text, b1, b1, b1, a2)[:1], _sizes_near(text, b2, b2, b2, end)[:1])
                if s1 is None or s2 is None or sentence1 != sentence2 or not (
                        b1 <= s1[3] < min(a2, b1 + 16) and b2 <= s2[3] < b2 + 16):
                    s1, s2 = _interleaved(text, sentence1, (a1, b1), (a2, b2)) if sentence1 == sentence2 else (None, None)
                if s1 is None or s2 is None:
                    if kind in ("step", "rate") or kind == "time" and not (_per_step(text, a1) or _per_step(text, a2)):
                        hits.extend(_one_and_many(text, found, (v1, a1, b1), (v2, a2, b2), left, right, kind))
                    continue
            if s1[0] == s2[0]:
                continue
            (small_n, small_v, small_span), (big_n, big_v, big_span) = sorted(
                [(s1[0], v1, s1[3:]), (s2[0], v2, s2[3:])])
            speedup = big_v / small_v if kind.startswith("rate") else small_v / big_v
            if kind == "rate-per-gpu":
                scale = big_n / small_n
                if s1[2] != "gpus":
                    # per-GPU rates of runs sized in machines: the GPUs each side names, else alike on every machine
                    g1 = [g for g in _sizes_near(text, a1, b1, *left, wide=True) if g[2] == "gpus"]
                    g2 = [g for g in _sizes_near(text, a2, b2, *right, wide=True) if g[2] == "gpus"]
                    if g1 and g2 and g1[0][0] != g2[0][0]:
                        scale = max(g1[0][0], g2[0][0]) / min(g1[0][0], g2[0][0])
                        if (g1[0][0] < g2[0][0]) != (s1[0] < s2[0]):
                            continue  # the larger run in machines has fewer GPUs: no comparison of scale
                speedup *= scale
            per_step = kind == "step" or (kind == "time" and (_per_step(text, a1) or _per_step(text, a2)))
            if per_step and not fixed:
                # A step on more GPUs does more work (same per-GPU batch): throughput is steps × size.
                speedup *= big_n / small_n
            span = (min(a1, a2), max(b1, b2))
            words = text[span[0]:span[1]]
            if a1 in rough or a2 in rough:
                if speedup >= 0.5:
                    continue  # '几十秒' against '一分钟' says too little
            else:
                hits.append(Understood("job.speedup", round(speedup, 4), words, *span))
            fact = "job.baseline_gpus" if s1[2] == "gpus" else "job.baseline_nodes"
            hits.append(Understood(fact, small_n, text[small_span[0]:small_span[1]], *small_span))
            found.baseline_spans.append(small_span)
            if speedup < 1:
                hits.append(Understood("job.negative_scaling", True, words, *span))
            if s1[2] == "nodes":
                hits.append(Understood("job.nodes", big_n, text[big_span[0]:big_span[1]], *big_span))
            if per_step and a1 not in rough and a2 not in rough:  # 'Single node: 2 it/s. Two nodes: 4 s/it.'
                (small_q, big_q) = ((a1, b1), (a2, b2)) if s1[0] < s2[0] else ((a2, b2), (a1, b1))
                hits.append(Understood("job.step_time_s", round(big_v, 6), text[slice(*big_q)], *big_q))
                hits.append(Understood("job.step_time_baseline_s", round(small_v, 6), text[slice(*small_q)], *small_q))
    return hits


Quantity = tuple[str, float, int, int]


def _interleaved(text: str, sentence: tuple[int, int], q1: tuple[int, int], q2: tuple[int, int]
                 ) -> tuple[Size | None, Size | None]:
    """s14 'It takes 3 h for the whole run on one node but 2 h for the whole run on two nodes': one sentence, two
    figures and two runs of one kind taking turns (figure, run, figure, run, or run, figure, run, figure), however
    many words lie between: each run is the one its figure's turn names."""
    for kind in ("nodes", "gpus"):
        sizes = [s for s in run_sizes(text, *sentence) if s[2] == kind]
        if len(sizes) != 2 or sizes[0][0] == sizes[1][0]:
            continue
        p1, p2 = sizes[0][3], sizes[1][3]
        if q1[1] <= p1 < q2[0] and q2[1] <= p2 or p1 < q1[0] and q1[1] <= p2 < q2[0]:
            return sizes[0], sizes[1]
    return None, None

# cmp-s10 echoed rate: 'one node does 2000 img/s, two nodes 2400', '单机每秒 2000 张图，两机只有 2400 张': the second run's
# figure bare (or with the counting word alone) in a later clause that names its own run, the unit left to the first
_ECHO = re.compile(r"(?<![\w.·])(?P<num>\d+(?:\.\d+)?)\s*(?P<k>[kK万](?![A-Za-z]))?\s*(?:多\s*)?"
                   r"(?:张(?:图片?|图像)?|个样本|条|样本|images?|imgs?|samples?|tokens?|seq(?:uence)?s?)?"
                   r"(?![\w.%/·]|\s*(?:%|x\b|×|倍|GB|Gb|MB|nodes?|machines?|servers?|GPUs?|cards?|台|机|卡|节点|个节点|秒|分钟|"
                   r"小时|s\b|ms|min|h\b|hours?|seconds?))", _IC)


def _echoed_rate(text: str, start: int, end: int, quantities: list[Quantity]) -> list[Quantity]:
    """cmp-s10 echoed rate: a bare figure after the sentence's only rate, in its own clause with its own run (nccl-cmp
    s13: or after its only duration, in the duration's unit: '3 hours on one box, 5 on two')."""
    rates = [q for q in quantities if q[0] == "rate"]
    times = [q for q in quantities if q[0] == "time"]
    if not rates and len(times) == 1 and len(quantities) == 1:
        return _echoed_time(text, end, times[0])
    if len(rates) != 1 or any(q[0] == "rate-per-gpu" for q in quantities):
        return []
    first = rates[0]
    mine = tx.clause_bounds(text, first[2])
    if not run_sizes(text, max(start, mine[0] - 12), first[3] + 4):
        return []
    sizes = run_sizes(text, first[3], end)
    # every other figure after the rate, a run's size aside: the one figure echoed, or none ('…, 1 node with fp8 3500,
    # 2 nodes 3600' is a list of runs for the series reader; '3600 MB of memory' no rate)
    figures = [f for f in re.finditer(r"(?<![\w.·])\d+(?:\.\d+)?", text[first[3]:end])
               if not any(s[3] <= first[3] + f.start() < s[4] for s in sizes)]
    m = _ECHO.match(text, first[3] + figures[0].start()) if len(figures) == 1 else None
    if m is None:
        return []
    a, b = tx.clause_bounds(text, m.start())
    value = float(m["num"]) * (1000 if m["k"] and m["k"] in "kK" else 10000 if m["k"] else 1)
    if a >= mine[1] and run_sizes(text, a, b) and 0.05 <= value / first[1] <= 20:
        return [("rate", value, m.start(), m.end())]
    return []


# nccl-cmp s13 echoed time: '3 hours on one box, 5 on two', 'an epoch takes 40 minutes on 1 node, 55 on 2 nodes'
_ECHO_TIME = re.compile(rf"(?<![\w.·])(?P<num>\d+(?:\.\d+)?)\s+(?:on|with|using|across)\s+(?:the\s+)?(?P<n>{COUNT})"
                        r"(?:\s*(?:-\s*)?(?:nodes?|machines?|servers?|boxes|box|hosts?))?\s*(?=$|[,.;:!?，。；)]|and\b)", _IC)


def _echoed_time(text: str, end: int, first: Quantity) -> list[Quantity]:
    """A bare figure, then 'on <count>', in the clause after the sentence's only duration: a duration in its unit."""
    said = re.match(r"\d+(?:\.\d+)?", text[first[2]:first[3]])
    unit = first[1] / float(said.group(0)) if said and float(said.group(0)) > 0 else 0.0
    mine = tx.clause_bounds(text, first[2])
    if not unit or not run_sizes(text, mine[0], mine[1]):
        return []
    sizes = run_sizes(text, first[3], end)
    figures = [f for f in re.finditer(r"(?<![\w.·])\d+(?:\.\d+)?", text[first[3]:end])
               if not any(s[3] <= first[3] + f.start() < s[4] for s in sizes)]
    m = _ECHO_TIME.match(text, first[3] + figures[0].start()) if figures else None
    if m is None or m.start() < mine[1] or not _count(m["n"]):
        return []
    value = float(m["num"]) * unit
    return [("time", value, m.start(), m.end("num"))] if 0.05 <= value / first[1] <= 20 else []


def _one_and_many(text: str, found: Scaling, q1: tuple[float, int, int], q2: tuple[float, int, int],
                  left: tuple[int, int], right: tuple[int, int], kind: str = "step") -> list[Understood]:
    """'On a single node an iteration takes 0.45 s; across multiple nodes it becomes 1386 s': a step time on one
    machine and one on machines not counted. The times are the job's and its baseline's; with the count unsaid no
    speed-up is read (a step on more machines may do more work). s14: the whole run's throughput ('单机 1200
    samples/s，多机只有 900 samples/s') or the time of an epoch or a run ('单机一个 epoch 2 小时，多机要 3 小时') gives
    the speed-up whatever the count."""
    sides = []
    for (value, a, b), (lo, hi) in ((q1, left), (q2, right)):
        ones = [s for s in run_sizes(text, lo, hi) if s[2] == "nodes" and s[0] == 1]
        many = _MULTI_NODE.search(text, lo, hi) or re.search(r"multiple hosts|several (?:nodes|machines)", text[lo:hi], _IC)
        sides.append((value, a, b, ones[0] if ones and not many else None, bool(many) and not ones))
    (v1, a1, b1, one1, many1), (v2, a2, b2, one2, many2) = sides
    if one1 and many2:
        single, multi, one = (v1, a1, b1), (v2, a2, b2), one1
    elif one2 and many1:
        single, multi, one = (v2, a2, b2), (v1, a1, b1), one2
    else:
        return []
    found.baseline_spans.append((one[3], one[4]))
    if kind != "step":
        speedup = multi[0] / single[0] if kind == "rate" else single[0] / multi[0]
        span = (min(single[1], multi[1]), max(single[2], multi[2]))
        out = [Understood("job.baseline_nodes", 1, text[one[3]:one[4]], one[3], one[4]),
               Understood("job.speedup", round(speedup, 4), text[span[0]:span[1]], *span)]
        if speedup < 1:
            out.append(Understood("job.negative_scaling", True, text[span[0]:span[1]], *span))
        return out
    return [Understood("job.baseline_nodes", 1, text[one[3]:one[4]], one[3], one[4]),
            Understood("job.step_time_s", round(multi[0], 6), text[multi[1]:multi[2]], multi[1], multi[2]),
            Understood("job.step_time_baseline_s", round(single[0], 6), text[single[1]:single[2]], single[1], single[2])]


# s11 MFU: model FLOPs utilisation said of a run ('MFU 只有 20%', 'MFU of 45%', '38% MFU'): how fast each GPU computes
_MFU = re.compile(r"(?<![A-Za-z])(?:MFU|HFU)\s*(?:只有|仅有|仅|才|是|为|有|约|大约|大概|掉到|降到|(?:is|was|of|at|only|about|around|"
                  r"drops? to|dropped to|fell to)\s*)*[:：=]?\s*(?:~|≈)?\s*(?P<num>\d{1,3}(?:\.\d+)?)\s*%|"
                  r"(?<![\d.])(?P<num2>\d{1,3}(?:\.\d+)?)\s*%\s*(?:的\s*)?(?:MFU|HFU)(?![A-Za-z])", re.IGNORECASE)

_MFU_AGAIN = re.compile(r"(?:(?:drops?|dropped|falls?|fell|goes down|went down|decreases?|decreased)\s+to\s*|"
                        r"(?:降到|降至|掉到|掉至|下降到|下降至|跌到|只剩|变成了?|变为)\s*)"
                        r"(?:~|≈|约|大约)?\s*(?P<num>\d{1,3}(?:\.\d+)?)\s*%", re.IGNORECASE)


# s14 a count of steps right after a duration: the steps done in that time ('2 Nodes: 1 second 1 step', '1 秒 4 个 step')
_STEPS_IN = re.compile(r"[ \t]*(?:for[ \t]+|per[ \t]+)?(?P<c>\d+(?:\.\d+)?)[ \t]*(?:个[ \t]*)?(?:steps?|iters?|iterations?|"
                       r"batch(?:es)?|步)(?![A-Za-z])", _IC)


def _quantities(text: str, start: int, end: int) -> tuple[list[Quantity], set[int]]:
    """The durations, step times and rates in text[start:end], as (kind, value, start, end), and the starts of
    those said in round words ('几十秒')."""
    quantities: list[Quantity] = []
    for m in _DURATION.finditer(text, start, end):
        if m["mi"]:
            quantities.append(("time", float(m["mi"]) * 60 + float(m["ss"]), m.start(), m.end()))
            continue
        if m["hh"]:
            day = re.search(r"天|day", m.group(0), _IC)
            first = float(m["hh"]) * (86400 if day else 3600)
            quantities.append(("time", first + float(m["mm"]) * (3600 if day else 60), m.start(), m.end()))
            continue
        unit = m["unit"].lower()
        seconds = time_to_seconds(float(m["num"]), unit)
        if seconds and not re.search(r"RTT|ping|latency|延迟|时延|timeout|超时", tx.before(text, m.start(), 14), _IC):
            steps = _STEPS_IN.match(text, m.end(), end)
            if steps and float(steps["c"]) > 0:  # s14 '1 second 4 step': four steps a second, a step's time a quarter
                quantities.append(("step", seconds / float(steps["c"]), m.start(), steps.end()))
                continue
            quantities.append(("time", seconds, m.start(), m.end()))
    for m in _QUOTED_STEP.finditer(text, start, end):  # '`time: 0.4544`': a log's per-iteration time, quoted
        if (value := float(m["num"])) > 0:
            quantities.append(("step", value / 1000 if m["ms"] else value, m.start(), m.end()))
    for m in _RATE.finditer(text, start, end):
        value = float(m["num"])
        if value <= 0:
            continue
        value *= 1000 if m["k"] else 1
        if re.match(r"(?:s|secs?|seconds?)\s*/", m["unit"], _IC):
            quantities.append(("step", value, m.start(), m.end()))
        elif _INVERSE.match(m["unit"]):
            quantities.append(("step", 1 / value, m.start(), m.end()))
        elif _PER_GPU.search(text[max(start, m.start() - 8):m.start()] + " " + text[m.end():m.end() + 14]) \
                or per_gpu_pace(text, m.start()):
            quantities.append(("rate-per-gpu", value, m.start(), m.end()))
        else:
            quantities.append(("rate", value, m.start(), m.end()))
    for m in _RATE_PER_SECOND.finditer(text, start, end):  # '每秒 1200 张图', '每秒 3 个 step'
        value = float(m["num"]) * (1000 if m["k"] and m["k"] in "kK" else 10000 if m["k"] else 1)
        if value <= 0 or any(q[2] <= m.start("num") < q[3] for q in quantities):
            continue
        if m["step"]:
            quantities.append(("step", 1 / value, m.start(), m.end()))
        elif _PER_GPU.search(text[max(start, m.start() - 8):m.start()] + " " + text[m.end():m.end() + 14]):
            quantities.append(("rate-per-gpu", value, m.start(), m.end()))
        else:
            quantities.append(("rate", value, m.start(), m.end()))
    for m in _MFU.finditer(text, start, end):  # s11 MFU: the share of each GPU's peak it computes at, a per-GPU pace
        value = float(m["num"] or m["num2"])
        if 0 < value <= 100 and not any(q[2] <= m.start() < q[3] for q in quantities):
            quantities.append(("rate-per-gpu", value, m.start(), m.end()))
            # the MFU it falls to, said without naming MFU again ('MFU 45%, on 4 nodes it drops to 30%')
            if (again := _MFU_AGAIN.search(text, m.end(), min(end, m.end() + 60))) and 0 < float(again["num"]) <= 100:
                quantities.append(("rate-per-gpu", float(again["num"]), again.start(), again.end()))
    quantities.sort(key=lambda q: q[2])
    starts = [q[2] for q in quantities]
    for m in _RATE_BEFORE.finditer(text, start, end):
        value = float(m["num"]) * (1000 if m["k"] else 1)
        i = bisect_right(starts, m.start("num")) - 1  # the quantity starting last before the figure holds it, if any
        if value > 0 and not (i >= 0 and quantities[i][2] <= m.start("num") < quantities[i][3]):
            quantities.append(("rate", value, m.start(), m.end()))
    rough: set[int] = set()
    for m in _ROUGH_DURATION.finditer(text, start, end):
        if m["w"]:
            seconds = _ROUGH[m["w"]] * {"秒": 1, "分钟": 60, "小时": 3600, "天": 86400}[m["unit"]]
        else:
            whole = parse_number(m["n"]) if m["n"] else 0
            seconds = ((whole or 0) + 0.5) * 3600
        quantities.append(("time", float(seconds), m.start(), m.end()))
        rough.add(m.start())
    quantities.sort(key=lambda q: q[2])
    return quantities, rough


# a step's time quoted from a log line in backticks: detectron2 / mmcv '`time: 0.4544`', '`iter_time: 1.2`'
_QUOTED_STEP = re.compile(r"`(?:time|iter_time|step_time|total_time|batch_time)\s*[:=]\s*(?P<num>\d+(?:\.\d+)?)\s*"
                          r"(?:(?P<ms>ms)|s)?`")


_PER_STEP = re.compile(r"每(?:个)?\s*(?:step|步|iter|iteration|迭代|batch)|per (?:step|iteration|iter|batch)|step[_ ]?time|"
                       r"iteration time|(?:a|each|one|1) (?:step|iteration|batch)|(?:一|1)\s*个\s*(?:step|iter|迭代|batch)|一步|"
                       r"(?:step|迭代)\s*(?:耗时|时间)", _IC)


# 'global batch size unchanged', '保持全局 batch 不变': strong scaling, a step does the same work on any number of GPUs
_FIXED_GLOBAL_BATCH = re.compile(r"global[ _]batch(?:[ _]size)?\s*(?:is\s*|was\s*|kept\s*|stays?\s*|remains?\s*)?"
                                 r"(?:unchanged|fixed|the same|constant|identical)|(?:same|fixed|constant|unchanged) global[ _]batch|"
                                 r"(?:全局|global)\s*(?:batch|批)(?:[ _]?size|大小)?\s*(?:保持)?(?:不变|固定|一样|相同)", _IC)
# (s14 '单卡' is each GPU only after a machine: '两机单卡 200 samples/s'; '单卡训练 1200 samples/s，4 卡 1500' is the run on one GPU)
_PER_GPU = re.compile(r"per (?:GPU|device|card|worker)|/\s*(?:GPU|gpu|card)|每卡|每张卡|(?:机|台|节点|机器|node)\s*(?:的)?\s*单卡", _IC)
# the pace of each GPU named as what the sentence measures ('per-GPU throughput: 150 img/s on 1 node, 90 on 4', 'throughput
# per GPU drops by 60%', '每卡吞吐下降了一半'); '单卡吞吐' is left out (it is as often the run on one GPU)
_PER_GPU_PACE = re.compile(r"(?<![A-Za-z])(?:per[- ](?:GPU|device|card)|each GPU'?s?)\s+(?:throughput|speed|rate|samples/s|"
                           r"tokens/s|img/s|images/s|tok/s|TFLOPS|performance)|(?:throughput|speed|samples/s|tokens/s|img/s|"
                           r"images/s|tok/s|TFLOPS)\s+(?:per|of each|on each)\s+(?:GPU|device|card)(?![A-Za-z])|"
                           r"每(?:张|块|个)?(?:卡|GPU)(?:的)?\s*(?:吞吐|速度|性能|TFLOPS|tokens/s|samples/s)|"
                           # '多机的单卡吞吐', '两机单卡速度': each GPU of the machines named
                           r"(?:多机|双机|两机|[二三四五六七八九十\d]+\s*机|多节点|多台|\d+\s*(?:台|个节点))(?:上)?(?:的)?\s*单卡(?:的)?\s*"
                           r"(?:吞吐|速度|性能)", _IC)
# 'the throughput is half of what a single node gets per GPU': each GPU's pace said after the ratio, in its clause
_PER_GPU_AFTER = re.compile(r"(?<![A-Za-z])(?:gets?|does|achieves?|reaches|sees|delivers|manages)\s+per[- ](?:GPU|device|card)"
                            r"(?![A-Za-z])", _IC)


def per_gpu_pace(text: str, pos: int) -> bool:
    """The figure or ratio at `pos` measures each GPU's pace: the sentence names a per-GPU pace before it."""
    a = tx.sentence_bounds(text, pos)[0]
    end = tx.clause_bounds(text, pos)[1]
    return bool(_PER_GPU_PACE.search(text, max(a, pos - 80), pos + 1) or _PER_GPU_AFTER.search(text, pos, min(end, pos + 60)))


def _per_step(text: str, pos: int) -> bool:
    """The duration at `pos` is the time of one step, not of a whole run or epoch."""
    a, b = tx.clause_bounds(text, pos)
    # ('0.5 s per step': the unit, then the step; fix31 the step named as the subject before a hedge, 'One iteration
    # takes about 4 seconds')
    return bool(_PER_STEP.search(text[max(a, pos - 32):min(b, pos + 20)]))


# (a word that ends in one is no preposition: "at iteration 99" is no run "on 99")
_ELLIPTIC = re.compile(rf"(?:(?<![A-Za-z])(?:on|with|across|using|over)|用|在)\s*(?P<n>{COUNT})(?!\w|\.\d)", _IC)  # ('… on two.')


def _sizes_near(text: str, a: int, b: int, lo: int, hi: int, wide: bool = False) -> list[tuple[int, int, str, int, int]]:
    """The run sizes around a quantity within its half of the sentence, its own clause first, nearest first.

    '3 hours on one box, 5 hours on two': a bare count after 'on' is a run of the same kind as the other side's
    (marked '?' here and settled by _matching_sizes). `wide`: the sizes of its own clause, then those of the rest of
    its half, for a side whose clause names a size of one kind only.
    """
    ca, cb = tx.clause_bounds(text, a)
    sizes = run_sizes(text, max(lo, ca), min(hi, cb))
    if wide:
        near = sorted(sizes, key=lambda s: min(abs(s[1] - a), abs(s[1] - b)))
        rest = [s for s in run_sizes(text, lo, hi) if s not in sizes]
        return near + sorted(rest, key=lambda s: min(abs(s[1] - a), abs(s[1] - b)))
    sizes = sizes or run_sizes(text, lo, hi)
    if not sizes:
        for m in _ELLIPTIC.finditer(text, max(lo, ca), min(hi, cb)):
            n = _count(m["n"])
            if n:
                sizes.append((n, m.start("n"), "?", m.start("n"), m.end("n")))
    return sorted(sizes, key=lambda s: min(abs(s[1] - a), abs(s[1] - b)))


Size = tuple[int, int, str, int, int]


def _matching_sizes(left: list[Size], right: list[Size]) -> tuple[Size | None, Size | None]:
    """The nearest size on each side of the same kind, machines before GPUs."""
    for kind in ("nodes", "gpus"):
        first = next((s for s in left if s[2] in (kind, "?")), None)
        second = next((s for s in right if s[2] in (kind, "?")), None)
        if first and second and first[2] == "?" and second[2] == "?":
            continue
        first = first and (first[0], first[1], kind, first[3], first[4])
        second = second and (second[0], second[1], kind, second[3], second[4])
        if first and second:
            return first, second
    return None, None


def _sentence_spans(text: str) -> list[tuple[int, int]]:
    spans, pos = [], 0
    while pos < len(text):
        a, b = tx.sentence_bounds(text, pos)
        if text[a:b].strip():  # a line break after '；' is no sentence of its own: neighbours stay neighbours
            spans.append((a, b))
        pos = max(b, pos + 1)
    # Two short sentences often hold the two sides ("On one box: 3 h. On two: 5 h."): pair neighbours too.
    return spans + [(spans[i][0], spans[i + 1][1]) for i in range(len(spans) - 1)]


# ----------------------------------------------------------------------------------------- series of three runs or more
# '1 node 3000 tok/s, 2 nodes 3500, 4 nodes 3600', a numbered list of runs one per line, '1/2/4 机分别是 …': each run a
# clause naming its size and one figure (a later run may leave the unit, or the size's word, to the first). The job
# asked about is the largest run, the baseline the smallest; the runs between are neither.
_BARE = re.compile(r"(?<![\w.·])(?P<num>\d+(?:\.\d+)?)\s*(?P<k>[kK](?![A-Za-z]))?(?![\w%/·]|\.\d)"
                   r"(?!\s*(?:%|×|倍|x(?![A-Za-z])|[A-Za-z]+\s*/|[KMGTkmgt]i?[Bb](?![A-Za-z])|(?:ms|s|secs?|seconds?|mins?|"
                   r"minutes?|h|hrs?|hours?|days?|GPUs?|cards?|nodes?|machines?)(?![A-Za-z])|秒|分|小时|天|台|卡|机|节点|个))")
_LIST_MARK = re.compile(r"\s*(?:[-*•]|\d{1,2}[.)、]?|[（(]\d{1,2}[)）]|and|or|then|和|以及|而)?\s*", _IC)


@dataclass
class Run:
    """One run of a comparison: its size, the kind of figure measured and the figure, where each was said."""

    n: int
    kind: str  # 'nodes' | 'gpus'
    size_span: tuple[int, int]
    measure: str  # 'time' | 'step' | 'rate' | 'rate-per-gpu'
    value: float
    span: tuple[int, int]
    efficiency: float | None = None
    machines: Size | None = None  # the machines a run sized in GPUs spreads over ('quad P4 (two hosts)')


def _clause_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    end = len(text) if end is None else end
    spans, pos = [], start
    while pos < end:
        a, b = tx.clause_bounds(text, pos)
        a, b = max(a, start), min(b, end)
        spans.append((a, b))
        pos = max(b, pos + 1)
    return spans


def _series(text: str, found: Scaling, start: int = 0, end: int | None = None) -> list[Understood]:
    """Three runs or more, one clause each, side by side: the facts of the comparison of the largest with the smallest."""
    end = len(text) if end is None else end
    quantities, rough = _quantities(text, start, end)
    sizes = run_sizes(text, start, end)
    q_starts, s_starts = [q[2] for q in quantities], [s[3] for s in sizes]
    hits: list[Understood] = []
    series: list[Entry] = []

    def close() -> None:
        if len(series) >= 3:
            hits.extend(_facts_of_runs(text, _runs_of(series), found))
        series.clear()

    pending: tuple[list[Size], int, int] | None = None  # a run's size said a clause or two before its figure
    for a, b in _clause_spans(text, start, end):
        qs = [q for q in quantities[bisect_right(q_starts, a - 1):bisect_right(q_starts, b - 1)] if q[2] not in rough]
        ss = sizes[bisect_right(s_starts, a - 1):bisect_right(s_starts, b - 1)]
        if series and "\n\n" in text[series[-1][2][1] - 1:a + 1]:
            close()  # a blank line ends a list
        if series and a < series[-1][1][3]:
            continue  # the rest of the last run's figure ('2h, 30 min')
        # '但是 2 卡训练时，其它超参数保持不变，需要 30 小时': the size, a clause between, then the figure
        if pending is not None:
            if not qs and not ss and not re.search(r"\d", text[a:b]) and pending[2] < 2:
                pending = (pending[0], pending[1], pending[2] + 1)
                continue
            if len(qs) == 1 and not ss and (not series or qs[0][0] == series[-1][1][0]):
                series.append((pending[0], qs[0], (pending[1], b)))
                pending = None
                continue
            pending = None
        if ss and not qs and not _BARE.search(text, a, b) and len({s[0] for s in ss if s[2] == ss[0][2]}) == 1:
            pending = (ss, a, 0)
            continue
        if not series:
            if len(qs) == 1 and ss and not any(s[3] <= qs[0][2] < s[4] for s in ss):
                series.append((ss, qs[0], (a, b)))
            continue
        entry = _next_run(text, a, b, qs, ss, series[-1])
        if entry is not None:
            series.append(entry)
        elif len(qs) == 1 and ss and not any(s[3] <= qs[0][2] < s[4] for s in ss):
            close()  # a run measured in another way starts a series of its own
            series.append((ss, qs[0], (a, b)))
        elif not _LIST_MARK.fullmatch(text, a, b if text[b - 1:b] not in ",，、;；.。\n" else b - 1):
            close()
    close()
    return hits


_INVERSE = re.compile(r"(?:it|its|iters?|iterations?|steps?)\s*(?:/\s*s|per second)", _IC)
Entry = tuple[list["Size"], Quantity, tuple[int, int]]


def _next_run(text: str, a: int, b: int, qs: list[Quantity], ss: list[Size], last: Entry) -> Entry | None:
    """The clause text[a:b] as the next run of a series: a size (or a bare count after 'on', in the last run's kind) and
    one figure of the last run's kind (or a bare number in its unit)."""
    kind = last[1][0]
    if len(qs) > 1 or (qs and qs[0][0] != kind):
        return None
    sizes = [s for s in ss if not (qs and s[3] <= qs[0][2] < s[4])]
    if not sizes:
        ell = list(_ELLIPTIC.finditer(text, a, b))
        n = _count(ell[0]["n"]) if len(ell) == 1 else None
        if not n:
            return None
        sizes = [(n, ell[0].start("n"), last[0][0][2], ell[0].start("n"), ell[0].end("n"))]
    if qs:
        return sizes, qs[0], (a, b)
    bare = [m for m in _BARE.finditer(text, a, b) if not any(s[3] <= m.start() < s[4] for s in sizes)]
    if len(bare) != 1:
        return None
    m = bare[0]  # '…, 2 nodes 3500': the figure in the unit said first
    value = float(m["num"]) * (1000 if m["k"] else 1)
    if value <= 0:
        return None
    if _INVERSE.search(text, last[1][2], last[1][3]):
        value = 1 / value  # '1.8 it/s, … 2.6': steps per second, a step's time the inverse
    return sizes, (kind, value, m.start(), m.end()), (a, b)


def _runs_of(series: list[Entry]) -> list[Run]:
    """The runs of a series, sized in the one kind (machines, else GPUs) every one of them names."""
    for kind in ("nodes", "gpus"):
        chosen = [next((s for s in ss if s[2] == kind), None) for ss, _, _ in series]
        if all(chosen):
            return [Run(s[0], kind, (s[3], s[4]), q[0], q[1], (min(s[3], q[2]), max(s[4], q[3])),
                        machines=next((m for m in ss if m[2] == "nodes"), None) if kind == "gpus" else None)
                    for s, (ss, q, _) in zip(chosen, series, strict=True) if s]
    return []


def _facts_of_runs(text: str, runs: list[Run], found: Scaling) -> list[Understood]:
    """The comparison of the largest run (the job) with the smallest (its baseline); runs of one size twice, or
    measured two ways, say no scaling."""
    if len(runs) < 2 or len({r.n for r in runs}) < len(runs) or len({r.measure for r in runs}) > 1:
        return []
    small, big = min(runs, key=lambda r: r.n), max(runs, key=lambda r: r.n)
    measure = big.measure
    if small.n < 1 or small.value <= 0 or big.value <= 0 or (measure == "rate-per-gpu" and big.kind != "gpus"):
        return []
    speedup = big.value / small.value if measure.startswith("rate") else small.value / big.value
    per_step = measure == "step" or (measure == "time" and (_per_step(text, small.span[0]) or _per_step(text, big.span[0])))
    if measure == "rate-per-gpu" or (per_step and not _FIXED_GLOBAL_BATCH.search(text)):
        speedup *= big.n / small.n  # a step on more GPUs does more work; a rate per GPU times the GPUs
    a, b = min(r.span[0] for r in runs), max(r.span[1] for r in runs)
    words = text[a:b]
    hits = [Understood("job.speedup", round(speedup, 4), words, a, b)]
    base = "job.baseline_gpus" if big.kind == "gpus" else "job.baseline_nodes"
    hits.append(Understood(base, small.n, text[slice(*small.size_span)], *small.size_span))
    found.baseline_spans.extend(r.size_span for r in runs if r is not big)
    if speedup < 1:
        hits.append(Understood("job.negative_scaling", True, words, a, b))
    per_node = _gpus_per_node_said(text) if big.kind == "gpus" else None
    if big.kind == "nodes":
        hits.append(Understood("job.nodes", big.n, text[slice(*big.size_span)], *big.size_span))
    elif per_node and big.n % per_node[0] == 0 and small.n % per_node[0] == 0 and big.machines is None:
        # 'an HPC machine with 4 GPUs per node … 4 GPU: 2h30, … 32 GPU: 2h46': runs of whole machines, 8 and 1 of them
        g, a_, b_ = per_node
        hits.append(Understood("job.nodes", big.n // g, text[slice(*big.size_span)], *big.size_span, inferred=True))
        hits.append(Understood("job.baseline_nodes", small.n // g, text[slice(*small.size_span)], *small.size_span,
                               inferred=True))
    elif big.machines is not None and big.machines[0] > 1 and big.n % big.machines[0] == 0:
        m = big.machines  # 'quad P4 (two hosts)': four GPUs over two machines, two in each
        hits.append(Understood("job.nodes", m[0], text[m[3]:m[4]], m[3], m[4]))
        hits.append(Understood("job.gpus_per_node", big.n // m[0], text[slice(*big.span)], *big.span, inferred=True))
    if per_step:
        hits.append(Understood("job.step_time_s", round(big.value, 6), text[slice(*big.span)], *big.span))
        hits.append(Understood("job.step_time_baseline_s", round(small.value, 6), text[slice(*small.span)],
                               *small.span))
    if big.efficiency is not None:
        hits.append(Understood("job.scaling_efficiency_pct", big.efficiency, text[slice(*big.span)], *big.span))
    return hits


_PER_NODE = re.compile(rf"(?P<n>{COUNT})\s*(?:GPUs?|cards?|{GPU_MARK}+)\s*(?:per|each|a|/)\s*(?:node|machine|server|host|box)"
                       rf"|每(?:台|个节点|节点|机)\s*(?P<n2>{COUNT})\s*(?:张|块)?(?:卡|GPU)", _IC)


def _gpus_per_node_said(text: str) -> tuple[int, int, int] | None:
    """The GPUs each machine holds, said once ('4 GPUs per node', '每台 8 卡'), and where; None if said otherwise."""
    said = {(_count(m["n"] or m["n2"]) or 0, m.start(), m.end()) for m in _PER_NODE.finditer(text)}
    values = {v for v, _, _ in said}
    return min(said) if len(values) == 1 and 0 not in values else None


# '1/2/4 机分别是 3000/3500/3600 tokens/s', 'on 1, 2 and 4 nodes: 3000, 3500 and 3600 samples/s respectively'
_AND = r"\s*(?:/|、|,|，|和|及|and|or|,\s*and)\s*"
_SIZE_LIST = re.compile(rf"(?P<list>{COUNT}(?:{_AND}{COUNT}){{2,7}})\s*(?:-|\s)?(?:个|台)?\s*"
                        rf"(?P<w>nodes?|machines?|servers?|GPUs?|cards?|台(?:机器|服务器)?|机器?|节点|卡|张卡)", _IC)
_FIGURE = r"\d+(?:\.\d+)?\s*[kK]?(?![\w.])"
_FIGURE_LIST = re.compile(rf"(?<![\w.])(?P<list>{_FIGURE}(?:{_AND}{_FIGURE}){{2,7}})", _IC)
_RATE_WORD = re.compile(r"throughput|吞吐|speed|速度|tokens?/s|samples?/s|img/s", _IC)


def _respectively(text: str, found: Scaling) -> list[Understood]:
    """A list of run sizes and, in the same sentence, a list of as many figures: one run per pair, in order."""
    hits: list[Understood] = []
    for m in _SIZE_LIST.finditer(text):
        counts = [c for c in re.finditer(COUNT, m["list"], _IC) if _count(c.group(0))]
        a, b = tx.sentence_bounds(text, m.start())
        b = tx.sentence_bounds(text, b)[1] if b < len(text) else b  # 'We tried 1, 2 and 4 nodes; 3000, 3500 and …'
        a, b = max(a, m.start() - 160), min(b, m.end() + 160)  # near the sizes: one bounded look per list
        figures = [f for f in _FIGURE_LIST.finditer(text, a, b) if not m.start() <= f.start() < m.end()]
        if len(figures) != 1:
            continue
        f = figures[0]
        values = list(re.finditer(_FIGURE, f["list"]))
        if len(values) != len(counts):
            continue
        last = f.start("list") + values[-1].start()
        unit = _RATE.match(text, last) or _DURATION.match(text, last)
        quantities, _ = _quantities(text, last, unit.end()) if unit else ([], set())
        if quantities:
            measure, inverse = quantities[0][0], bool(_INVERSE.search(text, last, unit.end() if unit else last))
        elif _RATE_WORD.search(text, a, b):
            measure, inverse = "rate", False
        else:
            continue
        kind = "gpus" if re.search(rf"GPU|card|卡|{GPU_MARK}", m["w"], _IC) else "nodes"
        runs = []
        said = [_figure_value(v.group(0)) for v in values]
        scale = quantities[0][1] / said[-1] if quantities and not inverse and said[-1] else 1.0  # '… 3 ms': seconds
        for c, v, value in zip(counts, values, said, strict=True):
            value = 1 / value if inverse and value else value * scale
            size_span = (m.start("list") + c.start(), m.start("list") + c.end())
            run_span = (f.start("list") + v.start(), f.start("list") + v.end())
            runs.append(Run(_count(c.group(0)) or 0, kind, size_span, measure, value, run_span))
        facts = _facts_of_runs(text, runs, found)
        for h in facts:  # the words of a list are the whole sentence's two lists
            hits.append(Understood(h.fact, h.value, text[min(m.start(), f.start()):max(m.end(), f.end())],
                                   min(m.start(), f.start()), max(m.end(), f.end())) if h.fact == "job.speedup" else h)
    return hits


def _figure_value(said: str) -> float:
    said = said.strip()
    return float(said.rstrip("kK ").strip()) * (1000 if said.endswith(("k", "K")) else 1)


def _tables(text: str, found: Scaling, start: int = 0, end: int | None = None, source: str = "table") -> list[Understood]:
    """A table of runs typed in the question ('| nodes | step time |', '节点数 | 吞吐'): one run per row."""
    from bwdoctor.chat.tables import (  # they build on this module's run sizes
        read_link_tables,
        read_table_runs,
        table_gpus_per_node,
    )

    hits: list[Understood] = []
    for rows in read_table_runs(text, start, end):
        runs = [Run(n, kind, size_span, measure, value, span, efficiency)
                for n, kind, size_span, measure, value, span, efficiency in rows]
        hits.extend(_facts_of_runs(text, runs, found))
    hits.extend(Understood("job.gpus_per_node", value, text[a:b], a, b, source)  # s14 a column of GPUs by machines
                for value, a, b in table_gpus_per_node(text, start, end))
    # a table of links or tests ('| link | spec | iperf3 |'): the rating and the measurement of the job's row
    # (the table's reader names each figure's tool: no later reader re-credits it)
    hits.extend(Understood(fact, value, text[a:b], a, b, source)
                for fact, value, a, b in read_link_tables(text, start, end))
    return hits


def read_tables(text: str, spans: list[tuple[int, int]]) -> Scaling:
    """The tables of runs inside pasted blocks (text[a:b] for each span), for a caller that reads blocks apart."""
    found = Scaling()
    for a, b in spans:
        found.hits.extend(_tables(text, found, a, b, "pasted:table"))
        # a series of runs one per line in a code block ('4 GPU: 2h, 30 min' … '32 GPU: 2h 46 min')
        found.hits.extend(Understood(h.fact, h.value, h.text, h.start, h.end, "pasted:table", h.inferred)
                          for h in _series(text, found, a, b))
    return found
