import pytest

from bwdoctor_parsers import procfs


def _two(fixture_text, name):
    first, second = procfs.split_samples(fixture_text(name))
    return first, second


def test_cpu_utilisation_and_iowait_from_deltas(fixture_text):
    first, second = _two(fixture_text, "proc_stat_two_samples.txt")
    before, after = procfs.parse_proc_stat(first), procfs.parse_proc_stat(second)
    # deltas: user 600, system 200, idle 800, iowait 400, softirq 20 -> total 2020, busy 820
    assert procfs.cpu_usage(before, after) == {"cpu.util_pct": pytest.approx(40.59, abs=0.01),
                                               "cpu.iowait_pct": pytest.approx(19.80, abs=0.01)}


def test_no_time_passed_gives_nothing(fixture_text):
    first, _ = _two(fixture_text, "proc_stat_two_samples.txt")
    reading = procfs.parse_proc_stat(first)
    assert procfs.cpu_usage(reading, reading) == {}


def test_meminfo_counts_page_cache_as_available(fixture_text):
    assert procfs.parse_meminfo(fixture_text("meminfo.txt")) == {"mem.used_pct": 25.0}
    assert procfs.parse_meminfo("MemTotal: 1000 kB\nMemFree: 250 kB\nBuffers: 0 kB\nCached: 250 kB\n") == {
        "mem.used_pct": 50.0}


def test_net_dev_rates(fixture_text):
    first, second = _two(fixture_text, "proc_net_dev_two_samples.txt")
    before, after = procfs.parse_net_dev(first), procfs.parse_net_dev(second)
    assert set(before) == {"lo", "ens5", "docker0"}
    assert procfs.net_rates(before["ens5"], after["ens5"], 2.0) == {"nic.rx_gbps": 25.0, "nic.tx_gbps": 24.0}


def test_counter_reset_gives_nothing():
    assert procfs.net_rates(procfs.NetCounters(10, 10), procfs.NetCounters(5, 20), 1.0) == {}


@pytest.mark.parametrize("text", ["", "cpu a b c d", "garbage", "cpu"])
def test_garbage(text):
    assert procfs.parse_proc_stat(text) is None
    assert procfs.parse_meminfo(text) == {}
    assert procfs.parse_net_dev(text) == {}
