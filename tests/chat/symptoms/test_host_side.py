"""The host side of a step in words (host_side.py): the data-wait and sync shares, idle GPUs, the data's disk, /dev/shm.

  - the share of the step the GPUs wait for data, said in words → job.data_wait_pct
  - synchronising parameters or gradients as the communication whose share of the step is said → job.comm_time_pct
  - 'almost zero GPU utilization' (nothing said before the name) → gpu.util_pct 0
  - the data on a spinning disk of the machine (HDD, 机械硬盘) → job.data_source local
  - the size of /dev/shm said after its name → container.shm_gbytes
  - horovodrun's --network-interface, which Horovod hands to NCCL → nccl.socket_ifname
  - 'up to N Gbps' of a cloud instance: the cloud's published cap → node.instance_bandwidth_gbps, not the NIC's speed
  - a tool's usual level ('busbw 一般在 350 左右') → its figure
  - a run over machines with what is run named between ('training VGG11 data-parallel over 16 nodes') → job.nodes

Each case: a short question (EN and ZH), the facts that must be read with their value, or (None) must not be read. The
negatives are look-alikes where the figure means something else: a CPU's or memory's share, a wait for communication,
a question, a disk of the storage server, a size to change to, MPI's own interface, a measurement said 'up to', a
threshold in a trend.
"""

from __future__ import annotations

import pytest

from bwdoctor.chat import answer_turn

WAIT, COMM, GPU, SRC, SHM = ("job.data_wait_pct", "job.comm_time_pct", "gpu.util_pct", "job.data_source",
                             "container.shm_gbytes")
IFNAME, CAP, SPEED, BUSBW, NODES = ("nccl.socket_ifname", "node.instance_bandwidth_gbps", "nic.speed_gbps",
                                    "nccl.allreduce_busbw_gbytes_per_s", "job.nodes")

