"""What the host side of a step shows, in words: where the step's time goes, the GPUs idle, the data's disk, /dev/shm.

Each reader follows extract.py's conventions: it runs over the masked prose and returns `Understood` hits; a clause
that only asks ('is 60% data wait normal?') says nothing.

  - the share of the step the GPUs wait for data ('the GPUs spend more than 60% of the time waiting for data',
    'GPU 有 60% 的时间在等数据', 'data loading takes 70% of each step', '数据加载占了每个 step 的 70%')
    → job.data_wait_pct
  - synchronising parameters or gradients named as the communication whose share is said ('参数同步耗时占了 80% 以上',
    'parameter synchronisation takes 80% of the step') → job.comm_time_pct
  - the GPUs' load said as nothing before its name ('almost zero GPU utilization', 'near-zero GPU usage')
    → gpu.util_pct 0
  - the data loader's worker processes ('Data loader workers = 0', 'num_workers 设为 0', 'num_workers 从 8 调到 16')
    → job.dataloader_workers (a launcher's or config's `--workers 8`, `num_workers=0` are commands.py's)
  - the data read from a spinning disk of the machine ('数据放在机械硬盘（HDD）上', 'the dataset is on an HDD')
    → job.data_source local
"""

from __future__ import annotations

import re

from bwdoctor.chat import text as tx
from bwdoctor.chat.commands import TRAINING_WORKERS
from bwdoctor.chat.extract import Understood, _hit_span, extractor

_IC = re.IGNORECASE
_ASKS = re.compile(r"是否|是不是|正常吗|吗|[?？]|(?<![A-Za-z])(?:should|would|could|whether|is it normal|expected|if)"
                   r"(?![A-Za-z])", _IC)
_PCT = r"(?P<pct>\d{1,3}(?:\.\d+)?)\s*%"
_ABOUT = (r"(?:(?:about|around|roughly|nearly|almost|over|more than|up to|~|≈|大约|大概|约|近|将近|差不多|超过|接近|"
          r"有)\s*)?")
# waiting for the next batch, by its names: the data, the loader, the input pipeline
_DATA_WAIT = (r"(?:waiting (?:for|on) (?:the )?(?:data|input|batch(?:es)?|the (?:data)?loader|I/?O)|"
              r"(?:starved|stalled) (?:for|on) (?:data|input)|idle waiting for (?:data|input)|"
              r"(?:in|on) (?:the )?(?:data ?loader|data[- ]loading|input pipeline))")
_DATA_WORK = (r"(?:data[- ]?loading|the data ?loader|data ?loader|(?:the )?input pipeline|data (?:loading )?time|"
              r"waiting for data|data wait(?:ing)?)")
