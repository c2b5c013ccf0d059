"""The parsers against verbatim field captures in ../shared/fixtures (skipped where that folder is absent).

The expected values are the ones /work/shared/fixtures/README.md states for each file.
"""

import pytest

from bwdoctor_parsers import procfs
from bwdoctor_parsers.ibstat import parse_ibstat
from bwdoctor_parsers.iperf3 import parse_iperf3_json
from bwdoctor_parsers.nccl_log import parse_nccl_log
from bwdoctor_parsers.nccl_tests import parse_nccl_tests
from bwdoctor_parsers.sysfs_net import parse_speed_mbps, parse_sysfs_snapshot
from bwdoctor_parsers.training_log import parse_training_log
from tests.prereqs import SHARED as SHARED_FOLDER
from tests.prereqs import needs, shared_dir

SHARED = shared_dir() / "fixtures"
pytestmark = needs(SHARED_FOLDER, why="verbatim tool captures in its fixtures/")


def read(name: str) -> str:
    return (SHARED / name).read_text(encoding="utf-8")


def test_iperf3_loopback():
    result = parse_iperf3_json(read("iperf3_client_tcp_loopback.json"))
    assert result.gbps == pytest.approx(21.08, abs=0.01)
    assert result.facts() == {"net.iperf3_gbps": pytest.approx(21.084, abs=0.001)}


def test_iperf3_reverse_two_streams():
    result = parse_iperf3_json(read("iperf3_client_tcp_loopback_P2_reverse.json"))
    assert result.reverse and result.streams == 2
    assert result.gbps == pytest.approx(19.32, abs=0.01)


@pytest.mark.parametrize(("name", "needle"), [("iperf3_error_connection_refused.json", "Connection refused"),
                                              ("iperf3_error_unresolvable_host.json", "Name or service not known")])
def test_iperf3_errors(name, needle):
    result = parse_iperf3_json(read(name))
    assert not result.ok and needle in result.error and result.facts() == {}


@pytest.mark.parametrize(("name", "peak"), [
    ("nccl_tests_allreduce_fast_2node_16xH100_a3mega_tcpxo.txt", 338.82),
    ("nccl_tests_allreduce_slow_2node_socket_tcp_eks.txt", 2.03),
    ("nccl_tests_allreduce_2node_efa_1gpu_eks.txt", 2.84),
    ("nccl_tests_allreduce_ib_tail_only_nccltests119.txt", 96.69),
])
def test_nccl_tests_peak_busbw_at_largest_sizes(name, peak):
    assert parse_nccl_tests(read(name)).facts() == {"nccl.allreduce_busbw_gbytes_per_s": peak}


def test_nccl_tests_footer_average_is_kept_apart():
    result = parse_nccl_tests(read("nccl_tests_allreduce_fast_2node_16xH100_a3mega_tcpxo.txt"))
    assert result.avg_busbw_gbytes_per_s == pytest.approx(70.742)


def test_nccl_tests_socket_run_says_socket():
    assert parse_nccl_log(read("nccl_tests_allreduce_slow_2node_socket_tcp_eks.txt")).transport == "socket"
    assert parse_nccl_log(read("nccl_tests_allreduce_2node_efa_1gpu_eks.txt")).transport == "other"


def test_nccl_socket_fallback():
    result = parse_nccl_log(read("nccl_debug_socket_fallback_no_ibverbs_nccl766.log"))
    assert result.facts() == {"nccl.transport": "socket", "nccl.socket_ifname": "enp36s0f1"}


def test_nccl_roce_ring():
    result = parse_nccl_log(read("nccl_debug_roce_ring_no_gdr_nccl392.log"))
    # RoCE ring without "/GDRDMA" on any connection: GPUDirect RDMA is off.
    assert result.facts() == {
        "nccl.transport": "ib",
        "nccl.ib_disabled": False,
        "nccl.gdr_disabled": True,
        "nccl.gdr_partial": False,
    }
    assert result.ib_link_layer == "roce"
    assert result.ib_devices == ["mlx5_0:1"]


def test_nccl_gdrdma_on_one_node_only():
    result = parse_nccl_log(read("nccl_debug_gdrdma_asymmetric_nccl897.log"))
    assert result.transport == "ib"
    assert result.gdr_partial


def test_ibstat_roce():
    result = parse_ibstat(read("ibstat_roce_link_layer_ethernet_geerlingguy92.txt"))
    active = result.active_ports
    assert [p.device for p in active] == ["roceP2p1s0f0", "rocep1s0f0"]
    assert all(p.kind == "roce" and p.rate_gbps == 200 for p in active)
    assert result.facts() == {"nic.rdma": True, "nic.kind": "roce", "nic.speed_gbps": 200.0, "nic.count": 2}


