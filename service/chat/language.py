"""Which language a question is in, so the reply can be in the same one."""

import re

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")

SUPPORTED = ("en", "zh")


def detect_language(text: str) -> str:
    """'zh' when the text is written in Chinese (mixed Chinese/English counts as Chinese), else 'en'.

    Practitioners who write Chinese mix in English terms (GPU, NCCL, busbw) freely, so a couple of
    CJK ideographs decide it; a lone ideograph amid a long English sentence (a name) does not.
    """
    cjk = len(_CJK.findall(text))
    if cjk >= 2:
        return "zh"
    if cjk == 1 and len(_LATIN_WORD.findall(text)) < 4:
        return "zh"
    return "en"


def normalise_lang(lang: str | None) -> str | None:
    """Map user-supplied language tags (zh-CN, EN, cn) onto the two we answer in; None if unknown."""
    if not lang:
        return None
    tag = lang.strip().lower().replace("_", "-")
    if tag.startswith("zh") or tag in {"cn", "chinese", "中文"}:
        return "zh"
    if tag.startswith("en") or tag == "english":
        return "en"
    return None
