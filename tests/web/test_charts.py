"""charts.py: the what-if uses the engine's arithmetic; the grid labels what it colours."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bwdoctor.engine import derive
from bwdoctor.web import charts

NS = "{http://www.w3.org/2000/svg}"
JOB = {"job.model_params_b": 70, "job.precision": "bf16", "job.nodes": 8, "job.step_time_baseline_s": 2.0}


def by_label(scenarios: list[charts.Scenario]) -> dict[str, charts.Scenario]:
    return {s.group.split(" (")[0] + ": " + s.label: s for s in scenarios}


def test_whatif_link_speeds_follow_the_ring_allreduce_formula() -> None:
    scenarios = by_label(charts.whatif_scenarios(JOB))
    for gbps in charts.LINK_SPEEDS_GBPS:
        s = scenarios[f"Link speed: {gbps} Gb/s"]
        # 2(N-1)/N × 140 GB ÷ (gbps/8), H17; the number is the engine's, checked by hand here
        assert s.comm_s == pytest.approx(2 * 7 / 8 * 140 / (gbps / 8), rel=1e-6)
        assert s.compute_s == 2.0
        assert s.fraction == pytest.approx(s.comm_s / (s.comm_s + 2.0), rel=1e-5)
    assert scenarios["Link speed: 10 Gb/s"].comm_s == pytest.approx(196.0)


def test_whatif_matches_engine_derive_exactly() -> None:
    for s in charts.whatif_scenarios({**JOB, "nic.speed_gbps": 25, "node.instance_bandwidth_gbps": 12.5}):
        changed = {**JOB, "nic.speed_gbps": 25, "node.instance_bandwidth_gbps": 12.5}
        if s.changes:  # a scenario other than 'your link' lifts every other cap on the link
            changed = {k: v for k, v in changed.items() if k not in ("nic.speed_gbps", "node.instance_bandwidth_gbps")}
            changed.update(s.changes)
        derived = derive(changed)
        assert s.comm_s == derived["comm.allreduce_amortised_s"]
        assert s.fraction == derived["comm.fraction"]


def test_whatif_current_link_is_the_slowest_cap_and_is_the_base_of_the_other_groups() -> None:
    scenarios = charts.whatif_scenarios({**JOB, "nic.speed_gbps": 100, "net.iperf3_gbps": 40})
    current = [s for s in scenarios if s.current]
    assert len(current) == 1 and current[0].label == "your link 40 Gb/s"
    compression = [s for s in scenarios if s.group.startswith("Compression")]
    assert all("at 40 Gb/s" in s.group for s in compression)


def test_whatif_compression_and_accumulation_cut_the_wait() -> None:
    s = by_label(charts.whatif_scenarios({**JOB, "job.precision": "fp32"}))
    as_is = s["Compression: as is: fp32"].comm_s
    assert s["Compression: fp16 (2 bytes)"].comm_s == pytest.approx(as_is / 2)
    assert s["Compression: 8-bit (1 byte)"].comm_s == pytest.approx(as_is / 4)
    assert s["Gradient accumulation: k = 4"].comm_s == pytest.approx(as_is / 4)
    assert s["Gradient accumulation: k = 8"].comm_s == pytest.approx(as_is / 8)
    assert "at 100 Gb/s" in s["Compression: as is: fp32"].group  # no link given: the stated reference


def test_whatif_needs_the_job() -> None:
    with pytest.raises(charts.WhatIfInputError) as info:
        charts.whatif_scenarios({"job.precision": "bf16"})
    assert info.value.missing == ["job.model_params_b", "job.nodes", "job.step_time_baseline_s"]


def test_whatif_out_of_range_figures_are_refused_not_drawn_as_nan() -> None:
    absurd = {**JOB, "job.model_params_b": 1e308, "job.step_time_baseline_s": 1e-300, "nic.speed_gbps": 1e-300}
    with pytest.raises(charts.WhatIfInputError):
        charts.whatif_scenarios(absurd)


def test_whatif_svg_shows_each_scenario_with_its_share_of_waiting() -> None:
    drawing = charts.whatif_svg(JOB)
    root = ET.fromstring(drawing)
    words = ["".join(t.itertext()) for t in root.iter(f"{NS}text")]
    for label in ("10 Gb/s", "25 Gb/s", "100 Gb/s", "200 Gb/s", "400 Gb/s", "fp16 (2 bytes)", "8-bit (1 byte)"):
        assert label in words
    assert "k = 4" in words and "k = 8" in words
    assert "2 s compute + 196 s all-reduce · 99 % waiting" in words
    assert "nan" not in drawing.lower()


def test_whatif_url_round_trips_the_job() -> None:
    url = charts.whatif_url({**JOB, "gpu.util_pct": 50})
    assert url.startswith("/charts/whatif.svg?")
    assert "gpu.util_pct" not in url  # only what the chart takes
    assert "job.model_params_b=70" in url and "job.precision=bf16" in url


def test_node_metrics_prefer_iperf3_over_rx_tx() -> None:
    m = charts.node_metrics(
        "n", {"nic.speed_gbps": 100, "net.iperf3_gbps": 25, "nic.rx_gbps": 90}, stale=False, straggler=False
    )
    assert (m.nic_efficiency_pct, m.nic_efficiency_source) == (25.0, "iperf3")
    m = charts.node_metrics(
        "n", {"nic.speed_gbps": 100, "nic.rx_gbps": 9, "nic.tx_gbps": 12}, stale=False, straggler=False
    )
    assert (m.nic_efficiency_pct, m.nic_efficiency_source) == (12.0, "rx/tx")
    m = charts.node_metrics("n", {"net.iperf3_gbps": 25}, stale=False, straggler=False)
    assert m.nic_efficiency_pct is None


def metrics(node_id: str, **facts: Any) -> charts.NodeMetrics:
    stale = facts.pop("stale", False)
    outliers = facts.pop("outliers", ())
    return charts.node_metrics(node_id, facts, stale=stale, straggler=bool(outliers), outlier_facts=outliers)


def test_grid_rows_write_levels_and_badges_in_words() -> None:
    rows = charts.grid_rows(
        [
            metrics("a", **{"gpu.util_pct": 92, "nic.speed_gbps": 100, "net.iperf3_gbps": 94, "job.step_time_s": 2.0}),
            metrics("b", **{"gpu.util_pct": 35, "job.step_time_s": 4.0, "outliers": ["gpu.util_pct"]}),
            metrics("c", **{"gpu.util_pct": 65, "nic.speed_gbps": 100, "nic.rx_gbps": 5, "job.step_time_s": 2.1}),
            metrics("d", **{"gpu.util_pct": 90, "stale": True}),
        ]
    )
    cells = {row.label: [c.text for c in row.cells] for row in rows}
    assert cells["a"] == ["92 % · good", "94 % of 100G · good", "2 s · good"]
    assert cells["b"][0] == "35 % · outlier" and cells["b"][1] == "n/a" and cells["b"][2] == "4 s · poor"
    assert cells["c"][0] == "65 % · fair" and cells["c"][1] == "5 % of 100G rx/tx"
    assert cells["d"][0] == "90 % · stale"
    badges = {row.label: list(row.badges) for row in rows}
    assert badges == {"a": [], "b": ["STRAGGLER"], "c": [], "d": ["STALE"]}
    assert rows[0].href == "/nodes/a"


def test_node_charts_draw_history_in_time_order_with_the_rating() -> None:
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    reports = [
        {
            "collected_at": t0 + timedelta(minutes=5 * i),
            "facts": {"gpu.util_pct": 50 + i, "nic.rx_gbps": 10 * i, "nic.speed_gbps": 100, "job.step_time_s": 2},
            "findings": [{"rule": "r1", "title": f"Link <degraded> {i}", "severity": "critical"}] if i else [],
        }
        for i in (2, 0, 1)  # any order in, time order out
    ]
    drawn = charts.node_charts("n<1>", reports)
    assert set(drawn) == {"gpu", "nic", "step", "findings"}
    for drawing in drawn.values():
        ET.fromstring(drawing)
    nic_words = ["".join(t.itertext()) for t in ET.fromstring(drawn["nic"]).iter(f"{NS}text")]
    assert "rated 100" in nic_words
    assert "20" in nic_words  # the latest rx value at the end of its line
    strip = ET.fromstring(drawn["findings"])
    strip_text = "".join(strip.itertext())
    assert "Link <degraded> 2" in strip_text  # one lane per rule, named by its latest title
    assert strip_text.count("Link <degraded> 1") == 1  # only in the first event's tooltip, not as a lane
    assert len([g for g in strip.iter(f"{NS}g") if (g.get("class") or "").startswith("bwd-event")]) == 2


def test_grid_rows_in_chinese_keep_the_numbers_and_change_the_words() -> None:
    nodes = [
        metrics("a", **{"gpu.util_pct": 92, "nic.speed_gbps": 100, "net.iperf3_gbps": 94, "job.step_time_s": 2.0}),
        metrics("b", **{"gpu.util_pct": 35, "job.step_time_s": 4.0, "outliers": ["gpu.util_pct"]}),
        metrics("d", **{"gpu.util_pct": 90, "stale": True}),
    ]
    rows = charts.grid_rows(nodes, "zh")
    cells = {row.label: [c.text for c in row.cells] for row in rows}
    assert cells["a"] == ["92 % · 良好", "94 %（额定 100G） · 良好", "2 s · 良好"]
    assert cells["b"][0] == "35 % · 异常" and cells["b"][1] == "无数据"
    assert cells["d"][0] == "90 % · 过期"
    assert {row.label: list(row.badges) for row in rows} == {"a": [], "b": ["掉队"], "d": ["失联"]}
    assert rows[0].cells[0].tooltip == "a：GPU 利用率 92 %"
    english = [c.text for c in charts.grid_rows(nodes)[0].cells]
    assert english == ["92 % · good", "94 % of 100G · good", "2 s · good"]  # English stays the default


def test_whatif_in_chinese_has_the_same_figures() -> None:
    english = charts.whatif_scenarios(JOB)
    chinese = charts.whatif_scenarios(JOB, "zh")
    assert [(s.comm_s, s.compute_s, s.changes) for s in english] == [
        (s.comm_s, s.compute_s, s.changes) for s in chinese
    ]
    groups = {s.group for s in chinese}
    assert "链路速率（bf16，梯度累积 1）" in groups and "梯度压缩（按 100 Gb/s）" in groups
    words = ["".join(t.itertext()) for t in ET.fromstring(charts.whatif_svg(JOB, "zh")).iter(f"{NS}text")]
    assert "计算 2 秒 + all-reduce 196 秒 · 等待占 99 %" in words
    assert "fp16（2 字节）" in words and "8 位（1 字节）" in words and "k = 4" in words
    assert charts.whatif_url(JOB, "zh").endswith("&lang=zh")
