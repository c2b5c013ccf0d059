"""Knowledge answers: the article's Q&A and explanations, picked from the engine's knowledge base.

The engine loads the entries (`engine.knowledge`: id, question, answer {en, zh}, keywords, source
H-ids). A question is matched by the topics the intent rules found (through the H-ids each topic draws
on) and by the entries' own keywords. The short built-in texts below are only a fallback for a rule
base without a knowledge file; the rule base's entries always win.
"""

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from service.chat.intents import topic_sources


@dataclass(frozen=True)
class KnowledgeAnswer:
    """One answer to quote: where it came from and its text in the reply's language."""

    id: str
    source: tuple[str, ...]
    text: str
    from_rulebase: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for the turn's record."""
        return {"id": self.id, "source": list(self.source), "from_rulebase": self.from_rulebase}


def _field(entry: Any, name: str, default: Any = None) -> Any:
    if isinstance(entry, Mapping):
        return entry.get(name, default)
    return getattr(entry, name, default)


def _text(entry: Any, lang: str) -> str:
    answer = _field(entry, "answer") or _field(entry, "text") or {}
    if isinstance(answer, str):
        return answer
    return str(answer.get(lang) or answer.get("en") or "")


def _keywords(entry: Any) -> list[str]:
    raw = _field(entry, "keywords") or ()
    if isinstance(raw, Mapping):
        words: list[str] = []
        for values in raw.values():
            words.extend(values if not isinstance(values, str) else [values])
        return words
    return [raw] if isinstance(raw, str) else list(raw)


def _keyword_score(question: str, entry: Any) -> int:
    q = question.lower()
    return sum(1 for word in _keywords(entry) if word and str(word).lower() in q)


def find_answers(question: str, topics: list[str], entries: Iterable[Any], lang: str,
                 *, limit: int = 2) -> list[KnowledgeAnswer]:
    """The entries that answer the question best, rule base first, built-in fallback otherwise."""
    entries = list(entries or [])
    picked: list[KnowledgeAnswer] = []
    for topic in topics:
        wanted = set(topic_sources(topic))
        best: tuple[tuple[int, int, str], Any] | None = None
        for entry in entries:
            source = {str(s) for s in (_field(entry, "source") or ())}
            overlap = len(wanted & source)
            if not overlap:
                continue
            key = (overlap, _keyword_score(question, entry), str(_field(entry, "id", "")))
            if best is None or key[:2] > best[0][:2] or (key[:2] == best[0][:2] and key[2] < best[0][2]):
                best = (key, entry)
        if best is not None and _text(best[1], lang):
            entry = best[1]
            answer = KnowledgeAnswer(str(_field(entry, "id")), tuple(str(s) for s in _field(entry, "source") or ()),
                                     _text(entry, lang), True)
        elif topic in FALLBACK:
            answer = KnowledgeAnswer(f"builtin:{topic}", tuple(topic_sources(topic)), FALLBACK[topic][lang], False)
        else:
            continue
        if all(a.id != answer.id for a in picked):
            picked.append(answer)
        if len(picked) >= limit:
            return picked
    if not picked:
        # No topic rule fired: an entry whose keywords the question uses twice or more still answers it.
        scored = sorted(((_keyword_score(question, e), str(_field(e, "id", ""))), e) for e in entries)
        scored = [s for s in scored if s[0][0] >= 2]
        scored.sort(key=lambda s: (-s[0][0], s[0][1]))
        for _, entry in scored[:limit]:
            sources = tuple(str(s) for s in _field(entry, "source") or ())
            picked.append(KnowledgeAnswer(str(_field(entry, "id")), sources,
                                          _text(entry, lang), True))
    return picked


def has_keyword_match(question: str, entries: Iterable[Any]) -> bool:
    """True when some entry's keywords appear at least twice in the question (a knowledge question)."""
    return any(_keyword_score(question, e) >= 2 for e in entries or [])


_SPACE = re.compile(r"\s+")

