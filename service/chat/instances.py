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


# GPUs per instance of the same families (AWS and GCP instance-type pages): a machine's GPUs when the question
# names only the type ('two p3dn.24xlarge'). Every type listed has one documented count.
_KNOWN_GPUS: dict[str, int] = {
    "p3.2xlarge": 1, "p3.8xlarge": 4, "p3.16xlarge": 8, "p3dn.24xlarge": 8,
    "p4d.24xlarge": 8, "p4de.24xlarge": 8, "p5.48xlarge": 8, "p5e.48xlarge": 8, "p5en.48xlarge": 8,
    "g5.xlarge": 1, "g5.12xlarge": 4, "g5.24xlarge": 4, "g5.48xlarge": 8,
    "g4dn.12xlarge": 4, "g4dn.metal": 8, "g6.12xlarge": 4, "g6.48xlarge": 8,
    "a2-highgpu-1g": 1, "a2-highgpu-2g": 2, "a2-highgpu-4g": 4, "a2-highgpu-8g": 8, "a2-megagpu-16g": 16,
    "a2-ultragpu-8g": 8, "a3-highgpu-8g": 8, "a3-megagpu-8g": 8, "a3-ultragpu-8g": 8,
}


def known_gpus(instance_type: str) -> int | None:
    """GPUs in one instance of a known type, else None."""
    return _KNOWN_GPUS.get(instance_type.strip().lower())


def known_bandwidth_gbps(instance_type: str) -> float | None:
    """The provider's network cap for a known instance type, else None."""
    return _KNOWN_GBPS.get(instance_type.strip().lower())


def known_types() -> dict[str, float]:
    """The whole table, for help text and tests."""
    return dict(_KNOWN_GBPS)
