"""NCCL_DEBUG=INFO lines of old and new NCCL versions.

The ``*_nccl<N>.log`` / ``*_awsofinccl<N>.log`` fixtures are excerpts of real logs pasted in the public
thread their ``# SOURCE:`` line names; ``nccl_debug_2_28_*`` were recorded for this project.
"""

from bwdoctor_parsers.nccl_log import parse_nccl_log


def test_ib_with_gpudirect_rdma_disabled(fixture_text):
    result = parse_nccl_log(fixture_text("nccl_debug_ib_gdr_disabled.log"))
    assert result.facts() == {"nccl.transport": "ib", "nccl.gdr_disabled": True, "nccl.gdr_partial": False}
    assert result.extra_facts() == {"nccl.ib_hca": "mlx5_0,mlx5_1", "nccl.version": "2.19.3"}
    assert result.ib_devices == ["mlx5_0:1", "mlx5_1:1"]
    assert result.ib_link_layer == "ib"
    assert result.gdr_disabled is True
    assert result.gdr_connections == 0 and result.net_connections == 2
    assert result.nccl_version == "2.19.3"


def test_socket_on_loopback_under_torchrun(fixture_text):
    result = parse_nccl_log(fixture_text("nccl_debug_socket_on_lo_torchrun.log"))
    assert result.facts() == {"nccl.transport": "socket", "nccl.socket_ifname": "lo", "nccl.ib_disabled": True}
    assert result.extra_facts()["nccl.net_plugin_missing"] is True
    assert result.env["NCCL_SOCKET_IFNAME"] == "lo"
    assert any("loopback" in n for n in result.notes())


def test_net_plugin_is_other_and_gdr_is_seen(fixture_text):
    result = parse_nccl_log(fixture_text("nccl_debug_plugin_fastrak.log"))
    assert result.facts() == {"nccl.transport": "other", "nccl.gdr_disabled": False, "nccl.gdr_partial": False}
    assert result.extra_facts() == {"nccl.net_plugin_missing": False}
    assert result.network_name == "FasTrak"
    assert result.gdr_connections == 2 and not result.gdr_partial


def test_nccl_2_28_names_its_plugins_differently(recorded):
    # "Bootstrap: Using", "NET/Plugin: Could not find: libnccl-net.so", "NET/IB : Using [RO]; OOB" without a
    # device, "Failed to initialize NET plugin IB", "Initialized/Assigned NET plugin Socket".
    result = parse_nccl_log(recorded("nccl_debug_2_28_socket_1gpu_torchrun.log"))
    # ('NET/IB : No device found': no RDMA device where NCCL runs)
    assert result.all_facts() == {"nccl.transport": "socket", "nccl.socket_ifname": "eth0", "nccl.version": "2.28.9",
                                  "nccl.net_plugin_missing": True, "nic.rdma": False}
    assert result.bootstrap_ifnames == ["eth0"] and result.ib_devices == [] and result.ib_unavailable


def test_nccl_2_28_failed_init_still_tells_the_network(recorded):
    result = parse_nccl_log(recorded("nccl_debug_2_28_socket_lo_2rank_failed_init.log"))
    assert result.all_facts() == {"nccl.transport": "socket", "nccl.socket_ifname": "lo", "nccl.ib_disabled": True,
                                  "nccl.version": "2.28.9", "nccl.net_plugin_missing": True}
    assert result.warnings[0].startswith("Duplicate GPU detected")
    assert any(n.startswith("NCCL WARN: Duplicate GPU") for n in result.notes())


def test_aws_ofi_nccl_loaded_with_efa(recorded):
    result = parse_nccl_log(recorded("nccl_debug_efa_ofi_plugin_nccl527.log"))
    # "Failed to find ncclCollNetPlugin" is about CollNet: the net plugin itself is loaded.
    assert result.all_facts() == {"nccl.transport": "other", "nccl.net_plugin_missing": False, "nic.efa": True}
    assert result.network_name == "AWS Libfabric" and result.ofi_provider == "efa"


