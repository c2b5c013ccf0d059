"""Shortfalls of the s5–s9 corpora in pasted output, comparisons and counts, read as general mechanisms."""

from bwdoctor.chat.comparisons import read_scaling, run_sizes
from bwdoctor.chat.pasted import parse_pasted

KNB_ASK = """Pod network is slow. I ran knb:
```
 Discovered k8s version : v1.19.9
 Discovered MTU         : 1440
  Pod to pod :
    TCP :
      bandwidth = 7328 Mbit/s
      client cpu = total 17.07% (user 2.41%, nice 0.00%, system 14.50%, iowait 0.16%, steal 0.00%)
```
Is that normal?"""


def test_knb_report_gives_the_pods_mtu_and_a_measured_throughput():
    _, pasted = parse_pasted(KNB_ASK)
    assert pasted.facts["nic.mtu"] == 1440 and pasted.facts["net.iperf3_gbps"] == 7.328
    assert "nic.speed_gbps" not in pasted.facts and "cpu.util_pct" not in pasted.facts
    assert pasted.sources["net.iperf3_gbps"] == "knb"


def test_knb_lines_pasted_without_a_fence_are_output():
    prose, pasted = parse_pasted(KNB_ASK.replace("```\n", ""))
    assert "7328" not in prose and pasted.facts["net.iperf3_gbps"] == 7.328


TOPO = """Topology:
```
        GPU0    GPU1    GPU2    GPU3    NIC0    NIC1    CPU Affinity    NUMA Affinity
GPU0     X      NV18    NV18    NV18    PIX     SYS     0-47    0
GPU1    NV18     X      NV18    NV18    PIX     SYS     0-47    0
```
"""


def test_topology_header_counts_the_gpus_and_nics_of_a_machine_even_with_rows_cut():
    _, pasted = parse_pasted(TOPO)
    assert pasted.facts["job.gpus_per_node"] == 4 and pasted.facts["gpu.count"] == 4
    assert pasted.facts["nic.count"] == 2


def test_topology_header_with_columns_elided_counts_nothing():
    elided = TOPO.replace("GPU2    GPU3    NIC0", "...     NIC0")
    _, pasted = parse_pasted(elided)
    assert "job.gpus_per_node" not in pasted.facts and "nic.count" not in pasted.facts


def test_the_last_of_a_series_of_sizes_is_no_single_run():
    text = ("On AWS the per-GPU speed stays at ~9-10 samples/sec with 1, 2 or 5 machines, as expected. On our "
            "cluster one machine does ~40-50 samples/sec, two machines are almost 5x slower.")
    assert [s[0] for s in run_sizes(text, 0, len(text))] == [1, 2]
    hits = {h.fact: h.value for h in read_scaling(text).hits}
    assert hits.get("job.nodes") != 5 and hits.get("job.speedup") == 0.2
    assert [s[0] for s in run_sizes("我们试了 1/2/4 机", 0, 9)] == []


def test_a_run_after_another_runs_figure_is_still_a_run():
    text = "Throughput: 1 node 3000 tokens/s, 2 nodes 3500, 4 nodes 3600."
    assert [s[0] for s in run_sizes(text, 0, len(text))] == [1, 2, 4]
    text = "1 node 1.2, 2 nodes 2, 4 nodes 2.5 it/s"
    assert [s[0] for s in run_sizes(text, 0, len(text))] == [1, 2, 4]
