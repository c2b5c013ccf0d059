"""Blind probes in Chinese: short questions the way engineers write them on 知乎, CSDN and the GitHub
issues of Chinese projects (DeepSpeed, Megatron, ColossalAI, LLaMA-Factory, ms-swift, Paddle), mixing in English terms:
counts (N台M卡, N机M卡, N*M, 共N卡, 每台M张), units (G/Gb/GB/Gbps/GB/s/MB/s/万兆/千兆/百兆),
negation (没有IB, 不支持RDMA, 没开GDR), comparisons (单机 vs 多机, 之前 vs 现在, 别人的集群),
hypotheticals (如果换成…, 要不要上…), roles (iperf3 vs nccl-tests vs ib_write_bw, 理论值 vs 实测),
pasted NCCL lines, nvidia-smi figures and hangs.

Written for this battery (not copied from the corpus). Each row names what must be read and what must not be (None);
"total" stands for the derived job.total_gpus. PROBES passed as written; FIXED are the forms the probes found, with
English and Chinese phrasings of each and the readings beside them that must not change; NOT_YET the forms left.
"""

from __future__ import annotations

import pytest

from bwdoctor.chat import answer_turn, understand
from bwdoctor.chat.extract import Understood, _switch_against_nic, _tool_on_its_side
from bwdoctor.chat.scopes import is_negated
from tests.matching import fact_problems

N, G, BN, BG, NEG, T = "job.nodes", "job.gpus_per_node", "job.baseline_nodes", "job.baseline_gpus", \
    "job.negative_scaling", "total"
V, K, R, IP, RB, BB = "nic.speed_gbps", "nic.kind", "nic.rdma", "net.iperf3_gbps", "net.rdma_bw_gbps", \
    "nccl.allreduce_busbw_gbytes_per_s"
TR, GDR, IBD, U, SP, Z = "nccl.transport", "nccl.gdr_disabled", "nccl.ib_disabled", "gpu.util_pct", "job.speedup", \
    "job.zero_stage"
GM, NC, IF, P2P = "gpu.model", "nic.count", "nccl.socket_ifname", "nccl.p2p_disabled"
MP, RTT, ST, STB, MN = "job.model_params_b", "net.rtt_ms", "job.step_time_s", "job.step_time_baseline_s", \
    "job.multi_node"

