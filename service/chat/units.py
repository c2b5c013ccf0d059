"""Numbers and units as people write them: '1.3B', '1750亿', '八台', '万兆', '25 Gb/s', '500MB/s'.

Every converter returns a float in the unit of the fact vocabulary (spec/facts.md): billions of
parameters, gigabits per second, gigabytes, seconds, milliseconds.
"""

import functools
import re

import cn2an

#: A magnitude written alone means one of it ('千兆' is 1000 M, '百亿' ten billion): cn2an wants a digit.
_CN_BARE_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10_000, "亿": 100_000_000}
_EN_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
             "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "sixteen": 16, "twenty": 20,
             "thirty-two": 32, "sixty-four": 64, "a pair of": 2, "a couple of": 2, "single": 1,
             "a single": 1, "dozen": 12}

#: A number as written: digits (with thousands commas), Chinese numerals, or common English words.
# Runs are bounded and start only at their beginning, so a question of numerals costs linear time.
# ('几十', '十几', '数百', 'tens of': a rough magnitude, no number)
NUMBER = (r"(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<!\d)\d{1,12}(?:\.\d{1,6})?|(?<![零〇一二两俩三四五六七八九十百千几数])"
          r"[零〇一二两俩三四五六七八九十百千]{1,8}(?![几余多])"
          r"|(?i:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|sixteen|twenty"
          r"|thirty-two|sixty-four)(?![A-Za-z]))")


@functools.lru_cache(maxsize=1024)
def parse_cn_integer(text: str) -> int | None:
    """Chinese numerals to an int: '八' 8, '一千七百五十' 1750, '两万' 20000, '一二八' 128; None if not one."""
    if not text:
        return None
    bare = _CN_BARE_UNITS.get(text)
    if bare is not None:
        return bare
    try:
        # 'normal' takes what people write ('两', '〇', digit-by-digit '一二八'); spoken '俩' is two.
        value = cn2an.cn2an(text.replace("俩", "两"), "normal")
    except (ValueError, KeyError, IndexError):  # cn2an's ways of saying 'not a numeral' ('万十零')
        return None
    return int(value) if float(value).is_integer() else None


# A multiple said in words ('twice as long', 'three times the compute'): the factor it says
MULTIPLE_WORDS = {"twice": 2, "two times": 2, "three times": 3, "thrice": 3, "four times": 4}


def parse_number(text: str) -> float | None:
    """A number written in digits, Chinese numerals or an English word; None when it is none of those."""
    s = text.strip().replace(",", "")
    try:
        return float(s)
    except ValueError:
        pass
    word = _EN_WORDS.get(s.lower())
    if word is not None:
        return float(word)
    cn = parse_cn_integer(s)
    return float(cn) if cn is not None else None


def parse_range_mid(low: str, high: str | None) -> float | None:
    """'40-50' → 45: a person quoting a range means roughly its middle."""
    a = parse_number(low)
    if a is None:
        return None
    if high is None:
        return a
    b = parse_number(high)
    return a if b is None else (a + b) / 2


# Magnitudes of parameter counts, in billions.
_PARAM_SCALE = {"b": 1.0, "bn": 1.0, "billion": 1.0, "t": 1000.0, "trillion": 1000.0, "m": 0.001,
                "million": 0.001, "亿": 0.1, "百亿": 10.0, "千亿": 100.0, "万亿": 1000.0, "十亿": 1.0,
                "百万": 0.001, "千万": 0.01}


def params_to_billions(number: str | None, scale: str) -> float | None:
    """'1750', '亿' → 175; None, '千亿' → 100 (a bare magnitude word means one of it)."""
    factor = _PARAM_SCALE.get(scale.lower())
    if factor is None:
        return None
    value = 1.0 if not number else parse_number(number)
    if value is None:
        return None
    return round(value * factor, 6)


# Rates, to gigabits per second (decimal, as iperf3 and NIC vendors count).
_BITS_PER_S = {"t": 1000.0, "g": 1.0, "m": 0.001, "k": 0.000001}


