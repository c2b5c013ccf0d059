"""Network bandwidth of a few cloud GPU instance types whose published figure is certain.

Only types with a single documented number are listed (AWS's own instance-type pages); "up to N"
burst figures and types we are unsure of are left out on purpose: a wrong cap misleads a diagnosis
more than a missing one, which the reply simply asks for.
"""

# AWS EC2 accelerated-computing instances, network bandwidth in Gb/s.
_KNOWN_GBPS: dict[str, float] = {
    "p3.16xlarge": 25,
    "p3dn.24xlarge": 100,
    "p4d.24xlarge": 400,
    "p4de.24xlarge": 400,
    "p5.48xlarge": 3200,
    "g5.12xlarge": 40,
    "g5.24xlarge": 50,
    "g5.48xlarge": 100,
    "g4dn.12xlarge": 50,
    "g4dn.metal": 100,
}


def known_bandwidth_gbps(instance_type: str) -> float | None:
    """The provider's network cap for a known instance type, else None."""
    return _KNOWN_GBPS.get(instance_type.strip().lower())


def known_types() -> dict[str, float]:
    """The whole table, for help text and tests."""
    return dict(_KNOWN_GBPS)
