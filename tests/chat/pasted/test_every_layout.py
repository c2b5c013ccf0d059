"""Pasted output of every layout, read whole: rank-labelled lines outside a code block (srun --label's
'0: ', mpirun's '[1,0]<stdout>:'), PXN channel lines ('via NET/IB/0(8)/GDRDMA'), ifconfig's and ip link's MTU,
nvidia-smi's GPU name as the model the words would name; in English and in Chinese, with and without code fences,
cut off mid-table. Garbage never raises."""

import pytest

from bwdoctor.chat import understand
from bwdoctor_parsers.ip_addr import parse_ip_addr
from bwdoctor_parsers.nccl_log import parse_nccl_log

BUS = "nccl.allreduce_busbw_gbytes_per_s"
SIZES = [8, 1048576, 134217728, 268435456, 536870912, 1073741824]
BUSBW = [0.00, 4.77, 37.06, 37.71, 38.12, 38.20]


def _row(size: int, busbw: float, *, wrong: str = "0", old: bool = False) -> str:
    algbw = busbw / 1.875
    if old:
        return f"  {size:>10}  {size // 4:>10}  float  sum  123.4  {algbw:.2f}  {busbw:.2f}  5e-07  123.5  " \
               f"{algbw:.2f}  {busbw:.2f}  5e-07"
    return f"  {size:>10}  {size // 4:>10}  float  sum  -1  123.4  {algbw:.2f}  {busbw:.2f}  {wrong}  123.5  " \
           f"{algbw:.2f}  {busbw - 0.04:.2f}  {wrong}"


HEADER = ("#                                   out-of-place                in-place\n"
          "#  size  count  type  redop  root  time  algbw  busbw #wrong  time  algbw  busbw #wrong\n"
          "#   (B)  (elements)              (us) (GB/s) (GB/s)         (us) (GB/s) (GB/s)")
NT_NEW = "\n".join([HEADER, *(_row(s, b) for s, b in zip(SIZES, BUSBW, strict=True)),
                    "# Out of bounds values : 0 OK", "# Avg bus bandwidth    : 18.3321", "#"])
NT_NA = "\n".join([HEADER, *(_row(s, b, wrong="N/A") for s, b in zip(SIZES, BUSBW, strict=True)),
                   "# Avg bus bandwidth    : 18.3321"])
SLURM = "\n".join("0: " + line for line in NT_NEW.splitlines())
MPI_TAG = "\n".join("[1,0]<stdout>:" + line for line in NT_NEW.splitlines())
NOHASH = NT_NEW.replace("#", " ")
OLD = "\n".join(["# nThread 1 nGpus 8 minBytes 8 maxBytes 268435456 step: 2(factor) warmup iters: 5 iters: 20",
                 "#  size  count  type  redop  time  algbw  busbw  error  time  algbw  busbw  error",
                 *(_row(s, b, old=True) for s, b in [(1048576, 7.86), (67108864, 23.02), (268435456, 23.53)]),
                 "# Avg bus bandwidth    : 12.8012"])
CUT = "\n".join([_row(134217728, 37.06), _row(268435456, 37.71), "  536870912  134217728  float  sum  -1  26402  20."])
BARE_ROWS = "\n".join([_row(268435456, 37.71), _row(536870912, 38.12)])

