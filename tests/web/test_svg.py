"""svg.py: every builder gives well-formed XML, escapes what probes send, and labels what colour shows."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from bwdoctor.web import svg

NS = "{http://www.w3.org/2000/svg}"
HOSTILE = '<script>alert("x")</script>&\'"'


def parse(drawing: str) -> ET.Element:
    root = ET.fromstring(drawing)
    assert root.tag == f"{NS}svg"
    return root


def texts(root: ET.Element) -> list[str]:
    return ["".join(el.itertext()) for el in root.iter(f"{NS}text")]


def all_text(root: ET.Element) -> str:
    return "\n".join(root.itertext())


def pattern_refs_resolve(root: ET.Element) -> None:
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    for el in root.iter():
        fill = el.get("fill", "")
        if fill.startswith("url(#"):
            assert fill[5:-1] in ids, f"dangling pattern reference {fill}"


def grid(label: str = "node-a", level: str = "poor") -> str:
    rows = [
        svg.GridRow(label, [svg.GridCell("35 % · outlier", level, f"{label}: GPU 35 %")], ["STRAGGLER"], "/nodes/x"),
        svg.GridRow("node-b", [svg.GridCell("n/a", "missing")], ["STALE"]),
    ]
    return svg.heat_grid(["GPU utilisation"], rows, title="Cluster c", id_prefix="g1")


def test_heat_grid_is_xml_with_values_badges_and_legend() -> None:
    root = parse(grid())
    words = texts(root)
    assert "35 % · outlier" in words
    assert "n/a" in words
    assert "[STRAGGLER]" in words and "[STALE]" in words
    for legend_word in ("good", "fair", "poor", "stale", "no data", "Legend:"):
        assert legend_word in words
    assert root.find(f"{NS}title").text == "Cluster c"
    assert root.get("role") == "img"
    pattern_refs_resolve(root)


def test_poor_and_stale_cells_have_a_pattern_not_only_a_colour() -> None:
    root = parse(grid(level="poor"))
    cells = [g for g in root.iter(f"{NS}g") if "bwd-poor" in (g.get("class") or "")]
    assert cells, "no poor cell drawn"
    fills = [r.get("fill") for r in cells[0].iter(f"{NS}rect")]
    assert any(f and f.startswith("url(#g1-hatch") for f in fills), fills


def test_node_id_like_script_is_escaped_everywhere() -> None:
    drawing = grid(label=HOSTILE)
    assert "<script>" not in drawing
    root = parse(drawing)
    assert not list(root.iter(f"{NS}script"))
    # the full label survives as text (tooltip), the shortened one on the row
    assert HOSTILE in all_text(root)
    row = next(g for g in root.iter(f"{NS}g") if g.get("data-label") is not None and "script" in g.get("data-label"))
    assert row.get("data-label") == HOSTILE


@pytest.mark.parametrize("bad", ["\x00", "\x07bell", "\x1b[31mred", "\ufffe", "tab\tand\nnewline"])
def test_characters_xml_cannot_carry_are_replaced_not_fatal(bad: str) -> None:
    parse(grid(label=bad))
    parse(svg.line_chart([svg.Series(bad, [(0, 1.0), (1, 2.0)])], title=bad, y_label=bad))
    parse(svg.event_strip([bad], [svg.Event(0, 0.0, "critical", bad)], title=bad))


def test_line_chart_lines_markers_reference_and_legend() -> None:
    drawing = svg.line_chart(
        [svg.Series("rx", [(0, 10.0), (60, None), (120, 30.0), (180, 40.0)]), svg.Series("tx", [(0, 5.0), (180, 6.0)])],
        title="NIC <throughput>",
        y_label="Gb/s",
        references=[svg.Reference("rated", 100)],
        id_prefix="l1",
    )
    root = parse(drawing)
    words = texts(root)
    assert "NIC <throughput>" in words
    assert "rated 100" in words and "rated" in words  # on the line and in the legend
    assert "rx" in words and "tx" in words
    assert "40" in words  # the last value is written at the end of its line
    # the None point breaks rx into a lone point and a two-point line: 2 polylines in all (rx's second part, tx)
    assert len(list(root.iter(f"{NS}polyline"))) == 2
    dashes = {p.get("stroke-dasharray") for p in root.iter(f"{NS}polyline")}
    assert len(dashes) == 2, "series must differ by dash, not only by colour"
    assert any(ln.get("class") == "bwd-reference" for ln in root.iter(f"{NS}line"))


def test_line_chart_without_data_says_so() -> None:
    root = parse(svg.line_chart([svg.Series("gpu", [(0, None)])], title="GPU", y_label="%"))
    assert "no data reported yet" in texts(root)


def test_line_chart_drops_series_without_points_from_the_legend() -> None:
    root = parse(
        svg.line_chart([svg.Series("seen", [(0, 1.0)]), svg.Series("never", [(0, None)])], title="t", y_label="y")
    )
    assert "seen" in texts(root)
    assert "never" not in texts(root)


def test_stacked_bars_segments_notes_and_legend() -> None:
    groups = [
        svg.BarGroup(
            "Link speed",
            (
                svg.Bar("10 Gb/s", (svg.Segment("compute", 10), svg.Segment("comm", 90)), "90 % waiting"),
                svg.Bar("400 Gb/s", (svg.Segment("compute", 70), svg.Segment("comm", 30)), "30 % waiting", True),
            ),
        )
    ]
    root = parse(
        svg.stacked_bars(
            groups, title="What if", x_label="share", legend=[("compute", "compute"), ("comm", "waiting")], x_max=100
        )
    )
    words = texts(root)
    for expected in ("Link speed", "10 Gb/s", "400 Gb/s", "90 % waiting", "30 % waiting", "compute", "waiting"):
        assert expected in words
    assert "100" in words and "150" not in words  # the axis stops at x_max
    pattern_refs_resolve(root)


def test_event_strip_shapes_differ_by_severity() -> None:
    root = parse(
        svg.event_strip(
            ["Link degraded", "Healthy"],
            [svg.Event(0, 0.0, "critical", "t0"), svg.Event(1, 60.0, "info", "t1"), svg.Event(0, 60.0, "warning")],
            title="Findings over time",
        )
    )
    kinds = {g.get("class"): [child.tag for child in g] for g in root.iter(f"{NS}g") if g.get("class")}
    assert kinds["bwd-event bwd-critical"][0] == f"{NS}rect"
    assert kinds["bwd-event bwd-warning"][0] == f"{NS}polygon"
    assert kinds["bwd-event bwd-info"][0] == f"{NS}circle"
    assert {"critical", "warning", "info"} <= set(texts(root))


def test_empty_event_strip_says_so() -> None:
    assert "no findings in the stored history" in texts(parse(svg.event_strip([], [], title="F")))


def test_chart_ids_differ_so_inline_charts_do_not_share_patterns() -> None:
    assert svg.chart_id("grid", "a") != svg.chart_id("grid", "b")
    a = parse(grid())
    ids = [el.get("id") for el in a.iter() if el.get("id")]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize(
    ("value", "expected"),
    [(0, "0"), (35.0, "35"), (87.5, "87.5"), (94.123, "94.1"), (0.00123, "0.00123"), (196.0, "196"), (None, "n/a")],
)
def test_fmt(value: float | None, expected: str) -> None:
    assert svg.fmt(value) == expected


def test_nice_ticks_cover_the_range() -> None:
    ticks = svg.nice_ticks(0, 93)
    assert ticks[0] <= 0 and ticks[-1] >= 93
    assert ticks == sorted(ticks) and len(ticks) <= 7
    assert svg.nice_ticks(5, 5)[-1] > 5  # a flat series still gets an axis


def test_builders_write_their_own_words_in_the_charts_language() -> None:
    rows = [svg.GridRow("node-a", [svg.GridCell("35 %", "poor")])]
    words = texts(parse(svg.heat_grid(["GPU 利用率"], rows, title="集群 c", id_prefix="g1", lang="zh")))
    for word in ("图例：", "良好", "一般", "差", "观测值", "过期", "无数据"):
        assert word in words
    assert "Legend:" not in words and "good" not in words
    assert "没有节点" in texts(parse(svg.heat_grid(["x"], [], title="t", lang="zh")))
    assert "尚无上报数据" in texts(
        parse(svg.line_chart([svg.Series("g", [(0, None)])], title="t", y_label="%", lang="zh"))
    )
    assert "已保存的历史中没有诊断结果" in texts(parse(svg.event_strip([], [], title="F", lang="zh")))
    strip = texts(parse(svg.event_strip(["x"], [svg.Event(0, 0.0, "critical")], title="F", lang="zh")))
    assert {"严重", "警告", "提示", "图例："} <= set(strip) and "critical" not in strip


def test_legend_spacing_allows_for_wide_chinese_characters() -> None:
    assert svg.text_width("良好", 13) == 26  # a CJK character is a full em
    assert svg.text_width("good", 13) == pytest.approx(4 * 0.6 * 13)
    root = parse(
        svg.stacked_bars(
            [], title="t", x_label="x", legend=[("compute", "计算（单机单步）"), ("comm", "等待")], lang="zh"
        )
    )
    labels = {("".join(t.itertext())): float(t.get("x")) for t in root.iter(f"{NS}text")}
    assert labels["等待"] - labels["计算（单机单步）"] >= svg.text_width("计算（单机单步）", 13)
