"""Facts from words: what a practitioner's sentence says about the job, the network and the nodes.

Each extractor is a function `(text) -> list[Understood]` over the prose of a question (pasted tool
output already blanked out, so offsets still point into the original). Extractors are independent;
`extract_facts` runs them all and `resolve` decides between competing hits for the same fact.

Conventions for words without numbers (documented because they are guesses, and flagged
`inferred=True` so the reply says 'taken as'):
  CPU idle / 很闲 / 不吃紧 → cpu.util_pct 20;   CPU pegged / 打满 / busy → cpu.util_pct 95
  memory fine / 内存不紧张 → mem.used_pct 35;    memory full / 内存吃紧 → mem.used_pct 95
  GPU utilisation low / 上不去 → gpu.util_pct 50; GPUs saturated / 打满 → gpu.util_pct 95
  step time fluctuates / 波动大 / 抖动 → job.step_time_cv 0.3;   stable / 平稳 → 0.02
  plain Ethernet (GbE, 以太网, 千兆, 万兆) with no RDMA word anywhere → nic.kind ethernet, nic.rdma false
  EFA → nic.kind ethernet, nic.rdma true (AWS's OS-bypass fabric; NCCL uses it through aws-ofi-nccl)
  N×S links ('8x400G IB') → nic.speed_gbps S and nic.count N (the engine's multi-rail model adds them up)
  'rated for 100G' with no link speed said → nic.max_speed_gbps 100, and nic.speed_gbps 100 (weak)
"""

import re
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from bwdoctor.chat import text as tx
from bwdoctor.chat.commands import setting_runs
from bwdoctor.chat.entities import INSTANCE_TYPE
from bwdoctor.chat.instances import known_bandwidth_gbps, known_gpu_model, known_gpus
from bwdoctor.chat.restated import Rate, restated_rates
from bwdoctor.chat.units import (
    NUMBER,
    params_to_billions,
    parse_number,
    parse_range_mid,
    rate_to_gbps,
    size_to_gbytes,
    time_to_ms,
    time_to_seconds,
)


@dataclass(frozen=True)
class Understood:
    """One fact read from the question, with the words it came from (for the echo and corrections)."""

    fact: str
    value: Any
    text: str
    start: int
    end: int
    source: str = "words"
    inferred: bool = False
    weak: bool = False
    hypothetical: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, as stored with the conversation."""
        return asdict(self)


Extractor = Callable[[str], list["Understood"]]
_EXTRACTORS: list[Extractor] = []


def extractor(fn: Extractor) -> Extractor:
    """Register an extractor; order matters only for readability, `resolve` decides conflicts."""
    _EXTRACTORS.append(fn)
    return fn


def _hit(fact: str, value: Any, m: re.Match[str], group: int | str = 0, **flags: bool) -> Understood:
    return Understood(fact, value, m.group(0), m.start(group), m.end(group), **flags)


def _hit_span(fact: str, value: Any, text: str, start: int, end: int, **flags: bool) -> Understood:
    return Understood(fact, value, text[start:end], start, end, **flags)


_NB = r"(?<![A-Za-z0-9.])"  # a number starts here: not inside a word or another number
_NUM = rf"{_NB}(?P<num>{NUMBER})"
_IC = re.IGNORECASE


# --------------------------------------------------------------------------- model size
_MODEL_EN = re.compile(
    rf"{_NB}(?P<num>\d+(?:\.\d+)?)(?:\s?|-(?=[Bb]illion))(?P<scale>B|b|bn|billion|Billion)(?![A-Za-z0-9])"
    r"(?!\s*-?\s*(?:tokens?|samples?|images?|rows?|bytes?|words?|/s|pairs?|examples?|sequences?|documents?|docs?))")
_MODEL_EN_BIG = re.compile(
    rf"{_NB}(?P<num>\d+(?:\.\d+)?)\s*(?P<scale>T|trillion|M|million)\s*(?:-|\s)?"
    # s13 an architecture named between ('a 340M BERT model', '125M GPT-style model')
    r"(?:(?:BERT|RoBERTa|GPT|ViT|T5|LSTM|Transformer|CNN|ResNet|LLaMA|Llama|MoE)[\w-]{0,8}\s+)?"
    r"(?:param(?:eter)?s?|参数|模型|model)", _IC)
# 'model: 340M', '模型大小 350M', 'a model of 125M': the size named after the model word, in millions
_MODEL_M_AFTER = re.compile(rf"(?:model|模型)\s*(?:size|大小|规模|参数量?)?\s*(?:is|of|:|：|=|是|为|只有|大概|约)?\s*(?:about|~|约)?\s*"
                            rf"{_NB}(?P<num>\d+(?:\.\d+)?)\s*(?P<scale>M|million)(?![A-Za-z0-9/])(?!\s*(?:tokens?|samples?|"
                            rf"images?|rows?|条|样本|张|/s|B/s|bytes?|(?:的)?\s*(?:权重|文件|checkpoint|ckpt|weights?|files?|download)))", _IC)
_MODEL_ZH = re.compile(
    r"(?P<num>(?<!\d)\d{1,12}(?:\.\d+)?|(?<![零一二两三四五六七八九十百千])[零一二两三四五六七八九十百千]{1,8})?\s*(?P<scale>万亿|千亿|百亿|十亿|亿)"
    r"(?!\s*(?:tokens?|条|样本|张|字|元|美元|人民币|次))")
# 'a very simple LSTM', 'a small CNN', '小模型': a model of a few million parameters (an assumption, said as such).
_SMALL_MODEL = re.compile(r"(?:very |quite |a |fairly )?(?:small|tiny|simple|toy|lightweight|little)\s+(?:\w+\s+)?(?:model|CNN|"
                          r"LSTM|RNN|MLP|network|net)\b|(?:很|非常|比较)?(?:简单|小)的?\s*(?:\w+\s*)?(?:模型|网络|LSTM|CNN|RNN)|小模型",
                          re.IGNORECASE)
_MODEL_GLUED = re.compile(r"(?<![A-Za-z])(?:Qwen|qwen|Llama|llama|LLaMA|Baichuan|baichuan|ChatGLM|chatglm|InternLM|internlm|Yi|"
                          r"Mistral|DeepSeek|deepseek|Gemma|gemma|Phi|phi|GLM|glm|Falcon|BLOOM|bloom|OPT|opt|MiniCPM|minicpm)"
                          # a version and a variant between ('Qwen2.5-VL-7B', 'Llama-3.1-8B', 'Qwen3-Coder-30B')
                          r"(?:[-_]?\d{1,2}(?:\.\d)?(?=[-_]))?(?:[-_](?:[A-Za-z]{1,10}))?[-_]?"
                          r"(?P<num>\d{1,3}(?:\.\d+)?)[Bb](?![A-Za-z0-9])")
# 'dmoe_760m', 'gpt2-1.5b', 'pythia-410m', 'bert_340M': an architecture's config name with its size after a separator
_MODEL_CONFIG = re.compile(r"(?<![A-Za-z0-9])(?:d?moe|gpt(?:2|3|-?j|-?neox)?|bert|roberta|t5|mpt|pythia|vit|bloomz?|"
                           r"mixtral|starcoder|codegen|megatron|llama\d?|opt|qwen\d?(?:\.\d)?|gemma\d?)"
                           r"[_ -](?:\w+[_-])?(?P<num>\d{1,4}(?:\.\d+)?)(?P<scale>[mMbB])(?![A-Za-z0-9])"
                           r"(?!\s*(?:steps?|samples?|tokens?|images?|iter\w*|rows?|examples?|sentences?|words?|条|步))", _IC)
# s13 BLOOM's sizes with the decimal after the scale: 'bloom-7b1', 'bloomz-7b1-mt', 'bloom-1b7' (7.1B, 1.7B)
_MODEL_BLOOM = re.compile(r"(?<![A-Za-z0-9])bloomz?[_-](?P<a>\d{1,2})b(?P<b>\d)(?![A-Za-z0-9])", _IC)
_PARAM_CONTEXT = re.compile(r"参数|参|模型|规模|级|params?|parameters?|model|LLM|大模型", _IC)


# s13 a size in bytes: the low end of a range of message sizes ('8B to 8GB', '8B-4GB'), or one said as a message's
_BYTES_RANGE = re.compile(r"\s*(?:to|-|~|～|–|through|和|到|至)\s*\d+(?:\.\d+)?\s*[KMGT]i?B(?![A-Za-z])")
_BYTES_BEFORE = re.compile(r"(?:(?<![A-Za-z])-[be]\s*|(?:message|msg|buffer|packet|payload|chunk|消息|报文)\s*(?:sizes?|大小)?\s*"
                           r"(?:is|of|=|:|：|是|为|from)?\s*(?:only|just)?\s*)$", _IC)
# s13 what a figure in 亿 counts when a thing of the data is named right after it ('10亿 个样本', '10 亿行', '百亿级别的 token')
_DATA_AFTER_YI = re.compile(r"[^，,。.;；!?！？\n]{0,8}?(?:tokens?|tokens|样本|条|行|张|图|字|词|元|次|数据|用户|请求|像素|帧|"
                            r"images?|samples?|rows?)", _IC)

# Mixture-of-experts models named by their experts ('Mixtral-8x7B'): every expert's weights get gradients, so the size
# that counts is the total, which the name does not say (shared layers are counted once): the known totals only.
_EXPERTS_NAMED = re.compile(r"(?<![A-Za-z0-9.])(?P<n>\d{1,2})\s?[x×]\s?(?P<m>\d{1,3})\s?[Bb](?![A-Za-z0-9])")
_EXPERT_TOTALS = {(8, 7): 46.7, (8, 22): 141.0}


@extractor
def model_size(text: str) -> list[Understood]:
    """'7B', '1.3B', '175 billion', '100B参数', '百亿', '千亿', '1750亿', 'Mixtral-8x7B' → job.model_params_b."""
    hits = printed_param_counts(text)
    for m in _EXPERTS_NAMED.finditer(text):
        total = _EXPERT_TOTALS.get((int(m["n"]), int(m["m"])))
        if total:
            hits.append(_hit("job.model_params_b", total, m))
    for m in _MODEL_GLUED.finditer(text):  # 'Qwen1.8B', 'chatglm6b': the size glued to the family's name
        value = params_to_billions(m["num"], "B")
        if value:
            hits.append(_hit_span("job.model_params_b", value, text, m.start("num"), m.end()))
    for m in _MODEL_BLOOM.finditer(text):
        hits.append(_hit_span("job.model_params_b", float(f"{m['a']}.{m['b']}"), text, m.start("a"), m.end()))
    for m in _MODEL_CONFIG.finditer(text):
        value = params_to_billions(m["num"], m["scale"].upper())
        if value and not _overlaps(m, hits):
            hits.append(_hit_span("job.model_params_b", value, text, m.start("num"), m.end()))
    places = [(p.start(), p.end()) for p in _CLOUD_PLACE.finditer(text)]
    for m in _MODEL_EN.finditer(text):
        if _overlaps(m, hits) or any(a <= m.start() < b for a, b in places):  # 'us-east-1b' is a zone
            continue
        if m.start() > 0 and text[m.start() - 1] in "$€£¥￥" or re.match(r"\s*(?:USD|dollars?|美元|元)", text[m.end():], _IC):
            continue  # s14 money: '$1B', '1B USD'
        if m["scale"] == "B" and (_BYTES_RANGE.match(text, m.end()) or _BYTES_BEFORE.search(text, max(0, m.start() - 30),
                                                                                         m.start())):
            continue  # s13 'from 8B to 8GB', '-b 8B -e 4G', 'message size is 1B': bytes, no model
        value = params_to_billions(m["num"], m["scale"])
        if value:
            hits.append(_hit("job.model_params_b", value, m))
    for m in _MODEL_EN_BIG.finditer(text):
        value = params_to_billions(m["num"], m["scale"])
        if value:
            hits.append(_hit("job.model_params_b", value, m))
    for m in _MODEL_M_AFTER.finditer(text):
        value = params_to_billions(m["num"], m["scale"])
        if value and not _overlaps(m, hits):
            hits.append(_hit_span("job.model_params_b", value, text, m.start("num"), m.end()))
    if not hits:
        for m in _SMALL_MODEL.finditer(text):
            if re.search(r"(?:不是|并非|并不是|不算|not|isn't|is not|no)\s*(?:an?\s+|a\s+very\s+)?$",
                         text[max(0, m.start() - 10):m.start()], _IC):
                continue  # '不是小网络', 'not a small model': the opposite
            if re.search(r"RoCE|IB|InfiniBand|RDMA|以太|交换|万兆|千兆|TCP|局域|集群|测试", m.group(0), _IC):
                continue  # '一个小的 RoCEv2 网络': a small network of machines, not a small neural network
            hits.append(_hit("job.model_params_b", 0.01, m, inferred=True, weak=True))
    for m in _MODEL_ZH.finditer(text):
        if m.start() > 0 and text[m.start() - 1] in "几数上近":
            continue
        near = tx.after(text, m.end(), 8) + tx.before(text, m.start(), 10)
        bare = not m["num"] or not m["num"][0].isdigit()
        if m["scale"] in {"亿", "十亿"} and bare and not _PARAM_CONTEXT.search(near):
            continue
        if (data := _DATA_AFTER_YI.match(text, m.end())) and not re.search(r"参数|参|params?", data.group(0), _IC):
            continue
        value = params_to_billions(m["num"], m["scale"])
        if value:
            hits.append(_hit("job.model_params_b", value, m))
    # '671B MoE, 37B active', '激活参数 37B': a mixture of experts' active share; its gradients are the total's
    # (s13 and a trainable share: 'only 1B are trainable', '160M trainable params', 'the adapters are only 40M params')
    return [h for h in hits if not (re.match(r"\s*(?:params?|parameters?)?\s*(?:are\s+|is\s+)?(?:active|activated|激活|trainable|"
                                             r"可训练)", text[h.end:h.end + 24], _IC)
                                    or re.search(r"(?:active|activated|激活|trainable|可训练)\s*(?:params?|parameters?|参数量?)?\s*"
                                                 r"(?:is|of|=|:|：|为|是)?\s*$", text[max(0, h.start - 24):h.start], _IC)
                                    or re.search(r"(?:adapters?|LoRA)\s*(?:weights?|params?|parameters?)?\s*(?:are|is|has|have|:|：|只有|有)?"
                                                 r"\s*(?:only|just|about|~)?\s*$", text[max(0, h.start - 30):h.start], _IC))]


# s14 a parameter count printed whole: 'Total params: 6,738,415,616', 'all params: 6,742,609,920' (peft), 'number of
# parameters: 7241732096' (never a rank's share: Megatron's 'number of parameters on (tensor, pipeline) … rank (0, 0)')
_PARAMS_PRINTED = re.compile(r"(?<![A-Za-z])(?:all|total|number of|num|模型总?)\s*(?:params?|parameters?|参数量?)\s*[:：=]\s*"
                             r"(?P<n>\d{1,3}(?:,\d{3}){2,4}|\d{7,13})(?!\d|,\d)", _IC)


def printed_param_counts(text: str) -> list[Understood]:
    """A model's whole parameter count as a summary prints it, in billions."""
    return [_hit_span("job.model_params_b", round(int(m["n"].replace(",", "")) / 1e9, 3), text, m.start("n"), m.end("n"))
            for m in _PARAMS_PRINTED.finditer(text)]


def prefer_exact_sizes(hits: list[Understood]) -> list[Understood]:
    """s14 one model said by its name and its exact count ('7.6B parameters (Qwen2.5-7B)'): the rounded size yields."""
    sizes = [h for h in hits if h.fact == "job.model_params_b" and not h.weak]

    def digits(v: float) -> int:
        return len(f"{v:g}".replace(".", "").strip("0"))

    rounded = {id(h) for h in sizes for o in sizes if o.value != h.value and abs(o.value - h.value) <= 0.1 * h.value
               and digits(o.value) > digits(h.value)}
    return [h for h in hits if id(h) not in rounded]


def model_in_path(path: str) -> tuple[float, int, int] | None:
    """s13 a model's directory in a path ('/home/user/ckpt/Qwen2.5-14B-Instruct', '/mnt/model/Llama-2-70b-hf/'): the size
    its family's name says (value, start, end in `path`); never a bare '70B' (an output folder, '/mnt/output/70B/')."""
    for m in re.finditer(r"[^/\s]+", path):
        part = m.group(0)
        found = [(h.value, h.start, h.end) for h in model_size(part)
                 if h.text and re.search(r"[A-Za-z]{2}", part[:h.start]) and not h.inferred]
        if found:
            value, a, b = found[0]
            return value, m.start() + a, m.start() + b
    return None


# s13 a model named in an auxiliary role: the teacher distilled from, a reward, critic or reference model, the one whose
# tokenizer is borrowed, a judge or a draft model; they run forward only, the job's gradients are another model's
_AUX_BEFORE = re.compile(r"(?:(?<![A-Za-z])(?:teacher|reward|critic|judge|verifier|draft|tokenizer|ref(?:erence)?[_ ]model|"
                         r"ref|RM|PRM|distill(?:ed|ing)? from|tokenizer (?:of|from))|教师|奖励模型|打分模型|评判模型|裁判模型|"
                         r"参考模型|蒸馏自|从)\s*(?:model|模型)?\s*(?:is|=|:|：|是|用的是|用的|用了|用|uses?|used|of|from|being|"
                         r"为)?\s*(?:the|a|an|our)?\s*$", _IC)
_AUX_AFTER = re.compile(r"\s*(?:model|模型)?\s*[(（]?\s*(?:as\s+(?:the\s+|a\s+|our\s+)?|做|作为|当作?|用作|作)?\s*(?:the\s+)?"
                        r"(?:(?:teacher|reward|critic|judge|verifier|draft|tokenizer)(?![A-Za-z])|ref(?:erence)?[_ ]model|"
                        r"RM(?![A-Za-z])|教师|奖励|打分|评判|裁判|参考模型|的\s*tokenizer|的\s*分词器)", _IC)
_NAME_CHARS = re.compile(r"[\w.\-/:]")


def _auxiliary(text: str, h: Understood) -> bool:
    a, b = h.start, h.end
    while a > 0 and _NAME_CHARS.match(text[a - 1]):
        a -= 1
    while b < len(text) and _NAME_CHARS.match(text[b]) and not text[b] == ":":
        b += 1
    return bool(_AUX_BEFORE.search(text, max(0, a - 30), a) or _AUX_AFTER.match(text, b))


def drop_auxiliary_models(text: str, hits: list[Understood]) -> list[Understood]:
    """Sizes of models in an auxiliary role (above) left out where a model of another size is named besides; (s14) where
    the trained model's size is an auxiliary's too ('actor Qwen2.5-7B, critic Qwen2.5-7B, reward …-8B'), the others."""
    sizes = [h for h in hits if h.fact == "job.model_params_b"]
    aux = [h for h in sizes if _auxiliary(text, h)]
    trained = {h.value for h in sizes if h not in aux}
    if not aux or not trained:
        return hits
    if not trained - {h.value for h in aux}:
        return [h for h in hits if h not in aux or h.value in trained]
    return [h for h in hits if h not in aux]


def _overlaps(m: re.Match[str], hits: list[Understood]) -> bool:
    return any(h.start < m.end() and m.start() < h.end for h in hits)


# a batch of the whole job said somewhere: a bare 'batch size' beside it may be either
_GLOBAL_BATCH_SAID = re.compile(r"(?:global|total|effective|overall|全局|总|等效|整体)\s*(?:的)?\s*(?:batch|bs|批)|"
                                r"(?:batch|bs)[^。.;；\n]{0,20}(?:in total|total|overall|across (?:all )?(?:the )?\d*\s*GPUs|"
                                r"总共|一共|合计)|train_batch_size|gradient_accumulation|grad(?:ient)? accum", re.IGNORECASE)


# job-s12b a batch said split over the GPUs right after its figure: 'batch size 512 across 8 GPUs', 'split over all
# GPUs', '(分到|分摊到|平均分到) 8 张卡', '在 8 张卡上'
_SPLIT_ACROSS = re.compile(r"\s*(?:(?:in total\s*)?(?:across|over|split (?:across|over|between)|spread (?:across|over)|"
                           r"divided (?:across|over|between)|for)\s+(?:all\s+)?(?:the\s+|our\s+)?(?:\d+|two|four|eight)?\s*"
                           r"(?:GPUs|cards|devices|ranks)|(?:分到|分摊到|平均分到|均分到|分给|在)\s*\d+\s*(?:张|块|个)?\s*(?:卡|GPU))",
                           re.IGNORECASE)


# --------------------------------------------------------------------------- utilisation
_SUBJECTS = {
    "gpu.mem_used_pct": re.compile(r"显存|GPU\s*mem(?:ory)?|VRAM|HBM", _IC),
    "gpu.util_pct": re.compile(r"GPU|显卡|(?<![显网])(?<!IB)(?<!IB )(?<!HCA)(?<!HCA )卡(?!顿)|nvidia-smi|nvitop|SM\b|算力|Volatile", _IC),
    "cpu.iowait_pct": re.compile(r"iowait|IO\s*wait|io等待", _IC),
    "cpu.util_pct": re.compile(r"CPU|处理器", _IC),
    "mem.used_pct": re.compile(r"(?<!GPU )(?<!显)内存|\bRAM\b|(?<!GPU )memory|\bmem\b", _IC),
}
# (job-s11 both ends: '20%-30%', '40%~60%' as much as '20-30%'; '从 95% 到 40%' stays a change)
# ('实际利用率 90+%': at least 90)
_PERCENT = re.compile(rf"{_NB}(?P<num>\d+(?:\.\d+)?)(?:\s*(?:%(?=\s*[-~～–]\s*\d))?\s*(?:-|~|～|到|至|–)\s*(?P<hi>\d+(?:\.\d+)?))?"
                      r"\s*\+?\s*%")
# '带宽利用率只有 45%', 'link utilization 45%': a share of a link, not of a GPU
_OTHER_UTIL = re.compile(r"(?:带宽|网卡|网络|链路|端口|bandwidth|NIC|network|link|port|PCIe|IB)\s*(?:的)?\s*"
                         r"(?:利用率|使用率|占用率|util\w*|usage)", _IC)
_MEAN_OF = re.compile(r"(?:均值|平均值?|平均在|mean|average|avg|on average)\s*(?:是|为|约|大约|of|is|about|around|~|≈|:|：)?\s*$",
                      _IC)
_NOT_UTIL = re.compile(r"效率|efficien|时间|time|占比|of the (?:step|time|training)|loss|准确率|accuracy|"
                       r"吞吐|throughput|MFU|speed ?up|slower|faster|慢了|快了|提升|drop|overhead|开销|T?FLOPS|"
                       # 'GPUs sit idle 70% of the time', 'GPU 空等 60%': a share of idle time, not a utilisation
                       r"(?<![A-Za-z])(?:idle|idling|waiting|wait|stall\w*|starv\w*)(?![A-Za-z])|"
                       r"空闲|闲置|空等|等待|空转|闲着", _IC)
# a change by so much right before the figure ('TFLOPS 掉了 4%', 'fell by 15%', '降低了 20%'): not the level it is at
_CHANGED_BY = re.compile(r"(?:掉|降|下降|少|减少|降低|涨|增加|提高|多)了\s*$|(?<![A-Za-z])(?:fell|decreased|reduced|lower|down|"
                         r"up|increased|rose|went down|went up)\s+by\s*(?:about\s+|around\s+|~\s*)?$", _IC)
# h-symptoms a figure wanted or expected rather than seen ('should be near 100%', 'we expect ~95%', '目标是 90%'),
# unless the load seen follows it in the clause ('应该 100%，现在只有 40%' is cut at the comma already)
_WANTED_LOAD = re.compile(r"(?<![A-Za-z])(?:should|ought to|(?<!than )expect(?:ed|s|ing)?|target(?:ed|ing)?|goal|aim(?:ing)? "
                          r"(?:for|at)|supposed to|ideally|hope|want|would like)(?![A-Za-z])|应该|应当|期望|预期|目标|希望|理想|"
                          r"理论上|按理", _IC)
_NOW_SAID = re.compile(r"(?<![A-Za-z])(?:but|however|actually|instead|now|only|just)(?![A-Za-z])|但|可是|实际|现在|却|只有|才",
                       _IC)
_ONE_CORE = re.compile(r"(?<![A-Za-z])(?:one|a single|single|1|a)\s+(?:CPU\s+)?cores?(?![A-Za-z])|one of the (?:CPU )?cores|"
                       r"单(?:个)?核|一个\s*(?:CPU\s*)?核|某(?:个|一)?\s*核", _IC)
_ONE_GPU = re.compile(r"(?:其中|有|某)\s*(?:一|1)?\s*(?:张|块|个)\s*(?:卡|GPU|显卡)|(?<![A-Za-z])(?:one|a single)\s+(?:of\s+the\s+)?"
                      r"GPUs?(?![A-Za-z])|(?<![A-Za-z])GPU\s*#?\d+(?![\d.])|(?<![\w.])\d+\s*号卡|卡\s*\d+", _IC)
# '65% of the time', '40% of each step', '70% 的时间': a share of time after the figure, not a utilisation
_TIME_SHARE_AFTER = re.compile(r"\s*(?:的)?\s*(?:时间|耗时|时长)|\s*of\s+(?:the\s+|each\s+|every\s+|its\s+|their\s+|our\s+|"
                               r"total\s+|all\s+)?(?:[\w-]+\s+)?(?:time|steps?|iterations?|iters?|run ?time|wall|training)",
                               _IC)
# 'GPU 利用率只有单机的 50%', '降到了原来的 40%': a ratio to another run or to before; '… is 60% of the single-node run'
_RATIO_BEFORE = re.compile(r"(?:利用率|使用率|util\w*|usage)[^%\d]*?[^\s的]\s*的\s*$", _IC)
_RATIO_AFTER = re.compile(r"\s*(?:of|relative to)\s+(?!(?:the\s+)?(?:peak|max(?:imum)?|capacity|theoretical)(?![A-Za-z]))"
                          r"(?![\d~≈])", _IC)


# A load that swings between two figures: 'GPU 利用率一会 0% 一会 100%', '在 30% 到 90% 之间波动', 'fluctuates between 0
# and 100%', 'sometimes 0%, sometimes 100%'. Neither end is its level; the middle is, as for a range ('30-90%'), and an
# assumption: a usual level said after it ('大部分时间是 0%') or a mean wins.
_SWING_CUE = re.compile(r"波动|来回|跳|忽高忽低|时高时低|浮动|抖动|徘徊|(?<![A-Za-z])(?:fluctuat\w*|jump\w*|swing\w*|"
                        r"oscillat\w*|bounc\w*|alternat\w*|flip\w*|toggl\w*|vary|varies|varying|up and down|and back)"
                        r"(?![A-Za-z])", _IC)
_SWINGS = [
    re.compile(r"(?<![A-Za-z])between\s+(?P<lo>\d{1,3}(?:\.\d+)?)\s*%?\s*(?:and|&)\s+(?P<hi>\d{1,3}(?:\.\d+)?)\s*%", _IC),
    re.compile(r"(?<![\d.])(?P<lo>\d{1,3}(?:\.\d+)?)\s*%?\s*(?:到|至|和|与|-|~|～|–)\s*(?P<hi>\d{1,3}(?:\.\d+)?)\s*%"
               r"(?=\s*(?:之间|间)?\s*(?:的)?\s*(?:来回|波动|跳|浮动|抖动|徘徊|忽高忽低|变化|震荡))", _IC),
    re.compile(r"(?:一会儿?|时而|有时(?:候)?|(?<![A-Za-z])sometimes)\s*(?:是|在|at)?\s*(?P<lo>\d{1,3}(?:\.\d+)?)\s*%[\s,，、]*"
               r"(?:(?:and|or)\s+)?(?:一会儿?|时而|有时(?:候)?|sometimes)\s*(?:是|在|at)?\s*(?P<hi>\d{1,3}(?:\.\d+)?)(?![\d.])\s*%?",
               _IC),
    # 'jumps from 0% to 100% constantly': a swing only with a word of swinging ('went from 90% to 45%' is a change)
    re.compile(r"(?<![A-Za-z])from\s+(?P<lo>\d{1,3}(?:\.\d+)?)\s*%?\s*to\s+(?P<hi>\d{1,3}(?:\.\d+)?)\s*%", _IC),
]
_USUAL_AFTER = re.compile(r"(?:大部分时间|大多数时间|多数时间|大部分|大多|平时|一般|通常|基本上?|(?<![A-Za-z])(?:mostly|usually|"
                          r"most of the time|typically|on average|averag\w*|mean))\s*(?:都|也)?\s*(?:是|在|为|at|around|about|"
                          r"is|of|~)?\s*$", _IC)


def _swings(text: str) -> list[tuple[int, int, float]]:
    """Where a load is said to swing between two figures, with the middle of them."""
    out: list[tuple[int, int, float]] = []
    for i, pattern in enumerate(_SWINGS):
        for m in pattern.finditer(text):
            lo, hi = float(m["lo"]), float(m["hi"])
            if not (0 <= lo <= 100 and 0 <= hi <= 100) or lo == hi or any(a <= m.start() < b for a, b, _ in out):
                continue
            if i in {0, 3} and not _SWING_CUE.search(tx.clause(text, m.start())):
                continue  # 'from 95% to 40%' is a change, '30-90%' a range read as one
            out.append((m.start(), m.end(), round((lo + hi) / 2, 1)))
    return out


def _swinging_loads(text: str, hits: list[Understood]) -> list[Understood]:
    out = list(hits)
    for a, b, mid in _swings(text):
        ends = [h for h in out if h.fact in _LOADS and a <= h.start < b]
        if not ends:
            continue
        out = [h for h in out if h not in ends]
        out.append(_hit_span(ends[0].fact, mid, text, a, b))
        sb = tx.sentence_bounds(text, a)[1]
        for m in _PERCENT.finditer(text, b, sb):  # '…之间来回跳，大部分时间是 0%': its usual level
            if not m["hi"] and _USUAL_AFTER.search(text, max(b, m.start() - 16), m.start()) \
                    and not any(h.start == m.start() for h in out):
                out.append(_hit(ends[0].fact, float(m["num"]), m))
    return sorted(out, key=lambda h: h.start)


# en-s10: 'GPU util drops to 30%', 'dropped to ~20%': the level it fell to ('drops by 30%' stays a change)
_FELL_TO = re.compile(r"(?<![A-Za-z])(?:drops?|dropped|dropping|falls?|fell|falling|decreas\w*|goes down|went down|sinks?|"
                      r"sank|plummet\w*|tanks?|tanked)\s+(?:down\s+)?to\s*(?:only\s*|just\s*|about\s*|around\s*|~\s*|"
                      r"approx\.?\s*|roughly\s*)?$", _IC)
# en-s12b a load's run said after its figure: one machine's, then the job's machines' ('99% on one node but 35% on 2
# nodes')
_ON_ONE_MACHINE_AFTER = re.compile(r"\s*(?:on|with|for|using)\s+(?:one|a single|1|a)\s+(?:node|machine|server|box|host)"
                                   r"(?![A-Za-z])", _IC)
_ON_MACHINES_AFTER = re.compile(r"\s*(?:on|with|for|across|using)\s+(?:all\s+)?(?:[2-9]|[1-9]\d+|two|three|four|eight|"
                                r"sixteen)\s+(?:nodes|machines|servers|boxes|hosts)(?![A-Za-z])", _IC)
# en-s12b the subject said right after a load's figure ('95% GPU utilization', '40% GPU util')
_OWN_SUBJECT_AFTER = re.compile(r"\s*(?:GPU|CPU)s?\s*(?:utili[sz]ation|util|usage|load)", _IC)
# job-s12b the GPUs' load named further back in its clause, with whose GPUs between: 'the GPU utilization of each worker
# node is only about 10%', 'GPU 利用率在每个 worker 节点上都只有 10% 左右'
_GPU_LOAD_FAR = re.compile(r"(?:GPU|显卡)\s*(?:的)?\s*(?:utili[sz]ation|util|usage|利用率|使用率)(?P<gap>[^\d%.;；。]{4,70})$", _IC)


def _past_own_subject(text: str, hit: Understood) -> int:
    """Where the words after a load's figure stop naming its own subject: in '95% GPU utilization, with 2 nodes it
    drops to 50%' the 'GPU' after 95 % is that figure's, no other subject before the next figure (en-s12b)."""
    said = _OWN_SUBJECT_AFTER.match(text, hit.end)
    return said.end() if said and hit.fact in _LOADS else hit.end


# s25 the figure in a clause of its own after its subject's: '只有运行内存占用较高，大约 60%（25G）', 'memory usage is
# high, around 60%': the clause opens on the figure (an 'about' at most), and the one before names one load, no figure
_FIGURE_OPENS = re.compile(r"\s*(?:大约|大概|约|差不多|接近|达到|有|在|(?<![A-Za-z])(?:about|around|roughly|approximately|"
                           r"nearly|almost|at)(?![A-Za-z])|~|≈)?\s*$", _IC)
_LOAD_SAID = re.compile(r"占用|利用率|使用率|用量|(?<![A-Za-z])(?:usage|utili[sz]ation|util|load)(?![A-Za-z])", _IC)


def _subject_of_the_clause_before(text: str, a: int, at: int) -> tuple[int, str] | None:
    """(offset from the window's start, fact) of the one load named in the clause before, or None."""
    if a == 0 or text[a - 1] not in ",，" or not _FIGURE_OPENS.match(text[a:at]):
        return None
    pa = tx.clause_bounds(text, a - 1)[0]
    before = text[pa:a - 1]
    if "%" in before or not _LOAD_SAID.search(before):
        return None
    found = [(s.end(), fact) for fact, subject in _SUBJECTS.items() for s in subject.finditer(before)]
    if len({fact for _, fact in found}) != 1:
        return None
    end, fact = max(found)
    return pa + end - max(a, at - 40), fact


# s14 the load named after a memory's figure: 'GPU memory usage is 60% and util is 40%', 'memory usage is 90% but
# utilization is only 20%', 'VRAM at 90% but utilization only 20%', '显存 90%，使用率 20%': the load word names the GPUs'
# load anew (a memory has no utilisation of its own), so the figure after it is gpu.util_pct, not the memory's again
_LOAD_NAMED = re.compile(r"(?:利用率|使用率|(?<![A-Za-z])(?:utili[sz]ation|util|compute util\w*)(?![A-Za-z]))"
                         r"[^\d%，,。.;；\n]{0,24}$", _IC)
_MEMORIES = ("gpu.mem_used_pct", "mem.used_pct")


def _load_after_memory(text: str, hits: list[Understood], at: int) -> bool:
    """Whether the figure at `at` is the GPUs' load named by a load word after a memory's figure (see above)."""
    if not hits or hits[-1].fact not in _MEMORIES or at - hits[-1].end > 48 \
            or tx.sentence_bounds(text, hits[-1].start) != tx.sentence_bounds(text, at):
        return False
    gap = text[hits[-1].end:at]
    named = _LOAD_NAMED.search(gap)
    return bool(named) and not re.search(r"\d", gap) and not _OTHER_UTIL.search(gap) and not _NOT_UTIL.search(gap) \
        and not any(p.search(gap) for f, p in _SUBJECTS.items() if f != "gpu.util_pct")


@extractor
def utilisation(text: str) -> list[Understood]:
    """'GPU利用率只有40%', 'GPU util hovers around 70%', 'CPU 97%', 'iowait 30%' → *_pct facts."""
    hits = []
    wanted: set[int] = set()
    for m in _PERCENT.finditer(text):
        a = tx.clause_bounds(text, m.start())[0]
        window = text[max(a, m.start() - 40):m.start()]
        tail = tx.after(text, m.end(), 20)
        if hits and _MEAN_OF.search(text, max(0, m.start() - 10), m.start()) \
                and tx.sentence_bounds(text, hits[-1].start) == tx.sentence_bounds(text, m.start()) \
                and not any(p.search(text, hits[-1].end, m.start()) for p in _SUBJECTS.values()):
            # 'GPU 利用率在 0-50% 之间波动（均值 30% 左右）': the mean said after a range is that figure's
            hits.append(_hit(hits[-1].fact, float(m["num"]), m))
            continue
        if _load_after_memory(text, hits, m.start()):
            hits.append(_hit("gpu.util_pct", parse_range_mid(m["num"], m["hi"]) or float(m["num"]), m))
            continue
        best: tuple[int, str] | None = None
        for fact, subject in _SUBJECTS.items():
            for s in subject.finditer(window):
                if best is None or s.end() > best[0] or (s.end() == best[0] and fact.startswith("gpu.mem")):
                    best = (s.end(), fact)
        if best is None:
            best = _subject_of_the_clause_before(text, a, m.start())
        if best is not None and hits and hits[-1].fact in _LOADS \
                and hits[-1].end < max(a, m.start() - 40) + best[0] <= _past_own_subject(text, hits[-1]):
            best = None  # en-s12b '95% GPU utilization, with 2 nodes it drops to 50%': the subject was 95 %'s
        if best is None:
            for fact, subject in _SUBJECTS.items():
                # 'GPU 40%', '80% of GPU memory', '70% of the CPU': the subject just after the figure
                said = re.match(r"\s*(?:的|of\s+(?:the\s+)?|of\s+(?:each|every|all)\s+)?\s*" + f"(?:{subject.pattern})", tail, _IC)
                if said and not re.match(r"s\b|\s*(?:time|hours?|cycles|的?时间|的?耗时)", tail[said.end():], _IC):
                    best = (0, fact)  # 'GPU 40%', '80% of GPU memory'; '65% of the GPU time' is a share of time
                    break
        if best is None and hits and hits[-1].fact in _LOADS and m.start() - hits[-1].end < 40 \
                and (one := _ON_ONE_MACHINE_AFTER.match(text, hits[-1].end)) and _ON_MACHINES_AFTER.match(text, m.end()) \
                and tx.sentence_bounds(text, hits[-1].start) == tx.sentence_bounds(text, m.start()) \
                and not any(p.search(text, one.end(), m.start()) for p in _SUBJECTS.values()):
            # en-s12b 'utilization is 99% on one node but 35% on 2 nodes': each figure with its run after it
            hits.append(_hit(hits[-1].fact, float(m["num"]), m))
            continue
        if best is None and hits and tx.sentence_bounds(text, hits[-1].start) == tx.sentence_bounds(text, m.start()) \
                and re.search(r"(?:只有|才|仅|(?<![A-Za-z])only|掉到|降到|跌到|drops? to|dropped to|falls? to|fell to|"
                              r"(?:多|单|两|双)(?:机|节点|卡)|\d+\s*(?:机|台|节点|卡)|on (?:\d+|one|two|a single) (?:nodes?|machines?|GPUs?))"
                              r"\s*(?:的时候|时)?\s*(?:只有|才|仅|是|为|约|大约|大概)?\s*$", text[max(0, m.start() - 14):m.start()], _IC) \
                and not any(p.search(text, _past_own_subject(text, hits[-1]), m.start()) for p in _SUBJECTS.values()) \
                and not _OTHER_UTIL.search(text, hits[-1].end, m.start()) \
                and not _NOT_UTIL.search(_FELL_TO.sub("", text[hits[-1].end:m.start()])):
            # '单机 GPU 利用率 95%，多机只有 40%'; '… 99%，但是多机扩展效率只有 60%' names another measure in between: the same subject in another run or after a drop
            if _SMALLER_RUN_SAID.search(text, max(hits[-1].end, m.start() - 14), m.start()) and not _SMALLER_RUN_SAID.search(
                    text, max(0, hits[-1].start - 14), hits[-1].start):
                continue  # '… 只有 40%，单机 8 卡时 90%': the smaller run's figure after the job's (no fact for it)
            fact = hits[-1].fact
            if fact == "gpu.mem_used_pct" and _UTIL_WORD.search(text, hits[-1].end, m.start()):
                fact = "gpu.util_pct"  # zh-s10 load word: '显存占用 90%，利用率却只有 20%' is the GPUs' load, not memory
            hits.append(_hit(fact, parse_range_mid(m["num"], m["hi"]) or float(m["num"]), m))
            continue
        if best is None and hits and hits[-1].fact in _LOADS and _USUAL_CUE.search(text, max(0, m.start() - 40), m.start()) \
                and _PEAK_CUE.search(text, max(0, hits[-1].start - 24), hits[-1].start) \
                and m.start() - hits[-1].end < 60 and not any(p.search(text, hits[-1].end, m.start()) for p in _SUBJECTS.values()):
            # 'GPU 利用率最高只有 19%，平时基本稳定在 10% 左右': the same load, said again at its usual level
            hits.append(_hit(hits[-1].fact, parse_range_mid(m["num"], m["hi"]) or float(m["num"]), m))
            continue
        if best is None and _MEAN_OF.search(text, max(0, m.start() - 10), m.start()):
            # 'GPU 利用率在 0~100 之间跳，平均 50% 左右': a mean said after a range without its '%', the subject's
            sa = tx.sentence_bounds(text, m.start())[0]
            for fact, subject in _SUBJECTS.items():
                for s in subject.finditer(text, sa, m.start()):
                    if (best is None or s.end() > best[0]) and re.search(r"利用率|使用率|util|usage|占用", text[s.end():m.start()], _IC):
                        best = (s.end(), fact)
            if best is not None:
                hits.append(_hit(best[1], float(m["num"]), m))
                continue
        if best is None and not any(tx.sentence_bounds(text, h.start) == tx.sentence_bounds(text, m.start()) for h in hits):
            said = _continued_load(text, m.start())  # zh-s10 continued load: 'GPU 利用率上不去，只有 30%'
            if said:
                best = (0, said)
        if best is None and (usual := _usual_level_of_the_load_before(text, a, m.start())):
            best = (0, usual)  # s29 '利用率最多到 12 左右，经常是 2% 左右', 'peaks at 12, usually about 2%'
        if best is None and re.search(r"利用率|util", window + tail, _IC) and not _OTHER_UTIL.search(window + tail):
            best = (0, "gpu.util_pct")
        if best is None and (far := _GPU_LOAD_FAR.search(text[max(a, m.start() - 90):m.start()])) \
                and not _NOT_UTIL.search(far["gap"]) and not any(p.search(far["gap"]) for p in _SUBJECTS.values()):
            best = (0, "gpu.util_pct")  # job-s12b 'the GPU utilization of each worker node is only about 10%'
        if best is None:
            continue
        gap = window[best[0]:] if best[0] else ""
        # 'GPU 利用率从 95% 掉到了 40%', 'GPU util went from 90% to 45%': the figure it changed to is the subject's now
        gap = re.sub(r"(?:从|from)\s*\d+(?:\.\d+)?\s*%\s*[^\d%，,。;；]{0,10}?(?:到|to)\s*(?:了)?\s*$", "", gap, flags=_IC)
        # en-s10: 'GPU util drops to 30%', 'dropped to ~20%': the level it fell to ('drops by 30%' stays a change)
        gap = _FELL_TO.sub("", gap)
        if _NOT_UTIL.search(gap) or re.search(r"\d", gap) or _CHANGED_BY.search(gap):
            continue
        if best[1] in _LOADS and (want := _WANTED_LOAD.search(window)) and not _NOW_SAID.search(window, want.end()):
            # h-symptoms 'should be near 100%', '目标是 GPU 利用率 90%': a target, not the load seen (kept until the
            # end, so that '…，但是现在只有 50%' still finds its subject)
            wanted.add(m.start())
        if best[1] == "cpu.util_pct" and _ONE_CORE.search(window):
            continue  # h-symptoms 'one CPU core is at 100%', 'CPU 单核跑满': one core, not the mean over all of them
        if best[1] == "gpu.util_pct" and any(h.fact == "gpu.util_pct" for h in hits) and _ONE_GPU.search(window):
            continue  # h-symptoms 'GPU 利用率平均 60%，其中一张卡只有 20%': the job's figure was said; one GPU's is not it
        if re.match(r"\s*(?:的)?\s*(?:扩展|并行|加速|线性|scaling |parallel |linear )?(?:效率|efficien)", tail, _IC):
            continue  # '8 台 64 卡只有 79% 的扩展效率': a scaling efficiency, not the GPUs' load
        if _TIME_SHARE_AFTER.match(tail) or _RATIO_BEFORE.search(gap) or (best[0] and _RATIO_AFTER.match(tail)):
            continue  # a share of time or a ratio to another run, not the GPUs' utilisation
        if any(h.fact == best[1] for h in hits) and _SMALLER_RUN_SAID.search(text, tx.clause_bounds(text, m.start())[0],
                                                                             m.start()):
            continue  # '… 利用率只有 40%，单机 8 卡时 90%': the smaller run's load after the job's
        value = parse_range_mid(m["num"], m["hi"])
        if value is not None and 0 <= value <= 100:
            hits.append(_hit(best[1], value, m))
    for m in _UTIL_BARE.finditer(text):  # job-s11 bare load: 'GPU 利用率只有 30 左右', 'GPU util stuck at 40'
        if int(m["num"]) <= 100 and not _overlaps(m, hits) and not any(h.fact == "gpu.util_pct" for h in hits):
            hits.append(_hit_span("gpu.util_pct", float(m["num"]), text, m.start("num"), m.end("num")))
    for m in _UTIL_SWING_BARE.finditer(text):  # job-s11 bare swing
        lo, hi = int(m["lo"]), int(m["hi"])
        if lo < hi <= 100 and _SWING_CUE.search(tx.clause(text, m.start())) and not _overlaps(m, hits):
            hits.append(_hit_span("gpu.util_pct", round((lo + hi) / 2, 1), text, m.start("lo"), m.end("hi")))
    hits = [h for h in hits if not (h.fact in _LOADS and any(h.start <= w < h.end for w in wanted))]
    hits.extend(_qualitative_load(text))
    return _split_loads(text, _typical_over_peak(text, _swinging_loads(text, _not_summed(text, hits))))


# s9 the GPUs' loads summed ('the GPU-Util of all GPUs always adds up to 100 %', '所有卡的利用率加起来一共 100%',
# 'the sum of the utilisation is 100 %'): a total over the cards, no one card's load and no mean
_SUMMED_BEFORE = re.compile(r"(?:(?<![A-Za-z])(?:add(?:s|ed)?\s+up\s+to|sum(?:s|med)?\s+(?:up\s+)?to|sum\s+(?:of\s+\w+\s+)?"
                            r"(?:is|was|comes to)|total(?:s|led)?\s+(?:to\s+)?|in\s+total\s+(?:is|was|comes to)?)|"
                            r"加起来(?:一共|总共|共|才|是|有|刚好|正好|就)?|加在一起(?:一共|总共|是|有)?|总和(?:是|为|才|有)?|之和(?:是|为|才|有)?)"
                            r"[^，,。;；\n\d%]{0,12}$", _IC)


def _not_summed(text: str, hits: list[Understood]) -> list[Understood]:
    """Drops a load said as the sum over several cards ('adds up to 100 %', '加起来一共 100%'): the cards' total is
    not a card's utilisation."""
    return [h for h in hits if not (h.fact in _LOADS and _SUMMED_BEFORE.search(text, max(0, h.start - 30), h.start))]


# s29 some GPUs' load against the rest's: 'usually 2-3 GPUs are at 100 % utilisation and the rest at 0', '有几张卡
# 100%，其余的都是 0%': the least busy GPUs' load (gpu.util_min_pct); the busy ones' figure is no load of all the GPUs
_SOME_GPUS = (r"(?:(?<![A-Za-z])(?:some|a few|several|only|one|two|three|half)(?:\s+of\s+the)?\s+|"
              r"(?<![\w.])\d{1,2}(?:\s*(?:-|~|～|to)\s*\d{1,2})?\s+(?:of\s+the\s+)?)(?:GPUs?|cards?)(?![A-Za-z])")
_SOME_GPUS_ZH = r"(?:有)?(?:几|一些|部分|个别|两三|一两|\d{1,2}(?:\s*(?:-|~|～)\s*\d{1,2})?)\s*(?:张|块|个)?\s*(?:卡|GPU|显卡)"
_THE_REST = (r"(?:(?<![A-Za-z])(?:the\s+rest|the\s+others?|the\s+other\s+(?:GPUs|cards|ones)|the\s+remaining(?:\s+(?:GPUs|"
             r"cards|ones))?|others)(?![A-Za-z])|(?:其余|其他|其它|剩下|剩余|另外)(?:的)?\s*(?:\d{1,2}\s*(?:张|块|个))?\s*"
             r"(?:卡|GPU|显卡)?)")
_SPLIT_LOAD = re.compile(
    rf"(?:{_SOME_GPUS}|{_SOME_GPUS_ZH})[^，,。;；\n\d%]{{0,24}}?(?<![\d.])(?P<x>\d{{1,3}}(?:\.\d+)?)\s*%?"
    rf"[^。;；\n\d%]{{0,30}}?{_THE_REST}[^，,。;；\n\d%]{{0,16}}?(?<![\d.])(?P<y>\d{{1,3}}(?:\.\d+)?)(?!\d|\.\d)\s*%?", _IC)


def _split_loads(text: str, hits: list[Understood]) -> list[Understood]:
    out = list(hits)
    for m in _SPLIT_LOAD.finditer(text):
        x, y = float(m["x"]), float(m["y"])
        sentence = tx.sentence(text, m.start())
        if not (x <= 100 and y <= 100) or x == y or not ("%" in m.group(0) or _UTIL_WORD.search(sentence)) \
                or _OTHER_UTIL.search(sentence) or re.search(r"显存|memory|VRAM|温度|temperature|功耗|power", sentence, _IC):
            continue
        out = [h for h in out if not (h.fact == "gpu.util_pct" and m.start() <= h.start < m.end())]
        out.append(_hit_span("gpu.util_min_pct", min(x, y), text, m.start(), m.end()))
    return out


# job-s11 bare load: a GPU's load said without '%', its subject and a filler just before ('GPU 利用率只有 30 左右', 'GPU
# util stuck at 40'), and nothing after but the end of the clause or an approximation
_UTIL_BARE = re.compile(r"(?:GPU|Volatile|显卡)[\s-]*(?:GPU[\s-]*)?(?:的\s*)?(?:util\w*|利用率|使用率)"
                        r"(?:\s|只有|只|才|仅|一直|始终|都|也|大概|大约|约|基本上?|在|是|为|就|:|：|=|~|"
                        r"(?<![A-Za-z])(?:stuck at|stays? at|sits? at|hovers? around|at|around|about|only|just|is|was|of)(?![A-Za-z]))*"
                        r"(?<![\w.])(?P<num>\d{1,3})(?![\d.%])(?=\s*(?:左右|上下|的样子|$|[，,。;；!?！？)）]|"
                        r"(?:on|in|across|and|but|while|when|for)(?![A-Za-z])))", _IC)
# job-s11 bare swing: a GPU load swinging between two figures said without '%' ('volatile util 0-100 跳', 'GPU-Util 在 0 到
# 100 之间来回跳', 'GPU util jumps between 0 and 100'): the middle of them, as for the same swing said with '%'
_UTIL_SWING_BARE = re.compile(r"(?:GPU|Volatile|显卡)[\s-]*(?:GPU[\s-]*)?(?:util\w*|利用率|使用率)[^\d，,。;；\n%]{0,20}?"
                              r"(?P<lo>\d{1,3})\s*(?:-|~|～|–|到|至|and|和)\s*(?P<hi>\d{1,3})(?![\d.]|\s*%)", _IC)


# zh-s10 continued load: a load named with a word of its level in one clause and its figure in the next ('GPU 利用率一直
# 上不去，只有 30%', 'GPU utilization is low, only 30%', 'CPU 利用率很高，有 90%'): the figure is that subject's.
_UTIL_WORD = re.compile(r"利用率|使用率|(?<![A-Za-z])(?:util\w*|usage)", _IC)
_LOAD_LEVEL = re.compile(rf"{_UTIL_WORD.pattern}|负载|(?<![A-Za-z])load(?![A-Za-z])|上不去|起不来|跑不满|打不满|拉不满|用不满|"
                         r"很低|偏低|较低|不高|很高|偏高|(?<![A-Za-z])(?:is|are|stays?|remains?)\s+(?:very\s+|quite\s+)?"
                         r"(?:low|high|poor)(?![A-Za-z])", _IC)
_FIGURE_CUE = re.compile(r"[，,]\s*(?:但是?|却|也|都)?\s*(?:只有|只|才|仅有?|仅仅|也就|大概|大约|约|差不多|基本(?:上|在)?|一般(?:在)?|"
                         r"平均|有|在|(?<![A-Za-z])(?:only|just|about|around|roughly|barely|hovering around|at))\s*(?:是|为|在)?\s*$",
                         _IC)


def _continued_load(text: str, pos: int) -> str | None:
    """The load whose figure at `pos` continues the clause before it, or None."""
    sa = max(tx.sentence_bounds(text, pos)[0], pos - 36)
    cue = _FIGURE_CUE.search(text, sa, pos)
    if cue is None:
        return None
    before = re.split(r"[，,。;；]", text[sa:cue.start()])[-1]
    if re.search(r"\d", before) or not _LOAD_LEVEL.search(before) or _OTHER_UTIL.search(before) \
            or _NOT_UTIL.search(before):
        return None
    found = [(s.end(), fact) for fact, subject in _SUBJECTS.items() for s in subject.finditer(before)]
    if not found or "cpu.iowait_pct" in {f for _, f in found}:
        return None
    last = max(e for e, _ in found)
    facts = {f for e, f in found if e == last}
    return "gpu.mem_used_pct" if "gpu.mem_used_pct" in facts else facts.pop() if len(facts) == 1 else None


def _usual_level_of_the_load_before(text: str, a: int, pos: int) -> str | None:
    """s29 a clause that opens on a usual level ('经常是 2% 左右', 'usually about 2%') after a clause naming a load
    ('利用率最多到 12 左右', 'the utilisation peaks at 12'): that load's fact (the last subject named in the sentence
    before, the GPUs' where only the load word is), or None."""
    if a == 0 or not _USUAL_CUE.search(text[a:pos]) or re.search(r"\d", text[a:pos]):
        return None
    pa = tx.clause_bounds(text, a - 1)[0]
    before = text[pa:a]
    if not _UTIL_WORD.search(before) or _OTHER_UTIL.search(before) or _NOT_UTIL.search(before):
        return None
    sa = max(tx.sentence_bounds(text, pos)[0], pos - 120)
    found = [(s.end(), fact) for fact, subject in _SUBJECTS.items() for s in subject.finditer(text, sa, a)]
    fact = max(found)[1] if found else "gpu.util_pct"
    return fact if fact in _LOADS else None


# a single machine or GPU named as the run of a figure: the smaller run beside a multi-node job
_SMALLER_RUN_SAID = re.compile(r"单机|单卡|单节点|一台机器|(?<![A-Za-z])(?:on (?:one|a single|1) (?:node|machine|server|GPU)|"
                               r"single[- ](?:node|machine|GPU)|one (?:node|machine|GPU))(?![A-Za-z])", _IC)


# 'GPU 利用率最高只有 19%，平时基本稳定在 10% 左右', 'peaks at 60% but mostly sits around 20%': a load said at its peak and
# again as its usual level is the usual level
_PEAK_CUE = re.compile(r"(?:最高|峰值|偶尔|偶然|最多|顶多|"
                       # s22 a bound: 'not above 55%', 'never goes above 60%', '不超过 55%', '不高于 50%'
                       r"不超过|不会超过|没超过|没有超过|不高于|不到|"
                       r"(?<![A-Za-z])(?:peaks?|peaked|max(?:imum)?|at most|at best|up to|"
                       r"(?:not|never|no|isn't|is not|doesn't|does not|don't|didn't)\s+(?:go(?:es)?\s+|get(?:s)?\s+|rises?\s+|"
                       r"climbs?\s+|reach(?:es)?\s+)?(?:above|over|higher than|more than|beyond|exceed(?:s|ing)?)|"
                       r"never exceeds?|spikes?|spiked|occasionally|sometimes))[^，,。;；\d%]{0,10}$", _IC)
# (s22 'most of the time it is less than 10%': the usual level may come after a pronoun and a bound of its own)
_USUAL_CUE = re.compile(r"(?:平时|平常|一般|通常|基本|大部分时间|大多数时间|多数时间|大部分时候|大多数时候|多数时候|大多时候|大多|大部分|经常|常常|稳定在|平均|"
                        r"(?<![A-Za-z])(?:mostly|usually|typically|normally|generally|most of the time|on average|average|"
                        r"avg|mean|hovers?|stays?|sits?))[^，,。;；\d%]{0,20}$", _IC)
_LOADS = ("gpu.util_pct", "cpu.util_pct")


# s28 a load's trough said beside its peak ('峰值有 97%，但交替出现 47% 的低谷', 'peaks at 97% but keeps dropping to 47%'):
# the two ends of a swing, neither its usual level
_TROUGH_CUE = re.compile(r"(?:低谷|谷值|最低|掉到|降到|跌到|(?<![A-Za-z])(?:drops?|dropping|dropped|dips?|dipping|dipped|falls?|"
                         r"falling|fell)\s+(?:down\s+)?to|(?<![A-Za-z])(?:troughs?|lows?|minimum|min)(?![A-Za-z]))", _IC)
_TROUGH_AFTER = re.compile(r"\s*(?:的)?\s*(?:低谷|谷值|谷底)", _IC)


# the end of the stretch a peak's other figures may follow in: the paragraph's sentence end ('。', a line), not '；'
_PEAK_SPAN_END = re.compile(r"[。!?！？\n]|\.(?=\s|$)")


def _level_after_peak(text: str, peak: Understood) -> bool:
    """s28 a load's peak followed by another bare figure of it ('GPU load 最高 31%；换成其他数据集只有 20% 左右',
    'utilisation peaks at 31%; on other data it is about 20%'): the peak is one end of what the load does, not its
    level. True where a percent follows within 60 characters of the same stretch with no other load or memory named
    between (a CPU's or a memory's figure there is theirs: 'GPU 最高 90%，CPU 20%')."""
    end = _PEAK_SPAN_END.search(text, peak.end)
    stop = min(end.start() if end else len(text), peak.end + 60)
    nxt = _PERCENT.search(text, peak.end, stop)
    if not nxt:
        return False
    gap = text[peak.end:nxt.start()]
    return not any(p.search(gap) for p in _SUBJECTS.values())


def _typical_over_peak(text: str, hits: list[Understood]) -> list[Understood]:
    out = []
    swing: set[int] = set()
    for h in hits:
        cue = text[max(0, h.start - 24):h.start]
        if h.fact in _LOADS and _PEAK_CUE.search(cue):
            if any(o.fact == h.fact and o is not h and _USUAL_CUE.search(text[max(0, o.start - 40):o.start])
                   and abs(o.start - h.start) < 120 for o in hits):
                continue
            troughs = [o for o in hits if o.fact == h.fact and o is not h and 0 < o.start - h.end < 60
                       and tx.sentence_bounds(text, o.start) == tx.sentence_bounds(text, h.start)
                       and (_TROUGH_CUE.search(text, max(h.end, o.start - 16), o.start) or _TROUGH_AFTER.match(text, o.end))]
            bare_trough = re.search(r"\d+(?:\.\d+)?\s*%\s*(?:的)?\s*(?:低谷|谷值|谷底)", text[h.end:min(
                tx.sentence_bounds(text, h.start)[1], h.end + 60)])  # ('…，但交替出现 47% 的低谷': no subject of its own)
            if troughs or bare_trough:
                swing.update(id(o) for o in [h, *troughs])
            elif _level_after_peak(text, h):
                swing.add(id(h))
        out.append(h)
    return [h for h in out if id(h) not in swing]


# --------------------------------------------------------------------------- communication's share of a step
# The forms the profile-share reader (symptoms.comm_share) leaves: the share named before its figure ('通信时间占比大约 30%',
# 'NCCL 耗时占比 45%'), the step named between ('allreduce 占每个 step 的 45%', '通信占总时间的 1/3' is no percent), and
# ranges ('all-reduce takes 40-50% of each iteration').
_COMM = (r"(?:NCCL|通信|集合通信|梯度同步|all[-_ ]?reduce|allreduce|reduce[-_ ]?scatter|all[-_ ]?gather|communication|comms?|"
         r"nccl\w*Kernel\w*|ncclKernel\w*|ncclDevKernel\w*)")
_SHARE_PCT = r"(?P<num>\d{1,3}(?:\.\d+)?)(?:\s*(?:-|~|到|至|–)\s*(?P<hi>\d{1,3}(?:\.\d+)?))?\s*%"
_APPROX = r"(?:大约|大概|约|近|将近|差不多|超过|接近|about|around|roughly|nearly|almost|over|~|≈)?\s*"
_COMM_SHARE = [
    re.compile(rf"{_COMM}\s*(?:的)?\s*(?:通信|kernel|操作)?\s*(?:的)?\s*(?:时间|耗时|time)?\s*(?:的)?\s*(?:占比|比例|占的比例|share|fraction)"
               rf"\s*(?:是|为|在|有|达到|is|of|was|:|：)?\s*{_APPROX}{_SHARE_PCT}", _IC),
    re.compile(rf"{_COMM}[^，,。；;\n%\d]{{0,10}}?(?:占了?|占用了?|占到了?)\s*(?:了)?\s*(?:每个|每一个|每|整个|总|一个)?\s*"
               rf"(?:step|iteration|iter|迭代|训练|训练时间|时间|耗时|步)\s*(?:时间)?\s*(?:的)\s*{_APPROX}{_SHARE_PCT}", _IC),
    re.compile(rf"(?<![A-Za-z]){_COMM}\s+(?:\w+\s+){{0,2}}?(?:takes?|took|accounts? for|occup(?:ies|y|ied)|consumes?|eats?(?: up)?|"
               rf"is|are|was|were)\s+{_APPROX}{_SHARE_PCT}\s*of\s+(?:the\s+|each\s+|every\s+|total\s+)?(?:\w+\s+)?"
               rf"(?:step|iteration|iter|time|runtime|wall[- ]?(?:clock )?time|training time)", _IC),
]


@extractor
def comm_share_forms(text: str) -> list[Understood]:
    """'通信时间占比大约 30%', 'allreduce 占每个 step 的 45%', 'all-reduce takes 40-50% of each iteration' →
    job.comm_time_pct (a share of time; never one of bandwidth or of a GPU's capacity)."""
    hits: list[Understood] = []
    for pattern in _COMM_SHARE:
        for m in pattern.finditer(text):
            if re.search(r"带宽|bandwidth|利用率|util|busbw|algbw|line[- ]?rate|线速|理论|peak|[?？]|吗",
                         m.group(0) + tx.after(text, m.end(), 8), _IC) or _overlaps(m, hits):
                continue
            value = parse_range_mid(m["num"], m["hi"])
            if value is not None and 0 < value <= 100:
                hits.append(_hit_span("job.comm_time_pct", value, text, m.start("num"), m.end()))
    return hits


_LOW = (r"很闲|空闲|闲着|不忙|不高|很低|较低|不吃紧|并不吃紧|不紧张|没跑满|idle|is fine|are fine|look fine|"
        r"looks fine|is low|are low|not busy|isn't busy|aren't busy|barely used|mostly idle|has headroom|"
        r"plenty of headroom|不是瓶颈|is not the bottleneck|isn't the bottleneck|够用")
_HIGH = (r"很忙|打满|跑满|满载|吃满|占满|爆了|飙高|很高|吃紧|拉满|pegged|maxed(?: out)?|saturated|at 100|"
         r"is busy|are busy|very busy|busy|bound|is the bottleneck|full|100%")
_QUAL_SUBJECT = {
    "cpu.util_pct": (r"CPU(?:\s*(?:利用率|使用率|usage|util(?:ization)?|load|负载))?", 20, 95),
    "mem.used_pct": (r"(?<!显)内存|RAM|(?<!GPU )memory", 35, 95),
    "gpu.util_pct": (r"(?:GPU|显卡)(?:\s*(?:的)?\s*(?:利用率|使用率|usage|util(?:ization)?))?|GPUs", 50, 95),
}
_NEGATION = re.compile(r"不是|并非|not|n't|没有|isn't|aren't", _IC)


def _qualitative_load(text: str) -> list[Understood]:
    hits = []
    for fact, (subject, low, high) in _QUAL_SUBJECT.items():
        pattern = re.compile(rf"(?P<subj>{subject})(?P<gap>(?:\s*(?:和|与|and|&|/|、)\s*(?:CPU|内存|memory|RAM|"
                             rf"GPU))*[^，,。.;；\n\d%]{{0,12}}?)(?:(?P<low>{_LOW})|(?P<high>{_HIGH}))", _IC)
        for m in pattern.finditer(text):
            if _NEGATION.search(m["gap"] or "") and m["low"] not in {"不高", "不忙", "不吃紧", "不紧张"}:
                continue
            if m["high"] and re.search(r"(?:能|可以|才能|就能|也能)\s*把\s*$", text[max(0, m.start() - 6):m.start()]):
                continue  # job-s12b '设 OMP_NUM_THREADS 能把 CPU 占满但速度没提升': what a setting tried can do, not the load
            if fact == "cpu.util_pct" and _ONE_CORE.search(text, max(0, m.start() - 16), m.end()):
                continue  # h-symptoms 'one CPU core is pegged', 'CPU 单核跑满': one core's load, not the mean
            if fact == "cpu.util_pct" and _SUBJECTS["cpu.iowait_pct"].search(m["gap"] or ""):
                continue  # zh-s10 iowait: 'CPU iowait 很高' is time waiting on I/O, not the CPUs' load
            if fact == "gpu.util_pct" and m["high"] and re.search(r"bound|bottleneck|full", m["high"], _IC):
                continue
            if fact == "gpu.util_pct" and m["low"] and re.search(r"fine|够用", m["low"], _IC):
                continue  # 'one node with 8 GPUs is fine': the run works, nothing said of the GPUs' load
            if fact == "gpu.util_pct" and re.search(r"\d\s*%", tx.clause(text, m.start())):
                continue  # 'GPUs are idle 65% of the time': the figure says how much, and it is a share of time
            value = low if m["low"] else high
            hits.append(_hit(fact, value, m, inferred=True))
            # "CPU和内存都很闲" / "CPU and memory are idle": the adjective covers both subjects.
            if fact == "cpu.util_pct" and re.search(r"内存|memory|RAM", m["gap"] or "", _IC):
                hits.append(_hit("mem.used_pct", 35 if m["low"] else 95, m, inferred=True))
    # zh-s10 zero said: 'GPU 利用率为 0', '利用率都是 0' as much as 'drops to 0'
    # ('GPU大部分时间利用率都为0': how often said between the GPUs and their load)
    for m in re.finditer(r"(?:GPU|显卡)\s*(?:的)?\s*(?:(?:大部分|大多数|多数|很多)(?:时间|时候)\s*(?:的)?\s*)?"
                         r"(?:利用率|使用率|util\w*)[^，,。.;；\d%]{0,12}?(?:接近|几乎(?:为|是)?|约|差不多|close to|near|almost|around|"
                         r"(?:直接|经常|会|就|都)?(?:掉到|降到|跌到|变成|变为|掉为|降为)|(?:都|一直|基本)?(?:为|是)(?=\s*(?:0|零)\s*%?\s*(?:[，,。;；!！?？]|$))|(?:drops?|dropped|falls?|fell|goes|went)\s+(?:down\s+)?to)"
                         r"\s*(?:0|零)(?!\s*\.\d|\d)\s*%?|GPU\s*(?:util\w*)?\s*(?:is\s*)?(?:near|close to|almost)\s*(?:zero|0)\b", text, _IC):
        hits.append(_hit("gpu.util_pct", 0, m))  # 'almost 0': the figure said, approximately
    for m in re.finditer(r"GPU\s*利用率\s*(?:一直|总是|始终)?\s*(?:上不去|起不来|拉不满|低)|low GPU util\w*|"
                         r"GPUs? (?:are |is )?(?:starving|starved|waiting|mostly idle|sit idle|underutili[sz]ed)",
                         text, _IC):
        if re.search(r"\d\s*%", tx.clause(text, m.start())):
            continue  # 'GPUs sit idle 70% of the time': a share of time said, no utilisation to assume
        hits.append(_hit("gpu.util_pct", 50, m, inferred=True))
    return hits


# --------------------------------------------------------------------------- precision
_PRECISION = re.compile(
    r"(?<![A-Za-z0-9])(?P<p>fp16|float16|half[- ]precision|半精度|bf16|bfloat16|fp8|float8|int8|8[- ]?bit|8位|"
    r"fp32|float32|tf32|单精度|全精度|full[- ]precision|32[- ]?bit|32位|16[- ]?bit|16位)(?![A-Za-z0-9])", _IC)
_PRECISION_MAP = {"fp16": "fp16", "float16": "fp16", "半精度": "fp16", "16bit": "fp16", "16位": "fp16",
                  "halfprecision": "fp16", "bf16": "bf16", "bfloat16": "bf16", "fp8": "fp8", "float8": "fp8",
                  "int8": "int8", "8bit": "int8", "8位": "int8", "fp32": "fp32", "float32": "fp32",
                  "tf32": "fp32", "单精度": "fp32", "全精度": "fp32", "fullprecision": "fp32", "32bit": "fp32",
                  "32位": "fp32"}


@extractor
def precision(text: str) -> list[Understood]:
    """fp16/半精度/bf16/fp8/int8/8-bit/fp32/单精度 → job.precision (what the gradients travel in)."""
    hits = []
    for m in _PRECISION.finditer(text):
        key = re.sub(r"[\s\-]", "", m["p"].lower())
        if key in {"8bit", "8位", "32bit", "32位"} and _OPTIMISER_AFTER.match(text, m.end()):
            continue  # job-s11 precision: '8-bit Adam', '8bit 优化器': the optimiser's states, not the gradients
        if _SWITCHED_OFF_AFTER.match(text, m.end()):
            continue  # s13 '"fp16": {"enabled": false}', 'fp16: false', 'fp16=False': the setting names a precision not used
        if key in _PRECISION_MAP:
            hits.append(_hit("job.precision", _PRECISION_MAP[key], m))
    # job-s11 precision: mixed precision named without its type ('混合精度训练', 'AMP', 'autocast'): fp16, as the
    # catalogue's alias for amp says (an assumption, weak: a bf16 said beside it wins)
    if not hits:
        for m in _MIXED_PRECISION.finditer(text):
            if not re.search(r"没用|没有|不用|没开|未开启?|未使用|关闭了?|关掉了?|不是|without|(?<![A-Za-z])(?:no|not)\s|n't\s",
                             tx.before(text, m.start(), 8), _IC) and not _is_question_clause(text, m.start()):
                hits.append(_hit("job.precision", "fp16", m, inferred=True, weak=True))
                break
    return hits


# s13 a precision's switch set off right after its name, as a config or a command line writes it
_SWITCHED_OFF_AFTER = re.compile(r"[\"']?\s*(?::\s*\{[^{}]{0,40}?[\"']enabled[\"']\s*:\s*|[:=]\s*|\s+)[\"']?(?:false|False|FALSE|no|No)"
                                 r"(?![A-Za-z])")


# job-s11 precision: an optimiser or quantisation named after '8-bit' ('8-bit Adam', '8bit 优化器', '8-bit AdamW (bnb)')
_OPTIMISER_AFTER = re.compile(r"\s*(?:paged\s*)?(?:Adam\w*|Lion|optimi[sz]ers?|优化器|bnb|bitsandbytes|量化|quantiz\w*|"
                              r"quantis\w*|LoRA|QLoRA|load(?:ing)?|weights?|权重|inference|推理|states?)", _IC)
_MIXED_PRECISION = re.compile(r"混合精度|mixed[- ]precision|(?<![A-Za-z])(?:AMP|amp|autocast|apex)(?![A-Za-z])|"
                              r"torch\.cuda\.amp|GradScaler", _IC)


# --------------------------------------------------------------------------- parallelism
_PARALLEL = {
    "hybrid": re.compile(r"混合并行|(?<![A-Za-z])hybrid(?![_ -]?shard)(?:[- ]parallel\w*|(?![A-Za-z]))|3D[- ]parallel\w*|[34]D并行", _IC),
    # 'ZeRO' as DeepSpeed writes it ('Why zero?' is no ZeRO); 'zero-3', 'zero2' with their stage
    "fsdp": re.compile(r"FSDP|(?<![A-Za-z])(?-i:ZeRO)(?:[- ]?(?:stage)?[- ]?[123])?(?![A-Za-z])|(?<![A-Za-z])zero[- ]?[123]|"
                       r"zero_(?:optimization|stage)|"
                       r"(?-i:ZeRO)-Infinity|fully[_ ]sharded|"
                       r"full[_ ]shard|shard[_ ]grad[_ ]op|hybrid[_ ]shard|sharded data parallel|(?<![A-Za-z])HSDP", _IC),
    "tensor": re.compile(r"张量并行|模型并行|tensor[- ](?:model[- ])?parallel\w*|model[- ]parallel\w*|(?<![A-Za-z])TP"
                         r"(?:\s*[=:]?\s*\d+)?(?![A-Za-z])|tensor_model_parallel_size", _IC),
    "pipeline": re.compile(r"流水线并行|流水并行|pipeline[- ](?:model[- ])?parallel\w*|(?<![A-Za-z])PP(?:\s*[=:]?\s*\d+"
    ")?"
                           r"(?![A-Za-z])|pipeline_model_parallel_size", _IC),
    "data": re.compile(r"数据并行|DDP(?![-_]backend)|DistributedDataParallel|data[- ]parallel\w*|(?<![A-Za-z])DP(?![A-Za-z])|Horovod",
                       _IC),
}


@extractor
def parallelism(text: str) -> list[Understood]:
    """数据并行/DDP → data, 张量/模型并行 → tensor, 流水线 → pipeline, ZeRO/FSDP → fsdp; two kinds → hybrid."""
    found: list[tuple[str, re.Match[str]]] = []
    for kind, pattern in _PARALLEL.items():
        for m in pattern.finditer(text):
            if kind == "hybrid" and re.search(r"精度", tx.after(text, m.start(), 6)):
                continue
            found.append((kind, m))
    hits = []
    # Mentions in different sentences may be a what-if; combine only those that share a sentence.
    by_sentence: dict[tuple[int, int], list[tuple[str, re.Match[str]]]] = {}
    for kind, m in found:
        by_sentence.setdefault(tx.sentence_bounds(text, m.start()), []).append((kind, m))
    for group in by_sentence.values():
        group.sort(key=lambda km: km[1].start())
        kinds = {k for k, _ in group}
        if "fsdp" in kinds:
            kinds.discard("data")
        if "hybrid" in kinds or len(kinds) > 1:
            first, last = group[0][1], group[-1][1]
            hits.append(_hit_span("job.parallelism", "hybrid", text, first.start(), last.end()))
        else:
            for kind, m in group:
                if kind in kinds:  # 'FSDP … slower than normal data parallel': the sharded one is the job's
                    hits.append(_hit("job.parallelism", kind, m))
    if any(h.value == "fsdp" for h in hits):
        # 'we added HSDP to FSDP2 … under the same conditions DDP scales 0.95': plain DDP named in another sentence
        # is the comparison; the sharded setup is the job's
        hits = [_hit_span(h.fact, h.value, text, h.start, h.end, weak=True) if h.value == "data" else h for h in hits]
    return hits


# --------------------------------------------------------------------------- network rates
# A range of a measured rate ('21-23G', '8~10 GB/s', '3 到 4 GB/s') is read as its middle: the low end's digits.
_RATE_RANGE = r"(?:\s*(?:-|~|～|–|到|至)\s*(?P<hi>\d{1,6}(?:\.\d{1,6})?))?"
_RATE = re.compile(
    rf"{_NB}(?:(?P<mult>\d+)\s*[x×*]\s*)?(?P<num>{NUMBER}){_RATE_RANGE}(?:\s?(?:\+|多|余))?\s*-?\s*(?P<unit>"
    r"GbE|GBE|gbe|GigE|[Gg]ig(?:abit)?(?:\s*[Ee]thernet)?|G(?:bit|b)?\s*(?:Ethernet|ethernet|以太网)|"
    r"(?<=\d)GE(?![A-Za-z])|"  # net-s11 '100GE', '25GE 网口': Huawei's and Chinese vendors' way of writing GbE
    # a port's rate written in bytes by mistake ('100GB NICs', 'one 10GB port'): no NIC runs at 80 or 800 Gb/s per 'GB'
    r"GB(?=\s*(?:NICs?|nics?|网卡|网口|ports?|以太网|[Ee]thernet|network cards?|adapters?)(?![A-Za-z]))|"
    r"[GMT]bits?/sec|[GMT]bits?/s|[GMT]b/sec|[GMT]b/s|[GMT]bps|gbps|mbps|gb/s|mb/s|[GMT]bit|Gb|Mb|"
    r"[GM]Bytes/sec|[GM]Bytes/s|[GM]B/s|[GM]Bps|[GM]B/sec|[GM]/s|"
    r"[GM]B per sec(?:ond)?|[GM]b(?:its?)? per sec(?:ond)?|"  # s21 'Read throughput is 1.20 GB per second' (a log's words)
    r"G|M)(?![A-Za-z/])")
_NIC_AFTER = re.compile(r"\s*(?:的)?\s*(?:网卡|网络|网口|以太网|光口|光模块|管理口|管理网口?|[单双四]端?口|口|端口|交换机|NICs?|nics?|links?|ports?|"
                        r"management (?:ports?|network|interfaces?|NICs?)|"
                        r"networking|network|interconnect|ethernet|Ethernet|fabric|switch|IB|InfiniBand|infiniband|"
                        r"RoCE|RDMA|EFA|HDR|NDR|EDR|FDR|QDR|XDR|uplink|interfaces?|adapters?|cards?|cables?|bond(?:ed|ing)?|互联|带宽网卡|接口|网线|"
                        r"光纤|光缆|fib(?:er|re)s?|LANs?|局域网|内网|"  # net-s11 fibre; s12 LAN
                        r"网(?=\s*(?:$|[，,。.;；!！?？)）]|了|吧|啊|呢|而已)))"
                        r"(?![A-Za-z])")
_KIND_AFTER = {
    "infiniband": re.compile(r"\s*(?:的)?\s*(?:IB|InfiniBand|infiniband|HDR|NDR|EDR)(?![A-Za-z])"),
    "roce": re.compile(r"\s*(?:的)?\s*RoCE", _IC),
    "efa": re.compile(r"\s*(?:的)?\s*EFA"),
}
_RATE_CUES = {
    "instance": re.compile(r"实例带宽|instance bandwidth|带宽上限|bandwidth cap|实例|instance|quota|配额|capped|cap(?"
                           r"![a-z])|"
                           r"限速|throttl\w*|带宽包|provider|云厂商", _IC),
    "measured": re.compile(r"iperf3?|ib_(?:write|read|send)_bw|perftest|实测|测出|测得|测了|测试|测一下|测下来|测到|跑出|跑到|只能跑|只跑|打到|能到|能跑到|达到|"
                           r"只剩|剩下|掉到|降到|跌到|"
                           r"measur\w*|shows?|showed|reports?|reported|getting|get only|only get|we get|got|"
                           r"(?<![A-Za-z])(?:I|we)\s+(?:(?:only|just|still|now|actually|barely|can|can only)\s+)?"
                           r"(?:get|see|saw|obtain(?:ed)?)(?![A-Za-z])|"
                           r"(?:goes|going|went|gets) (?:above|beyond|over|past)|exceeds?|最高只有|最多只有|顶多|"
                           r"(?<![A-Za-z])(?:sees|seeing|saw|gets|gives|gave|yields|delivers|manages|"
                           r"plateau(?:s|ed)?|hover(?:s|ed|ing)?|stuck at|stays? at|"
                           r"caps? out|capped out)(?![A-Za-z])|"
                           r"achiev\w*|reach\w*|throughput|吞吐|实际(?!训练)|actual(?:ly)?|real|tops out|maxes out|peaks?|"
                           r"effective|observed|看到|显示|(?<!网卡)(?<!网卡的)带宽|bandwidth(?! cap)|"
                           r"结果|(?<![A-Za-z])BW average(?![A-Za-z])",  # net-s11
                           _IC),  # net-s11 a test's result: 'ib_write_bw -d mlx5_0 结果平均 11.5 GB/s', 'BW average 是 23.4GB/sec'
    "rated": re.compile(r"网卡(?!\s*(?:的)?\s*(?:流量|占用|峰值|平均|吞吐|实际|收发|接收|发送|入向|出向))|NICs?|nics?|link speed|(?<![A-Za-z])line[- ]rate(?![A-Za-z])|线速|negotiated|协商|ethtool|(?<![A-Za-z])(?:rated|ports?)(?![A-Za-z])|标称|额定|理论|端口|"
                        r"GbE|以太网|ethernet|interconnect|互联|connected (?:with|by|via|over)|fabric|switch|交换机|"
                        r"upgrade|升级|wired|cabled|链路|直连|(?:单|每个?)口|(?<![A-Za-z])direct(?:ly)?[- ]connect(?:ed)?(?![A-Za-z])", _IC),
    "traffic": re.compile(r"iftop|nload|sar -n|流量|收发|接收|发送|入向|出向|网卡(?:的)?(?:峰值|吞吐)|(?:训练|training)\s*(?:时|的时候|中|期间)?\s*"
                          r"(?:只|only)?\s*(?:用了|占用了?|跑了|uses?|used)|traffic|(?<![A-Za-z])(?:rx|tx)(?![A-Za-z])|nic usage|网卡(?:流量|占用)", _IC),
    "busbw": re.compile(r"busbw|bus ?bandwidth|nccl|all_?reduce|allreduce|alg(?:o|orithm)?[ _]?bw|all-reduce|"
                       r"bus bw|(?<![A-Za-z])all reduce(?![A-Za-z])", _IC),  # en-s10: 'bus bw', 'All reduce bandwidth'
    # English cue words whole ('loss' is no OSS, 'thread' no read, 'support' no port)
    "storage": re.compile(r"读取|(?<!ib_)读|存储|加载|磁盘|(?:拉|下载|拷)数据|(?<![A-Za-z_])(?:read(?:s|ing)?|NAS|NFS|storage|loading|"
                          r"OSS|S3|IO|I/O|disks?|HDFS|Lustre|CephFS|GPFS|JuiceFS|CPFS|BeeGFS|MinIO|GCS|bucket|dataloader)(?![A-Za-z_])",
                          _IC),
}
_MEASURING = re.compile(r"iperf|perf|ib_\w+_bw|(?<![A-Za-z])(?:see|saw|sees)(?![A-Za-z])|实测|测|跑|打到|能到|达到|measur|shows?|showed|report|getting|get |gets|gives|gave|got|"
                        r"yields|delivers|achiev|reach|"
                        r"throughput|吞吐|observ|看到|显示|tops out|maxes out|peak|only|只有|仅|单线程|多线程|单流|多流", _IC)
_ETHERNET_WORDS = re.compile(r"GbE|GigE|以太网|ethernet|(?<![千万])百兆|千兆|万兆|TCP|(?<=\d)(?-i:GE)(?![A-Za-z])", _IC)  # net-s11 GE
_RDMA_WORDS = re.compile(r"(?<![A-Za-z])(?:e?RDMA|RoCE|InfiniBand|EFA|GPUDirect|HDR|NDR|ibverbs)(?![A-Za-z])|"
                         r"(?<![A-Za-z_/])IB(?![A-Za-z_])", _IC)


_NOW_RATE = re.compile(r"(?:现在|目前|当前|如今|(?<![A-Za-z])(?:now|currently))\s*(?:是|为|都是|已经是|换成了?|升级到了?|变成了?|"
                       r"(?:it\s+)?(?:is|are|at|on))?\s*$", _IC)
_NETWORK_SAID = re.compile(r"网卡|网络|网口|以太网|(?<![A-Za-z])(?:NICs?|network|networking|link|links|ethernet|RoCE|IB|"
                           r"InfiniBand|fabric|interconnect|port|ports)(?![A-Za-z])", _IC)
_NOT_NETWORK = re.compile(r"显存|内存|存储|磁盘|硬盘|文件|模型|数据集|checkpoint|ckpt|memory|VRAM|HBM|RAM|disk|storage|model|"
                          r"dataset|file", _IC)


# the NICs named in the clause before, then a word pointing back at them before their rate ('…8 RoCE NICs, all of which
# are 100Gb', '4 NICs per node, each is 200Gb', '2 ConnectX-6 cards which are 100Gb each')
_BACK_TO_THE_NICS = re.compile(r"(?<![A-Za-z])(?:all of (?:which|them|these|those)|(?:each|both|every one) of (?:which|them)|"
                               r"which|they|each(?: one)?|both|all)\s+(?:are|is|were|was|run at|runs at)\s+"
                               r"(?:all\s+|each\s+|rated at\s+|rated for\s+)?$", _IC)
_NICS_NAMED = re.compile(r"网卡|(?<![A-Za-z])(?:NICs?|HCAs?|adapters?|ports?|ConnectX[-\w]*|CX-?\d\w*|"
                         r"(?:IB|RoCE|InfiniBand|Mellanox|network|Ethernet)\s+(?:cards?|NICs?))(?![A-Za-z])|·{3,}", _IC)


_NCCL_TESTS_TOPIC = re.compile(r"nccl[-_ ]tests?|all_?reduce_perf|busbw|bus ?bandwidth", _IC)
_LINK_RATES = re.compile(r"1|10|25|40|50|56|100|200|400|800")
_FABRIC_JUST_BEFORE = re.compile(r"(?<![A-Za-z])(?:EDR|HDR|NDR|FDR|XDR|IB|InfiniBand|RoCE(?:\s*v2)?)\s*(?:的|是)?\s*$",
                                 _IC)
_ON_A_LINK = re.compile(r"(?:on|over|via|to|at|with|all|each|both|(?<![A-Za-z])(?:have|has)|用|走|上|换成|升级到|是|都是|均为)\s*$",
                        _IC)


_BUSBW_NAMED = re.compile(r"busbw|bus ?(?:bandwidth|bw)|algbw|all_?reduce_perf|nccl[-_ ]tests?", _IC)
# 'went from 25G to 10G': the figure a change ended at, not a link it moved onto
_FROM_TO = re.compile(r"(?<![A-Za-z])from\s*~?\d+(?:\.\d+)?\s*[A-Za-z/]{0,6}\s*(?:down\s+|up\s+)?to\s*$", _IC)
_RX_WORD = re.compile(r"接收|入向|下行|(?<![A-Za-z])(?:rx|receiv\w*|inbound|ingress)(?![A-Za-z])", _IC)
_TX_WORD = re.compile(r"发送|出向|上行|(?<![A-Za-z])(?:tx|send\w*|sent|outbound|egress)(?![A-Za-z])", _IC)
_DURING_TRAINING = re.compile(r"(?<![A-Za-z])(?:during|while|in the middle of)\s+(?:the\s+)?(?:training|the run|a run|"
                              r"an? epoch)(?![A-Za-z])|训练(?:时|的时候|过程中|期间|中)", _IC)
SHARE_OF_THE_RATE = re.compile(r"\s*[,，(（]?\s*(?:about|roughly|around|only|just|~|约|大约|只有|仅为?|才)?\s*\d{1,2}(?:\.\d+)?\s*%\s*"
                                r"of\s+(?:the\s+)?(?:[\w-]+'s\s+|NIC\s+|link\s+|network\s+)?(?:theoretical|line|rated|nominal|"
                                r"max|maximum|peak|full|spec)|\s*[,，(（]?\s*(?:只有|仅为?|才|约为?|大约)?\s*(?:理论值|理论带宽|线速|"
                                r"标称(?:值|带宽)?|额定(?:带宽)?)的\s*\d{1,2}(?:\.\d+)?\s*%", _IC)
_NOT_FILLED = re.compile(r"打不满|跑不满|用不满|没(?:有)?(?:跑|用|打)满|吃不满|(?<![A-Za-z])(?:not|never|doesn't|don't|can't|"
                         r"cannot)\s+(?:be\s+)?(?:saturat\w*|fill\w*|max(?:ed|ing)? out)", _IC)
_A_TOOL = re.compile(r"iperf|ib_\w+_bw|perftest|nccl[-_ ]?tests?|all_?reduce_perf|busbw|algbw|benchmark|测速|压测", _IC)
_ANY_LINK_RATE = re.compile(r"1|2\.5|5|10|20|25|40|50|56|100|200|400|800")


# zh-s12b a turn to the job's own traffic: 'iperf 测试 9.3G，但是训练时网卡只跑了 2G' — the test is on the other side
_TURN = re.compile(r"但是?|可是|不过|然而|(?<![A-Za-z])(?:but|however|whereas|yet)(?![A-Za-z])", _IC)


def _tool_on_its_side(text: str, pos: int) -> bool:
    """A test tool named in `pos`'s sentence on its side of a contrast: a figure after 'but … during training' is
    what training sent, even when the sentence named iperf before the turn."""
    a, b = tx.sentence_bounds(text, pos)
    turns = [t.end() for t in _TURN.finditer(text, a, pos)]
    return bool(_A_TOOL.search(text, turns[-1] if turns else a, b))


def _network_named_before(text: str, pos: int) -> bool:
    """The clause names the network a few words before `pos`, and nothing between is another thing's figure or a
    measurement: 'the network between the machines is 20G', '机器之间的网络带宽是 25G'."""
    a = tx.clause_bounds(text, pos)[0]
    if not text[a:pos].strip():  # 'RoCE v2，100G': a bare figure in a list describes what the clause before named
        a = max(tx.sentence_bounds(text, pos)[0], a - 24)
    said = list(_NETWORK_SAID.finditer(text, max(a, pos - 48), pos))
    if not said:
        return False
    named = said[-1]
    gap = re.sub(r"(?<![A-Za-z])v\d(?!\d)", "", text[named.end():pos])  # 'RoCE v2，100G': the version is no figure
    return not (re.search(r"\d", gap) or _NOT_NETWORK.search(gap) or _MEASURING.search(gap))


# sweep-s10 'up to': the cloud's burst figure of an instance, as AWS publishes it ('Up to 10 Gigabit', '最高 25 Gbps')
_UP_TO_CAP = re.compile(r"(?:(?<![A-Za-z])up to|最高(?:可达)?|高达)\s*$", _IC)
_CLOUD_SAID = re.compile(r"(?<![A-Za-z])(?:AWS|EC2|GCP|GCE|Azure|Aliyun|阿里云|腾讯云|华为云)(?![A-Za-z])|"
                         r"(?<![\w.-])[a-z]\d[a-z]{0,3}\.(?:\d{0,2}x)?(?:large|metal)(?![\w.-])|实例|instances?(?![A-Za-z])", _IC)


# s22 node aggregate: no NIC port is rated above 800 Gb/s (XDR, ConnectX-8); a single figure above that ('3.2 Tbps
# InfiniBand', '3200 Gbps EFA') is a whole node's fabric, eight 400G rails or so, never one NIC's link speed
_FASTEST_PORT_GBPS = 800.0


def _node_aggregate(gbps: float, *, rails_said: bool) -> bool:
    return not rails_said and gbps > _FASTEST_PORT_GBPS


# a count of NICs written after the rate: '25G*2 bond', '100G x 2', '200G×8 的 IB' (not '… x 2 nodes')
_MULT_AFTER = re.compile(r"\s*[x×*]\s*(?P<n>[1-9]|1[0-6])(?![\d.])(?!\s*(?:nodes?|machines?|servers?|hosts?|boxes|"
                         r"instances?|GPUs?|台|机|节点|服务器|卡|张卡))", _IC)


# en-s12b a count of NICs before the card's model, then the rate ('8x Mellanox ConnectX-7 400G', '2 x CX-6 100G');
# before an InfiniBand generation it is the link's width ('4xEDR 100Gbps', '4X HDR': four lanes), no count of NICs
_MULT_BEFORE_NAME = re.compile(r"(?<![\w.])(?P<n>[1-9]|1[0-6])\s*[x×*]\s*(?:Mellanox\s+|NVIDIA\s+)?"
                               r"(?:ConnectX-?\d[A-Za-z]*(?:\s+Dx)?|CX-?\d[A-Za-z]*)\s+$")


# s21 a copy out of a bucket or a storage named as its source ('the bucket, copied with aws s3 cp to a ramdisk'):
# what the storage delivers (a copy between machines stays a network figure)
_COPY_FROM_STORAGE = re.compile(r"(?:(?<![A-Za-z])(?:bucket|S3|OSS|GCS|COS|NAS|NFS|Lustre|storage)(?![A-Za-z])|对象存储|存储)"
                                r"[^。.;；]{0,30}?(?:(?<![A-Za-z])(?:cp|copy|copying|copied|sync|download\w*)(?![A-Za-z])|拷|"
                                r"复制|下载)|(?:(?<![A-Za-z])(?:copy|copying|copied|download\w*)(?![A-Za-z])|拷贝|下载)\s*"
                                r"(?:from|自|从)\s*(?:the\s+|a\s+|our\s+)?(?:bucket|S3|OSS|GCS|NAS|NFS|storage|对象存储|存储)",
                                _IC)


# s21 a line as rented or provisioned: the hosting plan's rate is the machine's link, no test's figure
_PROVISIONED = re.compile(r"(?:独享|独占|专享|独立|(?<![A-Za-z])(?:dedicated|unmetered|guaranteed))\s*(?:的)?\s*$", _IC)
_PROVISIONED_AFTER = re.compile(r"\s*(?:的)?\s*(?:(?:国际|国内|公网|BGP|CN2|GIA|独享|专线|多线)\s*)+(?:带宽|线路|网络|端口)|"
                                r"\s*(?:dedicated\s+|unmetered\s+)?(?:BGP|IP transit)\s+(?:bandwidth|uplink|port)", _IC)


# net-s12b sizes listed: figures in bare M/G (the rest of a list of them) before a word of size ('这几个 bucket 大小',
# 'bucket sizes', 'message sizes', '消息大小')
_SIZES_LISTED = re.compile(r"(?:\s*(?:[、,，/]|and|or|和|与|及)\s*\d+(?:\.\d+)?\s*[KMGT]i?B?(?![A-Za-z/]))*\s*"
                           r"(?:这几个|这些|几个|these|the)?\s*(?:bucket|buffer|message|msg|tensor|消息|包|数据|张量)?\s*(?:的)?\s*"
                           r"(?:大小|尺寸|sizes?)(?![A-Za-z])", _IC)


# a figure with its unit per second, then one 'at'/'@'/'for' a size: the size is the benchmark's message ('3.2 GB/s at 8G')
_SIZE_AFTER_A_RATE = re.compile(r"\d\s*(?:[GM]B/s(?:ec)?|[GM]Bps|[GM]b/s|Gbps|[GM]/s)\s*(?:busbw|algbw|bus bandwidth)?\s*"
                                r"(?:[,(（]\s*)?(?:at|@|for)\s+(?:the\s+|a\s+|an\s+)?(?:(?:message\s+)?size\s+(?:of\s+)?)?$",
                                _IC)


def _rate_kind(text: str, m: re.Match[str], cue_text: str | None = None) -> str | None:
    """What a rate is: 'rated' NIC speed, 'measured' throughput, 'instance' cap, 'traffic', 'busbw', 'storage'.

    `cue_text` is the text with the other rates blanked: another figure's unit ('… 3~5 Gbps on 10GbE') is no cue."""
    unit = m["unit"]
    after = _MULT_AFTER.match(text, m.end())  # '25G*2 bond', '100G×2 网卡': the figure, then how many
    tail = text[after.end() if after else m.end():][:16]
    is_bytes = bool(re.match(r"[GM]B|[GM]/s", unit)) and unit != "GB"
    label = tx.nearest_cue(cue_text or text, m.start(), m.end(), _RATE_CUES, window=50)
    turn = _TURN.search(text, max(0, m.start() - 50), m.start())
    if label == "measured" and turn and re.search(r"NVLink|NVSwitch|PCIe|HBM|显存带宽|内存带宽", text[max(0, turn.start() - 50):
                                                                                                 turn.start()], _IC):
        # the link inside the machine measured before a 'but', the one between them after it: 'NVLink gives 300 GB/s but
        # between the nodes we only have 25Gbps' (the cue past the 'but' is the other link's)
        label = tx.nearest_cue(cue_text or text, m.start(), m.end(), _RATE_CUES, window=50, barrier=_TURN)
    if label is None and _AVERAGE_SAID.search(text, max(0, m.start() - 30), m.start()) \
            and not _NCCL_TESTS_TOPIC.search(text) and not _RATE_CUES["busbw"].search(tx.sentence(text, m.start())):
        label = "measured"  # net-s11 average: 'the average is 11 Gbits/sec', 'avg 92 Gb/s': a test's figure
    if label == "measured" and _DURING_TRAINING.search(tx.clause(text, m.start())) \
            and not _tool_on_its_side(text, m.start()):
        label = "traffic"  # 'we see about 600 MB/s between nodes during training': what training sends, not a test's figure
    elif label == "rated" and re.search(r"训练(?:时|的时候|过程中|期间|中)[^，,。;；\d]{0,8}?网卡[^，,。;；\d]{0,4}?"
                                        r"(?:只有|才|仅|大概|大约|约|在|跑|能到|到)\s*$", text[max(0, m.start() - 24):m.start()]):
        label = "traffic"  # '训练时网卡只有 2Gbps': the NIC's load while training, not its rating
    elif label == "rated" and _DURING_TRAINING.search(tx.clause(text, m.start())) and re.search(
            r"(?:网卡|NICs?|link|interface)\s*(?:only\s*|just\s*)?(?:只跑了?|只用了?|才跑了?|跑了|用了|carr(?:y|ies|ied)|push(?:es|ed)?|"
            r"sends?|sent|moves?|shows?|uses?|used)\s*(?:only\s*|about\s*|around\s*|~\s*|大概\s*|约\s*)?$",
            text[max(0, m.start() - 30):m.start()], _IC):
        label = "traffic"  # zh-s12b '训练时网卡只跑了 2G', 'during training the NIC only carries 2 Gbps': its load
    if re.match(r"\s*(?:size|message|msg|buffer|消息|大小|数据量|的消息)", tail, _IC):
        return None
    if not is_bytes and label in {None, "measured"} and _PROVISIONED.search(text, max(0, m.start() - 10), m.start()) \
            or not is_bytes and label in {None, "measured"} and _PROVISIONED_AFTER.match(tail):
        return "rated"  # s21 a line as rented: '每台独享 10Gbps 国际 BGP 带宽', 'a dedicated 10 Gbps uplink' is the link's rate
    if unit in {"M", "G", "K", "MB", "GB", "KB"} and _SIZES_LISTED.match(text, after.end() if after else m.end()):
        return None  # net-s12b: '32M、64M、128M 这几个 bucket 大小', 'the 32M, 64M and 128M bucket sizes': sizes, no rates
    if not is_bytes and label in {None, "rated"} and SHARE_OF_THE_RATE.match(text, m.end()):
        return "measured"  # s11 share of the rate: '… roughly 6.4 Gbps, about 25% of the network's theoretical max'
    if label is None and not is_bytes and _NOT_FILLED.search(text, max(tx.sentence_bounds(text, m.start())[0],
                                                                        m.start() - 30), m.start()):
        # s11 not filled: '训练的时候网卡带宽打不满，只有 3Gbps 左右': what the link carried, short of its rate
        sentence = tx.sentence(text, m.start())
        return "traffic" if _DURING_TRAINING.search(sentence) and not _A_TOOL.search(sentence) else "measured"
    # sweep-s10 'up to': 'p3.2xlarge … up to 10 Gbps networking' is the cloud's published burst cap of the instance
    if not is_bytes and _UP_TO_CAP.search(text[max(0, m.start() - 12):m.start()]) and _CLOUD_SAID.search(text) \
            and not _MEASURING.search(tx.clause(text, m.start())) and not re.match(r"\s*(?:of\s+)?(?:storage|disk|EBS)", tail, _IC):
        return "instance"
    if unit in {"G", "T"} and _CKPT.search(text, tx.clause_bounds(text, m.start())[0], m.start()) \
            and not _NIC_AFTER.match(tail):
        return None  # 'each checkpoint is 300G': the checkpoint's size (the checkpoint reader's), not a rate
    if unit in {"G", "M", "Gb"} and re.match(r"\s*ones?(?![A-Za-z])", tail, _IC) \
            and re.search(r"(?<![A-Za-z])(?:the|that|this)\s+$", text[max(0, m.start() - 6):m.start()], _IC):
        return None  # 'NCCL picked the 1G one': a thing named before by its rate (read there), not a figure of NCCL's
    if unit in {"G", "M"} and re.match(r"\s*(?:以上|以下|以内|开始|起|and (?:up|above|larger|below)|or (?:larger|more|less|"
                                      r"smaller)|onwards?)", tail, _IC) and _NCCL_TESTS_TOPIC.search(tx.sentence(text, m.start())):
        return None  # 'busbw 在 1G 以上的消息就稳定了': a message size of the sweep  # 'a bandwidth drop at the 1G size': a message size of a benchmark sweep, not a rate
    if unit in {"G", "M"} and (_SIZE_AFTER_A_RATE.search(text, max(0, m.start() - 40), m.start())
                               or re.match(r"\s*(?:messages?|msgs?|message size|sizes?|buffers?|消息|大小)(?![A-Za-z])", tail, _IC)):
        return None  # 'max busbw 3.2 GB/s at 8G', 'at the 1G messages': the sweep's message size, not a second rate
    if re.search(r"(?:合计|总共|一共|总带宽|in total|aggregate|combined|total of)\s*$", text[max(0, m.start() - 14):m.start()],
                 _IC):
        return None  # '2 张 HDR100 IB（合计 200G）': the sum of the NICs, not one NIC's rate
    if re.match(r"\s*(?:(?:per|each|a|every)\s+(?:node|server|host|machine|box)\s+)?(?:in total|total|aggregate|combined)"
                r"(?![A-Za-z])|\s*(?:per (?:node|server|host|machine)\s+)?[(（]\s*\d+\s*[x×*]\s*\d", text[m.end():m.end() + 30], _IC) \
            and label in {None, "rated"} and not _MEASURING.search(text, tx.clause_bounds(text, m.start())[0], m.start()):
        return None  # net-s11 total after: '400 Gbps per node in total (4x 100G)': the sum of the rails said after it
    if m["mult"] and not is_bytes and unit in {"G", "Gb"} and _LINK_RATES.fullmatch(m["num"]) and label in {None, "rated"} \
            and not _NOT_NETWORK.match(text, m.end()) and not re.match(r"\s*(?:的)?\s*(?:显存|内存|memory|VRAM|HBM|RAM|GPU|卡)",
                                                                      text[m.end():], _IC):
        return "rated"  # net-s11 rails: '4x200G', '(8x 100G)': so many links of a standard rate, the NICs of a node
    if re.match(r"GbE|GBE|gbe|GigE|[Gg]ig|G(?:bit|b)?\s*(?:Ethernet|ethernet|以太网)|GE$", unit):  # net-s11 GE
        return "rated"
    if re.search(r"·{2,}\s*[(（]\s*$", text[max(0, m.start() - 8):m.start()]) and (_NCCL_ON_PORT.search(
            text, max(tx.clause_bounds(text, m.start())[0], m.start() - 48), m.start())
            or _USED_BY_NCCL.match(text, m.end())):
        return "rated"  # rr-s10 NCCL's port: 'NCCL uses the eno1 (1G) interface', 'NCCL 走的 eno1（1G）': the link it runs on
    if re.search(r"·{2,}\s*[(（]\s*$", text[max(0, m.start() - 8):m.start()]):
        return None  # en-s10: 'NCCL picks eth0 (10G) instead of ib0': a figure in brackets after a name is that thing's
    if re.search(r"(?:bandwidth|network(?:ing)?|performance)\s+(?:is|of|:)?\s*[\"“']?\s*up to\s*$", text[max(0, m.start() - 40):m.start()],
                 _IC):
        return None  # en-s10: 'network bandwidth is "up to 40 Gbps"': a cloud's burst ceiling, neither a test's figure nor a NIC
    if unit == "G" and label == "measured" and _LINK_RATES.fullmatch(m["num"]) and re.search(
            r"\d\s*(?:[GM]bits?/s(?:ec)?|[GM]b(?:ps|/s)|Gbit)\s+(?:on|over)\s+(?:an?\s+|the\s+|our\s+)?$",
            text[max(0, m.start() - 24):m.start()], _IC):
        return "rated"  # en-s10: 'iperf3 ~ 23 Gbps on 25G': the measurement said, then the link it ran on
    if not is_bytes and _LINK_RATES.fullmatch(m["num"]) and re.match(r"\s*(?:的\s*)?·{2,}", tail) and label in {None, "busbw"}:
        # en-s10: 'instead of the 100G ens5f0': a link rate just before a port's name is its rating; s12 '8 张 400G 的 CX7'
        return "rated"
    if label == "measured" and not is_bytes and _LINK_RATES.fullmatch(m["num"]) \
            and _CARD_BANDWIDTH.search(text, max(0, m.start() - 60), m.start()) \
            and not _A_TOOL.search(tx.clause(text, m.start())):
        return "rated"  # s14 'the bandwidth of each ib card is 56G': a card's standard rate, no test's figure
    if re.match(r"\s*(?:in|from|by|per|according to|on)?\s*[(（]?\s*(?:`\s*)?ethtool", tail + text[m.end() + 16:m.end() + 24], _IC):
        return "rated"  # '100000Mb/s in ethtool': what the link negotiated, as ethtool reports it
    if not is_bytes and re.search(r"(?:ibstat|ibstatus|ibv_devinfo|ibdev2netdev)(?![A-Za-z])[^，,。.;；\n\d]{0,24}?"  # net-s11
                                  r"(?:\d+\s*(?:个|张)?\s*(?:口|端口|ports?|HCAs?|网卡)[^，,。.;；\n\d]{0,12}?)?$",
                                  text[max(0, m.start() - 50):m.start()], _IC):
        return "rated"  # net-s11 ibstat: 'ibstat 看到 8 个口都是 400 Gb/sec', 'ibstat shows all 4 ports at 200 Gb/sec'
    if not is_bytes and label == "measured" and _LINK_RATES.fullmatch(m["num"]) and re.search(
            r"(?:内网|局域网|网络|(?:机器|节点|服务器)(?:之)?间的?|(?<![A-Za-z])(?:network|internal network|LAN|interconnect|"
            r"inter-?node))\s*(?:的)?\s*(?:带宽|bandwidth)\s*(?:是|为|:|：|is|of)?\s*$", text[max(0, m.start() - 24):m.start()], _IC) \
            and not _MEASURING.search(text, tx.clause_bounds(text, m.start())[0], m.start() - 2) \
            and not _CLOUD_SAID.search(tx.sentence(text, m.start())):
        return "rated"  # net-s11 network's bandwidth: '内网带宽 10Gbps', 'network bandwidth is 25 Gbps': a link rate, no test's
    if re.search(r"(?<![A-Za-z])(?-i:Rate)\s*[:：]\s*$", text[max(0, m.start() - 8):m.start()]):
        return "rated"  # rr-s10 ibstat Rate: 'ibstat 显示 Rate: 100 Gb/sec (4X EDR)' is the port's negotiated rate
    if re.search(r"ethtool[^，,。;；\n]{0,24}$|(?<![A-Za-z])Speed\s*(?:是|为|:|：|=|is)?\s*$", text[max(0, m.start() - 30):m.start()],
                 _IC) and not re.search(r"iperf|ib_\w+_bw|perftest|nccl|busbw|algbw|测|measur|\d", text[max(0, m.start() - 30):m.start()]
                                        .rsplit("ethtool", 1)[-1], _IC):
        return "rated"  # 'ethtool 显示 Speed 是 25000Mb/s': ethtool's figure before it, the link's negotiated speed
    if re.search(r"(?:^|\s)--?[A-Za-z][\w-]*(?:\s*=\s*|\s+)$", text[max(0, m.start() - 24):m.start()]):
        return None  # 'all_reduce_perf -b 8 -e 8G': a command's argument (a message size), not a rate
    if not is_bytes and re.match(r"\s*of\s+(?:(?:inter-?node|cross-node|node-to-node|network|interconnect|RDMA|IB)?\s*"
                                 r"(?:bandwidth|connectivity)|(?:network(?:ing)?|interconnect|InfiniBand|IB|RoCE|Ethernet)"  # net-s11
                                 r"(?![A-Za-z]))", tail + text[m.end() + 16:m.end() + 30], _IC) and \
            re.search(r"(?:with|have|has|having|provides?|offers?)\s*(?:only\s*|about\s*|~\s*)?$",
                      text[max(0, m.start() - 20):m.start()], _IC):
        return "rated"  # 'nodes with 340Gbps of internode bandwidth': what the fabric provides
    if not is_bytes and unit in {"G", "Gb"} and _LINK_RATES.fullmatch(m["num"]) and _FABRIC_JUST_BEFORE.search(
            text, max(0, m.start() - 14), m.start()):
        return "rated"  # s11 fabric first: '96 Gb/s on HDR 200G', 'IB 200G': the fabric named, then its rate
    if re.search(r"(?:RoCE(?:v2)?|IB|InfiniBand|EFA|以太网|[Ee]thernet|网卡|网络|网口|端口|网|NICs?|ports?|"
                 r"(?<![A-Za-z])(?:network|fabric|interconnect|links?|uplinks?))\s*"
                 r"(?:是|为|都是|:|：|（|\(|(?<=[A-Za-z])\s+(?:is|are|was|were|runs? at|at)(?=\s))?\s*$",
                 text[max(0, m.start() - 16):m.start()]) and label in {None, "rated"}:
        return "rated"
    if re.search(rf"(?:{_NAS}|{_OBJECT}|存储|storage|磁盘|disks?)\s*(?:的)?\s*(?:读|read)?\s*(?:带宽|bandwidth|throughput|吞吐|速度|速率|speed)"
                 r"[^，,。;；\d]{0,10}$", text[max(0, m.start() - 40):m.start()], _IC):
        return "storage"  # 'NAS 带宽只有 1Gbps': the storage's bandwidth, not the network's
    if unit in {"G", "Gb"} and label in {None, "busbw"} and _LINK_RATES.fullmatch(m["num"]) and not _FROM_TO.search(
            text, max(0, m.start() - 24), m.start()) and (_ON_A_LINK.search(text[max(0, m.start() - 12):m.start()]) or re.search(r"(?:rails?|links?|ports?|NICs?|HCAs?|cards?|lanes?)\s+(?:of|at|@)\s*$",
                                                                   text[max(0, m.start() - 12):m.start()], _IC)) \
            and not _NIC_AFTER.match(tail):
        return "rated"  # '换成 100G 之后 busbw 也就 9GB/s': the link moved to, not an all-reduce's figure
    if is_bytes and label == "measured" and re.search(r"(?:带宽|bandwidth|throughput|吞吐)\s*(?:是|为|有|of|is|:|：)?\s*"
                                                      r"(?:约|大约|大概|about|around|~)?\s*$", text[max(0, m.start() - 16):m.start()],
                                                      _IC) and not _A_TOOL.search(tx.sentence(text, m.start())):
        said = list(_RATE_CUES["storage"].finditer(text, max(tx.sentence_bounds(text, m.start())[0], m.start() - 30), m.start()))
        if said and not _NETWORK_SAID.search(text, said[-1].end(), m.start()):
            return "storage"  # net-s11 storage's bandwidth: '存储是 CPFS，带宽 20GB/s': the storage named, then its rate
    if not is_bytes and label == "measured" and (named := list(_BUSBW_NAMED.finditer(
            text, tx.sentence_bounds(text, m.start())[0], m.start()))) and not re.search(
            r"iperf|ib_\w+_bw|perftest|storage|NFS|S3|disk|磁盘|存储|网卡|NIC|link", text[named[-1].end():m.start()], _IC) \
            and not (_NIC_AFTER.match(tail) and re.search(r"(?<![A-Za-z])(?:on|over|via|across|through|with)\s+(?:an?\s+|the\s+|"
                                                          r"our\s+)?$|(?:用|走|通过)\s*$", text[max(0, m.start() - 12):m.start()], _IC)):
        # (nccl-cmp s13 '… bus bandwidth 3.5GB/s between two nodes over 100G RoCE': the link it ran over, after the figure)
        return "busbw"  # 'busbw 从 25G 掉到了 10G': the benchmark's figure named, then what it fell to
    if is_bytes:
        if label is None and tx.nearest_cue(text, m.start(), m.end(), {"storage": _RATE_CUES["storage"]}, window=40,
                                            scope="sentence") and not _NCCL_TESTS_TOPIC.search(tx.sentence(text, m.start())):
            return "storage"  # '数据从 OSS 读，大约 500MB/s': a byte rate in a sentence about reading data
        if label == "measured" and tx.nearest_cue(text, m.start(), m.end(), {"storage": _RATE_CUES["storage"]}, window=40,
                                                  scope="sentence") and not _A_TOOL.search(tx.sentence(text, m.start())) \
                and not _NETWORK_SAID.search(tx.sentence(text, m.start())) and not _CKPT.search(tx.clause(text, m.start())) \
                and not re.search(r"(?<![A-Za-z])(?:cp|rsync|scp|copy|copying|copied)(?![A-Za-z])|拷|复制",
                                  tx.sentence(text, m.start()), _IC):
            return "storage"  # st-s11 'Lustre gives 2 GB/s aggregate read throughput', 'fio on the NFS mount shows 300 MB/s'
        if label == "measured" and _COPY_FROM_STORAGE.search(tx.sentence(text, m.start())) \
                and not _NETWORK_SAID.search(tx.sentence(text, m.start())):
            return "storage"  # s21 '同一个 bucket 直接 aws s3 cp 拷到 ramdisk 能到 10GB/s': a copy out of storage reads it
        if re.search(r"(?:[EHNXFQ]DR\d*)\s*$", text[max(0, m.start() - 8):m.start()]):
            return None  # '4xEDR 100GBps': the generation is the rating; the figure beside it is a slip of the unit
        if label in {None, "measured"} and re.match(r"\s*(?:of\s+)?(?:NCCL\s+)?(?:all[-_ ]?reduce\s+(?:bandwidth|bw|throughput)|busbw|"
                                                   r"bus ?(?:bandwidth|bw))(?![A-Za-z])", text[m.end():m.end() + 30], _IC):
            return "busbw"  # rr-s10 named after: 'benchmark shows 48 GB/s all-reduce bandwidth', '12 GB/s busbw'
        if label in {None, "rated", "measured"} and _CKPT.search(tx.clause(text, m.start())) \
                and not _A_TOOL.search(tx.clause(text, m.start())):
            return None  # s11 checkpoint: 'checkpoint 写入只有 1GB/s' is how fast a checkpoint is written, no test's figure
        if label is None and _NCCL_TESTS_TOPIC.search(text):
            return "busbw"  # 'nccl-tests on two nodes … yet I get 41.55 GB/s': the question is about that tool's figure
        if label == "measured" and _RATE_CUES["busbw"].search(tx.before(text, m.start(), 40)):
            return "busbw"  # '两节点 all_reduce 从 180GB/s 掉到 10GB/s': a measuring verb, an all-reduce's figure
        named = list(_RATE_CUES["busbw"].finditer(text, tx.sentence_bounds(text, m.start())[0], m.start()))
        if label == "measured" and named and not re.search(r"iperf|ib_\w+_bw|perftest|storage|NFS|S3|disk|磁盘|存储",
                                                           text[named[-1].end():m.start()], _IC):
            return "busbw"  # 'NCCL all-reduce bandwidth of 20 GB/s on one node but only 1.5 GB/s across two': the same
        if label in {None, "rated"}:
            return "none?"  # s11 goes on: '之前 busbw 有 20GB/s，升级之后只有 5GB/s': a measurement said before may name it
        return label if label in {"busbw", "storage", "measured", "traffic"} else None
    if _NIC_AFTER.match(tail) and label not in {"measured", "instance", "traffic"}:
        return "rated"
    if unit in {"G", "Gb"} and m["num"] in {"10", "25", "50", "100", "200", "400", "800"} and label not in {
            "measured", "instance", "traffic"} and re.match(r"\s*(?:的)?\s*(?:单口|双口|单端口|双端口)?卡(?!顿)", tail):
        return "rated"  # '100G 的卡': a card rated in Gb/s is a NIC (a GPU's '24G 的卡', '80G 的卡' is its memory)
    if _NIC_AFTER.match(tail):
        # '25G NIC, iperf3 shows …': the NIC word right after the number is the better cue; so is 'on the 25G link'
        if not re.search(r"iperf|实测|测", tx.before(text, m.start(), 20), _IC) or re.search(
                r"(?:on|over|across|via|through|of|用|在)\s+(?:the\s+|a\s+|an\s+|our\s+|this\s+|each\s+|their\s+)?$",
                text[max(0, m.start() - 12):m.start()], _IC):
            return "rated"
    if unit in {"G", "M", "Gb", "Mb"} and label is None and not _NIC_AFTER.match(tail):
        # '8 nodes on 25G', 'moved to 100G': a standard link rate after 'on/over/to' is the network's
        if unit not in {"M", "Mb"} and _LINK_RATES.fullmatch(m["num"]) and _ON_A_LINK.search(text[max(0, m.start() - 12):m.start()]):
            return "rated"
        if unit not in {"M", "Mb"} and _LINK_RATES.fullmatch(m["num"]) and re.search(
                r"(?<![A-Za-z])(?:upgrad\w*|mov\w*|switch\w*|go(?:ing)?|chang\w*)\s+from\s*$", text[max(0, m.start() - 24):m.start()],
                _IC):
            return "rated"  # s11 upgrade from: 'upgrading from 25G to 100G': the link of today, the one moved from
        if unit not in {"M", "Mb"} and _LINK_RATES.fullmatch(m["num"]) and _NOW_RATE.search(text[max(0, m.start() - 12):m.start()]) \
                and _NETWORK_SAID.search(tx.sentence(text, m.start())) and not _NOT_NETWORK.search(tx.clause(text, m.start())):
            return "rated"
        if unit not in {"M", "Mb"} and _LINK_RATES.fullmatch(m["num"]) and re.search(r"·{3,}\s*[,，]?\s*$",  # net-s11 comma
                                                                                 text[max(0, m.start() - 8):m.start()]):
            return "rated"  # '每台 4 张 CX6 200G': a NIC named by its model (masked), then its rate
        if unit not in {"M", "Mb"} and _ANY_LINK_RATE.fullmatch(m["num"]) and _network_named_before(text, m.start()) \
                and not re.match(r"\s*(?:的)?\s*(?:显存|内存|存储|磁盘|硬盘|文件|模型|数据|memory|VRAM|HBM|RAM|disk|storage|"
                                 r"GPU|卡|cards?|file|model|data)", tail, _IC):
            return "rated"  # 'the network between the machines is 20G': the network named, then what it is
        if unit not in {"M", "Mb"} and _LINK_RATES.fullmatch(m["num"]) and re.search(
                r"(?:\d+|[一两二三四五六七八]|每|单)\s*(?:张|块|个|根|条|路)\s*(?:都是|是|为)?\s*$", text[max(0, m.start() - 8):m.start()]) \
                and _NETWORK_SAID.search(text, max(tx.sentence_bounds(text, m.start())[0], m.start() - 30), m.start()) \
                and not _NOT_NETWORK.search(text, max(0, m.start() - 8), m.end() + 4):
            return "rated"  # zh-s10 cards: 'IB 是 4 张 200G 的', 'IB 网卡 4 张，每张 200G': that many cards of that rate
        if unit not in {"M", "Mb"} and _LINK_RATES.fullmatch(m["num"]) and _BACK_TO_THE_NICS.search(
                text, max(0, m.start() - 32), m.start()) and _NICS_NAMED.search(
                text, max(tx.sentence_bounds(text, m.start())[0], m.start() - 80), m.start()):
            return "rated"  # 'Each node has 8 RoCE NICs, all of which are 100Gb', '4 NICs per node, each is 200Gb'
        if _measured_clause_before(text, m.start()):
            return "measured"  # zh-s10 measured before: '用 iperf 测了一下，两台机器之间只有 3Gb/s'
        return "none?"  # nothing says what it is; a measurement said just before may (network_rates decides)
    if re.match(r"[GMT]bits?/sec", unit) and label in {None, "rated"}:
        # iperf's own unit: a measurement when iperf is named anywhere in the question
        return "measured" if re.search(r"iperf|sender|receiver", text, _IC) else "rated"
    if label in {"busbw", "storage"}:
        return label
    if label is None and not _NIC_AFTER.match(tail) and _measured_clause_before(text, m.start()):
        return "measured"  # zh-s10 measured before: 'ran iperf3 between the nodes, only 3 Gb/s'
    return label or "rated?"  # a link rate unless a measurement said just before names it (network_rates decides)


# s14 a card's bandwidth said as what it is ('the bandwidth of each ib card is 56G', 'the speed of the HCA is 200G')
_CARD_BANDWIDTH = re.compile(r"(?<![A-Za-z])(?:bandwidth|speed|rate)\s+of\s+(?:each|every|the|one|a|our)?\s*(?:[\w-]+\s+){0,2}?"
                             r"(?:cards?|NICs?|HCAs?|adapters?|ports?)\s*(?:is|are|:|=)\s*$", _IC)


# zh-s10 measured before: a test named in the clause before a bare rate ('用 iperf 测了一下，两台机器之间只有 3Gb/s',
# 'ran iperf3 between the nodes, only 3 Gb/s'), nothing between but words: the test's figure
_TEST_NAMED = re.compile(r"iperf3?|ib_(?:write|read|send)_bw|perftest|实测|测出|测得|测了|测试了?一下|测一下|测下来|"
                         r"(?<![A-Za-z])(?:measured|tested|ran)(?![A-Za-z])", _IC)


def _measured_clause_before(text: str, pos: int) -> bool:
    a = max(tx.sentence_bounds(text, pos)[0], pos - 36)
    named = list(_TEST_NAMED.finditer(text, a, pos))
    if not named:
        return False
    gap = text[named[-1].end():pos]
    return not (re.search(r"\d", gap) or _NOT_NETWORK.search(gap) or _RATE_CUES["busbw"].search(gap)
                or _RATE_CUES["storage"].search(gap) or _RATE_CUES["rated"].search(gap) or re.search(r"[。.;；?？]", gap))


# rr-s10 NCCL's port: NCCL said to run over a port named just before the figure in brackets, or the port said used by it
_NCCL_ON_PORT = re.compile(r"(?<![\w-])NCCL(?![\w-])\s*(?:(?:is|was|still|now|always|only|just|actually|then)\s+)*"
                           r"(?:uses?|using|used|picks?|picked|picking|chooses|chose|chosen|choosing|selects?|selected|"
                           r"selecting|goes (?:over|through)|went (?:over|through)|runs? (?:over|on)|ran (?:over|on)|"
                           r"binds? to|bound to|falls? back to|fell back to|"
                           r"走(?:的)?(?:是)?|用(?:的)?(?:是)?|选(?:的|了)?(?:是)?|绑(?:定)?(?:的|了|到)?(?:是)?|跑在)\s*"
                           r"(?:(?:the|an?|its|our)\s+)?·{2,}\s*[(（]\s*$", _IC)
_USED_BY_NCCL = re.compile(r"\s*[)）]\s*(?:interface|NIC|port|网卡|网口|接口)?\s*(?:is|was|gets|got)\s+(?:used|picked|chosen|"
                           r"selected)\s+by\s+NCCL(?![\w-])|\s*[)）]\s*(?:被\s*)?NCCL\s*(?:用|选|走)", _IC)


# rr-s10 bought: what was bought or specified is the NIC's rating, not the rate its link came up at
_BOUGHT = re.compile(r"买的(?:是|都是)?|采购的?(?:是)?|购买的?(?:是)?|订的(?:是)?|配的是|规格(?:是|为)?|"
                     r"(?<![A-Za-z])(?:bought|purchased|paid for|ordered|spec(?:'d|ced)|specified|sold (?:us|as)|"
                     r"datasheet|data sheet|spec ?sheet|advertised|promised)(?![A-Za-z])",
                     _IC)


def _in_bytes(text: str, m: re.Match[str]) -> bool:
    """A rate in bytes: 'GB/s', 'MBytes/sec', and a bare G with the word after it ('7G Byte'); a bare 'GB' before a
    NIC's word is bits ('100GB NICs')."""
    unit = m["unit"]
    return bool(re.match(r"[GM]B|[GM]/s", unit)) and unit != "GB" or unit in {"G", "M"} and bool(
        re.match(r"\s?Bytes?(?![A-Za-z])", text[m.end():m.end() + 7], _IC))


def _plain_gbps(text: str, m: re.Match[str]) -> float | None:
    """A rate's figure in Gb/s as written, its range's low end and no count before it: enough to tell two ways of
    writing one quantity apart from two quantities."""
    value = parse_number(m["num"])
    if value is None or value <= 0:
        return None
    unit = m["unit"]
    prefix = "T" if unit.lower().startswith("t") else "G" if re.match(r"G|gb|Gig", unit, _IC) else unit[0]
    return rate_to_gbps(value, prefix, _in_bytes(text, m))


@extractor
def network_rates(text: str) -> list[Understood]:
    """'10GbE', '25G网卡', '400G IB', 'iperf3 shows 3.2 Gbits/sec', '带宽大约 1Gbps', 'busbw 2 GB/s', ….

    A rated NIC speed (nic.speed_gbps) and a measured throughput (net.iperf3_gbps) are told apart by
    the nearest cue: 'iperf3', '测', 'shows', 'bandwidth' mean measured; 'NIC', '网卡', 'GbE' mean rated.
    """
    hits = []
    rates = list(_RATE.finditer(text))
    # a management port beside another link is not the training NIC ('2x100G + 1x1G management'); alone, it is the
    # link there is ('两台机器只有一个 1G 管理口相连')
    other_link = any(not _management_port(text, r.start(), r.end()) for r in rates)
    said: list[tuple[Understood, str, bool]] = []  # measurements with a unit: the hit, its prefix, bytes or bits
    pairs = restated_rates(text, [Rate(m.start(), m.end(), g, int(m["mult"]) if m["mult"] else None)
                                  for m in rates if (g := _plain_gbps(text, m)) is not None])
    for m in rates:
        value = parse_number(m["num"])
        if value is None or value <= 0 or m.start() in pairs.dropped:
            continue  # (a rate restated beside another way of writing it: read once, at the other)
        if m.start() in pairs.splits and not _in_bytes(text, m):
            n, each, a, b = pairs.splits[m.start()]  # 'EFA 400 Gbps (4 × 100)': four NICs of 100G, no 400G link
            hits += [_hit_span("nic.count", n, text, m.start(), b), _hit_span("nic.speed_gbps", each, text, a, b)]
            continue
        others = [r for r in rates if r is not m and abs(r.start() - m.start()) <= 60]
        cue_text = text
        for r in others:
            cue_text = cue_text[:r.start()] + " " * (r.end() - r.start()) + cue_text[r.end():]
        kind = "rated" if m.start() in pairs.breakdowns else _rate_kind(text, m, cue_text)  # '1.6T（8×200G）': NICs
        if kind == "busbw" and _PCIE_BUS.search(text, max(tx.sentence_bounds(text, m.start())[0], m.start() - 48),
                                                m.start()):
            continue  # 'the PCIe bus bandwidth is 12 GB/s', 'PCIe 总线带宽是 25GB/s': the GPU's bus, no nccl-tests figure
        if kind in {"measured", "rated?", "none?", "traffic"} and _INSIDE_THE_MACHINE.search(
                text, max(text.rfind("\n", 0, m.start()) + 1, tx.sentence_bounds(text, m.start())[0], m.start() - 48),
                m.start()) and not re.search(r"busbw|algbw|all[_-]?reduce|nccl|NVLS|SHARP",
                                             text[max(text.rfind("\n", 0, m.start()) + 1, m.start() - 40):
                                                  m.end() + 12], _IC):
            continue  # 'NVLink 带宽是 400GB/s', 'PCIe bandwidth is 25 GB/s': a bus inside the machine, no network figure
        sibling = None
        if kind in {"measured", "rated?", "none?"} and rating_in_brackets(text, m.start(), m.end()):
            kind = "rated"
        if kind in {"rated?", "none?"}:
            sibling = _sibling_measurement(text, m.start(), said)
            kind = sibling[0].fact if sibling else "rated" if kind == "rated?" else None
            kind = {"net.iperf3_gbps": "measured", "nccl.allreduce_busbw_gbytes_per_s": "busbw",
                    "nic.rx_gbps": "traffic"}.get(kind or "", kind)
        if kind is None:
            continue
        if kind == "rated" and _storage_port(text, m.start()):
            kind = "storage"  # 'the NAS has a single 10GbE uplink': the storage server's port, not the nodes' NIC
        if kind == "rated" and other_link and _management_port(text, m.start(), m.end()):
            continue  # 'NICs: 2x100G + 1x1G management': the management port carries no training traffic
        if m["hi"]:
            if kind == "rated" or re.search(r"(?:从|from)\s*$", text[max(0, m.start() - 6):m.start()], _IC):
                value = parse_number(m["hi"])  # '从 20 到 6GB/s' is a change, not a range; a rating is its top
            else:
                value = parse_range_mid(m["num"], m["hi"])
            if value is None or value <= 0:
                continue
        unit = m["unit"]
        prefix = "G" if re.match(r"G|gb|Gig", unit, _IC) and not unit.startswith(("M", "m")) else unit[0]
        if unit.lower().startswith("t"):
            prefix = "T"
        is_bytes = _in_bytes(text, m)
        gbps = rate_to_gbps(value, prefix, is_bytes)
        after = _MULT_AFTER.match(text, m.end()) if not m["mult"] and kind == "rated" else None
        if m["mult"] and kind == "rated":
            # '8x400G IB': eight rails of 400G; the engine multiplies by nic.count where rails matter.
            hits.append(_hit("nic.count", int(m["mult"]), m))
        elif after and not is_bytes:
            hits.append(_hit_span("nic.count", int(after["n"]), text, m.start(), after.end()))  # '25G*2 bond'
        elif kind == "rated" and not is_bytes and (named := _MULT_BEFORE_NAME.search(text, max(0, m.start() - 32),
                                                                                     m.start())):
            # en-s12b '8x ConnectX-7 400G', '2x ConnectX-6 200Gb': the count, then the card named
            hits.append(_hit_span("nic.count", int(named["n"]), text, named.start(), m.end()))

        elif m["mult"]:
            gbps *= int(m["mult"])
        bought = _BOUGHT.search(text, max(tx.clause_bounds(text, m.start())[0], m.start() - 24), m.start()) \
            if kind == "rated" else None
        if bought:
            # rr-s10 bought: '买的是 HDR 200G 的卡', 'we paid for 200G NICs': the rating, the link's rate only until told
            # (said at the cue's place: a link speed on the rating's own number is dropped as a reading of it)
            hits.append(_hit("nic.max_speed_gbps", gbps, m))
            hits.append(_hit("nic.speed_gbps", gbps, bought, weak=True))
        elif kind == "rated":
            if not _node_aggregate(gbps, rails_said=bool(m["mult"])):
                hits.append(_hit("nic.speed_gbps", gbps, m))
            for nic_kind, pattern in _KIND_AFTER.items():
                k = pattern.match(text, m.end())
                if k:
                    hits.extend(_nic_kind_facts(nic_kind, text, m.start(), k.end()))
        elif kind == "measured":
            hits.append(_hit("net.iperf3_gbps", gbps, m))
            said.append((hits[-1], prefix, is_bytes))
            # (the tool may be named in the clause before: 'iperf3 测了一下，大概 9.41 Gbits/sec' is its result only)
            if not is_bytes and not _MEASURING.search(tx.clause(text, m.start())) \
                    and not _MEASURING.search(text, tx.sentence_bounds(text, m.start())[0], m.start()) and sibling is None \
                    and not SHARE_OF_THE_RATE.match(text, m.end()):  # s11 share of the rate: short of the link, not it
                # 'the bandwidth between the machines is 1 Gbps': a link speed as much as a measurement
                hits.append(_hit("nic.speed_gbps", gbps, m, weak=True))
        elif kind == "instance":
            hits.append(_hit("node.instance_bandwidth_gbps", gbps, m))
        elif kind == "traffic":
            # '接收峰值 4.4Gbps', 'tx 3 Gb/s': one direction named is that direction's; none or both ('rx/tx 3.8Gbps'), both
            cue = tx.before(text, m.start(), 16)
            ways = {"nic.rx_gbps": bool(_RX_WORD.search(cue)), "nic.tx_gbps": bool(_TX_WORD.search(cue))}
            first = len(hits)
            hits += [_hit(fact, gbps, m) for fact, named in ways.items() if named or not any(ways.values())]
            said.append((hits[first], prefix, is_bytes))
        elif kind == "busbw":
            if _OTHER_COLLECTIVE.search(text, max(0, m.start() - 160), m.start()):
                continue  # 'ran all_gather_perf …: Avg bus bandwidth 33.3', 'alltoall 实测 36.83 GB/s busbw'
            # 'busbw is only 10G': nccl-tests prints GB/s, so a bare G said of its figure is GB/s
            gbytes = value * (int(m["mult"]) if m["mult"] else 1) if unit == "G" else gbps / 8
            hits.append(_hit("nccl.allreduce_busbw_gbytes_per_s", round(gbytes, 6), m))
            said.append((hits[-1], prefix, is_bytes or unit == "G"))
        elif kind == "storage":
            hits.append(_hit("storage.read_gbps", gbps, m))
    hits.extend(_bare_after_sibling(text, said, hits))
    iperf = [(h, _streams_of(text, h)) for h in hits if h.fact == "net.iperf3_gbps"]
    if any(kind == "many" for _, kind in iperf) and any(kind == "one" for _, kind in iperf):
        hits = [h for h in hits if not (h.fact == "net.iperf3_gbps" and _streams_of(text, h) == "one")]
    for m in re.finditer(r"(?<![千万])百兆(?:的)?(?P<net>网|网络|网卡|网口|以太网|交换机|局域网|口)?", text):
        if m["net"] or re.search(r"网络|网卡|网口|以太网|交换机|局域网", tx.sentence(text, m.start())):
            hits.append(_hit("nic.speed_gbps", 0.1, m))  # zh-s10 百兆: Fast Ethernet, 100 Mb/s
    for m in re.finditer(r"(?P<dual>双|两个|2\s*[x×*]\s*)?(?P<w>千兆|万兆|(?<![A-Za-z0-9-])(?:ten[- ])?gigabit(?=\s*(?:ethernet|"
                         r"links?|networks?|NICs?|switch|ports?|LAN|interfaces?|connection))|(?<![A-Za-z0-9-])(?:ten[- ])?gigE(?![A-Za-z]))",
                         text, _IC):
        if re.search(r"\d\s*-?\s*$", text[max(0, m.start() - 4):m.start()]):
            continue  # '10 GigE', '40 gigabit ethernet': the number's rate (read above)
        gbps = 1 if m["w"] == "千兆" or m["w"].lower().startswith("gig") else 10
        if other_link and _management_port(text, m.start(), m.end()):
            continue  # '另外一个千兆管理口': the management port's rate, beside the training NIC's
        if _storage_port(text, m.start()):
            hits.append(_hit("storage.read_gbps", gbps * (2 if m["dual"] else 1), m))
            continue  # 'NFS 服务器只有一个万兆口': the storage server's port caps the reads, not the nodes' NIC
        hits.append(_hit("nic.speed_gbps", gbps * (2 if m["dual"] else 1), m))
    for m in re.finditer(r"(?:(?<=\d[xX])|(?<![A-Za-z]))(?P<gen>EDR|HDR100|HDR|NDR200|NDR|XDR)"
                         r"(?P<glued>(?<=EDR)100|(?<=HDR)200|(?<=NDR)400|(?<=XDR)800)?(?![A-Za-z0-9])", text):
        if m["glued"]:  # net-s11 'NDR400', 'HDR200': the generation written with its rate, that rate said
            hits.append(_hit("nic.speed_gbps", float(m["glued"]), m))
            continue
        if not any(h.fact == "nic.speed_gbps" and abs(h.end - m.start()) <= 3 for h in hits):
            speed = {"EDR": 100, "HDR100": 100, "HDR": 200, "NDR200": 200, "NDR": 400, "XDR": 800}[m["gen"]]
            hits.append(_hit("nic.speed_gbps", speed, m, weak=True))
            hits.append(_hit("nic.max_speed_gbps", speed, m, weak=True))  # the generation's rating
    return _switch_against_nic(text, hits)


# a management (out-of-band) port named right after or before a rate ('1x1G management', '一个千兆管理口', 'the BMC port is
# 1G', 'mgmt: 1GbE'): not the NIC the training runs over
_MGMT = r"(?:management|mgmt|管理|BMC|IPMI|iDRAC|iLO|带外|OOB)"
_MGMT_AFTER = re.compile(rf"\s*(?:的)?\s*(?:(?:ethernet|Ethernet|以太网|NICs?|ports?|网口|网卡|RJ-?45|电口)\s*)?[(（]?\s*{_MGMT}", _IC)
_MGMT_BEFORE = re.compile(rf"{_MGMT}\s*(?:网口|网卡|口|网络|网|ports?|NICs?|networks?|interfaces?|LAN)?\s*(?:is|are|:|：|为|是|用的是|用)?"
                          r"\s*(?:only\s+|just\s+|a\s+|an\s+|one\s+|一个\s*|只有\s*)*$", _IC)


# s14 a NIC given another job than training after its noun ('a 25G ethernet NIC for storage', '一张千兆网卡做管理',
# '25G 网卡用于存储'): beside the training link, it is not the NIC the gradients cross
_OTHER_ROLE = r"(?:management|mgmt|storage|NFS|Lustre|Ceph|GPFS|the (?:frontend|front-end|login|internet)|管理|存储|业务|前端|外网|带外)"
_ROLE_AFTER = re.compile(r"\s*(?:的)?\s*(?:(?:ethernet|Ethernet|以太网|RoCE)\s*)?(?:NICs?|ports?|cards?|interfaces?|links?|网卡|网口|口|网络)"
                         rf"\s*(?:(?:is |are )?(?:only |just )?(?:used |dedicated )?(?:for|to)|用于|用来|专门用于|专门做|做|作为|给|跑|走)\s*"
                         rf"(?:the )?{_OTHER_ROLE}", _IC)


def _management_port(text: str, start: int, end: int) -> bool:
    return bool(_MGMT_AFTER.match(text, end) or _MGMT_BEFORE.search(text, max(0, start - 30), start)
                or _ROLE_AFTER.match(text, end))


_SWITCH_WORD = re.compile(r"交换机|(?<![A-Za-z])switch(?:es)?(?![A-Za-z])", _IC)
_NIC_WORD = re.compile(r"网卡|(?<![A-Za-z])(?:NICs?|HCAs?|adapters?)(?![A-Za-z])", _IC)


# a rate whose noun is a switch: '100G switch', '100G 的交换机', 'the switch is 100G', '交换机是 100G 的'
_SWITCH_AFTER = re.compile(r"\s*(?:的\s*)?(?:(?:ethernet|Ethernet|以太网|IB|InfiniBand|RoCE|ToR|leaf|spine|core)\s*)?"
                           r"(?:交换机|switch(?:es)?(?![A-Za-z]))", _IC)
_SWITCH_BEFORE = re.compile(r"(?:交换机|(?<![A-Za-z])switch(?:es)?)\s*(?:(?:的\s*)?(?:ports?|端口|口)\s*)?"
                            r"(?:is|are|was|:|：|是|为|用的是|只有|只支持|仅支持|最高|(?:only\s+)?(?:supports?|runs?(?: at)?|"
                            r"handles?|does))?\s*(?:an?\s+|only\s+|just\s+|都是\s*|up to\s+)?$", _IC)


def _rate_of_a_switch(text: str, h: Understood) -> bool:
    return bool(_SWITCH_AFTER.match(text, h.end) or _SWITCH_BEFORE.search(text, max(0, h.start - 24), h.start))


def _switch_against_nic(text: str, hits: list[Understood]) -> list[Understood]:
    """zh-s12b a switch's rate said beside the NICs' ('交换机是千兆的，网卡是万兆的', 'the switch is 100G but the NICs are
    25G'): a link runs at the slower end, so a slower switch is the link's rate (the NICs' their rating) and a faster
    one is none of the link's."""
    speeds = [h for h in hits if h.fact == "nic.speed_gbps" and not h.weak]

    def names(h: Understood, word: re.Pattern[str]) -> bool:
        return bool(word.search(tx.clause(text, h.start)))

    # a rate written against the switch's own noun ('a 10G switch', 'the switch port is 40G') is the switch's even in a
    # clause that names the NICs too ('25G NICs connected to a 10G switch'); the clause's other rates are the NICs'
    own = [h for h in speeds if _rate_of_a_switch(text, h)]
    switch = [h for h in speeds if any(h is o for o in own) or names(h, _SWITCH_WORD) and not names(h, _NIC_WORD)]
    nics = [h for h in speeds if not any(h is w for w in switch) and names(h, _NIC_WORD)
            and (own or not names(h, _SWITCH_WORD))]
    if not nics and own:
        # s14 '4 NICs, 100G switch', '每台 2 张网卡，接 100G 交换机': the NICs named without a rate of their own; the
        # switch's rate only caps the link (its ports may run faster than the NICs), so it is not the NICs' rate
        # (a switch's rate with no NIC named, '千兆交换机连的三台服务器', stays the network's)
        if _NIC_WORD.search(text) and all(h.value > 1 for h in own):  # a 1G switch caps any server's NIC
            return [h for h in hits if not any(h is o for o in own)]
    if len(switch) != 1 or not nics or tx.sentence_bounds(text, switch[0].start) != tx.sentence_bounds(text, nics[0].start):
        return hits
    sw = switch[0]
    if all(sw.value >= n.value for n in nics):
        return [h for h in hits if h is not sw]
    if all(sw.value < n.value for n in nics):
        out = [h for h in hits if not any(h is n for n in nics)]
        return out + [Understood("nic.max_speed_gbps", n.value, n.text, n.start, n.end, n.source) for n in nics]
    return hits


# s12 NET/IB in words: what NCCL should use, is expected to, or does not ('instead of NET/IB', '而不是 NET/IB')
_NOT_IN_USE_BEFORE = re.compile(r"(?:instead of|rather than|而不是|不是|没有|没走|不走|(?<![A-Za-z])(?:not|no|without|expected?|"
                                r"expecting|should(?: be)?|want(?:ed)?|wish|hoped?|supposed to(?: be)?|how (?:to|do i|can i)|"
                                r"why)|希望|应该|期望|预期|如何|怎么|怎样)\s*(?:NCCL\s*)?(?:to\s+)?(?:use\s+|see\s+|get\s+|be\s+|走|用|是)?(?:on\s+|over\s+)?"
                                r"(?:the\s+)?\s*$", _IC)


# Another collective's bus bandwidth named last before a figure: not the all-reduce's.
_OTHER_COLLECTIVE = re.compile(r"(?<![A-Za-z])(?:all[_-]?gather|all[_-]?to[_-]?all|reduce[_-]?scatter|broadcast|sendrecv|"
                               r"(?<!all_)reduce_perf|gather_perf|scatter_perf|hypercube)\w*(?:(?!all[_-]?reduce)[^\n]){0,60}"
                               r"(?:\n[^\n]{0,80})?$", _IC)


# PCIe's own bus named before a rate ('PCIe bus bw', 'PCIe 的总线带宽'): 'bus bandwidth' there is no nccl-tests column
_PCIE_BUS = re.compile(r"(?<![A-Za-z])PCI-?e\s*(?:Gen\s*\d\s*)?(?:x\s*\d{1,2}\s*)?(?:的\s*)?(?:bus|总线)"
                       r"(?:(?!busbw|nccl|all[-_ ]?reduce)[^.;。；\n]){0,30}$", _IC)


# A bus inside one machine named just before a rate, with no network word between: NVLink, NVSwitch, PCIe, P2P, memory.
_INSIDE_THE_MACHINE = re.compile(r"(?<![A-Za-z])(?:NVLink|NVSwitch|HBM|p2pBandwidth\w*|PCIe|PCI-E|"
                                 r"memory bandwidth|显存带宽|内存带宽)(?![A-Za-z])"
                                 r"(?:(?!网卡|NIC|network|网络|iperf|IB\b|RoCE|InfiniBand|ethernet|以太|跨机|跨节点|机间|"
                                 r"节点间|inter-?node|nodes|machines|hosts|servers|RDMA|EFA|TCP|ib_\w+_bw|ConnectX|CX-?\d|"
                                 r"mlx|HCA|网口|ports?|adapter|Mellanox|Intel|Broadcom|E810|X710|BlueField)[^.;。；\n]){0,40}$",
                                 _IC)


# A figure said without its unit, after the tool or the column that printed it ('iperf3 gives 23', 'algbw 12 busbw 22',
# 'nccl-tests 只有 45', 'ib_write_bw 只有 200') or before it ('measured 9.3 with iperf'): the tool's own unit — iperf3
# prints Gbits/sec (Mbits/sec when the figure is in the thousands), nccl-tests GB/s, ib_write_bw --report_gbits Gb/s
# (MB/sec in the thousands, its default).
_FIGURE_NAMES = {
    "algbw": (r"alg(?:o|orithm)?[ _]?bw|algorithm bandwidth|算法带宽", "nccl.allreduce_algbw_gbytes_per_s"),
    # 'NCCL all-reduce bandwidth of 20 GB/s', 'allreduce 带宽': what an all-reduce moved, busbw as people quote it
    "busbw": (r"bus[ _]?bw|bus ?bandwidth|总线带宽|nccl[-_ ]tests?|all_?reduce_perf|"
              r"all[-_ ]?reduce\s*(?:的\s*)?(?:bandwidth|bw|throughput|带宽|吞吐)", "nccl.allreduce_busbw_gbytes_per_s"),
    "rdma": (r"ib_(?:write|read|send)_bw|perftest", "net.rdma_bw_gbps"),
    "iperf": (r"iperf3?", "net.iperf3_gbps"),
}
_FIGURE_NAME = re.compile("|".join(f"(?P<{k}>{v})" for k, (v, _) in _FIGURE_NAMES.items()), _IC)
# the words that may stand between a tool's name and its figure: verbs, fillers, the column's own name
# sweep-s10 usual level: the level a tool usually shows ('busbw 一般在 350 左右') is its figure too
_FIGURE_FILLER = re.compile(
    r"\s+|的|了|也就|也|都|就|才|只能到|只有|只|仅有|仅|一直|一般|通常|平时|基本(?:上)?|大概|大约|约|差不多|在|是|为|有|能到|能|可以|到|跑出来|跑出|跑到|跑|"
    r"测出来|测下来|测得|测了一下|测试|测|实测|结果(?:是|为)?|数值|显示|达到|打到|打满|单流|多流|峰值|最高|最大|平均|稳定|"
    r"(?:the\s+)?(?:column|result|number|figure|value)s?|(?-i:I|we)\s+(?:get|got|see|saw)|"
    r"(?:usually|typically|normally|gives?|gave|shows?|showed|reports?|reported|says|said|is|was|are|were|of|around|about|roughly|only|just|got|"
    r"gets|reach(?:es|ed)?|tops? out at|topped out at|peaks? at|peaked at|maxes out at|maxed out at|at|hovers? (?:around|at)|"
    r"stuck at|stays? at|yields?|measured|measures|comes? out at|came out at|still|now|barely|~|≈|"
    # the figure it fell to: 'busbw drops to 0.5', 'busbw fell to 2.1', 'busbw 降到 3'
    r"(?:drops?|dropped|falls?|fell|goes down|went down|decreases?|decreased|degrades?|degraded)\s+to)(?![A-Za-z])|"
    r"掉到|降到|跌到|下降到|降至|掉至", _IC)
# (a Chinese word may stand glued before it, 'busbw只有3.2': only ASCII letters and digits bound it)
_BARE_NUM = r"(?<![A-Za-z0-9_.\-/])(?P<num>\d{1,6}(?:\.\d{1,4})?)(?:\s*(?:-|~|～|到)\s*(?P<hi>\d{1,6}(?:\.\d{1,4})?))?"
# between the name and its figure: a verb or a filler, no digits, no other figure's name, no end of clause
_FIGURE_GAP = r"(?P<gap>[^\d\n，,。;；:：!?！？()（）]{0,28}?)(?:[:：=]\s*)?"
# what may follow a figure whose unit is left out: the end of the clause, an approximation, a conjunction
_BARE_END = re.compile(r"\s*(?:$|[，,。;；!?！？)）—–]|-{1,2}\s|\.(?!\d)|左右|上下|多(?![少个])|出头|而已|的样子|吧|啊|了|，|"
                       r"(?:and|but|or|on|at|for|with|in|which|so|while|now|when|across|between|from|vs\.?|versus|after|"
                       r"before|then|over|max|at most|tops|peak|average|avg|each way|per direction|"
                       r"(?:with|using|in|via|from|by)\s+(?:the\s+)?(?:iperf3?|nccl-tests|ib_\w+_bw)|busbw|algbw)(?![A-Za-z]))", _IC)
# a figure that moved, said without its unit: 'busbw 从 24 掉到了 3.2', 'busbw went from 24 to 3.2' (the later is the figure)
_FROM = re.compile(r"(?:(?<![A-Za-z])(?:went|goes|dropped|drops|fell|falls|rose|rises|jumped)\s+)?(?:从|(?<![A-Za-z])from)\s*$",
                   _IC)
_MOVED_TO = re.compile(rf"(?P<gap>\s*(?:(?:掉|降|跌|下降|减少|回落|升|涨|提升|上升|dropped|fell|went (?:down|up)|rose|jumped)\s*)?"
                       rf"(?:到|至|(?<![A-Za-z])to)\s*(?:了)?\s*(?:only\s+|just\s+)?){_BARE_NUM}", _IC)
_BARE_AFTER_TOOL = re.compile(rf"{_BARE_NUM}\s*(?:左右|上下|多)?\s*(?:with|using|in|via|from|by|用)\s+(?:the\s+)?"
                              rf"(?P<tool>iperf3?|ib_(?:write|read|send)_bw|perftest|nccl-tests|all_reduce_perf)(?![A-Za-z])",
                              _IC)


def _bare_value(fact: str, num: str, hi: str | None) -> float | None:
    value = parse_range_mid(num, hi)
    if value is None or value <= 0:
        return None
    if (fact == "net.iperf3_gbps" and value > 400) or (fact == "net.rdma_bw_gbps" and value >= 1000):
        # iperf3 in Mbits/sec past any TCP figure in Gb/s, ib_write_bw in MB/sec (its default) in the thousands
        value = rate_to_gbps(value, "M", is_bytes=fact == "net.rdma_bw_gbps")
        if fact == "net.rdma_bw_gbps":
            value *= 1.048576  # perftest's MB/sec is 2^20 bytes a second (its format_factor 0x100000)
    return round(value, 6)


# rr-s10 exponent: a tool's figure in scientific notation with a rate's unit ('iperf3 gives 1.2e10 bytes/s', 'ib_write_bw
# 9.7e10 bits/s'): the tool named last before it in its sentence, nothing else, says whose it is
_EXP_RATE = re.compile(r"(?<![\w.])(?P<m>\d{1,3}(?:\.\d{1,4})?)\s*[eE]\s*\+?(?P<e>\d{1,2})\s*"
                       r"(?P<unit>bytes?/s(?:ec)?|B/s|Bps|bits?/s(?:ec)?|b/s|bps)(?![A-Za-z])")


@extractor
def exponent_rates(text: str) -> list[Understood]:
    """'iperf3 gives 1.2e10 bytes/s' → net.iperf3_gbps 96; 'busbw 1.1e10 B/s' → 11 GB/s."""
    hits = []
    for m in _EXP_RATE.finditer(text):
        tool = None
        for t in _FIGURE_NAME.finditer(text, tx.sentence_bounds(text, m.start())[0], m.start()):
            tool = t
        if tool is None or tool.lastgroup not in {"iperf", "rdma", "busbw", "algbw"}:
            continue
        per_s = float(m["m"]) * 10 ** int(m["e"])
        gbps = per_s * (8 if re.match(r"[Bb]yte|B", m["unit"]) else 1) / 1e9
        fact = _FIGURE_NAMES[tool.lastgroup][1]
        value = round(gbps / 8, 6) if fact.startswith("nccl.") else round(gbps, 6)
        if value > 0:
            hits.append(_hit_span(fact, value, text, m.start(), m.end()))
    return hits


@extractor
def unitless_measurements(text: str) -> list[Understood]:
    """'iperf3 gives 23', 'all_reduce_perf shows algbw 12 busbw 22', 'ib_write_bw 只有 200', 'measured 9.3 with iperf':
    a measuring tool's figure said without a unit, in the tool's own unit."""
    hits = []
    for name in _FIGURE_NAME.finditer(text):
        kind = name.lastgroup or ""
        fact = _FIGURE_NAMES[kind][1]
        m = re.compile(_FIGURE_GAP + _BARE_NUM).match(text, name.end())
        moved = _MOVED_TO.match(text, m.end()) if m is not None and _FROM.search(m["gap"]) else None
        if m is None or _FIGURE_FILLER.sub("", _FROM.sub("", m["gap"]) if moved else m["gap"]).strip():
            continue  # other words before it: 'iperf3 between node 1', 'iperf3 server on port 5201', 'iperf3 -P 4'
        if not m["gap"].strip() and kind in {"iperf", "rdma"}:
            continue  # 'iperf 2 and iperf 3': a version glued to the name
        if re.search(r"(?:应该|理论|期望|expect\w*|should|spec|官方|datasheet|目标|target|版本|version|v$)", m["gap"], _IC):
            continue  # a figure wanted or a version, not one measured
        if moved is not None:
            m = moved  # 'busbw 从 24 掉到了 3.2', 'busbw went from 24 to 3.2': the figure it is now
        if not _BARE_END.match(text, m.end()):
            continue  # a unit, a count or another word follows ('8 streams', '2 nodes', '10 秒', '1.75 倍')
        if fact == "nccl.allreduce_busbw_gbytes_per_s" and _OTHER_COLLECTIVE.search(text, max(0, name.start() - 160),
                                                                                     name.start()):
            continue  # 'ran all_gather_perf …:  # Avg bus bandwidth : 33.3': another collective's
        value = _bare_value(fact, m["num"], m["hi"])
        if value is not None:
            hits.append(_hit_span(fact, value, text, m.start("num"), m.end()))
    for m in _BARE_AFTER_TOOL.finditer(text):
        tool = _FIGURE_NAME.fullmatch(m["tool"])
        if tool is None or _overlaps(m, hits) or re.search(r"[A-Za-z]", text[max(0, m.start() - 1):m.start()]):
            continue
        fact = _FIGURE_NAMES[tool.lastgroup or ""][1]
        if not re.search(r"(?:measur\w*|got|get|gets|see|saw|shows?|showed|gives?|gave|测|跑|only|只有|仅)\s*"
                         r"(?:about|around|~|约|大约)?\s*$",
                         text[max(0, m.start() - 16):m.start()], _IC):
            continue  # 'measured 9.3 with iperf', 'got 45 from nccl-tests'
        value = _bare_value(fact, m["num"], m["hi"])
        if value is not None:
            hits.append(_hit_span(fact, value, text, m.start("num"), m.end("hi") if m["hi"] else m.end("num")))
    return hits


# A clause that goes on measuring ('iperf 单线程 12 Gbps，多线程 36 Gbps', '目标是 90G 以上，现在只有 35G', 'busbw 应该接近
# 190GB/s，我们实测 120'): the figure in it is of the kind measured just before, in the same sentence.
_GOES_ON = re.compile(r"(?:单|多)(?:线程|流)|并发|streams?|parallel|-P\s*\d|reverse|forward|反向|正向|双向|bidirectional|"
                      r"each way|per direction|峰值|平均|均值|最大|最小|average|peak|max(?:imum)?|min(?:imum)?", _IC)
# … or a measuring word just before the figure ('现在只有 35G', 'we only see 3.3', '实测 120'; never 'we only have 10G')
_GOES_ON_JUST_BEFORE = re.compile(r"(?:只有|才|仅|(?<![A-Za-z])(?:only|just)|实测|实际(?:上)?(?:只有|是)?|测出来|测下来|跑到|跑出|能到|"
                                  r"measured|actually|(?<![A-Za-z])(?:we|I)\s+(?:only\s+|just\s+)?(?:get|see|got|saw))"
                                  r"\s*(?:了|有|是)?\s*(?:about|around|roughly|约|大约|大概|~|≈)?\s*$", _IC)
_GOES_ON_BARE = re.compile(rf"(?:实测|实际|测出来|测下来|measured|(?<![A-Za-z])(?:we|I)\s+(?:only\s+)?(?:get|see|got|saw)|"
                           rf"(?<![A-Za-z])only|只有|才|仅)\s*(?:了|有|是)?\s*(?:about|around|约|大约|大概|~)?\s*{_BARE_NUM}", _IC)


# s14 a rating in brackets after a measured figure ('ib_write_bw 96 Gb/s (100G line rate)', '跑出 96 Gb/s（线速 100G）'):
# the bracket's rate is the link's rating, the figure before it what the tool measured
_BRACKET_OPEN = re.compile(r"\d[^()（）\n]{0,16}[(（](?P<inside>[^()（）\n]{0,24})$")
_RATING_WORD = re.compile(r"line[- ]?rate|wire[- ]?speed|rated|nominal|theoretical|spec|port|link|NICs?|card|"
                          r"线速|标称|额定|理论|网卡|端口|链路", re.IGNORECASE)


def rating_in_brackets(text: str, start: int, end: int) -> bool:
    """A rate in brackets after a figure, a rating word beside it inside: the link's rating, not a second figure."""
    opened = _BRACKET_OPEN.search(text, max(0, start - 48), start)
    if not opened:
        return False
    close = re.search(r"[)）\n]", text[end:end + 30])
    inside = opened["inside"] + text[end:end + (close.start() if close else 0)]
    return bool(_RATING_WORD.search(inside))


def _sibling_measurement(text: str, start: int, said: list[tuple[Understood, str, bool]]) -> tuple[Understood, str, bool] | None:
    sa, _ = tx.sentence_bounds(text, start)
    ca, cb = tx.clause_bounds(text, start)
    before = [s for s in said if sa <= s[0].start and s[0].end <= start and s[0].end <= ca]
    if not before or not (_GOES_ON.search(text, ca, start) or _GOES_ON_JUST_BEFORE.search(text, max(ca, start - 16), start)
                          # nccl-cmp s13 streams: 'iperf3 单流 9.4 Gbps，8 个流 23 Gbps': the next run of the same test
                          or (before[-1][0].fact == "net.iperf3_gbps" and (_MANY_STREAMS.search(text, ca, start)
                                                                        or _ONE_STREAM.search(text, ca, start)))):
        return None
    return before[-1]


# iperf's streams: '35 Gbps with a single stream, 90 with -P 8', '单流 12G，多流 94G' — several streams fill the link,
# so their figure is the link's; one stream's is a lower bound
_MANY_STREAMS = re.compile(r"-P\s*(?:[2-9]|\d{2,})|(?:[2-9]|\d{2,})\s*(?:parallel\s+)?(?:streams|flows|threads)|parallel streams|"
                           r"多流|多线程|多个流|并发|(?:[2-9]|\d{2,}|[两三四五六七八九十])\s*(?:个|条|路)?\s*(?:流|线程|并发)", _IC)  # nccl-cmp s13 '8 个流'
_ONE_STREAM = re.compile(r"-P\s*1(?!\d)|(?:single|one|1)\s*(?:TCP\s+)?(?:stream|flow|thread)|单流|单线程|单个流", _IC)
_BARE_WITH_STREAMS = re.compile(rf"{_BARE_NUM}\s*(?:with|using|at|on|under|用)\s+(?=(?:{_MANY_STREAMS.pattern}))", _IC)


def _streams_of(text: str, h: Understood) -> str | None:
    """'many' or 'one' by the cue of streams nearest the figure ('9.41 Gbits/sec (one stream), 9.9 with -P 4')."""
    after = re.match(r"\s*(?:[GM]bits?/s(?:ec)?|[GM]bps|[GM]b/s)?\s*[(（]?\s*(?:with|using|at|on|via|用)?\s*(?:a\s+)?",
                     text[h.end:h.end + 40], _IC)
    tail = text[h.end + (after.end() if after else 0):h.end + 40]
    for kind, pattern in (("many", _MANY_STREAMS), ("one", _ONE_STREAM)):
        if pattern.match(tail):
            return kind  # the streams said right after the figure are its own
    ca = tx.clause_bounds(text, h.start)[0]
    before = [(m.end(), kind) for kind, pattern in (("many", _MANY_STREAMS), ("one", _ONE_STREAM))
              for m in pattern.finditer(text, ca, h.start)]
    if before:  # zh-s12b '多线程能跑 92Gbps，单线程 30Gbps': the streams said before it in its clause are its own
        return max(before)[1]
    a, b = max(tx.sentence_bounds(text, h.start)[0], h.start - 30), min(len(text), h.end + 30)
    best: tuple[int, str] | None = None
    for kind, pattern in (("many", _MANY_STREAMS), ("one", _ONE_STREAM)):
        for m in pattern.finditer(text, a, b):
            gap = h.start - m.end() if m.end() <= h.start else m.start() - h.end
            if best is None or gap < best[0]:
                best = (max(gap, 0), kind)
    return best[1] if best else None


def _bare_after_sibling(text: str, said: list[tuple[Understood, str, bool]], hits: list[Understood]) -> list[Understood]:
    out = []
    for m in _BARE_WITH_STREAMS.finditer(text):  # '… 35 Gbps with a single stream, 90 with -P 8'
        sa = tx.sentence_bounds(text, m.start())[0]
        earlier = [x for x in said if x[0].fact == "net.iperf3_gbps" and sa <= x[0].start and x[0].end <= m.start()]
        sibling = earlier[-1] if earlier else None
        if sibling is None or any(h.start <= m.start("num") < h.end for h in hits):
            continue
        value = parse_range_mid(m["num"], m["hi"])
        if value and value > 0:
            out.append(_hit_span("net.iperf3_gbps", rate_to_gbps(value, sibling[1], sibling[2]), text, m.start("num"),
                                 m.end("num")))
    for m in _GOES_ON_BARE.finditer(text):
        sibling = _sibling_measurement(text, m.start("num"), said)
        if sibling is None or not _BARE_END.match(text, m.end()) or any(h.start <= m.start("num") < h.end for h in hits):
            continue
        h, prefix, is_bytes = sibling
        value = parse_range_mid(m["num"], m["hi"])
        if value is None or value <= 0:
            continue
        gbps = rate_to_gbps(value, prefix, is_bytes)
        value = round(gbps / 8, 6) if h.fact.startswith("nccl.") else gbps
        out.append(_hit_span(h.fact, value, text, m.start("num"), m.end()))
    return out


def _nic_kind_facts(kind: str, text: str, start: int, end: int, **flags: bool) -> list[Understood]:
    if kind == "efa":
        return [_hit_span("nic.kind", "ethernet", text, start, end, **flags),
                _hit_span("nic.rdma", True, text, start, end, **flags)]
    return [_hit_span("nic.kind", kind, text, start, end, **flags),
            _hit_span("nic.rdma", True, text, start, end, **flags)]


# 'never set up any RDMA NICs', '没装过 RDMA 网卡', '都没有支持 RDMA 的网卡': no RDMA hardware there (a verb of having or
# setting up between the negation and the word; never 'not enabled in NCCL', which is a setting)
_NO_RDMA_SET_UP = re.compile(
    r"(?:从来没有?|从未|并没有|没有|没|未|不曾|(?<![A-Za-z])(?:never|haven't|have not|hasn't|has not|didn't|did not|don't|"
    r"do not|doesn't|does not)(?![A-Za-z]))\s*"
    r"(?:(?:配置|安装|装|部署|接|插|买|配|上)\s*(?:过|了)?|(?:ever\s+)?(?:set\s*up|configured?|install(?:ed)?|deploy(?:ed)?|"
    r"have|has|had|got|get|bought|buy)(?![A-Za-z]))?\s*"
    r"(?:any\s+|任何|一块|一张|一个)?\s*(?:(?:支持|带)\s*)?(?<![A-Za-z])RDMA(?:[- ]capable|[- ]enabled)?(?![A-Za-z])"
    r"\s*(?:的)?\s*(?:网卡|设备|NICs?|HCAs?|cards?|adapters?|hardware|硬件|network|网络|at all)?", _IC)


# The fabric's use denied, not the fabric: 'Why isn't IB used?', 'IB is not being picked', '为什么没有走 IB', 'NCCL 走不了
# IB', 'IB 没用上' — the asker expects it, so the hardware is no more absent than present.
_USE_DENIED_BEFORE = re.compile(r"(?:(?<![A-Za-z])(?:isn't|is not|wasn't|was not|aren't|are not)\s+(?:the\s+)?"
                                r"|没有走|没走|不走|走不了|走不通|用不了|用不上|没用上|没有用上|不能走|无法走|没法走)\s*$", _IC)
_USED_AFTER = re.compile(r"\s*(?:being\s+)?(?:used|picked|selected|chosen|detected|in use)(?![A-Za-z])", _IC)
_USE_DENIED_AFTER = re.compile(r"\s*(?:(?:is|was|are|were)\s+)?(?:not|never|n't)\s+(?:being\s+)?(?:used|picked|selected|chosen)"
                               r"(?![A-Za-z])|\s*(?:没有?|未|都没)(?:被)?(?:用上|用到|使用|启用|生效|走)", _IC)


# 'NCCL is not using IB', "why isn't NCCL using IB", 'never picks RoCE': the fabric is named as what is not used
_NOT_USING_BEFORE = re.compile(r"(?<![A-Za-z])(?:not|n't|never)\s+(?:(?:be|been|even|actually|really)\s+)?(?:using|use|used|"
                               r"picking|pick|picks|selecting|select|going over|go over|running over|run over)\s+"
                               r"(?:the\s+)?$|(?<![A-Za-z])(?:isn't|doesn't|didn't|wasn't|won't)\s+NCCL\s+(?:use|using|pick|picking|"
                               r"select|selecting|go(?:ing)? over)\s+(?:the\s+)?$", _IC)


def _use_denied(text: str, m: re.Match[str]) -> bool:
    before = text[max(0, m.start() - 16):m.start()]
    if _NOT_USING_BEFORE.search(text, max(0, m.start() - 40), m.start()) and "nccl" in text[max(0, m.start() - 40):m.start()].lower():
        return True  # NCCL's choice denied, not the hardware ('we are not using IB' says what the job runs on)
    if _USE_DENIED_BEFORE.search(before):
        return bool(re.search(r"[\u4e00-\u9fff]\s*$", before)) or bool(_USED_AFTER.match(text, m.end()))
    return bool(_USE_DENIED_AFTER.match(text, m.end()))


# 'Mellanox cards', '网卡是 Mellanox 的': Mellanox (NVIDIA) adapters are ConnectX, RDMA-capable; its switches and cables
# say nothing of the nodes' adapters. An assumption, as the Ethernet words' 'no RDMA' is ('Mellanox ConnectX-3 40 GbE …
# tcp transport': the later one said wins)
# s14 the link layer of an RDMA port said as Ethernet: only RDMA tools print a link layer (ibv_devinfo 'link_layer:
# Ethernet', ibstat 'Link layer: Ethernet', perftest 'Link type : Ethernet', sysfs .../ports/1/link_layer), and an RDMA
# device whose link layer is Ethernet runs RoCE
_ETHERNET_LINK_LAYER = re.compile(r"(?<![A-Za-z])(?:link[_ ]?layer|link[_ ]type|链路层)\s*(?:\(s\)\s*)?(?:的\s*)?"
                                  r"(?:(?:of|on|for)\s+(?:the\s+)?[\w:/·-]{2,20}\s+)?"
                                  r"(?:is|was|are|were|shows?|says?|reads?|=|:|：|为|是|显示(?:为|是)?)?\s*[\"'`]?\s*"
                                  r"(?:Ethernet|以太网)(?![A-Za-z])|(?<![A-Za-z])(?:Ethernet|以太网)\s*(?:的\s*)?"
                                  r"(?:link[_ ]?layer|链路层)", _IC)
_MELLANOX = re.compile(r"(?<![A-Za-z])(?:Mellanox|迈络思)(?![A-Za-z])(?!\s*(?:的)?\s*(?:SN\d|Spectrum|switch|交换机|Quantum|"
                       r"cables?|线缆|光模块|OFED))", _IC)
# zh-s10 required fabric: 'RDMA words' asked about as a requirement ('是不是必须要 IB 才能…', '一定得上 RDMA 吗') affirm none
_REQUIRED_FABRIC = re.compile(r"(?:必须|一定|非得|必需|非要|需要|需不需要|要不要)\s*(?:要|得)?\s*(?:有|用|上|走)?\s*$|"
                              # s11 need asked: 'does it need InfiniBand?', 'do we need an IB fabric?'
                              r"(?<![A-Za-z])(?:need|needs|require|requires)\s+(?:an?\s+|the\s+)?$", re.IGNORECASE)
# net-s11 InfiniBand's generations (FDR 56G, EDR 100G, HDR 200G, NDR 400G, XDR 800G), alone or with their rate glued on
_IB_GENERATION = re.compile(r"(?:(?<=\d[xX])|(?<![A-Za-z]))(?:FDR|QDR|EDR|HDR|NDR|XDR)(?:\d{2,3})?(?![A-Za-z0-9])")
# net-s11 planned fabric: 'planning to move to InfiniBand', '打算换成 IB': a fabric to come, not today's
_PLANNED_FABRIC = re.compile(r"(?:打算|计划|准备|考虑|想要?|要不要|是否)\s*(?:换成|换到|换|升级到|升级成|升级|改成|改用|上|用|迁移到|迁到)\s*"
                             r"(?:成|到)?\s*$|(?<![A-Za-z])(?:plan(?:s|ning)?|want(?:s|ing)?|going|hop(?:e|es|ing)|intend(?:s|ing)?|"
                             r"consider(?:s|ing)?)\s+(?:to\s+)?(?:move|moving|switch|switching|upgrade|upgrading|migrate|"
                             r"migrating|go|going)\s+(?:over\s+)?to\s+(?:an?\s+|the\s+)?$", _IC)
# net-s12b an RDMA setting switched off: 'DMLC_ENABLE_RDMA=0', 'BYTEPS_ENABLE_RDMA=false', 'use_rdma: false'
_RDMA_SETTING_OFF = re.compile(r"[A-Za-z_]*RDMA[A-Za-z_]*\s*[:=]\s*[\"']?(?:0|false|off|no|disabled?)(?![\w.])", _IC)


def _identifier_start(text: str, pos: int) -> int:
    """Where the identifier holding `pos` begins ('DMLC_ENABLE_RDMA' from its 'RDMA')."""
    while pos > 0 and (text[pos - 1].isascii() and (text[pos - 1].isalnum() or text[pos - 1] == "_")):
        pos -= 1
    return pos


# Alibaba Cloud's elastic RDMA (eRDMA): RDMA on its Ethernet VPC network
_ERDMA = re.compile(r"(?<![A-Za-z])eRDMA(?![A-Za-z])", _IC)


@extractor
def nic_kind(text: str) -> list[Understood]:
    """InfiniBand/IB → infiniband, RoCE → roce (both RDMA), EFA → RDMA on Ethernet; 'no RDMA' → nic.rdma false;
    Mellanox adapters and eRDMA → RDMA. A fabric whose use is denied ('Why isn't IB used?') says neither."""
    hits = []
    for m in re.finditer(r"InfiniBand|infiniband|Infiniband|(?<![A-Za-z_/])IB(?![A-Za-z_])", text):
        if not _use_denied(text, m):
            hits.extend(_nic_kind_facts("infiniband", text, m.start(), m.end()))
    for m in re.finditer(r"(?<![A-Za-z])RoCE(?:\s?v2)?(?![A-Za-z])", text, _IC):
        if not _use_denied(text, m):
            hits.extend(_nic_kind_facts("roce", text, m.start(), m.end()))
    for m in re.finditer(r"(?<![A-Za-z])EFA(?![A-Za-z])", text):
        if _use_denied(text, m):
            continue
        hits.extend(_nic_kind_facts("efa", text, m.start(), m.end()))
        hits.append(_hit("nic.efa", True, m))
    for m in _IB_GENERATION.finditer(text):  # net-s11 'HDR 200Gb/s', 'NDR400': InfiniBand's data rates name the fabric
        if not _use_denied(text, m):
            hits.extend(_nic_kind_facts("infiniband", text, m.start(), m.end(), weak=True))
    for m in _MELLANOX.finditer(text):
        hits.append(_hit("nic.rdma", True, m, weak=True, inferred=True))
    for m in _ERDMA.finditer(text):
        hits.append(_hit("nic.rdma", True, m))
    for m in re.finditer(r"(?<![A-Za-z])RDMA(?![A-Za-z])", text):
        if re.search(r"(?:GPU\s?Direct|GDR|GPU)[\s-]*$", text[max(0, m.start() - 12):m.start()], _IC):
            continue  # 'GPUDirect RDMA' (s30 'GPU RDMA') names GDR, whose state is read on its own; it says nothing of the NIC
        if _RDMA_SETTING_OFF.match(text, _identifier_start(text, m.start())):
            continue  # net-s12b: 'DMLC_ENABLE_RDMA=0', 'use_rdma: false': a setting that keeps RDMA out of the job
        if not _NEGATION.search(tx.before(text, m.start(), 8)) and not re.search(
                r"不支持|没有|没开|no |without", tx.before(text, m.start(), 8), _IC):
            hits.append(_hit("nic.rdma", True, m, weak=True))
    for m in re.finditer(r"(?:没有|没开|不支持|无|不带|未启用|no|without|lack(?:s|ing)?|not using|don't have|doesn't "
                         r"have|"
                         r"no support for)\s*(?:any\s+)?RDMA|plain TCP|TCP only|only TCP|普通以太网|普通的以太网|"
                         # net-s12b 'a 25Gbps traditional TCP network', '普通的 TCP 网络': TCP said as the kind of network
                         r"(?<![A-Za-z])(?:traditional|ordinary|regular|conventional|normal|standard)\s+TCP(?:/IP)?"
                         r"(?=\s*(?:network|networking|fabric|Ethernet))|(?:普通|传统)(?:的)?\s*TCP(?:/IP)?\s*(?=网络|以太网)|"
                         r"TCP/IP(?:网络)?", text, _IC):
        hits.append(_hit("nic.rdma", False, m))
        hits.append(_hit("nic.kind", "ethernet", m, weak=True))
    for m in _NO_RDMA_SET_UP.finditer(text):
        if not _overlaps(m, [h for h in hits if h.value is False]) and not re.search(
                r"GPU\s?Direct|GDR|GPU[\s-]*RDMA", text[max(0, m.start() - 6):m.end()], _IC):
            hits = [h for h in hits if not (h.fact == "nic.rdma" and h.value is True and h.weak and m.start() <= h.start < m.end())]
            hits.append(_hit("nic.rdma", False, m))
    layers = list(_ETHERNET_LINK_LAYER.finditer(text))
    for m in layers:  # s14 'link_layer: Ethernet' (ibv_devinfo, ibstat, perftest's 'Link type'): an RDMA port on Ethernet
        hits.extend(_nic_kind_facts("roce", text, m.start(), m.end()))
    affirmed = [w for w in _RDMA_WORDS.finditer(text)
                if not re.search(r"(?:没有|没用|不是|无|no|without|not|don't have|lack)\s*(?:an?\s+|the\s+)?$",
                                 text[max(0, w.start() - 14):w.start()], _IC)
                and not _REQUIRED_FABRIC.search(text[max(0, w.start() - 14):w.start()])  # zh-s10 required fabric
                # s11 replaced by: '把万兆换成 IB', 'switch to InfiniBand': the fabric moved to, not the one had
                and not re.search(r"(?:换成|换到|升级到|升级成|改成|改用|换用|切到|切换到|(?<![A-Za-z])(?:switch(?:ing)?|"
                                  r"upgrad(?:e|ing)|mov(?:e|ing)|go(?:ing)?|migrat(?:e|ing))\s+to)\s*(?:an?\s+|the\s+)?$",
                                  text[max(0, w.start() - 16):w.start()], _IC)
                and not _PLANNED_FABRIC.search(text[max(0, w.start() - 30):w.start()])  # net-s11 planned fabric
                and not re.match(r"[^.,;?，。？\n]{0,14}?(?:required|necessary|a must)(?![A-Za-z])", text[w.end():w.end() + 30], _IC)]
    if not affirmed:  # 'no IB, plain 10GbE': only RDMA words said to be absent
        for m in _ETHERNET_WORDS.finditer(text):
            figure = re.search(r"[\d.]*\s*$", text[max(0, m.start() - 8):m.start()])  # '100GbE': from its figure
            if _storage_port(text, m.start() - (len(figure.group(0)) if figure else 0)):
                continue  # 'NFS 服务器只有一个万兆口': the storage server's port says nothing of the nodes' fabric
            if _management_port(text, m.start(), m.end()) and any(
                    not _management_port(text, r.start(), r.end()) for r in _RATE.finditer(text)):
                continue  # '2 张 100G 网卡跑训练，另外一个千兆管理口': the management port's Ethernet, not the training NIC's
            if any(r.start() <= m.start() < r.end() for r in layers):
                continue  # the Ethernet an RDMA port's link layer names is RoCE's (read above)
            hits.append(_hit("nic.kind", "ethernet", m, inferred=True, weak=True))
            hits.append(_hit("nic.rdma", False, m, inferred=True, weak=True))
    return hits


# --------------------------------------------------------------------------- link below its rating, MTU
_G = r"\s*G(?:(?-i:b)E|(?-i:b)/s|(?-i:b)ps|bit|(?-i:b))?(?![A-Za-z/])"  # '25G', '25 Gb/s', '25GbE'; never '40GB/s'
_RATING = re.compile(rf"(?P<cue>rated (?:for |at )?|capable of |rating (?:is |of )?|标称|额定|最高支持)\s*"
                     rf"(?:is|为|是)?\s*(?P<max>\d+(?:\.\d+)?){_G}", _IC)
_SPEED_WORD = re.compile(r"Speed:\s*(?P<mbps>\d{4,7})\s*Mb/s")  # ethtool's own line
_BELOW_RATING = [
    # '100G NICs negotiated only 25G', '100GbE ports came up at 25G', '100G 网卡只协商到 25G'
    re.compile(
        rf"{_NB}(?P<max>\d+(?:\.\d+)?){_G}[^.;。；\n]{{0,40}}?"
        r"(?:negotiat\w*|came up|come up|link(?:ed|s)? (?:up )?at|running at|runs at|"
        r"只?协商(?:到|成|为|在)?|只跑在|降到|降速到|掉到)"
        rf"\s*(?:at|to|as|down to)?\s*(?:only\s*)?(?:了)?\s*(?P<speed>\d+(?:\.\d+)?){_G}", _IC),
    # 'negotiated 25G although rated for 100G', '协商到 25G，标称 100G'
    re.compile(
        rf"(?:negotiat\w*|came up|link(?:ed|s)? (?:up )?at|协商(?:到|成|为|在)?)\s*(?:at|to|as)?\s*(?:only\s*)?"
        rf"(?P<speed>\d+(?:\.\d+)?){_G}[^.;。；\n]{{0,40}}?"
        r"(?:rated (?:for |at )?|capable of |supports? |rating (?:is |of )?|标称|额定|最高支持|支持)"
        rf"\s*(?:is|为|是)?\s*(?P<max>\d+(?:\.\d+)?){_G}", _IC),
    # 'rated for 100G but negotiated 25G', '标称 100G，只协商到 25G'
    re.compile(
        rf"(?:rated (?:for |at )?|capable of |supports? |标称|额定|最高支持)\s*(?:is|为|是)?\s*"
        rf"(?P<max>\d+(?:\.\d+)?){_G}[^.;。；\n]{{0,40}}?"
        r"(?:negotiat\w*|came up|link(?:ed|s)? (?:up )?at|running at|只?协商(?:到|成|为|在)?|只跑在|降到|掉到)"
        rf"\s*(?:at|to|as)?\s*(?:only\s*)?(?P<speed>\d+(?:\.\d+)?){_G}", _IC),
]


@extractor
def link_rating(text: str) -> list[Understood]:
    """'100G NICs negotiated only 25G', '网卡标称 100G，只协商到 25G' → nic.max_speed_gbps 100 and
    nic.speed_gbps 25: the NIC's rating and the rate its link came up at, the headline case of a
    cable, optic or switch port that settled lower. ethtool's 'Speed: 25000Mb/s' is the link rate."""
    hits = []
    for pattern in _BELOW_RATING:
        for m in pattern.finditer(text):
            rating, speed = float(m["max"]), float(m["speed"])
            if _A_TOOL.search(text, max(tx.clause_bounds(text, m.start())[0], m.start() - 24), m.start()):
                continue  # 'busbw 从 25G 掉到了 10G': a test's figure that fell, not a link that came up low
            if 0 < speed < rating:
                hits.append(_hit("nic.max_speed_gbps", rating, m, "max"))
                hits.append(_hit("nic.speed_gbps", speed, m, "speed"))
    paired = {h.start for h in hits if h.fact == "nic.max_speed_gbps"}
    for m in _RATING.finditer(text):
        if m.start("max") not in paired:  # 'rated for 100G' alone: the rating, and the link speed until told
            hits.append(_hit("nic.max_speed_gbps", float(m["max"]), m, "max"))
            if m["cue"] != "最高支持":  # s21 '单台最高支持 100Gbps': what the machine can take at most, no link said
                hits.append(_hit("nic.speed_gbps", float(m["max"]), m, "cue", weak=True))
    for m in _SPEED_WORD.finditer(text):
        hits.append(_hit("nic.speed_gbps", int(m["mbps"]) / 1000, m))
    for m in re.finditer(r"(?<![A-Za-z])Rate:\s*(?P<gbps>\d{2,3})(?!\d|\.\d)", text):  # ibstat's own line
        hits.append(_hit("nic.speed_gbps", float(m["gbps"]), m))
    return hits


_MTU = re.compile(
    # 'MTU 到处都是 1500', 'MTU 两边都设成了 1600', 'the MTU everywhere is 9000', 'Discovered MTU : 1440'
    rf"MTU\s*(?:(?:everywhere|on both sides|on all (?:nodes|hosts|ports)|到处|两边|两端|全部|都)\s*)*"
    rf"(?:is|are|of|=|:|：|为|是|都是|(?:is |was |are )?(?:set|configured|left) (?:to|at|as)|"
    rf"(?:设|设置|配置|配|调|改|开)(?:的|成了?|为|到|的是|成的是)?(?:是)?|只有|还是|一直是|默认(?:是)?|default(?: is)?)?"
    rf"\s*(?:only\s*|just\s*)?{_NB}(?P<num>\d{{3,5}})(?!\d|\.\d)"
    rf"|{_NB}(?P<num2>\d{{3,5}})\s*(?:-?\s*byte|字节)?\s*(?:的)?\s*MTU",
    _IC,
)


@extractor
def mtu(text: str) -> list[Understood]:
    """'MTU 1500', 'MTU is 9000', '1500-byte MTU', 'MTU 只有 1500' → nic.mtu (bytes)."""
    hits = []
    for m in _MTU.finditer(text):
        group = "num" if m["num"] else "num2"
        value = int(m[group])
        if 68 <= value <= 65536:
            hits.append(_hit("nic.mtu", value, m, group))
    for m in _MTU_CHANGED.finditer(text):  # net-s11 MTU changed: 'MTU 从 1500 改成 9000': the value it was set to
        if 68 <= int(m["new"]) <= 65536:
            hits = [h for h in hits if not m.start() <= h.start < m.end()]
            hits.append(_hit("nic.mtu", int(m["new"]), m, "new"))
    if not hits:
        for m in _JUMBO.finditer(text):  # net-s11 jumbo: 'jumbo frames are enabled', '开了巨帧': a 9000-byte MTU
            near = text[max(0, m.start() - 16):m.end() + 24]
            if _JUMBO_ON.search(near) and not _JUMBO_OFF.search(near):
                hits.append(_hit("nic.mtu", 9000, m, weak=True, inferred=True))
    return hits


# net-s11 average said of a figure, a test's result (not in a question about nccl-tests, whose averages are its own)
_AVERAGE_SAID = re.compile(r"(?<![A-Za-z])(?:average|avg|results?)(?![A-Za-z])[^，,。.;；\n\d]{0,20}$", _IC)


# net-s11 MTU changed from one value to another
_MTU_CHANGED = re.compile(r"MTU[^，,。.;；\d\n]{0,16}?(?:从|from)\s*(?P<old>\d{3,5})\s*(?:改成|改到|改为|调到|调成|调为|设成|设为|"
                          r"升到|换成|变成|到|->|→|to)\s*(?P<new>\d{3,5})(?!\d|\.\d)", _IC)
_JUMBO = re.compile(r"(?<![A-Za-z])jumbo(?:\s*frames?)?(?![A-Za-z])|巨帧|大帧", _IC)
_JUMBO_ON = re.compile(r"(?<![A-Za-z])(?:enabled?|enabling|turned on|switched on|configured|on|set up|with)(?![A-Za-z])|"
                       r"开了|开启|打开|启用|配置了|配了|已开|都开|支持", _IC)
_JUMBO_OFF = re.compile(r"(?<![A-Za-z])(?:not|no|without|disabled?|off|should|would|whether|if)(?![A-Za-z])|n't|没开|没有|未开|"
                        r"未启用|关闭|关了|不支持|要不要|是否|需不需要|如果|[?？]", _IC)


# --------------------------------------------------------------------------- latency
_RTT = re.compile(rf"(?:RTT|rtt|ping|latency|延迟|时延|往返)[^0-9\n，,。;；]{{0,48}}?{_NUM}"
                  r"(?:\s*(?:-|~|～|到|至)\s*(?P<hi>\d+(?:\.\d+)?))?\s*(?P<unit>ms|毫秒|us|μs|"
                  rf"微秒)"
                  r"(?![A-Za-z])", _IC)
_RTT_AFTER = re.compile(rf"{_NUM}\s*(?P<unit>ms|毫秒|us|μs|微秒)\s*(?:的)?\s*(?:RTT|rtt|latency|延迟|时延|ping)", _IC)


@extractor
def latency(text: str) -> list[Understood]:
    """'RTT 2.5ms', 'ping 延迟 2.5 毫秒', '80us latency' → net.rtt_ms."""
    hits = []
    for m in re.finditer(r"(?:rtt\s+)?min/avg/max(?:/mdev)?\s*=\s*\d+(?:\.\d+)?/(?P<num>\d+(?:\.\d+)?)/[\d./]+\s*ms", text, _IC):
        hits.append(_hit("net.rtt_ms", float(m["num"]), m))  # ping's summary: the average
    for pattern in (_RTT, _RTT_AFTER):
        for m in pattern.finditer(text):
            if pattern is _RTT and (re.search(r"(?:all[-_ ]?reduce|allgather|NCCL|kernel|step|iteration|inference|推理|首|P99|"
                                              r"p99|TTFT|token|请求|request|读|read|write|写|IO|disk|磁盘)\s*(?:的)?\s*$",
                                              tx.before(text, m.start(), 16), _IC)
                                    or re.search(r"step|iteration|迭代|每步|epoch|checkpoint", m.group(0), _IC)):
                continue  # an operation's latency ('all-reduce latency 5 ms', 'inference latency'), not the network's RTT
            value = parse_range_mid(m["num"], m.groupdict().get("hi"))
            unit = {"毫秒": "ms", "微秒": "us", "μs": "us"}.get(m["unit"], m["unit"].lower())
            ms = time_to_ms(value, unit) if value is not None else None
            if ms is not None and not _overlaps(m, hits):
                hits.append(_hit("net.rtt_ms", ms, m))
    return hits


# --------------------------------------------------------------------------- step time
_TIME_UNIT = r"(?P<unit>ms|毫秒|s|sec|secs|seconds?|秒|min|mins|minutes?|分钟)"
_STEP_WORD = r"(?:it|iter|iteration|step|步|次迭代|迭代|轮|batch)"
_STEP_PATTERNS = [
    re.compile(rf"{_NUM}\s*{_TIME_UNIT}\s*(?:/|per|每|一)\s*(?:个)?\s*{_STEP_WORD}(?![A-Za-z])", _IC),
    # s14 the time then the one step it is for: 'it takes about 5s for one step', 'takes 5s to finish one step'
    re.compile(rf"{_NUM}\s*{_TIME_UNIT}\s*(?:for|to\s+(?:finish|complete|run|do|train|process))\s+(?:one|a|an|each|every|1|a single)"
               r"\s+(?:training\s+)?(?:step|iteration|iter|batch)(?![A-Za-z])", _IC),
    # job-s11 iteration: '每个迭代 600 毫秒', '一个迭代要 2 秒' as much as '每次迭代'
    re.compile(rf"(?:(?:每一?|单|整)(?:个|次)?\s*(?:step|步|iteration|iter|轮|次迭代|迭代|batch)|(?:迭代|跑|训练|训)\s*(?:一次|一步|一个\s*(?:step|iter(?:ation)?|batch))|(?:一|(?<![\d.])1\s*)(?:个)?\s*(?:step|步|轮|iter(?:ation)?|次迭代|迭代|batch)(?![A-Za-z\d])|step[_ ]?time|"
               rf"iteration time|iter[_ ]?time|time per (?:step|iter(?:ation)?)|time/(?:step|iter)|per[- ]step(?: time)?|"
               rf"per (?:iteration|iter)|(?:step|iteration|iter)[ _](?:latency|duration|speed)|(?:一次|每次|单次)\s*前后向|"
               # fix31 a framework's per-iteration timer named in words: PaddlePaddle's 'batch_cost 平均要 2 秒',
               # 'batch_time 2 s' (the ImageNet example's); 'iter_time' is the iteration time's above
               rf"(?<![A-Za-z_])(?:batch[_ ]cost|batch_time)(?![A-Za-z_])|"
               rf"(?:step|迭代|每步)\s*(?:的)?\s*(?:耗时|时间|用时)|(?:each |every |an? |one )?(?:training |train |optimi[sz]er |optimi[sz]ation )?(?:step|iteration|iter)s?\s+"
               rf"(?:now\s+|still\s+|usually\s+|currently\s+)?(?:takes?|took|is|are|lasts?|costs?|needs?|requires?)|elapsed time per iteration|"
               # the step named bare before its time: '两机训练 step 8 秒', 'step 2.8s on 2 nodes', 'iteration: 1.2 s'
               rf"(?<![A-Za-z_])(?:step|iteration|iter)(?=\s*[:：=≈~]?\s*\d+(?:\.\d+)?\s*(?:ms|s|sec|secs|seconds?|秒|毫秒)(?![A-Za-z/])))"
               rf"[^0-9\n，,。;；]{{0,16}}?{_NUM}(?:\s*(?:-|~|～|–|到|至)\s*(?P<hi>\d+(?:\.\d+)?))?\s*(?:多|余|来|几)?\s*"
               rf"{_TIME_UNIT}(?![A-Za-z])"
               # ('each batch takes 1.2 s to load from NFS': the loading's time, not the step's)
               r"(?!\s+(?:just\s+|only\s+)?to\s+(?:load|read|fetch|download|copy|transfer|decode|prepare|save|write)(?![A-Za-z]))", _IC),
]
# a step's time a logger prints without its unit, named as a setting is ('INFO: Step time: 22.885', 'iter_time=1.57',
# 'time per iteration = 0.83', 'step_time (ms): 830'): in seconds, or in milliseconds where the name says so (a bare
# figure of 100 or more may be either, and is left)
_UNITLESS_STEP = re.compile(r"(?<![A-Za-z_])(?:step[_ ]time|iteration[_ ]time|iter[_ ]time|time[_ ]per[_ ](?:step|iteration|iter)|"
                            r"time/(?:step|iter))\s*(?P<ms>\(ms\)|\[ms\]|_ms)?\s*(?:\((?:s|sec)\)|\[s\])?\s*[:=：]\s*"
                            r"(?P<num>\d+(?:\.\d+)?)(?![\d.]|e[-+]?\d|\s*(?:ms|s|sec|secs|seconds?|秒|毫秒|%|[A-Za-z/]))", _IC)
# s34 a part of the step named between the step's words and its figure ('每步梯度 AllReduce 要 557 ms', '每个 step 通信
# 2 秒', 'each step the all-reduce takes 1.8 s', '每步反向 336 ms'): that part's time, not the whole step's
_PART_OF_STEP = re.compile(r"通信|集合通信|梯度同步|反向|前向|(?<![A-Za-z])(?:NCCL|communication|comms?|all[-_ ]?reduce|"
                           r"reduce[-_ ]?scatter|all[-_ ]?gather|all-?to-?all|broadcast|backward|forward|bwd|fwd)(?![A-Za-z])", _IC)
# h-step the part named as what takes the time, before a time per step ('the all-reduce takes 300 ms per step', 'NCCL
# communication is 1.2 s/step', '通信要 2 秒每步'); a part beside the run ('with NCCL 3 s per step') says nothing of it
_PART_TAKES = re.compile(rf"(?:{_PART_OF_STEP.pattern})(?:\s+(?:pass|phase|op(?:eration)?s?|calls?))?\s*(?:time|耗时|时间)?\s*"
                         r"(?:alone\s+|itself\s+|就|都)?(?:takes?|took|costs?|needs?|is|was|are|lasts?|要|耗时|用时|花了?|需要|"
                         r"占了?|用了)\s*(?:about|around|roughly|~|≈|约|大约|大概|近)?\s*$", _IC)
# 'every 2000 steps take about 35 s', '每 100 步 35 秒', '35 s per 100 iterations': a time over N steps
_N_STEPS = r"(?P<n>\d[\d,]*)\s*(?:个)?\s*(?:steps?|iterations?|iters?|its|batches|步|次迭代|个?step|个?iter)"
# (s29 over many steps a time may be hours: '12 小时训练了 iter 800/6420', 'every 1000 steps take 2 hours')
_LONG_TIME_UNIT = r"(?P<unit>ms|毫秒|s|sec|secs|seconds?|秒|min|mins|minutes?|分钟|h|hrs?|hours?|个?小时)"
_TRAINED = r"(?:(?:才|只)?(?:能)?\s*(?:训练|训|跑)(?:了|完|到了?)?|\s+to\s+(?:train|run|do|complete))"
_PER_N_STEPS = [
    re.compile(rf"(?:every|each|per|每)?\s*{_N_STEPS}\s*(?:take|took|takes|cost|costs|need|needs|需要|用时|耗时|花了?|要|in|"
               rf"用了)?\s*(?:about|around|roughly|approx\.?|约|大约|大概|~|≈)?\s*{_NUM}\s*{_LONG_TIME_UNIT}(?![A-Za-z])", _IC),
    re.compile(rf"{_NUM}\s*{_LONG_TIME_UNIT}\s*(?:per|for|every|each|/|每)\s*{_N_STEPS}(?![A-Za-z])", _IC),
    # s28 a time to train N steps: '30 分钟训练 1000 iter', '30 分钟跑 1000 步', 'it takes 30 minutes to train 1000 iterations'
    re.compile(rf"{_NUM}\s*{_LONG_TIME_UNIT}\s*{_TRAINED}\s*{_N_STEPS}(?![A-Za-z])", _IC),
    # s29 the steps done as a progress counter after the time: '12 小时训练了 iter 800/6420', '12 hours to train
    # step 800/6420' (the steps done of all: 12 h ÷ 800)
    re.compile(rf"{_NUM}\s*{_LONG_TIME_UNIT}\s*{_TRAINED}\s*(?:到)?\s*(?:iter(?:ation)?s?|steps?|步|batch(?:es)?)\s*[:：]?\s*"
               r"(?P<n>\d[\d,]*)\s*/\s*\d[\d,]*(?![\d.])", _IC),
]
# s14 a time then the steps done in it, no word between: '2 Nodes: 1 second 1 step', '1 秒 4 个 step' (one step too)
_TIME_THEN_STEPS = re.compile(rf"{_NUM}\s*(?P<unit>s|sec|secs|seconds?|秒|min|mins|minutes?|分钟)\s+(?P<n>\d{{1,4}})\s*(?:个)?\s*"
                              r"(?:steps?|iterations?|iters?|步)(?![A-Za-z])", _IC)
_PER_N_STEPS.append(_TIME_THEN_STEPS)
_IT_PER_S = re.compile(rf"{_NUM}\s*(?:it/s|its/s|iters?/s|steps?/s|steps?/sec|steps? per second|iterations? per second)|"
                       # s14 the rate's label first: 'steps per second 0.5', 'step/s: 0.25', 'it/s = 1.3'
                       r"(?<![\w/])(?:it/s|iters?/s|steps?/s(?:ec)?|steps? per second|iterations? per second|"
                       # fairseq's updates per second in its log line ('wps=15000, ups=0.8, wpb=…'): one update a step
                       r"(?<=, )ups(?==\d[\d.]*, (?:wpb|bsz|wall|gnorm|lr|clip|train_wall)=))\s*[:：=]?\s*"
                       rf"{_NB}(?P<num3>\d+(?:\.\d+)?)(?![\d.%])|"
                       rf"每秒(?:钟)?\s*(?:能?跑|大约|大概|约)?\s*{_NB}(?P<num2>\d+(?:\.\d+)?)\s*(?:个)?\s*(?:step|iter\w*|步|次迭代|迭代)", _IC)
# s14 steps counted per minute: '150 steps per minute', '每分钟 30 步', '30 it/min'
_STEPS_PER_MINUTE = re.compile(rf"{_NUM}\s*(?:steps?|iterations?|iters?|its?|步|个\s*step)\s*(?:per|/|a|每)\s*(?:minute|min|分钟)"
                               rf"(?![A-Za-z])|每分钟\s*(?:能?跑|大约|大概|约)?\s*{_NB}(?P<num2>\d+(?:\.\d+)?)\s*(?:个)?\s*"
                               r"(?:step|iter\w*|步|次迭代|迭代)", _IC)
# s14 a step's time as a clock ('time per step = 0:00:1.390', OpenSeq2Seq's log)
_CLOCK_STEP = re.compile(r"(?:time per (?:step|iter(?:ation)?)|step[_ ]time|iter(?:ation)?[_ ]time)\s*[:：=]?\s*"
                         r"(?P<h>\d{1,2}):(?P<m>\d{2}):(?P<s>\d{1,2}(?:\.\d+)?)(?![\d:])", _IC)
# s14 a training log's line that counts its iteration and times it: 'iter 50: loss 3.2, time 1234.56ms', '[step 120]
# loss 2.1 | time: 1.9s' (the time field of a line led by the counter; not data_time, eval time or a time stamp)
_LOGGED_ITER_TIME = re.compile(r"(?m)^[^\n]{0,24}?(?<![A-Za-z_])(?:iter(?:ation)?|step)\s*[:=]?\s*\d+(?:\s*/\s*\d+)?\s*[]:,|)]"
                               rf"[^\n]{{0,80}}?(?<![A-Za-z_])(?:time|dt|elapsed)\s*[:=]?\s*{_NUM}\s*(?P<unit>ms|s)(?![A-Za-z/])",
                               _IC)
# s14 work beside the step that a duration may time: evaluation, logging, loading the data ('eval takes 20 s every 500
# steps', 'data loading takes 0.3 s per batch'): the work named as what takes the time, not a condition of the run ('with
# the real dataloader it is 0.9 s/step')
_SIDE_WORK = re.compile(r"(?:(?<![A-Za-z])(?:eval(?:uation|uating)?|validation|validating|val loop|logging|data ?loading|dataloader|"
                        r"data loader|loading (?:the )?data|prefetch\w*)(?![A-Za-z])|验证|评估|评测|数据加载|加载数据|读数据|读取数据)"
                        r"\s*(?:(?:alone|itself|only|once|一次|一轮)\s*)?(?:takes?|took|costs?|needs?|lasts?|需要|要|耗时|用时|花了?|用了)",
                        _IC)
_STEP_CUES = {
    # (s29 a GPU named by its model is masked: 'with a single ＧＧＧＧ 2.61 it/s', 'on one ＧＧＧＧ')
    "baseline": re.compile(r"单机|单节点|单台|一台|1台|单卡|一张卡|one GPU|a single GPU|single[- ](?:GPU|node|machine|server|box|host|GPU node)|"
                           r"(?<![A-Za-z])(?:a\s+single|single|one|1\s*x?)\s*Ｇ+(?![Ｇs])|单张?\s*Ｇ+|"
                           r"(?:one|1)[- ](?:node|machine|server|box)|baseline|基线|alone|by itself", _IC),
    "multi": re.compile(rf"多机|多节点|多卡|双卡|两卡|双机|分布式|{NUMBER}\s*(?:台|个节点|节点|机)|(?<!single )(?<!one )(?<!1 )"
                        r"(?:\d+|two|three|four|eight|sixteen)[- ]?(?:nodes?|machines?|servers?|hosts)|"
                        r"multi[- ]?(?:node|machine|host|server)|(?<![A-Za-z])distributed(?![A-Za-z])|"
                        r"across|cluster|集群|scaled out|扩到", _IC),
}


# 'isn't stable', 'not very steady', '不太稳定', '不够平稳': stability denied
_NOT_STABLE = (r"(?<![A-Za-z])(?:isn't|is not|aren't|are not|wasn't|was not|not|never|hardly)\s+(?:very\s+|really\s+|that\s+|so\s+|"
               r"quite\s+|particularly\s+)?(?:stable|steady|consistent)(?![A-Za-z])|不(?:太|够|怎么|是很|是太|大)?\s*(?:稳定|平稳)")
# 'now it takes 9 s', '现在变成 9 秒': a duration said for now in a sentence about steps
_NOW_DURATION = re.compile(r"(?:现在|目前|当前|如今|(?<![A-Za-z])(?:now|currently))\s*(?:(?:it\s+|each\s+one\s+)?(?:is|takes?|"
                           r"needs?|at)|变成了?|变为|是|要|需要|涨到了?|降到了?|到了|成了)?\s*(?:了)?\s*(?:about|around|~|约|大约|大概)?\s*$", _IC)
_VERSUS = re.compile(r"\b(?:vs\.?|versus|compared (?:to|with)|but|while|whereas)\b|而|但|对比|相比|比|，|,", _IC)


_GROWN_BEFORE = re.compile(r"(?<![A-Za-z])(?:add(?:ed|ing)?\s+(?:a\s+second|another|one\s+more|a\s+2nd)\s+(?:node|machine|"
                           r"server|host|box)|(?:on|with|across|using)\s+(?:[2-9]|1\d|two|three|four|eight|sixteen)\s+(?:nodes|"
                           r"machines|servers|hosts|boxes)|scal(?:e|ed|ing)\s+(?:out|up)|go(?:ing)?\s+multi-?node)(?![A-Za-z])", _IC)
_IT_TAKES = re.compile(rf"(?<![A-Za-z])(?:it|that|this one|each one)\s+(?:now\s+)?(?:takes?|took|needs?|is|was|goes up to|"
                       rf"went up to|rises to|jumps to|grows to)\s+(?:about\s+|around\s+|roughly\s+|~\s*)?{_NUM}\s*"
                       r"(?P<unit>ms|s|sec|secs|seconds?)(?![A-Za-z/])(?!\s+(?:to|for)\s+(?:load|save|read|write|"
                       r"checkpoint|start|launch|initiali[sz]e|compile|build))", _IC)


_SYNTHETIC_RUN = re.compile(r"(?<![A-Za-z])(?:synthetic|dummy|fake|random(?:ly generated)?)\s+(?:input\s+)?(?:data|inputs?|"
                            r"tensors|batches|dataset)|(?<![\w-])--(?:synthetic|fake|dummy)[\w-]*|合成数据|假数据|随机数据|"
                            r"(?:dummy|fake|synthetic)\s*数据", _IC)
# s30 rounds counted as passes over the data ('迭代 6 轮', '训练了 10 轮', '第 3 轮', '轮（epoch）'): a '每轮' time is an epoch's
_ROUNDS_ARE_EPOCHS = re.compile(r"(?:迭代|训练|跑|共|了)\s*(?:\d+|[一二两三四五六七八九十]+)\s*(?:个)?\s*轮(?!次)|"
                                r"第\s*(?:\d+|[一二三四五六七八九十]+)\s*轮|轮\s*[(（]?\s*epochs?|epochs?\s*[(（]\s*轮", _IC)


# s30 a log introduced as the smaller run's ('The single-machine multi-GPU log reads', '单机多卡的日志如下：', 'log on one
# node:'): the lines that follow, to a blank line or a line of prose, are that run's, and so are their step times
_BASELINE_LOG_LABEL = re.compile(
    rf"(?:{_STEP_CUES['baseline'].pattern})[^\n.。;；]{{0,40}}?(?:logs?|output|日志|输出|打印)[^\n.。;；]{{0,16}}?"
    r"(?:reads|read|says|shows|showed|looks like|is|was|are|were|如下|是|为)?\s*[:：]?[ \t]*\n", _IC)
_LOG_LINE = re.compile(r"[ \t]+\S|(?:INFO|WARN\w*|DEBUG|I\d{4}|\[|\d{4}-\d\d|step|iter|epoch|Epoch|Step)", _IC)


def _baseline_log_spans(text: str) -> list[tuple[int, int]]:
    spans = []
    for m in _BASELINE_LOG_LABEL.finditer(text):
        end = m.end()
        while end < len(text) and _LOG_LINE.match(text, end):
            nl = text.find("\n", end)
            end = len(text) if nl < 0 else nl + 1
        if end > m.end():
            spans.append((m.end(), end))
    return spans


# s30 two systems timed side by side ('DeepRec 1.8s/step，Nvidia-TF 0.55s/step。DeepRec 的性能不符合预期'): each step time
# led by a name, and the words complain of one of them: the others' times are theirs (another framework, not the job)
_SYSTEM_BEFORE = re.compile(r"(?<![\w.-])(?P<name>[A-Za-z][\w.+-]{1,30}?)\s*(?:的\s*)?(?:[:：=]|is|at|takes?|took|needs?|"
                            r"用时|耗时|为|是|跑|约|about|~)?\s*(?:about|around|~|约|大约)?\s*$", _IC)
_NOT_A_SYSTEM = re.compile(r"(?:steps?|iters?|iterations?|time|times|node|nodes|GPUs?|cards?|it|s|ms|sec|batch\w*|epoch\w*|"
                           r"avg|average|mean|total|forward|backward|fwd|bwd|all_?reduce|comm\w*|compute|optimi[sz]er|"
                           r"data|load\w*|now|then|before|after|was|is|and|or|vs|with|on|of|per|each|only|just|fp\d+|bf16|"
                           r"tf32|amp|log|rank\d*|worker\d*|machine\w*|server\w*|single|one|two|multi\w*|baseline)",
                           _IC)


def _complained_of(text: str, name: str) -> bool:
    n = re.escape(name)
    return bool(re.search(
        rf"(?<![\w.-]){n}(?![\w.-])\s*(?:的)?\s*(?:性能|速度|训练|吞吐|耗时|表现)?\s*(?:(?:明显|非常|很|太|比较|还是|都)\s*)*"
        r"(?:不符合预期|不及预期|不达预期|达不到预期|不理想|慢|差|低|有问题)|"
        rf"(?:why|为什么|为啥|怎么)\s*(?:is|does|are)?\s*{n}(?![\w.-])|"
        rf"(?<![\w.-]){n}(?![\w.-])\s+(?:is|was|runs?|ran|gets?|feels?)\s+(?:much\s+|a lot\s+|way\s+|\d+(?:\.\d+)?\s*[x×]\s+)?"
        r"(?:slower|slow|worse|(?:not|far from|below) (?:as )?expected|underperform\w*)", text, _IC))


def _other_systems_steps(text: str, hits: list[Understood]) -> list[Understood]:
    named: dict[int, str] = {}
    labelled = True  # every name a label: capitalised or with a digit ('DeepSpeed', 'TF2'), or before 的 or a colon
    for i, h in enumerate(hits):
        if h.fact != "job.step_time_s" or h.weak:
            continue
        m = _SYSTEM_BEFORE.search(text, max(0, h.start - 24), h.start)
        if m and not _NOT_A_SYSTEM.fullmatch(m["name"]) and not m["name"].isdigit():
            named[i] = m["name"]
            labelled = labelled and bool(re.search(r"[A-Z\d]", m["name"]) or re.match(r"\s*(?:的|[:：])",
                                                                                       text[m.end("name"):]))
    if len(set(named.values())) < 2:
        return hits
    complained = {n for n in set(named.values()) if _complained_of(text, n)}
    if not complained and labelled and len({hits[i].value for i in named}) > 1:
        # fix31 systems timed side by side and none complained of ('colossalai gemini 的 step_time：19.2s / Deepspeed 的
        # step time：24-25s / Deepspeed 开了 offload：step_time 为 27s'): a benchmark of others, no step time of one job
        return [h for i, h in enumerate(hits) if i not in named]
    if len(complained) != 1:
        return hits  # each complained of: which is the asker's is not said
    return [h for i, h in enumerate(hits) if i not in named or named[i] in complained]


# s33 a step named by its place ('第 1 个 batch', '第一步', 'the first step', 'the 2nd iteration'): one step's moment (the
# wait for the first batch, a warm-up), not how long the steps take
_ORDINAL_STEP = re.compile(r"(?:第|首)\s*$|(?<![A-Za-z])(?:the\s+|its\s+|our\s+)?(?:very\s+)?(?:first|1st|second|2nd|"
                           r"third|3rd|last|final|initial|\d+(?:st|nd|rd|th))\s+$", _IC)


# h-step what a step was guessed or wished to take, not seen ('预计每步 2 秒', 'expected ~1 s per step', 'should take 1 s');
# a run slower than expected is seen ('比预期慢，每步 3 秒', 'slower than expected at 3 s/it')
_GUESSED_STEP = re.compile(r"(?<![比于及合出乎])(?:预计|预估|预期|期望|理论上|按理说?|本应|本该|原以为|本以为)|"
                           r"(?<![A-Za-z])(?<!than )(?<!than I )(?<!than we )(?:expected|expecting|estimated|predicted|"
                           r"projected|should (?:only )?(?:take|be|need|last)|ought to|supposed to|in theory|theoretically|"
                           r"ideally|hop(?:e|ed|ing) (?:for|to get))(?![A-Za-z])", _IC)
_SEEN_INSTEAD = re.compile(r"(?<![A-Za-z])(?:but|however|actually|instead|yet|whereas|while|now|in practice|in reality)"
                           r"(?![A-Za-z])|但|可是|实际|却|结果|现在|其实", _IC)


def _guessed(text: str, pos: int) -> bool:
    """The figure at `pos` is a guessed step time: a guess's word before it in its clause, and no 'but' or '实际' between."""
    a = tx.clause_bounds(text, pos)[0]
    for m in _SEEN_INSTEAD.finditer(text, a, pos):
        a = m.end()
    return _GUESSED_STEP.search(text, a, pos) is not None


# the step time gone from one figure to another ('从 15 秒涨到了 45 秒', 'went from 0.8 s to 2.4 s', '由 1.2s 增加到 3.6s'):
# the time now is the job's, the time before the smaller run's or the old one's; h-step the figure before may be
# qualified ('从预估的 15 秒左右涨到了 45 秒以上', 'from an expected ~1.5 s to over 4 s', 'from the original 2 s or so'), and
# a figure guessed (预估, expected, estimated) is no run's
_ABOUT_FIGURE = r"(?:~|≈|about\s|around\s|roughly\s|约|大约|大概|over\s|more than\s|超过)?"
_STEP_FROM_TO = re.compile(
    r"(?:from|从|由)\s*(?:(?:the|an?|our|my)\s+)?(?:(?P<guess>预估的?|预计的?|预期的?|估计的?|理论上?的?|"
    r"(?:expected|estimated|predicted|projected|theoretical)\s)|original\s|previous\s|usual\s|normal\s|"
    r"原来的?|之前的?|原先的?|原本的?|以前的?|正常的?)?\s*"
    rf"{_ABOUT_FIGURE}\s*(?P<a>\d+(?:\.\d+)?)\s*(?P<ua>ms|毫秒|s|秒|seconds?)?\s*(?:左右|上下|多|or so|-ish)?"
    r"\s*(?:(?:a|per|each|every|/|每)\s*(?:个)?\s*(?:step|iteration|iter|it|步))?"
    r"\s*(?:to|到|涨到|变成|增加到|增长到|上升到|升高到|增至|涨至|升到|变为|降到|降低到|缩短到|减少到|下降到|减到|掉到|"
    r"(?:dropped|went down|fell|came down|decreased|improved|grew|increased|rose|jumped|went up|climbed|shot up)\s+to)"
    rf"\s*(?:了\s*)?{_ABOUT_FIGURE}\s*(?P<b>\d+(?:\.\d+)?)\s*(?P<ub>ms|毫秒|s|秒|seconds?)(?![A-Za-z])", _IC)


@extractor
def step_time(text: str) -> list[Understood]:
    """'3.5 s/it', '2 it/s', '每步9.5秒', 'step time 9.5s on 8 nodes vs 3s on one' → job.step_time_s / _baseline_s."""
    raw: list[tuple[re.Match[str], float]] = []
    claimed = bytearray(len(text) + 1)  # positions inside a step time already read (linear, not a scan per match)

    def claim(m: re.Match[str]) -> None:
        claimed[m.start():m.end()] = b"\x01" * (m.end() - m.start())

    for pattern in _PER_N_STEPS:
        for m in pattern.finditer(text):
            if _SAVE_WORDS.search(tx.clause(text, m.start())) or _SIDE_WORK.search(tx.clause(text, m.start())):
                continue  # 'checkpoint saving takes 10 minutes every 1000 steps': a save's time and its interval
            value, steps = parse_number(m["num"]), int(m["n"].replace(",", ""))
            unit = {"秒": "s", "毫秒": "ms", "分钟": "min"}.get(m["unit"], m["unit"].lower())
            seconds = time_to_seconds(value, unit) if value else None
            if seconds and (steps > 1 or pattern is _TIME_THEN_STEPS) and not claimed[m.start()]:
                raw.append((m, round(seconds / steps, 6)))
                claim(m)
    for pattern in _STEP_PATTERNS:
        for m in pattern.finditer(text):
            if _ORDINAL_STEP.search(text, max(0, m.start() - 16), m.start()):
                continue  # s33 '第 1 个 batch 完成（tar 下载完之后 613 秒）', 'the first step takes 90 s': when one step came
            if _PART_OF_STEP.search(text, m.start(), m.start("num")):
                continue  # s34 '每步梯度 AllReduce 要 557 ms', 'each step the backward takes 336 ms': a part's time, not the step's
            if _PART_TAKES.search(text, max(tx.clause_bounds(text, m.start())[0], m.start() - 40), m.start()):
                continue  # h-step 'the all-reduce takes 300 ms per step', '通信要 2 秒每步': the part said before the figure
            value = parse_number(m["num"])
            if value and m.groupdict().get("hi") and (hi := parse_number(m["hi"])) and hi > value:
                value = (value + hi) / 2  # s14 a range said for the step ('takes 1.25–1.3 s'): its middle
            unit = {"秒": "s", "毫秒": "ms", "分钟": "min"}.get(m["unit"], m["unit"].lower())
            seconds = time_to_seconds(value, unit) if value else None
            if seconds and not claimed[m.start("num")] and not _SIDE_WORK.search(text, tx.clause_bounds(text, m.start())[0],
                                                                                 m.start()):
                raw.append((m, seconds))
                claim(m)
    for m in _UNITLESS_STEP.finditer(text):  # a logger's 'Step time: 22.885', 'iter_time=1.57': seconds, unit unsaid
        value = parse_number(m["num"])
        scale = 0.001 if m["ms"] else 1.0
        if value and (m["ms"] or value < 100) and 0.005 <= value * scale <= 3600 and not claimed[m.start("num")]:
            raw.append((m, round(value * scale, 6)))
            claim(m)
    for m in _IT_PER_S.finditer(text):
        value = parse_number(m["num"] or m["num2"] or m["num3"])
        if value:
            raw.append((m, round(1 / value, 6)))
            claim(m)
    for m in _STEPS_PER_MINUTE.finditer(text):
        value = parse_number(m["num"] or m["num2"])
        if value and not claimed[m.start()]:
            raw.append((m, round(60 / value, 6)))
            claim(m)
    for m in _CLOCK_STEP.finditer(text):  # 'time per step = 0:00:1.390'
        seconds = int(m["h"]) * 3600 + int(m["m"]) * 60 + float(m["s"])
        if seconds and not claimed[m.start()]:
            raw.append((m, round(seconds, 6)))
            claim(m)
    for m in _LOGGED_ITER_TIME.finditer(text):  # 'iter 50: loss 3.2, time 1234.56ms'
        value = parse_number(m["num"])
        seconds = time_to_seconds(value, m["unit"].lower()) if value else None
        if seconds and not claimed[m.start("num")]:
            raw.append((m, seconds))
            claim(m)
    for m in re.finditer(r"elapsed time per iteration \(ms\):\s*(?P<num>\d+(?:\.\d+)?)", text):
        raw.append((m, round(float(m["num"]) / 1000, 6)))
        claim(m)
    if _ROUNDS_ARE_EPOCHS.search(text):
        # s30 '迭代 6 轮取平均，平均每轮 46.7s': the rounds are counted passes over the data, epochs, not steps
        raw = [(m, v) for m, v in raw if "轮" not in m.group(0) or re.search(r"step|步|iter|迭代|batch", m.group(0), _IC)]
    bare: set[int] = set()
    # "step time 9.5 s on 8 nodes vs 3 s on one": once a sentence talks step times, its other bare
    # durations are step times too (RTTs are claimed by their own extractor and skipped here).
    sentences = {tx.sentence_bounds(text, m.start()) for m, _ in raw}
    # s13 the step said again with a pronoun in the next sentence: 'A step takes 900ms. When I add a second node, it
    # takes 2700ms.', 'Before, a step took 4.1 s. Now it takes 1.3 s.'; when that sentence grows the run first, the
    # step said before was the smaller run's
    grown_from: set[int] = set()
    for m in _IT_TAKES.finditer(text):
        sa = tx.sentence_bounds(text, m.start())[0]
        if sa > 0 and tx.sentence_bounds(text, sa - 1) in sentences and not claimed[m.start("num")] \
                and not tx.PAST.search(text, sa, m.start()):  # ('before the driver update it was 2 s': the old time)
            value = parse_number(m["num"])
            unit = {"秒": "s", "毫秒": "ms"}.get(m["unit"], m["unit"].lower())
            seconds = time_to_seconds(value, unit) if value else None
            if seconds:
                if _GROWN_BEFORE.search(text, sa, m.start()):  # 'When I add a second node, it takes 2700ms'
                    before_s = tx.sentence_bounds(text, sa - 1)
                    grown_from.update(r.start() for r, _ in raw if tx.sentence_bounds(text, r.start()) == before_s)
                raw.append((m, seconds))
                claim(m)
    for m in re.finditer(rf"{_NUM}\s*(?P<unit>ms|毫秒|s|sec|secs|seconds?|秒)(?![A-Za-z/])", text, _IC):
        if tx.sentence_bounds(text, m.start()) in sentences and not claimed[m.start()] and not re.search(
                r"RTT|ping|latency|延迟|时延", tx.before(text, m.start(), 12), _IC):
            value = parse_number(m["num"])
            unit = {"秒": "s", "毫秒": "ms"}.get(m["unit"], m["unit"].lower())
            seconds = time_to_seconds(value, unit) if value else None
            if seconds:
                raw.append((m, seconds))
                if not _NOW_DURATION.search(text, max(0, m.start() - 16), m.start()):
                    bare.add(m.start())  # '以前 5 秒，现在变成 9 秒': the time said for now is the step's, as much as the past one
    hits = []
    # s29 the synthetic run's pace ('with the --fake option on I get ~7.8 it/s') is no step of the job's
    raw = [(m, seconds) for m, seconds in raw if not _SYNTHETIC_RUN.search(text, tx.clause_bounds(text, m.start())[0],
                                                                           m.start())]
    # h-step a step time guessed or wished for ('原本预计每个 iteration 15s，实际要 45s', 'we estimated 2 s per step, but
    # it's 6 s', 'each step should take 1 s'): no time of the job's (what was seen, said beside it, is)
    raw = [(m, seconds) for m, seconds in raw if not _guessed(text, m.start())]
    baseline_logs = _baseline_log_spans(text)
    for m, seconds in raw:
        at = m.start("num") if "num" in m.re.groupindex and m["num"] else m.start()
        label = tx.nearest_cue(text, at, m.end(), _STEP_CUES, window=40, barrier=_VERSUS)
        if any(a <= m.start() < b for a, b in baseline_logs):
            label = "baseline"  # s30 'The single-machine log reads\n    INFO … 0.166 sec/batch': the smaller run's log
        fact = "job.step_time_baseline_s" if label == "baseline" or m.start() in grown_from else "job.step_time_s"
        # a bare duration in a sentence about steps (forward 357 ms, backward 673 ms) yields to a real step time
        hits.append(_hit(fact, seconds, m, weak=m.start() in bare))
    hits = _other_systems_steps(text, hits)
    if hits and all(h.fact == "job.step_time_baseline_s" for h in hits) and not _STEP_CUES["multi"].search(text):
        # s28 '单卡 30 分钟训练 1000 iter': one run, and it is on one GPU (or one machine): the job's, no baseline
        hits = [_hit_span("job.step_time_s", h.value, text, h.start, h.end, weak=h.weak) for h in hits]
    for m in _STEP_FROM_TO.finditer(text):
        if not re.search(r"step|步|迭代|iter", tx.sentence(text, m.start()), _IC):
            continue
        unit_b = {"秒": "s", "毫秒": "ms"}.get(m["ub"], m["ub"].lower())
        unit_a = {"秒": "s", "毫秒": "ms"}.get(m["ua"] or m["ub"], (m["ua"] or m["ub"]).lower())
        a, b = time_to_seconds(float(m["a"]), unit_a), time_to_seconds(float(m["b"]), unit_b)
        if a and b and b > a:
            if not m["guess"]:  # ('from the estimated 15 s to 45 s': a guess, no run timed)
                hits.append(_hit_span("job.step_time_baseline_s", a, text, m.start("a"), m.end("ua") if m["ua"]
                                      else m.end("a")))
            hits.append(_hit_span("job.step_time_s", b, text, m.start("b"), m.end("ub")))
        elif a and b and b < a:
            # 'the step time went from 4.2 s to 2.9 s' after a fix: the time now is the job's; the old one no baseline
            hits.append(_hit_span("job.step_time_s", b, text, m.start("b"), m.end("ub")))
    for m in re.finditer(r"(?:CV|cv|变异系数|coefficient of variation)\s*(?:is|of|为|是|=|:|：)?\s*(?P<num>\d+(?:"
                         r"\.\d+)?)",
                         text):
        hits.append(_hit("job.step_time_cv", float(m["num"]), m))
    for m in re.finditer(r"波动(?:很大|较大|大|严重|明显)|抖动(?:严重|很大|厉害)?|忽高忽低|忽快忽慢|不稳定|时快时慢|每次都不一样|"
                         rf"{_NOT_STABLE}|"
                         r"(?:会)?卡(?:住|顿)?\s*\d+\s*(?:到|-|~)\s*\d+\s*秒|"
                         r"fluctuat\w*|jitter\w*|spiky|spikes?|unstable|erratic|varies (?:a lot|wildly)|different every run|"
                         r"(?:random|intermittent|periodic) (?:stalls?|pauses?|hangs?)|all over the place|swings?", text, _IC):
        sentence = tx.sentence(text, m.start())
        if _BUSBW_WORDS.search(sentence) and not re.search(r"step|步|迭代|iter|耗时", sentence, _IC):
            continue  # 'busbw isn't stable between runs': the benchmark's figure wavers (fabric_features reads it)
        if re.search(r"step|步|迭代|iter|耗时|时间|time|速度|speed|吞吐|throughput|run", sentence, _IC):
            hits.append(_hit("job.step_time_cv", 0.3, m, inferred=True, weak=True))
    for m in re.finditer(r"(?:step|步|迭代)[^。.;；\n]{0,12}(?:很稳定|平稳|稳定|stable|consistent|steady)", text, _IC):
        if not _NEGATION.search(m.group(0)) and not re.search(_NOT_STABLE, m.group(0), _IC):
            hits.append(_hit("job.step_time_cv", 0.02, m, inferred=True, weak=True))
    return hits


# 'step time varies between 1.2 s and 3.5 s', '每步在 1 到 5 秒之间波动': neither end is the step; the middle is, and the
# spread is its variation (for times spread evenly over the range, cv = (hi - lo) / (√12 · mean))
_STEP_SWING = re.compile(r"(?:between\s+)?(?P<a>\d+(?:\.\d+)?)\s*(?P<ua>ms|毫秒|s|秒|sec|seconds)?\s*(?:and|to|到|至|-|~|～)\s*"
                         r"(?P<b>\d+(?:\.\d+)?)\s*(?P<ub>ms|毫秒|s|秒|sec|seconds)(?![A-Za-z/])", _IC)
_SWING_WORDS = re.compile(r"vary|varies|varying|fluctuat\w*|jump\w*|swing\w*|bounc\w*|oscillat\w*|anywhere between|"
                          r"波动|抖动|来回|忽高忽低|时快时慢|跳", _IC)


def step_time_swings(text: str) -> list[Understood]:
    """The middle of each step-time range said to swing, and the spread as its variation (job.step_time_cv)."""
    out: list[Understood] = []
    for m in _STEP_SWING.finditer(text):
        clause = tx.clause(text, m.start())
        if not (_SWING_WORDS.search(clause) and re.search(r"step|步|迭代|iter", tx.sentence(text, m.start()), _IC)):
            continue
        if {w.group(0).lower() for w in _SWING_WORDS.finditer(clause)} <= {"jumped"} and re.search(
                r"(?:from|从)\s*$", text[max(0, m.start() - 6):m.start()], _IC):
            continue  # job-s11 jumped from: 'jumped from 1.1 s to 3.4 s' is a change (step_time reads it), no swing
        unit_b = {"秒": "s", "毫秒": "ms", "sec": "s", "seconds": "s"}.get(m["ub"], m["ub"].lower())
        unit_a = {"秒": "s", "毫秒": "ms", "sec": "s", "seconds": "s"}.get(m["ua"] or m["ub"], (m["ua"] or m["ub"]).lower())
        lo, hi = time_to_seconds(float(m["a"]), unit_a), time_to_seconds(float(m["b"]), unit_b)
        if not lo or not hi or hi <= lo:
            continue
        mean = (lo + hi) / 2
        out.append(_hit("job.step_time_s", round(mean, 6), m, inferred=True))
        out.append(_hit("job.step_time_cv", round((hi - lo) / (12 ** 0.5 * mean), 2), m, inferred=True))
    return out


# --------------------------------------------------------------------------- storage and checkpoints
_NAS = (r"NAS|NFS|Lustre|GPFS|CephFS|Ceph|HDFS|JuiceFS|CPFS|(?<![A-Za-z])EFS(?![A-Za-z])|FSx|Filestore|Azure Files|"
        r"WEKA|Alluxio|共享存储|网络存储|远程存储|远端存储|分布式存储|"
        r"shared storage|shared (?:file ?system|filesystem|drive)|network storage|network file ?system|"
        r"persistent (?:file ?system|filesystem)|"  # s21 a cloud's shared file system ('their persistent filesystem')
        r"remote storage|存储服务器|BeeGFS|network[- ]mounted|remote[- ]mounted|mounted (?:over|from) the network|"
        r"网络挂载|挂载的网络盘|网络盘|NAS盘|network (?:drive|disk|share)")
# A bucket mounted as a file system is still object storage: every read is a GET ('GCS bucket mounted with GCSFuse',
# 'S3 via mountpoint-s3', 'OSS 通过 ossfs 挂载')
_FUSE_OVER_OBJECT = (r"(?i:gcs ?fuse|Cloud Storage FUSE|s3fs|mountpoint[- ](?:for[- ])?s3|goofys|ossfs|cosfs|obsfs|"
                     r"blobfuse2?|rclone mount)")
_OBJECT = r"对象存储|OSS|(?<![A-Za-z])S3(?![A-Za-z0-9])|GCS|(?<![A-Za-z])COS(?![A-Za-z])|Blob|blob storage|" \
          r"(?<![A-Za-z])(?:gs|s3a?|oss|cos|obs|abfss?|wasbs?):/|" \
          r"object[- ]?stor\w*|MinIO|云存储|(?<![\w-])bucket(?![-_\w])(?!\s*(?:大小|size|cap))|" + _FUSE_OVER_OBJECT
# a volume of each instance's own (EBS, gp2/gp3) and a copy of the data on every machine are local to the node
_LOCAL = r"本地(?:SSD|NVMe|盘|磁盘|硬盘|存储)?|local(?:ly)?(?: SSDs?| NVMe| disks?| storage| drives?)?|本机|NVMe|" \
         r"(?<![A-Za-z])SSD(?!s? cache)|(?<![A-Za-z])(?:EBS|gp[23]|io[12])(?![\w-])|" \
         r"(?:各自|每台(?:机器)?)[^。，,.]{0,8}?(?:放|存|拷|复制)了?一份|" \
         r"(?:its|their) own (?:local )?copy|a (?:local )?copy (?:on|per|for) (?:each|every) (?:node|machine|server)"
# s21 the data kept on another machine and read over the network ('the image files are located on another server, while
# the code runs on the DGX', '数据放在另一台服务器上', 'a remote file server'): network storage, when the clause is about data
_DATA_ELSEWHERE = re.compile(
    r"(?<![A-Za-z])(?:located|stored|kept|sits?|lives?|are|is|resides?|hosted)\s+(?:on|in|at)\s+(?:another|a different|"
    r"a separate|a remote|the other|a second|an? other)\s+(?:server|machine|host|box|computer)(?![A-Za-z])|"
    r"(?<![A-Za-z])(?:on|from|in|at)\s+(?:a |the |our |an? )?(?:remote (?:file )?server|file ?server)(?![A-Za-z])|"
    r"(?:在|从)\s*(?:远程|远端)?\s*文件服务器|"
    r"(?:放|存|存放|位于|在)(?:在)?\s*(?:另一台|另外一台|另一个|别的|其他|其它|远程|远端)\s*(?:机器|服务器|主机)", _IC)
_DATA_FILES = re.compile(r"数据|图片|图像|文件|样本|训练集|(?<![A-Za-z])(?:data|dataset|images?|files|samples|shards)(?![A-Za-z])",
                         _IC)
# s21 where a run writes its outputs (the saves among them) said to be on a storage, in a question about saving
_OUTPUT_DIR = re.compile(r"(?<![A-Za-z])(?:(?:output|log|logging|save|saving|checkpoint|ckpt|run)s?[ _-]?(?:directory|dir|"
                         r"folder|path)|model[ _-]?dir)(?![A-Za-z])|output_dir|输出目录|日志目录|保存目录|保存路径|输出路径",
                         _IC)
# a caching layer names no storage of its own: what it caches is the source ('ImageNet 放在 OSS，通过 Alluxio 挂载')
_CACHE_LAYER = re.compile(r"Alluxio|JuiceFS", _IC)
_STORAGE_KINDS = {"nas": re.compile(_NAS, _IC), "object_store": re.compile(_OBJECT), "local": re.compile(_LOCAL, _IC)}
# the saved model is the checkpoint too: '每次存下来的模型有 13GB', 'the saved model is uploaded to S3', 'save_model'
_SAVED_MODEL = r"(?:存|保存|存储)下?(?:来|出)?的(?:模型|权重)|模型(?:文件|权重)?(?:保存|存储|上传)|saved (?:model|weights)|" \
               r"save_\w*model|save_checkpoint"
_CKPT = re.compile(r"checkpoint\w*|ckpt\w*|检查点|存档|save_steps|torch\.save|save[- _]interval|存一次|保存一次|保存模型|"
                   r"(?:每次|一次)保存|save_state|save_pretrained|"
                   r"save (?:a |the )?(?:model|weights)|saving|" + _SAVED_MODEL, _IC)
_DATA = re.compile(r"数据|data|dataset|读取|(?<![A-Za-z])(?:reading|read|loading)|加载|样本|corpus|shards?|tfrecord|webdataset|"
                   r"dataloader|训练集|语料", _IC)

_STORAGE_SERVER = re.compile(rf"(?:{_NAS}|存储|storage|Lustre|GPFS|CephFS|Ceph|BeeGFS|JuiceFS|MinIO)\s*(?:的)?\s*"
                             r"(?:服务器|server|机器|节点|head|filer|网关|gateway|box)?[^，,。;；\n\d]{0,20}$", _IC)


def _storage_port(text: str, start: int) -> bool:
    """A link rate said of the storage server ('NFS 服务器只有一个万兆口', 'the NAS has a 10GbE uplink'): what caps the
    reads of every node, not the nodes' own NIC."""
    return bool(_STORAGE_SERVER.search(text, max(tx.clause_bounds(text, start)[0], start - 30), start))



@extractor
def storage(text: str) -> list[Understood]:
    """NAS/NFS/Lustre → nas, 对象存储/OSS/S3 → object_store, local SSD → local; in a checkpoint clause → checkpoint_tar"
    "get."""
    hits = []
    for kind, pattern in _STORAGE_KINDS.items():
        for m in pattern.finditer(text):
            if kind == "local" and re.search(r"local(?:ly)?$", m.group(0), _IC) and not re.search(
                    r"data|数据|checkpoint|ckpt|读|read|stor|cache|缓存", tx.clause(text, m.start()), _IC):
                continue
            here = tx.clause(text, m.start())
            if kind == "nas" and _CACHE_LAYER.fullmatch(m.group(0)) and _STORAGE_KINDS["object_store"].search(text):
                continue  # a cache in front of a bucket: 'OSS 里的数据通过 Alluxio 挂载' reads object storage
            if kind == "local" and re.search(r"(?:缓存|缓冲|暂存|(?<![A-Za-z])(?:cache|caching|staging|scratch))\s*(?:层|盘)?\s*"
                                             r"[(（:：]?\s*(?:on|in|to|at|用|在|到)?\s*(?:the\s+|a\s+)?(?:local\s+|本地\s*)?$",
                                             text[max(0, m.start() - 14):m.start()], _IC) and any(
                    p.search(tx.sentence(text, m.start())) for k, p in _STORAGE_KINDS.items() if k != "local"):
                continue  # s21 '数据源（HDD/NAS）→ 预处理缓存（NVMe）': the local disk caches the source named beside it
            ckpt, data = _CKPT.search(here), _DATA.search(here)
            if re.search(r"(?:不在|不是放在|没有?放在|不放在|(?<![A-Za-z])(?:not|no longer)\s+(?:on|in|from))\s*$",
                         text[max(0, m.start() - 12):m.start()], _IC):
                continue  # st-s11 a storage denied: '数据不在 NFS 上，已经拷到本地了', 'the data is not on NFS'
            if kind == "local" and not data and not ckpt and re.search(r"\d\s*(?:TB|T|GB|G|TiB)\s*(?:的)?\s*(?:本地)?\s*$",
                                                                        text[max(0, m.start() - 12):m.start()], _IC):
                continue  # st-s11 a disk's capacity: 'each node has a 2TB NVMe', '4TB 的本地 NVMe 盘'
            # "每100步存一次checkpoint，写到NAS上": writing to storage in a sentence about checkpoints.
            if not ckpt and not data and _CKPT.search(tx.sentence(text, m.start())) and re.search(
                    r"写|存到|保存到|上传|传到|存在|保存在|存储在|放在|write|writing|written|save[sd]? (?:to|on|in)|upload|"
                    r"goes? to|dump|stored (?:on|in)|kept (?:on|in)", here, _IC):  # s21 '模型存在共享存储上'
                ckpt = _CKPT.search(tx.sentence(text, m.start()))
            if not ckpt and not data and _OUTPUT_DIR.search(here) and _CKPT.search(text):
                ckpt = _OUTPUT_DIR.search(here)  # s21 'saving takes ages … The log directory is on the same SSD'
            if ckpt:
                target = "local" if kind == "local" else "network"
                hits.append(_hit("job.checkpoint_target", target, m))
            if data or not ckpt:
                hits.append(_hit("job.data_source", kind, m, weak=not data))
    for m in _DATA_ELSEWHERE.finditer(text):
        here = tx.clause(text, m.start())
        if _DATA_FILES.search(here) and not _CKPT.search(here) and not re.search(
                r"(?:not|no longer|不在|不是)\s*$", text[max(0, m.start() - 10):m.start()], _IC):
            hits.append(_hit("job.data_source", "nas", m))
    return hits


# A checkpoint named, not any 'save' (saving a log, 保存结果 ...): the duration is how long the save holds training up.
_SAVE_WORDS = re.compile(r"checkpoint\w*|ckpt|state[_ ]dict|检查点|存档|save_pretrained|torch\.save|保存模型|"
                         r"(?:save|saving|保存|存)\s*(?:the\s*)?(?:model|weights|权重)|" + _SAVED_MODEL, _IC)
_SAVE_TIME = re.compile(rf"{_NUM}\s*(?:\+|多)?\s*(?P<unit>s|sec|secs|seconds?|秒|min|mins|minutes?|分钟|h|hours?|小时)(?![A-Za-z/])",
                        _IC)


# s21 a time and what it is spent on, the save: '30 seconds saving the checkpoint', '20 s on writing each checkpoint',
# '花了 30 秒保存 checkpoint', '40 秒用来存模型'
_TIME_ON_SAVE = re.compile(r"\s*(?:(?:are|is)\s+spent\s+)?(?:(?:on|in|for)\s+)?(?:saving|writing|dumping|to save|to write)\s+"
                           r"(?:out\s+)?(?:the\s+|a\s+|each\s+|every\s+|one\s+|its\s+)?(?:checkpoints?|ckpts?|models?|"
                           r"weights|state[_ ]dicts?)(?![A-Za-z])|"
                           r"\s*(?:的时间)?\s*(?:来|用来|用于|在)?\s*(?:保存|存|写)\s*(?:一次|一个|下)?\s*(?:checkpoint|ckpt|"
                           r"检查点|模型|权重)|"
                           # s21 the pause while the save runs: 'training pauses for 5 minutes while it checkpoints'
                           r"\s*(?:each time\s+|every time\s+)?(?:while|when|whenever)\s+(?:it|we|the job|training)?\s*"
                           r"(?:is\s+)?(?:checkpoints|checkpointing|saves|saving|writes (?:a |the )?checkpoint)(?![A-Za-z])"
                           r"(?!\s+(?:the\s+|its\s+)?(?:logs?|results?|images?|outputs?|metrics|samples))",
                           _IC)


# s21 a duration in Chinese numerals ('两分钟', '半个小时', '三十秒'; '十几分钟' is no figure)
_ZH_SAVE_TIME = re.compile(r"(?<![\d一二三四五六七八九十两几])(?P<n>[一两二三四五六七八九十]{1,3}|半)\s*(?:个)?\s*"
                           r"(?P<unit>分钟|小时|秒)(?!\S?几)")
_ZH_UNIT_S = {"分钟": 60.0, "小时": 3600.0, "秒": 1.0}


def _save_before(text: str, a: int, at: int) -> bool:
    """The save named in the clause before `at` (from `a`), or in the clause before it when this one names nothing else:
    '一次保存要半个小时', '保存 checkpoint 的时候所有卡都停住，大概要等两分钟' (never '训练一个 epoch 要两小时')."""
    here = text[a:at]
    if re.search(r"加载|读取|恢复|(?<![A-Za-z])(?:load\w*|resum\w*|restor\w*)", here, _IC):
        return False
    if _SAVE_WORDS.search(here):
        return True
    return bool(_SAVE_WORDS.search(text, max(0, a - 40), a)) and not re.search(
        r"epoch|step|iter|训练|迭代|轮|每", here, _IC)


@extractor
def checkpoints(text: str) -> list[Understood]:
    """'每100步存一次', 'checkpoint every 500 steps', 'save_steps=500', '300GB checkpoint' → job.checkpoint_*;
    'a save takes 400+ seconds', '保存一次要 70 多秒' → job.checkpoint_save_s (how long a save holds training up)."""
    hits = []
    for m in _SAVE_TIME.finditer(text):
        a, b = tx.clause_bounds(text, m.start())
        writing = re.search(r"写|存|write|writ|sav|dump|upload", text[a:m.start()], _IC)
        if writing and re.search(r"load|read|restor|resum|加载|读|恢复", text[a + writing.end():m.start()], _IC):
            continue  # 'saving takes 17 s but loading takes 30 s': the 30 s is the load's
        # 'each checkpoint is 53 GB. Writing it to Lustre takes 70 s': the save may be named just before
        before = text[max(0 if writing else a, m.start() - (90 if writing else 40)):m.start()]
        # 'Storing … big checkpoints (~17.4 GB) on S3 …: saving takes ~17 seconds': the save of the checkpoints the
        # sentence is about, however far back they were named
        # '每 1000 步保存一次 checkpoint，每次要 5 分钟', '…, each one takes 5 minutes': the save of the clause before
        each = re.match(r"\s*(?:每次|每一次|一次|(?:each (?:one|save|time)|which|it)(?![A-Za-z]))", text[a:m.start()], _IC)
        named = _SAVE_WORDS.search(before) or ((writing or each) and _SAVE_WORDS.search(tx.sentence(text, m.start())))
        # st-s11 a save of the checkpoints the sentence names: 'save_steps=200，每次保存 3 分钟', '…，一次 120GB，要 8 分钟'
        named = named or (_CKPT.search(tx.sentence(text, m.start())) and (re.search(
            r"(?:每次|每一次|一次)\s*(?:保存|存)|保存\S{0,2}(?:耗时|要|需要)", text[a:m.start()]) or re.fullmatch(
            r"\s*(?:要|需要|耗时|得)\s*(?:约|大约|大概)?\s*", text[a:m.start()])))
        if not writing and re.search(r"(?<![A-Za-z])(?:load\w*|restor\w*|resum\w*)|加载|恢复|读取", before, _IC):
            continue  # st-s11 'loading the checkpoint at startup takes 15 minutes': a load's time, not a save's
        if re.search(r"(?:every|每隔?)\s*$", text[max(a, m.start() - 8):m.start()], _IC):
            continue  # 'we save a checkpoint every 10 minutes': the interval, not how long a save takes
        takes = re.search(r"(?:takes?|took|needs?|lasts?|(?:stalls?|blocks?|freezes?|hangs?)[\w ]{0,20}?for|要|需要|花了?|耗时|用了?)\s*(?:about|around|roughly|~|约|大约|大概)?\s*$",
                          text[max(a, m.start() - 40):m.start()], _IC)  # s21 'stalls training for about 3 minutes'
        # 'checkpoint every 10 minutes' is an interval; 'saving takes 10 minutes every 1000 steps' is a save's time
        # st-s11 only in its own clause: '保存一次 ckpt 大概 5min，每 2000 step 存一次' is a save's time, then the interval
        if named and (takes or not re.search(r"每|every|interval|间隔|步|steps?", text[m.end():min(b, m.end() + 6)], _IC)):
            value = parse_number(m["num"])
            seconds = time_to_seconds(value, m["unit"].lower()) if value else None
            if seconds:
                hits.append(_hit("job.checkpoint_save_s", round(seconds, 3), m))
    for m in _SAVE_TIME.finditer(text):  # s21 the time, then the save it is spent on: '30 seconds saving the checkpoint'
        after = _TIME_ON_SAVE.match(text, m.end())
        value = parse_number(m["num"]) if after else None
        seconds = time_to_seconds(value, m["unit"].lower()) if value else None
        if seconds and not any(h.fact == "job.checkpoint_save_s" for h in hits) \
                and not re.search(r"(?:every|每隔?)\s*$", text[max(0, m.start() - 8):m.start()], _IC):
            hits.append(_hit("job.checkpoint_save_s", round(seconds, 3), m))
    for m in _ZH_SAVE_TIME.finditer(text):  # s21 '一次要半个小时', '大概要等两分钟': a save's time in Chinese numerals
        a = tx.clause_bounds(text, m.start())[0]
        value = 0.5 if m["n"] == "半" else parse_number(m["n"])
        if value and not any(h.fact == "job.checkpoint_save_s" for h in hits) \
                and re.search(r"(?:要|需要|耗时|花了?|用了?|等)\s*(?:大概|大约|约|差不多|将近|快)?\s*$", text[a:m.start()]) \
                and not re.search(r"每|隔", text[a:m.start()]) and _save_before(text, a, m.start()):
            hits.append(_hit("job.checkpoint_save_s", value * _ZH_UNIT_S[m["unit"][:2]], m))
    for m in re.finditer(rf"(?:每|every)\s*(?:隔)?\s*{_NUM}\s*(?:个)?\s*(?:步|steps?|iters?|iterations?|its)(?![A-Za-"
                         rf"z])",
                         text, _IC):
        if _CKPT.search(tx.sentence(text, m.start())):
            n = parse_number(m["num"])
            if n and n == int(n):
                hits.append(_hit("job.checkpoint_interval_steps", int(n), m))
    for m in re.finditer(r"(?:save_steps|save[_-]interval|checkpoint[_-]interval|checkpointing_steps|"
                         r"every_n_train_steps)\s*[=:]?\s*(?P<num>\d+)", text, _IC):
        hits.append(_hit("job.checkpoint_interval_steps", int(m["num"]), m))
    for m in re.finditer(rf"{_NB}(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>TB|TiB|GB|GiB|T|G)(?![A-Za-z/])", text):
        near = tx.before(text, m.start(), 30, same_clause=False) + " " + tx.after(text, m.end(), 24)
        memory = re.search(r"显存|内存|memory|VRAM|HBM|RAM|GPU", text[m.end():m.end() + 8] +
                           text[max(0, m.start() - 6):m.start()], _IC)
        if _CKPT.search(near) and not memory and tx.sentence_bounds(text, m.start()) == tx.sentence_bounds(
                text, (_CKPT.search(near) and m.start()) or m.start()):
            if not _CKPT.search(tx.sentence(text, m.start())):
                continue
            if m["unit"] in {"G", "T"} and (not _CKPT.search(tx.clause(text, m.start())) or _NIC_AFTER.match(text, m.end())):
                continue  # '保存 checkpoint 很快，两机 25G': a bare 'G' in another clause is more likely a link's rate
            size = size_to_gbytes(float(m["num"]), m["unit"])
            if size:
                hits.append(_hit("job.checkpoint_size_gbytes", size, m))
    return hits


# fix31 the words between a batch size and its figure: a verb of setting ('is', '设置为', 'set to', 'to' after 'set the
# batch size'), after an adverb of limit or sameness ('batch_size 只能设置为 2', 'per device batch size 都是 8')
_BATCH_SET = tx.SET_TO
# a batch size said bare ('batch size=4', 'bs 24', 'batch size 设成 8'; job-s12b 'batch 32' as an item of a list of
# settings, 'ResNet-50, batch 32, TCP'); never a rate, a count of steps or a size in tokens
_BARE_BATCH = re.compile(rf"(?<![\w.])(?:(?:mini[-_ ]?)?batch[_ ]?size|mini[-_ ]?batch(?:\s+of)?|batch\s*大小|批(?:次|量|处理)?大小|(?<![A-Za-z])bs(?![A-Za-z])|batch(?=\s*[=:：]\s*\d)|(?:(?<=[,，(（、;；]\s)|(?<=[,，(（、;；]))batch(?=\s*\d+\s*(?:[,，)）、;；.。]|$)))"
                         rf"\s*{_BATCH_SET}{_NUM}(?!\d|\.\d)"
                         r"(?!\s*(?:/|per|个?样本每|samples?/s|img|images?/s|tokens?|it/s|steps?|epochs?|%|x\b|倍|GB|MB|"
                         r"张|块|台|个?节点|卡|GPUs?|cards?|nodes?))", _IC)


# s14 a batch of other work than the training step's: 'generation batch size 128', 'inference bs 64', '推理 batch 32'
_NOT_TRAINING_BATCH = re.compile(r"(?:(?<![A-Za-z])(?:eval(?:uation)?|validation|val|test|inference|infer|generation|generate|gen|"
                                 r"rollout|sampling|predict(?:ion)?|decode|decoding|serving|vllm|sglang)|推理|验证|评估|测试|生成|采样)"
                                 r"[\s_-]*(?:的)?\s*$", _IC)


def bare_batch_sizes(text: str, hits: list[Understood] | None = None) -> list[Understood]:
    """Every bare batch size (weak): what each process's loader takes in DDP, Horovod and the Trainer alike, so the
    per-GPU batch; one said split across the GPUs ('batch size 512 across 8 GPUs', 'batch size 256 分到 8 张卡') is the
    global batch. The caller decides which to keep (understanding.py: under a framework that splits the batch, all are
    global)."""
    out = []
    for m in _BARE_BATCH.finditer(text):
        if _overlaps(m, hits or []) or re.search(r"(?:global|total|effective|overall|全局|总的?|等效|有效|整体)\s*(?:的)?\s*$",
                                                 text[max(0, m.start() - 14):m.start()], _IC) or _NOT_TRAINING_BATCH.search(
                                                     text, max(0, m.start() - 24), m.start()):
            continue
        n = parse_number(m["num"])
        if n and n == int(n) and n >= 1:
            fact = "job.global_batch_size" if _SPLIT_ACROSS.match(text, m.end()) else "job.micro_batch_size"
            out.append(_hit(fact, int(n), m, weak=True))
            then = _THEN_UNDER.match(text, m.end())
            under = re.search(r"时\s*$", text[max(0, m.start() - 16):m.start()]) or re.match(
                r"\s*(?:on|with|for) ", text[m.end():then.start("num")] if then else "", _IC)
            if then and under and (n2 := parse_number(then["num"])):
                out.append(_hit_span(fact, int(n2), text, then.start("num"), then.end("num"), weak=True))
    return out


# job-s12b a second run's batch said without its words again, under its own condition: '单机时 batch size 256，两机时
# 512', 'batch size 256 on one machine, 512 on two' (the last said stands: the larger run is the one asked about)
_THEN_UNDER = re.compile(r"(?:\s*(?:on|with|for) [^,，;；.。\d]{1,20})?\s*[，,；;]\s*(?:而|但|and|but)?\s*"
                         r"(?:[^，,;；.。\d\s][^，,;；.。\d]{0,10}?时\s*|)(?P<num>\d{1,5})(?![\d.])"
                         r"(?=\s*(?:(?:on|with|for) [^,，;；.。]{1,20})?\s*(?:[，,；;。.]|$))", _IC)


# --------------------------------------------------------------------------- job shape, topology
@extractor
def job_shape(text: str) -> list[Understood]:
    """Grad accumulation, global batch, parameter server, async, critical run, NVLink/PCIe, NCCL settings."""
    hits = []
    # job-s11 accumulation said: 'accumulation steps = 8', 'accum_steps 4' without the word gradient
    for m in re.finditer(rf"(?:gradient[_ ]accumulation(?:[_ ]steps)?|(?<![A-Za-z])accum(?:ulation)?[_ ]steps|"
                         rf"grad(?:ient)?[_ ]acc(?:um(?:ulation)?)?(?:[_ ]s"
                         rf"teps)?"
                         rf"|accumulat(?:e|ing)(?: gradients?)?(?: over| for)?|梯度累积|梯度累加|梯度累计|累积|累加)"
                         # job-s11 accumulation said: '梯度累积步数为 4', '梯度累加次数设置为 8', 'grad accum set to 4'
                         rf"(?:\s*(?:步数|次数|步|数))?(?:\s*(?:is|of|=|:|：|为|是|设为|设成|设置为|设置成|设置的是|设的是|用的是|用的|"
                         rf"开到|开了|set to|了))?[^\S\n]*{_NUM}\s*(?:个)?\s*(?:步|steps?|次|"
                         rf"micro-?batch(?:es)?|batches)?(?!\s*(?:nodes?|machines?|GPUs?|servers?|台|张|块|节点|机))", text, _IC):
        n = parse_number(m["num"])
        if re.search(r"(?:^|[^=:：\d.\s])\s*\d+\s*(?:gradient\s+|grad\s+)?$", text[max(0, m.start() - 16):m.start()], _IC):
            continue  # s14 '16 accumulation steps 4 nodes': the count said before (read below), the next figure another's
        if n and n == int(n) and n >= 1:
            hits.append(_hit("job.grad_accum_steps", int(n), m))
    # (s14 and 'ga=8', 'accum=4', 'grad_acc: 16' as run names and overrides write them)
    for m in re.finditer(rf"(?<![A-Za-z_])(?:GAS|gas|ga|GA|accum|grad_acc)\s*[=:：]\s*{_NUM}(?![\d.])", text):  # 'gas=8, mbs=2': DeepSpeed's abbreviation
        n = parse_number(m["num"])
        if n and n == int(n) and n >= 1:
            hits.append(_hit("job.grad_accum_steps", int(n), m))
    for m in re.finditer(rf"{_NUM}\s*(?:步|steps?|次|个micro-?batch|micro-?batch(?:es)?)\s*(?:的)?\s*(?:梯度)?"
                         r"(?:累积|累加|累计|accumulation|of (?:gradient )?accumulation)|"
                         # s14 the count before its words: '16 accumulation steps', '8 gradient accumulation steps'
                         # (not a figure said before: 'batch size = 256\n Gradient Accumulation steps = 2')
                         rf"(?<![=:：]\s)(?<![=:：]){_NB}(?P<n2>{NUMBER})[^\S\n]*(?:gradient\s+|grad\s+)?accumulation\s+steps"
                         r"(?!\s*(?:[=:：]|is\s|of\s))", text, _IC):
        n = parse_number(m["num"] or m["n2"])
        if n and n == int(n) and not _overlaps(m, hits):
            hits.append(_hit("job.grad_accum_steps", int(n), m))
    for m in re.finditer(r"(?:没有|没用|不做|没开|未使用|no|without|not using)\s*(?:any\s+)?(?:梯度累积|梯度累加|"
                         r"gradient accumulation|grad accum\w*)", text, _IC):
        hits.append(_hit("job.grad_accum_steps", 1, m))
    for m in re.finditer(r"(?:global[_ ]batch(?:[_ ]size)?|global-batch-size|gbs|全局\s*(?:batch(?:\s*size)?|bs)|总的?\s*(?:bs|batch)"  # job-s11 总的
                         r"(?:\s*size)?|全局批(?:次|量)?大小|全局批次|effective batch(?: size)?|total train batch size(?:\s*\([^)]{0,60}\))?|"
                         r"(?<![A-Za-z])(?:total|overall)\s+(?:training\s+|train\s+)?(?:batch[_ ]size|bs)|"
                         r"train[_-]batch[_-]size)\s*(?:is|of|=|:|：|为|是|应该是|就是|变成|变为|would be|becomes|should be|"
                         r"设的是?|设成了?|设为|设置为|设置成|设置的是|开到|用的是?)?\s*"
                         # s14 a product then its result: 'global batch size = 8 x 16 x 4 = 512'
                         r"(?:\d+(?:\s*[*×x]\s*\d+)+\s*=\s*)?"
                         rf"{_NUM}(?!\s*[*×x]\s*\d)", text, _IC):
        n = parse_number(m["num"])
        if re.match(r"\s*(?:[KMB]|k|千|万|百万)?\s*(?:tokens?|toks?|个?\s*token)", text[m.end():m.end() + 12], _IC):
            continue  # job-s11 batch in tokens: 'global batch size = 4M tokens' counts tokens, not samples
        if n and n == int(n):
            hits.append(_hit("job.global_batch_size", int(n), m))
    # s14 the whole job's batch said after its figure: 'batch size 256 in total', 'batch size 1024 (global)', 'bs 512 总共'
    for m in re.finditer(rf"(?<![\w.])(?:batch[_ ]?size|batch|bs)\s*(?:is|of|=|:|：|为|是)?\s*{_NUM}\s*(?:[(（]\s*(?:global|total|"
                         r"全局|总)\s*[)）]|in total|total|overall|globally|across all (?:the )?(?:GPUs|ranks|devices)|总共|一共|合计)"
                         r"(?![A-Za-z])", text, _IC):
        n = parse_number(m["num"])
        if n and n == int(n) and not _overlaps(m, hits):
            hits.append(_hit("job.global_batch_size", int(n), m))
    for fact, words in (("job.tp_degree", r"tensor[-_ ](?:model[-_ ])?parallel(?:ism|[-_ ]size|[-_ ]degree)?|TP(?:[-_ ]?size)?|tp_size|"
                                         r"(?:张量|tensor)\s*并行(?:度|数)?"),
                        ("job.pp_degree", r"pipeline[-_ ](?:model[-_ ])?parallel(?:ism|[-_ ]size|[-_ ]degree)?|PP(?:[-_ ]?size)?|"
                                         r"pp_size|(?:流水线?|pipeline)\s*并行(?:度|数)?"),  # job-s11 流水并行
                        ("job.ep_degree", r"expert[-_ ](?:model[-_ ])?parallel(?:ism|[-_ ]size|[-_ ]degree)?|EP(?:[-_ ]?size)?|"
                                         r"ep_size|专家并行(?:度|数)?")):
        # job-s11 degree said: 'PP 度为 4', '张量并行度设置为 4', 'TP 用的是 8' as much as 'TP=8'
        for m in re.finditer(rf"(?<![A-Za-z])(?:{words})(?:\s*(?:度|数|大小|degree))?\s*(?:=|:|：|of|为|是|设为|设成|设置为|"
                             rf"设置成|设置的是|用的是|用的|开到|开了|set to)?\s*(?P<num>\d{{1,3}})(?!\d|\.\d)"
                             r"(?!\s*[x×*]\s*\d)", text, _IC):  # 'TP x PP = 4 x 2': a product of degrees, read below
            n = int(m["num"])
            if 1 <= n <= 512:
                hits.append(_hit(fact, n, m))
    # s34 the degree before its letters: '256 EP on 32 nodes', '8 TP', '4 PP' (uppercase, as a parallel layout is
    # written; not the figure of a degree named before it: 'TP 8 PP 2' is TP 8)
    for m in re.finditer(r"(?<![\w.])(?P<num>\d{1,3})\s*(?P<name>TP|PP|EP)(?![A-Za-z\d])(?!\s*[=:：]?\s*\d)", text):
        n, fact = int(m["num"]), {"TP": "job.tp_degree", "PP": "job.pp_degree", "EP": "job.ep_degree"}[m["name"]]
        if re.search(r"(?<![A-Za-z])(?:TP|PP|EP|DP|CP|SP)[-_ ]?(?:size|degree)?\s*[=:：]?\s*$", text[max(0, m.start() - 12):m.start()],
                     _IC):
            continue
        if 2 <= n <= 512 and not _overlaps(m, hits) and not any(h.fact == fact for h in hits):
            hits.append(_hit(fact, n, m))
    # degrees named as a product, then their figures in that order: 'TP x PP = 4 x 2', 'TP×PP×DP = 8×4×2', 'TP/PP/DP = 8/2/4'
    _names = {"tp": "job.tp_degree", "pp": "job.pp_degree", "ep": "job.ep_degree"}
    for m in re.finditer(r"(?<![A-Za-z])(?P<names>(?:TP|PP|DP|EP|CP|SP)(?:\s*[x×*/]\s*(?:TP|PP|DP|EP|CP|SP))+)\s*(?:=|:|：|is|are)\s*"
                         r"(?P<nums>\d{1,3}(?:\s*[x×*/]\s*\d{1,3})+)(?![\d.])", text, _IC):
        names, nums = re.split(r"\s*[x×*/]\s*", m["names"].lower()), re.split(r"\s*[x×*/]\s*", m["nums"])
        if len(names) == len(nums):
            for name, num in zip(names, nums, strict=True):
                if name in _names and 1 <= int(num) <= 512 and not any(h.fact == _names[name] for h in hits):
                    hits.append(_hit(_names[name], int(num), m))
    # degrees glued in a run's name: 'tp4pp2', 'TP8-PP2', 'dp4_tp2_pp2', 'llama70b_tp8pp4' (each letter pair then its degree)
    for m in re.finditer(r"(?<![A-Za-z])(?:dp\d{1,3}[-_]?)?tp(?P<tp>\d{1,3})[-_]?pp(?P<pp>\d{1,3})(?![\d.])(?![A-Za-z]{2})",
                         text, _IC):
        for fact, group in (("job.tp_degree", "tp"), ("job.pp_degree", "pp")):
            if 1 <= int(m[group]) <= 512 and not any(h.fact == fact for h in hits):
                hits.append(_hit_span(fact, int(m[group]), text, m.start(group) - 2, m.end(group)))
    # job-s11 stages: 'pipeline parallel with 4 stages', '4-stage pipeline', '流水线切成 4 段': the pipeline's degree
    for m in re.finditer(r"(?:pipeline|流水线|PP)[^，,。.;；\n\d]{0,24}?(?<![\w.])(?P<num>\d{1,3})\s*(?:个)?\s*(?:[- ]?stages?|段|级|"
                         r"个?\s*stage)(?![A-Za-z])|(?<![\w.])(?P<n2>\d{1,3})[- ]stage\s+pipeline", text, _IC):
        n = int(m["num"] or m["n2"])
        if 2 <= n <= 512 and not _overlaps(m, hits):
            hits.append(_hit_span("job.pp_degree", n, text, m.start("num" if m["num"] else "n2"), m.end()))
    # '8 卡张量并行', '2-way tensor parallel', 'tensor parallelism over both GPUs', 'TP across 4 GPUs'
    for fact, words in (("job.tp_degree", r"tensor[- ]parallel(?:ism)?|TP|张量并行"),
                        ("job.pp_degree", r"pipeline[- ]parallel(?:ism)?|PP|流水线并行"),
                        ("job.ep_degree", r"expert[- ]parallel(?:ism)?|EP|专家并行")):
        for m in re.finditer(rf"(?<![\w.])(?P<num>\d{{1,3}})\s*(?:[- ]?way|路|卡|张卡|GPUs?|个\s*GPU)\s*(?:的)?\s*(?:{words})"
                             rf"(?![A-Za-z])|(?<![A-Za-z])(?:{words})\s*(?:over|across|on|with|用了?|跨)\s*(?:all\s+)?"
                             rf"(?P<w>\d{{1,3}}|both|two|four|eight|两|四|八)\s*(?:(?:of the|of our|the)\s+)?"
                             rf"(?:GPUs|cards|卡|张卡|个\s*GPU)", text, _IC):
            n = {"both": 2, "two": 2, "两": 2, "four": 4, "四": 4, "eight": 8, "八": 8}.get((m["w"] or "").lower()) \
                or int(m["num"] or m["w"])
            if 2 <= n <= 512 and not _overlaps(m, hits):
                hits.append(_hit(fact, n, m))
    for m in re.finditer(r"(?:micro[_ -]?batch(?:[_ ]size)?|micro[_ ]bs|micro_train_batch_size|mbs|per[_ ]device[_ ]train[_ ]batch[_ ]size|"
                         r"(?:instantaneous )?batch size (?:per|(?:of|for|on) (?:each|every|a single|one)) (?:device|GPU|card|rank)|"
                         r"(?:per[- ](?:GPU|device|rank)|local)\s+"
                         r"batch(?:[_ ]size)?|(?:每张卡|每卡|单卡|每块卡|每个\s*GPU|每个\s*rank|每张\s*GPU)\s*(?:的|上)?\s*"
                         r"(?:batch(?:[_ ]?size)?|bs|批大小))"
                         rf"\s*{_BATCH_SET}{_NUM}", text, _IC):
        n = parse_number(m["num"])
        if n and n == int(n) and n >= 1:
            hits.append(_hit("job.micro_batch_size", int(n), m))
    # job-s11 per card between: 'batch size 每卡 4', 'bs 单卡 8', 'batch size per GPU: 16'
    for m in re.finditer(rf"(?:batch[_ ]?size|(?<![A-Za-z])bs)\s*(?:是|为)?\s*(?:每张卡|每卡|单卡|每块卡|每个\s*GPU|per\s+(?:GPU|device|card))"
                         rf"\s*(?:上)?\s*(?:is|=|:|：|为|是)?\s*{_NUM}(?!\s*(?:tokens?|%|GB|MB))", text, _IC):
        n = parse_number(m["num"])
        if n and n == int(n) and n >= 1 and not _overlaps(m, hits):
            hits.append(_hit("job.micro_batch_size", int(n), m))
    # 'batch size 4 per GPU', 'bs=8/卡': the count before the 'per device' words
    for m in re.finditer(rf"(?:batch[_ ]?size|(?<![\w.])batch|\bbs)\s*{_BATCH_SET}{_NUM}\s*(?:per (?:GPU|device|card|rank)|/\s*(?:GPU|卡|card)|"
                         r"each GPU|on each GPU)(?![A-Za-z])", text, _IC):
        n = parse_number(m["num"])
        if n and n == int(n) and n >= 1 and not _overlaps(m, hits):
            hits.append(_hit("job.micro_batch_size", int(n), m))
    # a batch size said bare ('batch size=4', 'batch 32', 'bs 24', 'batch size 设成 8'): what each process's loader takes in
    # DDP, Horovod and the Trainer alike, so the per-GPU batch (weak: a global, total or effective batch is not it)
    for h in bare_batch_sizes(text, hits):
        if h.fact == "job.global_batch_size" or h.value <= 128 and not _GLOBAL_BATCH_SAID.search(text):
            hits.append(h)
    # machines given the two roles of a parameter-server job: '2 台做 worker、2 台做 server', 'two workers, two servers'
    for m in re.finditer(r"(?:\d+|[两二三四]|two|one|four)\s*(?:台|个)?\s*(?:做|作为|当|as)?\s*(?:GPU\s*)?workers?"
                         r"[^。.;；\n]{0,24}?(?:\d+|[两二三四一]|two|one|four)\s*(?:台|个)?\s*(?:做|作为|当|as)?\s*"
                         r"(?:CPU[- ]?(?:only\s*)?)?servers?(?![A-Za-z])|"
                         r"(?:\d+|[两二三四一]|two|one|four)\s*(?:台|个)?\s*(?:做|作为|当|as)?\s*servers?"
                         r"[^。.;；\n]{0,24}?(?:\d+|[两二三四]|two|four)\s*(?:台|个)?\s*(?:做|作为|当|as)?\s*workers?(?![A-Za-z])",
                         text, _IC):
        hits.append(_hit("job.comm_pattern", "parameter_server", m))
    # job-s12b roles said with a verb: 'one is scheduler, one is server, 2 are GPU workers', '一台做 scheduler，一台是 server'
    # (s34 and 'ps' for the server, with an aside between: '一台做 ps（CUDA_VISIBLE_DEVICES=0，一块 K40c），另一台做 worker')
    _role = r"(?:\d+|one|two|three|four|[一两二三四])\s*(?:台|个)?\s*(?:is|are|was|were|做|是|当|作为)\s*(?:the\s+|a\s+)?"
    _server = r"(?:CPU[- ]?(?:only\s*)?)?(?:servers?|scheduler|ps)(?![A-Za-z])"
    _between = r"(?:[^。.;；\n（(]|[（(][^）)]{0,80}[）)]){0,40}?"
    for m in re.finditer(rf"{_role}{_server}{_between}{_role}(?:GPU\s*)?"
                         rf"workers?(?![A-Za-z])|{_role}(?:GPU\s*)?workers?(?![A-Za-z]){_between}{_role}"
                         rf"{_server}", text, _IC):
        hits.append(_hit("job.comm_pattern", "parameter_server", m))
    for m in re.finditer(r"parameter[- ]servers?|参数服务器|pservers?|(?<![A-Za-z])PS(?:\s*(?:架构|模式|-worker|/worker))|"
                         # 'one ps + four workers', '1 个 ps 4 个 worker', 'workers and 2 ps': ps beside workers
                         r"(?<![A-Za-z])ps(?![A-Za-z])(?!\s*(?:aux|ef|-))(?=[^。.;；\n]{0,24}?workers?(?![A-Za-z]))|"
                         r"workers?(?![A-Za-z])[^。.;；\n]{0,24}?(?<![A-Za-z(])ps(?![A-Za-z])(?!\s*(?:aux|ef|-))|"
                         r"ps[-/]worker|BytePS|kv-?store|(?<![A-Za-z])dist_(?:sync|async|device_sync)(?:_device)?(?![A-Za-z])|"
                         r"ParameterServerStrategy|"  # job-s11 ps strategy: TensorFlow's tf.distribute strategy for it
                         r"(?<![A-Za-z])ps_hosts(?![A-Za-z])|job_name[= ]+[\"']?ps(?![A-Za-z])",  # TF1's flags of a PS job
                         text, _IC):
        hits.append(_hit("job.comm_pattern", "parameter_server", m))
    for m in re.finditer(r"(?:use|using|用的是|采用|走的是|based on|via|with|执行|做|跑|run(?:s|ning)?|perform(?:s|ing)?|doing)"
                         r"\s*(?:the\s*)?(?:NCCL\s*)?(?:ring\s*)?all[- _]?reduce|"
                         # 'an all-reduce every step', '每个 step 都做一次 allreduce', 'MPI 的 ring' ('ring all-reduce'
                         # alone names the algorithm, as a question about it does, not the job's exchange)
                         r"all[- _]?reduce\s+(?:on\s+|after\s+|at\s+)?(?:every|each|per)\s+(?:step|iteration|batch|"
                         r"mini-?batch)|每(?:个|一)?\s*(?:step|iteration|iter|迭代|步|batch)\s*(?:都|之后|后)?\s*(?:要)?\s*"
                         r"(?:做|执行|跑|进行)?\s*(?:一次)?\s*all[- _]?reduce|"
                         r"(?:MPI|Horovod|NCCL)\s*(?:的|'s)?\s*ring(?![A-Za-z])|"
                         # TensorFlow's all-reduce strategies, Horovod (an all-reduce library), TF1's PS flags are below
                         r"(?:MultiWorker)?MirroredStrategy|CollectiveAllReduceStrategy|(?<![A-Za-z])(?:Horovod|horovodrun)(?![A-Za-z])|"
                         # net-s12b a ring of the job's machines: 'ring 里最慢的那个节点', 'the slowest node in the ring'
                         r"(?<![A-Za-z])ring\s*(?:里|中|上|里面|当中)\s*(?:的)?\s*(?:最慢|最弱|每个|所有|任何一个)(?:的)?\s*(?:那个|那台|一个)?\s*"
                         r"(?:节点|机器|rank|GPU|卡|链路)|(?<![A-Za-z])(?:slowest|weakest)\s+(?:node|machine|rank|GPU|link|member|"
                         r"worker)\s+(?:in|of)\s+the\s+ring(?![A-Za-z])", text, _IC):
        hits.append(_hit("job.comm_pattern", "allreduce", m, weak=True))
    for m in re.finditer(r"异步(?:训练|更新|SGD|梯度|模式)|async(?:hronous)?\s*(?:training|SGD|updates?|gradients?|mo"
                         r"de)|"
                         r"Hogwild|stale (?:gradients|updates)", text, _IC):
        if not _is_question_clause(text, m.start()):
            hits.append(_hit("job.async", True, m))
    # ('Async SGD' is no 'sync SGD': the letter before is read in any case; h-symptoms 'training is synchronous')
    for m in re.finditer(r"同步训练|synchronous (?:training|SGD|updates)|sync SGD|(?<![A-Za-z])(?:training|updates|SGD) "
                         r"(?:is|are|was) (?:fully )?synchronous(?![A-Za-z])", text, _IC):
        if not re.search(r"异|a$", text[max(0, m.start() - 1):m.start()], _IC) and not _is_question_clause(text, m.start()):
            hits.append(_hit("job.async", False, m))
    for m in re.finditer(r"important (?:training )?(?:run|job)|critical (?:training )?(?:run|job)|production (?:train"
                         r"ing )?"
                         r"(?:run|job)|mission[- ]critical|关键(?:的)?(?:训练|任务|作业|项目)|重要(?:的)?(?:训练|任务|"
                         r"作业|项目|实验)|"
                         r"不能(?:失败|出错|出问题)|can(?:no|')t afford to (?:fail|lose|restart)", text, _IC):
        hits.append(_hit("job.critical", True, m))
    for m in re.finditer(r"NVLink|NVSwitch|NV链接|nvlink", text):
        if _is_question_clause(text, m.start()) and not re.search(r"没有|no |without|not|无|不支持", tx.clause(text, m.start()),
                                                                   _IC):
            continue  # '两张卡之间要不要 NVLink？' asks, it does not say
        negated = re.search(r"(?:no|without|lacks?|lacking|没有|无|不带|不支持|未启用)\s*(?:the\s*)?$",
                            tx.before(text, m.start(), 12), _IC)
        if negated and m.group(0) == "NVSwitch":
            continue  # 'NVLink bridges (no NVSwitch)': no switch says nothing against the links
        # '`nvidia-smi nvlink` says `<inactive>`', 'nvlink -s 显示 inactive': the tool found no active link
        inactive = re.match(r"[^，,。.;；\n]{0,40}?(?:<inactive>|\binactive\b|not active|未激活|没有激活|is down|are down)",
                            text[m.end():m.end() + 60], _IC)
        hits.append(_hit("gpu.nvlink", not (negated or inactive), m))
    for m in re.finditer(r"(?:PCIe|pcie)\s*(?:only|卡|版)|只有\s*PCIe|仅\s*PCIe|(?:只|仅)走\s*PCIe", text):
        if not re.search(r"NVLink", tx.sentence(text, m.start()), _IC) or re.search(r"只|仅|only", m.group(0), _IC):
            hits.append(_hit("gpu.nvlink", False, m))
    for m in re.finditer(r"NCCL_IB_DISABLE\s*=\s*(?P<v>[01])", text):
        hits.append(_hit("nccl.ib_disabled", m["v"] == "1", m))
    # s12 IB turned off in words: 'NCCL: bond0 (TCP), IB disabled', '禁用了 IB', 'IB 被关掉了' (a test of it tried is none)
    for m in re.finditer(r"(?<![A-Za-z_])(?:IB|InfiniBand)(?: transport)?\s*(?:is |was |are |were |has been |got )?"
                         r"(?:disabled|turned off|switched off)(?![A-Za-z])|(?<![A-Za-z])(?:disabled|turned off|switched off)\s+"
                         r"(?:the\s+)?(?:IB|InfiniBand)(?![A-Za-z_])|(?:禁用|关闭|关掉|禁掉)(?:了)?\s*(?:NCCL\s*的?\s*)?(?:IB|InfiniBand)"
                         r"(?![A-Za-z_])|(?<![A-Za-z_])(?:IB|InfiniBand)\s*(?:被(?:我们|我|手动)?|已|已经)?\s*(?:禁用|关闭|关掉|禁掉)", text, _IC):
        if not _is_question_clause(text, m.start()) and not re.search(
                r"(?:try|tried|trying|test|testing|如果|if|试|尝试|测试)", tx.before(text, m.start(), 24), _IC):
            hits.append(_hit("nccl.ib_disabled", True, m))
    for m in re.finditer(r"NCCL_SOCKET_IFNAME\s*=\s*(?P<v>[\w.\-^,=]+)", text):
        hits.append(_hit("nccl.socket_ifname", m["v"], m))
    # job-s11 gid said: 'gid index 用的 3', 'GID index 设置为 3', 'RoCE GID index is 3': NCCL_IB_GID_INDEX in words
    # (the sentence may end right after it, 'gid index 3.'; the variable's own name said bare too, 'NCCL_IB_GID_INDEX 3')
    for m in re.finditer(r"(?:(?<![A-Za-z_])GID[_ ]?(?:index|索引|idx)|(?<![A-Za-z_])NCCL_IB_GID_INDEX)\s*"
                         r"(?:用的是|用的|设置为|设置成|设置的是|设为|设成|改成了?|改为|配置为|"
                         r"是|为|=|:|：|is|of|set to|was|(?:changed |switched |moved )?to|设置到|改到|改成)?\s*"
                         r"(?P<n>\d{1,3})(?!\d|\.\d)|"
                         # 'using GID 3 (RoCE v2)', '用 GID 3': the index said bare after a verb of use (not 'GID 0: fe80::…')
                         r"(?:using|use|uses|used|with|用|用的是)\s+(?:the\s+)?GID\s*(?P<n2>\d{1,3})(?![\d.:/,、]|\s*(?:/|or|and|或|和)\s*\d)",
                         text, _IC):
        if int(m["n"] or m["n2"]) <= 255 and not _is_question_clause(text, m.start()):
            hits.append(_hit("nic.gid_index", int(m["n"] or m["n2"]), m))
    for m in re.finditer(r"NET/IB\s*:\s*No device found", text):  # NCCL found no RDMA device: it runs on sockets
        hits.append(_hit("nccl.transport", "socket", m))
    for m in re.finditer(r"NET/IB\s*:\s*Using\s*\[", text):
        hits.append(_hit("nccl.transport", "ib", m))
    for m in re.finditer(r"(?:via|over|through|on|走)\s*(?:the\s+)?NET/(?P<via>IB|Socket)|"
                         r"(?:goes|going|runs?|running|falls? back to|fell back to|uses?|using|走的?是?)\s*(?:over\s+|via\s+|on\s+)?"
                         r"(?:the\s+)?(?P<ipoib>IPoIB)(?![A-Za-z])|"
                         # 'NCCL is on TCP sockets here', 'NCCL was using plain TCP'
                         r"NCCL\s+(?:is|was)\s+(?:still\s+|only\s+|just\s+)?(?:on|over|using)\s+(?:plain\s+)?TCP(?:/IP)?"
                         r"(?:\s+sockets?)?(?![A-Za-z])|"
                         # '看日志是 socket 通信', '走的是 TCP socket 传输' (not '不是 socket 通信')
                         r"(?<![不没])(?:是|走的?是?|用的?是?)\s*(?:TCP\s*)?(?-i:[Ss]ocket)\s*(?:通信|传输)|"
                         r"(?:runs?|running|goes|going|communicat\w*|talks?)\s+(?:over|via|through|on)\s+"
                         r"(?:plain\s+)?(?:TCP\s+)?(?P<sock>sockets?)", text, _IC):
        if (m["via"] or "").lower() == "ib" and _NOT_IN_USE_BEFORE.search(text, max(0, m.start() - 24), m.start()):
            continue  # s12 'it should be on NET/IB', '希望走 NET/IB': the transport wanted, not the one in use
        hits.append(_hit("nccl.transport", "ib" if (m["via"] or "").lower() == "ib" else "socket", m))
    # 'nccl 日志显示 NET/Socket', 'the log says NET/Socket': NCCL's own name for its socket transport, quoted in words
    # (a setting 'NCCL_NET=Socket' is the commands' to read)
    for m in re.finditer(r"(?<![=\w/])NET/Socket(?![\w/])(?!\s*:\s*Using)", text):
        hits.append(_hit("nccl.transport", "socket", m))
    # 'NCCL isn't using IB', 'why didn't NCCL use RDMA', 'NCCL 没有走 IB': NCCL off the fabric it has, so on its sockets
    # (an assumption: another plugin could carry it); a yes/no question ('is NCCL not using IB?') says nothing
    for m in re.finditer(r"(?:why|how come)\s+(?:isn't|doesn't|didn't|wasn't|won't)\s+NCCL\s+(?:use|using|pick|picking|select|"
                         r"selecting|go(?:ing)? over)\s+(?:the\s+)?(?:IB|InfiniBand|RDMA|RoCE|GPUDirect)(?![A-Za-z])|"
                         r"NCCL\s+(?:is\s+|was\s+)?(?:not|never|isn't|wasn't|doesn't|didn't|does not|did not|won't|can't|cannot)"
                         r"\s+(?:(?:even|actually|really)\s+)?(?:use|using|used|go(?:ing)? over|pick(?:ing)?|select(?:ing)?|run(?:ning)? "
                         r"(?:over|on))\s+(?:the\s+)?(?:IB|InfiniBand|RDMA|RoCE|the RDMA \w+|GPUDirect)(?![A-Za-z])|"
                         r"NCCL[^，,。;；\n]{0,8}?(?:没有?|不|没能|无法|用不了)\s*(?:走|用|使用)(?:上|到)?了?\s*(?:IB|RDMA|RoCE|InfiniBand)",
                         text, _IC):
        if re.search(r"(?:^|[.?!。？！]\s*)(?:is|does|did|will|can|should|could|would|是不是|是否)\s*$",
                     text[max(0, m.start() - 12):m.start()], _IC):
            continue
        hits.append(_hit("nccl.transport", "socket", m, inferred=True, weak=True))
    # s12 NET/IB in words: 'NCCL_DEBUG shows NET/IB with GDR disabled', '日志里是 NET/IB': NCCL's name for its IB verbs
    # transport, quoted as what it uses (never what it should use: 'instead of NET/IB', '而不是 NET/IB', 'why not NET/IB?')
    for m in re.finditer(r"(?<![=\w/])NET/IB(?![\w/])(?!\s*:\s*(?:No device|Using))", text):
        if _NOT_IN_USE_BEFORE.search(text, max(0, m.start() - 24), m.start()) or re.match(
                r"[^，,。.;；\n]{0,12}?(?:[?？]|吗|么)", text[m.end():m.end() + 14]):
            continue
        hits.append(_hit("nccl.transport", "ib", m))
    # '日志显示 NET/IB/0/GDRDMA': a channel's connection quoted in words (GDRDMA: GPUDirect RDMA in use)
    for m in re.finditer(r"(?<![=\w/])NET/IB/\d+(?P<gdr>/GDRDMA)?(?![\w/])", text):
        if tx.said_absent(text, m.start()):
            continue  # '日志里从来没有 via NET/IB/0/GDRDMA', 'never shows NET/IB/0/GDRDMA': a line missing from the log
        hits.append(_hit("nccl.transport", "ib", m))
        if m["gdr"]:
            hits.append(_hit("nccl.gdr_disabled", False, m))
    for m in re.finditer(r"Using network (?P<t>Socket|IB)|NET/(?P<t2>Socket)\s*:\s*Using|(?:走了|走的是?|回退到|退回到|fell back to|falls back to|"
                         # zh-s12b still on sockets: '日志里还是走 socket', '一直走 socket'
                         r"(?:还是|一直|都|只能|只|仍然|依然|全部|实际)\s*走)"
                         r"\s*(?P<t3>socket|sockets|TCP)", text, _IC):
        if m["t3"] and re.match(r"\s*(?:了|的)?\s*(?:吗|么|没有?|[?？]|的话)", text[m.end():m.end() + 6]):
            continue  # '是不是还是走 socket 吗'
        t = (m["t"] or m["t2"] or m["t3"]).lower()
        hits.append(_hit("nccl.transport", "ib" if t == "ib" else "socket", m))
    for m in re.finditer(r"NCCL\s*(?:的\s*)?(?:通信|communication|traffic)?\s*(?:is\s*)?(?:still\s*|only\s*|always\s*|actually\s*|"
                         r"确实\s*|还是\s*|其实\s*|也\s*|都\s*|也都\s*|已经\s*)?"
                         # job-s11 transport verbs: 'NCCL 用了 IB', 'NCCL 走的 RDMA', 'NCCL is using RoCE', 'uses plain sockets'
                         r"(?:走的是|走了|走的|走|用的是|用了|用的|使用的是|使用了|使用|用|falls? back to|fell back to|using|uses|used|"
                         r"went over|goes over|runs over|is running over|picked|picks|chose|chooses|selected|selects|"
                         r"ends? up (?:on|over|using|with)|ended up (?:on|over|using|with))"
                         r"\s*(?:the\s*|plain\s*|its\s*)?"
                         r"(?P<t>socket|sockets|TCP|IB|InfiniBand|RoCE(?:\s*v2)?|RDMA)(?![A-Za-z])", text, _IC):
        if re.match(r"\s*(?:吗|么|没有?|[?？]|的话)", text[m.end():m.end() + 4]) or re.search(
                r"(?:是不是|是否|有没有|(?<![A-Za-z])(?:if|whether|does|did|is))\s*$", text[max(0, m.start() - 10):m.start()], _IC):
            continue  # job-s11 transport verbs: 'NCCL 用了 IB 吗', 'check whether NCCL uses IB' ask, they do not say
        if _TRANSPORT_WANTED.search(text, max(0, m.start() - 10), m.start()):
            continue  # zh-s12b '怎么让 NCCL 走 IB', '希望 NCCL 走 RoCE', 'force NCCL to use IB': the transport wanted
        hits.append(_hit("nccl.transport", "socket" if m["t"].lower().startswith(("socket", "tcp")) else "ib", m))
    # NCCL over Ethernet set against IB ('nccl 走的是以太网而不是 IB', 'NCCL goes over Ethernet instead of IB'): sockets
    for m in re.finditer(r"NCCL\s*(?:的\s*)?(?:通信|traffic)?\s*(?:is\s*)?(?:still\s*|actually\s*|还是\s*|其实\s*|都\s*)?"
                         r"(?:走的是|走了|走的|走|用的是|用了|goes over|went over|runs over|uses|is using|used)\s*(?:the\s*|plain\s*)?"
                         r"(?:以太网|普通网卡|ethernet|TCP/IP)\s*[，,]?\s*(?:而不是|而非|不是|instead of|rather than|not)\s*(?:the\s*)?"
                         r"(?:IB|InfiniBand|RDMA|RoCE)(?![A-Za-z])", text, _IC):
        if not _TRANSPORT_WANTED.search(text, max(0, m.start() - 10), m.start()):
            hits.append(_hit("nccl.transport", "socket", m))
    # the transport by its noun ('using the Socket transport instead of IB', 'fell back to the TCP transport'), or NCCL
    # named before and then 'it' ('NCCL_DEBUG=INFO shows it is using socket'); a yes/no question or a wish says nothing
    for m in _TRANSPORT_NOUN.finditer(text):
        if m["it"] and not _NCCL_SAID.search(text, tx.sentence_bounds(text, m.start())[0], m.start()) and not re.search(
                r"(?<![A-Za-z])(?:logs?|debug|shows|says|prints|reports)(?![A-Za-z])|日志",
                text[tx.sentence_bounds(text, m.start())[0]:m.start()], _IC):
            continue
        if _TRANSPORT_WANTED.search(text, max(0, m.start() - 10), m.start()) or re.search(
                r"(?:^|[.?!。？！]\s*)(?:is|does|did|was|will|should|would|can|could)\s+(?:NCCL|it)\s+$",
                text[max(0, m.start() - 16):m.start()], _IC) or (
                m["it"] and re.match(r"(?:is|does|did|was)\s", text[max(0, m.start() - 4):m.start()], _IC)):
            continue
        if _overlaps(m, hits):
            continue
        t = m["t"] or m["t2"]
        hits.append(_hit("nccl.transport", "socket" if re.match(r"(?:NET/)?(?:socket|tcp)", t, _IC) else "ib", m))
    # net-s12b transport said without NCCL's name in an NCCL question: '所有 case 都走 IB', 'every run went over IB'
    if _NCCL_SAID.search(text):
        for m in _GOES_OVER.finditer(text):
            if _overlaps(m, hits) or re.match(r"\s*(?:了|的)?\s*(?:吗|么|没有?|[?？]|的话)", text[m.end():m.end() + 6]) \
                    or re.search(r"(?:是不是|是否|有没有|没有?|不|怎么|如何|怎样|(?<![A-Za-z])(?:if|whether|does|did|not|n't|"
                                 r"never|should|to|can|how))[^，,。;；\n]{0,6}$", text[max(0, m.start() - 12):m.start()], _IC) \
                    or re.search(r"(?<![A-Za-z])(?:how|whether|check|verify|confirm|make sure|ensure)(?![A-Za-z])|怎么|如何|怎样",
                                 text[max(tx.sentence_bounds(text, m.start())[0], m.start() - 48):m.start()], _IC):
                continue  # asked, denied or wanted: '是不是都走 IB', 'should go over IB', 'didn't go over IB'
            t = m["t"] or m["t2"] or m["t3"]
            hits.append(_hit("nccl.transport", "socket" if t.lower().startswith(("socket", "tcp")) else "ib", m))
    # 'TCP 网络（没有 RDMA）', 'training over plain TCP': with no RDMA in the picture, NCCL's only path is its sockets
    for m in re.finditer(r"(?<![A-Za-z])TCP\s*(?:/IP\s*)?(?:网络|network|networking)|(?:走|通过|over|via)\s*(?:plain\s*)?TCP(?![A-Za-z])|"
                         r"用\s*TCP\s*(?=(?:来)?(?:跑的?|进行)?\s*(?:NCCL|训练|分布式|多机|通信))",  # zh-s12b '用 TCP 跑的 NCCL
                         text, _IC):
        rdma_said = any(not re.search(r"没有|没|无|no |without|not ", text[max(0, r.start() - 10):r.start()], _IC)
                        for r in _RDMA_WORDS.finditer(text))
        if not rdma_said:
            hits.append(_hit("nccl.transport", "socket", m, weak=True, inferred=True))
    return hits


_TRANSPORT_VERB = (r"(?:using|uses|used|on|over|picks?|picked|chose|chooses|selects?|selected|falls? back to|fell back to|"
                   r"ends? up (?:on|using)|ended up (?:on|using))")
_TRANSPORT_NOUN = re.compile(rf"(?<![A-Za-z]){_TRANSPORT_VERB}\s+(?:the\s+|its\s+|NCCL's\s+)?"
                             r"(?P<t>NET/Socket|NET/IB|Socket|sockets?|TCP|IB|InfiniBand|RoCE)\s+(?:transport|network plugin)|"
                             rf"(?P<it>(?<![A-Za-z])it(?:'s|\s+is|\s+was)?)\s+(?:still\s+|only\s+|actually\s+)?{_TRANSPORT_VERB}\s+"
                             r"(?:plain\s+)?(?:TCP\s+)?(?P<t2>sockets?|TCP|IB|InfiniBand)(?![A-Za-z/])", _IC)
# zh-s12b NCCL's transport as a wish or a way asked: '怎么让 NCCL 走 IB', '强制 NCCL 用 RDMA', 'how to make NCCL use IB'
_TRANSPORT_WANTED = re.compile(r"(?:让|使|使得|想|要|希望|强制|指定|怎么|如何|怎样|应该|能不能|可以|想要|"
                               r"(?<![A-Za-z])(?:make|force|get|let|want|how to|should|can I|could I))\s*(?:it\s*)?$", _IC)


# (an NCCL with its version is masked as an entity before the readers run: its figures' words say NCCL as well)
_NCCL_SAID = re.compile(r"(?<![A-Za-z])(?:NCCL|nccl-tests|[a-z]+_perf|busbw|algbw|all[-_ ]?reduce)", _IC)
_GOES_OVER = re.compile(r"(?:(?<=都)|(?<=全部)|(?<=全都)|(?<=均)|(?<=确实)|(?<=确认))\s*(?:走的是|走了|走的|走)\s*"
                        r"(?P<t>IB|InfiniBand|RoCE(?:\s*v2)?|RDMA|socket|TCP)(?![A-Za-z])|"
                        r"(?<![A-Za-z])(?:all|every|each|both)\s+(?:of\s+the\s+)?(?:\w+\s+)?(?:cases?|runs?|tests?|jobs?|traffic|"
                        r"channels?|rings?|connections?)\s+(?:\w+\s+)?(?:go|goes|went|run|runs|ran)\s+(?:over|through|via)\s+"
                        r"(?:the\s+)?(?P<t2>IB|InfiniBand|RoCE(?:\s*v2)?|RDMA|sockets?|TCP)(?![A-Za-z])|"
                        # the traffic as the subject: '通信走的 IB', '跨机流量都走 TCP', 'the traffic goes over sockets'
                        r"(?:通信|流量|(?<![A-Za-z])(?:traffic|communication))\s*(?:都|全部|全都|也|还是|确实|实际上?)?\s*"
                        r"(?:走的是|走了|走的|走|用的是|goes over|went over|runs over|is going over|is on)\s*(?:the\s+)?"
                        r"(?P<t3>IB|InfiniBand|RoCE(?:\s*v2)?|RDMA|sockets?|TCP)(?![A-Za-z])", _IC)


# --------------------------------------------------------------------------- fabric features named in words
_FEATURES: list[tuple[str, re.Pattern[str], Any]] = [
    ("nccl.p2p_disabled", re.compile(r"P2P\s*(?:is\s*|was\s*)?(?:disabled|turned off|switched off|off(?![A-Za-z])|"
                                     r"not (?:supported|available|possible))|(?<![A-Za-z])(?:disabl\w*|turn\w* off)\s*P2P|"
                                     r"(?:禁用|关闭|关掉|关了|不支持)(?:了)?\s*P2P|P2P\s*(?:被)?(?:禁用|关闭|关掉|关了|不可用|不支持)",
                                     _IC), True),
    # net-s12b P2P on: 'P2P 打开了', '开了 P2P 以后', 'after enabling P2P', 'with P2P enabled'
    ("nccl.p2p_disabled", re.compile(r"P2P\s*(?:is\s*|was\s*)?(?:enabled|turned on|switched on)|(?<![A-Za-z])(?:enabl\w*|"
                                     r"turn\w* on)\s*(?:the\s*)?P2P|(?:打开|开启|启用|开了|开)(?:了)?\s*P2P|"
                                     r"P2P\s*(?:被)?(?:打开|开启|启用)", _IC), False),
    ("container.ipc_host", re.compile(r"--ipc[= ]host|ipc=host|host IPC|共享 ?IPC", _IC), True),
    ("nic.bonded", re.compile(r"(?<![A-Za-z])(?:bond(?:ed|ing)?|LACP|链路聚合|网卡绑定|双口绑定|802\.3ad|"
                              # a bond's mode said after its (masked) name: 'bond0 (mode 4) of 2x 25GbE'
                              r"(?<=·)\s*[(（][^()（）\n]{0,24}?mode\s*[0-6]\s*[)）]|"
                              # what the (masked) interface is made of: 'bond0 is made of two 10G NICs', 'bond0 consists of
                              # 2 x 25GbE ports', 'bond0 with two slaves eth0 and eth1'
                              r"(?<=·)\s*(?:is\s+)?(?:made (?:up )?of|consists of|combin(?:es|ing)|aggregat(?:es|ing)|"
                              r"(?:built|formed) (?:from|of)|with (?:two|2|four|4) (?:slaves|members|ports|NICs))"
                              r"(?=\s*(?:the\s+)?(?:two|2|four|4|both|\d\s*[x×*]|slaves|members|·))|"
                              r"(?:绑定|绑|聚合)成(?=\s*(?:一个|一块|一张)?\s*(?:bond|逻辑|虚拟|·)))(?![A-Za-z])", _IC), True),  # net-s11 绑定成
    ("job.moe", re.compile(r"(?<![A-Za-z])(?:MoE|mixture[- ]of[- ]experts|混合专家|expert parallel\w*|专家并行|DeepEP|"
                           r"DeepSeek[- ]?(?:V2|V3|R1)(?:\.\d)?|Mixtral|Qwen\d?(?:\.\d)?-\d+B-A\d+B|all-?to-?all dispatch|"
                           r"(?<![A-Za-z])EP\s?(?:4|8|16|32|64|128|256)(?![\d]))(?![A-Za-z])|"
                           r"(?<![A-Za-z0-9.])\d{1,3}\s?[x×]\s?\d{1,3}(?:\.\d)?[Bb](?![A-Za-z0-9])", _IC), True),  # Mixtral 8x7B
]


# net-s12b run under a state: a state said as the far side of a comparison ('比关掉 P2P 时还慢', 'slower than with P2P
# disabled') or as the condition of a run ('关闭 P2P 时的测试', 'when P2P was disabled it ran at …') is that run's, not the job's
_STATE_OF_ANOTHER_RUN = re.compile(r"(?:(?<![无对])比|相比(?:于)?|对比|(?<![A-Za-z])(?:than|compared (?:to|with)|vs\.?|versus|"
                                   r"when|whenever|while))\s*(?:with|when|用|在|把)?\s*(?:the\s*)?$", _IC)
_RUN_UNDER_STATE = re.compile(r"\s*(?:时|的时候|的情况下|那次|之前)")


# GPUDirect RDMA named in words says nothing by itself; its state does ('GDR is not enabled', '开启了 GDR').
# (s30 'GPU RDMA is not enabled', as NCCL's and pyxis' users write it)
_GDR = re.compile(r"(?<![A-Za-z_])(?:GDR|GPU ?Direct(?: RDMA)?|GDRDMA|GPU[- ]RDMA|nvidia[-_]peermem|nv_peer_mem(?:ory)?)"
                  r"(?![A-Za-z_])",
                  _IC)
_GDR_OFF = re.compile(r"none of|没有出现|不含|not (?:been )?(?:enabled|used|on|working|loaded|installed)|disabled|isn't|is not|没有|没开|未开|"
                      r"没启用|未启用|没装|没加载|关闭|关掉|不生效|没生效|off(?![A-Za-z])|without|no (?=GDR|GPU)|没|"
                      # 'the NIC doesn't support GPUDirect', '网卡不支持 GDR', '用不了 GDR': GDR is not available
                      r"不支持|用不了|不能用|无法(?:使用|启用|开启|用)|(?:doesn't|don't|does not|do not|cannot|can't|won't)\s+"
                      r"(?:support|use|work|do)|not supported|unsupported|no support|lacks?(?![A-Za-z])|lacking", _IC)
# 'GDR 没问题', 'GDR is fine', 'GPUDirect works': said to work (its 没/no are no negation of GDR)
_GDR_FINE = re.compile(r"没(?:有)?(?:什么)?(?:问题|毛病)|没报错|(?<![不没])正常|(?<!n't )(?<!not )(?:is |looks? |seems? |are )?"
                       r"(?:fine|ok(?:ay)?|good)(?![A-Za-z])|(?<!n't )(?<!not )(?<![A-Za-z])works?(?![A-Za-z])|"
                       r"(?<!n't )(?<!not )working(?:\s+(?:fine|well|normally|correctly|properly))|"
                       r"(?:no|without(?: any)?) (?:issues?|problems?|errors?)", _IC)
# 'GDR isn't the problem', '不是 GDR 的问题': GDR ruled out as the cause, nothing said of its state
_GDR_NOT_CAUSE = re.compile(r"(?:isn't|is not|not|wasn't|was not)\s+(?:the|a|an|our)\s+(?:problem|issue|cause|culprit|"
                            r"bottleneck)|不是\s*\S{0,12}?(?:的)?\s*(?:问题|原因|瓶颈)|(?:跟|和|与)\s*\S{0,12}?(?:没|无)(?:有)?(?:关系|关)", _IC)
_GDR_ON = re.compile(r"(?:is |was |are )?(?:enabled|on(?![A-Za-z])|working|in use|active)|开启了|打开了|已开|开了|是开的|"
                     r"已启用|生效", _IC)


# PCIe ACS, likewise: on or off is what matters ('ACS 已经 disable', 'ACS is enabled', 'SrcValid+').
_ACS_OFF = re.compile(r"disabl\w*|turn(?:ed)? off|switched off|(?<![A-Za-z])off(?![A-Za-z])|关掉|关闭|关了|已关|没开|未开启|"
                      r"not enabled|is not on", _IC)
_ACS_ON = re.compile(r"enabl\w*|(?<![A-Za-z])on(?![A-Za-z])|开着|开启|打开|(?:SrcValid|ReqRedir|CmpltRedir)\+|turned on|is on|"
                     r"还开|没关", _IC)


_UNSTABLE = re.compile(_NOT_STABLE + r"|unstable|不稳定|上下跳|忽高忽低|波动|抖动|erratic|jittery|fluctuat\w*|varies|changes? (?:a lot )?from run to run|"
                       r"run[- ]to[- ]run|每次(?:跑出来)?都不一样|时高时低|drops? (?:now and then|sometimes|randomly)|骤降", _IC)
_BUSBW_WORDS = re.compile(r"busbw|bus ?bandwidth|nccl-tests|[a-z_]+_perf\b|all_?to_?all|总线带宽|"
                          # s11 unsteady: 'all_reduce 带宽不稳定', 'NCCL bandwidth is erratic'
                          r"(?:all[-_ ]?reduce|NCCL)\s*(?:的)?\s*(?:带宽|bandwidth|bw|throughput)", _IC)


@extractor
def fabric_features(text: str) -> list[Understood]:
    """GDR / GPUDirect, P2P disabled, PCIe ACS, --ipc=host, bonded ports, MoE, ZeRO stage, /dev/shm size."""
    hits = []
    for m in _UNSTABLE.finditer(text):
        if _BUSBW_WORDS.search(tx.sentence(text, m.start())) or _BUSBW_WORDS.search(
                tx.before(text, m.start(), 120, same_clause=False)):
            hits.append(_hit("nccl.busbw_unstable", True, m))
    for m in re.finditer(r"(?:none of|no)\s[^.。;；]{0,50}?(?:GDRDMA|GDR)|没有\s*(?:出现\s*)?/?GDRDMA|"
                         r"(?:never|not|without)\s+(?:with\s+|using\s+|show\w*\s+)?/GDRDMA|"
                         r"(?:staged|bounced?|copied|goes|go)\s+(?:through|via)\s+(?:the\s+)?(?:host|CPU|system)\s+memory|"
                         r"(?:经过|绕道|绕经|走)\s*(?:CPU|主机|host)\s*内存", text, _IC):
        hits.append(_hit("nccl.gdr_disabled", True, m))  # 'none of the channel lines end in /GDRDMA'
    for m in _GDR.finditer(text):
        a, b = tx.clause_bounds(text, m.start())
        around = text[max(a, m.start() - 16):min(b, m.end() + 20)]
        if _GDR_NOT_CAUSE.search(around):
            continue  # 'GDR isn't the problem here': ruled out as a cause, its state not said
        sa, sb = tx.sentence_bounds(text, m.start())
        if _SUSPECTS.search(text, sa, m.start()) and re.search(r"[?？]|吗", text[m.end():sb + 1]):
            continue  # '还可能是旧 NCCL、GDR disabled、HCA 顺序吗？': one of the suspects asked about, no state
        fine = _GDR_FINE.search(around)
        if _GDR_OFF.search(_GDR_FINE.sub(" ", around)):
            hits.append(_hit("nccl.gdr_disabled", True, m))
        elif fine or _GDR_ON.search(around):
            hits.append(_hit("nccl.gdr_disabled", False, m))
    for m in re.finditer(r"(?<![A-Za-z])ACS(?:Ctl)?(?![A-Za-z])", text):
        a, b = tx.clause_bounds(text, m.start())
        around = text[max(a, m.start() - 20):min(b, m.end() + 16)]  # 'shows SrcValid+ in ACSCtl'
        if _ACS_OFF.search(around):
            hits.append(_hit("pcie.acs_enabled", False, m))
        elif _ACS_ON.search(around):
            hits.append(_hit("pcie.acs_enabled", True, m))
    for fact, pattern, value in _FEATURES:
        for m in pattern.finditer(text):
            if fact == "nic.bonded" and re.search(r"bond\d", m.group(0)):
                continue
            if fact == "nccl.p2p_disabled" and _STATE_OF_ANOTHER_RUN.search(text, max(0, m.start() - 16), m.start()) \
                    or fact == "nccl.p2p_disabled" and _RUN_UNDER_STATE.match(text, m.end()):
                continue  # net-s12b run under a state: '比关掉 P2P 时还慢', '关闭 P2P 时的测试': the run compared with
            hits.append(_hit(fact, value, m))
    for m in re.finditer(r"(?:ZeRO|zero|Zero)[- _]?(?:stage[- _]?)?(?P<n>[0123])(?![\d])|stage[\"']?\s*[:=]\s*(?P<n2>[0123])",
                         text):
        hits.append(_hit("job.zero_stage", int(m["n"] or m["n2"]), m))
    # job-s11 zero said: 'DeepSpeed stage 3', 'deepspeed 的 stage 2', 'ZeRO 三阶段', 'ZeRO 第 3 阶段', 'zero 2 阶段'
    for m in re.finditer(r"(?:DeepSpeed|ZeRO)\s*(?:的\s*)?(?:stage|阶段)\s*[-_]?(?P<n>[0-3])(?![\d.])|(?:ZeRO|DeepSpeed)\s*(?:的\s*)?"
                         r"(?:第\s*)?(?P<zh>[0-3零一二三])\s*(?:阶段|级|stage)", text, _IC):
        if not _overlaps(m, hits):
            n = m["n"] or m["zh"]
            hits.append(_hit("job.zero_stage", int(n) if n.isdigit() else "零一二三".index(n), m))
    for m in re.finditer(r"(?:/dev/shm|shm[-_ ]size|shm)\s*(?:is|=|:|：|只有|of|大小)?\s*(?:only\s*)?(?P<num>\d+(?:\.\d+)?)"
                         r"\s*(?P<u>[GMK])i?B?(?![A-Za-z])", text, _IC):
        size = float(m["num"]) * {"G": 1.0, "M": 0.001, "K": 0.000001}[m["u"].upper()]
        hits.append(_hit("container.shm_gbytes", round(size, 6), m))
    return hits


_SUSPECTS = re.compile(r"可能是|会不会是|是不是|有没有可能|怀疑是|(?<![A-Za-z])(?:could it be|might it be|is it|could (?:this|it) be "
                       r"(?:due to|caused by)|suspect|candidates?)(?![A-Za-z])", _IC)


def _is_question_clause(text: str, pos: int) -> bool:
    here = tx.clause(text, pos)
    return bool(re.search(r"要不要|是否|能否|能不能|可不可以|会不会|可以吗|吗|好不好|[?？]|should|would|could|worth|"
                          r"can we|is it (?:safe|ok|okay|a good idea)|考虑|try|试试|怎么样|how about", here, _IC))


# --------------------------------------------------------------------------- how the GPUs of a node reach each other
# nvidia-smi topo -m names the path between two GPUs: NV# (that many NVLinks) or a PCIe path (PIX, PXB: a PCIe switch;
# PHB: the CPU's host bridge; NODE: host bridges of one NUMA node; SYS: across sockets). Said between GPUs — 'GPU0 和
# GPU1 之间是 PIX', 'all GPUs show NV18', 'GPUs connected via PHB' — NV# means NVLink and a PCIe path none for that pair
# (weak: a DGX-1 shows SYS between the GPUs its NVLink cube does not join). The path to a NIC is gpu.nic_path's.
_TOPO_PATH = re.compile(r"(?<![A-Za-z_])(?P<v>NV\d{1,2}|PIX|PXB|PHB|NODE|SYS|SOC)(?![A-Za-z_\d])")
_GPU_TO_GPU = re.compile(
    r"GPU\s?\d+\s*(?:and|&|<->|<=>|↔|-|–|to|vs\.?|与|和|跟|到)\s*GPU\s?\d+|"
    r"(?:between|among|across)\s+(?:(?:all|the|any|every|each|pairs? of|of)\s+)*(?:\w+\s+)?(?:GPUs|cards)(?![A-Za-z])|"
    r"(?:GPUs?|cards|显卡|卡)\s*(?:之间|间|两两之间|两两|互相|互联)|"
    r"(?:all|every|each|the)\s+(?:\d+\s+|eight\s+|four\s+)?(?:GPUs|GPU pairs|cards)\s+(?:show|are|have|report)|"
    r"(?:所有|全部|每两张|任意两张)\s*(?:的)?\s*(?:GPU|卡|显卡)|"
    r"GPUs?\s+(?:are\s+|is\s+)?(?:all\s+)?(?:connected|linked|attached|joined)\s+(?:via|by|through|over|with)", _IC)
_NIC_IN_PATH = re.compile(r"NICs?|HCAs?|网卡|网口|mlx|ConnectX|(?<![A-Za-z])NIC\d|·{4,}", _IC)
# 'GPU 之间走 PCIe', 'the GPUs talk over PCIe', 'P2P goes through PCIe': the peers' path is PCIe
_OVER_PCIE = re.compile(
    r"(?:(?:GPUs?|cards|显卡|卡)\s*(?:之间|间|互相)|(?<![A-Za-z])P2P)\s*(?:的通信|通信|数据)?\s*(?:都|也|只能|只)?\s*"
    r"(?:走|通过|经过|用|是)\s*(?:的是\s*)?PCI-?[Ee]|"
    r"(?:GPUs|cards|peers|P2P(?: traffic)?)\s+(?:(?:all|only|just|can only|have to|must)\s+)?(?:talk|communicate|go|goes|"
    r"travels?|run|runs|are connected|connect|is|are)\s+(?:only\s+)?(?:over|via|through|by|across)\s+(?:the\s+)?PCI-?[Ee]",
    _IC)


@extractor
def gpu_links(text: str) -> list[Understood]:
    """nvidia-smi topo -m's words between GPUs ('所有 GPU 之间是 SYS', 'NV12 between all GPUs') and GPUs said to talk over
    PCIe ('GPU 之间走 PCIe') → gpu.nvlink."""
    hits = []
    for m in _TOPO_PATH.finditer(text):
        a, b = tx.clause_bounds(text, m.start())
        here = text[a:b]
        if not _GPU_TO_GPU.search(here) or _NIC_IN_PATH.search(here):
            continue
        if re.search(r"(?:not|n't|never|不是|并非|而不是|instead of|rather than)\s*$", text[max(a, m.start() - 16):m.start()], _IC):
            continue
        linked = m["v"].upper().startswith("NV")
        hits.append(_hit("gpu.nvlink", linked, m, weak=not linked))
    if any(h.value is True for h in hits):  # a pair joined by NVLink: the others' PCIe paths are the DGX-1's cube
        hits = [h for h in hits if h.value is True]
    for m in _OVER_PCIE.finditer(text):
        if not re.search(r"NVLink|NV\d", tx.clause(text, m.start()), _IC):
            hits.append(_hit("gpu.nvlink", False, m, weak=True))
    return hits


# --------------------------------------------------------------------------- placement and cloud
_PLACE_DENIED = re.compile(r"(?:(?<![A-Za-z])(?:not|never|aren't|isn't|weren't|wasn't)(?:\s+(?:all\s+)?(?:in|on|across|"
                           r"spread (?:across|over)|split (?:across|over)|placed in|located in|from))?|不是|并非|没有|没|不|"
                           r"并不|不在|不会)\s*$", _IC)


@extractor
def placement(text: str) -> list[Understood]:
    """跨可用区/cross-zone/two sites → cluster.zones 2; 跨地域/cross-region → cluster.regions 2; same AZ → zones 1."""
    hits = []
    for m in re.finditer(r"跨\s*(?:可用区|AZ|az|机房|数据中心|园区)|cross[- ](?:zone|AZ|az|datacenter|data[- ]center|sit"
                         r"e)s?|multi[- ]?(?:AZ|zone)(?![A-Za-z])|"  # net-s11 '跨 AZ', 'multi-AZ'
                         r"(?:different|multiple|two|2|separate|other|several) (?:(?:AWS|GCP|Azure|cloud)\s+)?"
                         r"(?:availability zones|AZs|zones|datacenters|data cente"
                         r"rs|"
                         r"sites|buildings)|(?:两|2|多)\s*个\s*(?:可用区|AZ|机房|数据中心)|不同(?:的)?(?:可用区|机房)",  # net-s11
                         text, _IC):
        if _PLACE_DENIED.search(tx.before(text, m.start(), 24)):
            continue  # s11 not across: "we are NOT in different zones", '没有跨可用区', '不是跨机房'
        hits.append(_hit("cluster.zones", 2, m))
    generic = len(hits)
    for m in re.finditer(rf"{_NUM}\s*(?:个)?\s*(?:不同的?|different\s+|separate\s+|distinct\s+)?(?:可用区|AZs|availability zones)"
                         r"(?![A-Za-z])", text, _IC):
        if text[max(0, m.start() - 1):m.start()] == "同":
            continue  # '同一个可用区': the same zone (read below), not a count of one
        n = parse_number(m["num"])
        if n and n == int(n) and n >= 1:
            hits.append(_hit("cluster.zones", int(n), m))
    for m in re.finditer(r"(?P<n>[三四五六])\s*个\s*(?:不同的?)?\s*(?:可用区|AZ)(?![A-Za-z])", text, _IC):  # net-s11 '三个 AZ'
        hits.append(_hit("cluster.zones", "三四五六".index(m["n"]) + 3, m))
    if any(h.value > 2 for h in hits[generic:]):
        hits = hits[generic:]  # 'across three availability zones … the cross-AZ link': the count said, not 'two or more'
    for m in re.finditer(r"跨(?:地域|区域|城|城市|省|国)|cross[- ]region|(?:different|multiple|two|2|separate|several)\s+"
                         r"(?:(?:AWS|GCP|Azure|cloud|Aliyun|OCI)\s+)?regions|"
                         r"(?:两|2|多)个(?:地域|区域|城市)|不同(?:的)?(?:地域|区域|城市)", text, _IC):
        hits.append(_hit("cluster.regions", 2, m))
        hits.append(_hit("cluster.zones", 2, m, inferred=True, weak=True))
    for m in re.finditer(r"同一(?:个)?(?:可用区|AZ|机房)|same (?:availability zone|AZ|zone)|single (?:AZ|zone)",
                         text, _IC):
        # 'we can't get enough GPUs in a single zone': the one zone is what the job cannot have
        short = re.search(r"can't|cannot|can not|couldn't|unable|not enough|insufficient|no capacity|shortage|"
                          r"凑不齐|不够|无法|没法|抢不到|买不到", tx.clause(text, m.start()), _IC)
        # '训练比同一个可用区慢很多', 'slower than in the same AZ': the zone of the run compared with, not the job's
        compared = re.search(r"(?:比|较|相比|对比|than|compared (?:to|with)|vs\.?|versus|unlike)(?:\s*(?:在|in|with|the|a|one))*\s*$",
                             tx.before(text, m.start(), 16), _IC)
        # cmp-s10 same-AZ run: 'Same AZ gets 90% of line rate', '同一个可用区能跑到 90%': a run measured in one zone, set
        # beside the job, and so is one zone when the question names two of them ('us-east-1a and us-east-1b')
        measured = re.match(r"[^,.;:，。；：\n]{0,24}?(?:gets?|got|reach\w*|achiev\w*|hits?|does|did|shows?|showed|gives?|"
                            r"gave|runs? at|ran at|is at|was at|能到|能跑到|能跑满|跑到|跑满|可以到|可以跑到|达到|有)\s*"
                            r"(?:about|around|roughly|~|约|大约|接近)?\s*\d", text[m.end():], _IC)
        zones = {z.lower() for z in re.findall(r"(?<![\w-])[a-z]{2}-[a-z]+-\d[a-z](?![\w-])", text, _IC)}
        if measured or len(zones) > 1:
            continue
        if not _is_question_clause(text, m.start()) and not short and not compared:
            hits.append(_hit("cluster.zones", 1, m))
    # two clouds for one job: 'one on Google Cloud and one on AWS', '一台在 GCP、一台在 AWS', '跨云', 'multi-cloud'
    for m in re.finditer(r"跨云|(?:cross|multi)[- ]cloud|(?:different|two|2|separate) (?:cloud providers|clouds)|"
                         r"(?:两|2)个(?:云|云厂商)|不同(?:的)?云(?:厂商)?", text, _IC):
        hits.append(_hit("cluster.regions", 2, m, weak=True))
        hits.append(_hit("cluster.zones", 2, m, inferred=True, weak=True))
    for a, b in {tx.sentence_bounds(text, m.start()) for m in _CLOUD_NAME.finditer(text)}:
        named = {_CLOUD_OF.get(c.group(0).lower(), c.group(0).lower()) for c in _CLOUD_NAME.finditer(text, a, b)}
        if re.search(r"(?<![A-Za-z])(?:from|moved|migrat\w*|switch\w*|instead of|vs\.?|versus|or|compared)(?![A-Za-z])|"
                     r"迁移|迁到|换到|换成|还是|对比|相比", text[a:b], _IC):
            continue  # 'we moved from AWS to GCP', 'AWS or GCP?': one cloud at a time
        if len(named) > 1 and _MACHINE_WORDS.search(text, a, b) is not None or len(named) > 1 and re.search(
                r"一台|one (?:node|machine|server|box|instance)|(?:a|one) (?:node|machine|server) (?:on|in)", text[a:b], _IC):
            hits.append(_hit_span("cluster.regions", 2, text, a, b, weak=True))
            hits.append(_hit_span("cluster.zones", 2, text, a, b, inferred=True, weak=True))
    return hits


# A launcher's or scheduler's config of the node count, written as a setting rather than a flag: 'num_nodes: 2'
# (SkyPilot), 'NNODES=4', 'num_machines: 2' (accelerate), '#SBATCH --nodes=2' is the command readers'.
# (s14 the schedulers' and launchers' own names in an environment or a log: Slurm's 'SLURM_NNODES=2',
# 'SLURM_JOB_NUM_NODES=4', torchelastic's 'group_world_size=2' (the agents, one a machine))
_NODES_SETTING = re.compile(r"(?<![\w-])(?:num_nodes|nnodes|num_machines|node_count|NNODES|NUM_NODES|WORLD_NODES|"
                            r"SLURM_NNODES|SLURM_JOB_NUM_NODES|group_world_size)"
                            r"\s*[:=]\s*[`'\"]?(?P<num>\d{1,4})(?![\d.])", _IC)
# (s14 each machine's ranks: Slurm's 'SLURM_GPUS_ON_NODE=8', DeepSpeed's launcher log 'num_local_procs=8')
_PER_NODE_SETTING = re.compile(r"(?<![\w-])(?:SLURM_GPUS_ON_NODE|SLURM_GPUS_PER_NODE|num_local_procs)"
                               r"\s*[:=]\s*[`'\"]?(?P<num>\d{1,2})(?![\d.]|,\d)", _IC)


# Kubernetes: the GPUs a pod asks for ('nvidia.com/gpu: 8') are a machine's when a pod takes a whole node, and the
# workers' replicas ('replicas: 2') count the machines of a job whose pods ask for GPUs.
_POD_GPUS = re.compile(r"nvidia\.com/gpu[\"'`]?\s*[:=]\s*[\"'`]?(?P<num>\d{1,2})(?![\d.])", _IC)
_REPLICAS = re.compile(r"(?<![\w-])replicas[\"'`]?\s*[:=]\s*[\"'`]?(?P<num>\d{1,4})(?![\d.])", _IC)


@extractor
def nodes_setting(text: str) -> list[Understood]:
    """'num_nodes: 2', 'NNODES=4', 'num_machines: 2' → job.nodes; 'nvidia.com/gpu: 8' → job.gpus_per_node, and then
    'replicas: 2' → job.nodes."""
    hits = [_hit("job.nodes", int(m["num"]), m) for m in _NODES_SETTING.finditer(text) if int(m["num"]) >= 1]
    hits += [_hit("job.gpus_per_node", int(m["num"]), m) for m in _PER_NODE_SETTING.finditer(text)
             if 1 <= int(m["num"]) <= 16]
    pods = [m for m in _POD_GPUS.finditer(text) if int(m["num"]) >= 1]
    hits += [_hit("job.gpus_per_node", int(m["num"]), m) for m in pods]
    if pods:
        hits += [_hit("job.nodes", int(m["num"]), m, weak=True) for m in _REPLICAS.finditer(text) if int(m["num"]) >= 1]
    return hits


# A model's or a MoE layer's config written as 'key=value' or 'key: value' (a log's '[config] hidden=7168, num_topk=8',
# a config.json's '"num_experts_per_tok": 8'): the shape the engine's traffic models need.
_CONFIG_KEY = re.compile(r"(?<![\w-])[\"']?(?P<key>hidden(?:_size|_dim)?|d_model|num_topk|top_?k|moe_top_?k|"
                         r"num_experts_per_tok|moe_router_topk|num_experts|n_routed_experts|moe_num_experts)[\"']?"
                         r"\s*[:=]\s*(?P<num>\d{1,6})(?![\d.])", _IC)


def config_settings(text: str) -> list[Understood]:
    """'hidden=7168' → model.hidden_size; 'num_topk=8', 'num_experts_per_tok: 8' → job.moe_top_k and job.moe;
    'num_experts: 64' → job.moe."""
    hits: list[Understood] = []
    for m in _CONFIG_KEY.finditer(text):
        key, n = m["key"].lower(), int(m["num"])
        if key.startswith(("hidden", "d_model")) and n >= 64:
            hits.append(_hit("model.hidden_size", n, m))
        elif "expert" in key and "tok" not in key and n > 1:
            hits.append(_hit("job.moe", True, m))
        elif ("topk" in key or "top_k" in key or "per_tok" in key) and 1 <= n <= 64 and (
                key != "top_k" or re.search(r"expert|moe|router|topk_group", text, _IC)):
            hits += [_hit("job.moe_top_k", n, m), _hit("job.moe", True, m)]
    if _MOE_WORDS.search(text) and not any(h.fact == "job.moe_top_k" for h in hits):
        for m in _TOP_K_SAID.finditer(text):  # en-s12b 'MoE with 64 experts, top-2': the experts each token is routed to
            hits += [_hit("job.moe_top_k", int(m["num"]), m), _hit("job.moe", True, m)]
            break
    return hits


# en-s12b a MoE's routing said in words: 'top-2', 'top2 gating', 'top-1 routing' (never 'top-5 accuracy')
_MOE_WORDS = re.compile(r"(?<![A-Za-z])(?:MoE|mixture[- ]of[- ]experts|experts?|router|routing|gating)(?![A-Za-z])", _IC)
_TOP_K_SAID = re.compile(r"(?<![\w-])top[- ]?(?P<num>[1-8])(?![\w.])(?!\s*(?:accuracy|acc|error|err|%))", _IC)


_CLOUD_NAME = re.compile(r"(?<![A-Za-z])(?:AWS|Amazon Web Services|EC2|GCP|Google Cloud|GCE|Azure|阿里云|Aliyun|Alibaba Cloud|"
                         r"腾讯云|Tencent Cloud|华为云|Huawei Cloud|OCI|Oracle Cloud|Lambda Labs|CoreWeave|RunPod|火山引擎|"
                         r"百度云|百度智能云)(?![A-Za-z])", _IC)
_CLOUD_OF = {"amazon web services": "aws", "ec2": "aws", "google cloud": "gcp", "gce": "gcp", "aliyun": "阿里云",
             "alibaba cloud": "阿里云", "tencent cloud": "腾讯云", "huawei cloud": "华为云", "oracle cloud": "oci",
             "百度智能云": "百度云"}


# Cloud region and zone names: AWS 'us-west-2' ('us-west-2a' a zone), GCP 'us-central1' ('us-central1-a'), Azure
# 'westus2' / 'japaneast', Alibaba 'cn-hangzhou' ('cn-hangzhou-h').
_DIRECTION = r"(?:north|south|east|west|central|northeast|southeast|northwest|southwest)"
_CLOUD_PLACE = re.compile(
    rf"(?<![\w-])(?:(?P<aws>(?:us|eu|ap|ca|sa|me|af|il|mx)-{_DIRECTION}-\d)(?P<aws_zone>[a-f])?|"
    rf"(?P<gcp>(?:us|europe|asia|australia|northamerica|southamerica|me|africa)-{_DIRECTION}\d{{1,2}})"
    r"(?P<gcp_zone>-[a-f])?|"
    r"(?P<azure>(?:east|west|central|north|south|westcentral|northcentral|southcentral)us\d?|(?:north|west)europe|"
    r"(?:southeast|east)asia|(?:japan|korea|australia|canada|uk|france|germany|brazil|uae|switzerland|norway|sweden)"
    rf"{_DIRECTION}\d?)|"
    r"(?P<ali>cn-(?:hangzhou|shanghai|beijing|shenzhen|zhangjiakou|huhehaote|wulanchabu|chengdu|hongkong|qingdao|"
    r"heyuan|guangzhou|nanjing|fuzhou|wuhan))(?P<ali_zone>-[a-z])?)(?![\w-])", _IC)
_MACHINE_WORDS = re.compile(r"nodes?|machines?|instances?|servers?|hosts?|VMs?|clusters?|节点|机器|实例|服务器|主机", _IC)


# zh-s12b a sequence length said in words: '序列长度 2048', '上下文长度是 8k', 'sequence length of 4096', 'seq len 2048'
_SEQ_LEN_SAID = re.compile(r"(?:序列长度|序列长|上下文长度|文本长度|(?<![A-Za-z_])(?:max_)?(?:sequence|context|seq)[ _-]?(?:length|len)(?![A-Za-z])|"
                           r"(?<![A-Za-z_])(?:max_len|seqlen|seq(?=\s*[=:]))|(?<![A-Za-z_])packing to)"
                           r"\s*(?:is|of|=|:|：|是|为|设为|设置为|设成)?\s*(?P<n>\d{1,6})(?P<k>[kK](?![A-Za-z]))?"
                           # (two lengths weighed, '序列长度 2048 和 4096 哪个快', are neither the job's)
                           r"(?![\d.]|\s*(?:[%倍]|[GM]B?\b|个?样本|(?:和|与|跟|还是|或|or|vs\.?|to|到|->|→)\s*\d))", _IC)


@extractor
def sequence_length(text: str) -> list[Understood]:
    """'序列长度 2048', 'sequence length of 4096', '上下文长度 8k' → job.seq_len (tokens), unless asked or tried."""
    hits = []
    for m in _SEQ_LEN_SAID.finditer(text):
        n = int(m["n"]) * (1024 if m["k"] else 1)
        if 16 <= n <= 10_000_000 and not _is_question_clause(text, m.start()):
            hits.append(_hit("job.seq_len", n, m))
    return hits


@extractor
def cloud_places(text: str) -> list[Understood]:
    """'a g5.12xlarge in us-west-2' → node.region; 'us-east-1a' → node.zone too; two regions (or zones) named for the
    machines of one sentence ('one node in us-east-1, the other in us-west-2') → cluster.regions (zones) 2."""
    hits: list[Understood] = []
    seen: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for m in _CLOUD_PLACE.finditer(text):
        region = (m["aws"] or m["gcp"] or m["azure"] or m["ali"]).lower()
        zone = m["aws_zone"] or m["gcp_zone"] or m["ali_zone"]
        hits.append(_hit_span("node.region", region, text, m.start(), m.start() + len(region)))
        if zone:
            hits.append(_hit("node.zone", m.group(0).lower(), m))
        seen.setdefault(tx.sentence_bounds(text, m.start()), []).append((region, m.group(0).lower()))
    for (a, b), places in seen.items():
        if not _MACHINE_WORDS.search(text, a, b):
            continue
        if len({r for r, _ in places}) > 1:
            hits.append(_hit_span("cluster.regions", 2, text, a, b, weak=True))
            hits.append(_hit_span("cluster.zones", 2, text, a, b, inferred=True, weak=True))
        elif len({z for _, z in places}) > 1 and all(z != r for r, z in places):
            hits.append(_hit_span("cluster.zones", 2, text, a, b, weak=True))
    return hits


# AWS families that come in one size only, named bare ('两台 p4d', '4 p5 instances'): that size.
_ONE_SIZE_FAMILY = re.compile(r"(?<![\w.-])(?P<family>p4de?|p5e?n?)(?![\w.-])(?=\s*(?:s\b)?\s*(?:实例|机器|节点|服务器|集群|"
                              r"instances?|nodes?|machines?|servers?|boxes|hosts?|clusters?|[,，、)）]|$))", _IC)


# net-s12b helper instances: CPU-only families (EC2's c/m/r/t/x/i/hpc, GCP's n2/c2/e2 standard) beside a GPU family are
# the job's parameter servers, data loaders or head node; its GPUs train on the GPU instances
GPU_FAMILY = re.compile(r"(?:p|g|trn|dl)\d|a[234]-|g2-standard|ml\.p|standard_n|n[cdv]\d", _IC)
CPU_FAMILY = re.compile(r"(?:c|m|r|t|x|i|hpc)\d[a-z]*\.|(?:n[12]d?|c[23]d?|e2)-(?:standard|highcpu|highmem)-", _IC)


@extractor
def instance_type(text: str) -> list[Understood]:
    """p4d.24xlarge, a3-highgpu-8g, Standard_ND96asr_v4 → node.instance_type (+ the cap of a few known types)."""
    hits = []
    named = [(m.group(0), m, False) for m in INSTANCE_TYPE.finditer(text)]
    named += [(f"{m['family'].lower()}.{'24xlarge' if m['family'].lower().startswith('p4') else '48xlarge'}", m, True)
              for m in _ONE_SIZE_FAMILY.finditer(text)]
    for name, m, bare in sorted(named, key=lambda x: x[1].start()):
        hits.append(_hit("node.instance_type", name, m, inferred=bare, weak=bare))
        cap = known_bandwidth_gbps(name)
        if cap is not None:
            hits.append(_hit("node.instance_bandwidth_gbps", cap, m, inferred=True, weak=True))
        gpus = known_gpus(name)
        if gpus is not None:  # weak: a count the question states outranks the type's
            hits.append(_hit("job.gpus_per_node", gpus, m, inferred=True, weak=True))
        model = known_gpu_model(name)
        if model is not None:  # weak too: a GPU the question names outranks the family's
            hits.append(_hit("gpu.model", model, m, inferred=True, weak=True))
    return hits


# --------------------------------------------------------------------------- unsure or asked
# A feature's state said in doubt or asked is no fact: '不确定有没有开 GDR', 'NVLink 有没有我也不清楚', 'GDR 开没开',
# 'not sure whether GDR is on', "I don't know if we have RDMA". (A misread is worse than a gap.)
_STATE_FACTS = {"nccl.gdr_disabled", "gpu.nvlink", "nic.rdma", "nic.efa", "pcie.acs_enabled", "nccl.p2p_disabled",
                "nic.bonded", "container.ipc_host", "nccl.transport", "nic.pfc", "nic.ecn", "nic.kind"}
# A-not-A and 'whether' in Chinese: the state asked ('有没有人', '有没有办法' ask about something else)
_A_NOT_A = re.compile(r"有没有(?!\s*(?:人|办法|什么|可能|必要|大佬|朋友|谁|哪位|建议|经验|好的|思路|推荐|解决))|是不是|是否|开没开|开了没(?:有)?|"
                      r"开没有|(?<![A-Za-z])有无|用没用|装没装|走没走|支不支持|生没生效|启没启用|加没加载|"
                      r"(?:不确定|不清楚|不知道|不太清楚|不太确定|说不准|搞不清楚?|没确认|不了解)(?!\s*(?:为什么|为啥|怎么|咋|原因|哪))", _IC)
# in English, a doubt that governs a whether/if clause
_UNSURE_EN = re.compile(r"(?:(?:not|n't|un)\s*(?:sure|certain|clear)|no idea|(?:don't|do not|doesn't|didn't|can't|cannot|"
                        r"couldn't|not)\s+(?:know|tell|say|confirm|remember|verify|check(?:ed)?)|(?:haven't|have not|hasn't)\s+"
                        r"(?:checked|verified|confirmed)|wonder(?:ing|ed)?|unsure|unclear|asking|ask)\s+(?:\w+\s+){0,2}?"
                        r"(?:whether|if)(?![A-Za-z])|whether or not|(?<![A-Za-z])whether(?![A-Za-z])", _IC)
# a yes/no question: 'Is GDR enabled?', 'Do these nodes have RDMA?', 'GDR 开了吗？'
_YES_NO = re.compile(r"(?:^|(?<=[.!;:,。！；：，?？\n]))\s*(?:is|are|was|were|does|do|did|has|have|can|could)\s+[^?？.!,;，。；\n]{0,48}[?？]|"
                     r"(?:^|(?<=[.!;:,。！；：，?？\n]))[^.!;:,。！；：，?？\n]{0,24}?(?:吗|么)\s*(?:[?？]|$)", _IC)
# a kind of fabric is dropped only when its presence is what is asked ('whether we have IB', '是不是 IB')
_ASKED_PRESENCE = re.compile(r"^\s*(?:(?:we|they|it|there|the \w+|these \w+|our \w+)\s+(?:have|has|use|uses|are on|is on|run on|"
                             r"is|are)\s+(?:an?\s+|any\s+)?|有|用|走|是|用的|走的|支持)?\s*$", _IC)


def _unsure_spans(text: str) -> list[tuple[int, int, int]]:
    """(start, end, marker end) of the stretches whose states are doubted or asked."""
    spans = []
    for m in _A_NOT_A.finditer(text):
        a, b = tx.clause_bounds(text, m.start())
        spans.append((max(a, m.start() - 16), min(b, m.end() + 16), m.end()))
    for m in _UNSURE_EN.finditer(text):
        _, b = tx.clause_bounds(text, m.start())
        spans.append((m.start(), b, m.end()))
    for m in _YES_NO.finditer(text):
        if not re.search(r"(?<![A-Za-z])(?:why|how|what|which|when|where)(?![A-Za-z])|为什么|为啥|怎么|咋|什么|哪", m.group(0), _IC):
            spans.append((m.start(), m.end(), m.start()))
    return spans


def _drop_unsure(text: str, hits: list[Understood]) -> list[Understood]:
    spans = _unsure_spans(text) if any(h.fact in _STATE_FACTS for h in hits) else []
    if not spans:
        return hits
    out = []
    for h in hits:
        doubted = h.fact in _STATE_FACTS and any(
            a < h.end and h.start < b and (h.fact not in {"nic.kind", "nic.rdma", "nic.efa"} or re.search(r"RDMA", h.text, _IC)
                                           or (mark <= h.start and _ASKED_PRESENCE.match(text[mark:h.start])))
            for a, b, mark in spans)
        if not doubted:
            out.append(h)
    return out


# --------------------------------------------------------------------------- the pass over a question
def extract_facts(text: str) -> list[Understood]:
    """Every fact the word readers find in the prose, in text order (scopes are applied by the caller)."""
    hits: list[Understood] = []
    for fn in _EXTRACTORS:
        hits.extend(fn(text))
    hits = _drop_unsure(text, hits)
    hits = _busbw_of_the_job(text, hits)  # job-s11 busbw runs
    ratings = [(h.start, h.end) for h in hits if h.fact == "nic.max_speed_gbps" and not h.weak]
    # A number read as the NIC's rating is not also its link speed (network_rates reads '100G' as one).
    hits = [
        h for h in hits if not (h.fact == "nic.speed_gbps" and any(h.start < e and s < h.end for s, e in ratings))
    ]
    # '网卡从 100G 掉到了 25G': a rating and the rate the link fell to, read as a pair, are no test's figures
    pair_texts = {h.text for h in hits if h.fact == "nic.max_speed_gbps" and not h.weak}
    paired = {h.start for h in hits if h.fact in ("nic.max_speed_gbps", "nic.speed_gbps") and h.text in pair_texts}
    hits = [h for h in hits if not (h.fact == "net.iperf3_gbps" and h.start in paired)]
    hits.sort(key=lambda h: (h.start, h.end, h.fact))
    return hits


# job-s11 busbw runs: nccl-tests figures said for one machine and for several in one question ('单机 8 卡 busbw 230，两机
# 16 卡只有 45', 'busbw is 180 on a single node but only 12 across two nodes'): the machines' figure is the job's, the
# one machine's the baseline beside it (no fact of the catalogue); a figure said after another for the other run, without
# its unit, is the same column's
_ONE_MACHINE_RUN = re.compile(r"单机|单节点|单台|一台机器|机内|节点内|(?<![A-Za-z])(?:single[- ](?:node|machine|server|host)|"
                              r"(?:one|a single|1) (?:node|machine|server|host)|intra[- ]?node|within (?:a|one|the|each) node)"
                              r"(?![A-Za-z])", _IC)
_MACHINES_RUN = re.compile(r"两机|双机|多机|跨机|跨节点|机间|节点间|(?<![\d.])[2-9二两三四五六七八]\s*(?:台|机|个?节点)|"
                           r"(?<![A-Za-z])(?:\d+|two|three|four|eight|sixteen|multiple|several) (?:nodes|machines|servers|hosts)|"
                           r"(?<![A-Za-z])(?:across|between) (?:the |all |both )?(?:\w+ )?(?:nodes|machines|servers)|"
                           r"(?<![A-Za-z])(?:inter[- ]?node|multi[- ]?node)(?![A-Za-z])", _IC)
_RUN_SPLIT = re.compile(r"[，,;；]|(?<![A-Za-z])(?:but|while|whereas|vs\.?|versus)(?![A-Za-z])|而|但|可是", _IC)
_BUSBW_FACTS = ("nccl.allreduce_busbw_gbytes_per_s", "nccl.allreduce_algbw_gbytes_per_s")
_NEXT_RUN_FIGURE = re.compile(rf"[^\d。;；\n]{{0,30}}?[;；]?[^\d。;；\n]{{0,6}}?(?:{_MACHINES_RUN.pattern}|{_ONE_MACHINE_RUN.pattern})"
                              r"[^。;；\n]{0,16}?"
                              r"(?:只有|才|仅有?|有|是|为|(?<![A-Za-z])(?:only|just|is|gets?|drops? to|falls? to)|(?<=it)['’]s)\s*"
                              r"(?:only\s+|just\s+)?"
                              r"(?:about|around|roughly|约|大约|大概|~)?\s*(?P<num>\d{1,4}(?:\.\d{1,3})?)(?![\d.])", _IC)


def _run_of(text: str, h: Understood) -> str | None:
    """'one' or 'machines': the run a figure is said for, by the words nearest it in its clause."""
    ca, cb = tx.sentence_bounds(text, h.start)
    before = _RUN_SPLIT.split(text[max(ca, h.start - 24):h.start])[-1]
    after = _RUN_SPLIT.split(text[h.end:min(cb, h.end + 24)])[0]
    for words in (after, before):
        one, many = _ONE_MACHINE_RUN.search(words), _MACHINES_RUN.search(words)
        if one and not many:
            return "one"
        if many and not one:
            return "machines"
    return None


def _busbw_of_the_job(text: str, hits: list[Understood]) -> list[Understood]:
    out = list(hits)
    for h in [h for h in hits if h.fact in _BUSBW_FACTS and not h.weak]:
        sb = tx.sentence_bounds(text, h.start)[1]
        if sb < len(text) and text[sb - 1:sb + 1].strip()[:1] in {";", "；"}:
            sb = tx.sentence_bounds(text, sb + 1)[1]  # nccl-cmp s13 '190 GB/s on a single node; across 2 nodes it's 40'
        m = _NEXT_RUN_FIGURE.match(text, h.end, sb)
        if m and not any(o.start <= m.start("num") < o.end for o in out) and _BARE_END.match(text, m.end()):
            out.append(_hit_span(h.fact, float(m["num"]), text, m.start("num"), m.end("num")))
    figures = [h for h in out if h.fact in _BUSBW_FACTS and not h.weak]
    runs = {id(h): _run_of(text, h) for h in figures}
    if any(r == "one" for r in runs.values()) and any(r != "one" for r in runs.values()):
        out = [h for h in out if runs.get(id(h)) != "one"]
    return sorted(out, key=lambda h: (h.start, h.end, h.fact))


def resolve(hits: list[Understood]) -> dict[str, Understood]:
    """One value per fact: a definite statement beats a weak or assumed one; otherwise the last said wins.

    'Last wins' is what makes 'we have 10G, sorry, 25G' and 'not 10GbE but 25GbE' come out right.
    """
    chosen: dict[str, Understood] = {}
    for h in hits:
        current = chosen.get(h.fact)
        if current is None or _rank(h) >= _rank(current):
            chosen[h.fact] = h
    return chosen


def _rank(h: Understood) -> int:
    return (0 if h.weak else 2) + (0 if h.inferred else 1)


# rr-s10 runs under settings: a figure whose condition is an NCCL setting or a transport switched on or off
# ('NCCL_IB_DISABLE=1 gives 1.2 GB/s', 'with IB enabled 20 GB/s', '关掉 IB 只有 1.2 GB/s') is what NCCL got under it — a
# bus bandwidth, never an iperf3 figure or a link's rate; commands.setting_runs finds them. Compared runs give the job's
# figure only where one is said as current ('now', '现在'); a run alone with an NCCL setting is the job's.
_RUN_FIGURES = {"net.iperf3_gbps", "nic.speed_gbps", "net.rdma_bw_gbps", "nccl.allreduce_busbw_gbytes_per_s",
                "nccl.allreduce_algbw_gbytes_per_s"}


def runs_under_settings(text: str, hits: list[Understood]) -> list[Understood]:
    """Figures of runs under settings (see above), read from `text` with its settings still in it; the hits keep
    their order (the last said of a fact wins)."""
    runs = [r for r in setting_runs(text) if not _OTHER_COLLECTIVE.search(text, max(0, r.start - 160), r.start)]
    # what each run's figure becomes: dropped (one of compared settings), NCCL's bus bandwidth, or kept as read
    fate = {id(r): "drop" if r.compared and not r.now else "busbw" if r.compared or r.setting.startswith("nccl_")
            else "keep" for r in runs}
    runs = [r for r in runs if fate[id(r)] != "keep"]
    if not runs:
        return hits
    out: list[Understood] = []
    placed: set[int] = set()
    for h in hits:
        r = next((r for r in runs if h.fact in _RUN_FIGURES and (r.start <= h.start < r.end or h.start <= r.start < h.end)),
                 None)
        if r is None:
            out.append(h)
        elif fate[id(r)] == "busbw" and id(r) not in placed:
            placed.add(id(r))
            out.append(Understood("nccl.allreduce_busbw_gbytes_per_s", round(r.gbps / 8, 6), text[r.start:r.end],
                                  r.start, r.end))
    out.extend(Understood("nccl.allreduce_busbw_gbytes_per_s", round(r.gbps / 8, 6), text[r.start:r.end], r.start,
                          r.end) for r in runs if fate[id(r)] == "busbw" and id(r) not in placed)
    return out

# en-s12b a bare count per machine after the GPUs named ('GPUs: A100 80GB, 8 per node', 'the GPUs are H100 PCIe (no
# NVLink bridge), 2 per node', 'PCIe 4.0 x16 cards, 4 per node'): the GPUs' when they are the last thing named before
# it (after a NIC, 'ConnectX-6 200G, 2 per node', it is the NICs')
_BARE_PER_MACHINE = re.compile(r"(?:(?<=[,;(])|(?<=[,;(]\s))(?P<n>[1-9]|1[0-6])\s+(?:per|each|a|in each|on each)\s+"
                               r"(?:node|machine|server|host|box)(?![A-Za-z])(?!\s*[:=])", _IC)
_GPU_NAMED = re.compile(r"(?<![A-Za-z])(?:GPUs?|(?:[AHLV]|MI|RTX\s*)\d{2,4}[A-Za-z]*|L40S?|A800|H800|H20)(?![A-Za-z])", _IC)
_NIC_NAMED = re.compile(r"(?<![A-Za-z])(?:NICs?|HCAs?|ConnectX|CX-?\d|Mellanox|ports?|adapters?|InfiniBand|IB|RoCE|"
                        r"[HNEF]DR|EFA|(?:Gb|Gbps|GbE|Gb/s|G)(?=[\s,;)]))(?![A-Za-z])", _IC)


@extractor
def gpus_per_machine_bare(text: str) -> list[Understood]:
    """A count per machine that names no noun of its own is of the GPUs named last before it in its sentence."""
    hits = []
    for m in _BARE_PER_MACHINE.finditer(text):
        a = tx.sentence_bounds(text, m.start())[0]
        gpus = list(_GPU_NAMED.finditer(text, a, m.start()))
        if not gpus or any(n.start() > gpus[-1].start() for n in _NIC_NAMED.finditer(text, a, m.start())):
            continue
        hits.append(_hit("job.gpus_per_node", int(m["n"]), m, "n"))
    return hits
