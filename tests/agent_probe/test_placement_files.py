import httpx
import pytest

from bwdoctor_probe.collectors.files import collect_nccl_log, collect_nccl_tests, collect_training_log, read_tail
from bwdoctor_probe.collectors.placement import collect_placement
from bwdoctor_probe.config import load_config


def metadata_transport(routes: dict[tuple[str, str], httpx.Response], seen: list[httpx.Request]):
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return routes.get((request.method, str(request.url)), httpx.Response(404))

    return httpx.MockTransport(handler)


def test_config_placement_and_no_network_by_default():
    cfg = load_config(env={}, overrides={"node_id": "gpu-a01", "cluster": "c1", "zone": "z1", "rack": "r1"})
    seen: list[httpx.Request] = []
    result = collect_placement(cfg, transport=metadata_transport({}, seen))
    assert result.facts == {"node.id": "gpu-a01", "node.cluster": "c1", "node.zone": "z1", "node.rack": "r1"}
    assert seen == []  # cloud_metadata is off: nothing was asked


def test_aws_imdsv2_uses_a_session_token_and_config_wins():
    seen: list[httpx.Request] = []
    base = "http://169.254.169.254/latest"
    transport = metadata_transport({
        ("PUT", f"{base}/api/token"): httpx.Response(200, text="TOKEN"),
        ("GET", f"{base}/meta-data/placement/availability-zone"): httpx.Response(200, text="us-east-1a"),
        ("GET", f"{base}/meta-data/placement/region"): httpx.Response(200, text="us-east-1"),
        ("GET", f"{base}/meta-data/instance-type"): httpx.Response(200, text="p5.48xlarge"),
    }, seen)
    cfg = load_config(env={}, overrides={"cloud_metadata": "aws", "region": "configured-region"})
    result = collect_placement(cfg, transport=transport)
    assert result.facts["node.zone"] == "us-east-1a" and result.facts["node.instance_type"] == "p5.48xlarge"
    assert result.facts["node.region"] == "configured-region"
    assert seen[0].headers["X-aws-ec2-metadata-token-ttl-seconds"] == "60"
    assert all(r.headers.get("X-aws-ec2-metadata-token") == "TOKEN" for r in seen[1:])


def test_gcp_and_azure_shapes():
    seen: list[httpx.Request] = []
    gcp = "http://metadata.google.internal/computeMetadata/v1/instance"
    transport = metadata_transport({
        ("GET", f"{gcp}/zone"): httpx.Response(200, text="projects/1234/zones/us-central1-a"),
        ("GET", f"{gcp}/machine-type"): httpx.Response(200, text="projects/1234/machineTypes/a3-megagpu-8g"),
    }, seen)
    result = collect_placement(load_config(env={}, overrides={"cloud_metadata": "gcp"}), transport=transport)
    assert result.facts["node.zone"] == "us-central1-a" and result.facts["node.region"] == "us-central1"
    assert result.facts["node.instance_type"] == "a3-megagpu-8g" and seen[0].headers["Metadata-Flavor"] == "Google"

    azure = "http://169.254.169.254/metadata/instance/compute?api-version=2021-02-01"
    transport = metadata_transport({("GET", azure): httpx.Response(
        200, json={"location": "eastus", "zone": "2", "vmSize": "Standard_ND96isr_H100_v5"})}, seen)
    result = collect_placement(load_config(env={}, overrides={"cloud_metadata": "azure"}), transport=transport)
    assert result.facts["node.region"] == "eastus" and result.facts["node.zone"] == "eastus-2"


def test_auto_with_no_metadata_service_is_a_note():
    def unreachable(request):
        raise httpx.ConnectTimeout("timed out", request=request)

    cfg = load_config(env={}, overrides={"cloud_metadata": "auto"})
    result = collect_placement(cfg, transport=httpx.MockTransport(unreachable))
    assert "node.zone" not in result.facts and "no cloud metadata service answered" in result.notes[0]


def test_files(fixtures_dir):
    tests = collect_nccl_tests(fixtures_dir / "nccl_tests_allreduce_socket_mpirun.txt", max_bytes=1 << 20)
    assert tests.facts == {"nccl.allreduce_busbw_gbytes_per_s": 5.89, "nccl.transport": "socket",
                           "nccl.socket_ifname": "ens5", "nccl.ib_disabled": True}
    gather = collect_nccl_tests(fixtures_dir / "nccl_tests_allgather.txt", max_bytes=1 << 20)
    assert gather.facts == {} and "not all_reduce" in gather.notes[0]
    log = collect_nccl_log(fixtures_dir / "nccl_debug_ib_gdr_disabled.log", max_bytes=1 << 20)
    assert log.facts == {"nccl.transport": "ib", "nccl.gdr_disabled": True, "nccl.gdr_partial": False}
    assert any("GPUDirect RDMA disabled" in n for n in log.notes)
    training = collect_training_log(fixtures_dir / "megatron_core_mpirun.log", max_bytes=1 << 20, step_regex=None,
                                    last_n=20)
    assert training.facts["job.step_time_s"] == pytest.approx(4.2123)


def test_missing_file_is_a_note(tmp_path):
    result = collect_training_log(tmp_path / "nope.log", max_bytes=1024, step_regex=None, last_n=5)
    assert result.facts == {} and "cannot read" in result.notes[0]


def test_only_the_tail_is_read(tmp_path):
    path = tmp_path / "big.log"
    path.write_text("".join(f"line {i}\n" for i in range(10_000)))
    tail = read_tail(path, 100)
    assert tail.endswith("line 9999\n") and len(tail) <= 100 and tail.startswith("line ")
