"""What people paste while training runs, read by the chat: NIC traffic monitors (iftop, nload, sar -n
DEV, nicstat, ifstat, dstat) give the busiest training interface's traffic, not lo's, docker0's or a storage NIC's;
GPU monitors (nvidia-smi dmon and table, gpustat, nvtop) the mean and the least busy GPU's load, a GPU with nothing on
it none; RDMA listings (ibdev2netdev, show_gids, rdma link, ibv_devinfo) the fabric's kind; NIC counters (ethtool
-S, hw_counters) PFC and ECN at work; PyTorch's watchdog and NCCL's connection errors no invented fact; step rates in
training logs the step time. English and Chinese prose, fenced and not, cut off and garbled."""

import pytest

from bwdoctor.chat import understand
from bwdoctor.chat.pasted import parse_pasted
from tests.tool_parsers.test_monitors import (
    DMON,
    DMON_DT,
    DSTAT_FULL,
    DSTAT_N,
    ETHTOOL_S_DROPS,
    ETHTOOL_S_PFC,
    GPUSTAT,
    HW_COUNTERS,
    IBDEV_DOWN,
    IBDEV_IB,
    IBDEV_MIXED,
    IBDEV_ROCE,
    IFSTAT,
    IFTOP_SCREEN,
    IFTOP_TEXT,
    NICSTAT,
    NLOAD,
    NLOAD_GRAPH,
    NVTOP,
    RATE_LOG,
    RDMA_LINK_IB,
    RDMA_LINK_ROCE,
    SAR,
    SAR_AVG,
    SAR_LO,
    SHOW_GIDS,
    SMI_IDLE,
    TF_LOG,
)

SMI_TWO = """\
+-----------------------------------------------------------------------------+
| NVIDIA-SMI 525.85.12    Driver Version: 525.85.12    CUDA Version: 12.0     |
|-------------------------------+----------------------+----------------------+
| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |
|===============================+======================+======================|
|   0  NVIDIA A100-SXM...  On   | 00000000:07:00.0 Off |                    0 |
| N/A   34C    P0    95W / 400W |  30123MiB / 81920MiB |     45%      Default |
+-------------------------------+----------------------+----------------------+
|   1  NVIDIA A100-SXM...  On   | 00000000:0B:00.0 Off |                    0 |
| N/A   33C    P0    90W / 400W |  30123MiB / 81920MiB |     12%      Default |
+-------------------------------+----------------------+----------------------+"""
DEVINFO_V = """\
hca_id: mlx5_0
        transport:                      InfiniBand (0)
        fw_ver:                         16.35.2000
                port:   1
                        state:                  PORT_ACTIVE (4)
                        active_width:           4X (2)
                        active_speed:           25.0 Gbps (32)
                        phys_state:             LINK_UP (5)
                        link_layer:             InfiniBand"""
WATCHDOG = ("[rank3]:[E ProcessGroupNCCL.cpp:828] [Rank 3] Watchdog caught collective operation timeout: "
            "WorkNCCL(SeqNum=12, OpType=ALLREDUCE, NumelIn=4311252, NumelOut=4311252, Timeout(ms)=1800000) ran for "
            "1800431 milliseconds before timing out.")
SOCKET_FAIL = ("node2:12345:12400 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.1.1.2<45123> "
               "failed : Connection refused\n"
               "node2:12345:12400 [0] NCCL INFO misc/socket.cc:565 -> 6\n"
               "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1269, unhandled "
               "system error, NCCL version 2.14.3")
MODIFY_QP = """\
gpu1:3344:3400 [3] NCCL WARN NET/IB : ibv_modify_qp failed with error No such device
gpu1:3344:3400 [3] NCCL WARN Call to ibv_modify_qp failed with error Connection timed out"""
MEGATRON_1 = (" iteration       10/  500000 | consumed samples:         5120 | "
              "elapsed time per iteration (ms): 1812.4 | global batch size:   512 | lm loss: 9.8E+00 |\n"
              " iteration       20/  500000 | consumed samples:        10240 | "
              "elapsed time per iteration (ms): 1808.1 | global batch size:   512 | lm loss: 9.1E+00 |")
MEGATRON_2 = MEGATRON_1.replace("1812.4", "3512.4").replace("1808.1", "3498.1")


def fence(body: str) -> str:
    return "```\n" + body + "\n```"


