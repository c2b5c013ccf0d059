"""Pasted tool output is routed to its parser and kept out of the word extractors."""

import json

import pytest

from bwdoctor.chat.pasted import parse_pasted, split_pasted
from bwdoctor.chat.understanding import understand
from bwdoctor_parsers.iperf3_text import parse_iperf3_text
from bwdoctor_parsers.nvidia_smi import parse_nvidia_smi
from tests.prereqs import SHARED, needs, shared_dir

IPERF_TEXT = """Connecting to host 10.0.0.2, port 5201
[  5] local 10.0.0.1 port 51234 connected to 10.0.0.2 port 5201
[ ID] Interval           Transfer     Bitrate         Retr  Cwnd
[  5]   0.00-1.00   sec   1.09 GBytes  9.35 Gbits/sec    0   3.01 MBytes
- - - - - - - - - - - - - - - - - - - - - - - - -
[ ID] Interval           Transfer     Bitrate         Retr
[  5]   0.00-10.00  sec  10.9 GBytes  9.36 Gbits/sec   12             sender
[  5]   0.00-10.04  sec  10.9 GBytes  9.32 Gbits/sec                  receiver
"""
IPERF_PARALLEL = """[  5]   0.00-10.00  sec  5.45 GBytes  4.68 Gbits/sec    3             sender
[  5]   0.00-10.04  sec  5.44 GBytes  4.66 Gbits/sec                  receiver
[  7]   0.00-10.00  sec  5.45 GBytes  4.68 Gbits/sec    2             sender
[  7]   0.00-10.04  sec  5.44 GBytes  4.66 Gbits/sec                  receiver
[SUM]   0.00-10.00  sec  10.9 GBytes  9.36 Gbits/sec    5             sender
[SUM]   0.00-10.04  sec  10.9 GBytes  9.31 Gbits/sec                  receiver
"""
IPERF2 = "[  3]  0.0-10.0 sec  1.10 GBytes   943 Mbits/sec\n"
SMI = """| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2     |
|   0  NVIDIA A100-SXM4-80GB          On  | 00000000:07:00.0 Off |                    0 |
| N/A   33C    P0    61W / 400W |  40000MiB / 81920MiB |     35%      Default |
|   1  NVIDIA A100-SXM4-80GB          On  | 00000000:0B:00.0 Off |                    0 |
| N/A   34C    P0    65W / 400W |  40000MiB / 81920MiB |     45%      Default |
"""
SMI_CSV = ("utilization.gpu [%], memory.used [MiB], memory.total [MiB]\n"
           "35 %, 40000 MiB, 80000 MiB\n45 %, 20000 MiB, 80000 MiB\n")
TOPO = "\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tNV12\t0-63\nGPU1\tNV12\t X \t0-63\n"
TOPO_PCIE = "\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tPHB\t0-63\nGPU1\tPHB\t X \t0-63\n"


def test_iperf3_text_receiver_and_sum() -> None:
    assert parse_iperf3_text(IPERF_TEXT).facts() == {"net.iperf3_gbps": 9.32}
    assert parse_iperf3_text(IPERF_TEXT).retransmits == 12
    assert parse_iperf3_text(IPERF_PARALLEL).facts() == {"net.iperf3_gbps": 9.31}
    assert parse_iperf3_text(IPERF2).facts() == {"net.iperf3_gbps": 0.943}
    assert parse_iperf3_text("iperf3: error - unable to connect to server: Connection refused").error
    assert parse_iperf3_text("hello").facts() == {}


def test_nvidia_smi_table_csv_topology() -> None:
    facts = parse_nvidia_smi(SMI).facts()
    assert facts["gpu.util_pct"] == 40 and facts["gpu.util_min_pct"] == 35 and facts["gpu.count"] == 2
    assert facts["gpu.model"].startswith("A100")
    assert parse_nvidia_smi(SMI_CSV).facts()["gpu.util_pct"] == 40
    assert parse_nvidia_smi(TOPO).facts() == {"gpu.nvlink": True}
    assert parse_nvidia_smi(TOPO_PCIE).facts() == {"gpu.nvlink": False}
    assert parse_nvidia_smi("").facts() == {}


def test_pasted_blocks_are_blanked_but_offsets_kept() -> None:
    q = "4 nodes, 100GbE. iperf3 says:\n" + IPERF_TEXT + "is that bad?"
    prose, spans = split_pasted(q)
    assert len(prose) == len(q) and spans
    assert "Gbits" not in prose and "4 nodes" in prose


def test_pasted_iperf_json_and_text_give_measured_throughput() -> None:
    doc = {"start": {"test_start": {"protocol": "TCP", "num_streams": 1}},
           "end": {"sum_received": {"bits_per_second": 9.4e9}, "sum_sent": {"retransmits": 0}}}
    _, pasted = parse_pasted("our iperf3 -J:\n" + json.dumps(doc, indent=1) + "\nNIC is 25GbE")
    assert pasted.facts == {"net.iperf3_gbps": 9.4}
    u = understand("NIC is 25GbE, iperf3:\n" + IPERF_TEXT)
    assert u.facts["net.iperf3_gbps"] == 9.32 and u.facts["nic.speed_gbps"] == 25
    (measured,) = [x for x in u.understood if x.fact == "net.iperf3_gbps"]
    assert measured.source.startswith("pasted")


def test_words_in_pasted_output_are_not_the_users_statements() -> None:
    log = "\n".join(f"host:1:2 [{i}] NCCL INFO Channel 00/02 : 8 GPUs 100G something" for i in range(3))
    u = understand("NCCL says\n" + log + "\nwhy so slow?")
    assert "nic.speed_gbps" not in u.facts


FIXTURES = shared_dir() / "fixtures"


@needs(SHARED, why="real tool output in its fixtures/")
@pytest.mark.parametrize(("name", "fact", "value"), [
    ("nccl_tests_allreduce_slow_2node_socket_tcp_eks.txt", "nccl.allreduce_busbw_gbytes_per_s", 2.03),
    ("nccl_tests_allreduce_fast_2node_16xH100_a3mega_tcpxo.txt", "nccl.allreduce_busbw_gbytes_per_s", 338.82),
    ("nccl_debug_socket_fallback_no_ibverbs_nccl766.log", "nccl.transport", "socket"),
    ("nccl_debug_roce_ring_no_gdr_nccl392.log", "nic.kind", "roce"),
    ("iperf3_client_tcp_loopback.json", "net.iperf3_gbps", 21.084),
    ("megatron_lm_iteration_log_mixtral_nvidia_megatron756.log", "job.step_time_s", None),
])
def test_real_tool_output_pasted_into_a_question(name: str, fact: str, value: object) -> None:
    text = (FIXTURES / name).read_text(errors="replace")
    u = understand("训练很慢，这是输出：\n" + text + "\n怎么回事？")
    assert fact in u.facts
    if value is not None:
        assert u.facts[fact] == value
    assert u.language == "zh"
