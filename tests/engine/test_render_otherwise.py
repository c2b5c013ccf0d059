"""The template language's `[[ … || … ]]`: the first part when every fact it names is known, else the second."""

from __future__ import annotations

from bwdoctor.engine.render import fill

TEMPLATE = "slower on {job.nodes} nodes than on [[{job.baseline_multi_nodes}||one]]"


def test_the_first_part_when_its_facts_are_known() -> None:
    assert fill(TEMPLATE, {"job.nodes": 16, "job.baseline_multi_nodes": 8}) == "slower on 16 nodes than on 8"


def test_the_second_part_otherwise() -> None:
    assert fill(TEMPLATE, {"job.nodes": 4}) == "slower on 4 nodes than on one"


def test_an_optional_part_without_otherwise_still_drops() -> None:
    assert fill("a[[ at {comm.link_gbps} Gb/s]].", {}) == "a."


def test_a_baseline_of_several_machines_is_named_in_the_finding(engine) -> None:
    facts = {"job.nodes": 16, "job.baseline_nodes": 8, "job.step_time_s": 14.0, "job.step_time_baseline_s": 7.0,
             "job.gpus_per_node": 8}
    titles = [f.title for f in engine.diagnose(facts, lang="en").findings]
    assert any("on 16 nodes than on 8" in t for t in titles), titles
    one = {**facts, "job.baseline_nodes": 1}
    assert any("than on one" in t for t in (f.title for f in engine.diagnose(one, lang="en").findings))
