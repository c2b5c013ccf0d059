"""Monitors people paste while training runs: NIC traffic (iftop, nload, sar -n DEV, nicstat, ifstat,
dstat), GPU load (nvidia-smi dmon, gpustat, nvtop), RDMA listings (ibdev2netdev, show_gids, rdma link), NIC
counters (ethtool -S, RDMA hw_counters) and step rates in training logs. Shapes as the tools print them; garbage,
cut-off output and ports that are down read nothing, and no parser raises."""

import importlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bwdoctor.i18n import catalogue
from bwdoctor_parsers.net_monitors import parse_net_monitor
from bwdoctor_parsers.nic_counters import parse_nic_counters
from bwdoctor_parsers.nvidia_smi import parse_nvidia_smi
from bwdoctor_parsers.rdma_devices import parse_rdma_devices
from bwdoctor_parsers.training_log import parse_training_log

IFTOP_SCREEN = """\
TX:             cum:   12.3GB   peak:   9.41Gb          rates:   9.38Gb  9.40Gb  9.35Gb
RX:                    11.9GB           9.39Gb                   9.36Gb  9.37Gb  9.31Gb
TOTAL:                 24.2GB           18.8Gb                   18.7Gb  18.8Gb  18.7Gb"""
IFTOP_TEXT = """\
interface: ens5f0
IP address is: 10.0.0.11
MAC address is: 0c:42:a1:5b:1c:2a
Listening on ens5f0
   # Host name (port/service if enabled)            last 2s   last 10s   last 40s cumulative
--------------------------------------------------------------------------------------------
   1 10.0.0.11                                =>     21.3Gb     21.1Gb     20.9Gb     26.4GB
     10.0.0.12                                <=     20.8Gb     20.7Gb     20.5Gb     25.9GB
--------------------------------------------------------------------------------------------
Total send rate:                                     21.3Gb     21.1Gb     20.9Gb
Total receive rate:                                  20.8Gb     20.7Gb     20.5Gb
Total send and receive rate:                         42.1Gb     41.8Gb     41.4Gb
--------------------------------------------------------------------------------------------
Peak rate (sent/received/total):                     21.6Gb     21.0Gb     42.5Gb
Cumulative (sent/received/total):                    26.4GB     25.9GB     52.3GB
============================================================================================"""
NLOAD = """\
Device eth0 [10.0.0.2] (1/3):
================================================================================
Incoming:
                                       Curr: 8.91 GBit/s
                                       Avg: 8.72 GBit/s
                                       Min: 7.95 GBit/s
                                       Max: 9.21 GBit/s
                                       Ttl: 1.21 TByte
Outgoing:
                                       Curr: 8.87 GBit/s
                                       Avg: 8.70 GBit/s
                                       Min: 7.90 GBit/s
                                       Max: 9.19 GBit/s
                                       Ttl: 1.19 TByte"""
NLOAD_GRAPH = """\
Device bond0 [192.168.1.5] (2/4):
================================================================================
Incoming:
                                             ########  Curr: 310.55 MByte/s
                                             ########  Avg: 305.12 MByte/s
                                             ########  Min: 290.01 MByte/s
                                             ########  Max: 318.77 MByte/s
                                             ########  Ttl: 1732.95 GByte
Outgoing:
                                             ########  Curr: 301.20 MByte/s
                                             ########  Avg: 299.80 MByte/s
                                             ########  Min: 280.00 MByte/s
                                             ########  Max: 315.00 MByte/s
                                             ########  Ttl: 1701.11 GByte"""
