"""The chat feeds these parsers whatever a person pastes: none may raise, whatever the text."""

from hypothesis import given, settings
from hypothesis import strategies as st

from tool_parsers.ethtool import parse_ethtool
from tool_parsers.ibstat import parse_ibstat
from tool_parsers.iperf3 import parse_iperf3_json
from tool_parsers.nccl_log import parse_nccl_log
from tool_parsers.nccl_tests import parse_nccl_tests
from tool_parsers.procfs import parse_meminfo, parse_net_dev, parse_proc_stat
from tool_parsers.sysfs_net import parse_speed_mbps, parse_sysfs_snapshot
from tool_parsers.training_log import parse_training_log

PARSERS = [parse_iperf3_json, parse_nccl_tests, parse_nccl_log, parse_training_log, parse_ibstat,
           parse_proc_stat, parse_meminfo, parse_net_dev, parse_speed_mbps, parse_sysfs_snapshot, parse_ethtool]

# Text built from the tokens the parsers look for, so the search reaches their deeper branches.
TOKENS = st.sampled_from([
    "# ", "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "float", "sum", "-1", "0",
    "1024", "3.5", "nan", "inf", "NCCL INFO", "Using network", "NET/IB", "NET/Socket : Using", "[0]eth0:", "via",
    "/GDRDMA", "set by environment to", "elapsed time per iteration (ms):", "iteration", "/", "|", "it/s", "s/it",
    "[00:01<00:02, ", "global_step=", "step:", "2025-03-04 10:00:00,123", "{", "}", '"error"', '"end"', "CA 'x'",
    "Port 1:", "State:", "Rate:", "Link layer:", "cpu", "MemTotal:", "kB", "eth0:", "\n", "\r", " ", "\t",
    "Settings for eth0:", "Supported link modes:", "Link partner advertised link modes:", "100000baseCR4/Full",
    "10baseT/Half", "0baseT/Full", "Not reported", "Speed:", "25000Mb/s", "Unknown!", "Link detected:", "yes",
])
TEXT = st.one_of(st.text(), st.lists(TOKENS, max_size=60).map("".join))


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_no_parser_raises(text):
    for parser in PARSERS:
        result = parser(text)
        if hasattr(result, "facts"):
            assert isinstance(result.facts(), dict)
