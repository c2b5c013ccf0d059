"""The all-reduce benchmarks other than nccl-tests: all_reduce_bench.py's two lines, DeepSpeed's comms benchmark."""

import pytest

from bwdoctor_parsers.collective_bench import parse_collective_bench

BENCH = """The average bandwidth of all_reduce with a 4.0GB payload (5 trials, 16 ranks):
 algbw: 44.947 GBps (359.6 Gbps)
 busbw: 84.275 GBps (674.2 Gbps)
"""
DS = """---- Performance of all_reduce on 8 devices ---------------------------------------------------------
Size (Bytes)         Description               Duration             Throughput (Gbps)    BusBW (Gbps)
----------------------------------------------------------------------------------------------------
256.0 MB             67108864x4                21.340 ms            100.620              176.085
31.67 GB             8501054668x4              3176.620 ms          171.272              149.863
"""


def test_all_reduce_bench_lines() -> None:
    facts = parse_collective_bench(BENCH).facts()
    assert facts == {"nccl.allreduce_busbw_gbytes_per_s": 84.275, "nccl.allreduce_algbw_gbytes_per_s": 44.947}


def test_all_reduce_bench_with_launcher_prefixes() -> None:
    text = "\n".join("[gke-a3-node-pool-2dccbe7f-j25n:0]:" + line for line in BENCH.splitlines())
    assert parse_collective_bench(text).facts()["nccl.allreduce_busbw_gbytes_per_s"] == 84.275


def test_another_collective_gives_no_all_reduce_figure() -> None:
    assert parse_collective_bench(BENCH.replace("all_reduce", "all_gather")).facts() == {}
    assert parse_collective_bench(DS.replace("all_reduce", "all_to_all")).facts() == {}


def test_deepspeed_largest_size_in_gbit() -> None:
    facts = parse_collective_bench(DS).facts()
    assert facts["nccl.allreduce_busbw_gbytes_per_s"] == pytest.approx(149.863 / 8, abs=1e-3)
    assert facts["nccl.allreduce_algbw_gbytes_per_s"] == pytest.approx(171.272 / 8, abs=1e-3)


def test_deepspeed_quoted_with_host_prefix_and_sections() -> None:
    text = "\n".join("> x3211c0s37b0n0: " + line for line in (DS + DS.replace("all_reduce", "broadcast")).splitlines())
    assert parse_collective_bench(text).facts()["nccl.allreduce_busbw_gbytes_per_s"] == pytest.approx(18.733, abs=1e-3)


@pytest.mark.parametrize("text", ["", "busbw: 3 GBps", "---- Performance of all_reduce on 8 devices", None, 42,
                                  "Size (Bytes) Description Duration Throughput (Gbps) BusBW (Gbps)\n1 B 1x1 0 s x y",
                                  "The average bandwidth of all_reduce with a 4.0GB payload\n busbw: . GBps"])
def test_garbage(text: object) -> None:
    parse_collective_bench(text)  # type: ignore[arg-type]