PROBES: list[tuple[str, dict[str, object]]] = [
    ('两台8卡A800，走的万兆网，训练很慢', {N: 2, G: 8, T: 16, V: 10}),
    ('2机16卡训练 llama2-13b，速度比单机还慢', {N: 2, T: 16, BN: 1, NEG: True}),
    ('4*8 A100 用 deepspeed zero3 训练，机器间是 25G 网卡', {N: 4, G: 8, Z: 3, V: 25}),
    ('共16张卡，分布在两台机器上，IB 网络', {N: 2, G: 8, K: 'infiniband'}),
    ('三台服务器，每台 4 张 3090，千兆交换机', {N: 3, G: 4, V: 1}),
    ('我这边是 2 个节点，每个节点 8 张 H800', {N: 2, G: 8}),
    ('单机多卡训练正常，多机多卡就很慢', {MN: True}),
    ('两机八卡（每台四卡）跑 DDP 很慢', {N: 2, G: 4}),
    ('4 台机器共 32 卡，用的是 RoCE', {N: 4, G: 8, K: 'roce'}),
    ('8 机 64 卡 A100，IB 200G，MFU 只有 20%', {N: 8, G: 8, V: 200, K: 'infiniband'}),
    ('双机双卡，每台一张 4090，千兆网', {N: 2, G: 1, V: 1}),
    ('一台机器 8 张 V100，NVLink，单机 8 卡 allreduce busbw 只有 20GB/s', {N: 1, G: 8, BB: 20}),
    ('两台机器各 8 张 A800，用 IB 连接', {N: 2, G: 8, K: 'infiniband'}),
    ('我们有 4 个节点 × 8 卡 H100', {N: 4, G: 8}),
    ('16 机 128 卡训练 70B 模型', {N: 16, G: 8, MP: 70}),
    ('用 torchrun --nnodes=2 --nproc_per_node=8 启动，机器之间万兆', {N: 2, G: 8, V: 10}),
    ('deepspeed --num_nodes 4 --num_gpus 8 跑起来很慢', {N: 4, G: 8}),
    ('两台 DGX A100，200G IB，多机速度上不去', {N: 2, G: 8, V: 200}),
    ('每台 8 张卡，一共 3 台，走的 socket', {N: 3, G: 8, TR: 'socket'}),
    ('单卡训练一个 step 0.5s，8 卡 DDP 反而要 0.9s', {ST: 0.9}),
    ('从 1 台扩到 4 台，吞吐只提升了 1.6 倍', {N: 4, BN: 1, SP: 1.6}),
    ('2 台机器比 1 台机器还慢', {N: 2, BN: 1, NEG: True}),
    ('双节点训练比单节点还慢一倍', {N: 2, BN: 1, NEG: True}),
    ('从 8 卡扩展到 16 卡，加速比只有 1.2', {BG: 8, T: 16, SP: 1.2}),
    ('我们用了两台 8 卡 4090 服务器，中间是百兆交换机', {N: 2, G: 8, V: 0.1}),
    ('8 卡 A100 * 2 台，RoCE 100G', {N: 2, G: 8, V: 100, K: 'roce'}),
    ('机器是 2 台，GPU 每台 4 块 V100 32G', {N: 2, G: 4}),
    ('四机三十二卡 A800，节点间 4 张 200G IB 卡', {N: 4, G: 8, V: 200, NC: 4}),
    ('机器间是 25Gb 的网卡', {V: 25}),
    ('网卡是 100Gbps 的 Mellanox CX6', {V: 100}),
    ('iperf3 测出来只有 9.4 Gbits/sec', {IP: 9.4}),
    ('iperf3 跑出来 940 Mbits/sec，千兆网', {IP: 0.94, V: 1}),
    ('用 iperf 测了一下带宽只有 1.2GB/s', {IP: 9.6}),
    ('nccl-tests 跑出来 busbw 只有 3 GB/s', {BB: 3}),
    ('all_reduce_perf 测得 busbw 180GB/s，单机 8 卡', {BB: 180, N: 1, G: 8}),
    ('ib_write_bw 测出来 190 Gb/s，网卡是 200G 的', {RB: 190, V: 200}),
    ('ib_write_bw 只有 11000 MB/s', {RB: 92.274688}),  # perftest's MB is 2^20 bytes
    ('万兆网卡，iperf 只能跑到 3Gbps', {V: 10, IP: 3}),
    ('两台机器是 40G 网卡，iperf3 能跑到 37Gbps', {V: 40, IP: 37}),
    ('网卡 10GbE，nccl busbw 只有 0.9GB/s', {V: 10, BB: 0.9}),
    ('千兆网，训练的时候网卡流量一直跑满 110MB/s', {V: 1}),
    ('用 nccl-tests 测 allreduce，算法带宽 algbw 10GB/s，busbw 18.75GB/s',
     {BB: 18.75, 'nccl.allreduce_algbw_gbytes_per_s': 10}),
    ('IB 卡是 HDR 200Gb/s 的，实测只有 100Gb/s', {V: 200}),
    ('网卡是 400G 的 CX7，nccl-tests busbw 只有 40GB/s', {V: 400, BB: 40}),
    ('RoCE 25G 网卡 * 2，bond 起来了', {V: 25, K: 'roce'}),
    ('我们没有 IB，只有普通以太网，能不能多机训练？', {K: 'ethernet', R: False}),
    ('网卡不支持 RDMA，是普通的万兆网卡', {R: False, V: 10}),
    ('没开 GDR，NCCL 走的 IB', {GDR: True, TR: 'ib'}),
    ('NCCL_IB_DISABLE=1 之后速度很慢', {IBD: True}),
    ('设置了 NCCL_P2P_DISABLE=1', {P2P: True}),
    ('机器上没有 NVLink，只有 PCIe', {'gpu.nvlink': False}),
    ('没有用 RDMA，走的是 TCP', {TR: 'socket'}),
    ('服务器之间没有 InfiniBand，用的 RoCE', {K: 'roce'}),
    ('不是 IB 网络，是 25G 以太网', {K: 'ethernet', V: 25}),
    ('机器不支持 GPUDirect RDMA', {}),
    ('还没有测过 nccl-tests，只知道网卡是 100G', {V: 100, BB: None}),
    ('没装 nv_peer_mem，GDR 用不了', {}),
    ('不想用 IB，万兆能不能跑 7B 的多机训练？', {V: 10, MP: 7}),
    ('单机 8 卡一个 step 1.2s，两机 16 卡一个 step 2.5s', {N: 2, BN: 1, ST: 2.5, STB: 1.2}),
    ('之前用万兆网是 3 秒一个 step，现在换成 100G IB 变成 1 秒', {V: 100}),
    ('别人的集群 busbw 能到 180GB/s，我们的只有 20GB/s', {BB: 20}),
    ('单机训练 GPU 利用率 95%，多机只有 40%', {U: 40}),
    ('一台机器跑 1000 tokens/s，两台才 1200 tokens/s', {N: 2, BN: 1}),
    ('同样的代码在 A100 集群上很快，在我们 4090 集群上很慢', {}),
    ('和单机比，双机速度只提升了 20%', {N: 2, BN: 1}),
    ('以前 4 台机器训练一个 epoch 2 小时，现在 8 台要 3 小时', {N: 8, BN: 4, NEG: True}),
    ('多机训练速度只有单机的一半', {BN: 1, NEG: True}),
    ('跨机的 busbw 只有机内的十分之一', {}),
    ('如果换成 100G 的 IB，能快多少？现在是万兆', {V: 10}),
    ('要不要上 IB？现在 2 台 8 卡 A100 用的 25G 以太网', {N: 2, G: 8, V: 25, K: 'ethernet'}),
    ('假如把千兆换成万兆，训练会快吗？', {V: 1}),
    ('是否有必要买 400G 的网卡？目前是 100G RoCE', {V: 100, K: 'roce'}),
    ('打算再加两台机器，现在是两台 8 卡 H800', {N: 2, G: 8}),
    ('考虑换成 ZeRO2，现在用的 ZeRO3 很慢', {Z: 3}),
    ('iperf3 测了 23Gbps，nccl-tests busbw 2.5GB/s，网卡 25G', {IP: 23, BB: 2.5, V: 25}),
    ('理论带宽 200Gb/s，实测 ib_write_bw 只有 96Gb/s', {RB: 96, V: 200}),
    ('网卡标称 100G，iperf 实测 40G', {V: 100, IP: 40}),
    ('ib_write_bw 195Gb/s 正常，但是 nccl-tests 只有 10GB/s', {RB: 195, BB: 10}),
    ('iperf3 单流 9.4G，多流也是 9.4G', {IP: 9.4}),
    ('按理说 200G IB 的 busbw 应该有 24GB/s，结果只有 6GB/s', {V: 200, BB: 6}),
    ('ethtool 显示 Speed: 25000Mb/s', {V: 25}),
    ('ibstat 显示 Rate: 200，State: Active', {V: 200}),
    ('ping 延迟 0.2ms，iperf3 9.3Gbps', {RTT: 0.2, IP: 9.3}),
    ('两台机器 ping 延迟 5ms，跨机房', {RTT: 5}),
    ('日志里有 NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>，是不是没走 IB？', {TR: 'socket', IF: 'eth0'}),
    ('NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.1.1.1<0>，busbw 还是很低', {TR: 'ib'}),
    ('NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/Socket/0，速度很慢', {TR: 'socket'}),
    ('NCCL INFO Channel 00 : 3[3] -> 11[3] [send] via NET/IB/0/GDRDMA', {TR: 'ib'}),
    ('NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal implementation', {}),
    ('export NCCL_SOCKET_IFNAME=ens3f0 之后还是慢', {IF: 'ens3f0'}),
    ('设置了 NCCL_SOCKET_IFNAME=eth0 NCCL_IB_DISABLE=1，两机训练', {IF: 'eth0', IBD: True, N: 2}),
    ('NCCL_DEBUG=INFO 显示 NET/IB，但是没有 GDRDMA', {TR: 'ib'}),
    ('nvidia-smi 看 GPU 利用率一直在 0% 到 100% 之间跳', {}),
    ('GPU 利用率只有 30% 左右，CPU 占用 100%', {U: 30, 'cpu.util_pct': 100}),
    ('GPU-Util 一直是 100%，但是速度还是很慢', {U: 100}),
    ('8 张卡的利用率只有 20%-40%', {}),
    ('显存占满了，但是利用率很低', {}),
    ('多机训练卡住不动，NCCL 超时', {}),
    ('两台机器一起跑就 hang 住，单机正常', {N: 2}),
    ('训练到 init_process_group 就卡住了', {}),
    ('报错 Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, Timeout(ms)=1800000)',
     {}),
    ('LLaMA-Factory 多机训练 qwen2-72b，两台 8 卡 A800，速度非常慢', {N: 2, G: 8, MP: 72}),
    ('ms-swift 双机微调 Qwen-14B，万兆网络', {MP: 14, V: 10, N: 2}),
    ('Megatron 训练 TP=8 PP=2，两个节点', {'job.tp_degree': 8, 'job.pp_degree': 2, N: 2}),
    ('ColossalAI gemini 训练，2 机 8 卡，每台 4 卡', {N: 2, G: 4}),
    ('PaddlePaddle fleet 多机训练，4 台 V100，每台 8 卡', {N: 4, G: 8}),
    ('用 DeepSpeed ZeRO-2 训练 7B，两机 16 卡，通信占了 60% 的时间', {Z: 2, MP: 7, N: 2, 'job.comm_time_pct': 60}),
    ('zero3 + offload 训练 13B，单机 8 卡 A100', {Z: 3, MP: 13, N: 1, G: 8}),
    ('FSDP 训练 7B 模型，两台机器 RoCE', {'job.parallelism': 'fsdp', MP: 7, N: 2, K: 'roce'}),
    ('bf16 混合精度，global batch size 1024，两机 16 卡',
     {'job.precision': 'bf16', 'job.global_batch_size': 1024, N: 2}),
    ('梯度累积 8 步，micro batch 4，8 机 64 卡', {'job.grad_accum_steps': 8, 'job.micro_batch_size': 4, N: 8, G: 8}),
    ('A100 80G 两台，每台 8 卡，200G IB', {N: 2, G: 8, V: 200}),
    ('epoch 10 开始变慢，4 台机器', {N: 4}),
    ('batch size 32，两台机器，每台 2 卡', {N: 2, G: 2}),
    ('端口 29500，master 在 node0，两台机器各 8 卡', {N: 2, G: 8}),
    ('网卡 eth0 是 10G 的，eth1 是 100G 的，NCCL 走的 eth0', {IF: 'eth0'}),
    ('服务器有 2 张 100G 网卡，8 张 A100', {NC: 2, V: 100}),
    ('Qwen-7B 在 8 卡 4090 上训练，PCIe 4.0 x16', {MP: 7, G: 8, 'gpu.pcie_gen': 4, 'gpu.pcie_width': 16}),
    ('seq_len 4096，两台 8 卡 H100，IB NDR 400G', {'job.seq_len': 4096, N: 2, G: 8, V: 400}),
    ('训练 3 个 epoch 用了 10 小时，单机 8 卡', {N: 1, G: 8}),
    ('显卡是 3090 24G，共 4 台', {N: 4}),
    ('第 2 台机器的网卡是 25G，其余都是 100G', {}),
    ('我们是 k8s 集群，pod 之间用 calico 网络，两台 8 卡', {N: 2, G: 8, 'net.pod_overlay': True}),
    ('MTU 是 1500，万兆网卡', {'nic.mtu': 1500, V: 10}),
    ('IB 卡 4 张，每张 200G，GPU 8 张 A800，两台', {NC: 4, V: 200, N: 2, G: 8}),
    ('nvidia-smi topo -m 显示 GPU 和网卡之间是 SYS', {'gpu.nic_path': 'sys'}),
    ('PFC 没开，RoCE 网络丢包严重', {'nic.pfc': False, K: 'roce'}),
    ('各位大佬，两台服务器每台8张A800，IB是200G的，跑llama-factory多机训练速度只有单机的1.3倍，正常吗',
     {N: 2, G: 8, V: 200, K: 'infiniband'}),
    ('目前 2 机 * 8 卡 H800，节点间 8 张 400G 的 IB 卡，nccl-tests 跑出来 busbw 才 100GB/s',
     {N: 2, G: 8, V: 400, NC: 8, BB: 100}),
    ('集群有 10 台机器，这次只用了其中 2 台，每台 8 卡', {N: 2, G: 8}),
    ('两台机器都是 8 卡 A100，一台 PCIe 版一台 SXM 版', {N: 2, G: 8}),
    ('单台机器 4 卡，总共 8 台，32 卡一起训练', {N: 8, G: 4, T: 32}),
    ('机器：2 台；GPU：8×A800；网络：万兆', {N: 2, G: 8, V: 10}),
    ('硬件配置：4 节点，每节点 8 卡 A100 40G，100G RoCE', {N: 4, G: 8, V: 100, K: 'roce'}),
    ('我用 2 台机器，每台机器 2 张卡，共 4 张卡做分布式训练', {N: 2, G: 2, T: 4}),
    ('两台 4 卡 2080Ti', {N: 2, G: 4}),
    ('节点数 4，每节点 GPU 数 8', {N: 4, G: 8}),
    ('nnodes=2, nproc_per_node=4，两台机器之间用网线直连', {N: 2, G: 4}),
    ('跑 nccl-tests 的 all_reduce_perf -b 8 -e 8G -f 2 -g 8，busbw 最大只有 8.5', {BB: 8.5}),
    ('all_reduce_perf 结果 Avg bus bandwidth : 1.25', {BB: 1.25}),
    ('ib_write_bw -d mlx5_0 测出来 BW average 23000 MB/sec', {RB: 192.937984}),
    ('iperf3 -c 10.0.0.2 -P 8 测出 9.41 Gbits/sec', {IP: 9.41}),
    ('网卡是 2*100G，bond4 模式', {V: 100, NC: 2}),
    ('两台机器之间带宽只有 100MB/s 左右', {}),
    ('万兆网卡实测只有 5 Gbps', {V: 10}),
    ('网卡速率 100Gb/s，但是 ethtool 看只协商到了 25Gb/s', {'nic.max_speed_gbps': 100, V: 25}),
    ('IB 网卡显示 rate 是 100 Gb/sec (4X EDR)', {V: 100}),
    ('服务器没插 IB 卡，只有板载的千兆口', {V: 1}),
    ('GPU 之间没有 P2P，nvidia-smi topo 显示 SYS', {'gpu.nic_path': None}),
    ('IB 卡装了但是 NCCL 没有用上，日志里是 NET/Socket', {TR: 'socket'}),
    ('ACS 没关，P2P 很慢', {'pcie.acs_enabled': True}),
    ('没用 docker，物理机直接跑', {}),
    ('单机 8 卡 3.5 s/it，双机 16 卡 6 s/it', {N: 2, BN: 1, ST: 6, STB: 3.5}),
    ('单机吞吐 2000 samples/s，双机才 2400 samples/s，扩展效率只有 60%',
     {N: 2, BN: 1, 'job.scaling_efficiency_pct': 60}),
    ('1 机 8 卡：每秒 3000 tokens；2 机 16 卡：每秒 3500 tokens', {N: 2, BN: 1, G: 8}),
    ('我们的 busbw 只有官方的一半，官方是 190GB/s', {}),
    ('升级到 400G 之前，busbw 是 20GB/s，升级后还是 20GB/s', {V: 400, BB: 20}),
    ('换成 IB 以后反而比 RoCE 还慢', {}),
    ('4 机比 2 机还慢', {N: 4, BN: 2, NEG: True}),
    ('扩到 4 台之后速度还不如 2 台', {N: 4, BN: 2, NEG: True}),
    ('是不是一定要 IB 才能跑多机？我们只有万兆', {V: 10}),
    ('有没有必要上 RDMA？现在是 25G TCP', {V: 25}),
    ('假设有 400G IB，busbw 应该能到多少', {V: None}),
    ('打算把万兆升级成 25G，值得吗', {V: 10}),
    ('要不要开 GDR？目前 NCCL 走的 IB 但是没有 GDRDMA', {TR: 'ib'}),
    ('是否需要把 ZeRO3 换成 ZeRO2 来减少通信', {}),
    ('理论上 100G 网卡 busbw 应该有 12GB/s，实际只有 3GB/s', {V: 100, BB: 3}),
    ('nccl-tests 的 busbw 是 20，iperf 是 90G', {BB: 20, IP: 90}),
    ('ib_read_bw 测试 96Gb/s，ib_write_bw 97Gb/s', {RB: 97}),
    ('网卡流量监控看只有 3Gbps，万兆卡', {V: 10}),
    ('NCCL INFO Using network Socket', {TR: 'socket'}),
    ('NCCL INFO Using network IB', {TR: 'ib'}),
    ('NCCL INFO NET/IB : No device found.', {TR: 'socket'}),
    ('NCCL INFO Bootstrap : Using eth0:192.168.1.10<0>', {}),
    ('NCCL version 2.18.1+cuda12.1', {'nccl.version': '2.18.1'}),
    ('NCCL INFO NCCL_IB_DISABLE set by environment to 1.', {IBD: True}),
    ('NCCL INFO NCCL_SOCKET_IFNAME set by environment to ib0', {IF: 'ib0'}),
    ('nvidia-smi 显示 GPU 利用率 100%，功耗只有 150W', {U: 100}),
    ('GPU 利用率在 50% 上下波动', {U: 50}),
    ('训练一会儿就卡住，nvidia-smi 显示所有卡 100% 利用率', {}),
    ('多机训练跑几个小时后 hang 住，报 NCCL timeout', {}),
    ('两台机器跑 nccl-tests 直接卡住不动', {N: 2}),
    ('多机一启动就 hang 在 NCCL INFO Bootstrap', {}),
    ('ping 是通的，但是 NCCL 连不上，报 Connection refused', {}),
    ('【求助】多机训练速度慢。环境：2台服务器，每台8张A800 80G，节点间通过4张200G IB卡互联。'
     '现象：单机8卡每个step约1.1s，双机16卡每个step约2.3s。',
     {N: 2, G: 8, V: 200, NC: 4, ST: 2.3, STB: 1.1, BN: 1}),
    ('使用 deepspeed 跑多机，hostfile 里写了 node1 slots=8 和 node2 slots=8，速度很慢', {N: 2, G: 8}),
    ('三台机器共 24 张 4090，千兆交换机，用 ZeRO-3 训练 qwen 7b', {N: 3, G: 8, V: 1, Z: 3, MP: 7}),
    ('训练的时候两台机器之间的带宽只有 1Gb 左右，网卡是万兆的', {V: 10}),
    ('nccl-tests 两机跑出来 algbw 5.2GB/s busbw 9.75GB/s', {BB: 9.75}),
    ('all_reduce_perf 的 busbw 只有 0.2 GB/s，走的是千兆网', {BB: 0.2, V: 1}),
    ('节点内 busbw 有 230GB/s，跨节点只有 12GB/s', {BB: 12}),
    ('万兆网 iperf 只有 2.5Gbits/sec，是不是网线的问题', {V: 10, IP: 2.5}),
    ('iperf3 测得的带宽是 94.1 Gbits/sec，网卡 100G', {IP: 94.1, V: 100}),
    ('两个节点的 ping 延时 0.05ms', {RTT: 0.05}),
    ('网卡是 Mellanox ConnectX-6 200Gb/s，装了 OFED', {V: 200}),
    ('用的阿里云 ecs.gn7e，两台，每台 8 卡 A100', {N: 2, G: 8}),
    ('8 卡 H100 服务器两台，NVLink + 8*400G IB，busbw 只有 150GB/s', {N: 2, G: 8, V: 400, NC: 8, BB: 150}),
    ('机器上有 IB 卡，但是没有 IB 交换机，只能走以太网', {}),
    ('现在用的是 RoCE v2，GID index 是 3', {K: 'roce', 'nic.gid_index': 3}),
    ('没开巨帧，MTU 还是 1500', {'nic.mtu': 1500}),
    ('NVLink 没有，PCIe 4.0 的 8 卡 4090', {'gpu.nvlink': False, G: 8}),
    ('不是 NVLink 版本的 A100，是 PCIe 版', {'gpu.nvlink': False}),
    ('IB 网卡装了驱动，但 ibstat 显示 State: Down', {}),
    ('双机 16 卡的吞吐只有单机 8 卡的 1.1 倍', {N: 2, BN: 1, SP: 1.1}),
    ('单机 4 卡 2.1 it/s，两机 8 卡 1.3 it/s', {N: 2, BN: 1, G: 4, NEG: None}),
    ('两台机器的训练速度和一台差不多', {N: 2, BN: 1}),
    ('换了 IB 之后 step time 从 3.2s 降到 1.5s，但还是比单机慢', {ST: 1.5}),
    ('4 机扩展效率只有 40%，2 机有 80%', {N: 4, 'job.scaling_efficiency_pct': 40}),
    ('要是用 ZeRO2 + 梯度累积 4，会不会好一点', {Z: None}),
    ('把 NCCL_IB_DISABLE 设置成 1 以后就正常了', {IBD: True}),
    ('加了 NCCL_IB_HCA=mlx5_0,mlx5_1 以后 busbw 翻倍', {'nccl.ib_hca': 'mlx5_0,mlx5_1'}),
    ('NCCL_SOCKET_IFNAME=bond0，NCCL_IB_DISABLE=0', {IF: 'bond0', IBD: False}),
    ('nvidia-smi 里 8 张卡的 GPU-Util 都是 30% 左右，显存用了 70G', {U: 30}),
    ('GPU 利用率经常掉到 0，然后又回到 100%', {}),
    ('CPU 占用率很高，接近 100%，GPU 利用率 40%', {U: 40}),
    ('训练 hang 在第一个 allreduce，py-spy 看卡在 ncclAllReduce', {}),
    ('NCCL timeout，日志里有 Connection reset by peer', {}),
    ('跑着跑着某一台机器的 GPU 利用率掉到 0，其他机器都在等它', {}),
    ('Megatron-LM 训练 GPT 175B，128 台 8 卡 A100，TP=8，PP=16',
     {N: 128, G: 8, MP: 175, 'job.tp_degree': 8, 'job.pp_degree': 16}),
    ('LLaMA-Factory 用 deepspeed zero3 offload，两机 16 卡 3090 微调 qwen1.5-14b', {N: 2, T: 16, Z: 3, MP: 14}),
    ('swift sft 多机，NNODES=2 NPROC_PER_NODE=8，万兆网', {N: 2, G: 8, V: 10}),
    ('两机十六卡，通信时间占比 70%，计算只占 30%', {N: 2, 'job.comm_time_pct': 70}),
    ('两台 8 卡 A100，每台有 2 个 100G 的 RoCE 网口', {N: 2, G: 8, V: 100, NC: 2, K: 'roce'}),
    ('网卡 100G，交换机是 400G 的，但是只有一个 100G 上联', {V: 100}),
    ('IB 是 EDR 的，100Gbps', {V: 100, K: 'infiniband'}),
    ('两台 8 卡 A800，其中一台的网卡只协商到 100G，另一台是 200G', {N: 2, G: 8}),
    ('GPU 直通的虚拟机，两台，每台 4 卡 V100', {N: 2, G: 4}),
    ('训练速度 1.5 it/s，8 卡单机；加一台机器之后变成 0.8 it/s', {}),
    ('多机多卡的时候 loss 正常但是速度慢了 3 倍', {MN: True}),
    ('万兆光口，两台机器用 DAC 线直连', {V: 10}),
    ('两台机器都是 ConnectX-5 100G 网卡，但是交换机只有 25G 的口', {V: 25}),
    ('集群是 RoCE 组网，每台 8 张 200G 网卡，一共 16 台', {K: 'roce', V: 200, NC: 8, N: 16}),
    ('NCCL_IB_GID_INDEX=3 设置了，还是很慢', {'nic.gid_index': 3}),
    ('NCCL_NET_GDR_LEVEL=5，NCCL_IB_HCA=mlx5', {}),
    ('nccl-tests 8 卡单机 busbw 230GB/s，16 卡双机 busbw 45GB/s', {BB: 45}),
    ('两台机器 ping 延迟在 0.1ms 左右，带宽 10G', {RTT: 0.1, V: 10}),
    ('跨节点带宽测试只有 800MB/s', {}),
    ('节点之间是 25Gbps 的以太网，没有 RDMA', {V: 25, K: 'ethernet', R: False}),
    ('GDR 已开启，NCCL 日志显示 GDRDMA', {GDR: False}),
    ('单机 8 卡的 MFU 45%，四机 32 卡只有 25%', {N: 4, BN: 1}),
    ('如果把 TP 从 8 改成 4，通信会不会少一点？', {'job.tp_degree': None}),
    ('要不要把 NCCL_SOCKET_IFNAME 改成 ib0？现在是 eth0', {}),
    ('要不要上 NVLink 桥？现在两张 3090 走 PCIe', {G: 2}),
    ('8 卡 A100 PCIe 版，没有 NVLink，nccl 单机 busbw 只有 20GB/s', {G: 8, 'gpu.nvlink': False, BB: 20}),
    ('两机四卡（每机两卡），节点间用的 WiFi', {N: 2, G: 2}),
    ('4 台 Mac Studio 组集群训练，雷电口互联', {N: 4}),
    ('ZeRO3 下两机通信量很大，网卡打满 25G', {Z: 3, V: 25}),
    ('训练时 nload 看到网卡流量 9.4Gbit/s，跑满了万兆', {V: 10}),
    ('nvidia-smi 显示 8 张卡都在 100%，但 nccl 在等', {U: 100}),
    ('两台 910B 服务器，每台 8 卡，HCCS 互联', {N: 2, G: 8}),
]