IB_LOG = """n1:1234:1300 [0] NCCL INFO NCCL version 2.18.5+cuda12.2
n1:1234:1300 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal implementation
n1:1234:1300 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB ; OOB eth0
n1:1234:1300 [0] NCCL INFO Using network IB
n1:1234:1300 [0] NCCL INFO Channel 00/0 : 8[0] -> 0[0] [receive] via NET/IB/0/GDRDMA
n1:1234:1300 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA"""
PXN_LOG = """gpu-a:1811:1902 [1] NCCL INFO Channel 00/0 : 9[1] -> 0[0] [send] via NET/IB/0(8)/GDRDMA
gpu-a:1811:1902 [1] NCCL INFO Channel 01/0 : 9[1] -> 0[0] [send] via NET/IB/1(9)/GDRDMA
gpu-a:1811:1902 [1] NCCL INFO Connected all rings, use ring PXN 1 GDR 1"""
SOCK_LOG = """w0:311:311 [0] NCCL INFO Bootstrap : Using eth0:10.42.0.5<0>
w0:311:311 [0] NCCL INFO NET/Plugin : Plugin load returned 2 : libnccl-net.so: cannot open shared object file
w0:311:311 [0] NCCL INFO NET/Plugin : No plugin found, using internal implementation
NCCL version 2.19.3+cuda12.3
w0:311:340 [0] NCCL INFO NET/IB : No device found.
w0:311:340 [0] NCCL INFO NET/Socket : Using [0]eth0:10.42.0.5<0>
w0:311:340 [0] NCCL INFO Using network Socket
w0:311:340 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/Socket/0"""
NEW_LOG = """n0:88:88 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to bond0
n0:88:88 [0] NCCL INFO Bootstrap: Using bond0:192.168.1.10<0>
n0:88:88 [0] NCCL INFO NCCL version 2.23.4+cuda12.6
n0:88:120 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE [RO]; OOB bond0:192.168.1.10<0>
n0:88:120 [0] NCCL INFO Initialized NET plugin IB
n0:88:120 [0] NCCL INFO Assigned NET plugin IB to comm
n0:88:120 [0] NCCL INFO Using network IB
n0:88:120 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA"""
OLD_LOG = """s1:117953:118322 [7] NCCL INFO Ring 00 : 7[7] -> 3[3] via P2P/IPC
s1:117953:118322 [0] NCCL INFO Ring 00 : 31[7] -> 0[0] [receive] via NET/Socket/0
s1:117953:118322 [0] NCCL INFO Ring 00 : 0[0] -> 8[0] [send] via NET/Socket/0"""
IBEXT_LOG = """[0] h100-w1:4978:4980 [0] NCCL INFO Channel 00/0 : 16[0] -> 0[0] [receive] via NET/IBext_v8/7/GDRDMA
[0] h100-w1:4978:4980 [0] NCCL INFO Channel 08/0 : 0[0] -> 8[0] [send] via NET/IBext_v8/7/GDRDMA"""
WRITE_BW = """---------------------------------------------------------------------------------------
                    RDMA_Write BW Test
 Dual-port       : OFF          Device         : mlx5_0
 Number of qps   : 1            Transport type : IB
 Connection type : RC           Using SRQ      : OFF
 TX depth        : 128
 Mtu             : 4096[B]
 Link type       : IB
---------------------------------------------------------------------------------------
 #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]
 65536      5000             11644.53            11643.27              0.186292
---------------------------------------------------------------------------------------"""
WRITE_BW_G = WRITE_BW.replace("[MB/sec]", "[Gb/sec]").replace("11644.53            11643.27", "97.68  97.66")
IPERF_P = """Connecting to host 10.0.0.2, port 5201
[  5] local 10.0.0.1 port 50000 connected to 10.0.0.2 port 5201
[ ID] Interval           Transfer     Bitrate         Retr
[  5]   0.00-10.00  sec  5.20 GBytes  4.47 Gbits/sec    0             sender
[  5]   0.00-10.04  sec  5.19 GBytes  4.44 Gbits/sec                  receiver
[  7]   0.00-10.00  sec  5.10 GBytes  4.38 Gbits/sec    3             sender
[  7]   0.00-10.04  sec  5.09 GBytes  4.35 Gbits/sec                  receiver
[SUM]   0.00-10.00  sec  10.3 GBytes  8.85 Gbits/sec    3             sender
[SUM]   0.00-10.04  sec  10.3 GBytes  8.79 Gbits/sec                  receiver

iperf Done."""
IPERF_1 = """[ ID] Interval           Transfer     Bitrate         Retr
[  5]   0.00-10.00  sec  27.4 GBytes  23.5 Gbits/sec  102             sender
[  5]   0.00-10.04  sec  27.4 GBytes  23.4 Gbits/sec                  receiver"""
IPERF2 = """------------------------------------------------------------
Client connecting to 10.0.0.2, TCP port 5001
TCP window size: 85.0 KByte (default)
------------------------------------------------------------
[  3] local 10.0.0.1 port 43210 connected with 10.0.0.2 port 5001
[ ID] Interval       Transfer     Bandwidth
[  3]  0.0-10.0 sec  10.9 GBytes  9.36 Gbits/sec"""
IBSTAT = """CA 'mlx5_0'
    CA type: MT4123
    Number of ports: 1
    Firmware version: 20.31.1014
    Port 1:
        State: Active
        Physical state: LinkUp
        Rate: 100
        Base lid: 3
        Link layer: InfiniBand"""