_DATA_WAIT_FORMS = [
    # 'the GPUs spend more than 60% of the time waiting for data', '60% of the step is spent in the dataloader'
    re.compile(rf"(?<![\d.]){_ABOUT}{_PCT}\s*of\s+(?:the\s+|their\s+|its\s+|each\s+|every\s+)?"
               rf"(?:time|step(?: time)?|iteration|training time|wall[- ]?(?:clock )?time|runtime)\s+"
               rf"(?:is\s+|was\s+|are\s+)?(?:spent\s+|sitting\s+|sit\s+|just\s+)?(?:idle\s+)?{_DATA_WAIT}", _IC),
    # st-s11 'the GPU sits idle waiting for data about 30% of the time': the share after the wait
    re.compile(rf"{_DATA_WAIT}\s+(?:for\s+)?{_ABOUT}{_PCT}\s*of\s+(?:the\s+|each\s+|every\s+)?(?:time|step|iteration)"
               r"(?![A-Za-z])", _IC),
    # 'data loading takes 60% of each step', 'the dataloader accounts for 70% of the iteration time'
    re.compile(rf"(?<![A-Za-z]){_DATA_WORK}\s+(?:takes?|took|accounts? for|occup(?:ies|y|ied)|consumes?|eats?(?: up)?|"
               rf"is)\s+{_ABOUT}{_PCT}\s*of\s+(?:the\s+|each\s+|every\s+|total\s+)?(?:step|iteration|iter|time|"
               rf"step time|training time|runtime)(?![A-Za-z])", _IC),
    # 'GPU 有 60% 的时间在等数据', '60% 的时间都花在等数据上', '60% 的时间在数据加载'
    re.compile(rf"{_PCT}\s*(?:以上|左右)?\s*(?:的)?\s*(?:时间|耗时)\s*(?:都|是)?\s*(?:花|耗|用)?\s*(?:在|于)\s*(?:了)?\s*"
               r"(?:空等|等待|等)\s*(?:数据|data|dataloader|数据加载|读数据|IO|I/O)", _IC),
    # st-s11 '40% 的时间在 dataloader': the verb left out
    re.compile(rf"{_PCT}\s*(?:以上|左右)?\s*(?:的)?\s*(?:时间|耗时)\s*(?:都)?\s*(?:花|耗|用)?\s*(?:在|于)\s*"
               r"(?:数据加载|数据读取|读数据|dataloader|data ?loading)", _IC),
    # '数据加载占了每个 step 的 70%', 'dataloader 耗时占比 60%'
    re.compile(r"(?:数据加载|数据读取|读数据|等数据|等待数据|dataloader|data ?loader|data ?loading)\s*(?:的)?\s*"
               r"(?:时间|耗时)?\s*(?:占比|占了?|占到了?|占用了?)\s*(?:了)?\s*(?:每个|每一个|每|整个|总)?\s*"
               rf"(?:step|iteration|iter|迭代|训练|时间|耗时|步)?\s*(?:时间)?\s*(?:的)?\s*{_ABOUT}{_PCT}", _IC),
]
# job-s12b the step's time said to go into preparing its data, as a share in words or in per cent: 'nearly half of the
# time goes into preparing the train_iter for each batch', 'a third of each step is spent loading the batches',
# '将近一半的时间花在准备数据上', '30% 的时间用来读取和预处理数据'
_SHARE = rf"(?P<share>{tx.SHARE})"
_PREPARING = (r"(?:prepar\w*|load\w*|read\w*|creat\w*|build\w*|decod\w*|preprocess\w*|fetch\w*)\s+(?:and\s+\w+\s+)?"
              r"(?:the\s+|its\s+|each\s+|every\s+)?(?:new\s+)?(?:training\s+|input\s+|next\s+)?"
              r"(?:data(?:set)?|batch(?:es)?|inputs?|samples|images|train_iter|data ?iter\w*|iterators?|"
              r"NDArrayIter\w*)")
_PREPARING_ZH = (r"(?:准备|加载|读取|读|预处理|处理|构造|生成)\s*(?:和\s*\S{1,4}\s*)?"
                 r"(?:数据|batch|样本|图片|train_iter|迭代器)")
_DATA_SHARE_FORMS = [
    # h-symptoms the share first, the loader as what it is: 'about 40% of each iteration is data loading'
    re.compile(rf"{_ABOUT}{_SHARE}\s*of\s+(?:the\s+|each\s+|every\s+|its\s+|our\s+)?(?:training\s+)?"
               r"(?:time|step(?:\s+time)?|iteration(?:\s+time)?|iter|run\s*time)\s+(?:is|was|goes\s+to|is\s+spent\s+(?:in|on))\s+"
               r"(?:the\s+)?(?:data[- ]?loading|data\s*loader|DataLoader|input\s+pipeline|"
               r"waiting\s+(?:for|on)\s+(?:the\s+)?"
               r"(?:data|batches|(?:the\s+)?data\s*loader))(?![A-Za-z])", _IC),
    re.compile(rf"{_ABOUT}{_SHARE}\s*(?:of\s+)?(?:the\s+|each\s+|every\s+|its\s+)?(?:time|step|iteration|epoch)\s+"
               rf"(?:goes|went|is spent|was spent|is used)\s+(?:(?:in|on|into|to|for)\s+)?{_PREPARING}", _IC),
    re.compile(rf"{_ABOUT}{_SHARE}\s*(?:以上|左右)?\s*(?:的)?\s*(?:时间|耗时)\s*(?:都)?\s*(?:是)?\s*(?:花|耗|用|消耗)\s*"
               rf"(?:在|于|来|掉在)?\s*(?:了)?\s*{_PREPARING_ZH}", _IC),
]


