"""Three symptoms said in plain words, generated over subjects and verbs:

  - machines added and the whole work taking longer ('adding a second node makes every epoch take longer', 'with more
    nodes the training time goes up instead of down') → job.negative_scaling (a step is not the whole work: on more
    GPUs it may carry more, so 'with more nodes the step time goes up' says nothing);
  - the collectives' pieces said small ('the allreduce messages are tiny', 'our buckets are very small') →
    job.small_messages;
  - NCCL over Ethernet set against IB ('nccl 走的是以太网而不是 IB', 'NCCL goes over Ethernet instead of IB') →
    nccl.transport socket; wished for ('怎么让 nccl 走以太网而不是 IB') it is none.

Written for this battery (not copied from the corpus). Each row: (question, facts that must be read, facts that must
not be read).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.matching import read_problems

NEG, SMALL, TRANSPORT = "job.negative_scaling", "job.small_messages", "nccl.transport"
Case = tuple[str, dict[str, Any], dict[str, Any]]


def _added() -> list[Case]:
    cases: list[Case] = []
    for added in ["a second node", "another machine", "more nodes", "2 more servers"]:
        for whole in ["every epoch take longer", "the training run take longer", "each epoch slower"]:
            cases.append((f"Adding {added} makes {whole}.", {NEG: True}, {}))
    for more in ["nodes", "machines", "GPUs"]:
        for verb in ["goes up", "increases", "grows"]:
            cases.append((f"With more {more} the training time {verb} instead of down.", {NEG: True}, {}))
    cases.append(("with more nodes the step time goes up", {}, {NEG: None}))
    cases.append(("with more nodes the throughput goes up", {}, {NEG: None}))
    return cases


def _small() -> list[Case]:
    cases: list[Case] = [(f"the {piece} are {adv}{word}", {SMALL: True}, {})
                         for piece in ["allreduce messages", "buckets", "packets", "all-reduces"]
                         for adv in ["", "very ", "really "] for word in ["small", "tiny"]]
    cases.append(("the model is small", {}, {SMALL: None}))
    return cases


def _ethernet() -> list[Case]:
    cases: list[Case] = []
    for said in ["nccl 走的是以太网而不是 IB", "NCCL 走以太网，不是 IB", "NCCL goes over Ethernet instead of IB",
                 "NCCL uses ethernet rather than InfiniBand", "NCCL is using TCP/IP instead of RDMA"]:
        cases.append((said, {TRANSPORT: "socket"}, {}))
    cases.append(("怎么让 nccl 走以太网而不是 IB", {}, {TRANSPORT: None}))
    return cases


CASES = _added() + _small() + _ethernet()


@pytest.mark.parametrize(("question", "want", "unwanted"), CASES, ids=[c[0][:70] for c in CASES])
def test_added_machines_tiny_messages_ethernet(question: str, want: dict[str, Any], unwanted: dict[str, Any]) -> None:
    assert read_problems(question, {**want, **unwanted}) == []