SAR = """\
Linux 5.15.0-91-generic (gpu-node-01) 	03/05/2024 	_x86_64_	(128 CPU)

10:21:05 AM     IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s   %ifutil
10:21:06 AM        lo     12.00     12.00      1.02      1.02      0.00      0.00      0.00      0.00
10:21:06 AM      eth0 245123.00 241877.00 2854120.55 2831004.21      0.00      0.00      0.00     93.50
10:21:06 AM   docker0      0.00      0.00      0.00      0.00      0.00      0.00      0.00      0.00"""
SAR_AVG = """\
10:21:05        IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s   %ifutil
10:21:06       ens3f0   5123.00   5021.00    612.55    598.21      0.00      0.00      0.00      0.01
10:21:06       ens5f0 812345.00 809876.00 11534120.55 11504004.21      0.00      0.00      0.00     94.50
10:21:07       ens3f0   5120.00   5020.00    610.00    600.00      0.00      0.00      0.00      0.01
10:21:07       ens5f0 812000.00 809000.00 11334120.55 11304004.21      0.00      0.00      0.00     92.50

Average:        IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s   %ifutil
Average:       ens3f0   5121.50   5020.50    611.28    599.11      0.00      0.00      0.00      0.01
Average:       ens5f0 812172.50 809438.00 11434120.55 11404004.21      0.00      0.00      0.00     93.50"""
SAR_LO = """\
10:21:05        IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s   %ifutil
10:21:06           lo  90000.00  90000.00 5000000.00 5000000.00      0.00      0.00      0.00      0.00
10:21:06      docker0  10000.00  10000.00 900000.00 900000.00      0.00      0.00      0.00      0.00"""
NICSTAT = """\
    Time      Int   rKB/s   wKB/s   rPk/s   wPk/s    rAvs    wAvs %Util    Sat
10:31:04     eth0   120.5   130.2   100.0   110.0  1200.0  1200.0  0.10   0.00
10:31:04       lo    0.12    0.12    1.00    1.00   120.0   120.0  0.00   0.00
10:31:05     eth0 1147520 1145301 812345 809876  1446.5  1448.1  94.0   0.00
10:31:05       lo    0.12    0.12    1.00    1.00   120.0   120.0  0.00   0.00"""
IFSTAT = """\
       eth0                ib0
 KB/s in  KB/s out   KB/s in  KB/s out
 1203.44   1187.22  1.18e+07  1.17e+07
 1198.10   1190.05  1.19e+07  1.18e+07"""
DSTAT_N = """\
-net/total-
 recv  send
  12k   10k
1150M 1148M
1162M 1155M"""
DSTAT_FULL = """\
----total-cpu-usage---- -dsk/total- --net/eth0----net/total- ---paging-- ---system--
usr sys idl wai hiq siq| read  writ| recv  send: recv  send|  in   out | int   csw
  2   1  97   0   0   0|  12k  120k|   0     0 :   0     0 |   0     0 |1200  2300
 10   5  80   5   0   0|   0   512k|1148M 1150M:1150M 1152M|   0     0 |  95k  120k
 11   5  79   5   0   0|   0   480k|1160M 1155M:1162M 1157M|   0     0 |  96k  121k"""
DMON = """\
# gpu    pwr  gtemp  mtemp     sm    mem    enc    dec   mclk   pclk
# Idx      W      C      C      %      %      %      %    MHz    MHz
    0    112     45     50     35     12      0      0   1593   1410
    1    108     44     49     33     11      0      0   1593   1410
    2    115     46     51     38     13      0      0   1593   1410
    3     98     43     48     30     10      0      0   1593   1410"""
DMON_DT = """\
#Date       Time        gpu    pwr  gtemp  mtemp     sm    mem    enc    dec    jpg    ofa   mclk   pclk
#YYYYMMDD   HH:MM:SS    Idx      W      C      C      %      %      %      %      %      %    MHz    MHz
 20240305   10:02:11      0    301     55     60     92     40      0      0      0      0   2619   1980
 20240305   10:02:11      1    150     48     52      8      3      0      0      0      0   2619   1980
 20240305   10:02:12      0    305     55     60     96     42      0      0      0      0   2619   1980
 20240305   10:02:12      1    149     48     52     12      4      0      0      0      0   2619   1980"""
SMI_IDLE = """\
+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4     |
|-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
|=========================================+========================+======================|
|   0  NVIDIA H100 80GB HBM3          On  |   00000000:18:00.0 Off |                    0 |
| N/A   29C    P0             69W /  700W |       4MiB /  81559MiB |      0%      Default |
+-----------------------------------------+------------------------+----------------------+"""
GPUSTAT = """\
node1  Tue Mar  5 10:02:11 2024  535.104.05
[0] NVIDIA A100-SXM4-80GB | 45°C,  62 % | 40213 / 81920 MB | user(40123M)
[1] NVIDIA A100-SXM4-80GB | 44°C,  58 % | 40213 / 81920 MB | user(40123M)
[2] NVIDIA A100-SXM4-80GB | 46°C,  11 % | 40213 / 81920 MB | user(40123M)
[3] NVIDIA A100-SXM4-80GB | 43°C,  60 % | 40213 / 81920 MB | user(40123M)"""
NVTOP = """\
 Device 0 [NVIDIA A100-SXM4-80GB] PCIe GEN 4@16x RX: 1.221 MiB/s TX: 3.102 MiB/s
 GPU 1410MHz MEM 1593MHz TEMP  45°C FAN N/A% POW  95 / 400 W
 GPU[||||||||||||||        45%] MEM[||||||           30.1Gi/80.0Gi]
 Device 1 [NVIDIA A100-SXM4-80GB] PCIe GEN 4@16x RX: 1.001 MiB/s TX: 2.950 MiB/s
 GPU 1410MHz MEM 1593MHz TEMP  44°C FAN N/A% POW  90 / 400 W
 GPU[|||                  12%] MEM[||||||           30.1Gi/80.0Gi]"""
