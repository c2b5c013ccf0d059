"""A GPU's PCIe link said in words: the generation and width it runs at, and the ones it could run at.

'PCIe Gen3 x8 instead of Gen4 x16', 'PCIe Link Gen 当前是 Gen1 x16，最大 Gen4', 'LnkSta: Speed 8GT/s (downgraded),
Width x8', 'running at x8 (should be x16)'. Each generation or width said in a sentence about PCIe is either the
link's now (gpu.pcie_gen, gpu.pcie_width) or its most (gpu.pcie_gen_max, gpu.pcie_width_max), by the nearest cue
before it; a figure with no cue is the link's now. Pasted tool output (nvidia-smi -q, lspci -vvv) is the pasted
readers'; this reads prose only.
"""

from __future__ import annotations

import re

from bwdoctor.chat import text as tx
from bwdoctor.chat.extract import Understood

_IC = re.IGNORECASE

# a sentence about a PCIe link: only there is 'Gen3' or 'x8' a link's generation or width
# (a width beside a generation is a PCIe link's in any sentence: 'running at x8 Gen3 instead of x16 Gen4', 'Gen4 x16')
_PCIE_SAID = re.compile(r"PCI-?e|PCI Express|Link (?:Gen|Width)|LnkSta|LnkCap|GT/s|lspci|链路(?:代数|宽度)|"
                        r"(?<![A-Za-z0-9])[x×]\s?\d{1,2}\s*(?:@\s*)?Gen\s?[1-6](?![\d.])|"
                        r"(?<![A-Za-z0-9])Gen\s?[1-6]\s*(?:@\s*)?[x×]\s?\d{1,2}(?![\d.])", _IC)

# the GPU's link, not a NIC's: a sentence that names a NIC and no GPU is about the NIC's slot
# ('网卡插在 x4 PCI Express 2 的槽上', 'the QSFP port is two PCIe x4 controllers')
_NIC_SAID = re.compile(r"网卡|网口|(?<![A-Za-z])(?:NICs?|HCAs?|ConnectX\S*|CX-?\d|mlx5\w*|QSFP\w*|XL710|E810|"
                       r"adapters?|"
                       r"ports?)(?![A-Za-z])|端口", _IC)
_GPU_SAID = re.compile(r"GPU|显卡|(?<![网])卡(?!槽)|(?<![A-Za-z])(?:[AHLV]100|H[28]00|A[48]00|RTX|[AL]40S?|card)", _IC)

_A_LEVEL = re.compile(r"\s*(?:的)?\s*(?:水準|水平|级别|級別|等级|的速度|速度)|"
                      r"[- ]?(?:level|class|equivalent|speeds)(?![A-Za-z])", _IC)
_IDLE = re.compile(r"閒置|闲置|空闲|空閒|(?<![A-Za-z])(?:idle|at rest)(?![A-Za-z])", _IC)
_UNDER_LOAD = re.compile(r"傳輸中|传输中|運行中|运行中|训练时|訓練時|负载|負載|跑起来|"
                         r"(?<![A-Za-z])(?:under load|during|while (?:training|running|transferring)|loaded)"
                         r"(?![A-Za-z])",
                         _IC)
_GT_PER_S = {"2.5": 1, "5": 2, "8": 3, "16": 4, "32": 5, "64": 6}
_WIDTHS = {1, 2, 4, 8, 12, 16, 32}
_TOKEN = re.compile(
    r"(?<![A-Za-z0-9])Gen\s*(?P<gen>[1-6])(?:\.0)?(?![\d.])|"
    r"PCI-?e\s*(?P<ver>[1-6])\.0|"
    r"(?<![\d.])(?P<gts>2\.5|5|8|16|32|64)\s*GT/s|"
    # right after the generation a width is the link's, whatever follows ('PCIe Gen4 x16 cards')
    r"(?:(?<=Gen[1-6] )|(?<=Gen[1-6])|(?<=Gen [1-6] )|(?<=Gen [1-6])|(?<=\.0 )|(?<=PCIe ))"
    r"[x×]\s*(?P<width3>\d{1,2})(?![\d.])|"
    r"(?<![A-Za-z0-9])[x×]\s*(?P<width>\d{1,2})(?![\d.])(?!\s*(?:GPU|卡|card|node|机|台|A100|H100|V100))|"
    r"(?<![\d.])(?P<width2>\d{1,2})\s*x(?![A-Za-z0-9])(?=\s*(?:lanes?|links?|width|宽|$|[,，。.;；)）]))", _IC)