# a loader's time out of the step's: 'data_time 0.8s of 1.0s step time', 'data time is 800 ms out of a 1.0 s step',
# 'data_time 0.3 / 0.5' (the loader's share of the step)
_DATA_TIME_OF_STEP = re.compile(
    r"(?<![A-Za-z])(?:data[_ ]time|data[ _](?:loading|load|wait)(?:[ _]time)?|数据(?:加载|读取)?\s*(?:时间|耗时))"
    r"\s*(?:is|was|=|:|：|约|为|是|大概|大约)?\s*(?:about\s+|around\s+|~\s*)?"
    r"(?P<a>\d+(?:\.\d+)?)\s*(?P<ua>ms|s|sec|secs|seconds|秒)?\s*"
    r"(?:of|out of|/)\s*(?:a|an|the|each|every|its)?\s*(?:total\s+)?(?:(?:step|iter|iteration)[_ ]time\s*(?:of\s*)?)?"
    r"(?P<b>\d+(?:\.\d+)?)\s*(?P<ub>ms|s|sec|secs|seconds|秒)?(?![\w.])|"
    # '数据加载耗时 0.8s，整个 step 1.0s', '数据读取 0.5 秒，一个迭代 2 秒'
    r"数据(?:加载|读取)?\s*(?:时间|耗时)?\s*(?:约|为|是|大概|大约)?\s*(?P<za>\d+(?:\.\d+)?)\s*(?P<zua>ms|s|秒)\s*[，,]\s*"
    r"(?:整个|一个|每个?|每一?)?\s*(?:step|iter|iteration|迭代|步)\s*(?:总共|一共|共|总)?\s*(?:耗时|是|为|要|需要)?\s*"
    r"(?P<zb>\d+(?:\.\d+)?)\s*(?P<zub>ms|s|秒)(?![\w.])", _IC)



# a share of a device's capacity, or of memory, is no share of time
_NOT_TIME = re.compile(r"util|利用率|使用率|CPU|内存|memory|RAM|显存|bandwidth|带宽", _IC)


@extractor
def data_wait_share(text: str) -> list[Understood]:
    """'the GPUs spend more than 60% of the time waiting for data' → job.data_wait_pct 60."""
    hits: list[Understood] = []
    for pattern in _DATA_WAIT_FORMS:
        for m in pattern.finditer(text):
            pct = float(m["pct"])
            if not 0 < pct <= 100 or _ASKS.search(tx.clause(text, m.start("pct"))):
                continue
            if _NOT_TIME.search(text[m.start("pct"):m.end()] + tx.after(text, m.end(), 8)) \
                    or any(h.start <= m.start("pct") < h.end for h in hits):
                continue
            hits.append(_hit_span("job.data_wait_pct", pct, text, m.start("pct"), m.end("pct")))
    for m in _DATA_TIME_OF_STEP.finditer(text):
        scale = {"ms": 0.001}
        ua, ub = m["ua"] or m["zua"], m["ub"] or m["zub"]
        a = float(m["a"] or m["za"]) * scale.get((ua or ub or "s").lower(), 1.0)
        b = float(m["b"] or m["zb"]) * scale.get((ub or ua or "s").lower(), 1.0)
        if 0 < a < b and not _ASKS.search(tx.clause(text, m.start())) \
                and not any(h.start <= m.start() < h.end for h in hits):
            hits.append(_hit_span("job.data_wait_pct", round(100 * a / b, 1), text, m.start(), m.end()))
    for pattern in _DATA_SHARE_FORMS:
        for m in pattern.finditer(text):
            value = tx.share_value(m["share"])
            if value is None or not 0 < value <= 100 or _ASKS.search(tx.clause(text, m.start("share"))) \
                    or any(h.start <= m.start("share") < h.end for h in hits):
                continue
            hits.append(_hit_span("job.data_wait_pct", value, text, m.start("share"), m.end("share")))
    return hits


# Synchronising the parameters (a parameter server's push and pull) or the gradients is the job's communication.
_SYNC = (r"(?:参数同步|梯度同步|权重同步|参数的同步|梯度的同步|同步参数|同步梯度|"
         r"(?:parameter|gradient|weight)s?\s+sync(?:hroni[sz]ation)?)")