IBDEV_IB = """\
mlx5_0 port 1 ==> ib0 (Up)
mlx5_1 port 1 ==> ib1 (Up)
mlx5_2 port 1 ==> enp1s0f0 (Down)"""
IBDEV_ROCE = """\
mlx5_0 port 1 ==> ens1f0np0 (Up)
mlx5_1 port 1 ==> ens1f1np1 (Up)"""
IBDEV_V = ("0000:17:00.0 mlx5_0 (MT4123 - MCX653105A-HDAT) ConnectX-6 VPI adapter card, HDR IB (200Gb/s) and 200GbE, "
           "single-port QSFP56 fw 20.28.1002 port 1 (ACTIVE) ==> ib0 (Up)\n"
           "0000:ca:00.0 mlx5_1 (MT4123 - MCX653105A-HDAT) ConnectX-6 VPI adapter card, HDR IB (200Gb/s) and 200GbE, "
           "single-port QSFP56 fw 20.28.1002 port 1 (ACTIVE) ==> ib1 (Up)")
IBDEV_MIXED = """\
mlx5_0 port 1 ==> ib0 (Up)
mlx5_1 port 1 ==> ens2f0 (Up)"""
IBDEV_DOWN = """\
mlx5_0 port 1 ==> ib0 (Down)
mlx5_1 port 1 ==> ib1 (Down)"""
SHOW_GIDS = """\
DEV     PORT    INDEX   GID                                     IPv4            VER     DEV
---     ----    -----   ---                                     ------------    ---     ---
mlx5_0  1       0       fe80:0000:0000:0000:0e42:a1ff:fe5b:1c2a                 v1      ens1f0
mlx5_0  1       1       fe80:0000:0000:0000:0e42:a1ff:fe5b:1c2a                 v2      ens1f0
mlx5_0  1       2       0000:0000:0000:0000:0000:ffff:0a00:0002 10.0.0.2        v1      ens1f0
mlx5_0  1       3       0000:0000:0000:0000:0000:ffff:0a00:0002 10.0.0.2        v2      ens1f0
n_gids_found=4"""
RDMA_LINK_ROCE = """\
link mlx5_0/1 state ACTIVE physical_state LINK_UP netdev ens1f0
link mlx5_1/1 state ACTIVE physical_state LINK_UP netdev ens1f1"""
RDMA_LINK_IB = """\
link mlx5_0/1 subnet_prefix fe80:0000:0000:0000 lid 12 sm_lid 1 lmc 0 state ACTIVE physical_state LINK_UP
link mlx5_1/1 subnet_prefix fe80:0000:0000:0000 lid 13 sm_lid 1 lmc 0 state ACTIVE physical_state LINK_UP"""
ETHTOOL_S_PFC = """\
NIC statistics:
     rx_packets: 1234567
     tx_packets: 1234000
     rx_prio3_pause: 45123
     tx_prio3_pause: 88231
     rx_pause_ctrl_phy: 0
     tx_pause_ctrl_phy: 0
     rx_crc_errors_phy: 1532"""
ETHTOOL_S_DROPS = """\
     rx_discards_phy: 1534221
     rx_pause_ctrl_phy: 120
     tx_pause_ctrl_phy: 0
     rx_crc_errors_phy: 0
     rx_out_of_buffer: 98231"""
HW_COUNTERS = """\
bash-4.2# grep "" /sys/class/infiniband/mlx5_0/ports/1/hw_counters/*
/sys/class/infiniband/mlx5_0/ports/1/hw_counters/local_ack_timeout_err:91316
/sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent:17269947
/sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_ecn_marked_roce_packets:11293938
/sys/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_sequence:6140236"""
RATE_LOG = """\
step 100 | loss 2.31 | 3.2 s/it | tokens/s 40960
step 110 | loss 2.30 | 3.1 s/it | tokens/s 42280"""
TF_LOG = """\
INFO:tensorflow:loss = 2.31, step = 1200 (320.5 sec)
INFO:tensorflow:global_step/sec: 0.312
INFO:tensorflow:loss = 2.29, step = 1300 (318.1 sec)
INFO:tensorflow:global_step/sec: 0.318"""

