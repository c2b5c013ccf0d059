"""Reply in the language of the question; mixed Chinese/English is Chinese."""

import pytest

from bwdoctor.chat.language import detect_language, normalise_lang


@pytest.mark.parametrize(("text", "lang"), [
    ("为什么训练这么慢？", "zh"),
    ("GPU util 只有 40%，NCCL busbw 2GB/s", "zh"),
    ("Why is my 8-node job slow?", "en"),
    ("iperf3 shows 3.2 Gbits/sec", "en"),
    ("Our cluster 华 is slow when we train a 70B model across eight nodes", "en"),
    ("慢", "zh"),
])
def test_detect_language(text: str, lang: str) -> None:
    assert detect_language(text) == lang


def test_normalise_lang() -> None:
    assert normalise_lang("zh-CN") == "zh"
    assert normalise_lang("EN") == "en"
    assert normalise_lang("fr") is None
    assert normalise_lang(None) is None
