"""iperf3 text output, client and server side, with -P parallel streams (recorded on this project's VM)."""

from bwdoctor_parsers.iperf3_text import parse_iperf3_text


def test_server_side_sum_receiver_line(recorded):
    result = parse_iperf3_text(recorded("iperf3_server_P2_loopback_vm.txt"))
    assert result.facts() == {"net.iperf3_gbps": 9.04} and result.role == "receiver" and result.streams == 2


def test_client_side_parallel_streams_and_retransmits(recorded):
    result = parse_iperf3_text(recorded("iperf3_client_P2_loopback_vm.txt"))
    assert result.facts() == {"net.iperf3_gbps": 9.04} and result.retransmits == 4


def test_mbits_and_intervals_only():
    assert parse_iperf3_text("[  5]   0.00-10.00  sec  1.10 GBytes   943 Mbits/sec  0  sender\n").facts() == {
        "net.iperf3_gbps": 0.943}
    intervals = parse_iperf3_text("[  5]   0.00-1.00   sec   112 MBytes   941 Mbits/sec    0    376 KBytes\n"
                                  "[  5]   1.00-2.00   sec   111 MBytes   933 Mbits/sec    0    376 KBytes\n")
    assert intervals.role == "intervals" and intervals.facts() == {"net.iperf3_gbps": 0.937}