def _facts(text: str) -> dict:
    return {u.fact: u.value for u in understand(text).understood}


# (name, question, facts it must give, facts it must not give)
CASES = [
    # NIC traffic monitors
    ("iftop screen, EN", "Training on 2 nodes is slow. iftop on the training NIC shows:\n" + fence(IFTOP_SCREEN)
     + "\nIs the 10GbE link saturated?", {"nic.rx_gbps": 9.37, "nic.tx_gbps": 9.4, "nic.speed_gbps": 10.0},
     ["net.iperf3_gbps"]),
    ("iftop screen, ZH, no fence", "两台机器训练很慢，iftop 看训练网卡：\n" + IFTOP_SCREEN + "\n万兆网卡是不是跑满了？",
     {"nic.rx_gbps": 9.37, "nic.tx_gbps": 9.4}, ["net.iperf3_gbps"]),
    ("iftop -t, EN", "iftop -t -s 10 on node 0 while the all-reduce runs:\n" + fence(IFTOP_TEXT),
     {"nic.rx_gbps": 20.7, "nic.tx_gbps": 21.1}, ["net.iperf3_gbps", "nic.speed_gbps"]),
    ("nload, ZH", "两台机器训练很慢，nload 看 eth0：\n" + fence(NLOAD) + "\n网卡是 10G 的，是不是跑满了？",
     {"nic.rx_gbps": 9.363, "nic.tx_gbps": 9.342, "nic.speed_gbps": 10.0}, []),
    ("nload MByte/s beside the graph, EN", "nload during DDP training over bond0:\n" + NLOAD_GRAPH,
     {"nic.rx_gbps": 2.56, "nic.tx_gbps": 2.515}, []),
    ("sar -n DEV, EN", "sar -n DEV 1 during training on node 1 (25GbE):\n" + fence(SAR),
     {"nic.rx_gbps": 23.38, "nic.tx_gbps": 23.19, "nic.speed_gbps": 25.0}, []),
    ("sar Average rows, ZH", "训练时在 worker0 上跑了 sar -n DEV 1 2，100G 网卡：\n" + fence(SAR_AVG),
     {"nic.rx_gbps": 93.67, "nic.tx_gbps": 93.42}, []),
    ("nicstat, EN", "nicstat 1 on the master while training:\n" + fence(NICSTAT),
     {"nic.rx_gbps": 9.4, "nic.tx_gbps": 9.382}, []),
    ("ifstat over eth0 and ib0, ZH", "ifstat 的输出（训练中）：\n" + fence(IFSTAT),
     {"nic.rx_gbps": 97.08, "nic.tx_gbps": 96.26}, []),
    ("dstat -n, EN", "dstat -n while the job runs:\n" + fence(DSTAT_N), {"nic.rx_gbps": 9.689, "nic.tx_gbps": 9.668},
     []),
    ("dstat full, ZH", "dstat 看到的：\n" + fence(DSTAT_FULL), {"nic.rx_gbps": 9.68, "nic.tx_gbps": 9.668}, []),
    # negatives: the storage NIC, loopback
    ("sar of the storage NIC, EN", "Here is sar -n DEV on the storage NIC (NFS):\n" + fence(SAR), {},
     ["nic.rx_gbps", "nic.tx_gbps"]),
    ("iftop of the storage NIC, ZH", "存储网卡上的 iftop：\n" + fence(IFTOP_SCREEN), {},
     ["nic.rx_gbps", "nic.tx_gbps", "net.iperf3_gbps"]),
    ("nload of the management port, ZH", "管理口的 nload：\n" + fence(NLOAD), {}, ["nic.rx_gbps", "nic.tx_gbps"]),
    ("sar with only lo and docker0, EN", "sar -n DEV while training on one machine:\n" + fence(SAR_LO), {},
     ["nic.rx_gbps", "nic.tx_gbps"]),
    # GPU monitors
    ("dmon, EN", "nvidia-smi dmon while training on 4 nodes:\n" + fence(DMON),
     {"gpu.util_pct": 34.0, "gpu.util_min_pct": 30.0, "gpu.count": 4}, []),
    ("dmon -o DT, ZH, no fence", "训练时 nvidia-smi dmon -o DT 的输出：\n" + DMON_DT + "\n为什么 1 号卡这么闲？",
     {"gpu.util_pct": 52.0, "gpu.util_min_pct": 10.0}, []),
    ("nvidia-smi table, EN", "8 GPUs per node, nvidia-smi shows\n" + fence(SMI_TWO),
     {"gpu.util_pct": 28.5, "gpu.util_min_pct": 12.0, "gpu.model": "A100"}, []),
    ("a single idle GPU, EN", "nvidia-smi on the new node:\n" + fence(SMI_IDLE), {"gpu.model": "H100"},
     ["gpu.util_pct", "gpu.util_min_pct"]),
    ("a single idle GPU, ZH", "新机器上 nvidia-smi 是这样的：\n" + fence(SMI_IDLE), {},
     ["gpu.util_pct", "gpu.util_min_pct"]),
    ("gpustat, EN", "gpustat during training:\n" + fence(GPUSTAT),
     {"gpu.util_pct": 47.75, "gpu.util_min_pct": 11.0, "gpu.count": 4}, ["job.nodes"]),
    ("gpustat, ZH, no fence", "gpustat 看到 2 号卡利用率很低：\n" + GPUSTAT,
     {"gpu.util_pct": 47.75, "gpu.util_min_pct": 11.0}, []),
    ("nvtop, EN", "nvtop while training:\n" + fence(NVTOP), {"gpu.util_pct": 28.5, "gpu.util_min_pct": 12.0}, []),
    # RDMA listings
    ("ibdev2netdev IB, EN", "ibdev2netdev output:\n" + fence(IBDEV_IB), {"nic.rdma": True, "nic.kind": "infiniband"},
     []),
    ("ibdev2netdev RoCE, ZH", "两台机器的 ibdev2netdev 都是这样：\n" + fence(IBDEV_ROCE),
     {"nic.rdma": True, "nic.kind": "roce"}, []),
    ("ibdev2netdev IB and Ethernet up, EN", "ibdev2netdev:\n" + fence(IBDEV_MIXED), {"nic.rdma": True},
     ["nic.kind"]),
    ("ibdev2netdev every port down, EN", "ibdev2netdev on node 3:\n" + fence(IBDEV_DOWN), {}, ["nic.kind"]),
    ("show_gids, EN", "show_gids on both nodes:\n" + fence(SHOW_GIDS), {"nic.kind": "roce", "nic.rdma": True},
     ["nic.gid_index"]),
    ("rdma link RoCE, ZH", "rdma link 输出：\n" + fence(RDMA_LINK_ROCE), {"nic.kind": "roce", "nic.rdma": True}, []),
    ("rdma link IB, EN", "rdma link show:\n" + fence(RDMA_LINK_IB), {"nic.kind": "infiniband", "nic.rdma": True}, []),
    ("ibv_devinfo -v, EN", "ibv_devinfo -v excerpt:\n" + fence(DEVINFO_V),
     {"nic.kind": "infiniband", "nic.speed_gbps": 100.0}, []),
    # NIC counters
    ("ethtool -S PFC, EN", "ethtool -S ens1f0 on the RoCE NIC during training:\n" + fence(ETHTOOL_S_PFC),
     {"nic.pfc": True}, ["nic.ecn"]),
    ("ethtool -S drops, ZH", "RoCE 网卡 ethtool -S 里这几个计数一直在涨：\n" + fence(ETHTOOL_S_DROPS),
     {"nic.kind": "roce"}, ["nic.pfc", "nic.ecn"]),
    ("hw_counters ECN, EN", "Chasing a hang on RoCE; the port hw_counters:\n" + fence(HW_COUNTERS),
     {"nic.ecn": True}, ["nic.gid_index", "nic.pfc"]),
    # PyTorch and NCCL errors: nothing invented
    ("watchdog timeout, EN", "Training crashes on 4 nodes:\n" + fence(WATCHDOG) + "\nIs the network too slow?",
     {"job.nodes": 4}, ["nccl.transport", "nic.link_flaps", "nccl.ib_retry_exceeded", "job.step_time_s"]),
    ("watchdog timeout, ZH, no fence", "训练跑着跑着就挂了：\n" + WATCHDOG + "\n是网络太慢吗？", {},
     ["nccl.transport", "job.step_time_s", "job.checkpoint_save_s"]),
    ("socketStartConnect, EN", "Two nodes fail at init:\n" + fence(SOCKET_FAIL), {"nccl.version": "2.14.3"},
     ["nccl.transport", "nccl.ib_disabled"]),
    ("ibv_modify_qp, ZH", "多机 RoCE 训练报错：\n" + fence(MODIFY_QP), {},
     ["nccl.transport", "nccl.ib_retry_exceeded"]),
    # training-log rates
    ("s/it log lines, EN", "Our loop logs this on 2 nodes:\n" + fence(RATE_LOG), {"job.step_time_s": 3.15}, []),
    ("TF global_step/sec, ZH", "TensorFlow 多机训练日志：\n" + fence(TF_LOG), {"job.step_time_s": 3.175}, []),
    ("Megatron one node then two, ZH", "单机：\n" + fence(MEGATRON_1) + "\n两机：\n" + fence(MEGATRON_2)
     + "\n两机每步慢了快一倍",
     {"job.step_time_s": 3.5053, "job.step_time_baseline_s": 1.8103}, []),
    # typed, cut, garbled
    ("a typed scaling table stays prose, EN", "Throughput we measured:\nGPUs  img/s\n8     1500\n16    1800\n", {},
     ["nic.rx_gbps", "gpu.util_pct"]),
]