# Forms these probes found unread or misread, now read, one list per form
FIXED: list[tuple[str, dict[str, object]]] = [
    # --- a negated setting whose owner is a fabric
    # ('没开 RoCE 的 PFC', 'PFC is not enabled on the RoCE switch')
    ('没开 RoCE 的 PFC，丢包重传很多', {K: 'roce', R: True, 'nic.pfc': False}),
    ('RoCE 的 PFC 没开', {K: 'roce', R: True, 'nic.pfc': False}),
    ('没有 RoCE 的 ECN 配置', {K: 'roce', 'nic.ecn': False}),
    ('没配交换机的 ECN', {'nic.ecn': False, K: None}),
    ('PFC is not enabled on the RoCE switch', {K: 'roce', R: True, 'nic.pfc': False}),
    ('ECN was not configured on the RoCE NICs', {K: 'roce', 'nic.ecn': False}),
    ('我们没有 RoCE', {R: False}),
    ('we do not have RoCE', {R: False}),
    ('没有 IB 的机器很慢', {R: False}),
    # --- the NIC's load while training after a test's figure
    # ('iperf 9.3G，但是训练时网卡只跑了 2G')
    ('iperf 测试 TCP 带宽 9.3G，但是训练时网卡只跑了 2G', {IP: 9.3, V: None}),
    ('iperf3 测出来 9.4Gbps，不过训练的时候网卡只用了 3Gbps', {IP: 9.4, V: None}),
    ('iperf3 gives 9.4 Gbps, but during training the NIC only carries 2 Gbps', {IP: 9.4, V: None}),
    ('During training the NIC uses about 3 Gbps', {IP: None, V: None}),
    ('训练时 iperf 测出来 3Gbps', {IP: 3}),
    # --- the job after a what-if that names its change with 把
    # ('如果把网卡升级到 100G，两台 8 卡 A100 …')
    ('如果把网卡升级到 100G，两台 8 卡 A100 训练 70B 能快多少？现在是 25G', {N: 2, G: 8, MP: 70, V: 25}),
    ('如果把千兆换成万兆，4 台 8 卡 3090 训练 7B 能快多少？', {N: 4, G: 8, MP: 7, V: 1}),
    ('要是把 ZeRO3 换成 ZeRO2，两机 16 卡会快吗？', {N: 2, T: 16}),
    ('如果用 4 台机器，每台 8 卡，能快多少', {N: None, G: None}),
    ('要是把机器加到 4 台，每台 8 卡，会快吗？现在 2 台', {N: 2}),
    # --- NCCL's interface or sockets in a clause with NCCL left out
    # ('NCCL 没走 IB，走的是 eth0', '日志里还是走 socket')
    ('NCCL 没走 IB，走的是 eth0', {TR: 'socket', IF: 'eth0'}),
    ('NCCL 没走 IB，而是走的 bond0', {TR: 'socket', IF: 'bond0'}),
    ('NCCL 没走 IB，用的是 ens3f0', {TR: 'socket', IF: 'ens3f0'}),
    ('网卡有两个，走的是 eth0', {IF: None}),
    ('怎么让 NCCL 走 IB，走的是 eth0 吗', {IF: None}),
    ('没有设置 NCCL_IB_DISABLE，但是日志里还是走 socket', {TR: 'socket', IBD: None}),
    ('日志显示还是走 socket', {TR: 'socket'}),
    ('一直走 socket 吗', {TR: None}),
    ('我们机房没有 RDMA，用 TCP 跑的 NCCL', {R: False, TR: 'socket'}),
    ('用 TCP 通信，很慢', {TR: 'socket'}),
    ('用 TCP 跑 iperf3 只有 9G', {TR: None, IP: 9}),
    # --- NCCL's transport wished for or asked how to get
    # ('怎么让 NCCL 走 IB', 'force NCCL to use IB')
    ('怎么让 NCCL 走 IB？', {TR: None}),
    ('如何让 NCCL 用 RDMA', {TR: None}),
    ('强制 NCCL 走 IB 的方法', {TR: None}),
    ('希望 NCCL 走 RoCE', {TR: None}),
    ('想让NCCL走IB，但是现在走的socket', {TR: 'socket'}),
    ('How do I force NCCL to use IB?', {TR: None}),
    ('NCCL 走的 IB', {TR: 'ib'}),
    ('NCCL 用的是 socket', {TR: 'socket'}),
    # --- the GPU model said before each machine's share ('两台机器，A100 各 8 张')
    ('两台机器，A100 各 8 张', {N: 2, G: 8, T: 16}),
    ('两台机器，显存 80G 的 A100 各 8 张', {N: 2, G: 8}),
    ('两台服务器，3090 每台 4 块', {N: 2, G: 4}),
    ('4 个节点，H800 各 8 张，IB 400G', {N: 4, G: 8, V: 400}),
    ('两台机器，A100 各有 8 张，IB 200G', {N: 2, G: 8, V: 200}),
    # --- a link rate said of a direct connection ('两台机器直连 100G')
    ('想买 200G 的交换机，现在两台机器直连 100G', {N: 2, V: 100}),
    ('两台机器 25G 直连，iperf3 只有 12Gbps', {N: 2, V: 25, IP: 12}),
    ('两台机器直连，iperf 测出来 9.4Gbps', {N: 2, V: None, IP: 9.4}),
    ('two servers directly connected with 100G', {N: 2, V: 100}),
    # --- a switch's rate beside the NICs'
    # ('交换机是千兆的，网卡是万兆的'): the slower end is the link's
    ('交换机是千兆的，网卡是万兆的', {V: 1, 'nic.max_speed_gbps': 10}),
    ('网卡是万兆的，交换机是千兆的', {V: 1, 'nic.max_speed_gbps': 10}),
    ('网卡 25G，交换机 10G', {V: 10, 'nic.max_speed_gbps': 25}),
    ('The NICs are 25G, the switch only 10G', {V: 10, 'nic.max_speed_gbps': 25}),
    ('交换机是 100G 的，但是服务器网卡只有 25G', {V: 25, 'nic.max_speed_gbps': None}),
    ('100G 网卡，100G 交换机', {V: 100, 'nic.max_speed_gbps': None}),
    # --- Paddle's launcher with its lists
    # ('fleetrun --ips=10.0.0.1,10.0.0.2 --gpus=0,1,2,3,4,5,6,7')
    ('paddle 多机训练 fleetrun --ips=10.0.0.1,10.0.0.2 --gpus=0,1,2,3,4,5,6,7', {N: 2, G: 8}),
    ('python -m paddle.distributed.launch --ips=192.168.0.1,192.168.0.2,192.168.0.3 --gpus 0,1,2,3 train.py',
     {N: 3, G: 4}),
    ('python -m paddle.distributed.launch --ips=10.1.1.1,10.1.1.2 --gpus=0,1,2,3 train.py', {N: 2, G: 4, T: 8}),
    # --- a sequence length said in words
    # ('序列长度 2048', 'sequence length of 4096', '上下文长度是 8k')
    ('模型 13B，序列长度 2048，全局 batch 512，8 机 64 卡',
     {MP: 13, 'job.seq_len': 2048, 'job.global_batch_size': 512, N: 8, G: 8}),
    ('上下文长度是 8k', {'job.seq_len': 8192}),
    ('sequence length of 4096', {'job.seq_len': 4096}),
    ('context length 8k, 2 nodes', {'job.seq_len': 8192, N: 2}),
    ('序列长度要设多少？', {'job.seq_len': None}),
    ('序列长度 2048 和 4096 哪个快', {'job.seq_len': None}),
    ('sequence length 2048 vs 4096', {'job.seq_len': None}),
    # --- a change weighed without a question mark ('考虑把千兆交换机换成万兆的，有必要吗', '打算把…换成…')
    ('考虑把千兆交换机换成万兆的，有必要吗', {V: 1}),
    ('考虑把千兆换成万兆，有必要吗', {V: 1}),
    ('打算把千兆交换机换成万兆的', {V: 1}),
    ('我们已经把千兆换成了万兆', {V: 10}),
    ('考虑把 IB 换成 RoCE，值得吗', {K: 'infiniband'}),
    # --- the job after a what-if that takes up a part at once ('如果上 400G 的 IB，两机训练能…')
    ('如果上 400G 的 IB，两机训练能接近线性加速吗？目前是 100G RoCE', {N: 2, V: 100, K: 'roce'}),
    ('要是换成 RoCE，4 台 8 卡 A100 能快多少？', {N: 4, G: 8, K: None}),
    ('如果上 4 台机器，每台 8 卡，能快多少', {N: None}),
    ('If we moved to 400G IB, could our 2 nodes scale linearly? Today it is 100G RoCE', {N: 2, V: 100, K: 'roce'}),
    # --- a port's rate ('单口 200G', '每个口 100G')
    ('ib_send_bw 测了 185 Gb/s，单口 200G', {V: 200}),
    ('每个口 100G，一共 4 个口', {V: 100, NC: 4}),
    ('两台机器的网卡是单口 100G 的', {N: 2, V: 100}),
    ('单口只能跑到 90Gbps', {V: None}),
    # --- iperf3's streams said before each figure
    # ('多线程能跑 92Gbps，单线程 30Gbps'): the many-stream figure, no link rate
    ('iperf3 多线程能跑 92Gbps，单线程 30Gbps', {IP: 92, V: None}),
    ('iperf3 单线程 30Gbps，多线程 92Gbps', {IP: 92, V: None}),
    ('iperf3 gets 35 Gbps with a single stream, 90 with -P 8', {IP: 90}),
    ('iperf3 -P 8 测出来 90Gbps', {IP: 90}),
    # --- NCCL's transport with 也/都/已经 before the verb ('NCCL 也走了 IB')
    ('RDMA 已经开了，NCCL 也走了 IB，但是速度还是上不去', {TR: 'ib'}),
    ('NCCL 都走的 socket', {TR: 'socket'}),
    ('NCCL 已经用了 IB', {TR: 'ib'}),
    ('NCCL 也走 IB 吗', {TR: None}),
    # (s13) a GPU model left behind: '以前用 A100 …，现在换了 H800' runs on the H800
    ('以前用 A100 集群 busbw 有 180GB/s，现在换了 H800 集群只有 90GB/s', {BB: 90, GM: 'H800'}),
    # (net) a switch slower than the NICs in one English clause: the switch's rate is the link's
    ('Our switch is 1GbE while the NICs are 10GbE', {V: 1}),
]