IBSTATUS = """Infiniband device 'mlx5_0' port 1 status:
    default gid:     fe80:0000:0000:0000:0c42:a103:00e1:2a3c
    base lid:    0x5
    sm lid:      0x1
    state:       4: ACTIVE
    phys state:  5: LinkUp
    rate:        200 Gb/sec (4X HDR)
    link_layer:  InfiniBand"""
ETHTOOL = """Settings for ens1f0:
    Supported ports: [ FIBRE ]
    Supported link modes:   1000baseKX/Full
                            10000baseKR/Full
                            25000baseCR/Full
    Supports auto-negotiation: Yes
    Speed: 25000Mb/s
    Duplex: Full
    Link detected: yes"""
TOPO = """        GPU0    GPU1    GPU2    GPU3    NIC0    NIC1    CPU Affinity    NUMA Affinity
GPU0     X      NV12    NV12    NV12    PXB     SYS     0-31    0
GPU1    NV12     X      NV12    NV12    PXB     SYS     0-31    0
GPU2    NV12    NV12     X      NV12    SYS     PXB     32-63   1
GPU3    NV12    NV12    NV12     X      SYS     PXB     32-63   1
NIC0    PXB     PXB     SYS     SYS      X      SYS
NIC1    SYS     SYS     PXB     PXB     SYS      X

NIC Legend:

  NIC0: mlx5_0
  NIC1: mlx5_1"""
IPADDR = """2: ens1f0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9000 qdisc mq state UP group default qlen 1000
    link/ether 0c:42:a1:11:22:33 brd ff:ff:ff:ff:ff:ff
    inet 10.0.0.1/24 brd 10.0.0.255 scope global ens1f0"""
IFCONFIG = """ens1f0: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 9000
        inet 10.0.0.1  netmask 255.255.255.0  broadcast 10.0.0.255
        ether 0c:42:a1:11:22:33  txqueuelen 1000  (Ethernet)
        RX packets 1234567  bytes 9876543210 (9.8 GB)"""
IFCONFIG_OLD = """eth0      Link encap:Ethernet  HWaddr 00:16:3e:00:00:01
          inet addr:10.0.0.1  Bcast:10.0.0.255  Mask:255.255.255.0
          UP BROADCAST RUNNING MULTICAST  MTU:9000  Metric:1

lo        Link encap:Local Loopback
          inet addr:127.0.0.1  Mask:255.0.0.0
          UP LOOPBACK RUNNING  MTU:65536  Metric:1"""
IP_LINK = """2: ens1f0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 4200 qdisc mq state UP mode DEFAULT
    link/ether 0c:42:a1:11:22:33 brd ff:ff:ff:ff:ff:ff
3: ens2f0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 4200 qdisc mq state UP mode DEFAULT
    link/ether 0c:42:a1:11:22:34 brd ff:ff:ff:ff:ff:ff
4: docker0: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 1500 qdisc noqueue state DOWN mode DEFAULT"""
DEVINFO = """hca_id: mlx5_0
        transport:                      InfiniBand (0)
        fw_ver:                         20.35.1012
        phys_port_cnt:                  1
                port:   1
                        state:                  PORT_ACTIVE (4)
                        max_mtu:                4096 (5)
                        active_mtu:             1024 (3)
                        link_layer:             Ethernet"""
SMI = """+---------------------------------------------------------------------------------------+
| NVIDIA-SMI 535.104.05             Driver Version: 535.104.05   CUDA Version: 12.2     |
|-----------------------------------------+----------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |         Memory-Usage | GPU-Util  Compute M. |
|=========================================+======================+======================|
|   0  NVIDIA A100-SXM4-80GB          On  | 00000000:07:00.0 Off |                    0 |
| N/A   35C    P0             245W / 400W |  60123MiB / 81920MiB |     45%      Default |
+-----------------------------------------+----------------------+----------------------+
|   1  NVIDIA A100-SXM4-80GB          On  | 00000000:0B:00.0 Off |                    0 |
| N/A   36C    P0             250W / 400W |  60123MiB / 81920MiB |     47%      Default |
+-----------------------------------------+----------------------+----------------------+"""

