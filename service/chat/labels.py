"""Human names for facts and derived figures, in both languages, with their values in familiar units.

The echo ('here is what I understood') and the arithmetic read 'NIC 25 Gb/s', not 'nic.speed_gbps=25'.
Names and display formats are the fact catalogue's (rules/facts.yaml); only the words for enum values
are the chat's own (service/messages/chat_facts.yaml), as are names for facts the catalogue has no label for.
"""

import re
from typing import Any

from bwdoctor.chat.units import format_number
from bwdoctor.engine import builtin_catalogue
from bwdoctor.i18n import messages


def fact_name(fact: str, lang: str) -> str:
    """The fact's name in the reply's language, from the catalogue (the key itself if it has none)."""
    return builtin_catalogue().label(fact, lang)


def fact_value(fact: str, value: Any, lang: str) -> str:
    """The value with its unit, or the enum word in the reply's language."""
    spec = builtin_catalogue().get(fact)
    text = spec.show(value, format_number) if spec is not None else format_number(value)
    if not isinstance(value, bool | str):
        return text
    # An empty word in the catalogue: this language says the value as the fact catalogue displays it.
    return messages("chat_facts", lang).get(f"value.{value}") or text


def describe(fact: str, value: Any, lang: str) -> str:
    """'NIC negotiated link speed 25 Gb/s' / '网卡协商速率 25 Gb/s'; a setting named by its variable says its value
    as one sets it ('NCCL_IB_DISABLE=1', never 'NCCL_IB_DISABLE yes')."""
    name = fact_name(fact, lang)
    if isinstance(value, bool) and _VARIABLE.fullmatch(name):
        return f"{name}={int(value)}"
    return f"{name} {fact_value(fact, value, lang)}"


_VARIABLE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