def rate_to_gbps(value: float, prefix: str, is_bytes: bool) -> float:
    """A rate with an SI prefix (G/M/K/T) in bits or bytes per second, as Gb/s."""
    gbps = value * _BITS_PER_S.get(prefix.lower(), 1.0)
    return round(gbps * 8 if is_bytes else gbps, 6)


def rate_to_gbytes_per_s(value: float, prefix: str, is_bytes: bool) -> float:
    """A rate as GB/s (the unit nccl-tests reports)."""
    return round(rate_to_gbps(value, prefix, is_bytes) / 8, 6)


_SIZE_GB = {"t": 1000.0, "tb": 1000.0, "tib": 1099.511627776, "g": 1.0, "gb": 1.0, "gib": 1.073741824,
            "m": 0.001, "mb": 0.001, "mib": 0.001048576}


def size_to_gbytes(value: float, unit: str) -> float | None:
    """'300', 'GB' → 300; '1.2', 'TB' → 1200."""
    factor = _SIZE_GB.get(unit.lower())
    return None if factor is None else round(value * factor, 6)


_TIME_S = {"s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0, "seconds": 1.0, "秒": 1.0, "ms": 0.001,
           "毫秒": 0.001, "millisecond": 0.001, "milliseconds": 0.001, "min": 60.0, "mins": 60.0,
           "minute": 60.0, "minutes": 60.0, "分钟": 60.0, "us": 1e-6, "μs": 1e-6, "微秒": 1e-6,
           "h": 3600.0, "hr": 3600.0, "hrs": 3600.0, "hour": 3600.0, "hours": 3600.0, "小时": 3600.0, "个小时": 3600.0,
           "day": 86400.0, "days": 86400.0, "天": 86400.0}


def time_to_seconds(value: float, unit: str) -> float | None:
    """'5361', 'ms' → 5.361."""
    factor = _TIME_S.get(unit.lower())
    return None if factor is None else round(value * factor, 6)


def time_to_ms(value: float, unit: str) -> float | None:
    """'0.25', 'ms' → 0.25; '80', 'us' → 0.08."""
    s = time_to_seconds(value, unit)
    return None if s is None else round(s * 1000, 6)


_NUMBER_RE = re.compile(r"^-?\d+(?:\.\d+)?$")


def format_number(value: object) -> str:
    """A number short and stable for prose: 160.0 → '160', 2.875 → '2.88', 0.0123 → '0.012'."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    v = float(value)
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    if abs(v) >= 100:
        text = f"{v:.0f}"
    elif abs(v) >= 10:
        text = f"{v:.1f}"
    elif abs(v) >= 0.1:
        text = f"{v:.2f}"
    else:
        text = f"{v:.2g}"
    if "." in text and _NUMBER_RE.match(text):
        text = text.rstrip("0").rstrip(".")
    return text


# a duration in Chinese numerals ('四个小时', '两个半小时', '十个小时', '三天'); never a fraction ('三分之一') or
# an ordinal ('第三天')
_CN_DURATION = re.compile(r"(?<![第零〇一二两俩三四五六七八九十百千几数])(?P<n>[零〇一二两俩三四五六七八九十百千]{1,6})"
                          r"(?P<rest>个半|个)?(?=\s*(?:个\s*)?(?:小时|钟头|分钟|分(?!之)|秒|天|周|星期))")


def cn_durations_as_digits(text: str) -> str:
    """The same text, of the same length, with durations in Chinese numerals written in digits ('两机要四个小时' →
    '两机要4 个小时', '两个半小时' → '2.5小时'), so that the readers of times compare them like any figure; a
    rendering that does not fit in the numeral's own characters is left as written."""
    def digits(m: re.Match[str]) -> str:
        value = parse_cn_integer(m["n"])
        if value is None:
            return m.group(0)
        written = f"{value}.5" if m["rest"] == "个半" else str(value)
        if m["rest"] == "个半" or len(written) > len(m["n"]):
            room = len(m.group(0))  # '十个小时': the measure word gives '10' its second character
        else:
            room = len(m["n"])
            written += m["rest"] or ""
            room += len(m["rest"] or "")
        return written.ljust(room) if len(written) <= room else m.group(0)

    return _CN_DURATION.sub(digits, text)
