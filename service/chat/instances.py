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
    "p5en.48xlarge": 3200,
    "p6-b200.48xlarge": 3200,
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
    # the smaller sizes of the same AWS and GCP families, and the L40S (g6e) and L4 (g6, g2-standard) machines
    "g4dn.xlarge": 1, "g4dn.2xlarge": 1, "g4dn.4xlarge": 1, "g4dn.8xlarge": 1, "g4dn.16xlarge": 1,
    "g5.2xlarge": 1, "g5.4xlarge": 1, "g5.8xlarge": 1, "g5.16xlarge": 1,
    "g6.xlarge": 1, "g6.2xlarge": 1, "g6.4xlarge": 1, "g6.8xlarge": 1, "g6.16xlarge": 1, "g6.24xlarge": 4,
    "g6e.xlarge": 1, "g6e.2xlarge": 1, "g6e.4xlarge": 1, "g6e.8xlarge": 1, "g6e.16xlarge": 1, "g6e.12xlarge": 4,
    "g6e.24xlarge": 4, "g6e.48xlarge": 8, "dl1.24xlarge": 8,
    "a3-highgpu-1g": 1, "a3-highgpu-2g": 2, "a3-highgpu-4g": 4, "a3-edgegpu-8g": 8,
    "g2-standard-4": 1, "g2-standard-8": 1, "g2-standard-12": 1, "g2-standard-16": 1, "g2-standard-32": 1,
    "g2-standard-24": 2, "g2-standard-48": 4, "g2-standard-96": 8,
    # Azure's GPU sizes (its 'Standard_' prefix dropped): ND A100 v4, ND H100 v5, ND v2, NC A100 v4, NC v3, NC H100 v5
    "nd96asr_v4": 8, "nd96amsr_a100_v4": 8, "nd96isr_h100_v5": 8, "nd40rs_v2": 8,
    "nc24ads_a100_v4": 1, "nc48ads_a100_v4": 2, "nc96ads_a100_v4": 4,
    "nc6s_v3": 1, "nc12s_v3": 2, "nc24s_v3": 4, "nc24rs_v3": 4, "nc40ads_h100_v5": 1, "nc80adis_h100_v5": 2,
}


# The GPU model of each family (the same pages): 'two p4d.24xlarge' are A100 machines. Matched on the family
# prefix, the size after it ('.24xlarge', '-8g') does not change the GPU.
_FAMILY_GPU: list[tuple[str, str]] = [
    ("p2.", "K80"), ("p3dn.", "V100"), ("p3.", "V100"), ("p4de.", "A100"), ("p4d.", "A100"),
    ("p5en.", "H200"), ("p5e.", "H200"), ("p5.", "H100"), ("p6-b200", "B200"), ("p6-b300", "B300"),
    ("p6e-gb200", "GB200"), ("g4dn.", "T4"), ("g5.", "A10G"), ("g6e.", "L40S"), ("g6.", "L4"), ("g2-standard", "L4"),
    ("a2-", "A100"), ("a3-", "H100"), ("a4-", "B200"), ("nd96asr_v4", "A100"), ("nd96amsr_a100_v4", "A100"),
    ("nd96isr_h100_v5", "H100"), ("nd96isr_h200_v5", "H200"), ("nd40rs_v2", "V100"), ("nc24ads_a100", "A100"),
    ("nc48ads_a100", "A100"), ("nc96ads_a100", "A100"), ("nc40ads_h100", "H100"), ("nc80adis_h100", "H100"),
    ("nc6s_v3", "V100"), ("nc12s_v3", "V100"), ("nc24s_v3", "V100"), ("nc24rs_v3", "V100"),
]
_KNOWN_GPUS.update({"p6-b200.48xlarge": 8, "p6-b200": 8, "p6-b300.48xlarge": 8, "p6-b300": 8, "p2.xlarge": 1,
                    "p2.8xlarge": 8, "p2.16xlarge": 16})


def _plain(instance_type: str) -> str:
    """The type without a platform's prefix: Azure's 'Standard_', SageMaker's 'ml.' ('ml.p4d.24xlarge' is a
    p4d.24xlarge)."""
    return instance_type.strip().lower().removeprefix("standard_").removeprefix("ml.")


def known_gpu_model(instance_type: str) -> str | None:
    """The GPU model of a known instance family, else None ('p4d.24xlarge' → 'A100')."""
    name = _plain(instance_type)
    return next((model for prefix, model in _FAMILY_GPU if name.startswith(prefix)), None)


def known_gpus(instance_type: str) -> int | None:
    """GPUs in one instance of a known type, else None ('Standard_ND96asr_v4' is Azure's ND96asr_v4)."""
    return _KNOWN_GPUS.get(_plain(instance_type))


def known_bandwidth_gbps(instance_type: str) -> float | None:
    """The provider's network cap for a known instance type, else None."""
    return _KNOWN_GBPS.get(_plain(instance_type))


def known_types() -> dict[str, float]:
    """The whole table, for help text and tests."""
    return dict(_KNOWN_GBPS)
