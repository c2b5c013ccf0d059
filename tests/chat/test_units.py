"""Numbers and units as people write them."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bwdoctor.chat.units import (
    format_number,
    params_to_billions,
    parse_cn_integer,
    parse_number,
    rate_to_gbps,
    size_to_gbytes,
    time_to_ms,
    time_to_seconds,
)


@pytest.mark.parametrize(("text", "value"), [("八", 8), ("十六", 16), ("两", 2), ("一千七百五十", 1750),
                                             ("两万", 20000), ("一百", 100), ("十", 10), ("俩", 2),
                                             ("一千零二十四", 1024), ("一二八", 128), ("二〇二四", 2024),
                                             ("千", 1000), ("万", 10000)])
def test_chinese_integers(text: str, value: int) -> None:
    assert parse_cn_integer(text) == value


@pytest.mark.parametrize("text", ["十十", "万十零", "四千两亿二", "十几", "万兆", "", "abc"])
def test_chinese_non_numerals_are_none(text: str) -> None:
    assert parse_cn_integer(text) is None


@given(st.text(alphabet="零〇一二两俩三四五六七八九十百千万亿点几多", max_size=12))
def test_chinese_integers_never_raise(text: str) -> None:
    value = parse_cn_integer(text)
    assert value is None or (isinstance(value, int) and value >= 0)


@pytest.mark.parametrize(("text", "value"), [("1,024", 1024), ("3.5", 3.5), ("eight", 8), ("八", 8), ("abc", None)])
def test_parse_number(text: str, value: float | None) -> None:
    assert parse_number(text) == value


@pytest.mark.parametrize(("number", "scale", "billions"), [("7", "B", 7), ("1.3", "b", 1.3), ("175", "billion", 175),
                                                           (None, "百亿", 10), (None, "千亿", 100), ("1750", "亿", 175),
                                                           ("70", "亿", 7), ("340", "M", 0.34), ("1", "T", 1000)])
def test_params_to_billions(number: str | None, scale: str, billions: float) -> None:
    assert params_to_billions(number, scale) == pytest.approx(billions)


def test_rates_sizes_times() -> None:
    assert rate_to_gbps(940, "M", False) == pytest.approx(0.94)
    assert rate_to_gbps(1.25, "G", True) == pytest.approx(10)
    assert size_to_gbytes(1.2, "TB") == pytest.approx(1200)
    assert time_to_seconds(5361.6, "ms") == pytest.approx(5.3616)
    assert time_to_ms(80, "us") == pytest.approx(0.08)


@pytest.mark.parametrize(("value", "text"), [(160.0, "160"), (2.875, "2.88"), (12.48, "12.5"), (0.0123, "0.012"),
                                             (True, "True"), (3, "3"), (1234.6, "1235")])
def test_format_number(value: object, text: str) -> None:
    assert format_number(value) == text
