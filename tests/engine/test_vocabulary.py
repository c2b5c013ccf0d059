"""The fact catalogue is the vocabulary: code names only facts it knows, and takes labels, display formats
and cluster aggregation from it (rules/facts.yaml), so the copies that once disagreed cannot come back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bwdoctor.engine import RuleLoadError, builtin_catalogue
from bwdoctor.engine.catalogue import parse_catalogue

ROOT = Path(__file__).resolve().parents[2]
LITERAL = re.compile(r"""["'`]([a-z][a-z0-9_]*\.[a-z][a-z0-9_]*)["'`]""")
# Dotted strings in the code that are not facts: template files, a page's data attribute, a CSV column
# of nvidia-smi, prefixes and an example of a misspelt fact name.
NOT_FACTS = {"cluster.html", "node.html", "nic.efficiency", "pcie.link", "gpu.mem", "gpu.utilisation"}
# The tables that once held fact vocabulary outside the catalogue.
REMOVED = re.compile(r"\b(TABLE_FACTS|MIN_FACTS|OUTLIER_FACTS|WORST_VALUE|LIMITING_FACTS|ALL_TRUE_FACTS)\b")


def _code() -> list[Path]:
    files = []
    for top in ("service", "agent_probe", "tool_parsers"):
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in (".py", ".html", ".js") and "engine" not in path.relative_to(ROOT).parts[:2]:
                files.append(path)
    return files


def fact_names_unknown_to_the_catalogue(paths: list[Path]) -> list[str]:
    catalogue = builtin_catalogue()
    prefixes = {name.split(".")[0] for name in catalogue.names()}
    found = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in LITERAL.finditer(line):
                name = match.group(1)
                if name.split(".")[0] in prefixes and name not in catalogue and name not in NOT_FACTS:
                    found.append(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}:{number} {name}")
    return found


def test_code_names_only_facts_the_catalogue_knows() -> None:
    unknown = fact_names_unknown_to_the_catalogue(_code())
    assert not unknown, "add these to rules/facts.yaml or fix the name:\n" + "\n".join(unknown)


def test_the_scan_catches_an_unknown_fact(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('LABELS = {"nic.speed_gbps": "NIC", "nic.rated_gbps": "rated"}\n')
    assert [x.split()[-1] for x in fact_names_unknown_to_the_catalogue([sample])] == ["nic.rated_gbps"]


def test_the_old_copies_of_the_vocabulary_are_gone() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in _code()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if REMOVED.search(line)
    ]
    assert not found
    from bwdoctor.chat import labels

    assert not hasattr(labels, "FACTS")


def test_labels_formats_and_aggregation_come_from_the_catalogue() -> None:
    catalogue = builtin_catalogue()
    assert catalogue.label("nic.speed_gbps", "en") != catalogue.label("nic.max_speed_gbps", "en")
    assert "协商" in catalogue.label("nic.speed_gbps", "zh") and "额定" in catalogue.label("nic.max_speed_gbps", "zh")
    assert catalogue["comm.fraction"].show(0.54) == "54 %"
    assert catalogue["job.model_params_b"].show(70) == "70B"
    assert catalogue["job.precision"].show("bf16") == "BF16"
    columns = [s.name for s in catalogue.table_columns()]
    assert columns.index("nic.max_speed_gbps") < columns.index("nic.speed_gbps")
    for spec in catalogue.table_columns():
        assert spec.label.get("en") and spec.label.get("zh") and spec.unit, spec.name
    for name in catalogue.names():
        spec = catalogue[name]
        assert not spec.cluster.limits or spec.cluster.aggregate in ("min", "max"), name


@pytest.mark.parametrize(
    ("cluster", "message"),
    [
        ({"aggregate": "average"}, "cluster aggregate must be one of"),
        ({"aggregate": "min", "outlier": "sideways"}, "outlier must be low or high"),
        ({"aggregate": "worst"}, "'worst_first' goes with aggregate: worst"),
    ],
)
def test_a_wrong_aggregation_is_a_load_error(cluster: dict[str, str], message: str) -> None:
    with pytest.raises(RuleLoadError, match=message):
        parse_catalogue({"facts": {"x.y": {"type": "number", "cluster": cluster}}}, file="facts.yaml")


def test_pages_show_the_rating_and_the_negotiated_speed_apart() -> None:
    """A 100 Gb/s NIC negotiated at 25 Gb/s moving 21 Gb/s: 21 % of its rating, not 84 % of '25 rated'."""
    from bwdoctor.web import charts

    facts = {"nic.max_speed_gbps": 100, "nic.speed_gbps": 25, "net.iperf3_gbps": 21, "gpu.util_pct": 90}
    metrics = charts.node_metrics("n1", facts, stale=False, straggler=False)
    assert (metrics.nic_speed_gbps, metrics.nic_negotiated_gbps, metrics.nic_efficiency_pct) == (100, 25, 21)
    nic_cell = charts.grid_rows([metrics], "en")[0].cells[1]
    assert nic_cell.text.startswith("21 % of 100G (negotiated 25G)")
    only_negotiated = charts.node_metrics("n2", {"nic.speed_gbps": 25, "net.iperf3_gbps": 21}, stale=False,
                                          straggler=False)
    assert only_negotiated.nic_efficiency_pct == 84 and only_negotiated.nic_negotiated_gbps == 25


def test_every_fact_has_a_name_in_both_languages() -> None:
    """The chat and the pages name facts from the catalogue alone: a fact without a label would show as its key."""
    catalogue = builtin_catalogue()
    for fact in catalogue.names():
        if fact.startswith(("node.", "cluster.", "diag.")):
            continue  # identifiers and conclusions, never shown as a named quantity
        assert catalogue.label(fact, "en") != fact and catalogue.label(fact, "zh") != fact, fact
