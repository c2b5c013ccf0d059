"""Scopes that change what a fact read from words means: negation, hypothesis and reference.

- Negation: 'we don't have InfiniBand', '没有 RDMA', 'not using NVLink', 'GDR is not enabled' — a
  feature named under a negation is absent, not present.
- Hypothesis: 'if we moved to 100G', '换成 100G 会快多少' — a change to try, not today's job. The scope
  is the clause holding the cue (and, for 'would X help?' questions, the clause of the question), so
  'Would accumulating over 4 steps help our 7B job on 2 nodes?' keeps '7B' and '2 nodes' as facts:
  what follows 'our'/'我们的' describes the job as it is.
- Reference: 'the datasheet says 50 GB/s', '理论带宽应该 25GB/s', 'our other cluster gets 20 GB/s' — a
  figure to compare with, not a measurement of this job.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from bwdoctor.chat import text as tx
from bwdoctor.chat.extract import Understood

_IC = re.IGNORECASE

_NEGATOR = re.compile(
    r"(?:没有|没用|没开|没开启|未开启|未启用|未使用|不支持|不带|不是|并非|不用|没装|没走|不走|未配置|没配置?|"
    r"无(?=\s*(?:RDMA|IB|InfiniBand|NVLink|RoCE|GDR))|"
    # an intention denied: '我们不打算上 IB', '暂时不考虑 RDMA', '没计划买 IB' — the job has none now
    r"不打算|没打算|不准备|没准备|不考虑|不想|没计划|没有计划|不计划|"
    r"(?<![A-Za-z])(?:no|not|without|lacks?|lacking|neither|nor|never)(?![A-Za-z])|n't|not using|not use|"
    r"don't have|doesn't have|do not have|does not have|isn't|aren't|wasn't|weren't)"
    # what may stand between the negation and the feature: '没有配置过任何 RDMA 网卡', 'we never had InfiniBand'
    r"(?:\s*(?:any|a|an|the|use|using|have|has|had|enabled?|with|on|over|support(?:ing)?\s+for|access to|installed|configured|"
    r"是|用|有|到|走|配置过?|配过|装过?|安装过?|部署过?|用过|开过|接|连|任何|什么|上|买|换|采购|引入|部署))*\s*$",
    _IC)
# Traffic said not to take a fabric ('NCCL 没走 IB', 'not going over RoCE'): the fabric is not in use, not absent.
_NOT_ROUTED = re.compile(r"(?:没走|不走|没有走|没用上|not (?:going|routed|sent|running) (?:over|through)|"
                         r"(?:doesn't|does not|isn't|is not|didn't|did not) (?:go|run|route) (?:over|through))\s*(?:the\s+)?$",
                         _IC)
_NOT_USED_BY_NCCL = re.compile(r"(?:NCCL|nccl|通信|traffic)\s*(?:still\s+|just\s+|simply\s+)?(?:doesn't|does not|didn't|did not|"
                               r"isn't|is not|wasn't|was not|never|won't|will not|can't|cannot)\s+(?:use|using|pick|select|"
                               r"choose|find|detect|see)s?\s*(?:up\s+)?(?:the\s+)?$|"
                               r"(?:NCCL|nccl|通信)\s*(?:还是|一直|根本)?\s*(?:没有|没|未)(?:用上|用到|使用|识别到|找到|检测到)\s*$", _IC)
# A feature named before the one read, in one list under the negation: 'no NVLink or RDMA', '没有 NVLink 和 RDMA'.
_FEATURE_LIST = re.compile(r"(?:(?:RDMA|IB|InfiniBand|NVLink|NVSwitch|RoCE(?:\s?v2)?|GDR|GPUDirect(?:\s+RDMA)?|EFA|PFC|ECN)"
                           r"\s*(?:,|，|、|/|or|and|nor|和|或者?|及|与|跟)\s*(?:the\s+)?)+$", _IC)
_LISTED_AFTER = re.compile(r"(?:\s*(?:,|，|、|/|or|and|和|或者?|及|与|跟)\s*(?:RDMA|IB|InfiniBand|NVLink|NVSwitch|"
                           r"RoCE(?:\s?v2)?|GDR|GPUDirect(?:\s+RDMA)?|EFA|PFC|ECN))+", _IC)
# 'it's not that we don't have IB', '并不是没有 IB': a negation denied is no negation
_DENIED = re.compile(r"(?:并不是|不是|并非|not that|isn't that|it's not that|it is not that)\s*$", _IC)
_POST_NEGATION = re.compile(
    # s27 a relative clause that denies it: 'InfiniBand that these boxes don't have', 'RDMA which our nodes lack'
    r"^\s*(?:that|which)\s+(?:(?:these|those|the|our|my|its|their)\s+)?(?:\w+\s+)?(?:don't|do not|doesn't|does not|didn't|"
    r"did not|never)\s+(?:have|support|has)(?![A-Za-z])|^\s*(?:that|which)\s+(?:(?:these|those|the|our|my)\s+)?(?:\w+\s+)?"
    r"lacks?(?![A-Za-z])|"
    r"^\s*(?:is|are|was|were)?\s*(?:not|n't)\s*(?:enabled|used|available|supported|active|on|working|present|"
    r"installed|detected|found)|^\s*(?:is\s+|was\s+)?(?:disabled|unavailable|off|missing|not found|absent)"
    r"|^\s*(?:也|都|也都)?\s*(?:没开|没有开|未开启|未启用|没启用|没生效|不可用|关闭|被禁用|禁用|没有|都没有|不支持)"
    # net-s11 not yet: 'IB 还没装好', 'the IB cards aren't installed yet': hardware still to come is not there today
    r"|^\s*(?:网卡|卡|交换机|(?:cards?|NICs?|HCAs?|adapters?|switch(?:es)?)\s)?\s*(?:也|都)?\s*(?:还没|尚未|还未|没)(?:有)?"
    r"(?:装好|装上|安装好?|配好|接好|到货|到位|上线|部署好?|调通)|^\s*(?:cards?|NICs?|HCAs?|adapters?|switch(?:es)?)\s+"
    r"(?:are|is|were|was)?\s*(?:not|n't)\s+(?:yet\s+)?(?:installed|set up|here|delivered|in place|cabled)", _IC)
_CONTRAST = re.compile(r"but|however|但|不过|而是|instead", _IC)

_REFERENCE = re.compile(
    r"datasheet|data sheet|spec(?:s|ification)?(?:\s+(?:says?|sheet))?\b|theoretical(?:ly)?|nominal(?:ly)?|"
    # (en-s12b 'Is it expected that busbw is only 20 GB/s?' asks whether the job's own figure is normal)
    r"should (?:be|get|reach|see|give)|(?<!is it )(?<!is this )(?<!is that )expect(?:ed|ing)?|is supposed to|in theory|"
    r"vendor|official(?:ly)?|"
    r"according to|other cluster|another cluster|other machines? (?:gets?|reach)|elsewhere|"
    r"理论|应该(?:有|能|是|达到|跑到)?|应有|应当|本应|本该|ought to|should have|预期|期望|官方|标称值|号称|按理|正常(?:应该|情况下|来说)|别的集群|另一个集群|"
    r"其他集群|其它集群|同事的|文档(?:上|里)?说|a normal value|normal value|typical value|正常值|正常的值|典型值|"
    # a part's rated peak and what talks or others report: '单向峰值是 200 GB/s', 'GTC 上讲 … 能到 480 GB/s'
    r"(?:单向|双向|理论)?峰值(?:带宽)?是|peak (?:(?:bi-?directional|uni-?directional|one-way|theoretical|aggregate)\s+)?(?:bandwidth )?(?:of|is)|(?:GTC|talk|slides?|blog|论文|文章)\s*(?:上|里|中)?\s*(?:讲|说|提到|says?|claims?)|"
    r"据说|听说|号称|reportedly|is said to|are said to|"
    # a target or a reference value to compare with: 'PDF 目标 491.84 GB/s', 'acceptance threshold', '参考值'
    # s21 the same storage read directly with another tool: a yardstick for the job's own reads
    r"(?:同一个|同样的)\s*(?:bucket|桶|存储|NAS|盘)[^，,。]{0,8}?直接|(?<![A-Za-z])the same (?:bucket|storage|share|"
    r"file ?system)\b[^,.;]{0,24}?\bdirectly\b|"
    r"目标值?|参考值|验收(?:标准|阈值|值)|基准值|(?<![A-Za-z])(?:target(?:ed)?|goal|reference (?:value|figure|number)|"
    r"acceptance (?:criteria|threshold|target))(?![A-Za-z])|"
    # a figure not reached is the target: 'does not reach 100Gbps', '跑不到 100G'
    r"(?:not|never|can't|cannot|couldn't|doesn't|does not|didn't|did not|unable to|fails? to)\s+(?:even\s+)?"
    r"(?:reach|hit|achieve|get to|get close to|come close to|saturate)|达不到|跑不到|到不了|跑不满|打不满", _IC)

# Facts that say a feature is there (True) or a kind of fabric; under a negation they flip or go.
# ('…_disabled' facts read their own polarity and are not flipped here.)
_FLIPPABLE = {"nic.rdma", "gpu.nvlink", "nic.efa", "container.ipc_host", "nic.pfc", "nic.bonded", "job.moe",
              "pcie.acs_enabled"}
_KIND_FACTS = {"nic.kind", "nccl.transport", "job.parallelism", "job.data_source", "job.comm_pattern",
               "gpu.model"}  # '两台 8×A800，不是 A100': the model named under a negation is not the job's
MEASUREMENTS = {"net.iperf3_gbps", "nccl.allreduce_busbw_gbytes_per_s", "net.rdma_bw_gbps",
                "nccl.allreduce_algbw_gbytes_per_s"}

# what a reference can be given for: the measurements, and a storage's read rate (s21 'the same bucket read directly')
_QUOTABLE = MEASUREMENTS | {"storage.read_gbps"}


# zh-s12b a fabric that only names whose setting it is: '没开 RoCE 的 PFC', '没有配 IB 的 SHARP' deny the setting after 的
_SETTING_OF = re.compile(r"\s*(?:网卡|网络|交换机)?\s*的\s*(?:PFC|ECN|DCQCN|流控|拥塞控制|QoS|巨帧|jumbo|MTU|无损|"
                         r"lossless|自适应路由|adaptive routing|SHARP|GDR|GPUDirect)", _IC)


_SETTING_DENIED = re.compile(r"(?<![A-Za-z])(?:PFC|ECN|DCQCN|GDR|GPUDirect(?: RDMA)?|jumbo frames?|flow control|QoS|SHARP|"
                             r"adaptive routing)\s*(?:is|are|was|were|has|have)?\s*$", _IC)


def is_negated(text: str, start: int, end: int) -> bool:
    """A negation governs text[start:end]: just before it in its clause, or just after ('GDR is not enabled')."""
    a, b = tx.clause_bounds(text, start)
    if _SETTING_OF.match(text, end):
        return False  # the fabric is the setting's owner; the negation is the setting's
    before = text[max(a, start - 24):start]
    if re.search(r"with (?:and|or) without\s*(?:the\s+)?$|有没有\s*$|开没开\s*$|开不开\s*$", before, re.IGNORECASE):
        return False  # 'with and without EFA': both runs named, neither denied
    listed = _FEATURE_LIST.search(text, max(a, start - 48), start)
    if listed:  # 'we don't have NVLink or RDMA': the negation of the list's first feature holds for the rest
        before = text[max(a, listed.start() - 24):listed.start()]
    m = _NEGATOR.search(before)
    if m and _SETTING_DENIED.search(text, max(a, start - 48), start - len(before) + m.start()):
        return False  # zh-s12b 'PFC is not enabled on the RoCE switch': the setting is denied, the fabric is where
    if m and not _CONTRAST.search(before[m.end():]):
        return not _DENIED.search(before[:m.start()])
    after = _LISTED_AFTER.match(text, end, b)  # 'IB 和 RoCE 都没有': the list's negation comes after its last feature
    return bool(_POST_NEGATION.search(text[after.end() if after else end:min(b, (after.end() if after else end) + 40)]))


# Hardware a setting can turn off without removing it: 'IB disabled' is NCCL_IB_DISABLE, not a node without InfiniBand.
_HARDWARE = {"nic.rdma", "nic.efa", "nic.kind", "gpu.nvlink"}
_OFF_BEFORE = re.compile(r"(?:disable[sd]?|disabling|turn(?:ed|ing)? off|switch(?:ed|ing)? off|禁用|关闭|关掉|关了|屏蔽)"
                         r"\s*(?:the\s+)?(?:NCCL'?s?\s+)?$", _IC)
_OFF_AFTER = re.compile(r"^\s*(?:is\s+|was\s+|are\s+|were\s+|got\s+)?(?:disabled|turned off|switched off|off\b)|"
                        r"^\s*(?:被)?(?:禁用|关闭|关掉|关了|屏蔽)", _IC)


# s13 a row of nvidia-smi's table pasted without its header: 'Off' after the GPU's name is its persistence mode, no denial
_GPU_ROW_AFTER = re.compile(r"[ \t]+(?:On|Off)[ \t]*\|")


def _switched_off(text: str, start: int, end: int) -> bool:
    return bool(_OFF_BEFORE.search(text, max(0, start - 24), start) or _OFF_AFTER.search(text[end:end + 24]))


def is_reference(text: str, start: int) -> bool:
    """The clause around `start` quotes a reference or expected figure, not a measurement of this job."""
    a, b = _side_of_a_contrast(text, *tx.clause_bounds(text, start), start)
    return any(not _aside_without(text, a + m.start(), start) for m in _REFERENCE.finditer(text[a:b]))


def _aside_without(text: str, at: int, start: int) -> bool:
    """nccl-cmp s13 aside: the words at `at` are inside brackets that do not hold `start` ('We see ~12 GB/s busbw with 2
    nodes (should be ~45)': the reference is the aside's, the figure outside is the job's)."""
    opened = max(text.rfind("(", 0, at), text.rfind("（", 0, at))
    if opened < 0 or max(text.rfind(")", opened, at), text.rfind("）", opened, at)) >= 0:
        return False
    closed = min((i for i in (text.find(")", at), text.find("）", at)) if i >= 0), default=-1)
    return closed >= 0 and not opened < start < closed


# A contrast inside one clause sets a reference apart from the measurement: 'should be around 23 GB/s but we get 8',
# '理论上应该有 25GB/s 但实际只有 8GB/s', 'we only get 8 GB/s whereas the spec says 25'.
_CONTRAST_JOIN = re.compile(r"(?<![A-Za-z])(?:but|however|yet|whereas|while|though|although)(?![A-Za-z])|但是?|可是|不过|然而|"
                            r"(?<![反然])而(?![且已])|却|实际(?:上)?(?=\s*(?:只|才|仅|测|跑|是|得到|拿到|能|达到|\d))|实测", _IC)


def _side_of_a_contrast(text: str, a: int, b: int, pos: int) -> tuple[int, int]:
    """The part of the clause [a, b) on `pos`'s side of a contrast word."""
    for m in _CONTRAST_JOIN.finditer(text, a, b):
        if m.end() <= pos:
            a = m.start()
        elif m.start() > pos:
            return a, m.start()
    return a, b


def apply_negation(text: str, hits: list[Understood]) -> list[Understood]:
    """Flip feature facts named under a negation, drop fabric kinds named under one.

    Extractors that already read a negation themselves (value False from 'no RDMA') are left alone.
    """
    out: list[Understood] = []
    for h in hits:
        if h.source.startswith("pasted") or not is_negated(text, h.start, h.end):
            out.append(h)
            continue
        if h.fact in {"nic.rdma", "nic.efa"} and _NOT_ROUTED.search(text, max(0, h.start - 16), h.start):
            continue  # 'NCCL 没走 IB': the traffic avoids the fabric, which may well be there
        if h.fact in {"nic.rdma", "nic.efa"} and _NOT_USED_BY_NCCL.search(text, max(0, h.start - 40), h.start):
            continue  # 'NCCL does not use EFA', 'NCCL 没有用上 RDMA': the software passes the hardware by
        if h.fact == "nic.rdma" and h.value is True and _other_fabric_affirmed(text, h, hits):
            continue  # net-s11 '我们用 RoCE，不是 IB': one fabric denied beside another said, no denial of RDMA
        if h.fact in _HARDWARE and _switched_off(text, h.start, h.end):
            continue  # 'running with IB disabled', '把 IB 关掉': a setting turned it off; the hardware is still there
        if h.fact == "gpu.model" and _GPU_ROW_AFTER.match(text, h.end):
            out.append(h)  # s13 '|   0  Tesla T4   Off  | 00000000:00:04.0 Off |': nvidia-smi's Persistence-M column
            continue
        if h.fact in _FLIPPABLE and isinstance(h.value, bool):
            if h.value is True:
                out.append(Understood(h.fact, False, h.text, h.start, h.end, h.source, h.inferred, h.weak,
                                      h.hypothetical))
            else:
                out.append(h)  # already read as absent
        elif h.fact in _KIND_FACTS:
            continue  # 'we don't have InfiniBand': not infiniband, and nothing else known
        else:
            out.append(h)
    return out


_FABRIC_WORD = re.compile(r"InfiniBand|(?<![A-Za-z_/])IB(?![A-Za-z_])|RoCE|EFA", _IC)


def _other_fabric_affirmed(text: str, h: Understood, hits: list[Understood]) -> bool:
    """net-s11: another fabric kind read in the same sentence, not under a negation ('It's RoCE, not InfiniBand')."""
    if not _FABRIC_WORD.fullmatch(h.text.strip()):
        return False
    sa, sb = tx.sentence_bounds(text, h.start)
    return any(x.fact == "nic.kind" and sa <= x.start < sb and x.text.strip().lower() != h.text.strip().lower()
               and not x.weak and not is_negated(text, x.start, x.end) for x in hits)


# The words for another cluster than the asker's: one table, used here for another system's hardware and by the
# comparison readers for a run on another cluster (which add the cluster the asker left: 'our old cluster').
OTHER_CLUSTER = r"另一个集群|别的集群|其他集群|其它集群|(?<![A-Za-z])(?:another|other) cluster"

# Another system described for comparison: its hardware is not this job's ('官方平台是每节点 4*100G RoCE、机内 NVLink').
_OTHER_SYSTEM = re.compile(r"官方(?:的)?(?:平台|环境|集群|机器|配置|测试结果|数据)|(?<![比跟和与])别人(?:的)?|其他人|"  # s11 ('比别人慢': ranks)
                           # s26 another party's account: '（官方说他们从单节点到 12 节点 … 16s -> 18s/it）', '（另一位同样
                           # 配置 … 的是 15s/it）', 'another user with the same setup gets 15 s/it', 'the maintainers report …'
                           r"官方(?:说|称|表示|给出|回复|的说法)|(?:另|另外)(?:一|1)?(?:位|个人|个用户|名用户)|其他用户|别的用户|"
                           r"(?<![A-Za-z])(?:another|other) (?:user|person|poster|commenter|team)s?(?![A-Za-z])|someone else|"
                           r"(?<![A-Za-z])the (?:maintainers?|authors?|developers?|devs) (?:said|say|says|reported?|reports|claim|"
                           r"claims|claimed|mention(?:ed|s)?|got|get|see|saw)(?![A-Za-z])|"
                           r"the (?:official|reference|paper's|authors') "
                           r"(?:setup|platform|cluster)|(?:their|the README's|the paper's) (?:setup|platform|cluster|numbers)|"
                           rf"{OTHER_CLUSTER}|DGX-?1 is said|"
                           # what a README, paper or blog reports is their run, not the asker's
                           # (fix31 a FAQ, a doc, a tutorial or a manual as much: 'FAQ 里说 4 卡 500W 数据训练 1 个星期')
                           r"(?:README|FAQ|论文|文章|博客|官方文档|文档|教程|手册|wiki)\s*(?:里|中|上)?\s*(?:面)?\s*(?:说|写|提到|"
                           r"给出|声称|报告)|"
                           r"(?:according to|per) the (?:README|FAQ|paper|blog|docs|documentation|tutorial|wiki)|"
                           # s13 thread: '作为参考，官方在 8 台 A100 上是 1.2s/it', 'A user
                           # on the forum with 2 nodes of 8 H100 got 3x our throughput'
                           r"官方(?:在|用)(?!的)|"
                           r"(?<![A-Za-z])(?:a|one|some) (?:user|person|poster|commenter|guy)s? (?:on|in|from) (?:the |this )?"
                           r"(?:forum|thread|issue|discussion|discord|slack|community)|"
                           r"someone (?:on|in) (?:the |this )?(?:forum|thread|issue|discussion)|"
                           r"the (?:README|FAQ|paper|blog|docs|documentation|tutorial|wiki) (?:says|claims|reports|shows|"
                           r"states|mentions)|"
                           # reported speech: '看到有人说 V100 要 100Gbps 才够', 'someone said P100 needs 25-50Gbps'
                           r"(?:看到|听)?有人说|网上(?:有人)?说|someone (?:said|says|mentioned|suggested|wrote)|"
                           r"(?:I|we)(?:'ve| have)? (?:read|heard) (?:that|somewhere|online)|people (?:say|said)|"
                           # s21 an example in code or docs: 'its docstring example is a cluster with 3 nodes of 2 GPUs'
                           r"(?:docstring|doc string|README|docs|documentation|tutorial|sample code)(?:'s)?\s+(?:example|sample)|"
                           r"(?:example|sample)\s+(?:in|from|of)\s+(?:the|its|their)\s+(?:docstring|docs|documentation|"
                           r"README|tutorial)|(?:文档|注释|docstring|README|教程|示例代码)\s*(?:里|中|上)?\s*(?:的)?\s*"
                           r"(?:例子|示例|样例)", _IC)
# An earlier run described in passing ('(an earlier 0.5B run on one node was fine)'): what follows, to the end of its
# clause, is not the job's.
_EARLIER_RUN = re.compile(r"(?:an?|the|our|my) (?:earlier|previous|prior|older|old) (?=(?:[\w.·-]+ ){0,2}run)|"
                          r"之前(?=(?:跑|训)的)|以前(?=(?:跑|训)的)", _IC)


# s9/s28 a load said of another workload than the job ('Training separate models fills every GPU close to 100 %',
# 'When I train the "trivial" model the CPU usage is about 60-70%', '训练其他模型时 GPU 利用率能到 90%'): that
# workload's load, to the end of its sentence, not the job's
_OTHER_WORKLOAD = re.compile(
    r"(?<![A-Za-z])(?:(?:when|if|whenever)\s+(?:I|we)\s+(?:train|run|use|try|launch)|training|running|trying|with|for)\s+"
    r"(?:the\s+|a\s+|an\s+|some\s+)?[\"“']?(?:other|another|separate|different|toy|trivial|dummy)[\"”']?\s+"
    r"(?:[\w-]+\s+)?(?:models?|networks?|nets?|jobs?|workloads?|tasks?|benchmarks?)(?![A-Za-z])|"
    r"(?:训练|跑|换成|换|用|单独训练)\s*(?:其他|其它|别的|另一个|另外的|另外一个)\s*(?:的)?\s*(?:模型|网络|任务|程序)", _IC)
_OWN_LOADS = {"gpu.util_pct", "cpu.util_pct", "gpu.util_min_pct"}


def _other_workload_spans(text: str) -> list[tuple[int, int]]:
    """Where a sentence speaks of another workload than the job's ('training separate models', '训练其他模型时'):
    from the cue to the end of its clause, or of the next where the cue's own clause holds no figure ('when I train
    other models, the GPUs are at 100%'); never past the sentence ('…90%，这个模型只有 30%' keeps the job's 30)."""
    spans = []
    for m in _OTHER_WORKLOAD.finditer(text):
        stop = tx.sentence_bounds(text, m.start())[1]
        end = tx.clause_bounds(text, m.start())[1]
        if not re.search(r"\d", text[m.end():end]) and end < stop:
            end = tx.clause_bounds(text, min(end + 1, len(text) - 1))[1]
        spans.append((m.start(), min(end, stop)))
    return spans


# 'we trained an 80B model on 340 Gbps, whereas BLOOM-176B reached 150 TFLOPs on a cluster with 140 Gbps': a contrast
# that names a model of another size describes another team's run, to the end of its sentence.
# (job-s12b or a smaller model said not to have the problem: '小模型没这个问题，2.6B 模型 micro batch 8 时：…', 'smaller
# models don't have this issue: with 1.3B …')
_ANOTHER_RUN = re.compile(r"(?<![A-Za-z])(?:whereas|while|unlike|compared (?:to|with)|in contrast|"
                          # s13 'For reference, a 7B model gets 3000 tokens/s on the same nodes', '作为对比，7B 模型…'
                          r"for (?:reference|comparison)|as a (?:reference|comparison)|"
                          # s14 a published run: 'our 13B; the official recipe for the 70B uses 64 nodes'
                          r"(?:the\s+)?(?:official|upstream|paper'?s|reference)\s+(?:recipe|example|script|config(?:uration)?|"
                          r"setup|run|numbers?))(?![A-Za-z])|作为(?:参考|对比)|相比之下|与之相比|官方(?:的)?\s*(?:示例|脚本|配置|例子)|"
                          r"而(?=[^，,。]{0,12}(?:模型|\d+\s*[BbMm]))|"
                          r"(?:小|较小的|更小的|其他|别的)模型\s*(?:就|都|也)?\s*(?:没有?(?:这个|这种|此)?问题|没事|正常|很正常|不会)|"
                          r"(?<![A-Za-z])(?:smaller|other) models? (?:(?:do|does)(?: not|n't) have (?:this|the|that|such)|"
                          r"(?:has|have) no (?:such )?|(?:is|are|run|runs|work|works) (?:fine|ok|okay|normally))", _IC)
_OWN_RUN = {"job.baseline_nodes", "job.baseline_gpus", "job.speedup", "job.negative_scaling", "job.step_time_baseline_s"}


def _other_model_spans(text: str, hits: list[Understood]) -> list[tuple[int, int]]:
    sizes = sorted((h.start, h.value) for h in hits if h.fact == "job.model_params_b")
    if len({v for _, v in sizes}) < 2:
        return []
    spans = []
    for m in _ANOTHER_RUN.finditer(text):
        end = tx.sentence_bounds(text, m.start())[1]
        inside = [v for pos, v in sizes if m.end() <= pos < end]
        before = [v for pos, v in sizes if pos < m.start()]
        if inside and before and inside[0] not in before:
            spans.append((m.start(), end))
    return spans


# s24 another model said to train well: 'intern s1 mini 和 qwen 235B 都能顺利训练', 'Llama-70B trains fine, but our
# 241B hangs', '7B 跑得好好的，70B 就卡住': the size named before the verdict, in its clause, is another run's
_TRAINS_FINE = re.compile(
    r"(?:都|也|就)?\s*(?:能|可以)?\s*(?:顺利|正常|成功)\s*(?:地)?\s*(?:训练|跑|运行|训|跑通|完成|收敛)|"
    r"(?:都|也|就)\s*(?:没有?(?:这个|此)?问题|没事|(?:很)?正常)|没有?(?:任何)?(?:这个|此)?问题(?!\s*(?:吗|么|[?？]))|(?:跑|训练?)得(?:好好的|很好|挺好|正常|很顺利|顺利)|"
    r"(?<![A-Za-z])(?:trains?|trained|training|runs?|ran|running|works?|worked|working)\s+(?:just\s+|perfectly\s+)?"
    r"(?:fine|ok|okay|well|normally|smoothly|without (?:any )?(?:problems?|issues?|hangs?))(?![A-Za-z])|"
    r"(?<![A-Za-z])(?:(?:is|are|was|were) (?:fine|ok|okay)|(?:has|have|had) no (?:such )?(?:problems?|issues?))(?![A-Za-z])",
    _IC)


# s14 a model wanted later, not trained now: 'a 7B, later we want 70B', '之后想训 70B', 'we plan to scale to 70B'
_WANTED = re.compile(r"(?<![A-Za-z])(?:(?:later|next|eventually|then|in the future),?\s+(?:we|I)\s+(?:want|plan|hope|would like|'d like|"
                     r"will)|(?:we|I)\s+(?:want|plan|hope|would like|'d like)\s+to\s+(?:train|try|scale(?: up)? to|move to|go to|"
                     r"use)|(?:planning|hoping) to (?:train|scale(?: up)? to|try|move to))(?![A-Za-z])|"
                     r"(?:之后|以后|后续|后面|下一步|将来|接下来)\s*(?:还)?\s*(?:想|要|打算|计划|准备)|(?:打算|计划|准备)\s*(?:要)?\s*(?:训练?|跑|上|扩到)",
                     _IC)


def _wanted_model_spans(text: str, hits: list[Understood]) -> list[tuple[int, int]]:
    """Clauses that name a model wanted later, where a model of another size is named outside them."""
    sizes = [(h.start, h.value) for h in hits if h.fact == "job.model_params_b"]
    if len({v for _, v in sizes}) < 2:
        return []
    spans = []
    for m in _WANTED.finditer(text):
        b = tx.clause_bounds(text, m.end())[1]
        inside = {v for pos, v in sizes if m.start() <= pos < b}
        if inside and {v for pos, v in sizes if not m.start() <= pos < b} - inside:
            spans.append((m.start(), b))
    return spans


_CLAUSE_TURN = re.compile(r"(?<![A-Za-z])(?:but|while|whereas|although|though|yet)(?![A-Za-z])|但是?|可是|不过|而(?!且)",
                          _IC)


def _fine_model_spans(text: str, hits: list[Understood]) -> list[tuple[int, int]]:
    """Spans that name a model said to train well, where a model of another size is named outside them."""
    sizes = [(h.start, h.value) for h in hits if h.fact == "job.model_params_b"]
    if len({v for _, v in sizes}) < 2:
        return []
    spans = []
    for m in _TRAINS_FINE.finditer(text):
        a = tx.clause_bounds(text, m.start())[0]
        turns = list(_CLAUSE_TURN.finditer(text, a, m.start()))
        a = turns[-1].end() if turns else a  # 'our 241B hangs but Llama-70B trains fine': from the turn on
        a = max(a, text.rfind("(", a, m.start()) + 1, text.rfind("（", a, m.start()) + 1)  # s13 '（之前 7B 没问题）'
        inside = {v for pos, v in sizes if a <= pos < m.start()}
        outside = {v for pos, v in sizes if not a <= pos < m.start()}
        if inside and outside - inside:
            spans.append((a, m.start()))
    return spans


# Words that bring the question back to the asker's own run after another system was described.
_OWN_RUN_SAID = re.compile(r"我们(?:这边|这里|这儿)?(?:测|跑|实测)|我们这(?:个|台|套|边|里)(?:集群|机器)?(?:是|用)|"  # net-s11
                           r"我(?:这边|这里)?(?:测|跑|实测)|我们的|我的|我们在|我们用|我在|我用|"
                           # a clause that opens on the asker ('别人的集群…能跑到 90GB/s，我们两台 8 卡只有 40GB/s')
                           r"(?:^|(?<=[，,。;；]))\s*(?:而|但是?|可是|然而)?\s*(?:我们|我这边|我这里|咱们)|"
                           r"(?<=[,;])\s*(?:but |while |whereas |yet )?(?:we|our)(?![A-Za-z])|"
                           # s12 now: '之前在另一个集群上跑得很好，现在换到新集群 2 台 8 卡', 'on another cluster it was fine, now
                           # on ours …': the clause that turns to today is the asker's run
                           r"(?:^|(?<=[，,。;；]))\s*(?:而|但是?|可是|然而)?\s*(?:现在|如今|目前|这次)|"
                           r"(?<=[,;])\s*(?:but |and )?(?:now|currently|this time|today)(?![A-Za-z])|"
                           r"(?<![A-Za-z])(?:this one|ours|our (?:cluster|nodes|machines|setup|run)|we (?:get|got|see|measured?)|"
                           r"I (?:get|got|see|measured?))(?![A-Za-z])", re.IGNORECASE)


# 'a step used to take 5 s, now it takes 9 s', 'step 时间以前是 5 秒，现在变成 9 秒': the past value of a fact said again
# for now is no fact of the job (measurements have their own reader, understanding._was_and_now)
_NOW_SAID = re.compile(r"(?<![A-Za-z])(?:now|currently|today|these days|nowadays)(?![A-Za-z])|现在|目前|当前|如今|最近", _IC)
_PAST_FACTS = {"job.step_time_s", "gpu.util_pct", "cpu.util_pct", "job.comm_time_pct", "job.data_wait_pct"}


def _superseded(text: str, hits: list[Understood]) -> set[int]:
    """Indexes of hits said of the past where the same fact is said for now a little later, or a little before (s33
    '现在变成 4.04s/it（每个迭代要 4 秒，以前每秒 3 个迭代）': the gloss goes back to the old pace after the new one)."""
    out: set[int] = set()
    by_fact: dict[str, list[int]] = {}
    for i, h in sorted(enumerate(hits), key=lambda ih: ih[1].start):  # in the order they are said, not read
        if h.fact in _PAST_FACTS and h.source == "words":
            by_fact.setdefault(h.fact, []).append(i)
    for idxs in by_fact.values():
        for i, j in zip(idxs, idxs[1:], strict=False):
            h, later = hits[i], hits[j]
            if later.value == h.value or not h.end <= later.start < h.end + 160:
                continue
            if _said_of_the_past(text, h) and _NOW_SAID.search(text, max(h.end, later.start - 30), later.start):
                out.add(i)
            elif _said_of_the_past(text, later) and not _said_of_the_past(text, h) and _NOW_SAID.search(
                    text, max(tx.clause_bounds(text, h.start)[0], h.start - 30), h.start):
                out.add(j)  # now said first, then the past: the past value goes all the same
            elif _rounded_gloss(text, h, later):
                out.add(j)  # '4.04s/it（每个迭代要 4 秒…）': the bracket says the figure again, rounded
    return out | _superseded_setup(text, hits) | _corrected_later(text, hits)


def _rounded_gloss(text: str, h: Understood, later: Understood) -> bool:
    """The later value said in a bracket opened right after the earlier one, and within rounding of it."""
    between = text[h.end:later.start]
    if not re.match(r"\s*[(（]", between) or re.search(r"[)）]", between):
        return False
    try:
        a, b = float(h.value), float(later.value)
    except (TypeError, ValueError):
        return False
    return 0 < a and abs(a - b) <= 0.05 * a


def _said_of_the_past(text: str, h: Understood) -> bool:
    return bool(tx.PAST.search(text, max(tx.clause_bounds(text, h.start)[0], h.start - 30), h.start))


# s28 a figure corrected later by the asker ('GPU 利用率基本在 1%。（补充：原来是任务管理器的显示问题，实际利用率 90+%。）', 'GPU
# util shows 0% … turns out nvidia-smi was wrong, it's actually ~85%'): the value said as the actual one stands
_ACTUALLY = re.compile(r"(?:实际(?:上)?|其实|真实|实测)\s*(?:的)?\s*[^，,。;；\d]{0,8}$|(?<![A-Za-z])(?:actually|in fact|in reality|"
                       r"really)(?![A-Za-z])[^,.;\d]{0,16}$", _IC)
_CORRECTION_OPENS = re.compile(r"补充|更正|纠正|原来是|后来发现|发现是|turns? out|it turned out|update|edit|correction|"
                               r"my mistake|(?<![A-Za-z])(?:was|is) wrong", _IC)


def _corrected_later(text: str, hits: list[Understood]) -> set[int]:
    out: set[int] = set()
    for j, later in enumerate(hits):
        if later.source.startswith("pasted") or later.hypothetical:
            continue
        sa = tx.sentence_bounds(text, later.start)[0]
        if _ACTUALLY.search(text, max(0, later.start - 20), later.start):
            if not _CORRECTION_OPENS.search(text, max(0, sa - 40), later.start):
                continue
        elif not _SAID_WRONG.search(text, max(0, sa - 40), later.start) or _DENIED_VALUE.search(
                text, max(sa, later.start - 10), later.start):
            continue
        out.update(i for i, h in enumerate(hits[:j]) if h.fact == later.fact and h.value != later.value
                   and h.end <= sa and not h.source.startswith("pasted"))
        sb = tx.sentence_bounds(text, later.start)[1]
        # '是 4 台机器，不是 2 台', 'it's 25G, not 100G': the value the correction denies goes too
        out.update(i for i, h in enumerate(hits) if i > j and h.fact == later.fact and h.value != later.value
                   and h.start < sb and _DENIED_VALUE.search(text, max(later.end, h.start - 10), h.start))
    return out


# s13 thread: the asker's own correction, said as one ('更正一下：是 4 台机器，不是 2 台。', '补充：刚才说错了，网卡是 25G 不是 100G',
# 'Edit: correction, each server has 8 GPUs', 'sorry, I meant 4 nodes'): the value it gives replaces the one said before
_SAID_WRONG = re.compile(r"说错了?|写错了?|搞错了?|打错了?|记错了?|更正|纠正|"
                         r"(?<![A-Za-z])(?:correction|my mistake|my bad|typo|I meant|(?:I|we) misread|should (?:read|say)|"
                         r"mis-?typed|I was wrong)(?![A-Za-z])", _IC)
_DENIED_VALUE = re.compile(r"(?:不是|而不是|并非|(?<![A-Za-z])(?:not|rather than|instead of))\s*(?:the\s+)?$", _IC)


# A setup of the past told in a sentence of its own, then today's in the next ('Previously on A100 nodes with 8x200G HDR
# we got 1.9x. Now on H100s with 2x100G RoCE we only get 1.2x.', '之前用 A100 + 200G IB 能到 1.9 倍。现在换成 H100 只有
# 1.2 倍。'): what the past sentence says and the present one says again, with another value, was the old setup's.
_PAST_OPENING = re.compile(r"\s*(?:[-*•]\s*)?(?:(?:when|back when|before|earlier|previously|formerly|in the past|last (?:week|month|"
                           r"time|year)|(?:we|I) used to|(?:on|with) (?:the|our) (?:old|previous|former))(?![A-Za-z])|"
                           r"(?:以前|之前|原来|原先|过去|上周|上个月|上次|早先|之前的|原来的))", _IC)
_NOW_OPENING = re.compile(r"\s*(?:[-*•]\s*)?(?:(?:but|and|so)\s+)?(?:(?:now|currently|today|these days|nowadays|this time|after "
                          r"(?:the|we|moving|switching|upgrading))(?![A-Za-z])|(?:[而但可]是?\s*)?(?:现在|目前|当前|如今|这次|换成|"
                          r"换到|升级(?:到|后)|迁移到))", _IC)
# The model is often the same job moved (a size said twice is no new setup); counts of the past are the baseline's, which
# the comparison readers take from them ('之前是 4 台机器…现在换成 8 台' is 8 nodes against 4).
_SETUP_FACTS_KEPT = {"job.model_params_b", "job.nodes", "job.gpus_per_node", "job.baseline_nodes", "job.baseline_gpus"}


def _superseded_setup(text: str, hits: list[Understood]) -> set[int]:
    out: set[int] = set()
    for i, h in enumerate(hits):
        if h.source.startswith("pasted") or h.fact in _SETUP_FACTS_KEPT:
            continue
        sa, sb = tx.sentence_bounds(text, h.start)
        if not _PAST_OPENING.match(text, sa):
            continue
        for later in hits[i + 1:]:
            if later.fact != h.fact or later.value == h.value or later.start < sb or later.start > sb + 400:
                continue
            la = tx.sentence_bounds(text, later.start)[0]
            if _NOW_OPENING.match(text, la):
                out.add(i)
                break
    return out


# What the asker believes of a fabric in general ('我理解 NCCL 一般是靠 RDMA 的', 'as far as I know NCCL usually runs over
# InfiniBand') says nothing of their own machines, unless they name them ('我们一般用 IB', 'our nodes usually use RoCE').
_GENERIC = re.compile(r"我理解|据我所知|一般(?:来说|情况下)?|通常|往往|as far as I (?:know|understand)|AFAIK|"
                      r"I understand (?:that )?|my understanding is|(?<![A-Za-z])(?:usually|typically|generally|normally)"
                      r"(?![A-Za-z])|in general", _IC)
_GENERIC_OWN = re.compile(r"我们|我的|咱们|(?<![A-Za-z])(?:our|my|we|us)(?![A-Za-z])", _IC)
_GENERIC_FACTS = {"nic.kind", "nic.rdma", "nic.efa"}


def _generic(text: str, clause_start: int, at: int) -> bool:
    cues = list(_GENERIC.finditer(text, clause_start, at))
    if not cues:
        return False
    cue = cues[-1]
    return not _GENERIC_OWN.search(text, max(clause_start, cue.start() - 12), at)


# A share not reached is the target ('some GPUs can't hit 95%', 'GPU 利用率上不了 90%'), not the GPUs' load.
_SHARES = {"gpu.util_pct", "cpu.util_pct", "gpu.util_min_pct", "job.comm_time_pct"}
_NOT_REACHED = re.compile(r"(?:(?<![A-Za-z])(?:not|never|can't|cannot|couldn't|doesn't|does not|don't|do not|didn't|"
                          r"did not|unable to|fails? to|won't)\s+(?:even\s+)?(?:reach|hit|achieve|get to|get above|"
                          r"go above|exceed|climb above)|达不到|上不了|到不了|跑不到|上不去|打不到|(?:超|高)不过)\s*$", _IC)


# Someone else's words quoted ('维护者的回复：“… DGX-A100 上能测到 192GB/s …”', 'the maintainer replied: "… 192 GB/s …"'):
# their figures and hardware, not the asker's.
_QUOTE = re.compile(r"[“「『\"](?P<body>[^“”「」『』\"\n]{8,600})[”」』\"]")
_SPEECH = re.compile(r"(?:回复|回答|答复|说|提到|写道|解释|表示|指出|(?<![A-Za-z])(?:said|says|replied|wrote|answered|"
                     r"commented|mentioned|explained|pointed out|reply|answer|response))\s*(?:道|说|was|is|:|：|,|，)?\s*[:：,，]?\s*$",
                     _IC)


# Advice passed on without quotes ('The advice we got so far: … on Jean Zay, where the network is 50Gbps, …', '有人建议：…',
# 'we were told that …'): the rest of that sentence is someone else's account.
_ADVICE = re.compile(r"(?<![A-Za-z])(?:the )?(?:advice|suggestion|answer|reply) (?:we|I) (?:got|received|were given|was given)"
                     r"(?: so far| from \w+)?\s*(?:is|was)?\s*[:：,，-]|(?<![A-Za-z])(?:we|I) (?:were|was) told(?: that)?|"
                     r"(?:有人|别人|同事|群里|网上|大佬)(?:建议|说|告诉我们?|给的建议是)\s*[:：,，]?|得到的建议是\s*[:：,，]?", _IC)


# s28 a reply in the thread, paraphrased after the asker's words: '（维护者：16G 显存可以把 batch_size 设成 12；…）',
# '（作者回复：…我的是 60 张…）', '(maintainer: on our cluster we get 20 GB/s)', 'Another user added: …': the replier's
# figures and settings, to the end of the bracket (or of the sentence), unless the reply speaks of the asker's own
# machines ('你的网卡只有 10G', 'your NIC is 10G').
# (the asker's own answer to a reply is theirs: '回复维护者：我们是 2 台 8 卡', 'Reply to maintainer: we have 2 nodes')
_REPLY = re.compile(r"(?<!回复)(?<!回答)(?<!答复)(?<!问)(?:维护者|作者|官方|开发者|管理员|另一位用户|其他用户|有人|楼上|网友)\s*(?:的)?\s*"
                    # (s30 or their reproduction: '（维护者复现：双卡 A100 的环境，…）', '(maintainer's repro: 2x A100 …)')
                    r"(?:回复|回答|答复|补充|建议|说|解释|复现|测试|实测|试了|跑了|的复现|的测试)?"
                    r"\s*[:：]|(?<![A-Za-z])(?<!to )(?<!to the )(?<!for )(?<!for the )(?:the\s+)?(?:maintainers?|authors?|developers?|devs?|another user|a commenter|"
                    r"someone|official)(?:'s|’s)?\s*(?:replied|answered|added|suggested|said|wrote|commented|explained|"
                    r"reproduced|repro(?:duction)?|tested|tried|ran|benchmarked|test(?:ed)? run|"
                    # s13 thread: a reply by its label ('Official answer:', '**Maintainer comment**:', 'Maintainer reply: …')
                    r"(?:answer|reply|response|comment|note)s?)?\s*(?:\*\*)?\s*[:：]|"
                    r"(?<![A-Za-z])(?:reply|response|answer|comment) (?:from|by) (?:the |a |an |another )?(?:maintainers?|"
                    r"authors?|developers?|devs?|users?|commenters?|posters?)\s*(?:\*\*)?\s*[:：]", _IC)
# s13 thread: a reply told in the asker's words, its speaker and verb with no colon ('维护者说他们 16 台机器也是 10GB/s',
# '维护者建议换 zero2', '其他用户反馈 4 台 H800 step 1.5s', 'Maintainer suggested ZeRO-2 with 2 nodes', '@sjeaugey mentioned
# that on DGX-2 …'): what the asker says of their own machines there ('维护者说我们的网卡只有 25G', 'the maintainer said our
# NICs …') is theirs, so such a span names neither the asker nor 'you'
_REPORTED_REPLY = re.compile(
    r"(?:维护者|作者|官方|开发者|管理员|另一位用户|另一个用户|另外一位(?:用户|网友)?|其他用户|别的用户|楼上|网友)\s*(?:的)?\s*"
    r"(?:回复说|回复|回答|答复|说|表示|提到|建议|认为|反馈)(?![:：])|"
    r"(?<![\w@])@[A-Za-z\u4e00-\u9fff][\w\u4e00-\u9fff-]{1,38}\s*(?:(?:也|还)?(?:说|提到|回复|表示|建议)|(?:said|says|mentioned|"
    r"replied|wrote|suggested|commented|reported|noted)(?![A-Za-z]))|"
    r"(?<![A-Za-z])(?:the\s+)?(?:maintainers?|authors?|developers?|devs|a commenter|another (?:user|commenter|poster)|"
    r"other (?:users|commenters|posters)|someone(?: else)?)\s+(?:suggested|recommended|replied|answered|said|"
    r"says|mentioned|wrote|commented|reported|noted)(?![A-Za-z])", _IC)
# h-step a reply said after what the replier did first ('（维护者看了 wall_clock_breakdown 之后说：…）', '维护者在他们的集群上跑了
# 一下说：…', '(The maintainer looked at the profile and said: …)', 'A maintainer ran the same script and said each step
# takes 0.2 s'): from the verb of saying on, the replier's words, as a reply with its verb next to the speaker is; what
# the replier did before saying (looked at our 4 nodes' log) stays the asker's
_REPLY_AFTER_DOING = re.compile(
    r"(?<!我们)(?<!我们的)(?<!我的)(?<!我)(?:维护者|作者|官方|开发者|管理员|另一位用户|另一个用户|其他用户|楼上|网友)"
    r"[^，,。；;：:\n（）()“”\"?？]{1,40}?"
    r"(?P<said>(?:之后|以后|后)?\s*(?:回复说|回复|回答|答复|说|表示|指出|写道|补充)\s*(?:道)?\s*[:：])|"
    r"(?<![A-Za-z])(?<![Oo]ur )(?<![Mm]y )(?:the\s+|a\s+|one\s+)?(?:maintainers?|authors?|developers?|devs|another user|"
    r"a commenter)\s+(?:(?!said|replied|wrote|answered|commented)[^,.;:\n()\"?])"
    r"{1,60}?\s+and\s+(?P<said2>(?:then\s+)?(?:said|replied|wrote|answered|commented|explained|concluded|reported)"
    r"(?:\s*[:：]|(?:\s+that)?(?=\s)))", _IC)
_ASKER_IN_REPORT = re.compile(r"我们|我的|我这|咱们|(?<![A-Za-z])(?:we|our|ours|my|I|me|us)(?![A-Za-z'])", _IC)
# s13 thread: another party's aside in brackets ('(another poster on 8 H100 sees 1.2 s/it)', '（另一位同样配置的是 15s/it）')
_OTHER_ASIDE = re.compile(r"(?<=[（(])\s*(?:(?:another|other|a) (?:user|person|poster|commenter)s?|someone else|"
                          r"另一位|另一个(?:用户|人)|另外一位|其他用户|别的用户|楼上|网友)", _IC)
# a clause that turns back to the asker ends a reply said without brackets ('维护者说他们 16 台也是 10GB/s，而我们 …')
_BACK_TO_THE_ASKER = re.compile(r"[，,;；]\s*(?:而|但是?|可是|不过)\s*(?:我们|我这边|我这里)|[,;]\s*(?:but|while|whereas)\s+"
                                r"(?:we|our|ours|my)(?![A-Za-z])|[，,;；]\s*我们这边|[,;]\s*ours(?![A-Za-z])", _IC)
_TO_THE_ASKER = re.compile(r"你的|你们的|您的|你这|你们(?=\s*(?:每|这|那|集群|机器|节点|网卡|服务器|只|用的|是))|"
                           r"(?<![A-Za-z])(?:your|you're|you are|you have|you only have)(?![A-Za-z])", _IC)
_CLOSE = {"（": "）", "(": ")", "[": "]", "【": "】"}


def _reply_end(text: str, m: re.Match[str]) -> int:
    opener = text[max(0, m.start() - 1):m.start()]
    if opener not in _CLOSE:
        opened = max(text.rfind("(", 0, m.start()), text.rfind("（", 0, m.start()))
        if opened >= 0 and m.start() - opened <= 2 and not text[opened + 1:m.start()].strip():
            opener = text[opened]
    close = text.find(_CLOSE[opener], m.end()) if opener in _CLOSE else -1
    if close >= 0:
        return close
    end = tx.sentence_bounds(text, m.end())[1]
    back = _BACK_TO_THE_ASKER.search(text, m.end(), end)
    return back.start() if back else end


def _replies(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for pattern, asker in ((_REPLY, (_TO_THE_ASKER,)), (_REPORTED_REPLY, (_TO_THE_ASKER, _ASKER_IN_REPORT)),
                           (_OTHER_ASIDE, (_TO_THE_ASKER,))):
        for m in pattern.finditer(text):
            spans += _without_the_askers_clauses(text, m.start(), m.end(), _reply_end(text, m), asker)
    for m in _REPLY_AFTER_DOING.finditer(text):
        said = m.start("said") if m["said"] else m.start("said2")
        asker = (_TO_THE_ASKER,) if m["said"] else (_TO_THE_ASKER, _ASKER_IN_REPORT)
        spans += _without_the_askers_clauses(text, said, m.end(), _reply_end(text, m), asker)
    return spans + _quote_lines(text)


def _without_the_askers_clauses(text: str, start: int, said: int, end: int,
                                asker: tuple[re.Pattern[str], ...]) -> list[tuple[int, int]]:
    """The reply [start, end) less its clauses that speak of the asker's machines ('（维护者：你们每台只有一张 25G 网卡，瓶颈在
    这。）', '(maintainer: your NICs are only 25G, so …)'): those are the asker's facts, the rest the replier's."""
    if not any(p.search(text, said, end) for p in asker):
        return [(start, end)]
    out, a = [], start
    while a < end:
        b = min(tx.clause_bounds(text, max(a, said))[1], end)
        if b <= a:
            break
        if not any(p.search(text, max(a, said), b) for p in asker):
            out.append((a, b))
        a = b
    return out


# s13 thread: a reply quoted as markdown, line by line ('> On our cluster we get 22 GB/s busbw with 4 nodes of 8 A100.');
# a shell prompt is no quote ('> ofed_info -s', '> lsmod | grep nv_peer')
_QUOTE_LINE = re.compile(r"^[ \t]*>[ \t]?(?P<body>[^\n]*)", re.M)
_SHELL_PROMPT = re.compile(r"\s*(?:sudo\s+)?[a-z_][\w.-]*(?:\s+-{1,2}[A-Za-z]|\s*\||\s*$|\s+\S*/)")


def _quote_lines(text: str) -> list[tuple[int, int]]:
    if ">" not in text:
        return []
    return [(m.start(), m.end()) for m in _QUOTE_LINE.finditer(text)
            if m["body"].strip() and not _SHELL_PROMPT.match(m["body"])]


# a tool or its log as the speaker ('NCCL says "Using network Socket"', '日志说 …'): its own output quoted, not a person's words
_TOOL_SPEAKER = re.compile(r"(?:(?<![A-Za-z])(?:NCCL|nccl-tests|[a-z]+_perf|logs?|output|dmesg|iperf3?|ibstat|it)|日志|输出)"
                           r"\s*(?:also\s+|just\s+|only\s+)?(?:says|said|说)\s*[:：,，]?\s*$", _IC)


def _quoted_speech(text: str) -> list[tuple[int, int]]:
    quoted = [(m.start(), m.end()) for m in _QUOTE.finditer(text)
              if _SPEECH.search(text, max(0, m.start() - 16), m.start())
              and not _TOOL_SPEAKER.search(text, max(0, m.start() - 24), m.start())]
    return quoted + [(m.start(), tx.sentence_bounds(text, m.end())[1]) for m in _ADVICE.finditer(text)] + _replies(text)


#: what a reply can say of the asker's own job: the cause it found
_FOUND_BY_A_REPLY = {"job.data_loading_slow"}


def other_party_spans(text: str) -> list[tuple[int, int]]:
    """s13 thread: the spans of a thread that are someone else's words (quoted, passed on, a reply paraphrased or quoted
    as markdown, a sentence that opens on another party: 'Other users with 8 nodes report 1.2 s per step.'): the
    comparison readers do not pair the asker's figures with them."""
    spans = _quoted_speech(text)
    for m in _OTHER_SYSTEM.finditer(text):
        sa, sb = tx.sentence_bounds(text, m.start())
        if not text[sa:m.start()].strip(" \t\n*-•>") and not _OWN_RUN_SAID.search(text, m.end(), sb):
            spans.append((m.start(), sb))
    return spans


def said_by_others(text: str, pos: int) -> bool:
    """Whether `pos` lies in someone else's quoted words or in a sentence about another system."""
    sa, sb = tx.sentence_bounds(text, pos)
    return any(a <= pos < b for a, b in _quoted_speech(text)) or bool(_OTHER_SYSTEM.search(text, sa, sb))


# s14 a figure said of ANOTHER machine set against OURS: 'On the other machine GPU util is 95%, ours is 40%'. The
# other side is one machine, node, box or team named as another (the plural 'the other GPUs/nodes' are the job's own
# parts, a straggler pattern, and stay); our side is said with 'ours', 'here', 'this one', '我们这台', '这边'.
_OTHER_SIDE = re.compile(r"(?<![A-Za-z])(?:the|an?)\s*other (?:machine|node|box|server|host|instance|team|setup|rig)"
                         r"(?![A-Za-z])(?!s\b)|(?<![A-Za-z])another (?:machine|node|box|server|host|instance|team|setup|rig)"
                         r"(?![A-Za-z])|另(?:外)?一台(?:机器|节点|服务器|主机)?|另(?:外)?一个(?:节点|机器|服务器)|"
                         rf"别(?:的|人的)(?:机器|节点|服务器)|其他(?:的)?(?:机器|服务器)|{OTHER_CLUSTER}", _IC)
_OUR_SIDE = re.compile(r"(?<![A-Za-z])(?:ours|mine|here|(?:on\s+)?this (?:one|machine|node|box|server|host|cluster)|"
                       r"(?:our|my) (?:machine|node|box|server|host|one|side|setup|rig)(?!s))(?![A-Za-z])|"
                       r"我们?(?:这|这边|这里|这儿)(?:台|边|里|儿)?(?:机器|节点|服务器)?|咱们这(?:台|边|里)?|这边|本机", _IC)
_SIDE_FACTS = _SHARES | _QUOTABLE | {"job.step_time_s"}
_FIGURE = re.compile(r"(\d+(?:\.\d+)?)\s*(%|ms|s|秒|毫秒|[GM]B/s|[GM]bps|Gb/s)(?:/it)?\s*$", _IC)
_BARE_FIGURE = r"(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>%|ms|s|秒|毫秒|[GM]B/s|[GM]bps|Gb/s)(?![A-Za-z\d])"
_UNIT_SCALES = (0.001, 1000.0, 0.125, 8.0)
_OURS_THEN_FIGURE = re.compile(rf"(?:{_OUR_SIDE.pattern})[^,.;，。；\d\n]{{0,24}}?{_BARE_FIGURE}", _IC)


def _other_side(text: str, h: Understood) -> bool:
    """The clause of `h` names another machine before the figure, and its sentence names ours outside that clause."""
    if h.fact not in _SIDE_FACTS or h.source.startswith("pasted"):
        return False
    a, b = tx.clause_bounds(text, h.start)
    if not _OTHER_SIDE.search(text, a, h.start):
        return False
    sa, sb = tx.sentence_bounds(text, h.start)
    return any(not a <= m.start() < b for m in _OUR_SIDE.finditer(text, sa, sb))


def our_side_figures(text: str, kept: list[Understood], refs: list[Understood]) -> list[Understood]:
    """s14 'ours is 40%', '我们这台只有 40%': a bare figure on our side of a comparison with another machine takes the
    measure named on the other side, in the same unit (the other side's figure itself is set aside)."""
    out: list[Understood] = []
    for r in refs:
        said = _FIGURE.search(r.text)
        if r.fact not in _SIDE_FACTS or not said or not float(said[1]):
            continue
        sa, sb = tx.sentence_bounds(text, r.start)
        if not (_OTHER_SIDE.search(text, tx.clause_bounds(text, r.start)[0], r.start)):
            continue
        for m in _OURS_THEN_FIGURE.finditer(text, sa, sb):
            a, b = m.span("n")[0], m.end()
            if m["unit"].lower() != said[2].lower() or any(x.start < b and a < x.end for x in kept + refs + out):
                continue
            # the unit's scale to the fact's ('1200 ms' as 1.2 s); a share is its figure ('CPU is 100%' read as 95)
            scale = float(r.value) / float(said[1])
            scale = next((k for k in _UNIT_SCALES if abs(scale - k) < 1e-9 * k), 1.0) if said[2] != "%" else 1.0
            out.append(Understood(r.fact, round(float(m["n"]) * scale, 6), text[a:b], a, b))
    return out


def drop_references(text: str, hits: list[Understood]) -> tuple[list[Understood], list[Understood]]:
    """Measurements quoted as references ('the datasheet says 50 GB/s') and facts of another system described for
    comparison: (kept, set aside); a value of the past said again for now ('used to be 5 s, now 9 s') is set aside."""
    past = _superseded(text, hits)
    other_model = _other_model_spans(text, hits) + [(m.start(), tx.clause_bounds(text, m.start())[1])
                                                    for m in _EARLIER_RUN.finditer(text)]
    fine_models = _fine_model_spans(text, hits) + _wanted_model_spans(text, hits)
    other_work = _other_workload_spans(text)
    speech = _quoted_speech(text)
    kept, refs = [], []
    others: dict[tuple[int, int], tuple[int, int] | None] = {}  # one search per clause: where another system was named
    quoted: dict[tuple[int, int], list[int]] = {}  # where each clause quotes a reference
    for i, h in enumerate(hits):
        if i in past:
            refs.append(h)
            continue
        a, b = tx.clause_bounds(text, h.start)
        sa = max(tx.sentence_bounds(text, h.start)[0], a - 80)  # the clause and what leads into it
        if (sa, b) not in others:
            other = _OTHER_SYSTEM.search(text, sa, b)
            others[(sa, b)] = other.span() if other else None
        cue = others[(sa, b)]
        # s13 thread '2.5 s/it (another poster on 8 H100 sees 1.2 s/it)': another party's aside in brackets is theirs alone
        said_at = cue[1] if cue and not _aside_without(text, cue[0], h.start) else None
        # '官方文档说 … 900GB/s，我们测出来 … 350GB/s': the asker's own run named again after the other system's
        theirs_said = said_at is not None and not (said_at <= h.start and _OWN_RUN_SAID.search(text, said_at, h.start))
        # s14 'The other team says 1.2 s, here it is 3.5 s': a later clause said of our side is ours again
        theirs_said = theirs_said and not (said_at is not None and said_at <= a and _OUR_SIDE.search(text, a, h.start))
        a, b = _side_of_a_contrast(text, a, b, h.start)  # 'expected 23 GB/s but we get 8 GB/s': two sides, one reference
        if (a, b) not in quoted:
            quoted[(a, b)] = [m.start() for m in _REFERENCE.finditer(text, a, b)]
        said_so = any(not _aside_without(text, at, h.start) for at in quoted[(a, b)])
        theirs = h.fact not in _OWN_RUN and any(x <= h.start < y for x, y in other_model) or (
            h.fact in _GENERIC_FACTS and _generic(text, a, h.start))
        not_reached = h.fact in _SHARES and _NOT_REACHED.search(text, max(a, h.start - 24), h.start)
        theirs = theirs or h.fact in _OWN_LOADS and any(x <= h.start < y for x, y in other_work)
        # (a cause a reply finds is the job's: '（维护者回复：已经确定是数据载入的问题）')
        theirs = theirs or (h.fact not in _FOUND_BY_A_REPLY and any(x <= h.start < y for x, y in speech)) or (
            h.fact == "job.model_params_b" and any(x <= h.start < y for x, y in fine_models))
        if not h.source.startswith("pasted") and (theirs_said or theirs or not_reached or _other_side(text, h)
                                                    or (h.fact in _QUOTABLE and said_so)):
            refs.append(h)
        else:
            kept.append(h)
    return kept + our_side_figures(text, kept, refs), refs


_WHAT_IF_CUE = re.compile(
    # 'How do I get 35 GB/s with 8 GPUs?', '怎么才能跑到 90 GB/s': the figure wanted, not the one measured
    r"how (?:do|can|could|would|should) (?:i|we|you|one) (?:actually |really |ever |possibly )?(?:get|reach|achieve|hit)|怎么(?:样)?(?:才能)?(?:跑到|达到|做到)|"
    r"怎么(?:样)?(?:才能)?(?:让|使)[^，。？?]{0,12}?(?:跑到|达到|到|上)|"
    r"如何(?:才能)?(?:跑到|达到)|"
    r"what if|what happens if|what would happen if|what about|how about|(?<![A-Za-z])if (?:we|i|our|my|you|the|it)|"
    r"suppose(?![A-Za-z])|supposing|assuming we|were to|would it help to|如果|假如|假设|要是|若是|倘若|"
    # a clause opened by 'if' ('If 2 nodes were slower than one, that would be a problem')
    r"(?:^|(?<=[.!?;:,。！？；：，(（]))\s*if(?![A-Za-z])|"
    r"还是(?:得|要|必须|需要)?(?:上|换|用)|(?:得|要|必须|需要)上|(?:应该|该不该|该)上(?=\s*(?:\d|[千万]兆|IB|InfiniBand|RoCE|RDMA))|要不要|需不需要|是否需要|"
    # '是不是只能换万兆？', '需要配 IB 网卡吗', '要加装 RDMA 吗': hardware to get, asked about
    r"(?:只能|只好|得|要|必须|需要|应该|该)(?:再)?(?:换|配|买|加装|加|装|升级)(?=\s*(?:成|到|个|张|块|一下)?\s*"
    r"(?:\d|[一两二三四五六七八九十]|[千万]兆|IB|InfiniBand|RoCE|RDMA|NVLink|更快|更好|高速))|"
    # zh-s10 required fabric: '是不是必须要 IB 才能多机训练', '一定得上 RDMA 吗', '需要 IB 网卡吗': a requirement asked about
    r"(?:必须|一定|非得|必需|非要)\s*(?:要|得)?\s*(?:有|用|上|走)?(?=\s*(?:IB|InfiniBand|RoCE|RDMA|NVLink|GDR))|"
    r"需要\s*(?:有|用)?(?=\s*(?:IB|InfiniBand|RoCE|RDMA|NVLink)[^，,。.;；\n]{0,10}?(?:吗|么|[?？]|才(?:能|可以|行)))|"
    r"(?<![A-Za-z])(?:is|are) (?:an? )?(?=(?:IB|InfiniBand|RoCE|RDMA|NVLink)[^.,;?\n]{0,12}?(?:required|necessary|a must))|"
    # s11 need asked: 'Does ZeRO-3 across 2 nodes need InfiniBand?', 'would this require RDMA?': a fabric asked for
    r"(?<![A-Za-z])(?:need|needs|require|requires)\s+(?:an?\s+|the\s+)?(?=(?:IB|InfiniBand|RoCE|RDMA|NVLink|EFA|"
    r"GPUDirect)(?![A-Za-z])[^.;\n]{0,40}?[?？])|"
    r"do (?:i|we) need|should (?:i|we)(?![A-Za-z])(?!\s+(?:expect|see|be|look|worry|care)\b)|"
    r"should the \w+ (?:use|get|buy|add|move|set|change|enable|disable|raise|increase|lower)|"
    # en-s12b a fabric weighed: 'Would 200G InfiniBand be enough for 4 nodes?', 'would 100GbE suffice?'
    r"(?<![A-Za-z])would(?=\s+[^.;?\n]{1,40}?\s+(?:be\s+(?:enough|sufficient|fast enough|adequate)|suffice)(?![A-Za-z]))",
    _IC)
# An intention or a plan is a change to weigh, not the job today ('we' before it is no change made): '打算换 IB',
# '计划下季度升级到 400G', 'we're planning to move to 100GbE', 'thinking about getting InfiniBand', 'we might add NVLink'.
_INTENT_CUE = re.compile(
    r"打算|计划(?!任务)|准备(?=\s*(?:上|换|买|升级|改|用|加|扩|采购))|考虑(?!到)(?=\s*(?:上|换|买|升级|改|用|加|扩|采购))|"
    r"想(?:要)?(?=\s*(?:买|换|上|升级|加|改用|采购|扩))|"
    # s22 a change weighed: 'The change we are considering: checkpoint to the local disk instead', '我们考虑的方案是…'
    r"(?:考虑|打算|准备)的?(?:改法|方案|做法|办法|改动)|"
    r"(?<![A-Za-z])(?:(?:change|fix|option|plan|idea|proposal|alternative|workaround)s?\s+(?:that\s+)?(?:we|I)(?:'re|\s+are|'m|\s+am)\s+"
    r"(?:considering|proposing|planning|thinking (?:of|about)|weighing)|(?:we|I)(?:'re|\s+are|'m|\s+am)\s+considering\s*[:：]|"
    r"proposed (?:change|fix)\s*[:：])|"
    r"(?<![A-Za-z])(?:plan(?:ning|s)? to|plan(?:s|ned)?\s+(?:for\s+|on\s+)?(?=\d)|thinking (?:about|of)|considering (?=\w+ing)|(?:might|may) (?:add|buy|get|move|"
    r"switch|upgrade|try)|want(?:s|ed)? to (?:try|buy|add|move|switch|upgrade|get|go)|(?:would|'d) like to (?:try|buy|add|move|switch|upgrade|get|go)|(?:are|am|is) going to (?:buy|add|"
    r"move|switch|upgrade|get))(?![A-Za-z])", _IC)
# A plan to buy, replace or add hardware proposes a change; a plan to run ('我们打算在海外云上用 p4d.24xlarge 跑多节点',
# '现在想上 4 台机器') describes the job asked about unless the question also says the job as it is.
_HARD_INTENT = re.compile(r"换|买|升级|采购|替换|改|装|购|(?<![A-Za-z])(?:buy|buying|switch|upgrade|replace|get|getting|"
                          r"move|moving|purchas\w*|add|adding|install\w*)(?![A-Za-z])", _IC)
# 'replace the 25G NICs with 100G ones', '把 25G 网卡换成 100G', 'swap our 4 nodes for 8': the thing replaced, then the
# replacement, a few words apart
_REPLACED = re.compile(r"(?:把|将|replac\w*|swap\w*|trade\w*|换掉|替换掉?)\s*(?:the\s+|our\s+|my\s+|现在的?|目前的?)?\s*$",
                       _IC)
_REPLACED_BY = re.compile(r"[^，,。.;；?？!！\n]{0,16}?(?:换成|改成|换到|升级到|升级成|升到|替换成|替换为|改为|"
                          r"(?<![A-Za-z])(?:with|for|by)(?![A-Za-z]))\s*(?:the\s+|a\s+|an\s+)?\s*$", _IC)
# Change verbs ('upgrade to', '换成', '改成') are a what-if only in a question or a conditional clause: '只把 X 改成 Y，
# 结果慢了' and 'we moved to 100G last week' tell what was done.
_CHANGE_VERB = re.compile(r"upgrad(?:e|ing) to|mov(?:e|ing) to|switch(?:ing)? to|go(?:ing)? to|chang(?:e|ing) to|instead|"
                          r"换成|换到|改成|改用|升级到|升级成|升到|上到|切到|切换到|换用|改为", _IC)
_CONDITIONAL = re.compile(r"[?？]|吗|么|会不会|能不能|能否|是否|可不可以|有没有必要|有必要|值得|would|could|should|will it|"
                          r"is it worth|worth it|如果|假如|要是|if\b|"
                          # a change said with what it would bring: '换成 100G 会好很多', '改成 ZeRO-2 应该能快一些'
                          r"(?:会|应该|应该会|可能会|就能|能)\s*(?:好|快|提升|改善|缓解|加快|变快)", _IC)
# "Would accumulating 8 steps help?" / "用FP8会不会快一些？": whether a change would help.
_WOULD_IT_HELP = re.compile(
    # ('how do we confirm and fix it?' asks for help with the job; it proposes no change)
    # ('speed' is the verb: 'would it speed things up', never the noun of 'ethtool reports Speed: 100000Mb/s')
    r"(?:^|\b)(?<!how )(?:would|could|will|does|do|can|should)\b[^?]*\b(?:help|improve|speed(?:s|ing)?\s+(?:\w+\s+){0,2}up|"
    r"speed-?up|faster|fix|work|matter|"
    r"(?<![-_])(?<!all )reduce|cut)\b|(?:会不会|能不能|能否|是否|可不可以|可以)[^。，,]*(?:帮助|有用|提升|加快|变快|快一些|快点|改善|缓解)|"
    r"(?:帮助|有用|提升|加快|变快|改善|缓解)[^。，,]*(?:吗|么)", _IC)
# What follows 'our'/'我们的' in a would-it-help question is the job as it is.
_OWN = re.compile(r"(?<![A-Za-z])(?:our|my|we(?:'re| are)? (?:only |just |actually |currently |really )?(?:have|use|on|run)|"
                  r"with our|on our|for our|现在|目前|当前|"
                  r"我们的|我的|我们(?:现在|目前)?(?:有|用|是))", _IC)


# '假设我们有 8 台机器，每台 8 张 A100，用 25G 互联，能行吗', 'Suppose we have 4 nodes on 25GbE': a setup supposed in order to
# ask about it is the job asked about, unless the question also says the job as it is (then it is the change to weigh)
_SUPPOSED_SETUP = re.compile(r"(?:假设|suppos(?:e|ing)|assum(?:e|ing)|let'?s say)\s*(?:that\s+)?(?:我们|咱们|我|we|I)\s*"
                             r"(?:现在|目前)?\s*(?:有|用|拿|是|have|use|run|are on|are using|get)", _IC)
_A_CHANGE = re.compile(rf"{_CHANGE_VERB.pattern}|rather than|而不是|代替|取代|替换|(?<![A-Za-z])(?:our|现在的?|目前的?)\s*\d|"
                       r"(?<![A-Za-z])(?:current(?:ly)?|right now|today)(?![A-Za-z])|现在|目前|当前", _IC)


# '现在换成 8 台' / 'we then moved to 100G': a change already made describes the job as it is.
_DONE = re.compile(r"(?:现在|已经|后来|之后|目前|当前|最近|刚|then|now|already|recently|since we|after we|we)\s*$", _IC)


# 'with zero0 there is no such problem', '不用 deepspeed 或者用 zero0 就没有这个问题': a setup named only as the one that works
# is an alternative to the job, not the job's setup.
_ALTERNATIVE = re.compile(r"就没有?(?:这个|此)?问题|就没问题|就(?:能|可以)?(?:正常|跑通|跑起来|没事)|就好了|就不会|都正常|"
                          r"works? (?:fine|well)|runs? (?:fine|well|ok)|"
                          r"is fine|no (?:such )?problem|"
                          r"without (?:this|the) (?:problem|issue)|doesn't happen|does not happen|不会出现|"
                          r"(?:is|are)\s+not seen|isn't seen|aren't seen|does not (?:occur|appear)|doesn't (?:occur|appear)|"
                          r"没有出现|"
                          # 'put the data on a local disk and it is fast': the setup that runs well is the alternative
                          r"就(?:很|非常|特别|挺)?快(?:了|很多|多了)?|就(?:很)?流畅|(?:is|are|runs?|was|were) (?:much |a lot |way )?"
                          r"(?:faster|fast)(?![A-Za-z])", _IC)
# 'data on Lustre — EBS gave about the same, EFS was clearly worse': the setups named with their own verdict right
# after them were tried beside the job's
_TRIED_AFTER = re.compile(r"^\s*(?:[\w/-]+\s+){0,2}?(?:gave|gives|give|was|were|performs?|performed)\s+(?:about\s+|roughly\s+|"
                          r"pretty much\s+|basically\s+)?the same(?![A-Za-z])|^\s*(?:[\w/-]+\s+){0,2}?(?:was|were)\s+"
                          r"(?:clearly\s+|much\s+|even\s+|a lot\s+|far\s+)?worse", _IC)
# 'X (instead of Y)', '用 4 卡而不是 8 卡': what follows is the alternative not taken, up to the clause's end. A link
# speed after it is the rating the link fell short of ('negotiated at 25000Mb/s instead of 100G'): the rate readers'.
_INSTEAD_OF = re.compile(r"(?:instead of|rather than|而不是|而非|不是用)\s*[`'\"“]?[^,，。.;；)）\n]{0,30}$", _IC)
# 'NET/Socket instead of NET/IB over our mlx5 RoCE NICs': a preposition after the alternative names the job's own setup
_PAST_THE_ALTERNATIVE = re.compile(r"\S\s+(?:over|on|via|through|across|with|in|for|when|while|because|since|and|but|so|"
                                   r"which|that|using|from)\s", _IC)
_RATES = {"nic.speed_gbps", "nic.max_speed_gbps"} | MEASUREMENTS
# what a link could do is read as such ('Gen3 x8 instead of Gen4 x16'): the alternative not taken is its rating
_MOST_OF_A_LINK = {"gpu.pcie_gen_max", "gpu.pcie_width_max"}
_CONFIG_FACTS = {"job.zero_stage", "job.parallelism", "job.precision", "nccl.transport", "job.comm_pattern",
                 "gpu.pcie_gen", "gpu.pcie_width",
                 "job.gpus_per_node", "job.checkpoint_target", "job.data_source"}


# 'Could EFA be slower than real InfiniBand?', '70% of on-prem InfiniBand': the fabric on the far side of a comparison
_COMPARED_FABRIC = re.compile(r"(?:than|vs\.?|versus|compared (?:to|with)|of|like|比|相比|不如|对比)\s*(?:(?:with|on|using|in)\s+)?"
                              r"(?:an?\s+|the\s+)?"
                              r"(?:real|true|proper|native|on-?prem(?:ise)?s?|bare[- ]metal|dedicated|普通的?|真正的?|原生的?)?\s*"
                              r"(?:\d+\s*[x×]\s*)?$",
                              _IC)
# 'hardly better than 8x RTX 4090', '10x slower than with NCCL 2.14.3' too
_FABRIC_FACTS = {"nic.kind", "nic.rdma", "nic.efa", "gpu.model", "nccl.version", "job.checkpoint_target",
                 "job.data_source"}


def _far_side(text: str, h: Understood) -> bool:
    """'slower than real InfiniBand', '和 8 张 4090 差不多': the thing named is what the job is compared with."""
    before = text[max(0, h.start - 24):h.start]
    if _COMPARED_FABRIC.search(before) and re.search(
            r"than|vs|versus|compared|比|相比|不如|对比|of (?:on-?prem|native|real|bare)", before, _IC):
        return True
    return h.fact == "gpu.model" and bool(re.match(r"\s*(?:差不多|一样|相当|相近|类似)", text[h.end:h.end + 6])) and bool(
        re.search(r"(?:和|跟|与)\s*(?:\d+\s*(?:张|块|x|×)\s*)?$", text[max(0, h.start - 12):h.start]))


def drop_alternatives(text: str, hits: list[Understood]) -> list[Understood]:
    """Setup facts said of the alternative that works ('ZeRO-2 is fine', '用 zero0 就没有这个问题') are not the job's,
    nor a fabric named as the far side of a comparison ('slower than real InfiniBand')."""
    out = []
    works: dict[tuple[int, int], bool] = {}  # one search per clause
    for h in hits:
        if h.fact in _FABRIC_FACTS and not h.source.startswith("pasted") and _far_side(text, h):
            continue
        instead = _INSTEAD_OF.search(text, max(0, h.start - 40), h.start) if h.fact not in _RATES | _MOST_OF_A_LINK else None
        if instead and not h.source.startswith("pasted") and not _PAST_THE_ALTERNATIVE.search(instead.group(0)):
            continue  # 'accelerators: A100-80GB:4 (instead of A100:8)': the setup not taken
        if h.fact in _CONFIG_FACTS and not h.source.startswith("pasted"):
            a, b = tx.clause_bounds(text, h.start)
            sa, sb = tx.sentence_bounds(text, h.start)
            sa, sb = max(sa, h.start - 160), min(sb, h.end + 160)  # near the setting: a run-on text stays linear
            if (a, b) not in works:
                works[(a, b)] = bool(_ALTERNATIVE.search(text, a, b))
            if _TRIED_AFTER.match(text[h.end:h.end + 48]):
                continue
            if h.fact in _COMPARED_SETTINGS and (_COMPARED_BEFORE.search(text, max(0, h.start - 12), h.start) or (
                    _WITH_BEFORE.search(text, max(0, h.start - 4), h.start) and _COMPARED_AFTER.match(text, h.end))):
                continue  # zh-s10 compared setting: '比 zero2 慢一倍', 'slower than ZeRO-2': the other side, not the job's
            if works[(a, b)] or (_ALTERNATIVE.search(text, h.end, sb) and
                                                   re.search(r"或者|或|换成|改成|instead|switch", text[sa:h.start], _IC)):
                continue
        out.append(h)
    return out


# zh-s10 compared setting: a setting named as the far side of a comparison ('速度比 zero2 慢一倍', 'slower than ZeRO-2',
# '跟 DDP 比'), not the job's
_COMPARED_BEFORE = re.compile(r"(?:(?<![无对])比|相比(?:于)?|相较(?:于)?|对比|(?<![A-Za-z])(?:than|compared (?:to|with)|vs\.?|versus))"
                              r"\s*(?:用|开|开了|使用|using|with)?\s*$", _IC)
_WITH_BEFORE = re.compile(r"(?:跟|和|与)\s*$")
_COMPARED_SETTINGS = {"job.zero_stage", "job.parallelism", "job.precision", "nccl.transport", "job.comm_pattern"}
_COMPARED_AFTER = re.compile(r"\s*(?:的时候|时)?\s*(?:相)?比")


# 'What bandwidth do we need for two workstations?': what follows 'for' describes the job the question is about.
# s12 purpose: 'Do I need InfiniBand to train a 7B model on 2 nodes?', '需要 IB 才能训练 70B 的模型吗': the work the fabric
# is asked for is the job, said after its purpose word
_FOR_THE_JOB = re.compile(r"(?<![A-Za-z])(?:for|with|on)\s+(?:(?:training|running|fine-?tuning|pre-?training|serving)\s+)?"
                          r"(?:our|my|the|a|an|two|\d)|对于|给我们|"
                          r"(?<![A-Za-z])(?:in order )?to\s+(?:train|run|fine-?tune|pre-?train|serve)\s+(?:our|my|the|a|an|\d)|"
                          r"(?:才能|来|去|用来|用于)\s*[^，,。.;；?？\n]{0,6}?(?:训练|跑|微调|预训练)", _IC)


# s21 what a change would speed up is what the job does now: 'multi-threaded uploading would make checkpoint uploads to
# S3 much faster', '多线程能让上传到 OSS 的 checkpoint 快很多' (where the data or checkpoints go is no change to try)
_SPED_UP = re.compile(r"(?<![A-Za-z])(?:would|could|might|will|should)\s+(?:make|speed up|accelerate)\s+"
                      r"(?P<act>[^,.;:!?，。；]{3,60}?)\s+(?:much\s+|a lot\s+|far\s+|way\s+|significantly\s+|several times\s+)?"
                      r"(?:faster|quicker)(?![A-Za-z])|(?:能|会|可以)(?:让|使)(?P<act2>[^，。；;,]{3,30}?)(?:快|提速)", _IC)
_WHERE_FACTS = {"job.checkpoint_target", "job.data_source"}


_CHANGE_WEIGHED = re.compile(r"(?:考虑|打算|准备|计划|想要?|要不要|是否|有没有必要|值不值得)\s*(?:把|将)")
# zh-s12b the part a what-if changes, said with 把: '如果把网卡升级到 100G', '要是把 ZeRO3 换成 ZeRO2'
_CHANGED_PART = re.compile(r"把[^，,。；;？?\n]{1,16}?(?:换成|换到|换为|升级到|升级成|升级为|改成|改为|改到|提升到|升到)|"
                           # or the part taken up right after the cue: '如果上 400G 的 IB', '要是换成 RoCE'
                           r"(?:如果|要是|假如|假设)\s*(?:我们|我)?\s*(?:上|换成|换到|换用|改用|升级到|升级成|用上)(?!\s*\d+\s*(?:台|个|机|节点))|"
                           # the same in English: 'If we moved to 100G RoCE, would 2 nodes of 8xA100 scale?'
                           r"(?<![A-Za-z])(?:if|suppose|what if)\s+(?:we|I)\s+(?:were to\s+)?(?:mov(?:e|ed)|switch(?:ed)?|"
                           r"upgrad(?:e|ed)|migrat(?:e|ed)|went|go)\s+(?:the\s+\w+\s+)?to(?![A-Za-z])(?!\s*\d+\s*(?:nodes?|machines?|"
                           r"servers?|GPUs?))|(?<![A-Za-z])if\s+(?:we|I)\s+replac(?:e|ed)\s+[^,.;?]{1,30}?\s+with(?![A-Za-z])", _IC)


def _changed_part_only(text: str, cue: int, h: Understood, hits: list[Understood]) -> bool:
    """The what-if's own clause names the part it changes with 把 (… 换成 / 升级到 …), and `h`, in a later clause, is of
    another kind than what that clause reads: the consequent describes the job the change is made to, as it is."""
    a, b = tx.clause_bounds(text, cue)
    if not _CHANGED_PART.search(text, a, b):
        return False
    return h.fact not in {x.fact for x in hits if a <= x.start < b}


# s29 a conditional that reports what happens each time ('If I run benchmark.py on random inputs, I always get 2600
# img/s', 'whenever we use 2 nodes we get 40 %'): an observation, not a change to weigh — its consequent says what is
# got, seen or measured, with no modal and no question
_HABITUAL_SAID = re.compile(r"(?<![A-Za-z])(?:always|every time|each time|consistently|(?:I|we)\s+(?:always\s+|only\s+|just\s+|"
                            r"still\s+)?(?:get|got|see|saw|measure|measured|obtain|reach|observe|observed))(?![A-Za-z])", _IC)
_MODAL = re.compile(r"(?<![A-Za-z])(?:would|could|will|might|should|can|may|'d)(?![A-Za-z])|会不会|能不能|是否|吗|么", _IC)


def _habitual(text: str, start: int, end: int) -> bool:
    if not re.match(r"(?:what )?if\b|whenever\b", text[start:end].strip(), _IC):
        return False
    sa, sb = tx.sentence_bounds(text, start)
    rest = text[end:sb]
    return bool(_HABITUAL_SAID.search(rest)) and not _MODAL.search(text[sa:sb]) and "?" not in rest and "？" not in rest


def mark_hypothetical(text: str, hits: list[Understood]) -> list[Understood]:
    """A fact in the scope of a what-if cue is a change to try, not a fact about the job."""
    cues = [(m.start(), m.end()) for m in _WHAT_IF_CUE.finditer(text)
            if not _DONE.search(text[max(0, m.start() - 6):m.start()]) and not _habitual(text, m.start(), m.end())]
    intents = [(m.start(), m.end()) for m in _INTENT_CUE.finditer(text)
               if not re.search(r"已经|已|already\s*$", text[max(0, m.start() - 4):m.start()], _IC)]
    cues += intents
    soft = {c for c in intents if not _HARD_INTENT.search(text, c[0], min(tx.clause_bounds(text, c[0])[1], c[1] + 30))}
    soft |= {c for c in cues if _SUPPOSED_SETUP.match(text, c[0]) and not _A_CHANGE.search(text)}
    for m in _CHANGE_VERB.finditer(text):
        a, b = tx.clause_bounds(text, m.start())
        sa, sb = tx.sentence_bounds(text, m.start())
        if _DONE.search(text[max(0, m.start() - 6):m.start()]) or text.startswith("了", m.end()):
            continue  # s11 done: '改成了异步训练，…有影响吗': a change made ('了') is the job as it is, asked about
        if _CONDITIONAL.search(text, a, b) or re.search(r"[?？]|(?:吗|么)\s*$", text[sa:sb]) \
                or _CHANGE_WEIGHED.search(text, a, m.start()):
            cues.append((m.start(), m.end()))  # zh-s12b '考虑把千兆交换机换成万兆的，有必要吗': a change weighed
    sped_up = [m.span("act" if m["act"] else "act2") for m in _SPED_UP.finditer(text)]
    out: list[Understood] = []
    planned: list[int] = []  # facts in the scope of a plan to scale to
    asks: dict[tuple[int, int], bool] = {}  # one search per clause, however many facts it holds
    cues.sort(key=lambda c: c[1])
    ends = [c_end for _, c_end in cues]
    for h in hits:
        ca, cb = tx.clause_bounds(text, h.start)
        sa, sb = tx.sentence_bounds(text, h.start)
        # the nearest cue before the fact decides: an earlier one has more text between, so it fails wherever
        # the nearest does (linear time in a long run of what-ifs)
        i = bisect_right(ends, h.start) - 1
        c_start, c_end = cues[i] if i >= 0 else (-1, -1)
        in_cue = i >= 0 and c_start >= sa and c_end <= sb and (
            ca <= c_end <= h.start or not _OWN.search(text, c_end, h.start)) and not _FOR_THE_JOB.search(text, c_end, h.end)
        if (ca, cb) not in asks:
            asks[(ca, cb)] = bool(_WOULD_IT_HELP.search(text, ca, cb))
        if not in_cue and asks[(ca, cb)]:
            own = _OWN.search(text[ca:h.start])
            in_cue = own is None
        if in_cue and not ca <= c_start < cb and _changed_part_only(text, c_start, h, hits):
            in_cue = False  # zh-s12b '如果把网卡升级到 100G，两台 8 卡 A100 训练 70B 能快多少': the job, under the change
        if in_cue and h.fact in _WHERE_FACTS and any(x <= h.start < y for x, y in sped_up):
            in_cue = False  # s21 'would make checkpoint uploads to S3 much faster': the uploads go to S3 now
        if in_cue and not h.source.startswith("pasted"):
            h = Understood(**{**h.to_dict(), "hypothetical": True})
            if i >= 0 and cues[i] in soft:  # ('计划用 4 个节点，节点之间用千兆以太网够不够？': the plan is asked about)
                planned.append(len(out))
        out.append(h)
    stated: dict[str, list[Understood]] = {}
    for o in out if planned else []:
        if not (o.hypothetical or o.weak):
            stated.setdefault(o.fact, []).append(o)
    for j in planned:
        h = out[j]
        if not any(o.value != h.value and not _OTHER_SYSTEM.search(tx.sentence(text, o.start))
                   for o in stated.get(h.fact, [])[:8]):
            out[j] = Understood(**{**h.to_dict(), "hypothetical": False})
    # "from 10GbE to 100GbE": of several hypothetical values of one fact in a sentence, only the last
    # is the change; the earlier ones describe today.
    for i, h in enumerate(out):
        if h.hypothetical and re.search(r"(?<![A-Za-z])from\s+(?:our|my|the current|the existing)\s+(?:current\s+)?$",
                                        text[max(0, h.start - 24):h.start], _IC):
            out[i] = Understood(**{**h.to_dict(), "hypothetical": False})  # s11 from our: '… to InfiniBand from our 10GbE'
            continue
        if not h.hypothetical or not re.search(r"(?:from|从|由)\s*$", text[max(0, h.start - 8):h.start], _IC):
            continue  # (the cheap test first: a long run of what-ifs stays linear)
        sentence = tx.sentence_bounds(text, h.start)
        if any(o.fact == h.fact and o.hypothetical and o.value != h.value and tx.sentence_bounds(text, o.start) == sentence
               for o in out[i + 1:]):
            out[i] = Understood(**{**h.to_dict(), "hypothetical": False})
    by_fact: dict[str, list[int]] = {}
    for i, h in enumerate(out):
        by_fact.setdefault(h.fact, []).append(i)
    for i, h in enumerate(out):  # 'replace the 25G NICs with 100G ones', '把 25G 网卡换成 100G': the first is today's
        if h.source.startswith("pasted") or not _REPLACED.search(text, max(tx.sentence_bounds(text, h.start)[0],
                                                                          h.start - 24), h.start):
            continue
        sentence = tx.sentence_bounds(text, h.start)
        for j in [j for j in by_fact[h.fact] if j > i][:4]:
            o = out[j]
            if (o.value != h.value and (h.hypothetical or o.hypothetical) and o.start < sentence[1]
                    and _REPLACED_BY.match(text, h.end, o.start)):  # (a replacement made is today's: both stay)
                out[i] = Understood(**{**h.to_dict(), "hypothetical": False})
                out[j] = Understood(**{**o.to_dict(), "hypothetical": True})
                break
        else:
            # s11 replaced by another kind: '把万兆换成 IB' — the speed replaced by a fabric is today's all the same
            if h.hypothetical and any(o.hypothetical and o.fact != h.fact and h.end <= o.start < sentence[1]
                                      and _REPLACED_BY.match(text, h.end, o.start) for o in out):
                out[i] = Understood(**{**h.to_dict(), "hypothetical": False})
    for i, h in enumerate(out):  # 'try 8 nodes instead of 4', '用 IB 而不是 RoCE': what is replaced is the job today
        if h.hypothetical and re.search(r"(?:instead of|rather than|而不是|代替|取代)\s*(?:the\s+|our\s+|现在的?)?$",
                                        text[max(0, h.start - 20):h.start], _IC):
            out[i] = Understood(**{**h.to_dict(), "hypothetical": False})
    return _weighed_candidates(text, _from_today_to_the_change(text, out))


# net-s12b candidates weighed: 'is 100G enough, or do we need 400G?', '节点之间 100Gbps 够不够，还是得上 1000Gbps': a rating
# asked about beside another to choose from is neither the job's, planned run or not; what follows 'or'/'还是' is a change
_ENOUGH_OR_ELSE = re.compile(
    r"(?:够不够|够吗|够用吗|够用不|是否足够|足够吗|足不足够|(?<![A-Za-z])(?:enough|sufficient|adequate)(?![A-Za-z]))"
    r"[^。.?？!！\n]{0,40}?[，,;；]?\s*(?:还是|或者|(?<![A-Za-z])or(?![A-Za-z]))", _IC)
_CANDIDATE_FACTS = {"nic.speed_gbps", "nic.max_speed_gbps", "nic.kind", "nic.rdma", "nic.efa", "nic.count"}


# net-s12b a figure asked as the one to expect: 'Is ~100 Gb/s per port what we should expect here?' names no rating
_WHAT_TO_EXPECT = re.compile(r"\s*(?:per\s+(?:port|link|NIC|HCA|rail|node)\s+)?(?:is\s+)?(?:what|the (?:figure|number|rate))\s+"
                             r"(?:we|I|one|you)\s+(?:should|would|can|could|ought to)\s+(?:expect|see|get)(?![A-Za-z])", _IC)


def _weighed_candidates(text: str, hits: list[Understood]) -> list[Understood]:
    """The fabric named in 'A enough, or B?' (A in the clause that asks, not said as ours; B after 'or') is hypothetical,
    and so is a rating asked as the figure to expect."""
    out = [Understood(**{**h.to_dict(), "hypothetical": True})
           if h.fact in _CANDIDATE_FACTS and not h.source.startswith("pasted") and _WHAT_TO_EXPECT.match(text, h.end)
           else h for h in hits]
    for m in _ENOUGH_OR_ELSE.finditer(text):
        ca = tx.clause_bounds(text, m.start())[0]
        sb = tx.sentence_bounds(text, m.start())[1]
        for i, h in enumerate(out):
            if h.hypothetical or h.fact not in _CANDIDATE_FACTS or h.source.startswith("pasted"):
                continue
            asked = ca <= h.start and h.end <= m.start() and not _OWN.search(text, ca, h.start)
            if asked or m.end() <= h.start < sb:
                out[i] = Understood(**{**h.to_dict(), "hypothetical": True})
    return out


_FROM_BEFORE = re.compile(r"(?:(?<![A-Za-z])from|从|由)\s*(?:our|my|the|现在的?|目前的?)?\s*$", _IC)
_TO_BEFORE = re.compile(r"(?:(?<![A-Za-z])to|到|成)\s*(?:an?\s+|the\s+)?$", _IC)
_PROPOSED = re.compile(r"[?？]|吗|么|(?<![A-Za-z])(?:would|could|should|will it|worth|if|plan\w*|want)(?![A-Za-z])|"
                       r"如果|打算|计划|值得|能不能|会不会|有没有用|有用吗", _IC)


def _from_today_to_the_change(text: str, out: list[Understood]) -> list[Understood]:
    """s11 from/to: 'Would moving from our 25GbE to 100GbE help?', '从 25G 升级到 100G 值得吗': in a question or a plan, a
    setting said after 'from' is today's and the one after 'to' the change, whatever the other cues made of them."""
    for i, h in enumerate(out):
        if h.fact in MEASUREMENTS or h.source.startswith("pasted") or not _FROM_BEFORE.search(
                text, max(0, h.start - 16), h.start):
            continue
        a, b = tx.sentence_bounds(text, h.start)
        if not _PROPOSED.search(text, a, b):
            continue
        for j, o in enumerate(out):
            if (o.fact == h.fact and o.value != h.value and h.end <= o.start < b and o.start - h.end <= 24
                    and _TO_BEFORE.search(text, max(h.end, o.start - 8), o.start)):
                out[i] = Understood(**{**h.to_dict(), "hypothetical": False})
                out[j] = Understood(**{**o.to_dict(), "hypothetical": True})
    return out
