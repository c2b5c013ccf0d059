"""Where the node is: cluster, region, zone, rack, instance type.

From the configuration (file or environment) first; optionally from the cloud's metadata
service (AWS IMDSv2, GCP, Azure) with a short timeout. Off by default: a probe should not
reach for the network unless asked.
"""

from __future__ import annotations

from typing import Any

from bwdoctor_probe.collectors import CollectorResult

METADATA_IP = "169.254.169.254"


def from_config(cfg: Any) -> CollectorResult:
    """Facts node.* straight from the settings."""
    result = CollectorResult()
    result.facts["node.id"] = cfg.node_id
    for name in ("cluster", "region", "zone", "rack", "leaf_switch", "rail", "instance_type"):
        value = getattr(cfg, name, None)
        if value:
            result.facts[f"node.{name}"] = value
    if cfg.instance_bandwidth_gbps:
        result.facts["node.instance_bandwidth_gbps"] = float(cfg.instance_bandwidth_gbps)
    return result


def _aws(client: Any) -> dict[str, str]:
    token = client.put(f"http://{METADATA_IP}/latest/api/token",
                       headers={"X-aws-ec2-metadata-token-ttl-seconds": "60"})
    token.raise_for_status()
    headers = {"X-aws-ec2-metadata-token": token.text}
    out: dict[str, str] = {}
    for key, path in (("zone", "placement/availability-zone"), ("region", "placement/region"),
                      ("instance_type", "instance-type")):
        response = client.get(f"http://{METADATA_IP}/latest/meta-data/{path}", headers=headers)
        if response.status_code == 200 and response.text.strip():
            out[key] = response.text.strip()
    return out


def _gcp(client: Any) -> dict[str, str]:
    headers = {"Metadata-Flavor": "Google"}
    base = "http://metadata.google.internal/computeMetadata/v1/instance"
    zone = client.get(f"{base}/zone", headers=headers)
    zone.raise_for_status()
    out: dict[str, str] = {}
    name = zone.text.strip().rsplit("/", 1)[-1]  # projects/123/zones/us-central1-a
    if name:
        out["zone"] = name
        out["region"] = name.rsplit("-", 1)[0]
    machine = client.get(f"{base}/machine-type", headers=headers)
    if machine.status_code == 200 and machine.text.strip():
        out["instance_type"] = machine.text.strip().rsplit("/", 1)[-1]
    return out


def _azure(client: Any) -> dict[str, str]:
    response = client.get(f"http://{METADATA_IP}/metadata/instance/compute?api-version=2021-02-01",
                          headers={"Metadata": "true"})
    response.raise_for_status()
    data = response.json()
    out: dict[str, str] = {}
    if data.get("location"):
        out["region"] = str(data["location"])
    if data.get("zone"):
        out["zone"] = f"{data['location']}-{data['zone']}" if data.get("location") else str(data["zone"])
    if data.get("vmSize"):
        out["instance_type"] = str(data["vmSize"])
    return out


PROVIDERS = {"aws": _aws, "gcp": _gcp, "azure": _azure}


def from_cloud_metadata(provider: str, *, timeout_s: float, transport: Any = None) -> CollectorResult:
    """Ask the metadata service ("auto" tries each); configured values still win over these."""
    import httpx

    result = CollectorResult()
    names = list(PROVIDERS) if provider == "auto" else [provider]
    with httpx.Client(timeout=timeout_s, transport=transport, trust_env=False) as client:
        for name in names:
            try:
                found = PROVIDERS[name](client)
            except (httpx.HTTPError, ValueError) as exc:
                if provider != "auto":
                    result.notes.append(f"placement: {name} metadata not reachable: {type(exc).__name__}")
                continue
            if found:
                result.facts.update({f"node.{k}": v for k, v in found.items()})
                result.details["placement_source"] = f"{name} metadata"
                return result
    if provider == "auto":
        result.notes.append("placement: no cloud metadata service answered")
    return result


def collect_placement(cfg: Any, *, transport: Any = None) -> CollectorResult:
    """Config values, filled in from cloud metadata when enabled (config wins)."""
    result = CollectorResult()
    if cfg.cloud_metadata != "off":
        result.merge(from_cloud_metadata(cfg.cloud_metadata, timeout_s=cfg.metadata_timeout_s,
                                         transport=transport))
    if getattr(cfg, "lldp", False) and not getattr(cfg, "leaf_switch", None):
        from bwdoctor_probe.collectors.lldp import collect_lldp

        result.merge(collect_lldp(cfg.nic))
    result.merge(from_config(cfg))
    return result
