"""aws-ofi-nccl's own lines say how many EFA NICs a node has; a user reading the log counts them from there."""

from bwdoctor_parsers.nccl_log import parse_nccl_log


def test_ofi_found_nics_is_the_nic_count() -> None:
    log = (
        "ip-10-1-2-3:4410:4420 [0] NCCL INFO NET/OFI Using aws-ofi-nccl 1.13.2\n"
        "ip-10-1-2-3:4410:4420 [0] NCCL INFO NET/OFI Selected Provider is efa (found 32 nics)\n"
        "ip-10-1-2-3:4410:4420 [0] NCCL INFO Using network Libfabric\n"
    )
    result = parse_nccl_log(log)
    facts = result.all_facts()
    assert facts["nic.count"] == 32
    assert facts["nic.efa"] is True
    assert facts["nccl.transport"] == "other"  # a plugin network, not TCP sockets
    assert facts["nccl.net_plugin_missing"] is False


def test_newer_ofi_wording_with_fabric_gives_the_count_too() -> None:
    log = "node-a:77:90 [3] NCCL INFO NET/OFI Selected provider is efa, fabric is efa-direct (found 16 nics)\n"
    facts = parse_nccl_log(log).all_facts()
    assert facts["nic.count"] == 16 and facts["nic.efa"] is True


def test_ofi_single_nic_or_no_count_says_no_count() -> None:
    assert "nic.count" not in parse_nccl_log("h:1:2 [0] NCCL INFO NET/OFI Selected Provider is efa (found 1 nics)\n"
                                             ).all_facts()
    assert "nic.count" not in parse_nccl_log("h:1:2 [0] NCCL INFO NET/OFI Selected Provider is efa\n").all_facts()


def test_a_chosen_hca_list_wins_over_the_nics_found() -> None:
    log = ("h:1:2 [0] NCCL INFO NCCL_IB_HCA set by environment to rdmap16s27\n"
           "h:1:2 [0] NCCL INFO NET/OFI Selected Provider is efa (found 4 nics)\n")
    assert "nic.count" not in parse_nccl_log(log).all_facts()