def test_megatron_step_time():
    result = parse_training_log(read("megatron_lm_iteration_log_mixtral_nvidia_megatron756.log"))
    assert result.source == "megatron"
    assert result.step_times_s[0] == pytest.approx(5.36, abs=0.005)  # "elapsed time per iteration (ms): 5361.6"
    assert result.step_times_s == pytest.approx([5.3616, 5.4707, 5.8299])
    assert result.facts()["job.step_time_s"] == pytest.approx(5.4707)  # median of the three iterations


def test_megatron_deepspeed_elapsed_time():
    assert parse_training_log(read("deepspeed_megatron_deepspeed_timers_ds3742.log")).facts() == {
        "job.step_time_s": pytest.approx(4.1031)}


def test_deepspeed_throughput_timer_timestamps():
    result = parse_training_log(read("deepspeed_throughput_timer_ds2629.log"))
    assert result.source == "timestamps"
    assert result.facts()["job.step_time_s"] == pytest.approx(0.209, abs=0.001)


def test_torchtitan_has_no_printed_step_time_but_timestamps_give_one():
    result = parse_training_log(read("torchtitan_step_log_pr2389_pr3393.log"))
    assert result.source == "timestamps"
    assert result.extra["tokens_per_s"] == 7304 and result.extra["mfu_pct"] == pytest.approx(0.17)


@pytest.mark.parametrize("name", ["hf_trainer_v5_stderr_tqdm_raw.txt", "lightning_2_6_tqdm_progress_stdout_raw.txt"])
def test_tqdm_rates(name):
    result = parse_training_log(read(name))
    assert result.source == "tqdm"
    assert 0 < result.facts()["job.step_time_s"] < 0.01
    assert "job.step_time_cv" not in result.facts()


def test_hf_v5_summary():
    result = parse_training_log(read("hf_trainer_v5_stdout_metrics.log"))
    assert result.facts()["job.step_time_s"] == pytest.approx(1 / 915.1, rel=1e-4)


@pytest.mark.parametrize("name", ["hf_trainer_log_dicts_transformers9415.log", "lightning_2_6_csvlogger_metrics.csv"])
def test_logs_without_timing_give_nothing(name):
    assert parse_training_log(read(name)).facts() == {}


def test_proc_stat():
    first, second = procfs.split_samples(read("linux_proc_stat_two_samples.txt"))
    usage = procfs.cpu_usage(procfs.parse_proc_stat(first), procfs.parse_proc_stat(second))
    assert usage == {"cpu.util_pct": pytest.approx(50.75, abs=0.01), "cpu.iowait_pct": 0.0}


def test_proc_net_dev():
    first, second = procfs.split_samples(read("linux_proc_net_dev_two_samples.txt"))
    before, after = procfs.parse_net_dev(first), procfs.parse_net_dev(second)
    assert after["lo"].rx_bytes - before["lo"].rx_bytes == 3_069_211_691  # ~3 GB over loopback
    assert procfs.net_rates(before["eth0"], after["eth0"], 1.5) == {"nic.rx_gbps": 0.0, "nic.tx_gbps": 0.0}


def test_sysfs_speed_on_a_vm():
    snapshot = parse_sysfs_snapshot(read("linux_sysfs_net_speed_snapshot_vm.txt"))
    assert snapshot["eth0"]["speed"] == "-1" and parse_speed_mbps(snapshot["eth0"]["speed"]) is None
    assert snapshot["lo"]["speed"] is None  # "Invalid argument"


@pytest.mark.parametrize(("name", "algbw"), [
    ("nccl_tests_allreduce_fast_2node_16xH100_a3mega_tcpxo.txt", 180.71),
    ("nccl_tests_allreduce_slow_2node_socket_tcp_eks.txt", 2.03),
])
def test_nccl_tests_algbw_at_largest_sizes(name, algbw):
    assert parse_nccl_tests(read(name)).all_facts()["nccl.allreduce_algbw_gbytes_per_s"] == algbw


def test_nccl_logs_name_version_and_plugin():
    socket = parse_nccl_log(read("nccl_debug_socket_fallback_no_ibverbs_nccl766.log"))
    assert socket.all_facts()["nccl.version"] == "2.10.3" and socket.all_facts()["nccl.net_plugin_missing"] is True
    efa = parse_nccl_log(read("nccl_tests_allreduce_2node_efa_1gpu_eks.txt"))
    assert efa.all_facts()["nccl.net_plugin_missing"] is False and efa.all_facts()["nic.efa"] is True
