import pytest

from bwdoctor_parsers.iperf3 import parse_iperf3_json


def test_tcp_run_reports_what_the_receiver_got(fixture_text):
    result = parse_iperf3_json(fixture_text("iperf3_tcp_4streams.json"))
    assert result.ok and result.error is None
    assert result.gbps == pytest.approx(23.500282112)  # end.sum_received, not sum_sent (23.52)
    assert result.streams == 4 and result.protocol == "TCP" and not result.reverse
    assert result.retransmits == 24
    assert result.min_rtt_ms == pytest.approx(0.038)
    assert result.facts() == {"net.iperf3_gbps": 23.5}


def test_error_key_wins_whatever_the_exit_code(fixture_text):
    result = parse_iperf3_json(fixture_text("iperf3_error_server_busy.json"))
    assert not result.ok
    assert "busy" in result.error
    assert result.facts() == {}


def test_udp_uses_end_sum(fixture_text):
    result = parse_iperf3_json(fixture_text("iperf3_udp.json"))
    assert result.protocol == "UDP"
    assert result.gbps == pytest.approx(1.048)


def test_json_stream_output(fixture_text):
    result = parse_iperf3_json(fixture_text("iperf3_json_stream.txt"))
    assert result.ok
    assert result.gbps == pytest.approx(9.4269091054)
    assert result.version == "iperf 3.17.1"


@pytest.mark.parametrize(
    "text",
    ["", "   ", "iperf3: error - unable to connect to server", "[]", "{}", '{"end": {"sum_received": {}}}',
     '{"end": {"sum_received": {"bits_per_second": "fast"}}}', '{"start": 5, "end": []}', "{" * 50],
)
def test_garbage_gives_an_error_not_an_exception(text):
    result = parse_iperf3_json(text)
    assert not result.ok
    assert result.facts() == {}
    assert result.error