QUOTED = "\n".join("> " + line for line in NT_NEW.splitlines())
PIPES = """| size | count | type | redop | root | time | algbw | busbw | #wrong | time | algbw | busbw | #wrong |
|---|---|---|---|---|---|---|---|---|---|---|---|---|
| 268435456 | 67108864 | float | sum | -1 | 13345 | 20.11 | 37.71 | 0 | 13360 | 20.09 | 37.67 | 0 |
| 536870912 | 134217728 | float | sum | -1 | 26402 | 20.33 | 38.12 | 0 | 26420 | 20.32 | 38.10 | 0 |"""
WRAPPED = """#  size  count  type  redop  root  time  algbw  busbw #wrong  time  algbw  busbw #wrong
   268435456      67108864     float     sum      -1    13345   20.11   37.71      0
    13360   20.09   37.67      0
   536870912     134217728     float     sum      -1    26402   20.33   38.12      0
    26420   20.32   38.10      0"""
TS = """#  size  count  type  redop  root  time  algbw  busbw #wrong  time  algbw  busbw #wrong  timestamp
  268435456  67108864  float  sum  -1  13345  20.11  37.71  0  13360  20.09  37.67  0  2025-03-01 10:00:01
  536870912  134217728  float  sum  -1  26402  20.33  38.12  0  26420  20.32  38.10  0  2025-03-01 10:00:02
# Avg bus bandwidth    : 30.1 OK"""
PERITER = """#  size  count  type  redop  root  time  algbw  busbw #wrong  i_min  i_max  i_p99  i_cv% \
 time  algbw  busbw #wrong  i_min  i_max  i_p99  i_cv%
  268435456  67108864  float  sum  -1  13345  20.11  37.71  0  13001  13502  13499  1.20 \
 13360  20.09  37.67  0  13010  13600  13590  1.30
  536870912  134217728  float  sum  -1  26402  20.33  38.12  0  26001  26502  26499  0.80 \
 26420  20.32  38.10  0  26010  26600  26590  0.90""".replace(" \\\n", "")
CPUTIME = TS.replace("time  algbw", "cputime  algbw")


def fence(s: str) -> str:
    return "```\n" + s + "\n```"


