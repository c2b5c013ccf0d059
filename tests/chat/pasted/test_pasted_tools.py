"""Every kind of pasted tool output reaches its parser, gives its facts with their source, and says when it is cut.

The outputs are the recorded real captures in tests/fixtures/tool_output (each names its public thread or
says it was recorded for this project), pasted into a question the way people do.
"""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bwdoctor.chat.pasted import parse_pasted
from bwdoctor.chat.understanding import understand

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "tool_output"


def recorded(name: str) -> str:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    return text.split("\n", 1)[1] if text.startswith("# SOURCE:") else text


def ask(name: str, before: str = "两台机器训练很慢，这是输出：\n", after: str = "\n怎么回事？") -> tuple[str, object]:
    return parse_pasted(before + recorded(name) + after)


@pytest.mark.parametrize(("name", "kind", "facts"), [
    ("ibstatus_roce_100g_nccl1866.txt", "ibstat",
     {"nic.kind": "roce", "nic.speed_gbps": 100.0, "nic.count": 2, "nic.rdma": True}),
    ("ibstat_roce_200g_mgmt_down_mooncake1999.txt", "ibstat", {"nic.speed_gbps": 200.0, "nic.count": 2}),
    ("ibv_devinfo_roce_deepep38.txt", "ibstat", {"nic.kind": "roce"}),
    ("perftest_ib_write_bw_gbits_8b_perftest273.txt", "perftest", {"nic.kind": "roce"}),
    ("lspci_acsctl_grep_nccl523.txt", "lspci", {"pcie.acs_enabled": True}),
    ("lspci_acsctl_all_off_nccl1405.txt", "lspci", {"pcie.acs_enabled": False}),
    ("ip_addr_vm_debian12.txt", "ip", {"nic.name": "eth0", "nic.mtu": 1400}),
    ("ethtool_connectx4_100g_mlx5.txt", "ethtool", {"nic.max_speed_gbps": 100.0, "nic.speed_gbps": 100.0}),
    ("nvidia_smi_topo_nv18_nic_far_nccl1737.txt", "nvidia-smi", {"gpu.nvlink": True}),
    ("nvidia_smi_q_h200.txt", "nvidia-smi", {"gpu.pcie_gen": 5, "gpu.pcie_width": 16, "gpu.pcie_width_max": 16}),
    ("nccl_debug_2_28_socket_1gpu_torchrun.log", "nccl-log",
     {"nccl.transport": "socket", "nccl.version": "2.28.9", "nccl.net_plugin_missing": True}),
    ("nccl_debug_efa_ofi_plugin_nccl527.log", "nccl-log",
     {"nccl.transport": "other", "nccl.net_plugin_missing": False, "nic.efa": True}),
    ("nccl_debug_libfabric_channels_mpirun_awsofinccl24.log", "nccl-log", {"nccl.transport": "other"}),
    ("nccl_env_exports_nccl1510.txt", "nccl-env", {"nccl.ib_hca": "mlx5", "nic.gid_index": 4}),
    ("nccl_env_plain_nccl1537.txt", "nccl-env", {"nccl.ib_hca": "mlx5", "nic.gid_index": 3}),
    ("nccl_tests_tail_cut_mid_row_mooncake3484.txt", "nccl-tests",
     {"nccl.allreduce_busbw_gbytes_per_s": 300.52, "nccl.allreduce_algbw_gbytes_per_s": 171.73}),
    ("lightning_2_6_rich_progress_pty_raw_h200.txt", "training-log", {}),
])
def test_each_kind_of_output_gives_its_facts_and_their_source(name, kind, facts):
    _, pasted = ask(name)
    assert kind in pasted.kinds
    for key, value in facts.items():
        assert pasted.facts[key] == value, key
        assert pasted.sources[key] == kind
    assert pasted.to_dict()["sources"] == pasted.sources


