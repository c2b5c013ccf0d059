"""Read-throughput lines a streamer or loader prints: the storage's read rate, the figure printed most often."""

import pytest

from bwdoctor_parsers.read_throughput import ROUTE, parse_read_throughput

RAY = """\
(RayWorkerWrapper pid=126785) Read throughput is 1.20 GB per second  [repeated 6x across cluster]
(RayWorkerWrapper pid=126761) Read throughput is 422.48 MB per second
"""


def test_the_figure_ray_folds_most_often_is_the_jobs():
    result = parse_read_throughput(RAY)
    assert result.rates == {9.6: 7, 3.37984: 1}
    assert result.facts() == {"storage.read_gbps": 9.6}


def test_the_first_of_figures_printed_as_often():
    result = parse_read_throughput("read speed: 850 MB/s\nread speed: 400 MB/s\n")
    assert result.facts() == {"storage.read_gbps": 6.8}


@pytest.mark.parametrize(("line", "gbps"), [
    ("Read throughput is 1.5 GiB/s", 12.885),
    ("download speed = 200 Mb/s", 0.2),
    ("loading throughput: 2 Gbit/s", 2.0),
    ("read bandwidth of 3 GB/sec", 24.0),
])
def test_units(line: str, gbps: float):
    assert parse_read_throughput(line).facts()["storage.read_gbps"] == pytest.approx(gbps, rel=1e-3)


@pytest.mark.parametrize("text", ["", "step 10 loss 0.3", "iperf3 shows 9.4 Gbits/sec", "write throughput is 2 GB/s",
                                  "read throughput is high"])
def test_nothing_else_is_a_read_rate(text: str):
    assert parse_read_throughput(text).facts() == {}


def test_the_route_names_a_read_rate_only():
    assert ROUTE.search(RAY) and not ROUTE.search("Avg bus bandwidth : 12.3")