# Forms not read yet (a strict xfail flips when they are), one per form
NOT_YET: list[tuple[str, dict[str, object]]] = [
    # a scaling efficiency said of a total of GPUs with the baseline after it
    ('32 卡的扩展效率只有 50%，单机 8 卡是基准', {T: 32}),
    # a what-if's setting whose state today is said elliptically after it ('要是开了 GDR …？现在没开')
    ('要是开了 GDR 会不会快一点？现在没开', {GDR: True}),
    # an NCCL WARN line from NET/IB names the transport
    ('NCCL WARN NET/IB : Got completion with error 12, opcode 0, len 0, vendor err 129', {TR: 'ib'}),
    # epochs a day as the rate compared ('反而只能跑 1.5 个')
    ('之前单机 8 卡一天能跑 2 个 epoch，现在两机 16 卡反而只能跑 1.5 个', {NEG: True}),
    # a bare GB/s after another cluster's figure is our busbw
    ('同样是 200G IB，别人能跑到 24GB/s，我只有 12GB/s', {BB: 12}),
    # words after a pasted NCCL line on the same line
    ('NCCL INFO Channel 01/0 : 1[1] -> 9[1] [receive] via NET/IB/1/GDRDMA，busbw 还是只有 10GB/s', {BB: 10}),
    # NCCL unable to use IB said as 用不了 IB, then its interface
    ('NCCL 用不了 IB，走的是 bond0', {TR: 'socket'}),
]