def test_nccl_settings_on_a_command_line_are_read_but_the_command_stays_prose():
    prose, pasted = ask("nccl_env_mpirun_x_awsofinccl67.txt", before="EFA is slow, we run:\n", after="\n")
    assert pasted.facts == {"nccl.socket_ifname": "eth"} and pasted.sources == {"nccl.socket_ifname": "nccl-env"}
    assert "-x NCCL_SOCKET_IFNAME=eth" in prose and "all_reduce_perf" in prose
    assert parse_pasted("should I set\nNCCL_IB_DISABLE=1 ?")[1].facts == {}  # a question is no setting


@pytest.mark.parametrize("name", [
    "nccl_tests_tail_cut_mid_row_mooncake3484.txt", "nccl_tests_1x_header_only_stalled_nccl85.txt",
    "ibstatus_roce_100g_nccl1866.txt", "perftest_ib_write_bw_mb_cut_perftest234.txt",
])
def test_cut_pastes_are_said_to_be_partial(name):
    _, pasted = ask(name)
    assert pasted.partial and pasted.to_dict()["partial"] is True
    assert any("cut off" in note for note in pasted.notes_in("en"))


def test_complete_pastes_are_not_partial():
    for name in ("nccl_tests_allreduce_socket_mpirun.txt", "ibstat_infiniband_hdr.txt",
                 "lspci_acsctl_grep_nccl523.txt"):
        assert not ask(name)[1].partial, name


def test_broken_json_and_an_unclosed_fence_are_partial():
    doc = (FIXTURES / "iperf3_tcp_4streams.json").read_text(encoding="utf-8")
    _, pasted = parse_pasted("iperf3 -J says:\n" + doc[: len(doc) // 2] + "\n")
    assert pasted.partial and "net.iperf3_gbps" not in pasted.facts
    _, fenced = parse_pasted("log:\n```\n" + recorded("nccl_debug_gdr_no_module_channels_nccl899.log"))
    assert fenced.partial and fenced.facts["nccl.gdr_disabled"] is True


def test_two_nics_in_one_subnet_is_a_note():
    _, pasted = ask("ip_addr_two_nics_one_subnet_nccl1580.txt")
    assert any("one subnet" in note and "eno1" in note for note in pasted.notes_in("en"))


def test_words_of_a_framework_banner_are_not_the_users():
    u = understand("训练很慢：\n" + recorded("lightning_2_6_rich_progress_notty_h200.txt"))
    assert "job.precision" not in u.facts  # "set_float32_matmul_precision" in Lightning's tip
    assert 0.02 < u.facts["job.step_time_s"] < 0.03


def test_measured_rdma_bandwidth_is_not_iperf3():
    text = ("ib_write_bw between the nodes:\n"
            " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n"
            " 65536      5000             11730.12            11728.47\t\t   0.187655\n"
            "---------------------------------------------------------------------------------------\n")
    u = understand(text)
    assert u.facts["net.rdma_bw_gbps"] == pytest.approx(98.386, abs=0.001) and "net.iperf3_gbps" not in u.facts


TOKENS = st.sampled_from([
    "NCCL INFO ", "via NET/IB/0/GDRDMA", "#bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]",
    "65536 5000 1.0",
    "CA 'mlx5_0'", "Port 1:", "State: Active", "Rate: 200", "Link layer: Ethernet", "hca_id: mlx5_0", "port: 1",
    "Infiniband device 'mlx5_0' port 1 status:", "rate: 100 Gb/sec", "ACSCtl: SrcValid+", "LnkSta: Speed 2.5GT/s",
    "2: eth0: <UP> mtu 9000", "    inet 10.0.0.1/24", "default via 10.0.0.1 dev eth0", "NCCL_IB_HCA=mlx5", "export ",
    "-x ", "GPU0", "NIC0", "PIX", "SYS", "NV12", "GPU Link Info", "Max : 4", "Settings for eth0:", "Speed: 25000Mb/s",
    "{", "}", "```", "\"end\":", "busbw", "1024 256 float sum -1 1 2 3 0", "━", "1/2 0:00:01 • 3.2it/s", "\n", "\r",
    " ", "\t", "？", "两台", "8卡", "100G",
])


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(), st.lists(TOKENS, max_size=80).map("".join)))
def test_any_paste_is_read_without_an_exception(text):
    prose, pasted = parse_pasted(text)
    assert len(prose) == len(text)
    json.dumps(pasted.to_dict())