def test_aws_ofi_nccl_on_the_tcp_provider_is_no_efa(recorded):
    result = parse_nccl_log(recorded("nccl_debug_ofi_tcp_provider_lo_awsofinccl803.log"))
    assert result.ofi_provider == "tcp" and result.plugin_loaded
    assert "nic.efa" not in result.all_facts() and result.all_facts()["nccl.version"] == "2.23.4"
    assert any("'tcp', not efa" in n for n in result.notes())
    assert result.bootstrap_ifnames == ["lo"]
    assert "nccl.socket_ifname" not in result.all_facts()  # "^docker0" excludes, names nothing


def test_old_nccl_no_plugin_no_ib_device_falls_back_to_socket(recorded):
    result = parse_nccl_log(recorded("nccl_debug_no_plugin_no_ib_lo_nccl352.log"))
    assert result.all_facts() == {"nccl.transport": "socket", "nccl.socket_ifname": "lo", "nccl.version": "2.4.8",
                                  "nccl.net_plugin_missing": True, "nic.rdma": False}
    assert result.ib_unavailable


def test_channels_via_aws_libfabric_and_p2p_under_mpirun(recorded):
    result = parse_nccl_log(recorded("nccl_debug_libfabric_channels_mpirun_awsofinccl24.log"))
    assert result.transport == "other" and result.network_name == "AWS Libfabric"
    assert result.net_connections == 3 and result.p2p_connections == 6
    assert result.warnings == ["NET/OFI Couldn't open AV. RC: -22, ERROR: Invalid argument"]


def test_gdr_disabled_for_every_hca_of_a_roce_node(recorded):
    result = parse_nccl_log(recorded("nccl_debug_roce_gdr_disabled_two_hcas_nccl1537.log"))
    assert result.facts() == {"nccl.transport": "ib", "nccl.gdr_disabled": True, "nccl.gdr_partial": False}
    assert result.gdr_disabled_hcas == ["mlx5_0", "mlx5_1"] and result.ib_link_layer == "roce"


def test_gdr_disabled_no_module_with_plain_ib_channels(recorded):
    result = parse_nccl_log(recorded("nccl_debug_gdr_no_module_channels_nccl899.log"))
    assert result.facts() == {"nccl.transport": "ib", "nccl.gdr_disabled": True, "nccl.gdr_partial": False}
    assert result.net_connections == 11 and result.gdr_connections == 0


def test_gdr_enabled_on_one_hca_and_disabled_on_another_is_partial():
    log = ("a:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'\n"
           "b:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'\n"
           "b:1:2 [0] NCCL INFO Using network IB\n")
    result = parse_nccl_log(log)
    assert result.gdr_partial and result.facts()["nccl.gdr_partial"] is True
    assert "nccl.gdr_disabled" not in result.facts()


def test_log_cut_before_the_network_is_chosen_claims_no_transport(recorded):
    result = parse_nccl_log(recorded("nccl_debug_2_27_plugin_not_found_cut_nccl1866.log"))
    assert result.all_facts() == {"nccl.version": "2.27.6"}  # no transport, no plugin verdict without one
    assert result.plugin_missing and result.bootstrap_ifnames == ["enp9s0np0"]
    assert any("libnccl-net.so" in n for n in result.notes())


def test_two_socket_interfaces_on_old_ring_lines(recorded):
    result = parse_nccl_log(recorded("nccl_debug_two_socket_ifaces_ring_nccl278.log"))
    assert result.facts() == {"nccl.transport": "socket", "nccl.socket_ifname": "enP1p1s0f0"}
    assert result.socket_ifnames == ["enP1p1s0f0", "enP1p1s0f1"] and result.net_connections == 4


def test_topology_search_lines_show_nvlink_and_the_gpu_nic_path(recorded):
    result = parse_nccl_log(recorded("nccl_debug_topology_patterns_nccl601.log"))
    assert result.all_facts() == {"gpu.nvlink": True}
    assert result.gpu_nic_paths == ["PIX", "SYS"]
    assert any("SYS" in n for n in result.notes())


