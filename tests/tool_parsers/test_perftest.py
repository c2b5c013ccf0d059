"""perftest bandwidth tables (fixtures: real outputs pasted in the linux-rdma/perftest threads they cite)."""

import pytest

from bwdoctor_parsers.perftest import parse_perftest


def test_report_gbits_with_tiny_messages_gives_no_bandwidth(recorded):
    result = parse_perftest(recorded("perftest_ib_write_bw_gbits_8b_perftest273.txt"))
    assert result.test == "RDMA_Write" and result.unit == "Gb" and result.device == "ib0"
    assert result.rows[0].average == 0.48
    # 8-byte messages measure the message rate: no net.rdma_bw_gbps, a note instead; the banner still tells RoCE
    # and its GID index.
    assert result.facts() == {"nic.kind": "roce", "nic.rdma": True, "nic.gid_index": 2}
    assert "message rate" in result.notes()[0]


def test_megabytes_are_converted_and_the_last_table_wins(recorded):
    result = parse_perftest(recorded("perftest_ib_send_bw_mb_two_runs_perftest65.txt"))
    assert result.unit == "MB" and [r.average for r in result.rows] == [920.13]
    assert result.average_gbps is None  # 1 KB messages again


def test_a_cut_row_is_partial(recorded):
    result = parse_perftest(recorded("perftest_ib_write_bw_mb_cut_perftest234.txt"))
    assert result.device == "mlx5_0" and result.link_type == "Ethernet"
    assert result.partial and result.rows == [] and "net.rdma_bw_gbps" not in result.facts()


def test_large_messages_give_the_bandwidth_in_gbps():
    # The header and banner as perftest prints them (perftest#273); a 64 KB row as in perftest#225 (11728.47 MB/s).
    text = (" Link type       : IB\n"
            " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n"
            " 65536      5000             11730.12            11728.47\t\t   0.187655\n")
    result = parse_perftest(text)
    assert result.facts() == {"net.rdma_bw_gbps": pytest.approx(98.386, abs=0.001), "nic.kind": "infiniband",
                              "nic.rdma": True}


@pytest.mark.parametrize("text", ["", "#bytes", "nothing",
                                  "#bytes #iterations BW peak[MB/sec] BW average[MB/sec]\n1 2 x"])
def test_garbage(text):
    assert parse_perftest(text).facts() == {}