@pytest.mark.parametrize(("name", "text", "want", "absent"), CASES, ids=[c[0] for c in CASES])
def test_pasted_monitors(name: str, text: str, want: dict, absent: list) -> None:
    got = _facts(text)
    for key, value in want.items():
        if isinstance(value, bool | str):
            assert got.get(key) == value, (key, got)
        else:
            assert got.get(key) == pytest.approx(value, rel=0.01), (key, got)
    for key in absent:
        assert key not in got, (key, got)


def test_storage_nic_block_is_said_to_be_set_aside() -> None:
    _, pasted = parse_pasted("Here is sar -n DEV on the storage NIC (NFS):\n" + fence(SAR))
    assert [n.code for n in pasted.coded] == ["pasted.other_nic_block"]


def test_idle_gpu_and_counter_notes_are_said() -> None:
    _, idle = parse_pasted("nvidia-smi:\n" + fence(SMI_IDLE))
    assert "pasted.gpus_idle" in [n.code for n in idle.coded]
    _, drops = parse_pasted("ethtool -S:\n" + fence(ETHTOOL_S_DROPS), "zh")
    assert "counters.drops" in [n.code for n in drops.coded] and "网卡计数器" in drops.notes[0]


def test_watchdog_note_says_the_hang_not_a_rate() -> None:
    _, pasted = parse_pasted("Crash:\n" + fence(WATCHDOG))
    timeout = [n for n in pasted.coded if n.code == "pasted.collective_timeout"]
    assert timeout and timeout[0].params == {"op": "ALLREDUCE", "seconds": 1800}
    assert pasted.facts == {}