ASK = "Two nodes with 8x A100 each, all_reduce_perf -b 8 -e 1G -f 2 -g 1:\n"
CASES = [
    ("nt-new-fence-en", ASK + fence(NT_NEW) + "\nIs this normal?", {BUS: 38.2}),
    ("nt-new-nofence-en", ASK + NT_NEW + "\nIs this normal?", {BUS: 38.2}),
    ("nt-new-zh", "两台机器跑 all_reduce_perf 结果如下：\n" + fence(NT_NEW) + "\n这个带宽正常吗？", {BUS: 38.2}),
    ("nt-na", "all_reduce_perf with -c 0 across 2 nodes:\n" + fence(NT_NA) + "\nslow?", {BUS: 38.2}),
    ("nt-slurm-fence", "srun -l output across 2 nodes:\n" + fence(SLURM) + "\nslow?", {BUS: 38.2}),
    ("nt-slurm-nofence", "srun -l output across 2 nodes:\n" + SLURM + "\nslow?", {BUS: 38.2}),
    ("nt-slurm-nofence-zh", "用 srun 跑的两机结果：\n" + SLURM + "\n是不是太慢了", {BUS: 38.2}),
    ("nt-mpitag", "mpirun --tag-output:\n" + MPI_TAG + "\nslow?", {BUS: 38.2}),
    ("nt-nohash", "Pasted (markdown ate the #):\n" + NOHASH + "\nslow?", {BUS: 38.2}),
    ("nt-old", "Old nccl-tests build on 2 nodes:\n" + fence(OLD), {BUS: 23.53}),
    ("nt-old-nofence", "Old nccl-tests build on 2 nodes:\n" + OLD + "\nThoughts?", {BUS: 23.53}),
    ("nt-cut", "The end of the run (it hung here):\n" + fence(CUT), {BUS: 37.71}),
    ("nt-cut-nofence", "The end of the run (it hung here):\n" + CUT, {BUS: 37.71}),
    ("nt-bare-rows", "Last rows:\n" + BARE_ROWS + "\nwhy so low on 4x200G?", {BUS: 38.12}),
    ("nt-bare-rows-indented", "Last rows:\n" + "\n".join("    " + r for r in BARE_ROWS.splitlines()) + "\nlow?",
     {BUS: 38.12}),
    ("nt-avg-only", "Across 2 nodes I get\n# Avg bus bandwidth    : 18.3321\nwhich seems low.", {BUS: 18.3321}),
    ("nt-avg-only-fence", "跨两台机器：\n```\n# Out of bounds values : 0\n# Avg bus bandwidth : 7.93\n```\n太低了",
     {BUS: 7.93}),
    ("nt-quoted", "As you can see in my earlier post:\n" + QUOTED + "\nany idea?", {BUS: 38.2}),
    ("nt-pipes", "我整理成表格了：\n" + PIPES + "\n请问正常吗", {BUS: 38.12}),
    ("nt-wrapped", "The rows wrapped in the terminal:\n" + fence(WRAPPED), {BUS: 38.12}),
    ("nt-timestamps", "with -T 1 (timestamps):\n" + fence(TS), {BUS: 38.12}),
    ("nt-cputime", "with -C 1:\n" + fence(CPUTIME), {BUS: 38.12}),
    ("nt-per-iteration", "with per-iteration timing:\n" + fence(PERITER), {BUS: 38.12}),
    ("log-ib", "Log:\n" + fence(IB_LOG),
     {"nccl.transport": "ib", "nccl.version": "2.18.5", "nic.count": 4, "nccl.gdr_disabled": False}),
    ("log-ib-nofence", "NCCL_DEBUG=INFO says\n" + IB_LOG + "\nstill slow", {"nccl.transport": "ib", "nic.count": 4}),
    ("log-pxn", "PXN is on:\n" + fence(PXN_LOG), {"nccl.transport": "ib", "nccl.gdr_disabled": False}),
    ("log-sock", "k8s pods, the log says\n" + fence(SOCK_LOG) + "\nwhy?",
     {"nccl.transport": "socket", "nccl.socket_ifname": "eth0", "nccl.version": "2.19.3"}),
    ("log-sock-nofence-zh", "日志如下\n" + SOCK_LOG + "\n为什么走了 socket",
     {"nccl.transport": "socket", "nccl.socket_ifname": "eth0"}),
    ("log-new", "log\n" + fence(NEW_LOG),
     {"nccl.transport": "ib", "nic.kind": "roce", "nccl.version": "2.23.4", "nic.count": 2}),
    ("log-old-ring", "log\n" + fence(OLD_LOG), {"nccl.transport": "socket"}),
    ("log-one-line-ib", "I see `NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA` but it is slow",
     {"nccl.transport": "ib"}),
    ("log-one-line-sock", "The log shows NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/Socket/0 on both",
     {"nccl.transport": "socket"}),
    ("log-ibext", "log:\n" + IBEXT_LOG + "\nslow", {"nccl.transport": "ib"}),
    ("wbw-mb", "ib_write_bw between nodes:\n" + fence(WRITE_BW), {"net.rdma_bw_gbps": 97.67, "nic.kind": "infiniband"}),
    ("wbw-gb", "ib_write_bw --report_gbits:\n" + WRITE_BW_G, {"net.rdma_bw_gbps": 97.66}),
    ("iperf-P", "iperf3 -c 10.0.0.2 -P 2 gives\n" + fence(IPERF_P), {"net.iperf3_gbps": 8.79}),
    ("iperf-P-nofence-zh", "两台机器之间 iperf3 测试：\n" + IPERF_P + "\n只有 8.8G", {"net.iperf3_gbps": 8.79}),
    ("iperf-1", "iperf3 between the pods:\n" + IPERF_1, {"net.iperf3_gbps": 23.4}),
    ("iperf2", "iperf:\n" + IPERF2, {"net.iperf3_gbps": 9.36}),
    ("ibstat", "ibstat:\n" + fence(IBSTAT), {"nic.speed_gbps": 100, "nic.kind": "infiniband"}),
    ("ibstat-nofence", "ibstat on each node:\n" + IBSTAT + "\nall the same", {"nic.speed_gbps": 100}),
    ("ibstatus", "ibstatus:\n" + IBSTATUS, {"nic.speed_gbps": 200}),
    ("ethtool", "ethtool shows\n" + fence(ETHTOOL), {"nic.speed_gbps": 25}),
    ("ethtool-nofence", "ethtool ens1f0:\n" + ETHTOOL + "\nis this the problem?", {"nic.speed_gbps": 25}),
    ("ethtool-oneline", "ethtool says Speed: 25000Mb/s on all nodes", {"nic.speed_gbps": 25}),
    ("topo", "nvidia-smi topo -m:\n" + fence(TOPO), {"nic.count": 2, "gpu.nvlink": True}),
    ("ipaddr", "ip addr:\n" + fence(IPADDR), {"nic.mtu": 9000}),
    ("ip-link", "ip link on both nodes:\n" + fence(IP_LINK), {"nic.mtu": 4200}),
    ("ifconfig", "ifconfig:\n" + fence(IFCONFIG), {"nic.mtu": 9000}),
    ("ifconfig-nofence", "ifconfig output:\n" + IFCONFIG + "\nMTU looks fine", {"nic.mtu": 9000}),
    ("ifconfig-old-zh", "ifconfig 看了一下：\n" + IFCONFIG_OLD + "\n都是 9000", {"nic.mtu": 9000}),
    ("devinfo", "ibv_devinfo:\n" + fence(DEVINFO), {"nic.kind": "roce"}),
    ("smi", "nvidia-smi during training:\n" + fence(SMI), {"gpu.model": "A100", "gpu.util_pct": 46}),
    ("smi-zh", "训练时 nvidia-smi 如下\n" + SMI + "\n利用率一直上不去", {"gpu.model": "A100", "gpu.util_pct": 46}),
]


