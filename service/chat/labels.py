"""Human names for facts and derived figures, in both languages, with their values in familiar units.

The echo ('here is what I understood') and the arithmetic read 'NIC 25 Gb/s', not 'nic.speed_gbps=25'.
Names and display formats are the fact catalogue's (rules/facts.yaml); only the words for enum values
are the chat's own.
"""

from typing import Any

from service.chat.units import format_number
from service.engine import builtin_catalogue

_VALUES_ZH = {"True": "是", "False": "否", "data": "数据并行", "tensor": "张量并行", "pipeline": "流水线并行",
              "fsdp": "FSDP/ZeRO", "hybrid": "混合并行", "nas": "NAS/共享存储", "object_store": "对象存储",
              "local": "本地盘", "network": "网络存储", "parameter_server": "参数服务器", "allreduce": "all-reduce",
              "ethernet": "以太网", "infiniband": "InfiniBand", "roce": "RoCE", "socket": "socket (TCP)", "ib": "IB"}
_VALUES_EN = {"True": "yes", "False": "no", "nas": "NAS / shared file system", "object_store": "object storage",
              "local": "local disk", "network": "network storage", "parameter_server": "parameter server",
              "fsdp": "FSDP/ZeRO", "socket": "socket (TCP)"}


def fact_name(fact: str, lang: str) -> str:
    """The fact's name in the reply's language (the key itself when unknown)."""
    return builtin_catalogue().label(fact, lang)


def fact_value(fact: str, value: Any, lang: str) -> str:
    """The value with its unit, or the enum word in the reply's language."""
    spec = builtin_catalogue().get(fact)
    text = spec.show(value, format_number) if spec is not None else format_number(value)
    table = _VALUES_ZH if lang == "zh" else _VALUES_EN
    return table.get(str(value), text) if isinstance(value, bool | str) else text


def describe(fact: str, value: Any, lang: str) -> str:
    """'NIC negotiated link speed 25 Gb/s' / '网卡协商速率 25 Gb/s'."""
    sep = " " if lang != "zh" else " "
    return f"{fact_name(fact, lang)}{sep}{fact_value(fact, value, lang)}"