@pytest.mark.parametrize(("text", "expected"), PROBES + FIXED)
def test_zh_probe_read(engine, text: str, expected: dict[str, object]) -> None:
    assert fact_problems(answer_turn(text, engine=engine), expected, total=T) == []


@pytest.mark.xfail(strict=True, reason="a form the reader does not read yet (named above its row)")
@pytest.mark.parametrize(("text", "expected"), NOT_YET)
def test_zh_probe_not_read_yet(engine, text: str, expected: dict[str, object]) -> None:
    assert fact_problems(answer_turn(text, engine=engine), expected, total=T) == []


# --- the layers changed


@pytest.mark.parametrize(("text", "word", "negated"), [
    ("没开 RoCE 的 PFC", "RoCE", False),  # the setting after 的 is what is off
    ("没有配 IB 的 SHARP", "IB", False),
    ("PFC is not enabled on the RoCE switch", "RoCE", False),  # the setting is the subject of the negation
    ("没开 RoCE", "RoCE", True),
    ("没有 IB 的机器", "IB", True),  # a machine without IB: the fabric itself is denied
    ("we do not have RoCE", "RoCE", True),
])
def test_negation_of_a_fabrics_setting(text: str, word: str, negated: bool) -> None:
    start = text.index(word)
    assert is_negated(text, start, start + len(word)) is negated


