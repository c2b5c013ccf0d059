"""Bad facts get an error naming the key, the value and what was expected."""

from __future__ import annotations

import pytest

from bwdoctor.engine import FactValidationError


@pytest.mark.parametrize(
    ("facts", "key", "expected"),
    [
        ({"job.nodes": 0}, "job.nodes", "≥ 1"),
        ({"job.nodes": 2.5}, "job.nodes", "an integer"),
        ({"job.nodes": True}, "job.nodes", "an integer"),
        ({"nic.speed_gbps": "fast"}, "nic.speed_gbps", "a number"),
        ({"nic.speed_gbps": 0}, "nic.speed_gbps", "> 0"),
        ({"gpu.util_pct": 140}, "gpu.util_pct", "≤ 100"),
        ({"job.precision": "fp12"}, "job.precision", "one of fp32, bf16, fp16, fp8, int8"),
        ({"job.parallelism": "sideways"}, "job.parallelism", "one of data"),
        ({"nic.rdma": "yes"}, "nic.rdma", "true or false"),
        ({"comm.grad_gbytes": 5}, "comm.grad_gbytes", "derived"),
    ],
)
def test_bad_fact_names_key_and_expectation(engine, facts, key, expected):
    with pytest.raises(FactValidationError) as info:
        engine.validate_facts(facts)
    assert info.value.key == key
    assert expected in str(info.value)


def test_non_object_input_is_rejected(engine):
    with pytest.raises(FactValidationError, match="an object"):
        engine.validate_facts([1, 2])


def test_aliases_and_unknown_keys(engine):
    facts = engine.validate_facts({"job.precision": "BFloat16", "job.parallelism": "ZeRO-3", "my.own_fact": 3})
    assert facts == {"job.precision": "bf16", "job.parallelism": "fsdp", "my.own_fact": 3}


def test_integral_floats_become_ints(engine):
    assert engine.validate_facts({"job.nodes": 8.0}) == {"job.nodes": 8}