CASES: list[tuple[str, dict[str, object]]] = [
    # --- the wait for data, said as a share of the step
    ("4 machines, 8 GPUs in total. The GPUs spend more than 60% of the time waiting for data.", {WAIT: 60.0}),
    ("Profiling shows data loading takes 70% of each step on our 2-node job.", {WAIT: 70.0}),
    ("About 45% of the step time is spent in the dataloader.", {WAIT: 45.0}),
    ("两机 16 卡，GPU 有 60% 的时间在等数据，利用率上不去。", {WAIT: 60.0}),
    ("单机 8 卡，数据加载占了每个 step 的 70%，怎么优化？", {WAIT: 70.0}),
    ("profile 看 80% 的时间都花在数据加载上。", {WAIT: 80.0}),
    # not a wait for data: a CPU's share, a wait for communication, a question, GPU memory
    ("The dataloader uses 60% CPU on each node.", {WAIT: None}),
    ("GPU 有 60% 的时间在等通信，两机 25G。", {WAIT: None, COMM: 60.0}),
    ("Is 60% of the time waiting for data normal for ImageNet?", {WAIT: None}),
    ("数据加载占了 70% 的内存。", {WAIT: None}),
    # --- synchronising parameters or gradients
    ("我们 4 个节点用参数服务器训练，参数同步耗时占了 80% 以上。", {COMM: 80.0}),
    ("梯度同步的时间占比 45%，两机 16 卡。", {COMM: 45.0}),
    ("On 4 nodes, gradient sync takes 40% of each step.", {COMM: 40.0}),
    ("Parameter synchronization takes about 75% of the iteration with our PS setup.", {COMM: 75.0}),
    # not a share of time: of bandwidth, asked
    ("梯度同步占了 80% 的带宽。", {COMM: None}),
    ("Would gradient sync taking 40% of each step be normal?", {COMM: None}),
    # --- no load at all, said before the name
    ("ImageNet training with the examples script gets almost zero GPU utilization.", {GPU: 0}),
    ("We see near-zero GPU utilization on both nodes.", {GPU: 0}),
    ("GPU 利用率几乎为 0，数据加载很慢。", {GPU: 0}),
    ("Almost zero packet loss, GPU utilization is 90%.", {GPU: 90.0}),
    # --- data on a spinning disk of the machine
    ("两张 Titan 训练 AlexNet，数据放在机械硬盘（HDD）上，很慢。", {SRC: "local"}),
    ("The dataset is on a local HDD and the 8 GPUs are starving.", {SRC: "local"}),
    ("The training images are read from a spinning disk on each node.", {SRC: "local"}),
    ("Epoch 0 Loss 6.9 Data 22.3 Time 22.4. 数据放在机械硬盘（HDD）上。", {SRC: "local"}),  # 'Loss' is no OSS
    # the storage server's disks, a checkpoint's disk: not where the job reads its data
    ("Our data is on NFS; the NAS has 12 HDDs in RAID 6.", {SRC: "nas"}),
    ("Checkpoints are saved to an HDD, the data is on NFS.", {SRC: "nas"}),
    # --- /dev/shm's size said after its name
    ("8x H100 in the CI container; its /dev/shm is only 64MB and NCCL fails to create shared memory.", {SHM: 0.064}),
    ("容器默认的 /dev/shm 只有 16MB，8 卡 H100 报 NCCL 共享内存错误。", {SHM: 0.016}),
    ("docker 里 /dev/shm 大小是 64M，单机 8 卡。", {SHM: 0.064}),
    # a size to change to is no size it has
    ("单机 8 卡，/dev/shm 改成 1g 是不是就行了？", {SHM: None}),
    # --- horovodrun's interface is NCCL's
    ("horovodrun -np 8 --network-interface eth0 python train.py is slow; the machines also have ib0 (InfiniBand).",
     {IFNAME: "eth0"}),
    ("启动命令是 `horovodrun -np 16 -H a:8,b:8 --network-interface eth0 python train.py`，机器上还有 ib0。",
     {IFNAME: "eth0"}),
    # MPI's own TCP interface is not NCCL's
    ("mpirun -np 16 --mca btl_tcp_if_include eth0 python train.py, the machines also have ib0.", {IFNAME: None}),
    # --- 'up to N Gbps' of a cloud instance
    ("AWS p3.2xlarge machines, one V100 each, up to 10 Gbps networking. Multi-node BERT is slow.", {CAP: 10.0,
                                                                                                   SPEED: None}),
    ("两台 AWS g4dn.2xlarge，网络最高 25 Gbps，跨机 DDP 很慢。", {CAP: 25.0, SPEED: None}),
    # a measurement said 'up to', a link on our own machines: not a cap of the cloud's
    ("Two AWS g4dn.2xlarge machines, iperf3 gets up to 9 Gbps between them.", {CAP: None}),
    ("Our own cluster: 25G network, busbw reaches up to 10 GB/s.", {CAP: None, SPEED: 25.0}),
    # --- a tool's usual level
    ("248 台 8 卡 H200，all_reduce_perf 的 busbw 一般在 350 左右，但时不时掉到 300 以下。", {BUSBW: 350.0}),
    ("2 nodes of 8x A100: nccl-tests busbw is usually around 180, sometimes 120.", {BUSBW: 180.0}),
    # --- a run over machines, what is run named between
    ("I'm training VGG11 data-parallel over 16 nodes with the NCCL backend.", {NODES: 16}),
    ("We are training ResNet-50 over 4 nodes with Horovod.", {NODES: 4}),
    # a threshold in a trend: not the size of the run
    ("Training slows down over 8 nodes.", {NODES: None}),
    ("We run the job fine over 4 nodes.", {NODES: None}),
]


@pytest.mark.parametrize(("text", "facts"), CASES, ids=[c[0][:60] for c in CASES])
def test_host_side_form(engine, text: str, facts: dict[str, object]) -> None:
    got = answer_turn(text, engine=engine)["facts"]
    for name, value in facts.items():
        if value is None:
            assert name not in got, f"{name} read as {got.get(name)!r}"
        else:
            assert got.get(name) == value, f"{name}: {got.get(name)!r}, expected {value!r}"