NET_CASES = [
    ("iftop screen: the 10 s averages", IFTOP_SCREEN, 9.37, 9.40),
    ("iftop -t text totals", IFTOP_TEXT, 20.7, 21.1),
    ("nload Avg in GBit/s (1024-based)", NLOAD, 9.363, 9.342),
    ("nload beside its graph, MByte/s", NLOAD_GRAPH, 2.56, 2.515),
    ("sar -n DEV: eth0, not lo or docker0", SAR, 23.38, 23.19),
    ("sar's Average rows", SAR_AVG, 93.67, 93.42),
    ("nicstat: the first sample is since boot", NICSTAT, 9.40, 9.382),
    ("ifstat: the busier of two interfaces", IFSTAT, 97.08, 96.26),
    ("dstat -n: the first row is since boot", DSTAT_N, 9.689, 9.668),
    ("dstat with net/eth0 beside net/total", DSTAT_FULL, 9.68, 9.668),
]


@pytest.mark.parametrize(("name", "text", "rx", "tx"), NET_CASES, ids=[c[0] for c in NET_CASES])
def test_net_monitor_rates(name: str, text: str, rx: float, tx: float) -> None:
    facts = parse_net_monitor(text).facts()
    assert facts["nic.rx_gbps"] == pytest.approx(rx, rel=0.01), facts
    assert facts["nic.tx_gbps"] == pytest.approx(tx, rel=0.01), facts


@pytest.mark.parametrize("text", [
    SAR_LO,  # only loopback and docker0
    "10:21:05        IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s",  # a header without rows
    "2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500\n    RX: bytes  packets  errors\n    123456 1234 0",  # ip -s
    "eth0: 1234567 1234 0 0 0 0 0 0 7654321 4321 0 0 0 0 0 0",  # /proc/net/dev counters, not rates
    "TX: we checked the rates and they look fine",
])
def test_net_monitor_reads_no_rate(text: str) -> None:
    assert parse_net_monitor(text).facts() == {}


def test_net_monitor_cut_rows_are_partial() -> None:
    cut = "TX:             cum:   12.3GB   peak:   9.41Gb          rates:   9.38Gb"
    assert parse_net_monitor(cut).partial
    assert parse_net_monitor(SAR_LO.splitlines()[0]).partial


GPU_CASES = [
    ("dmon sm column", DMON, {"gpu.util_pct": 34.0, "gpu.util_min_pct": 30.0, "gpu.count": 4}),
    ("dmon -o DT, mean per GPU", DMON_DT, {"gpu.util_pct": 52.0, "gpu.util_min_pct": 10.0, "gpu.count": 2}),
    ("gpustat", GPUSTAT, {"gpu.util_pct": 47.75, "gpu.util_min_pct": 11.0, "gpu.count": 4}),
    ("nvtop bars", NVTOP, {"gpu.util_pct": 28.5, "gpu.util_min_pct": 12.0, "gpu.count": 2}),
]


@pytest.mark.parametrize(("name", "text", "want"), GPU_CASES, ids=[c[0] for c in GPU_CASES])
def test_gpu_monitors(name: str, text: str, want: dict) -> None:
    facts = parse_nvidia_smi(text).facts()
    for key, value in want.items():
        assert facts.get(key) == pytest.approx(value), (key, facts)


def test_dmon_header_without_rows_reads_nothing() -> None:
    assert "gpu.util_pct" not in parse_nvidia_smi(DMON.split("\n# Idx")[0]).facts()


RDMA_CASES = [
    ("ibdev2netdev IPoIB ports", IBDEV_IB, {"nic.rdma": True, "nic.kind": "infiniband"}),
    ("ibdev2netdev Ethernet ports of mlx5", IBDEV_ROCE, {"nic.rdma": True, "nic.kind": "roce"}),
    ("ibdev2netdev -v", IBDEV_V, {"nic.rdma": True, "nic.kind": "infiniband"}),
    ("ibdev2netdev IB and Ethernet up: no kind", IBDEV_MIXED, {"nic.rdma": True}),
    ("ibdev2netdev every port down", IBDEV_DOWN, {}),
    ("show_gids RoCE v2 entries", SHOW_GIDS, {"nic.rdma": True, "nic.kind": "roce"}),
    ("rdma link netdev", RDMA_LINK_ROCE, {"nic.rdma": True, "nic.kind": "roce"}),
    ("rdma link lid", RDMA_LINK_IB, {"nic.rdma": True, "nic.kind": "infiniband"}),
]


