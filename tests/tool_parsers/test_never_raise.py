"""The chat feeds these parsers whatever a person pastes: none may raise, whatever the text."""

from hypothesis import given, settings
from hypothesis import strategies as st

from bwdoctor_parsers.ethtool import parse_ethtool
from bwdoctor_parsers.ibstat import parse_ib_ports, parse_ibstat, parse_ibstatus, parse_ibv_devinfo
from bwdoctor_parsers.ip_addr import parse_ip_addr
from bwdoctor_parsers.iperf3 import parse_iperf3_json
from bwdoctor_parsers.iperf3_text import parse_iperf3_text
from bwdoctor_parsers.lspci import parse_lspci
from bwdoctor_parsers.nccl_env import parse_nccl_env
from bwdoctor_parsers.nccl_log import parse_nccl_log
from bwdoctor_parsers.nccl_tests import parse_nccl_tests
from bwdoctor_parsers.nvidia_smi import parse_nvidia_smi
from bwdoctor_parsers.perftest import parse_perftest
from bwdoctor_parsers.procfs import parse_meminfo, parse_net_dev, parse_proc_stat
from bwdoctor_parsers.read_throughput import parse_read_throughput
from bwdoctor_parsers.sysfs_net import parse_speed_mbps, parse_sysfs_snapshot
from bwdoctor_parsers.training_log import parse_training_log

PARSERS = [parse_iperf3_json, parse_nccl_tests, parse_nccl_log, parse_training_log, parse_ibstat,
           parse_proc_stat, parse_meminfo, parse_net_dev, parse_speed_mbps, parse_sysfs_snapshot, parse_ethtool,
           parse_ib_ports, parse_ibstatus, parse_ibv_devinfo, parse_ip_addr, parse_iperf3_text, parse_lspci,
           parse_nccl_env, parse_nvidia_smi, parse_perftest, parse_read_throughput]

# Text built from the tokens the parsers look for, so the search reaches their deeper branches.
TOKENS = st.sampled_from([
    "# ", "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "float", "sum", "-1", "0",
    "1024", "3.5", "nan", "inf", "NCCL INFO", "Using network", "NET/IB", "NET/Socket : Using", "[0]eth0:", "via",
    "/GDRDMA", "set by environment to", "elapsed time per iteration (ms):", "iteration", "/", "|", "it/s", "s/it",
    "[00:01<00:02, ", "global_step=", "step:", "2025-03-04 10:00:00,123", "{", "}", '"error"', '"end"', "CA 'x'",
    "Port 1:", "State:", "Rate:", "Link layer:", "cpu", "MemTotal:", "kB", "eth0:", "\n", "\r", " ", "\t",
    "Settings for eth0:", "Supported link modes:", "Link partner advertised link modes:", "100000baseCR4/Full",
    "10baseT/Half", "0baseT/Full", "Not reported", "Speed:", "25000Mb/s", "Unknown!", "Link detected:", "yes",
    # perftest, ibstatus, ibv_devinfo, lspci, ip, nvidia-smi -q/topo, NCCL settings, newer NCCL lines.
    "#bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]", "#bytes #iterations BW peak[Gb/sec] "
    "BW average[Gb/sec]", "65536", "5000", "Link type : Ethernet", "Device : mlx5_0", "------------------------",
    "Infiniband device 'mlx5_0' port 1 status:", "state: 4: ACTIVE", "rate: 100 Gb/sec (4X EDR)", "link_layer:",
    "hca_id:", "port:", "PORT_ACTIVE (4)", "active_width:", "4X (2)", "active_speed:", "25.0 Gbps (32)",
    "ACSCtl:", "SrcValid+", "ReqRedir-", "LnkCap:", "LnkSta:", "Port #0, Speed 16GT/s, Width x16", "Speed 2.5GT/s",
    "(downgraded)", "da:00.0 3D controller: NVIDIA", "2: eth0: <BROADCAST,UP,LOWER_UP> mtu 9000 state UP",
    "    inet 192.168.3.15/20", "    inet 999.1.1.1/99", "default via 10.0.0.1 dev eth0", "eth0 UP 10.0.0.1/24",
    "master bond0", "GPU0", "GPU1", "NIC0", "X", "NV12", "PIX", "SYS", "NIC Legend:", "NIC0: mlx5_0", "\x1b[4m",
    "GPU Link Info", "PCIe Generation", "Link Width", "Max", "Current", "    : ", "16x", "pcie.link.gen.current",
    "NCCL_IB_HCA=", "export NCCL_P2P_DISABLE=1", "-x NCCL_DEBUG", "NCCL_IB_GID_INDEX=", "NCCL_NET_GDR_LEVEL=LOC",
    "os.environ[\"NCCL_X\"] = \"", "set to ", "Bootstrap: Using lo:127.0.0.1<0>",
    "NET/Plugin: Could not find: libnccl-net.so",
    "Initialized NET plugin Socket", "NET/OFI Selected Provider is efa", "GPU Direct RDMA Enabled for HCA 0 'mlx5_0'",
    "via NET/AWS Libfabric/0", "via P2P/IPC", "via SHM/direct/direct", "type NVL/PIX", "NCCL version 2.28.9+cuda13.0",
    "Avg bus bandwidth    : ", "maxBytes 8589934592", "nThread", "bytes", "N", "op", "res", "━", "•", "0:00:02",
    "40.26it/s", "²", "¹", "٣",
])
TEXT = st.one_of(st.text(), st.lists(TOKENS, max_size=60).map("".join))


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_no_parser_raises(text):
    for parser in PARSERS:
        result = parser(text)
        if hasattr(result, "facts"):
            assert isinstance(result.facts(), dict)
        for extra in ("all_facts", "extra_facts", "notes"):
            if hasattr(result, extra):
                assert isinstance(getattr(result, extra)(), dict | list)
        if hasattr(result, "partial"):
            assert isinstance(result.partial, bool)
