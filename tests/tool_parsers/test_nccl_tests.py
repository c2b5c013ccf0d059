import pytest

from bwdoctor_parsers.nccl_log import parse_nccl_log
from bwdoctor_parsers.nccl_tests import parse_nccl_tests


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


# alltoall_perf as nccl-tests ≥ 2.13 prints it ("Collective test starting", redop "none", root -1).
ALLTOALL = """\
# Collective test starting: alltoall_perf
# nThread 1 nGpus 1 minBytes 1073741824 maxBytes 4294967296 step: 2(factor) warmup iters: 10 iters: 100
#
#                                                              out-of-place                       in-place
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
  1073741824      16777216     float    none      -1    52210   20.57   19.28      0    52107   20.61   19.32    N/A
  4294967296      67108864     float    none      -1   207380   20.71   19.42      0   207102   20.74   19.44    N/A
# Avg bus bandwidth    : 19.365
"""


def test_a_named_alltoall_table_gives_no_allreduce_busbw():
    result = parse_nccl_tests(ALLTOALL)
    assert result.collective == "alltoall" and result.peak_busbw_large_gbytes_per_s == pytest.approx(19.44)
    assert result.all_facts() == {}


@pytest.mark.parametrize("name", ["alltoall_perf", "all_gather_perf", "broadcast_perf"])
def test_the_perf_binary_on_the_command_line_names_the_collective(name):
    text = (f"mpirun -np 16 -H n1:8,n2:8 ./build/{name} -b 8M -e 4G -f 2 -g 1\n"
            + "\n".join(ALLTOALL.splitlines()[2:]))
    assert parse_nccl_tests(text).facts() == {}


def test_an_unnamed_table_whose_rows_reduce_nothing_is_not_an_allreduce():
    # The rows alone, pasted without the banner: redop "none" is alltoall, all_gather, broadcast or sendrecv.
    rows = ("    16777216       4194304  bfloat16    none      -1    108.8  154.20   77.10      0\n"
            "   100663296      25165824  bfloat16    none      -1    400.9  251.11  125.56      0\n")
    result = parse_nccl_tests(rows)
    assert result.collective is None and result.reduces is False and result.facts() == {}
    summed = rows.replace("none", " sum")
    assert parse_nccl_tests(summed).facts() == {"nccl.allreduce_busbw_gbytes_per_s": 125.56}


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


def test_algbw_at_the_largest_sizes_and_the_footer_note(fixture_text):
    result = parse_nccl_tests(fixture_text("nccl_tests_allreduce_socket_mpirun.txt"))
    assert result.all_facts() == {"nccl.allreduce_busbw_gbytes_per_s": 5.89, "nccl.allreduce_algbw_gbytes_per_s": 3.14,
                                  # the banner: two hosts, one rank each
                                  "gpu.model": "A100", "job.nodes": 2, "job.gpus_per_node": 1}
    (note,) = result.notes()
    assert "means little" in note and "8 B" in note and "5.89" in note
    assert not result.partial


def test_nccl_tests_1x_header_names_and_a_header_without_rows_is_partial(recorded):
    result = parse_nccl_tests(recorded("nccl_tests_1x_header_only_stalled_nccl85.txt"))
    assert result.layout == "header" and result.rows == [] and result.all_facts() == {}
    assert result.partial and "header without rows" in result.notes()[0]
    # The same 1.x names ("bytes N type op ... res") read rows when there are some.
    header = ("#      bytes             N    type      op     time  algbw  busbw      res"
              "     time  algbw  busbw      res\n")
    row = "   33554432       8388608   float     sum    3120.5  10.75  18.82    2e-07   3101.2  10.82  18.94    2e-07\n"
    assert parse_nccl_tests(header + row).all_facts() == {"nccl.allreduce_busbw_gbytes_per_s": 18.94,
                                                          "nccl.allreduce_algbw_gbytes_per_s": 10.82}


def test_markdown_that_ate_the_hashes_still_finds_the_header(recorded):
    result = parse_nccl_tests(recorded("nccl_tests_markdown_ate_hashes_nccl583.txt"))
    assert result.layout == "header" and result.max_bytes_requested == 8589934592
    assert result.partial and result.all_facts() == {}


def test_tail_cut_mid_row_keeps_the_complete_rows_and_says_partial(recorded):
    result = parse_nccl_tests(recorded("nccl_tests_tail_cut_mid_row_mooncake3484.txt"))
    assert result.layout == "new (assumed)" and len(result.rows) == 11 and result.cut_rows == 1
    assert result.all_facts() == {"nccl.allreduce_busbw_gbytes_per_s": 300.52,
                                  "nccl.allreduce_algbw_gbytes_per_s": 171.73}
    assert result.partial
    notes = " ".join(result.notes())
    assert "only 32 MB" in notes and "partial" in notes


