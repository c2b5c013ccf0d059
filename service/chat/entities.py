"""Named things whose digits are not quantities: GPU models, NIC models and ports, versions, addresses.

'two boxes with 4 RTX 4090 each' must not give 4090 nodes, nor 'H100-80G' an 80 Gb/s link, nor
'NCCL 2.18.3' a step time. This layer finds those names first and masks them in the prose, keeping
every offset valid, so the quantity extractors after it never see their digits:
  - a GPU model becomes a run of 'Ｇ' (GPU_MARK), which the count grammar reads as a GPU word,
  - anything else becomes '·' characters.
The GPU model itself is reported as `gpu.model`, and its memory size, form factor and NVLink are kept
with it (SXM means NVLink, PCIe means none unless said otherwise).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_IC = re.IGNORECASE
#: What a GPU model's characters become in the masked prose (a letter, so word boundaries hold).
GPU_MARK = "Ｇ"
#: What a cloud instance type becomes ('2 x p3.16xlarge' still counts two machines).
INSTANCE_MARK = "▪"

# Families and their model numbers; an optional memory size ('-80G', ' 80GB', '(40GB)') and form factor.
_GPU_NAME = (
    r"(?:NVIDIA\s+|Nvidia\s+|Tesla\s+|GeForce\s+)?"
    r"(?:(?:GB|GH|B|H|A|L|V|P|T|K|M)\d{1,3}[A-Z]?(?:(?<=K\d\d)m)?(?:\s?(?:Ti|SUPER))?|(?:RTX\s?)?A[2-6]000|RTX\s?(?:A\d{4}|\d{4}(?:\s?D(?![A-Za-z0-9]))?(?:\s?(?:Ti|ti))?|PRO\s?\d{4})(?:\s?Ada(?:\s?Generation)?(?![A-Za-z]))?"
    r"|GTX\s?\d{3,4}(?:\s?(?:Ti|ti))?|(?:(?<![A-Za-z])|(?<=[1-9][xX×]))(?:[1-5]0[5-9]0D?)(?:\s?(?:Ti|ti|TI))?(?!\s?(?:元|块钱|美元|刀|RMB|rmb|USD|dollars?))(?=\s?(?:Ti\b|GPUs?|cards?|显卡|卡|s\b|,|，|、|（|\(|）|\)|。|；|\.(?!\d)|\s|$)"
    r"|服务器|机器|主机|工作站|节点|集群|上|的|和|与|或|跑|训练|等|也|都|在|做|[*×]\s?\d)"
    # written in lower case, as people type them ('8 a100s', 'v100-32g'): only the data-centre names of three digits
    r"|(?<![/\\:])(?:[abhv][1-8]00|a[2-6]000|l40s|rtx\s?[2-5]0[5-9]0(?:\s?ti)?)(?=s?(?![A-Za-z0-9])|[-_ ]\d{2,3}\s?[Gg])"
    r"|Quadro\s?(?:[PMK]|GV|GP)\d{3,4}|MI\d{3}[XA]?|Ascend\s?910(?:[ABC]\d?)?|910[ABC]\d?|Gaudi\s?[123]?|TPU\s?v\d[a-z]?|TITAN\s?(?:Xp|X|V|RTX)|Titan\s?(?:Xp|X|V|RTX)"
    r"|(?:TITAN|Titan)(?=s?\s+(?:cards?|GPUs?|显卡|卡)|s?\s*[,，、。;；)）]|[卡显])|(?<=[\d张块]\s)Titans?(?![A-Za-z])|(?<=[\d张块])Titans?(?![A-Za-z]))"
    r"(?:[\s-]?(?:SXM\d?|PCI[Ee]|NVL|HGX|DGX))?"
    r"(?:\s?(?:[-_/ (（]\s?)(?:\d{2,3})\s?(?:[Gg](?:[Bb]|iB)?)(?:(?![A-Za-z])|(?=[xX]\d))(?:\s?(?:显存|HBM\d?e?|memory))?[)）]?)?"
    r"(?:[\s-]?(?:SXM\d?|PCI[Ee]|NVL))?"
)
# A letter-digit GPU name must not be a unit or a word: 'A100' yes, 'B2' (too short), 'T100' no.
def _canonical(name: str) -> str:
    """One spelling per model: 'RTX3090', '3090', 'rtx 3090' → 'RTX 3090'; 'GTX1080' → 'GTX 1080'; '2080ti' → 'RTX 2080 Ti';
    'A100' as is."""
    if titan := re.fullmatch(r"titan\s?(xp|x|v|rtx)?", name.strip(), re.IGNORECASE):
        return ("Titan " + {"xp": "Xp", "x": "X", "v": "V", "rtx": "RTX"}[titan.group(1).lower()]) if titan.group(1) else "Titan"
    if quadro := re.fullmatch(r"quadro\s?(\w+)", name.strip(), re.IGNORECASE):
        return "Quadro " + quadro.group(1).upper()  # s13 'Quadro P6000', 'Quadro GV100'
    if gaudi := re.fullmatch(r"gaudi\s?([123]?)", name.strip(), re.IGNORECASE):
        return "Gaudi" + gaudi.group(1)  # s13 'Gaudi2', 'gaudi 3'
    name = re.sub(r"\s+", " ", name).upper().replace("TI", "Ti")
    name = re.sub(r"^(RTX|GTX)\s?(?=\d)", r"\1 ", name)
    name = re.sub(r"(?<=\d)\s?Ti$", " Ti", name)  # '2080Ti', '2080ti' → '2080 Ti'
    name = re.sub(r"(?<=\d{4}) D$", "D", name)  # s13 nvidia-smi's 'GeForce RTX 4090 D': the 4090D
    name = re.sub(r"\s?ADA(?: ?GENERATION)?$", " Ada", name, flags=_IC)  # 'RTX 6000 Ada Generation': the Ada workstation board
    if re.fullmatch(r"[1-5]0[5-9]0D?(?: Ti)?", name):  # GeForce cards named by number alone
        name = ("GTX " if name.startswith("10") else "RTX ") + name
    return name


# (s24 a count glued to the board by a hyphen: 'my 16-V100 benchmark', 'an 8-A100 box')
_GPU = re.compile(rf"(?:(?<![A-Za-z0-9_.\-])|(?<=[DH]GX-)|(?<=(?<![\w.\-])\d-)|(?<=(?<![\w.\-])\d\d-)|(?<=(?<![\w.\-])\d\d\d-)|(?<=\d[xX×*])|(?<=[xX×*]\d)|(?<=[xX×*]\d\d))(?P<name>{_GPU_NAME})(?:s(?![A-Za-z]))?"
                  # cnt the count glued after the board: 'H100x8', 'A100x8 nodes' (eight of them)
                  r"(?:(?![A-Za-z0-9])|(?=[xX]\d{1,2}(?![\w.])))")
_KNOWN_FAMILIES = re.compile(
    r"^(?:Tesla\s+P4(?![0-9])|Quadro|(?:NVIDIA\s+|Nvidia\s+|Tesla\s+|GeForce\s+)?(?:GB200|GB300|GH200|GB10(?![0-9])|B200|B100|B300|H100|H200|H800|H20|A100|A800|A10G?"
    r"|A30|A40|A6000|A5000|A4000|L40S?|L4|L20|V100|T4|P100|P40|K80|K40|K20|M40|M60|RTX|GTX|[1-5]0[5-9]0|MI\d|Ascend|910|Gaudi|TPU|Titan))",
    _IC)

# Things that are named with digits but carry no quantity of the job.
_OTHER_NAMES = [
    # NIC models, devices, ports and interfaces: ConnectX-6, CX7, mlx5_0:1, BlueField-3, eth0, ens8f0np0, bond0, ib0
    r"NVL\d+|NVSwitch\s?v?\d",
    # (not glued to a figure before it: 'tp4pp2' names the degrees of a run, not a port p1p1)
    r"(?<![A-Za-z0-9])(?:eth|ens|enp|eno|em|p\d?p|rdma|efa|hsn|net|veth|docker|br)\d+\w*(?![\w])",
    r"nvidia-nccl-cu\d+\s*(?:==|=)?\s*v?\d+(?:\.\d+)+|NCCL\s*(?:version|版本|ver\.?)\s*(?:is|为|是)?\s*[:：]?\s*v?\d+(?:\.\d+)+[\w.+\-]*",
    # packages: libnccl2_2.4.8-1+cuda10.0_amd64.deb, libnccl2=2.7.3-1+cuda10.1, libnccl-dev 2.18.3; NCCL's version code
    # as torch prints it (NCCL 2708 is 2.7.8, 21805 is 2.18.5)
    r"(?<![\w])libnccl(?:2|-dev)?[_=\s]\s*v?\d+\.\d+(?:\.\d+)?[\w.+\-]*|(?<![\w])NCCL[\s:]*(?:version\s*)?2\d{3,4}(?!\d|\.\d)",
    # versions: NCCL 2.18.3, v2.19.1, CUDA 12.1, torch 2.1.0, driver 535.104.05, python3.10, Ubuntu 22.04, NCCL2.21
    r"(?:NCCL|nccl|CUDA|cuda|cuDNN|torch|PyTorch|pytorch|DeepSpeed|deepspeed|Megatron(?:-LM)?|transformers|driver|"
    r"Driver|OFED|MLNX_OFED|MOFED|aws-ofi-nccl|libfabric|Ubuntu|CentOS|RHEL|Debian|Rocky|AlmaLinux|SLES|openEuler|Kylin|"
    r"Windows|macOS|Fedora|python|Python|NeMo|Horovod|horovod|"
    r"accelerate|Lightning|vLLM|TensorFlow|tensorflow|jax|Kernel|kernel|Slurm|EFA installer|nvidia-peermem|"
    r"peermem|Open ?MPI|OpenMPI|HPC-X|UCX|docker|Docker|k8s|Kubernetes|NGC)\s?[:v]?\s?\d+(?:\.\d+)+[\w.+\-]*"
    r"|(?:NCCL|CUDA|cuda|torch|python|Python|Ubuntu|OFED|driver|Debian|CentOS|RHEL|Rocky|Fedora|Windows|macOS|SLES)"
    r"\s?v?\d+(?!\d|\.\d)"
    # (s14 a model's size after its version is no part of it: 'llava-v1.6-34b', 'foo-v2.5-7B-chat')
    r"|(?<![\w.])v\d+\.\d+(?:\.\d+)*(?:(?![-_]\d+(?:\.\d+)?[bB](?![A-Za-z0-9]))[\w.+\-])*"
    r"|(?<![\w.])\d+\.\d+\.\d+(?:[.\-+]\w+)*(?!\w|\.\w)|\d{2}\.\d{2}-py3",
    # addresses, ids and references: IPs with ports, MACs, PCI addresses, hex, issue numbers, URLs, paths, GID
    r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?(?:/\d+)?(?!\w|\.\w)|(?:[0-9a-f]{2}:){5}[0-9a-f]{2}"
    r"|(?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]|(?<![A-Za-z0-9])0x[0-9a-fA-F]+|(?<![\w&])#\d+|https?://\S+"
    r"|(?<![\w])(?:/[\w.\-]+){2,}|fe80::[0-9a-f:]+",
    # model names with digits that are not sizes of the job: ResNet-50, GPT-2, BERT-large, Llama-2, Qwen2.5, T5
    r"(?:ResNet|resnet|VGG|vgg|GPT|gpt|Llama|LLaMA|llama|Qwen|qwen|Mixtral|Mistral|T5|t5|Yolo|YOLO|yolo|ViT|vit|"
    r"InternLM|Baichuan|ChatGLM|chatglm|GLM|DeepSeek|deepseek|Phi|phi|Gemma|gemma|OPT|opt|BLOOM|Falcon|EfficientNet|"
    r"maxvit|MaxViT|Swin|swin|Inception|DenseNet|MobileNet|wav2vec|Whisper|whisper|SD|sdxl|SDXL|Stable Diffusion)"
    r"[- ]?v?\d+(?:\.\d+)?(?:-[A-Za-z]+)?(?!\w|\.\w)(?!\s?(?:[BbMm]|billion|million)\b)",
    # dates and clock times
    r"\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?|(?<![\d.])\d{1,2}:\d{2}:\d{2}(?![\d])",
]
_OTHER = re.compile("|".join(f"(?:{p})" for p in _OTHER_NAMES))
#: Cloud instance types by name (the one pattern for them: the word readers use it too).
INSTANCE_TYPE = re.compile(
    r"(?<![A-Za-z0-9.])(?:(?:p|g|trn|inf|dl|c|m|r|hpc|x)\d[a-z]*\.(?:\d+)?x?large|(?:p|g|trn)\d[a-z]*\.metal(?:-\d+xl)?"
    r"|p\d[a-z]?-g?b\d{3}(?:\.\d+xlarge)?"
    r"|N[CDV]\d{1,3}[a-z]*(?:_[AHV]\d{2,3})?_v\d|H[BC]\d{2,3}[a-z]*(?:_v\d)?(?=[\s,.;)，。]|$)"
    r"|a[234]-(?:highgpu|megagpu|ultragpu|edgegpu)-\d+g|g2-standard-\d+|Standard_N[A-Za-z0-9_]+"
    # GCP's machine types, whose last number is vCPUs ('n1-highmem-16 with 2 GPUs'; 'highmemory', as people write it)
    r"|[a-z]{1,4}\d?[a-z]?-(?:standard|highmem(?:ory)?|highcpu|megamem|ultramem|hypermem|custom)-\d+(?:-\d+|-lssd)?"
    r"|ecs\.[a-z0-9]+-[a-z0-9]+\.[a-z0-9]+|ml\.p\d\w*\.\d*x?large)(?![A-Za-z0-9])", _IC)


# Network adapters and interfaces named by model or device, and what each name says of the hardware by itself:
#  - every ConnectX from the fourth generation on (RoCE v2 on all of them), BlueField DPUs and the mlx5 devices are RDMA
#    adapters (InfiniBand, or RoCE on the Ethernet models: CX6 Dx, CX4 Lx, CX5 EN); which fabric they run is not in the
#    name. A ConnectX-3 (mlx4) is left alone: often run as plain 40GbE,
#  - an ibN / ibpXsY interface is IP over InfiniBand: the node has an InfiniBand HCA,
#  - Intel's X520/X540/X550/X710/XL710 and 82599 are Ethernet-only adapters without RDMA (the E810 and X722 do RDMA,
#    so they say nothing), nor do Broadcom's BCM parts by name alone; a bondN interface may be one port or many.
_NIC_NAMES: list[tuple[re.Pattern[str], tuple[tuple[str, object], ...]]] = [
    (re.compile(r"ConnectX[- ]?[4-9]\w*(?:\s?(?:Dx|Lx|VPI|EN))?(?![\w])|(?<![A-Za-z0-9])CX-?[4-9](?:\s?(?:Dx|Lx|VPI|EN))?s?(?![\w])"
                r"|BlueField[- ]?\d(?![\w])|(?<![\w])mlx5_\w+(?::\d+)?", _IC), (("nic.rdma", True),)),
    (re.compile(r"ConnectX[- ]?\d\w*(?:\s?(?:Dx|Lx|VPI|EN))?|(?<![A-Za-z0-9])CX-?\d(?![\w])|mlx\d_\w+(?::\d+)?"), ()),
    (re.compile(r"(?<![A-Za-z])ib(?:\d+|p\d+\w*|s\d+\w*)(?:\.\w+)?(?![\w])"),
     (("nic.kind", "infiniband"), ("nic.rdma", True))),
    (re.compile(r"(?<![A-Za-z0-9])(?:X520|X540|X550|X710|XL710|XXV710|82599(?:ES)?)(?:-\w+)?(?![\w])"),
     (("nic.kind", "ethernet"), ("nic.rdma", False))),
    (re.compile(r"(?<![A-Za-z0-9])(?:E810|X722|BCM\d{4,5}\w*|P2100G|N2100G)(?:-\w+)?(?![\w])|(?<![A-Za-z])bond\d+\w*(?![\w])"),
     ()),
]
# 'there is an ib0 too, unused', '还有一个 ib0 接口，没用上': an adapter said to sit idle says nothing of the fabric in use
_UNUSED = re.compile(r"[^.。;；!?！？\n]{0,16}?(?:没用上|没有用上|没用到|没有用到|没在用|没有使用|未使用|闲置|空着|(?<![A-Za-z])(?:unused|"
                     r"not (?:being )?used|isn't (?:being )?used|aren't (?:being )?used|idle|sits? idle)(?![A-Za-z]))", _IC)


@dataclass(frozen=True)
class Entity:
    """One named thing in the question: what kind, its canonical name, and where it sits."""

    kind: str  # "gpu", "instance" or "name"
    name: str
    start: int
    end: int
    memory_gbytes: float | None = None
    form: str | None = None  # "SXM", "PCIe", "NVL" or None
    #: what the name says of the hardware by itself ('ConnectX-6' → nic.rdma True, 'ib0' → InfiniBand)
    facts: tuple[tuple[str, object], ...] = ()


def find_entities(text: str) -> list[Entity]:
    """GPU models and other digit-bearing names, in text order, never overlapping."""
    found: list[Entity] = []
    taken: list[tuple[int, int]] = []

    def free(a: int, b: int) -> bool:
        return all(b <= s or a >= e for s, e in taken)

    for m in _GPU.finditer(text):
        raw = m["name"].strip()
        if not _KNOWN_FAMILIES.match(raw) or not free(m.start(), m.end()):
            continue
        mem = re.search(r"(\d{2,3})\s?(?:G|GB|GiB)\b", raw[3:] if raw[:1].isalpha() else raw[4:], _IC)
        form = re.search(r"SXM|PCIe|NVL", raw, _IC)
        name = re.sub(r"^(?:NVIDIA|Nvidia|Tesla|GeForce)\s+", "", raw)
        # a memory size after the model ('A100-80G', 'H100 (80GB)'), never the model's own digits ('A10G')
        name = re.sub(r"(?<=[A-Za-z0-9])[\s\-_/(（]+\d{2,3}\s?(?:G|GB|GiB)\b.*$", "", name, flags=_IC)
        name = re.sub(r"[\s-]?(?:SXM\d?|PCIe|NVL|HGX|DGX)$", "", name, flags=_IC).strip()
        name = re.sub(r"(?<=^K\d0)m$", "", name)  # 'K40m', 'K20m': the K40 and K20 boards
        name = re.sub(r"^Ascend\s?(?=910[ABC])", "", re.sub(r"(?<=910[ABC])\d$", "", name), flags=_IC)  # '910B3', 'Ascend 910B2': the 910B
        found.append(Entity("gpu", _canonical(name),
                            m.start(), m.end(), float(mem.group(1)) if mem else None,
                            form.group(0).upper().replace("PCIE", "PCIe") if form else None))
        taken.append((m.start(), m.end()))
    for m in INSTANCE_TYPE.finditer(text):
        if free(m.start(), m.end()):
            found.append(Entity("instance", m.group(0), m.start(), m.end()))
            taken.append((m.start(), m.end()))
    for pattern, facts in _NIC_NAMES:
        for m in pattern.finditer(text):
            if free(m.start(), m.end()):
                said = () if _UNUSED.match(text, m.end()) else facts
                found.append(Entity("nic", m.group(0), m.start(), m.end(), facts=said))
                taken.append((m.start(), m.end()))
    for m in _OTHER.finditer(text):
        if m.end() > m.start() and free(m.start(), m.end()):
            found.append(Entity("name", m.group(0), m.start(), m.end()))
            taken.append((m.start(), m.end()))
    return sorted(found, key=lambda e: e.start)


def mask_entities(text: str, entities: list[Entity]) -> str:
    """The text with each entity's characters replaced, same length: GPUs as 'ＧＧＧＧ', the rest as '·'."""
    chars = list(text)
    for e in entities:
        length = e.end - e.start
        filler = {"gpu": GPU_MARK, "instance": INSTANCE_MARK}.get(e.kind, "·") * length
        for i, ch in zip(range(e.start, e.end), filler, strict=True):
            if text[i] != "\n":
                chars[i] = ch
    return "".join(chars)