_SYNC_SHARE = [
    re.compile(rf"{_SYNC}\s*(?:的)?\s*(?:时间|耗时)?\s*(?:占比|占了?|占到了?|占用了?)\s*(?:了)?\s*"
               rf"(?:每个|每一个|每|整个|总)?\s*(?:step|iteration|iter|迭代|训练|时间|耗时|步)?\s*(?:时间)?\s*(?:的)?\s*"
               rf"{_ABOUT}{_PCT}", _IC),
    re.compile(rf"(?<![A-Za-z]){_SYNC}\s+(?:time\s+)?(?:takes?|took|accounts? for|occup(?:ies|y|ied)|consumes?|"
               rf"eats?(?: up)?|is)\s+{_ABOUT}{_PCT}\s*of\s+(?:the\s+|each\s+|every\s+|total\s+)?"
               rf"(?:step|iteration|iter|time|"
               rf"step time|training time|runtime)(?![A-Za-z])", _IC),
]
_NOT_A_SHARE_OF_TIME = re.compile(r"带宽|bandwidth|利用率|util|busbw|algbw|line[- ]?rate|线速|理论|peak", _IC)


@extractor
def sync_share(text: str) -> list[Understood]:
    """'参数同步耗时占了 80% 以上', 'gradient sync takes 45% of each step' → job.comm_time_pct."""
    hits: list[Understood] = []
    for pattern in _SYNC_SHARE:
        for m in pattern.finditer(text):
            pct = float(m["pct"])
            if not 0 < pct <= 100 or _ASKS.search(tx.clause(text, m.start("pct"))) \
                    or _NOT_A_SHARE_OF_TIME.search(m.group(0) + tx.after(text, m.end(), 8)):
                continue
            hits.append(_hit_span("job.comm_time_pct", pct, text, m.start("pct"), m.end("pct")))
    return hits


# 'almost zero GPU utilization', 'near-zero GPU usage', 'practically 0% GPU util': nothing, said before the name
_NO_LOAD_FIRST = re.compile(r"(?<![A-Za-z])(?:almost|nearly|near|close to|practically|virtually|basically|essentially)"
                            r"[- ](?:zero|0\s*%?|nothing)\s+(?:GPU|GPUs'?)\s+(?:util\w*|usage|load)(?![A-Za-z])", _IC)


@extractor
def no_gpu_load(text: str) -> list[Understood]:
    """'gets almost zero GPU utilization' → gpu.util_pct 0 (the figure said, approximately)."""
    return [_hit_span("gpu.util_pct", 0, text, m.start(), m.end()) for m in _NO_LOAD_FIRST.finditer(text)
            if not _ASKS.search(tx.clause(text, m.start()))]


# A spinning disk of the machine: '机械硬盘', 'HDD', 'hard drive', 'spinning disk' (a NAS's disks are its own)
_SPINNING = re.compile(r"机械硬盘|机械盘|(?<![A-Za-z])HDDs?(?![A-Za-z])|(?<![A-Za-z])hard (?:disk )?drives?|"
                       r"spinning (?:disk|rust)s?", _IC)
_DATA_ON = re.compile(r"数据|data|dataset|images|训练集|样本|读取|reading|read from|loading", _IC)
_ELSEWHERE = re.compile(r"(?<![A-Za-z])(?:NAS|NFS|Lustre|GPFS|Ceph\w*|HDFS|storage server|arrays?|RAID|S3|OSS|buckets?|"
                        r"checkpoints?|ckpts?|saved?|saving|logs?)(?![A-Za-z])|存储服务器|阵列|检查点|保存|日志", _IC)


@extractor
def data_on_a_spinning_disk(text: str) -> list[Understood]:
    """'数据放在机械硬盘（HDD）上', 'the dataset sits on a local HDD' → job.data_source local."""
    hits: list[Understood] = []
    for m in _SPINNING.finditer(text):
        here = tx.clause(text, m.start())
        if not _DATA_ON.search(here) or _ELSEWHERE.search(here) or _ASKS.search(here):
            continue
        hits.append(_hit_span("job.data_source", "local", text, m.start(), m.end()))
    return hits