def test_old_nccl_without_using_network_line_reads_the_ring_connections():
    log = (
        " [0] NCCL INFO NET/IB : Using [0]mlx5_2:1/RoCE ; OOB eth0:10.1.1.1<0>\n"
        " [0] NCCL INFO Ring 00 : 7[41000] -> 0[1b000] [receive] via NET/IB/0/GDRDMA\n"
        " [0] NCCL INFO Ring 00 : 0[1b000] -> 7[41000] [send] via NET/IB/0\n"
    )
    result = parse_nccl_log(log)
    assert result.transport == "ib"
    assert result.ib_link_layer == "roce"
    assert result.gdr_partial
    assert result.facts()["nccl.gdr_partial"] is True and "nccl.gdr_disabled" not in result.facts()


def test_settings_nccl_echoes_become_facts():
    log = ("h:1:1 [0] NCCL INFO NCCL_IB_HCA set to mlx5_0,mlx5_3\n"
           "h:1:1 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1.\n"
           "h:1:1 [0] NCCL INFO NCCL_IB_GID_INDEX set by environment to 3.\n"
           "h:1:1 [0] NCCL INFO Channel 00 : 0[0] -> 1[1] via SHM/direct/direct\n")
    result = parse_nccl_log(log)
    assert result.all_facts() == {"nccl.ib_hca": "mlx5_0,mlx5_3", "nccl.p2p_disabled": True, "nic.gid_index": 3}
    assert result.shm_connections == 1 and any("SHM" in n for n in result.notes())


def test_socket_ifname_from_environment_only_when_it_names_an_interface():
    log = "x [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to ^docker0,lo\nx [0] NCCL INFO Using network Socket\n"
    assert "nccl.socket_ifname" not in parse_nccl_log(log).facts()
    log = "x [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to =eth1\nx [0] NCCL INFO Using network Socket\n"
    assert parse_nccl_log(log).facts()["nccl.socket_ifname"] == "eth1"


def test_ib_disable_zero_is_false_and_text_without_nccl_is_empty():
    assert parse_nccl_log("h:1:1 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 0.").facts() == {
        "nccl.ib_disabled": False}
    assert parse_nccl_log("epoch 1 loss 2.3\nNET/ nothing").all_facts() == {}
    assert parse_nccl_log("").all_facts() == {}


def test_no_ib_device_and_no_plugin_means_sockets() -> None:
    result = parse_nccl_log("node013:37715:38896 [0] NCCL INFO NET/IB : No device found.\n"
                            "node013:37715:38896 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 0.\n")
    assert result.facts()["nccl.transport"] == "socket"


def test_the_rdma_nics_nccl_opens_are_counted_from_the_highest_index() -> None:
    log = ("NCCL INFO NET/IB : Using [0]mlx5_0:1/IB/SHARP [1]mlx5_1:1/IB/SHARP ... [7]mlx5_7:1/IB/SHARP ; "
           "OOB eth0:10.0.1.2<0>\nNCCL INFO Using network IBext\n")
    assert parse_nccl_log(log).all_facts()["nic.count"] == 8
    pinned = log + "NCCL INFO NCCL_IB_HCA set by environment to mlx5_0\n"
    assert "nic.count" not in parse_nccl_log(pinned).all_facts()


def test_nccl_2_3_lists_its_socket_interfaces_one_a_line() -> None:
    # NCCL 2.3 and older: 'NET : Using interface …' a line, then the socket transport's count of them
    result = parse_nccl_log("NCCL INFO NET : Using interface lo:127.0.0.1<0>\n"
                            "NCCL INFO NET : Using interface eth1:9.73.128.149<0>\n"
                            "NCCL INFO NET/Socket : 2 interfaces found\n"
                            "NCCL version 2.3.7+cuda9.0\n")
    facts = result.all_facts()
    assert facts["nccl.transport"] == "socket" and facts["nccl.socket_ifname"] == "lo"


def test_no_device_found_with_ib_in_use_says_nothing_of_rdma() -> None:
    # one rank saw no device, the run still used IB: no verdict on the hardware
    result = parse_nccl_log("NCCL INFO NET/IB : No device found.\nNCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0\n"
                            "NCCL INFO Using network IB\n")
    assert "nic.rdma" not in result.all_facts()
