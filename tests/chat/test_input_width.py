"""Full-width input: letters, digits and figure signs typed by a Chinese input method read as their ASCII forms.

Each sentence is written twice, once in ASCII and once with its letters, digits and signs full width ('１００Ｇ',
'ｎｃｃｌ', 'NCCL_SOCKET_IFNAME＝eth0', '９０％'); both must read the same facts, and the spans must stay where they
were (the normalisation is one character for one). Full-width prose punctuation (，：（）) is left as it is.
"""

from __future__ import annotations

import pytest

from bwdoctor.chat import understand
from bwdoctor.chat.text import normalise_width


def wide(text: str) -> str:
    """The sentence as a full-width input method types it: ASCII letters, digits and signs shifted to U+FF01…"""
    return "".join(chr(ord(c) + 0xFEE0) if c.isascii() and (c.isalnum() or c in "%=+./_-#@") else c for c in text)


def facts(text: str) -> dict[str, object]:
    return {u.fact: u.value for u in understand(text).understood}


SENTENCES = (
    "两台机器，网卡是100G的，训练很慢",
    "8xA100，nccl 很慢，GPU 利用率90%",
    "使用nccl，NCCL_SOCKET_IFNAME=eth0，跨机 allreduce 很慢",
    "两机16卡 H100，NCCL_IB_GID_INDEX=3，busbw 只有 20GB/s",
    "iperf3 测出来 9.4Gbps，网卡是万兆",
    "训练 Qwen2.5-72B，4 台 8 卡 A800，每步 12s",
    "CPU 使用率 100%，GPU 利用率只有 30%",
)


@pytest.mark.parametrize("text", SENTENCES)
def test_full_width_reads_as_ascii(text: str) -> None:
    assert facts(wide(text)) == facts(text)


@pytest.mark.parametrize("text", SENTENCES)
def test_width_is_kept(text: str) -> None:
    assert len(normalise_width(wide(text))) == len(wide(text))
    assert normalise_width(wide(text)) == text


@pytest.mark.parametrize("text", ["网卡是（１００Ｇ）的：训练很慢，怎么办？", "ＧＰＵ利用率：９０％；ＣＰＵ：２０％！"])
def test_prose_punctuation_stays_full_width(text: str) -> None:
    out = normalise_width(text)
    assert all(p in out for p in "（）：，？；！" if p in text)


def test_a_span_points_at_the_typed_figure() -> None:
    text = "两台机器，网卡是１００Ｇ的，训练很慢"
    speed = next(u for u in understand(text).understood if u.fact == "nic.speed_gbps")
    assert speed.value == 100 and "１００" in text[speed.start:speed.end] + text[speed.start - 4:speed.end + 4]