# The size of /dev/shm said after its name (which the entity finder masks as a path): '/dev/shm 只有 16MB',
# 'the container's /dev/shm is only 64MB', '/dev/shm: 64M'; the size it is to be set to ('改成 1g') is no fact of it.
_SHM_SIZE = re.compile(r"\s*(?:is|was|=|:|：|只有|仅有|才|大小(?:是|为|只有)?|的大小(?:是|为|只有)?|有|"
                       r"默认(?:是|为|只有)?|"
                       r"(?:is\s+)?(?:only|just|set to|at)|defaults? to)?\s*(?:only\s*|just\s*)?"
                       r"(?P<num>\d+(?:\.\d+)?)\s*(?P<u>[GMK])i?B?(?![A-Za-z])", _IC)


def shm_size_after(text: str, start: int, end: int) -> list[Understood]:
    """'/dev/shm 只有 16MB' → container.shm_gbytes 0.016 (the name at text[start:end])."""
    m = _SHM_SIZE.match(text, end)
    if m is None or _ASKS.search(tx.before(text, start, 12)) or re.search(
            r"(?:改成|改为|设成|设为|调到|调成|加到|change[sd]? to|increase[sd]? to|rais\w* to|bump\w* to)\s*$",
            text[max(0, m.start("num") - 12):m.start("num")], _IC):
        return []
    size = float(m["num"]) * {"G": 1.0, "M": 0.001, "K": 0.000001}[m["u"].upper()]
    return [_hit_span("container.shm_gbytes", round(size, 6), text, start, m.end())]


# job-s12b the data loader's worker processes, said in words: 'Data loader workers = 0', 'the DataLoader's num_workers
# is 0', 'dataloader workers set to 4', 'DataLoader 的 num_workers 设为 0', 'worker 数是 0'; changed to:
# 'num_workers 从 8 调到 16', 'raised num_workers from 4 to 8' (the value it was changed to). Ray Train's num_workers
# counts training workers, not loader processes.
_LOADER = r"(?:data ?loader|DataLoader|data[- ]loading|loader)"
_WORKERS_SAID = re.compile(
    rf"(?<![A-Za-z]){_LOADER}\s*(?:'s\s*)?(?:的\s*)?(?:num_workers|workers?|worker\s*(?:数|数量|进程数)|进程数)"
    rf"\s*{tx.SET_TO}(?P<n>\d{{1,4}})(?![\d.%])|"
    # the loader's processes counted after it: 'dataloader 用了 16 个 worker', 'the DataLoader runs 8 workers'
    rf"(?<![A-Za-z]){_LOADER}\s*(?:用了|开了|起了|启动了|有|uses|runs|spawns|with)\s*(?P<n8>\d{{1,4}})\s*(?:个)?\s*"
    r"(?:workers?|processes|进程|子进程)(?![A-Za-z])|"
    # a training script's flag for them: '--workers 设成 4', '--num-workers 8' (never 'make -j 16', a build's)
    rf"(?<![\w-])(?:--workers|--num[-_]workers|--dataloader[-_]num[-_]workers)(?:\s*=\s*|\s+{tx.SET_TO})(?P<n9>\d{{1,4}})"
    r"(?![\d.%])|"
    r"(?<![A-Za-z])num_workers\s*(?:(?:从|from)\s*\d{1,4}\s*(?:调到|改到|改成|加到|增加到|提高到|调成|to)|"
    r"(?:is|are|was|为|是|设为|设成|设置为|设置成|(?:was |is )?set to|"
    # s24 'num_workers 设置了 16', 'num_workers 开到 8', 'num_workers 设的 16'
    r"设置了|设了|设到|设置的|设的|开了|开到|调到了?|用了))\s*(?P<n2>\d{1,4})(?![\d.%])|"
    # s24 'I set num_workers to 16', 'with num_workers=8' said in a sentence
    r"(?<![A-Za-z])(?:set|setting|using|used|with)\s+(?:the\s+)?(?:num_workers|dataloader_num_workers)\s*(?:to|=|at)\s*"
    r"(?P<n3>\d{1,4})(?![\d.%])|"
    # s29 the loader's threads or processes named in Chinese: '数据读取线程数设的是 32', '数据加载进程数为 8',
    # '读取数据的线程数是 16'
    r"(?:数据\s*(?:读取|加载|载入|预处理|读入)|(?:读取|加载|读)\s*数据\s*的?)\s*(?:的\s*)?(?:线程|进程|worker)\s*(?:数|数量|个数)?"
    r"\s*(?:设的是|设为|设成|设置为|设置成|设置的是|是|为|:|：|=|用了|开了|开到|设了)?\s*(?P<n4>\d{1,4})(?![\d.%])|"
    # s29 the count before its name: 'with 8 dataloader workers', 'using 16 data-loading workers'
    r"(?<![\w.])(?P<n5>\d{1,4})\s+(?:data ?loader|DataLoader|data[- ]loading)\s+(?:workers|processes|threads)"
    r"(?![A-Za-z])|"
    # workers counted for each GPU are the loader's, a process per GPU: 'we use 4 workers per GPU', '默认每张 GPU
    # 用 4 个 worker'
    r"(?<![\w.])(?P<n6>\d{1,3})\s+workers?\s+(?:per|for each|on each|for every)\s+(?:GPU|card|device|process|rank)"
    r"(?![A-Za-z])|"
    r"每\s*(?:张|块|个)?\s*(?:GPU|卡|显卡|进程)\s*(?:上)?\s*(?:默认)?\s*(?:用|开|配|起|跑)?\s*(?:了)?\s*(?P<n7>\d{1,3})\s*个?\s*"
    r"(?:data ?loader\s*)?workers?(?![A-Za-z])",
    _IC)