@pytest.mark.parametrize(("name", "text", "want"), RDMA_CASES, ids=[c[0] for c in RDMA_CASES])
def test_rdma_listings(name: str, text: str, want: dict) -> None:
    assert parse_rdma_devices(text).facts() == want


def test_show_gids_names_roce_v2_ipv4_entries_but_no_index_in_use() -> None:
    result = parse_rdma_devices(SHOW_GIDS)
    assert result.roce_v2_ipv4 == [("mlx5_0", 3)]
    assert "nic.gid_index" not in result.facts()


def test_priority_pause_frames_mean_pfc() -> None:
    result = parse_nic_counters(ETHTOOL_S_PFC)
    assert result.facts() == {"nic.pfc": True}
    assert [n.code for n in result.coded_notes()] == ["counters.errors"]


def test_global_pause_and_drops_are_no_pfc() -> None:
    result = parse_nic_counters(ETHTOOL_S_DROPS)
    assert result.facts() == {}
    notes = result.coded_notes()
    assert [n.code for n in notes] == ["counters.drops"] and "rx_discards_phy 1534221" in notes[0].text


def test_hw_counters_cnp_mean_ecn_not_a_gid() -> None:
    assert parse_nic_counters(HW_COUNTERS).facts() == {"nic.ecn": True}


def test_zero_counters_say_nothing() -> None:
    zeros = "NIC statistics:\n     rx_prio3_pause: 0\n     tx_prio3_pause: 0\n     np_cnp_sent: 0"
    assert parse_nic_counters(zeros).facts() == {}


@pytest.mark.parametrize(("text", "seconds"), [
    (RATE_LOG, 3.15),
    (TF_LOG, 1 / 0.315),
    ("Epoch 1 iter 40/500 loss 3.2 1.9 sec/step", 1.9),
    ("step 5: 12.5 it/s", 0.08),
])
def test_rate_lines_give_a_step_time(text: str, seconds: float) -> None:
    assert parse_training_log(text).facts()["job.step_time_s"] == pytest.approx(seconds, rel=0.01)


@pytest.mark.parametrize("text", [
    "throughput 120 samples/s step 10",  # samples are not steps
    "step 10 | 3.2 s/it (avg 2.9 s/it)",  # two rates: which is the step's is unknown
    "we got about 3 s/it on one node",  # no step line
])
def test_rates_that_are_no_step_time(text: str) -> None:
    assert "job.step_time_s" not in parse_training_log(text).facts()


TOKENS = st.sampled_from(["TX:", "RX:", "cum:", "peak:", "rates:", "9.4Gb", "12GB", "Device eth0 [1.2.3.4] (1/2):",
                          "Incoming:", "Outgoing:", "Curr: 1.2 GBit/s", "Avg:", "IFACE", "rxkB/s", "txkB/s",
                          "Average:", "10:21:05", "eth0", "lo", "1e+99", "nan", "-net/total-", "recv  send", "|", ":",
                          "1150M", "# gpu", "sm", "# Idx", "0", "100", "[0] A100 | 45°C,  62 % | 1 / 2 MB",
                          "GPU[|| 45%]", "mlx5_0 port 1 ==> ib0 (Up)", "DEV PORT INDEX GID", "v2", "link mlx5_0/1",
                          "state", "ACTIVE", "lid", "netdev", "NIC statistics:", "rx_prio3_pause: 5", "np_cnp_sent",
                          "/hw_counters/x:1", " KB/s in  KB/s out", "Time Int rKB/s wKB/s", "s/it", "step 3",
                          "global_step/sec: 0", "\n", " ", "\t"])


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(), st.lists(TOKENS, max_size=50).map(" ".join), st.lists(TOKENS, max_size=50).map("".join)))
def test_no_parser_raises(text: str) -> None:
    for parser in (parse_net_monitor, parse_nic_counters, parse_rdma_devices, parse_nvidia_smi, parse_training_log):
        result = parser(text)
        result.facts()


@pytest.mark.parametrize("module", ["bwdoctor_parsers.nic_counters", "bwdoctor.chat.pasted"])
def test_new_notes_are_in_the_catalogue_in_both_languages(module: str) -> None:
    english, chinese = catalogue("pasted")["en"], catalogue("pasted")["zh"]
    templates = importlib.import_module(module).NOTES
    assert {code: english.get(code) for code in templates} == templates
    assert all(code in chinese for code in templates)