def _facts(text: str) -> dict:
    return {u.fact: u.value for u in understand(text).understood}


@pytest.mark.parametrize(("name", "text", "want"), CASES, ids=[c[0] for c in CASES])
def test_pasted_families(name: str, text: str, want: dict) -> None:
    got = _facts(text)
    for key, value in want.items():
        if isinstance(value, bool | str):
            assert got.get(key) == value, (key, got)
        else:
            assert got.get(key) == pytest.approx(value, rel=0.02), (key, got)


def test_ibv_devinfo_active_mtu_is_no_interface_mtu() -> None:
    """RoCE's active_mtu (1024/4096) is the RDMA path MTU, like perftest's 'Mtu : 4096[B]': not nic.mtu."""
    assert "nic.mtu" not in _facts("ibv_devinfo:\n" + fence(DEVINFO))


def test_pxn_channel_lines_use_gdr() -> None:
    result = parse_nccl_log(PXN_LOG)
    assert result.gdr_connections == 2 and result.net_connections == 2
    assert result.facts()["nccl.gdr_disabled"] is False


def test_ifconfig_old_and_new_forms() -> None:
    assert parse_ip_addr(IFCONFIG).facts() == {"nic.name": "ens1f0", "nic.mtu": 9000}
    assert parse_ip_addr(IFCONFIG_OLD).facts() == {"nic.name": "eth0", "nic.mtu": 9000}


def test_ifconfig_interfaces_of_two_mtus_give_none() -> None:
    two = IFCONFIG + "\n\nib0: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 2044\n" \
                     "        inet 11.0.0.1  netmask 255.255.0.0\n"
    assert "nic.mtu" not in parse_ip_addr(two).facts()


def test_ifconfig_port_without_carrier_is_no_candidate() -> None:
    down = IFCONFIG + "\n\nib0: flags=4099<UP,BROADCAST,MULTICAST>  mtu 4092\n" \
                      "        inet 11.0.0.1  netmask 255.255.0.0\n"
    assert parse_ip_addr(down).facts()["nic.mtu"] == 9000


def test_ip_link_numbering_is_no_rank_label() -> None:
    understood = understand("ip -o link:\n" + fence(IP_LINK))
    assert "ip" in understood.pasted.kinds