def test_pdsh_host_prefix_is_stripped():
    text = ("10.3.35.83: #       size         count      type   redop    root     time   algbw   busbw #wrong"
            "     time   algbw   busbw #wrong\n"
            "10.3.35.83:   2147483648     536870912     float     sum      -1    50000   42.95   80.53      0"
            "    50010   42.94   80.51      0\n")
    assert parse_nccl_tests(text).facts() == {"nccl.allreduce_busbw_gbytes_per_s": 80.53}


def test_only_the_footer_average_is_the_fallback_figure_and_says_so():
    result = parse_nccl_tests("# Avg bus bandwidth    : 5.2\n")
    assert result.all_facts() == {"nccl.allreduce_busbw_gbytes_per_s": 5.2} and result.busbw_source == "avg line"
    assert "only the 'Avg bus bandwidth'" in result.notes()[0] and "understates" in result.notes()[0]


def test_the_largest_rows_win_over_the_footer_average():
    # nccl-tests 2.x: a sweep from 8 B to 8 GB, the footer averaging it all (the shape of nccl-tests #71's tables).
    text = ("#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw"
            "   busbw #wrong\n"
            "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)"
            "  (GB/s)\n"
            "           8             2     float     sum      -1    28.17    0.00    0.00      0    27.90    0.00"
            "    0.00      0\n"
            "  4294967296    1073741824     float     sum      -1    23012  186.64  349.94      0    23005  186.70"
            "  350.06      0\n"
            "  8589934592    2147483648     float     sum      -1    45990  186.78  350.21      0    46001  186.73"
            "  350.12      0\n"
            "# Out of bounds values : 0 OK\n"
            "# Avg bus bandwidth    : 327.981\n")
    result = parse_nccl_tests(text)
    assert result.facts() == {"nccl.allreduce_busbw_gbytes_per_s": 350.21}
    assert result.busbw_source == "largest sizes" and result.avg_busbw_gbytes_per_s == 327.981
    assert [n.code for n in result.coded_notes()] == ["nccl_tests.avg_means_little"]


def test_one_sided_rows_without_a_header_are_read() -> None:
    """Rows pasted without the header and with only the out-of-place half: the largest size still counts,
    not the footer's average over every size."""
    result = parse_nccl_tests(
        " 8589934592    2147483648     float     sum      -1   364906   23.54   44.14      0\n"
        "17179869184    4294967296     float     sum      -1   727698   23.61   44.27      0\n"
        "# Avg bus bandwidth    : 20.017\n")
    assert result.all_facts()["nccl.allreduce_busbw_gbytes_per_s"] == 44.27
    assert result.cut_rows == 0


def test_eight_cells_tell_a_root_column_from_an_error_column() -> None:
    """'size count type redop time algbw busbw error' (old) against 'size count type redop root time algbw busbw'."""
    old = parse_nccl_tests("    33554432       8388608   float     sum    43985    0.76    1.48  1e-06\n"
                           "   134217728      33554432   float     sum   185182    0.72    1.40  1e-06\n")
    assert old.all_facts()["nccl.allreduce_busbw_gbytes_per_s"] == 1.48
    new = parse_nccl_tests("   67108864   16777216 float    sum   -1   467.9  143.41  268.90\n"
                           "  536870912  134217728 float    sum   -1  3218.6  166.80  312.75\n")
    assert new.all_facts()["nccl.allreduce_busbw_gbytes_per_s"] == 312.75


def test_the_banner_gives_the_version_the_gpus_and_the_shape() -> None:
    text = ("# nccl-tests version 2.17.6 nccl-headers=22803 nccl-library=22803\n"
            "# Collective test starting: all_gather_perf\n"
            "#  Rank  0 Group  0 Pid 1935208 on      spark device  0 [000f:01:00] NVIDIA GB10\n"
            "#  Rank  1 Group  0 Pid 1278829 on spark-3995 device  0 [000f:01:00] NVIDIA GB10\n"
            " 17179869184    2147483648     float    none      -1   453650   37.87   18.94       0   410049   41.90"
            "   20.95       0\n")
    facts = parse_nccl_tests(text).all_facts()
    assert facts == {"nccl.version": "2.28.3", "gpu.model": "GB10", "job.nodes": 2, "job.gpus_per_node": 1}


def test_a_banner_missing_ranks_gives_no_shape() -> None:
    text = ("#  Rank  0 Pid  12345 on   gpu01 device  0 [0x1a] Tesla V100-SXM2-32GB\n"
            "#  Rank  2 Pid  12345 on   gpu02 device  0 [0x1a] Tesla V100-SXM2-32GB\n")
    facts = parse_nccl_tests(text).header_facts()
    assert facts == {"gpu.model": "V100"}