@pytest.mark.parametrize(("text", "figure", "tool"), [
    ("iperf 测试 9.3G，但是训练时网卡只跑了 2G", "2G", False),
    ("iperf3 gives 9.4 Gbps, but during training the NIC only carries 2 Gbps", "2 Gbps", False),
    ("训练时 iperf 测出来 3Gbps", "3Gbps", True),
    ("训练时网卡 2G，iperf 测出来 9G", "2G", True),  # no turn between: the sentence's tool stands
])
def test_a_tool_on_the_figures_side_of_a_turn(text: str, figure: str, tool: bool) -> None:
    assert _tool_on_its_side(text, text.index(figure)) is tool


def _speed(text: str, said: str, value: float) -> Understood:
    start = text.index(said)
    return Understood("nic.speed_gbps", value, said, start, start + len(said))


def test_a_slower_switch_is_the_links_rate_and_the_nic_its_rating() -> None:
    text = "网卡 25G，交换机 10G"
    nic, switch = _speed(text, "25G", 25.0), _speed(text, "10G", 10.0)
    out = {(h.fact, h.value) for h in _switch_against_nic(text, [nic, switch])}
    assert out == {("nic.speed_gbps", 10.0), ("nic.max_speed_gbps", 25.0)}


def test_a_faster_switch_is_none_of_the_links() -> None:
    text = "交换机 100G，网卡 25G"
    switch, nic = _speed(text, "100G", 100.0), _speed(text, "25G", 25.0)
    assert [(h.fact, h.value) for h in _switch_against_nic(text, [switch, nic])] == [("nic.speed_gbps", 25.0)]


def test_rates_in_other_sentences_are_left_alone() -> None:
    text = "网卡 25G。另一个机房的交换机 10G"
    hits = [_speed(text, "25G", 25.0), _speed(text, "10G", 10.0)]
    assert _switch_against_nic(text, hits) == hits


def test_what_if_consequent_keeps_the_jobs_counts_not_the_change() -> None:
    facts = understand("如果把网卡升级到 100G，两台 8 卡 A100 能快多少？").facts
    assert facts.get(N) == 2 and facts.get(G) == 8 and V not in facts