# what the link could do: its rating, a reference, the alternative not taken
_MOST = (r"最大|最高|支持|本应|应该是?|应为|额定|理论|标称|标榜|而不是|不是|"
         r"支援|標榜|標稱|額定|理論|應該是?|"  # (s12 繁體)
         r"(?<![A-Za-z])(?:max(?:imum)?|capable(?: of)?|supports?|supported|should be|ought to be|rated(?: at| for)?|"
         r"instead of|rather than|not|expected|spec|LnkCap|up to|designed for)(?![A-Za-z])")
# what the link does: the state now
_NOW = (r"当前|现在|目前|实际|只有|只跑|降到|降为|掉到|跑在|协商|"
        r"(?<![A-Za-z])(?:current(?:ly)?|now|actual(?:ly)?|running at|runs at|run at|trained at|negotiated|"
        r"only|downgraded|degraded|LnkSta|drops? to|dropped to|fell to|at)(?![A-Za-z])")
_CUE = re.compile(rf"(?P<most>{_MOST})|(?P<now>{_NOW})", _IC)


def _value(m: re.Match[str]) -> tuple[str, int] | None:
    if m["gen"] or m["ver"]:
        return "gen", int(m["gen"] or m["ver"])
    if m["gts"]:
        return "gen", _GT_PER_S[m["gts"]]
    width = int(m["width"] or m["width2"] or m["width3"])
    return ("width", width) if width in _WIDTHS else None


def read_pcie(text: str) -> list[Understood]:
    """gpu.pcie_gen / gpu.pcie_width (now) and gpu.pcie_gen_max / gpu.pcie_width_max (most) said in words."""
    hits: list[Understood] = []
    seen: set[str] = set()
    for a, b in sorted({tx.sentence_bounds(text, m.start()) for m in _PCIE_SAID.finditer(text)}):
        if _NIC_SAID.search(text, a, b) and not _GPU_SAID.search(text, a, b):
            continue
        for m in _TOKEN.finditer(text, a, b):
            said = _value(m)
            if said is None or _A_LEVEL.match(text, m.end()):
                continue  # (s12 '頻寬只有 Gen1 水準', 'Gen3-level bandwidth': a yardstick for a figure, not the link)
            # the nearest cue before the figure, within its part of the sentence ('LnkCap: …, Width x16; LnkSta: …')
            part = max(a, max(text.rfind(c, a, m.start()) for c in ";；。\n") + 1)
            cues = list(_CUE.finditer(text, part, m.start()))
            most = bool(cues and cues[-1]["most"])
            kind, value = said
            fact = f"gpu.pcie_{kind}{'_max' if most else ''}"
            if fact not in seen:
                seen.add(fact)
                hits.append(Understood(fact, value, m.group(0), m.start(), m.end()))
            elif _UNDER_LOAD.search(text, max(a, m.start() - 40), m.start()):
                # (s12 '閒置時 LnkSta 2.5GT/s；傳輸中 16GT/s': an idle link saves power, under load is its rate)
                i = next(i for i, h in enumerate(hits) if h.fact == fact)
                first = hits[i].start
                if _IDLE.search(text, max(tx.sentence_bounds(text, first)[0], first - 40), first):
                    hits[i] = Understood(fact, value, m.group(0), m.start(), m.end())
    return hits
