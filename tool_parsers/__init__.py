"""Parsers of the text that distributed-training tools print.

Shared by the probe (which reads files on the node) and the chat (which reads what a person
pastes), so every parser here takes a ``str``, imports nothing from ``service`` or
``agent_probe``, and never raises on garbage: unrecognised input gives an empty result.

Each module returns a small dataclass whose ``facts()`` method gives the fact names of
docs/facts.md (``net.iperf3_gbps``, ``nccl.transport``, ``job.step_time_s`` ...).
"""
