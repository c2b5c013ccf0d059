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


def _counts(text: str) -> dict[str, list[tuple[int, bool]]]:
    from bwdoctor.chat.counts import read_counts

    out: dict[str, list[tuple[int, bool]]] = {}
    for h in read_counts(text):
        out.setdefault(h.fact, []).append((h.value, h.weak))
    return out


def test_a_single_gpu_each_is_one_gpu_per_machine():
    got = _counts("Two nodes, each with a single GPU, 126G RAM")
    assert got["job.gpus_per_node"] == [(1, False)] and got["job.nodes"] == [(2, False)]
    assert "job.gpus_per_node" not in _counts("a single node is fine")


def test_a_single_machine_run_beside_a_whole_multi_machine_shape_is_a_side_run():
    got = _counts("- 1 node, 1 GPU: 172 images/sec\n- 2 nodes with 1 GPU each: 291 images/sec\n"
                  "- 1 node with 2 GPUs: a reasonable ~2x")
    strong = [v for v, weak in got["job.gpus_per_node"] if not weak]
    assert strong == [1]
    # one machine alone is still the job
    assert (8, False) in _counts("单机 8 卡训练很慢")["job.gpus_per_node"]


def test_the_worker_machines_of_a_parameter_server_job_are_its_machines():
    got = _counts("用 4 台 RDMA 机器：2 台做 worker、2 台做 server，16 卡只有 2723 images/s")
    assert (2, False) in got["job.nodes"] and (4, False) not in got["job.nodes"]
    got = _counts("4 nodes: two machines as workers and two as parameter servers")
    assert (4, False) not in got["job.nodes"]
    # workers without servers: nothing changes
    assert (4, False) in _counts("4 nodes, 2 machines as workers for the data loader")["job.nodes"]


def test_data_parallel_workers_are_gpus_but_a_parameter_servers_are_not():
    text = ("The 4-worker case had a throughput of 58.17 img/s, the 16-worker case only 39.22 img/s.")
    hits = {h.fact: h.value for h in read_scaling(text).hits}
    assert hits["job.baseline_gpus"] == 4 and hits["job.negative_scaling"] is True and "job.nodes" not in hits
    ps = text + " We use BytePS with 2 servers."
    assert "job.baseline_gpus" not in {h.fact for h in read_scaling(ps).hits}


def test_nics_counted_with_their_rate_in_bits_per_second():
    from bwdoctor.chat.counts import read_nic_count

    text = "机间 8 条 400 Gb/s NDR InfiniBand"
    assert [(h.fact, h.value) for h in read_nic_count(text, text)] == [("nic.count", 8)]