@pytest.mark.parametrize("text", ["0: \n1: \n2: ", "[0] [1] [2]\n[0] ", "0: # size\n0: 1 2 float sum",
                                  "\n".join(f"{i}: x" for i in range(50)), "0: " * 500, "[1,0]<stdout>:" * 100])
def test_garbage_with_labels_never_raises(text: str) -> None:
    understand(text)


SI = "nccl.socket_ifname"
K8S = """        env:
          - name: NCCL_SOCKET_IFNAME
            value: "eth0"
          - name: NCCL_IB_DISABLE
            value: "1"
"""


@pytest.mark.parametrize(("text", "want"), [
    ("Our pod spec:\n```yaml\n" + K8S + "```\ntraining across 2 pods is slow", {SI: "eth0", "nccl.ib_disabled": True}),
    ("Our pod spec:\n" + K8S + "training across 2 pods is slow", {SI: "eth0", "nccl.ib_disabled": True}),
    ("kubectl get pod -o json shows \"env\": [{\"name\": \"NCCL_SOCKET_IFNAME\", \"value\": \"net1\"}] and it is slow",
     {SI: "net1"}),
    ("Dockerfile:\n```\nENV NCCL_SOCKET_IFNAME enp1s0\n```\nslow", {SI: "enp1s0"}),
    ("Dockerfile:\n```\nENV NCCL_SOCKET_IFNAME=enp1s0\nENV NCCL_IB_DISABLE=0\n```\n两台机器很慢",
     {SI: "enp1s0", "nccl.ib_disabled": False}),
    ("In the script:\n```python\nos.environ['NCCL_SOCKET_IFNAME'] = 'ens5'\n```\nslow", {SI: "ens5"}),
    (".deepspeed_env:\n```\nNCCL_SOCKET_IFNAME=eth1\nNCCL_IB_HCA=mlx5_0,mlx5_1\n```\nslow",
     {SI: "eth1", "nccl.ib_hca": "mlx5_0,mlx5_1"}),
])
def test_settings_in_every_file_form(text: str, want: dict) -> None:
    got = _facts(text)
    assert {k: got.get(k) for k in want} == want


def test_slurm_export_list_is_one_setting_each() -> None:
    from bwdoctor_parsers.nccl_env import parse_nccl_env

    env = parse_nccl_env("#SBATCH --export=ALL,NCCL_SOCKET_IFNAME=ib0,NCCL_IB_DISABLE=1").env
    assert env == {"NCCL_SOCKET_IFNAME": "ib0", "NCCL_IB_DISABLE": "1"}
    assert parse_nccl_env("export NCCL_IB_HCA=mlx5_0:1,mlx5_1:1").env == {"NCCL_IB_HCA": "mlx5_0:1,mlx5_1:1"}


BENCH = """The average bandwidth of all_reduce with a 4.0GB payload (5 trials, 16 ranks):
 algbw: 38.689 GBps (309.5 Gbps)
 busbw: 72.542 GBps (580.3 Gbps)"""
DSCOMM = """---- Performance of all_reduce on 16 devices ---------------------------------------------------------
Size (Bytes)     Description        Duration        Throughput (Gbps)    BusBW (Gbps)
64.0 KB          16384x4            1.234 ms        0.425                0.797
2.0 GB           536870912x4        123.45 ms       139.14               260.89"""


@pytest.mark.parametrize("text", [
    "Running all_reduce_bench.py on 2 nodes:\n```\n" + BENCH + "\n```\nIs 72 GB/s expected?",
    "all_reduce_bench.py 跑两台机器：\n" + BENCH + "\n这正常吗",
    "On GKE:\n" + "\n".join("[gke-a3-pool-2dccbe7f-j25n:0]:" + line for line in BENCH.splitlines()) + "\nok?",
])
def test_all_reduce_bench_output(text: str) -> None:
    assert _facts(text)[BUS] == pytest.approx(72.542)


def test_deepspeed_comms_benchmark_in_gbit() -> None:
    facts = _facts("DeepSpeed comms benchmark on 2 nodes:\n```\n" + DSCOMM + "\n```\nslow?")
    assert facts[BUS] == pytest.approx(260.89 / 8, rel=0.01)
