from tool_parsers.nccl_log import parse_nccl_log


def test_ib_with_gpudirect_rdma_disabled(fixture_text):
    result = parse_nccl_log(fixture_text("nccl_debug_ib_gdr_disabled.log"))
    assert result.facts() == {"nccl.transport": "ib", "nccl.gdr_disabled": True, "nccl.gdr_partial": False}
    assert result.ib_devices == ["mlx5_0:1", "mlx5_1:1"]
    assert result.ib_link_layer == "ib"
    assert result.gdr_disabled is True
    assert result.gdr_connections == 0 and result.net_connections == 2
    assert result.nccl_version == "2.19.3"


def test_socket_on_loopback_under_torchrun(fixture_text):
    result = parse_nccl_log(fixture_text("nccl_debug_socket_on_lo_torchrun.log"))
    assert result.facts() == {"nccl.transport": "socket", "nccl.socket_ifname": "lo", "nccl.ib_disabled": True}
    assert result.env["NCCL_SOCKET_IFNAME"] == "lo"


def test_net_plugin_is_other_and_gdr_is_seen(fixture_text):
    result = parse_nccl_log(fixture_text("nccl_debug_plugin_fastrak.log"))
    assert result.facts() == {"nccl.transport": "other", "nccl.gdr_disabled": False, "nccl.gdr_partial": False}
    assert result.network_name == "FasTrak"
    assert result.gdr_connections == 2 and not result.gdr_partial


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


def test_socket_ifname_from_environment_only_when_it_names_an_interface():
    log = "x [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to ^docker0,lo\nx [0] NCCL INFO Using network Socket\n"
    assert "nccl.socket_ifname" not in parse_nccl_log(log).facts()
    log = "x [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to =eth1\nx [0] NCCL INFO Using network Socket\n"
    assert parse_nccl_log(log).facts()["nccl.socket_ifname"] == "eth1"


def test_ib_disable_zero_is_false_and_text_without_nccl_is_empty():
    assert parse_nccl_log("h:1:1 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 0.").facts() == {
        "nccl.ib_disabled": False}
    assert parse_nccl_log("epoch 1 loss 2.3\nNET/ nothing").facts() == {}
    assert parse_nccl_log("").facts() == {}
