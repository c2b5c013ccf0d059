import pytest

from tool_parsers.nccl_log import parse_nccl_log
from tool_parsers.nccl_tests import parse_nccl_tests


def test_new_layout_under_mpirun_with_interleaved_nccl_lines(fixture_text):
    text = fixture_text("nccl_tests_allreduce_socket_mpirun.txt")
    result = parse_nccl_tests(text)
    assert result.layout == "header"
    assert len(result.rows) == 28  # 8 B .. 1 GiB; the NCCL INFO lines inside the table are skipped
    assert result.max_size_bytes == 2**30
    assert result.avg_busbw_gbytes_per_s == pytest.approx(1.87512)
    # The fact is the peak among the largest sizes, not the footer's average over tiny sizes.
    assert result.facts() == {"nccl.allreduce_busbw_gbytes_per_s": 5.89}
    # The same file tells the transport too.
    assert parse_nccl_log(text).facts() == {"nccl.transport": "socket", "nccl.socket_ifname": "ens5",
                                            "nccl.ib_disabled": True}


def test_old_layout_without_root_column(fixture_text):
    result = parse_nccl_tests(fixture_text("nccl_tests_allreduce_old_layout_8xv100.txt"))
    assert result.layout == "header"
    assert len(result.rows) == 30
    assert result.rows[-1].size_bytes == 2**32
    assert result.rows[-1].busbw_out == pytest.approx(130.49)
    assert result.rows[-1].busbw_in == pytest.approx(129.84)
    assert result.facts()["nccl.allreduce_busbw_gbytes_per_s"] == pytest.approx(130.49)


def test_other_collectives_do_not_count_as_allreduce(fixture_text):
    result = parse_nccl_tests(fixture_text("nccl_tests_allgather.txt"))
    assert result.collective == "all_gather"
    assert result.rows and result.peak_busbw_large_gbytes_per_s is not None
    assert result.facts() == {}


def test_table_tail_without_header_uses_the_column_count():
    tail = (
        "   268435456   67108864  float  sum  -1   4980.1  53.90  101.06  0   4975.3  53.95  101.16  0\n"
        "   536870912  134217728  float  sum  -1   9811.4  54.72  102.60  0   9820.0  54.67  102.51  0\n"
        "# Avg bus bandwidth    : 60.1\n"
    )
    result = parse_nccl_tests(tail)
    assert result.layout == "new (assumed)"
    assert result.facts() == {"nccl.allreduce_busbw_gbytes_per_s": 102.6}


def test_peak_is_taken_among_the_largest_sizes_only():
    # A noisy small-size row must not become "the" bandwidth.
    text = (
        "#  size   count   type  redop  root  time  algbw  busbw #wrong  time  algbw  busbw #wrong\n"
        "        1024       256  float  sum  -1    10.00   0.10  99.00  0    10.00   0.10   0.19  0\n"
        "   134217728  33554432  float  sum  -1   3000.0  44.74  83.88  0   3001.0  44.72  83.85  0\n"
        "   268435456  67108864  float  sum  -1   5900.0  45.50  85.31  0   5950.0  45.12  84.59  0\n"
    )
    assert parse_nccl_tests(text).facts() == {"nccl.allreduce_busbw_gbytes_per_s": 85.31}


def test_last_table_wins_when_a_file_holds_several_runs(fixture_text):
    first = fixture_text("nccl_tests_allreduce_old_layout_8xv100.txt")
    second = fixture_text("nccl_tests_allreduce_socket_mpirun.txt")
    assert parse_nccl_tests(first + second).facts() == {"nccl.allreduce_busbw_gbytes_per_s": 5.89}


@pytest.mark.parametrize("text", ["", "hello\nworld", "# size busbw", "   8  2  float  sum  -1  x  y  z  0",
                                  "#       size  count type redop time algbw busbw error\n12 3 float sum a b c d"])
def test_garbage_gives_empty(text):
    result = parse_nccl_tests(text)
    assert result.facts() == {}