@pytest.mark.parametrize("text", [
    "iftop:\n```\nTX:             cum:   12.3GB   peak:   9.41Gb          rates:   9.38Gb\n",  # cut mid-row, unclosed
    "sar -n DEV:\n" + fence(SAR_AVG.splitlines()[0]),  # a header without rows
    "nload:\n```\nDevice eth0 [10.0.0.2] (1/3):\n=====================================\nIncoming:\n",
])
def test_cut_pastes_are_partial(text: str) -> None:
    _, pasted = parse_pasted(text)
    assert pasted.partial
    assert "pasted.partial" in [n.code for n in pasted.coded]


@pytest.mark.parametrize("text", [
    "iftop:\n```\nTX: \x00\x01 cum: ##### peak: 9.4.4Gb rates: Gb Gb Gb\nRX:\n```",
    "dmon\n```\n# gpu sm\n# Idx %\n 0 x\n 1 200\n```",
    "```\n-net/total-\n recv  send\n ?? ??\n```",
    "ethtool -S\n```\nNIC statistics:\n     rx_prio3_pause: 99999999999999999999999\n```",
    "```\nmlx5_0 port x ==> (Up)\nDEV PORT INDEX GID\n```",
])
def test_garbled_pastes_read_nothing_and_never_raise(text: str) -> None:
    got = _facts(text)
    for key in ("nic.rx_gbps", "nic.tx_gbps", "gpu.util_pct", "nic.pfc", "nic.kind"):
        assert key not in got, (key, got)