# s33 workers counted bare in a clause about reading the data ('20 个 worker 遍历一遍数据集', '用 8 个 worker 读数据',
# 'iterating the dataset with 16 workers'): the loader's processes; workers of a cluster, a parameter server or a
# launcher ('2 个 worker 节点', '4 workers and 2 servers') are no loader's
_BARE_WORKERS = re.compile(r"(?<![\w.])(?P<n>\d{1,4})\s*(?:个\s*)?workers?(?![A-Za-z_])"
                           r"(?!\s*(?:节点|机器|nodes?|machines?|"
                           r"servers?|pods?|进程组))", _IC)
_READS_DATA = re.compile(r"遍历|读(?:取|入)?\s*(?:数据|样本|图片|分片|shard)|加载\s*(?:数据|样本)|数据集|dataset|"
                         r"(?<![A-Za-z])(?:read(?:ing)?|load(?:ing)?|iterat(?:e|ing) (?:over )?)\s+(?:the\s+)?"
                         r"(?:data|samples|images|shards)|(?<![A-Za-z])shards?(?![A-Za-z])", _IC)
_CLUSTER_WORKERS = re.compile(r"(?<![A-Za-z])(?:ps|pserver|parameter server|servers?|chief|Horovod|Ray)(?![A-Za-z])|"
                              r"参数服务器", _IC)


def _bare_loader_workers(text: str) -> list[Understood]:
    hits = []
    for m in _BARE_WORKERS.finditer(text):
        a, b = tx.clause_bounds(text, m.start())
        if _READS_DATA.search(text, a, b) and not _CLUSTER_WORKERS.search(text, a, b) \
                and not _ASKS.search(text, a, b):
            hits.append(_hit_span("job.dataloader_workers", int(m["n"]), text, m.start("n"), m.end("n")))
    return hits


@extractor
def loader_workers(text: str) -> list[Understood]:
    """'Data loader workers = 0', 'num_workers 设为 0' → job.dataloader_workers."""
    if TRAINING_WORKERS.search(text):
        return []
    hits: list[Understood] = []
    for m in _WORKERS_SAID.finditer(text):
        group = next(g for g in ("n", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9") if m[g] is not None)
        if _ASKS.search(tx.clause(text, m.start(group))) and not re.search(r"现在|目前|currently|now", tx.clause(
                text, m.start(group)), _IC):
            continue  # 'should num_workers be 0?' asks
        hits.append(_hit_span("job.dataloader_workers", int(m[group]), text, m.start(group), m.end(group)))
    return hits + [h for h in _bare_loader_workers(text) if not any(x.start <= h.start < x.end for x in hits)]