# Minimal built-in answers, used only when the rule base has no entry for the topic.
FALLBACK: dict[str, dict[str, str]] = {
    "only-way": {
        "en": "No. Software first: gradient compression (fp32 → fp16 halves the traffic, 8-bit quarters it), "
              "gradient accumulation (sync once every k micro-batches) and fewer or asynchronous checkpoint uploads "
              "work at once and cost nothing. Upgrading the network is the last resort: it usually means switches, "
              "NICs and cables together, at high cost — and first confirm the network really is the bottleneck.",
        "zh": "不是。优先做软件层优化：梯度压缩（FP32→FP16 通信量减半，8 bit 降到四分之一）、梯度累积（每 k 个 "
              "micro-batch 才同步一次）、降低 checkpoint（检查点）频率或改为本地写入后异步上传，都能立竿见影、几乎零成"
              "本。"
              "硬件升级是最后手段，通常要交换机、网卡、线缆一起换，成本高；而且先要确认瓶颈确实在网络。",
    },
    "single-node": {
        "en": "Yes, but differently. Inside one node the GPUs talk over NVLink or PCIe, which is fast and rarely the "
              "limit. What matters is the data-loading path: if the data set sits on remote storage (NAS, object "
              "store), reading it can limit training — cache it on local SSD/NVMe first.",
        "zh": "需要关注，但重点不同。单机内 GPU 之间走 NVLink 或 PCIe，带宽很高，一般不是瓶颈；要看的是数据加载路径："
              "如果数据集放在远程存储（NAS、对象存储）上，读取速度会制约训练，建议先把数据集缓存到本地 SSD/NVMe。",
    },
    "cloud": {
        "en": "Decide by scale and parallelism. Small single-node jobs: an ordinary instance is fine. Multi-node "
              "training: pick high-bandwidth instance types (read the spec: some default to a few Gbps), keep all "
              "nodes in the same region and the same availability zone (cross-zone multiplies the problem), and if "
              "the instance's own bandwidth is short, buy a shared bandwidth package for the run and release it after.",
        "zh": "先看训练规模和并行策略：规模小、单机训练，普通实例够用；多机训练要选高带宽型实例（看清规格说明，部分实例"
              "默认只有"
              "几 Gbps），并把所有节点放在同一地域、同一可用区（跨区会成倍放大问题）；实例自带带宽不够时，可临时购买共"
              "享带宽包，"
              "训练完释放，控制成本。",
    },
    "latency": {
        "en": "Bandwidth is how much per second; latency is how long one transfer waits. Many small messages are "
              "latency-bound, large gradient buffers bandwidth-bound. Distance adds latency: keep the training "
              "nodes in one availability zone; cross-zone or cross-region training loses a lot.",
        "zh": "带宽是“每秒能传多少”，延迟是“传一次要等多久”。小消息频繁传输时延迟影响更大，大块梯度传输时带宽才是主角。"
              "物理距离会拉高延迟：训练节点应放在同一可用区，跨可用区甚至跨地域训练性能损耗难以接受。",
    },
    "compression": {
        "en": "Gradient compression cuts the bytes on the wire: fp32 → fp16/bf16 halves them, 8-bit quantisation "
              "quarters them. With error feedback the effect on convergence is small; the cost is a little compute "
              "and, for aggressive schemes, some tuning.",
        "zh": "梯度压缩直接减少通信量：FP32→FP16/BF16 减半，8 bit 量化降到四分之一；配合误差补偿，几乎不影响收敛精度，"
              "代价是少量额外计算，激进方案需要调参。",
    },
    "accumulation": {
        "en": "Gradient accumulation sums the gradients of k micro-batches and synchronises once, so communication "
              "per sample drops by k; it trades activation memory for bandwidth. The effective batch grows k-fold, so "
              "the learning rate (and warm-up) may need adjusting.",
        "zh": "梯度累积：先把 k 个 micro-batch 的梯度累加，再统一同步一次，通信频率降为 1/k，用显存换带宽。"
              "等效 batch size 变为 k 倍，可能需要调节学习率（以及 warm-up）。",
    },
    "async": {
        "en": "Asynchronous training lets nodes go on without waiting for each other, overlapping communication "
              "with compute, but stale gradients can destabilise convergence. Not advised for inexperienced teams "
              "on important runs; try overlap, accumulation and compression first.",
        "zh": "异步训练让各节点不等彼此同步完成就进入下一轮，通信与计算重叠，但陈旧梯度可能导致收敛不稳定，需要调参经验"
              "；"
              "新手团队不建议在重要训练任务上冒这个险，先试通信重叠、梯度累积和压缩。",
    },
    "checkpoint": {
        "en": "Checkpoints write tens to hundreds of GB and can saturate the link. Save less often (every N → every "
              "10·N steps), write to local NVMe and upload asynchronously, use sharded or incremental checkpoints, "
              "and schedule uploads away from heavy communication. (Saving optimizer state instead of weights does "
              "not help: Adam's state is usually larger than the weights.)",
        "zh": "checkpoint（检查点）一次要写几十到几百 GB，会瞬间占满带宽。降低频率（每 N 步改为每 10·N 步）、先写本地 N"
              "VMe "
              "再异步上传、用分片或增量 checkpoint、把上传错开通信高峰。（“只存优化器状态”并不省：Adam 的优化器状态通常"
              "比权重还大。）",
    },
    "topology": {
        "en": "NCCL's ring all-reduce spreads the traffic evenly over every link and beats a parameter server, "
              "which funnels it through a few. Place the nodes in the same rack, and with separated storage cache "
              "hot data on local SSD.",
        "zh": "NCCL 的 Ring AllReduce 把流量均摊到每条链路上，比参数服务器（流量集中到少数节点）效率更高；训练节点尽量"
              "放在同一机架，"
              "存算分离时把高频读取的数据缓存到本地 SSD。",
    },
    "iperf3": {
        "en": "On one node run `iperf3 -s`; on another `iperf3 -c <peer> -P 4 -t 30`. Read the receiver line of "
              "[SUM]; compare it with the NIC's rating (`ethtool <nic>`). Far below → check negotiation, switch "
              "ports, cables, MTU.",
        "zh": "在一台机器上运行 `iperf3 -s`，另一台运行 `iperf3 -c <对端IP> -P 4 -t 30`，看 [SUM] 的 receiver 行，"
              "与网卡标称速率（`ethtool <网卡>`）对比；差距大就检查协商速率、交换机端口、线缆和 MTU。",
    },
    "nccl-tests": {
        "en": "Build nccl-tests and run `all_reduce_perf -b 8 -e 8G -f 2 -g <gpus per process>` across all nodes "
              "(mpirun or srun). Read busbw (bus bandwidth, GB/s) at the largest sizes: it is normalised by "
              "2·(n−1)/n so it compares directly with the link rate ÷ 8. The 'Avg bus bandwidth' line averages tiny "
              "messages too and understates the fabric.",
        "zh": "编译 nccl-tests，在所有节点上（mpirun 或 srun）运行 `all_reduce_perf -b 8 -e 8G -f 2 -g <每进程卡数>`。"
              "看大消息下的 busbw（总线带宽，GB/s）：它已按 2·(n−1)/n 归一化，可直接与链路速率 ÷ 8 比较；"
              "“Avg bus bandwidth”把小消息也平均进去，会低估网络。",
    },
    "how-much": {
        "en": "Rules of thumb: below 10B parameters on one 8-GPU node, 10GbE works and 25GbE is safer; 10B–100B "
              "multi-node, 25GbE is the minimum and 100GbE adequate; above 100B, RDMA (InfiniBand or RoCE) at "
              "200–400 Gb/s. The arithmetic: 100B in fp16 = 200 GB per sync → 160 s on 10GbE, 16 s on 100GbE, "
              "4 s on 400G (size ÷ link rate).",
        "zh": "参考区间：百亿参数以下、单机 8 卡，10GbE 基本可用，25GbE 更稳妥；百亿到千亿参数多机训练，25GbE 起步、100"
              "GbE 才够；"
              "千亿以上用 RDMA（InfiniBand 或 RoCE），200–400 Gb/s。算一笔账：100B 参数 FP16 每次同步约 200 GB，"
              "10GbE 要 160 秒，100GbE 约 16 秒，400G 约 4 秒（数据量 ÷ 带宽）。",
    },
    "procedure": {
        "en": "1) nvidia-smi: GPU utilisation below 60 % → go on. 2) iperf3 between the training nodes: far below "
              "the NIC's rating → check switch configuration and negotiated rate. 3) Compare single-node and "
              "multi-node step times: a large increase locks in communication. 4) nccl-tests all_reduce_perf for "
              "the real collective bandwidth. 5) Only then choose between software remedies and a network upgrade.",
        "zh": "1）nvidia-smi 看 GPU 利用率，低于 60% 进入下一步；2）iperf3 测训练节点间吞吐，远低于网卡标称值就检查交换"
              "机配置和协商速率；"
              "3）对比单机与多机的 step 耗时，多机显著变长基本锁定通信瓶颈；4）用 nccl-tests 的 all_reduce_perf 测实际"
              "集合通信带宽；"
              "5）确认后再决定升级带宽还是用梯度压缩等软件手段。",
    },
    "batch": {
        "en": "For data-parallel gradient sync the volume depends on the parameter count, not the batch size: a "
              "larger batch lowers communication per sample. Batch size does raise the activations exchanged in "
              "tensor and pipeline parallelism (micro-batch × hidden size × sequence length).",
        "zh": "数据并行的梯度同步量取决于参数量，而不是 batch size：batch 越大，每个样本分摊的通信反而越少。batch 会增"
              "大的是"
              "张量并行、流水线并行中交换的激活值（micro-batch × hidden size × 序列长度）。",
    },
    "parallelism": {
        "en": "Data parallel: sync every iteration, high volume, extremely bandwidth-sensitive. Tensor (model) "
              "parallel: every layer's forward/backward, medium volume, highly sensitive — keep it inside a node on "
              "NVLink. Pipeline: every micro-batch, low volume, moderately sensitive. Hybrid: depends on the mix.",
        "zh": "数据并行：每轮迭代都同步，数据量大，对带宽极其敏感；张量（模型）并行：每层前向/反向都通信，数据量中等，"
              "高度敏感，"
              "应放在单机 NVLink 内；流水线并行：每个 micro-batch 通信，数据量小，中等敏感；混合并行视配置而定。",
    },
    "why-bandwidth": {
        "en": "Distributed training uses the network for gradient synchronisation every iteration, for reading "
              "data from remote storage, and for writing checkpoints; at 100B+ parameters communication can take "
              "30–50 % of training time while the GPUs wait.",
        "zh": "分布式训练要走网络的有：每轮迭代的梯度同步、从远端存储读取数据、写 checkpoint；千亿参数规模下通信可能占"
              "总训练时长的 "
              "30%–50%，GPU 只能干等。",
    },
}
