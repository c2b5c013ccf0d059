"""Probes: network and NCCL configuration and the host side, in English and Chinese.

Written blind for this battery in the shapes GitHub issues and forums use (paraphrased, not copied from the corpus):
NCCL_* settings in every place (export lines, mpirun's -x, docker's -e, a pod's env block, os.environ in Python, a
prefix before torchrun, an env dump, said in words with 'set … to', 'is', '设置为', '->'), NCCL INFO lines, NIC speeds
and counts in prose, lspci and nvidia-smi link lines, pod overlays, parallel degrees, batch sizes, data loading said
slow, and whose GPU load a figure is. Each row names the facts that must be read; ("not", v) is a value that must not
be read.

The forms the reader now reads: 'os.environ["NCCL_IB_DISABLE"] = "1"' and 'os.environ.setdefault("NCCL_…", "ens3")';
'NCCL_SOCKET_IFNAME is eth1' (an interface or a number after 'is'); 'NCCL_SOCKET_IFNAME -> eth0'; two settings given
one value ('set GLOO_SOCKET_IFNAME and NCCL_SOCKET_IFNAME both to enp4s0', 'NCCL_SOCKET_IFNAME 和 GLOO_SOCKET_IFNAME
都设成了 eth0'); a run under NCCL_IB_DISABLE=1 beside the run 'without it' (a compared run, not the job's setting);
'two 100GbE ports bonded' and '两个 25G 口' (ports counted before their rate); 'bond0 (mode 4)', '802.3ad' (a bond);
'25G 双口'; '百兆的网'; 'running at x8 Gen3 instead of x16 Gen4' (a width beside a generation is a PCIe link's);
nvidia-smi -q's 'PCIe Generation' block without its 'GPU Link Info' header; lspci's LnkSta lines under words that
name the GPU ('lspci -vvv on the GPU:'); 'tp4pp2' (no longer a port name 'pp2'), 'TP x PP = 4 x 2', 'pipeline 并行 4';
'total batch size of 4096', 'global batch 设的 2048', 'gas=8'; data loading said slow ('数据读取慢', '数据读得很慢',
'the IO speed is quite slow', 'the Dataloader loads data very slowly', 'keeps stalling', 'Loading of batches is
slow', 'Loading data from the disk is the bottleneck'); 'data_time 0.8s of 1.0s' (the loader's share of the step);
an mmcv metric line pasted amid prose; 'docker run --net=host' (no pod overlay); a load said as a range in the
larger run ('With 2 nodes: 40-50%'); 'NVLink gives 300 GB/s but between the nodes we only have 25Gbps' (the link
between the nodes, not a measurement). Then: 'NCCL_SOCKET_IFNAME为ens3', 'NCCL_SOCKET_IFNAME 指定的 eth0', 'we pinned
NCCL to eth1 via NCCL_SOCKET_IFNAME', 'NCCL_NET=Socket'; nvidia-smi -q's 'Link Width' block alone; lspci's lines when
the question names a GPU and no NIC; 'TP/PP/DP = 8/2/4'; TF1's '--ps_hosts' (a parameter server), TensorFlow's
MultiWorkerMirroredStrategy and Horovod (an all-reduce); '--model-parallel-size 2', 'mp_size 4' and a config's
'tensor_parallel: 8'; '全局批次大小 1024'; perftest's '-x 3' and 'using GID 3' (the GID index; not 'GID 0/1/2/3'
listed); 'NCCL goes over IPoIB' (sockets); '100GB NICs' (a port's rate in bits, written in bytes by mistake). Then: a
management port's rate ('NICs: 2x100G + 1x1G management', '另外一个千兆管理口') is not the training NIC's; 'one 200G NIC
per GPU' counts no NICs of the node; '8 ports of 400G per node'; 'per_device_train_batch_size 设的 4', 'batch_size
设置的是 32' (a config key with a Chinese verb of setting); 'IB 被我们禁用了'; 'IO 太慢了'; '数据加载耗时 0.8s，整个
step 1.0s'; 'NCCL is on TCP sockets', '看日志是 socket 通信' (the socket transport); 'the traffic only shows on mlx5_0'
(one NIC used). The forms left are strict xfails.
"""

from __future__ import annotations

import pytest

from tests.matching import read_problems

CASES: list[tuple[str, dict[str, object]]] = [
    # p01-export
    ('export NCCL_SOCKET_IFNAME=ens3f0\nexport NCCL_IB_DISABLE=1\nTraining across 2 nodes is very '
     'slow.',
     {'nccl.socket_ifname': 'ens3f0', 'nccl.ib_disabled': True, 'job.nodes': 2}),
    # p02-mpirun-x
    ('mpirun -np 16 -H a:8,b:8 -x NCCL_SOCKET_IFNAME=eth0 -x NCCL_IB_DISABLE=1 -x NCCL_DEBUG=INFO '
     'python train.py  -- is slow',
     {'nccl.socket_ifname': 'eth0', 'nccl.ib_disabled': True}),
    # p03-k8s-env
    ('Our pod spec:\n    env:\n      - name: NCCL_SOCKET_IFNAME\n        value: "eth0"\n      '
     '- name: NCCL_IB_DISABLE\n        value: "1"\nallreduce across 4 pods is slow.',
     {'nccl.socket_ifname': 'eth0', 'nccl.ib_disabled': True}),
    # p04-os-environ
    ('In my script I set\n    os.environ["NCCL_SOCKET_IFNAME"] = "enp1s0"\n    os.environ[\'NCCL_IB_DISABLE\'] '
     "= '1'\nbut multi node DDP still crawls.",
     {'nccl.socket_ifname': 'enp1s0', 'nccl.ib_disabled': True}),
    # p05-prefix
    ('NCCL_IB_DISABLE=1 NCCL_SOCKET_IFNAME=bond0 torchrun --nnodes 2 --nproc_per_node 8 train.py '
     'is 3x slower than one node',
     {'nccl.ib_disabled': True, 'nccl.socket_ifname': 'bond0', 'job.nodes': 2, 'job.gpus_per_node': 8}),
    # p06-prose-set-to
    ('I set NCCL_SOCKET_IFNAME to ib0 and training on 2 nodes is still slow.',
     {'nccl.socket_ifname': 'ib0'}),
    # p07-zh-set
    ('设置了 NCCL_IB_DISABLE=1 之后两机训练特别慢，NCCL_SOCKET_IFNAME 设成了 eth0',
     {'nccl.ib_disabled': True, 'nccl.socket_ifname': 'eth0'}),
    # p08-env-dump
    ('env | grep NCCL\nNCCL_DEBUG=INFO\nNCCL_SOCKET_IFNAME=eno1\nNCCL_IB_DISABLE=0\nNCCL_IB_GID_INDEX=3\n'
     'Two nodes of A800, RoCE. busbw is low.',
     {'nccl.socket_ifname': 'eno1', 'nccl.ib_disabled': False, 'nic.gid_index': 3, 'nic.kind': 'roce'}),
    # p09-prose-ifname-is
    ('NCCL_SOCKET_IFNAME is eth1 on both machines, NCCL_IB_DISABLE is 1',
     {'nccl.socket_ifname': 'eth1', 'nccl.ib_disabled': True}),
    # p10-zh-ifname-wei
    ('我们把 NCCL_SOCKET_IFNAME 设置为 bond0，NCCL_IB_GID_INDEX 设为 3，两台 A800 走 RoCE',
     {'nccl.socket_ifname': 'bond0', 'nic.gid_index': 3}),
    # p11-p2p-disable
    ('export NCCL_P2P_DISABLE=1 makes it work on 4x 4090 but slow',
     {'nccl.p2p_disabled': True}),
    # p12-gdr-level
    ('GPU Direct RDMA Disabled shows in the NCCL log on our 2 nodes',
     {'nccl.gdr_disabled': True}),
    # p13-docker-e
    ('docker run --gpus all -e NCCL_SOCKET_IFNAME=eth0 -e NCCL_IB_DISABLE=1 --network host image '
     'python train.py; slow across nodes',
     {'nccl.socket_ifname': 'eth0', 'nccl.ib_disabled': True}),
    # p14-yaml-colon
    ('env vars in the slurm script:\n  NCCL_SOCKET_IFNAME: "ib0"\n  NCCL_IB_DISABLE: "0"\nstill '
     'slow on 8 nodes',
     {'nccl.socket_ifname': 'ib0', 'nccl.ib_disabled': False}),
    # p15-question-not-set
    ('Should I set NCCL_IB_DISABLE=1 for our 2 nodes with 25GbE?',
     {'nic.speed_gbps': 25, 'nccl.ib_disabled': ('not', True)}),
    # p16-gid-prose
    ('RoCE v2, gid index 3, 2x 100G per node, NCCL tests give 12 GB/s',
     {'nic.gid_index': 3, 'nic.kind': 'roce', 'nic.speed_gbps': 100, 'nic.count': 2}),
    # p17-gid-env-export
    ('export NCCL_IB_GID_INDEX=5; export NCCL_IB_HCA=mlx5_0,mlx5_1',
     {'nic.gid_index': 5, 'nic.count': 2}),
    # p20-using-network-socket
    ('gpu1:2345:2345 [0] NCCL INFO Using network Socket\ngpu1:2345:2402 [0] NCCL INFO Channel '
     '00/02 :    0   1\ntwo node training is slow',
     {'nccl.transport': 'socket'}),
    # p21-using-network-ib
    ('node1:100:100 [0] NCCL INFO Using network IB\nnode1:100:300 [0] NCCL INFO Channel 00/0 : '
     '7[7] -> 8[0] [send] via NET/IB/0/GDRDMA\nbusbw only 40 GB/s on 2 nodes',
     {'nccl.transport': 'ib', 'nccl.gdr_disabled': False}),
    # p22-via-net-ib-no-gdr
    ('NCCL INFO Channel 00/0 : 15[7] -> 0[0] [receive] via NET/IB/1\nNCCL INFO Channel 01/0 : '
     '15[7] -> 0[0] [receive] via NET/IB/3\nslow',
     {'nccl.transport': 'ib', 'nccl.gdr_disabled': True}),
    # p23-net-socket-using
    ('NCCL INFO NET/Socket : Using [0]eth0:192.168.1.10<0>\nNCCL INFO Using network Socket\n16 '
     'GPUs over 2 nodes, 25GbE',
     {'nccl.transport': 'socket', 'nic.speed_gbps': 25, 'job.nodes': 2}),
    # p24-p2p-ipc-intra
    ('NCCL INFO Channel 00 : 0[0] -> 1[1] via P2P/IPC\nNCCL INFO Channel 00 : 1[1] -> 2[2] via '
     'SHM/direct/direct\nsingle node 4 GPUs, slow allreduce',
     {'nccl.transport': ('not', 'socket')}),
    # p25-net-ib-using
    ('NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE ; OOB bond0:10.0.0.1<0>\n4 nodes,'
     ' busbw 20GB/s',
     {'nccl.transport': 'ib', 'nic.kind': 'roce'}),
    # p26-zh-log-socket
    ('NCCL 日志里显示 Using network Socket，明明有 IB 卡，两机训练很慢',
     {'nccl.transport': 'socket'}),
    # p27-prose-falls-back
    ('NCCL falls back to sockets even though we have InfiniBand HDR on both nodes',
     {'nccl.transport': 'socket', 'nic.kind': 'infiniband'}),
    # p28-zh-tcp
    ('NCCL 走的是 TCP socket，没用上 RDMA，2 机 16 卡',
     {'nccl.transport': 'socket', 'job.nodes': 2}),
    # p29-net-ib-gdr-prose
    ('The log says via NET/IB/0/GDRDMA for every channel, still only 30 GB/s busbw across 4 nodes',
     {'nccl.transport': 'ib', 'nccl.gdr_disabled': False}),
    # p30-zh-25g
    ('两台机器，每台 8 张 3090，25G 网卡，训练比单机还慢',
     {'nic.speed_gbps': 25, 'job.nodes': 2, 'job.gpus_per_node': 8}),
    # p31-zh-wanzhao
    ('机器之间是万兆网络，两机 16 卡训练 7B 很慢',
     {'nic.speed_gbps': 10, 'nic.kind': 'ethernet'}),
    # p32-bonded-100
    ('Each node has two 100GbE ports bonded (LACP), 4 nodes with 8 A100.',
     {'nic.speed_gbps': 100, 'nic.count': 2, 'nic.bonded': True, 'nic.kind': 'ethernet'}),
    # p33-zh-8cx7
    ('每台机器 8 张 CX7 400G 网卡，两台 H800，all_reduce 只有 100GB/s',
     {'nic.count': 8, 'nic.speed_gbps': 400, 'job.nodes': 2}),
    # p34-4x-hdr
    ('Nodes are connected with 4x HDR InfiniBand, 8 GPUs each, 2 nodes',
     {'nic.kind': 'infiniband', 'nic.speed_gbps': 200, 'nic.count': ('not', 4)}),
    # p35-dual-port-cx6
    ('We have a dual-port ConnectX-6 100Gb card in each server, RoCE, 2 servers',
     {'nic.kind': 'roce', 'nic.speed_gbps': 100}),
    # p36-zh-4-zhang-200g
    ('每个节点 4 张 200G IB 网卡，4 个节点，训练速度上不去',
     {'nic.count': 4, 'nic.speed_gbps': 200, 'nic.kind': 'infiniband', 'job.nodes': 4}),
    # p37-zh-qianzhao
    ('两台服务器用千兆交换机连的，DDP 非常慢',
     {'nic.speed_gbps': 1, 'nic.kind': 'ethernet'}),
    # p38-8x-400g-ndr
    ('8x 400Gb/s NDR per node, 16 nodes of H100',
     {'nic.count': 8, 'nic.speed_gbps': 400, 'nic.kind': 'infiniband', 'job.nodes': 16}),
    # p39-single-nic-10g
    ('just a single 10Gb NIC per machine, 3 machines with 4 V100 each',
     {'nic.count': 1, 'nic.speed_gbps': 10, 'job.nodes': 3}),
    # p40-bond-zh
    ('两个 25G 口做了 bond，两台机器',
     {'nic.speed_gbps': 25, 'nic.count': 2, 'nic.bonded': True}),
    # p41-100g-roce-x2
    ('Network: 2 x 100 Gbps RoCE v2 (Mellanox CX-6) per host',
     {'nic.count': 2, 'nic.speed_gbps': 100, 'nic.kind': 'roce'}),
    # p42-zh-ib-200
    ('集群是 200G 的 InfiniBand，每台 8 卡 A100，4 台',
     {'nic.speed_gbps': 200, 'nic.kind': 'infiniband'}),
    # p43-nic-name
    ('NCCL picks ens3 but the fast NIC is ens5f0 (100GbE). 2 nodes.',
     {'nic.speed_gbps': 100}),
    # p44-10gbe-rdma-no
    ('plain 10GbE between the boxes, no InfiniBand, no RoCE',
     {'nic.speed_gbps': 10, 'nic.kind': 'ethernet', 'nic.rdma': False}),
    # p45-one-nic-used
    ('each node has 4 x 100G NICs but NCCL only uses one of them',
     {'nic.count': 4, 'nic.speed_gbps': 100, 'net.one_nic_used': True}),
    # p46-zh-one-nic
    ('每台 4 张 200G 网卡，但是只走了一张网卡',
     {'net.one_nic_used': True, 'nic.count': 4}),
    # p47-40gbe
    ('40GbE interconnect, 2 x DGX-1',
     {'nic.speed_gbps': 40, 'nic.kind': 'ethernet'}),
    # p48-zh-bandwidth-100g-not-nic
    ('我们的显存带宽 2TB/s，网卡 100G，两机训练很慢',
     {'nic.speed_gbps': 100}),
    # p49-gbps-ib-edr
    ('EDR IB (100 Gb/s) between 2 nodes, NCCL busbw only 3 GB/s',
     {'nic.speed_gbps': 100, 'nic.kind': 'infiniband'}),
    # p50-lnksta
    ('lspci -vvv on the GPU:\n        LnkCap: Port #0, Speed 16GT/s, Width x16, ASPM not supported\n'
     '        LnkSta: Speed 8GT/s (downgraded), Width x8 (downgraded)\ntraining is slow',
     {'gpu.pcie_gen': 3, 'gpu.pcie_width': 8}),
    # p51-x8-gen3-prose
    ('The A100s are running at x8 Gen3 instead of x16 Gen4 according to nvidia-smi',
     {'gpu.pcie_gen': 3, 'gpu.pcie_width': 8}),
    # p52-zh-pcie
    ('nvidia-smi -q 显示 GPU 的 PCIe 链路是 Gen3 x8，最大是 Gen4 x16',
     {'gpu.pcie_gen': 3, 'gpu.pcie_width': 8}),
    # p53-pcie4-x16
    ('4x RTX 4090 on PCIe 4.0 x16 slots, no NVLink, DDP is slow',
     {'gpu.pcie_gen': 4, 'gpu.pcie_width': 16}),
    # p54-link-width-x4
    ('one of the GPUs only negotiated PCIe Gen4 x4 (riser card)',
     {'gpu.pcie_width': 4, 'gpu.pcie_gen': 4}),
    # p55-nvsmi-q
    ('nvidia-smi -q\n            PCIe Generation\n                Max                       : '
     '4\n                Current                   : 1\n            Link Width\n              '
     '  Max                       : 16x\n                Current                   : 16x\nGPU '
     'util is low',
     {'gpu.pcie_gen': 1, 'gpu.pcie_width': 16}),
    # p60-calico
    ('The training pods run on Kubernetes with Calico (IP-in-IP), NCCL over eth0, 4 nodes',
     {'net.pod_overlay': True}),
    # p61-flannel
    ('k8s 集群用的 flannel vxlan 网络，pytorchjob 两个 worker 训练很慢',
     {'net.pod_overlay': True}),
    # p62-hostnetwork
    ('hostNetwork: true is set on the pods; 2 nodes, 100G RoCE',
     {'net.pod_overlay': False}),
    # p63-pod-network-cni
    ('the pods talk over the default CNI (cilium) pod network, not the host network',
     {'net.pod_overlay': True}),
    # p64-zh-k8s-overlay
    ('在 k8s 上跑，pod 之间走的是 calico 网络，没有用 hostNetwork',
     {'net.pod_overlay': True}),
    # p70-tp8pp2
    ('Megatron GPT 175B, TP=8 PP=2, 16 nodes',
     {'job.tp_degree': 8, 'job.pp_degree': 2, 'job.nodes': 16}),
    # p71-args
    ('pretrain_gpt.py --tensor-model-parallel-size 4 --pipeline-model-parallel-size 2 --micro-batch-size '
     '1 --global-batch-size 512',
     {'job.tp_degree': 4, 'job.pp_degree': 2, 'job.micro_batch_size': 1, 'job.global_batch_size': 512}),
    # p72-tp4pp2
    ('llama-70b tp4pp2 on 4 nodes of 8 H100, step time 9s',
     {'job.tp_degree': 4, 'job.pp_degree': 2}),
    # p73-zh-pipeline
    ('pipeline 并行 4，张量并行 2，一共 4 台机器',
     {'job.pp_degree': 4, 'job.tp_degree': 2}),
    # p74-tp-size
    ('tp_size=2, pp_size=4, dp=4',
     {'job.tp_degree': 2, 'job.pp_degree': 4}),
    # p75-tp-across-nodes
    ('We use TP 8 within each node and PP 4 across the 4 nodes.',
     {'job.tp_degree': 8, 'job.pp_degree': 4}),
    # p76-tp-colon
    ('Parallelism: TP: 2, PP: 1, DP: 8',
     {'job.tp_degree': 2, 'job.pp_degree': 1}),
    # p77-tensor-parallel-degree-of
    ('tensor parallel degree of 8 and pipeline parallel degree of 4 on 32 nodes',
     {'job.tp_degree': 8, 'job.pp_degree': 4}),
    # p78-zh-tp
    ('TP 开到 4，PP 开到 2，训练 Qwen-72B',
     {'job.tp_degree': 4, 'job.pp_degree': 2}),
    # p79-vllm
    ('--tensor-parallel-size 8 --pipeline-parallel-size 2 across 2 nodes',
     {'job.tp_degree': 8, 'job.pp_degree': 2}),
    # p79b-tp8-pp2-comma
    ('tp=8,pp=2 on 2 nodes, step time 12s',
     {'job.tp_degree': 8, 'job.pp_degree': 2}),
    # p80-yaml-batch
    ('train:\n  global_batch_size: 1024\n  micro_batch_size: 2\n  gradient_accumulation_steps: '
     '8\non 8 nodes',
     {'job.global_batch_size': 1024, 'job.micro_batch_size': 2, 'job.grad_accum_steps': 8}),
    # p81-prose-gbs
    ('global batch size is 2048 with micro batch 4 and grad accumulation of 16',
     {'job.global_batch_size': 2048, 'job.micro_batch_size': 4, 'job.grad_accum_steps': 16}),
    # p82-zh-batch
    ('全局 batch size 为 512，每卡 micro batch 是 2，梯度累积 8 步',
     {'job.global_batch_size': 512, 'job.micro_batch_size': 2, 'job.grad_accum_steps': 8}),
    # p83-hf-args
    ('--per_device_train_batch_size 4 --gradient_accumulation_steps 8 on 2 nodes x 8 GPUs',
     {'job.micro_batch_size': 4, 'job.grad_accum_steps': 8}),
    # p84-ds-json
    ('ds_config.json:\n{"train_batch_size": 256, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": '
     '4, "zero_optimization": {"stage": 2}}',
     {'job.global_batch_size': 256, 'job.micro_batch_size': 4, 'job.grad_accum_steps': 4}),
    # p85-mbs-gbs-abbrev
    ('MBS=1, GBS=1536, seq 4096',
     {'job.micro_batch_size': 1, 'job.global_batch_size': 1536}),
    # p86-zh-gbs-prose
    ('总 batch 是 1024，单卡 batch 是 8',
     {'job.global_batch_size': 1024, 'job.micro_batch_size': 8}),
    # p87-batch-per-gpu
    ('batch size of 32 per GPU, 16 GPUs',
     {'job.micro_batch_size': 32}),
    # p90-dataloader-bottleneck
    ('I think the dataloader is the bottleneck: GPU utilization jumps between 0 and 100%.',
     {'job.data_loading_slow': True}),
    # p91-zh-data-slow
    ('GPU 利用率忽高忽低，数据读取慢，2 机 16 卡',
     {'job.data_loading_slow': True}),
    # p92-data-time
    ('data_time 0.8s of 1.0s step time on each iteration',
     {'job.data_wait_pct': 80}),
    # p93-waiting-for-data
    ("the GPUs are mostly waiting for data, the input pipeline can't keep up",
     {'job.data_loading_slow': True}),
    # p94-zh-io
    ('感觉是 IO 瓶颈，数据加载太慢了，GPU 一直在等',
     {'job.data_loading_slow': True}),
    # p95-mmdet-log
    ('Epoch [1][50/1000] lr: 1e-3, eta: 3 days, time: 2.105, data_time: 1.802, memory: 9000, loss: '
     '1.2',
     {'job.data_wait_pct': 85.6}),
    # p96-not-data
    ("It's not the dataloader, data_time is only 0.01s; step time is 1.2s on 2 nodes",
     {'job.data_loading_slow': ('not', True)}),
    # p97-data-loading-takes
    ('data loading takes 70% of the step time',
     {'job.data_wait_pct': 70}),
    # p98-zh-dataloader-kazhu
    ('dataloader 读数据太慢，num_workers 调到 16 也没用',
     {'job.data_loading_slow': True}),
    # pa0-ps
    ('we train with parameter servers: 2 ps and 8 workers on TensorFlow 1.15',
     {'job.comm_pattern': 'parameter_server'}),
    # pa1-horovod-allreduce
    ('Horovod ring-allreduce over 4 nodes, 10GbE',
     {'job.comm_pattern': 'allreduce'}),
    # pa2-zh-ps
    ('用的是 PS 架构，3 台 server，10 台 worker',
     {'job.comm_pattern': 'parameter_server'}),
    # pa3-ddp
    ('PyTorch DDP over 2 nodes, NCCL backend, gradients all-reduced every step',
     {'job.comm_pattern': 'allreduce'}),
    # pa4-async
    ('asynchronous SGD with a parameter server, workers push gradients',
     {'job.comm_pattern': 'parameter_server', 'job.async': True}),
    # pb0-gpu-util
    ('GPU util is around 40% on both nodes during training',
     {'gpu.util_pct': 40}),
    # pb1-cpu-not-gpu
    ('CPU usage is 100% on one core, the GPU sits idle most of the time',
     {'gpu.util_pct': ('not', 100)}),
    # pb2-peak-vs-avg
    ('GPU utilization peaks at 90% but averages around 30%',
     {'gpu.util_pct': 30}),
    # pb3-other-machine
    ('On the single node baseline GPU util was 98%, on 2 nodes it is 45%',
     {'gpu.util_pct': 45}),
    # pb4-zh-cpu
    ('CPU 利用率 95%，GPU 利用率只有 20%',
     {'gpu.util_pct': 20, 'cpu.util_pct': 95}),
    # pb5-zh-peak
    ('GPU 利用率最高能到 100%，大部分时间在 30% 左右',
     {'gpu.util_pct': 30}),
    # pb6-nvidia-smi-other-job
    ("nvidia-smi shows 100% util from another user's job on GPU 0; our job's GPUs are at 50%",
     {'gpu.util_pct': 50}),
    # pb7-cpu-util
    ('htop shows all CPU cores at 100% and GPU-Util is 35%',
     {'cpu.util_pct': 100, 'gpu.util_pct': 35}),
    # pb8-nic-util-not-gpu
    ('NIC utilization is 90% during allreduce on 2 nodes',
     {'gpu.util_pct': ('not', 90)}),
    # pc0-topo-sys
    ('nvidia-smi topo -m shows SYS between the GPUs and mlx5_0, 2 nodes',
     {'gpu.nic_path': 'sys'}),
    # pc1-topo-phb
    ('GPU and NIC are connected through PHB (different PCIe root complex)',
     {'gpu.nic_path': 'phb'}),
    # q01-io-quite-slow
    ('I found the IO speed is quite slow, so GPU utilization is relatively low (~30%) and drops '
     'to 0 every few seconds.',
     {'job.data_loading_slow': True, 'gpu.util_pct': 30}),
    # q02-dataloader-loads-slowly
    ('During training the Dataloader loads data very slowly, the GPU utilization stays at 0% for '
     'a long time, while the CPU is mostly idle.',
     {'job.data_loading_slow': True, 'gpu.util_pct': ('not', 20)}),
    # q03-loading-from-disk-bottleneck
    ('Loading data from the disk is the bottleneck in our setup, each sample opens many files.',
     {'job.data_loading_slow': True}),
    # q04-loading-batches-slow
    ('Loading of batches is slow, GPU-Util hovers around 25% on 2 nodes',
     {'job.data_loading_slow': True, 'gpu.util_pct': 25}),
    # q05-zh-io-bottleneck
    ('感觉是 IO 瓶颈，GPU 一直在等数据，利用率 40% 左右',
     {'job.data_loading_slow': True, 'gpu.util_pct': 40}),
    # q06-zh-duqu-man
    ('数据读得很慢，8 卡利用率都上不去',
     {'job.data_loading_slow': True}),
    # q07-dataloader-stuck
    ('the DataLoader keeps stalling, which results in low GPU utilization',
     {'job.data_loading_slow': True}),
    # q08-input-bound
    ('the training is input-bound: the GPUs starve waiting on the dataloader',
     {'job.data_loading_slow': True}),
    # q09-zh-jiazai-gen-bu-shang
    ('数据加载跟不上 GPU 的速度，num_workers=16',
     {'job.data_loading_slow': True}),
    # q10-zh-dataloader-slow
    ('DataLoader 很慢，多机训练时更明显',
     {'job.data_loading_slow': True}),
    # q20-ifname-backticks
    ('I tried setting `NCCL_SOCKET_IFNAME=enp37s0f0` but the 1G port eno1 is still used for sending.',
     {'nccl.socket_ifname': 'enp37s0f0'}),
    # q21-ifname-list
    ('export NCCL_SOCKET_IFNAME=ens10f0,ens10f1 on each node with 4x 10Gb/s ports',
     {'nccl.socket_ifname': 'ens10f0,ens10f1', 'nic.speed_gbps': 10, 'nic.count': 4}),
    # q22-nccl-conf
    ('I wrote NCCL_SOCKET_IFNAME=eno1 into /etc/nccl.conf on both nodes',
     {'nccl.socket_ifname': 'eno1'}),
    # q23-zh-ifname-zhiding
    ('已经指定了 NCCL_SOCKET_IFNAME=bond0，两台机器 25G 双口 bond',
     {'nccl.socket_ifname': 'bond0', 'nic.speed_gbps': 25, 'nic.bonded': True}),
    # q24-ifname-caret
    ('NCCL_SOCKET_IFNAME=^docker0,lo is set; 2 nodes',
     {'nccl.socket_ifname': '^docker0,lo'}),
    # q25-ifname-bash-script
    ('run.sh:\n#!/bin/bash\nexport NCCL_DEBUG=INFO\nexport NCCL_SOCKET_IFNAME="ib0"\nexport NCCL_IB_HCA=mlx5_0\n'
     'torchrun --nnodes=2 --nproc_per_node=8 train.py',
     {'nccl.socket_ifname': 'ib0', 'job.nodes': 2, 'job.gpus_per_node': 8}),
    # q26-ifname-arrow
    ('NCCL_SOCKET_IFNAME -> eth0, NCCL_IB_DISABLE -> 1',
     {'nccl.socket_ifname': 'eth0', 'nccl.ib_disabled': True}),
    # q27-gloo-and-nccl
    ('set GLOO_SOCKET_IFNAME and NCCL_SOCKET_IFNAME both to enp4s0, still slow',
     {'nccl.socket_ifname': 'enp4s0'}),
    # q28-zh-env-both
    ('NCCL_SOCKET_IFNAME 和 GLOO_SOCKET_IFNAME 都设成了 eth0',
     {'nccl.socket_ifname': 'eth0'}),
    # q29-deepspeed-env-file
    ('.deepspeed_env:\nNCCL_IB_DISABLE=1\nNCCL_SOCKET_IFNAME=eth0\nmulti-node training over 3 '
     'machines is slow',
     {'nccl.ib_disabled': True, 'nccl.socket_ifname': 'eth0'}),
    # q30-ring-via-socket
    ('sh-01:98911:98923 [3] NCCL INFO Ring 00 : 3[b01000] -> 4[201000] [send] via NET/Socket/0\n'
     'sh-03:97552:97571 [3] NCCL INFO Ring 00 : 7[b01000] -> 0[201000] [send] via NET/Socket/0\n'
     "bandwidth didn't improve with two interfaces",
     {'nccl.transport': 'socket'}),
    # q31-zh-tcp-words
    ('看日志 NCCL 用的是 Socket 通信而不是 IB，两机 8 卡',
     {'nccl.transport': 'socket'}),
    # q32-using-ib-words
    ('NCCL is using IB (NET/IB : Using [0]mlx5_0:1/IB), 4 nodes, HDR 200G',
     {'nccl.transport': 'ib', 'nic.kind': 'infiniband', 'nic.speed_gbps': 200}),
    # q33-en-goes-over-tcp
    ('NCCL goes over TCP instead of RoCE on our 2 nodes',
     {'nccl.transport': 'socket'}),
    # q34-zh-zou-ib
    ('NCCL 走的 IB，日志有 NET/IB/0/GDRDMA，但是 busbw 只有 20GB/s',
     {'nccl.transport': 'ib'}),
    # q36-ib-disabled-words-en
    ('we disabled IB with NCCL_IB_DISABLE so NCCL runs over sockets on the 25GbE',
     {'nccl.ib_disabled': True, 'nccl.transport': 'socket', 'nic.speed_gbps': 25}),
    # q37-zh-ib-disable
    ('加了 NCCL_IB_DISABLE=1 才能跑起来，但是很慢',
     {'nccl.ib_disabled': True}),
    # q38-ib-disable-false
    ('NCCL_IB_DISABLE=0, NCCL_IB_HCA=mlx5_0,mlx5_1,mlx5_2,mlx5_3, 4 nodes',
     {'nccl.ib_disabled': False, 'nic.count': 4}),
    # q40-4x-hdr-200-each
    ('Each node has 4x HDR 200Gb/s HCAs',
     {'nic.speed_gbps': 200, 'nic.kind': 'infiniband'}),
    # q41-zh-8-zhang-cx7
    ('8 张 CX7 400G 网卡，H800 两台，NCCL 走 IB',
     {'nic.count': 8, 'nic.speed_gbps': 400, 'job.nodes': 2}),
    # q42-25gb-ethernet
    ('connected via 25 Gbit ethernet switch, 2 nodes x 4 A100',
     {'nic.speed_gbps': 25, 'nic.kind': 'ethernet'}),
    # q43-1gb-port
    ('one 1GB port (eno1) and one 10GB port (enp37s0f0) on each server',
     {'nic.speed_gbps': ('not', 1)}),
    # q44-zh-wanzhao-wangka
    ('服务器之间用万兆网卡连接，3 台 8 卡 4090',
     {'nic.speed_gbps': 10, 'nic.kind': 'ethernet'}),
    # q45-zh-ib-100g
    ('两台 A100 服务器，100G IB 直连，没有交换机',
     {'nic.speed_gbps': 100, 'nic.kind': 'infiniband'}),
    # q46-roce-200g-x8
    ('8 x 200Gb RoCE per A800 node, 4 nodes, busbw 80 GB/s',
     {'nic.count': 8, 'nic.speed_gbps': 200, 'nic.kind': 'roce'}),
    # q47-dual-port-cx6-count
    ('each server has one dual-port ConnectX-6 Dx 100GbE card',
     {'nic.speed_gbps': 100}),
    # q48-gbps-speed-ethtool
    ('ethtool says Speed: 25000Mb/s on ens1f0; 2 nodes',
     {'nic.speed_gbps': 25}),
    # q49-zh-400g-nic-4
    ('每台机器 4 个 400G 网口，RoCE',
     {'nic.count': 4, 'nic.speed_gbps': 400, 'nic.kind': 'roce'}),
    # q50-bond-mode4
    ('bond0 (mode 4) of 2x 25GbE, NCCL_SOCKET_IFNAME=bond0',
     {'nic.bonded': True, 'nic.count': 2, 'nic.speed_gbps': 25, 'nccl.socket_ifname': 'bond0'}),
    # q51-speed-not-busbw
    ('busbw is 10 GB/s and we have 100Gbps NICs',
     {'nic.speed_gbps': 100}),
    # q52-gid-zh
    ('RoCE 环境，GID index 用的是 3，NCCL_IB_HCA=mlx5_0',
     {'nic.gid_index': 3, 'nic.kind': 'roce'}),
    # q53-gid-show-gids
    ('show_gids says index 3 is RoCE v2 for mlx5_0, so I export NCCL_IB_GID_INDEX=3',
     {'nic.gid_index': 3}),
    # q54-gid-k8s-env
    ('env:\n  - name: NCCL_IB_GID_INDEX\n    value: "3"\n  - name: NCCL_IB_HCA\n    value: mlx5_0,'
     'mlx5_1',
     {'nic.gid_index': 3}),
    # q60-lnksta-gpu-zh
    ('GPU 的 lspci 信息：\n    LnkCap: Port #0, Speed 16GT/s, Width x16\n    LnkSta: Speed 2.5GT/s '
     '(downgraded), Width x16\n训练时也是这样',
     {'gpu.pcie_gen': 1, 'gpu.pcie_width': 16}),
    # q61-gen3x16
    ('the 3090s sit in PCIe 3.0 x16 slots through a PLX switch',
     {'gpu.pcie_gen': 3, 'gpu.pcie_width': 16}),
    # q62-x4-riser
    ('two of the cards are only at x4 link width (Gen3) because of the riser',
     {'gpu.pcie_width': 4, 'gpu.pcie_gen': 3}),
    # q64-nic-pcie-not-gpu
    ('the ConnectX-6 NIC sits in a PCIe Gen3 x8 slot',
     {'gpu.pcie_gen': ('not', 3), 'gpu.pcie_width': ('not', 8)}),
    # q70-megatron-yaml
    ('model:\n  tensor_model_parallel_size: 4\n  pipeline_model_parallel_size: 2\n  micro_batch_size: '
     '1\n  global_batch_size: 256',
     {'job.tp_degree': 4, 'job.pp_degree': 2, 'job.micro_batch_size': 1, 'job.global_batch_size': 256}),
    # q71-tp-pp-env
    ('TP_SIZE=8 PP_SIZE=4 bash pretrain.sh on 8 nodes',
     {'job.tp_degree': 8, 'job.pp_degree': 4}),
    # q72-zh-pp-stage
    ('流水线并行度 4，张量并行度 8，数据并行 2',
     {'job.pp_degree': 4, 'job.tp_degree': 8}),
    # q73-tp-in-parens
    ('Llama-2 70B (TP 8, PP 4) on 32 nodes is slow',
     {'job.tp_degree': 8, 'job.pp_degree': 4}),
    # q74-pipeline-of-4
    ('pipeline parallelism of 4 with tensor parallelism of 2',
     {'job.pp_degree': 4, 'job.tp_degree': 2}),
    # q75-tp-x-pp
    ('parallel config TP x PP = 4 x 2, 8 GPUs per node, 2 nodes',
     {'job.tp_degree': 4, 'job.pp_degree': 2}),
    # q76-ds-pipeline
    ('--pipeline-model-parallel-size=4 --tensor-model-parallel-size=2 --num-layers 32',
     {'job.pp_degree': 4, 'job.tp_degree': 2}),
    # q80-bs-per-gpu-zh
    ('每张卡 batch size 16，8 卡，梯度累积 2',
     {'job.micro_batch_size': 16, 'job.grad_accum_steps': 2}),
    # q81-total-batch-prose
    ('total batch size of 4096 across 64 GPUs',
     {'job.global_batch_size': 4096}),
    # q82-gbs-mbs-log
    ("global_batch_size=1024, micro_batch_size=2 and we're on 16 nodes",
     {'job.global_batch_size': 1024, 'job.micro_batch_size': 2}),
    # q83-hf-trainer-log
    ('***** Running training *****\n  Num examples = 100000\n  Num Epochs = 3\n  Instantaneous '
     'batch size per device = 8\n  Total train batch size (w. parallel, distributed & accumulation) '
     '= 256\n  Gradient Accumulation steps = 2',
     {'job.micro_batch_size': 8, 'job.global_batch_size': 256, 'job.grad_accum_steps': 2}),
    # q84-zh-global-batch
    ('global batch 设的 2048，micro batch 1',
     {'job.global_batch_size': 2048, 'job.micro_batch_size': 1}),
    # q85-gas
    ('gas=8, mbs=2, 4 nodes',
     {'job.grad_accum_steps': 8, 'job.micro_batch_size': 2}),
    # q90-weave
    ('pods on k8s with the Weave overlay network, NCCL over eth0 inside the pod',
     {'net.pod_overlay': True}),
    # q91-vxlan
    ('our pod network is VXLAN (flannel), and NCCL sockets go through it',
     {'net.pod_overlay': True}),
    # q92-zh-calico
    ('k8s 用的 calico，训练 pod 之间通信很慢，没有开 hostNetwork',
     {'net.pod_overlay': True}),
    # q93-host-net-docker
    ('docker run --net=host --gpus all ...; 2 nodes, RoCE',
     {'net.pod_overlay': False}),
    # q94-multus
    ('we use multus with macvlan for the RDMA NIC, and the default calico for eth0',
     {'net.pod_overlay': ('not', False)}),
    # qa0-ps-tf
    ('TF distributed training with 1 ps and 4 workers, each worker 1 GPU',
     {'job.comm_pattern': 'parameter_server'}),
    # qa1-zh-allreduce
    ('用 Horovod 做 allreduce，4 台机器，万兆网',
     {'job.comm_pattern': 'allreduce'}),
    # qa2-byteps
    ('BytePS with 2 servers and 2 workers over 25GbE',
     {'job.comm_pattern': 'parameter_server'}),
    # qa3-mxnet-kvstore
    ('mxnet kvstore=dist_sync, 4 workers',
     {'job.comm_pattern': 'parameter_server'}),
    # qa4-ddp-allreduce-words
    ('with DDP the gradient all-reduce takes most of the step',
     {'job.comm_pattern': 'allreduce'}),
    # qb0-util-other-node
    ('node 1 shows 95% GPU util but node 2 only 30%',
     {'gpu.util_pct': ('not', 95)}),
    # qb1-cpu-util-100-gpu-low
    ('CPU utilization is at 100% and the GPU is barely used',
     {'cpu.util_pct': 100, 'gpu.util_pct': ('not', 100)}),
    # qb2-zh-cpu-100
    ('CPU 占用 100%，GPU 利用率很低',
     {'cpu.util_pct': 100, 'gpu.util_pct': ('not', 100)}),
    # qb3-util-spikes
    ('GPU utilization spikes to 100% for a second then sits at 0% for several seconds',
     {'gpu.util_pct': ('not', 100)}),
    # qb4-zh-util-peak
    ('GPU 利用率偶尔到 90%，平均只有 35%',
     {'gpu.util_pct': 35}),
    # qb5-memory-not-util
    ('GPU memory usage is 95% but GPU utilization is 20%',
     {'gpu.util_pct': 20}),
    # qb6-zh-memory-util
    ('显存占用 90%，但 GPU 利用率只有 10%',
     {'gpu.util_pct': 10}),
    # r01-iperf-vs-nic
    ('网卡是 25G 的，iperf3 测出来只有 9.4 Gbits/sec，两台机器',
     {'nic.speed_gbps': 25, 'net.iperf3_gbps': 9.4}),
    # r02-switch-vs-nic
    ('the switch is 100G but the servers only have 25G NICs',
     {'nic.speed_gbps': 25}),
    # r03-upgraded
    ('we upgraded the NICs from 10G to 100G but training is not faster on 2 nodes',
     {'nic.speed_gbps': 100}),
    # r04-storage-vs-train
    ('storage network is 100G, the training network between nodes is 25G',
     {'nic.speed_gbps': 25}),
    # r05-mgmt-1g
    ('each node has a 1G management port and 2x 100G RoCE for training',
     {'nic.speed_gbps': 100, 'nic.count': 2, 'nic.kind': 'roce'}),
    # r06-ethtool-speed
    ('ethtool ens5 shows Speed: 100000Mb/s, the nodes are 2 A100 boxes',
     {'nic.speed_gbps': 100}),
    # r07-zh-gpus-and-nics
    ('每台 8 张 A800，4 张 200G 网卡',
     {'nic.count': 4, 'nic.speed_gbps': 200, 'job.gpus_per_node': 8}),
    # r08-en-gpus-and-nics
    ('8 GPUs and 4 NICs (200Gb/s each) per node',
     {'nic.count': 4, 'nic.speed_gbps': 200, 'job.gpus_per_node': 8}),
    # r09-two-dual-port
    ('two dual-port 100G ConnectX-6 cards per server',
     {'nic.speed_gbps': 100, 'nic.count': ('not', 1)}),
    # r10-link-shows-lower
    ('the 200G HDR cards only come up at 100G (ibstat Rate: 100)',
     {'nic.speed_gbps': 100, 'nic.max_speed_gbps': 200}),
    # r11-gbytes-not-nic
    ('NVLink gives 300 GB/s but between the nodes we only have 25Gbps',
     {'nic.speed_gbps': 25}),
    # r12-zh-expected
    ('理论上 100G 网卡，all_reduce 应该能到 12GB/s，实际只有 3GB/s',
     {'nic.speed_gbps': 100}),
    # r13-k-ethernet-10gig
    ('10 gig ethernet between 2 workstations with 2 RTX 4090 each',
     {'nic.speed_gbps': 10, 'nic.kind': 'ethernet'}),
    # r14-zh-baizhao
    ('两台机器之间是百兆的网，训练特别慢',
     {'nic.speed_gbps': 0.1, 'nic.kind': 'ethernet'}),
    # r15-gbe-count
    ('4x 10GbE per node, NCCL_SOCKET_IFNAME=eth0,eth1,eth2,eth3',
     {'nic.count': 4, 'nic.speed_gbps': 10}),
    # r16-eight-rails
    ('H100 nodes with eight 400G NDR rails, 32 nodes',
     {'nic.count': 8, 'nic.speed_gbps': 400, 'job.nodes': 32}),
    # r17-gpu-util-other-job
    ("nvidia-smi on node2 shows 100% GPU util even when our job isn't running (another team's "
     'job)',
     {'gpu.util_pct': ('not', 100)}),
    # r18-util-single-node
    ('single node: GPU util 99%. With 2 nodes: 40-50%.',
     {'gpu.util_pct': 45}),
    # r19-zh-util-single
    ('单机训练 GPU 利用率 100%，两机只有 50% 左右',
     {'gpu.util_pct': 50}),
    # r20-cpu-load-avg
    ('load average is 64 on a 64-core box and GPU util is 30%',
     {'gpu.util_pct': 30}),
    # r21-zh-cpu-util-single
    ('CPU 利用率才 20%，GPU 利用率 99%，但是多机很慢',
     {'cpu.util_pct': 20, 'gpu.util_pct': 99}),
    # r22-util-volatile
    ('Volatile GPU-Util 0% most of the time, jumps to 100% briefly',
     {'gpu.util_pct': ('not', 100)}),
    # r23-nic-util
    ('the NIC is only at 30% utilization, GPU util 60%',
     {'gpu.util_pct': 60}),
    # r24-sm-util
    ('SM efficiency 20% in nsys, nvidia-smi util 90%',
     {'gpu.util_pct': 90}),
    # r25-transport-expected-ib
    ('I expected NCCL to use IB but NET/Socket is used',
     {'nccl.transport': 'socket'}),
    # r26-transport-other-node
    ('on node A NCCL uses NET/IB, on node B it falls back to NET/Socket',
     {'nccl.transport': ('not', 'ib')}),
    # r27-transport-question
    ('How do I check whether NCCL is using IB or sockets?',
     {'nccl.transport': ('not', 'ib')}),
    # r28-ib-disabled-tried
    ('with NCCL_IB_DISABLE=1 it runs at 1 GB/s, without it it hangs',
     {'nccl.ib_disabled': ('not', True)}),
    # r29-ifname-question
    ('should NCCL_SOCKET_IFNAME be eth0 or ib0?',
     {'nccl.socket_ifname': ('not', 'eth0')}),
    # r30-zh-ifname-question
    ('NCCL_SOCKET_IFNAME 应该设置为 bond0 吗？',
     {'nccl.socket_ifname': ('not', 'bond0')}),
    # r31-ib-disabled-words
    ('IB is disabled on purpose (NCCL_IB_DISABLE=1) because the RoCE setup is broken',
     {'nccl.ib_disabled': True}),
    # r32-ifname-is-not-set
    ('NCCL_SOCKET_IFNAME is not set, so NCCL picks docker0',
     {'nccl.socket_ifname': ('not', 'not')}),
    # r33-gid-is
    ('NCCL_IB_GID_INDEX is 3 and NCCL_IB_TC is 106',
     {'nic.gid_index': 3}),
    # r34-env-python-setdefault
    ("os.environ.setdefault('NCCL_SOCKET_IFNAME', 'ens3')",
     {'nccl.socket_ifname': 'ens3'}),
    # r35-p2p-env-words
    ('we had to set NCCL_P2P_DISABLE to 1 on the 4090s',
     {'nccl.p2p_disabled': True}),
    # r36-tp-dp-words
    ('data parallel 4, tensor parallel 2, pipeline parallel 1',
     {'job.tp_degree': 2, 'job.pp_degree': 1}),
    # r37-tp-across-nodes-zh
    ('TP 跨机了，TP=16，两台 8 卡',
     {'job.tp_degree': 16}),
    # r38-mbs-prose
    ('micro batch size 2, global batch size 512, seq length 4096',
     {'job.micro_batch_size': 2, 'job.global_batch_size': 512}),
    # r39-batch-prose-zh
    ('batch_size 设置的是 32，每卡',
     {'job.micro_batch_size': 32}),
    # r40-bs-epochs-not-batch
    ('trained for 90 epochs with lr 0.1 on 2 nodes',
     {'job.global_batch_size': ('not', 90), 'job.micro_batch_size': ('not', 90)}),
    # s01-link-width-only
    ('nvidia-smi -q | grep -A 3 "Link Width" on one of the A100s:\n        Link Width\n       '
     '     Max                               : 16x\n            Current                       '
     '    : 8x\nis x8 a problem?',
     {'gpu.pcie_width': 8}),
    # s02-lspci-s-gpu-prose
    ('sudo lspci -vvv -s 3b:00.0 | grep Lnk\n        LnkCap: Port #0, Speed 16GT/s, Width x16,'
     ' ASPM not supported\n        LnkSta: Speed 16GT/s, Width x4 (downgraded)\nThe GPU seems '
     'to be slower than the others in the box, training on this card is slow.',
     {'gpu.pcie_width': 4, 'gpu.pcie_gen': 4}),
    # s03-lspci-nic-prose
    ('lspci -vvv -s 5e:00.0 | grep Lnk   (the ConnectX-6)\n        LnkCap: Port #0, Speed 16GT/s,'
     ' Width x16\n        LnkSta: Speed 8GT/s (downgraded), Width x16',
     {'gpu.pcie_gen': ('not', 3)}),
    # s04-zh-gen-prose
    ('4090 插在 PCIe 3.0 x4 的槽上，训练很慢',
     {'gpu.pcie_gen': 3, 'gpu.pcie_width': 4}),
    # s05-gts-prose
    ('the GPU link is running at 2.5 GT/s even under load',
     {'gpu.pcie_gen': 1}),
    # s06-nccl-net-socket
    ("we run with NCCL_NET=Socket because IB doesn't work, 2 nodes",
     {'nccl.transport': 'socket'}),
    # s07-using-network-ibext
    ('n1:1:1 [0] NCCL INFO Using network IBext_v8\nn1:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB '
     '[1]mlx5_1:1/IB ; OOB ib0:10.1.0.1<0>\nbusbw 40 GB/s on 4 nodes',
     {'nccl.transport': 'ib'}),
    # s08-zh-zou-roce
    ('确认 NCCL 走的是 RoCE，不是 socket，2 机 A800',
     {'nccl.transport': 'ib'}),
    # s09-zh-socket-words
    ('NCCL 走的 socket，没有走 IB，训练很慢',
     {'nccl.transport': 'socket'}),
    # s10-en-falls-back-tcp
    ('NCCL falls back to TCP on the second node',
     {'nccl.transport': ('not', 'ib')}),
    # s11-ifname-zh-no-space
    ('我设置了NCCL_SOCKET_IFNAME为ens3，还是很慢',
     {'nccl.socket_ifname': 'ens3'}),
    # s12-ifname-zhiding-de
    ('NCCL_SOCKET_IFNAME 指定的 eth0，IB 也关了',
     {'nccl.socket_ifname': 'eth0'}),
    # s13-pinned
    ('We pinned NCCL to eth1 via NCCL_SOCKET_IFNAME.',
     {'nccl.socket_ifname': 'eth1'}),
    # s14-ib-disable-wei
    ('NCCL_IB_DISABLE为1，走的以太网',
     {'nccl.ib_disabled': True}),
    # s15-via-net-ib-gdr-zh
    ('日志：\nNCCL INFO Channel 00/0 : 8[0] -> 0[0] [receive] via NET/IB/0/GDRDMA\nNCCL INFO Channel '
     '01/0 : 8[0] -> 0[0] [receive] via NET/IB/1/GDRDMA\n4 台机器，busbw 只有 50GB/s',
     {'nccl.transport': 'ib', 'nccl.gdr_disabled': False}),
    # s16-pp-words
    ('Megatron with pipeline parallel size 4 and tensor parallel size 8',
     {'job.pp_degree': 4, 'job.tp_degree': 8}),
    # s17-tp-equals-zh
    ('tp 设置为 2，pp 设置为 4，一共 8 张卡',
     {'job.tp_degree': 2, 'job.pp_degree': 4}),
    # s18-tp-pp-dp-slash
    ('TP/PP/DP = 8/2/4',
     {'job.tp_degree': 8, 'job.pp_degree': 2}),
    # s19-mbs-gbs-zh
    ('micro_batch_size=1，global_batch_size=128，8 机',
     {'job.micro_batch_size': 1, 'job.global_batch_size': 128}),
    # t01-tf-ps-hosts
    ('python train.py --ps_hosts=10.0.0.1:2222 --worker_hosts=10.0.0.2:2222,10.0.0.3:2222 --job_name=worker '
     '--task_index=0, very slow',
     {'job.comm_pattern': 'parameter_server'}),
    # t02-mwms
    ('tf.distribute.MultiWorkerMirroredStrategy over 2 workers is much slower than expected',
     {'job.comm_pattern': 'allreduce'}),
    # t03-paddle-ps
    ('PaddlePaddle fleet 参数服务器模式，2 个 pserver 4 个 trainer，训练很慢',
     {'job.comm_pattern': 'parameter_server'}),
    # t04-grads-allreduced
    ('gradients are averaged with NCCL all_reduce after every backward, 2 nodes x 8 V100',
     {'job.comm_pattern': 'allreduce'}),
    # t05-mp-size
    ('DeepSpeed with mp_size 4 across 2 nodes',
     {'job.tp_degree': 4}),
    # t06-model-parallel-size
    ('--model-parallel-size 2 --num-layers 24 on 4 nodes',
     {'job.tp_degree': 2}),
    # t07-tp8-pp2-space
    ('running TP8 PP2 on 4 nodes of H800',
     {'job.tp_degree': 8, 'job.pp_degree': 2}),
    # t08-8-way-tp-4-way-pp
    ('8-way tensor parallelism and 4-way pipeline parallelism',
     {'job.tp_degree': 8, 'job.pp_degree': 4}),
    # t09-yaml-tp
    ('parallel:\n  tensor_parallel: 8\n  pipeline_parallel: 2',
     {'job.tp_degree': 8, 'job.pp_degree': 2}),
    # t10-accum-grad-batches
    ('Trainer(accumulate_grad_batches=4, devices=8, num_nodes=2)',
     {'job.grad_accum_steps': 4, 'job.nodes': 2}),
    # t12-zh-quanju-pici
    ('全局批次大小 1024，每张卡 micro batch 为 4',
     {'job.global_batch_size': 1024, 'job.micro_batch_size': 4}),
    # t13-batch-per-gpu-comment
    ('batch_size: 32  # per GPU\nnum_workers: 8',
     {'job.micro_batch_size': 32}),
    # t14-gid-perftest
    ('ib_write_bw -d mlx5_0 -x 3 --report_gbits gives 92 Gb/s between the two hosts',
     {'nic.gid_index': 3}),
    # t15-gid-zh-suoyin
    ('RoCE 的 gid 索引是 3',
     {'nic.gid_index': 3}),
    # t16-gid-space
    ('using GID 3 (RoCE v2) on mlx5_0',
     {'nic.gid_index': 3}),
    # t17-ib-alone
    ('two nodes connected by IB, 8 A100 each, allreduce is slow',
     {'nic.kind': 'infiniband'}),
    # t18-ipoib
    ('NCCL goes over IPoIB (ib0) instead of verbs',
     {'nic.kind': 'infiniband', 'nccl.transport': 'socket'}),
    # t19-efa
    ('p4d instances with EFA, 4 nodes',
     {'nic.kind': 'ethernet', 'nic.rdma': True}),
    # t20-swarm-overlay
    ('the containers talk over a docker swarm overlay network',
     {'net.pod_overlay': True}),
    # t21-k8s-no-hostnet
    ('PyTorchJob on Kubernetes, the pods are not using hostNetwork',
     {'net.pod_overlay': True}),
    # t22-zh-pod-network
    ('k8s 集群里 pod 走的是容器网络（flannel），没有 RDMA',
     {'net.pod_overlay': True}),
    # t23-nic-count-mlx-list
    ('ibdev2netdev shows mlx5_0 … mlx5_7 all Up, 8 rails per node',
     {'nic.count': 8}),
    # t24-roce-v2-kind
    ('RoCEv2 100G between nodes, PFC enabled',
     {'nic.kind': 'roce', 'nic.speed_gbps': 100}),
    # t25-speed-gb-typo
    ('the servers have 100GB NICs (Mellanox) but busbw is 5 GB/s',
     {'nic.speed_gbps': 100}),
    # t26-speed-10g-iperf
    ('10G network, iperf3 shows 9.41 Gbits/sec between the nodes',
     {'nic.speed_gbps': 10, 'net.iperf3_gbps': 9.41}),
    # t27-zh-speed-shice
    ('网卡 100G，实测 iperf 只有 30G',
     {'nic.speed_gbps': 100, 'net.iperf3_gbps': 30}),
    # t28-util-ours-vs-baseline
    ('GPU utilization is around 30% on 2 nodes, it was ~95% on a single node',
     {'gpu.util_pct': 30}),
    # t29-zh-util-jump
    ('GPU 利用率一会儿 100% 一会儿 0%',
     {'gpu.util_pct': ('not', 100)}),
    # t30-zh-cpu-busy
    ('CPU 打满了，GPU 利用率 30%',
     {'gpu.util_pct': 30, 'cpu.util_pct': 95}),
    # u01-total-of-four
    ('network is 400Gb/s in total per node (4x100G RoCE)',
     {'nic.speed_gbps': 100, 'nic.count': 4}),
    # u02-bond-total
    ('2 x 25Gb/s bonded = 50G per server',
     {'nic.speed_gbps': 25, 'nic.count': 2, 'nic.bonded': True}),
    # u03-tbps-aggregate
    ('each node has 3.2 Tbps of network (8x400G)',
     {'nic.speed_gbps': 400, 'nic.count': 8}),
    # u04-zh-bond-total
    ('两张 100G 网卡做了 bond，总共 200G',
     {'nic.speed_gbps': 100, 'nic.count': 2, 'nic.bonded': True}),
    # u05-ethtool-below
    ('ethtool shows Speed: 10000Mb/s although it is a 25G card',
     {'nic.speed_gbps': 10}),
    # u06-fdr
    ('ibstat: Rate: 56 (4X FDR) on both nodes',
     {'nic.speed_gbps': 56, 'nic.kind': 'infiniband', 'nic.count': ('not', 4)}),
    # u07-mgmt-plus
    ('NICs: 2x100G + 1x1G management per node',
     {'nic.speed_gbps': 100, 'nic.count': 2}),
    # u08-zh-mgmt
    ('每台机器 2 张 100G 网卡跑训练，另外一个千兆管理口',
     {'nic.speed_gbps': 100, 'nic.count': 2}),
    # u09-ports-via-cards
    ('8 ports of 400G per node (4 dual-port cards)',
     {'nic.speed_gbps': 400, 'nic.count': 8}),
    # u10-gpus-vs-nic-count
    ('8x H100 and 8x CX7 400G per node, 2 nodes',
     {'nic.count': 8, 'nic.speed_gbps': 400, 'job.gpus_per_node': 8}),
    # u11-zh-8-ka-1-wangka
    ('8 卡 A100 只有 1 张 100G 网卡',
     {'nic.count': 1, 'nic.speed_gbps': 100, 'job.gpus_per_node': 8}),
    # u12-iperf-25-on-100
    ('iperf3 between the hosts: 23.5 Gbits/sec on a 100G link',
     {'nic.speed_gbps': 100, 'net.iperf3_gbps': 23.5}),
    # u13-zh-jiaohuanji-40
    ('交换机是 40G 的，服务器网卡是 10G 的',
     {'nic.speed_gbps': 10}),
    # u14-nic-and-storage
    ('training NIC 25GbE, storage NIC 10GbE',
     {'nic.speed_gbps': 25}),
    # u15-dgx-h100
    ('2x DGX H100 with 8x ConnectX-7 NDR each',
     {'nic.count': 8, 'nic.kind': 'infiniband'}),
    # u16-roce-2star100
    ('RoCE 2*100G 每台，4 台 A800',
     {'nic.count': 2, 'nic.speed_gbps': 100, 'nic.kind': 'roce'}),
    # u17-speed-as-busbw-not
    ('busbw 22 GB/s on 2 nodes with 200G HDR',
     {'nic.speed_gbps': 200}),
    # u18-expected-speed
    ('we expected 100 Gbps but the NIC negotiated 40 Gbps',
     {'nic.speed_gbps': 40}),
    # u19-zh-shengji
    ('网卡从 25G 升级到了 100G，速度没变化',
     {'nic.speed_gbps': 100}),
    # u20-gbps-per-gpu
    ('one 200G NIC per GPU, 8 per node',
     {'nic.speed_gbps': 200, 'nic.count': ('not', 1)}),
    # u21-mgmt-only-link
    ('两台机器只有一个 1G 管理口相连',
     {'nic.speed_gbps': 1}),
    # u22-mgmt-not-kind
    ('每台机器 2 张 100G 网卡跑训练，另外一个千兆管理口',
     {'nic.speed_gbps': 100, 'nic.count': 2, 'nic.kind': ('not', 'ethernet')}),
    # v01-zh-dataloader-pingjing
    ('排查下来 dataloader 是瓶颈，GPU 经常空转',
     {'job.data_loading_slow': True}),
    # v02-zh-io-man
    ('IO 太慢了，数据在 NFS 上，8 卡都吃不满',
     {'job.data_loading_slow': True}),
    # v03-zh-jiazai-haoshi
    ('数据加载耗时 0.8s，整个 step 1.0s',
     {'job.data_wait_pct': 80}),
    # v04-zh-yuchuli-man
    ('数据预处理太慢，CPU 100%，GPU 利用率 20%',
     {'job.data_loading_slow': True, 'cpu.util_pct': 100, 'gpu.util_pct': 20}),
    # v05-zh-not-data
    ('数据加载不是瓶颈，data_time 很小，主要是通信慢',
     {'job.data_loading_slow': False}),
    # v06-en-not-dataloader
    ('the dataloader is not the bottleneck (data_time ~ 0.002s)',
     {'job.data_loading_slow': False}),
    # v07-zh-batch-mixed
    ('per_device_train_batch_size 设的 4，gradient_accumulation_steps 设的 8，两机 16 卡',
     {'job.micro_batch_size': 4, 'job.grad_accum_steps': 8}),
    # v08-zh-gbs-mbs-prose
    ('gbs 1024，mbs 2，tp 4，pp 2',
     {'job.global_batch_size': 1024, 'job.micro_batch_size': 2, 'job.tp_degree': 4, 'job.pp_degree': 2}),
    # v09-zh-overlay-hostnet-false
    ('pod 的 hostNetwork 是 false，走的 calico',
     {'net.pod_overlay': True}),
    # v10-zh-hostnet-true
    ('pod 已经开了 hostNetwork: true，RoCE 网卡也挂进去了',
     {'net.pod_overlay': False}),
    # v11-zh-util-other-node
    ('主节点 GPU 利用率 90% 多，从节点只有 40%',
     {'gpu.util_pct': ('not', 90)}),
    # v12-zh-cpu-then-gpu
    ('top 看 CPU 占用 800%（8 个核满了），nvidia-smi 里 GPU 利用率 60%',
     {'gpu.util_pct': 60}),
    # v13-zh-ifname-env-list
    ('环境变量如下：\nNCCL_DEBUG=INFO\nNCCL_SOCKET_IFNAME=bond0\nNCCL_IB_HCA=mlx5_0,mlx5_1,mlx5_2,mlx5_3\n'
     'NCCL_IB_GID_INDEX=3\n两机 16 卡 A800 训练很慢',
     {'nccl.socket_ifname': 'bond0', 'nic.count': 4, 'nic.gid_index': 3, 'job.nodes': 2}),
    # v14-zh-tp-pp-prose
    ('张量并行 8，流水并行 2，数据并行 4，一共 64 卡',
     {'job.tp_degree': 8, 'job.pp_degree': 2}),
    # v15-zh-comm-ps
    ('我们用的是 ps-worker 架构，worker 8 个，ps 2 个',
     {'job.comm_pattern': 'parameter_server'}),
    # v16-zh-rdma-nic-kind
    ('机器之间是 200G RoCE 网络，每台 8 张卡',
     {'nic.kind': 'roce', 'nic.speed_gbps': 200}),
    # v17-zh-ib-kind
    ('节点间用 IB 互联，HDR 200G',
     {'nic.kind': 'infiniband', 'nic.speed_gbps': 200}),
    # v18-zh-eth-kind
    ('机器间就是普通的以太网，25G，没有 RDMA',
     {'nic.kind': 'ethernet', 'nic.speed_gbps': 25, 'nic.rdma': False}),
    # v19-zh-pcie-x8
    ('nvidia-smi 显示 PCIe 只跑在 Gen4 x8，正常应该是 x16',
     {'gpu.pcie_gen': 4, 'gpu.pcie_width': 8}),
    # v20-zh-ib-disable-words
    ('IB 被我们禁用了，因为 RoCE 配置有问题',
     {'nccl.ib_disabled': True}),
    # w01-nccl-on-tcp
    ('NCCL is on TCP sockets here, no RDMA, 2 nodes',
     {'nccl.transport': 'socket'}),
    # w02-zh-nccl-tcp
    ('NCCL 用的 TCP 通信，没走 RDMA',
     {'nccl.transport': 'socket'}),
    # w03-zh-socket-tongxin
    ('看日志是 socket 通信，不是 IB',
     {'nccl.transport': 'socket'}),
    # w04-traffic-eth0
    ('the NCCL traffic goes through eth0 instead of ib0',
     {'nccl.transport': ('not', 'ib')}),
    # w05-uses-sockets
    ('NCCL uses sockets even though ibv_devices lists mlx5_0',
     {'nccl.transport': 'socket'}),
    # w06-zh-tcp-kind
    ('机器之间用的是普通的 TCP 网络，10G',
     {'nic.kind': 'ethernet', 'nic.speed_gbps': 10}),
    # w07-ib-switch
    ('两台机器接在同一台 IB 交换机上，100G EDR',
     {'nic.kind': 'infiniband', 'nic.speed_gbps': 100}),
    # w08-roce-lossless
    ('RoCE v2 lossless network with PFC, 100Gb ConnectX-5',
     {'nic.kind': 'roce', 'nic.speed_gbps': 100}),
    # w09-mellanox-ethernet
    ('Mellanox ConnectX-5 25GbE NICs, no RoCE configured',
     {'nic.speed_gbps': 25, 'nic.kind': ('not', 'roce')}),
    # w10-gdr-disabled-words
    ('GPUDirect RDMA is not enabled (no nvidia-peermem), NCCL uses NET/IB',
     {'nccl.transport': 'ib', 'nccl.gdr_disabled': True}),
    # w11-gdr-zh
    ('GDR 没有开，nvidia_peermem 没加载，走的 IB',
     {'nccl.gdr_disabled': True}),
    # w12-p2p-disabled-zh
    ('4 张 4090 必须设置 NCCL_P2P_DISABLE=1 才能跑',
     {'nccl.p2p_disabled': True}),
    # w13-nic-path-topo
    ('nvidia-smi topo -m\n        GPU0    GPU1    NIC0    CPU Affinity\nGPU0     X      SYS   '
     '  SYS     0-31\nGPU1    SYS      X      PHB     32-63\nNIC0    SYS     PHB      X',
     {'gpu.nic_path': 'sys'}),
    # w14-one-nic-used-en
    ('we have 8 HCAs but the traffic only shows on mlx5_0',
     {'net.one_nic_used': True}),
]

# Forms not read yet (a strict xfail flips when one is).
NOT_YET: list[tuple[str, dict[str, object]]] = [
    # q35-net-plugin-ofi
    ('NCCL INFO NET/OFI Selected Provider is efa (found 4 nics); p4d.24xlarge x 2',
     {'nccl.transport': 'other'}),
    # q63-nvsmi-query-csv
    ('nvidia-smi --query-gpu=pcie.link.gen.current,pcie.link.width.current --format=csv\npcie.link.gen.current,'
     ' pcie.link.width.current\n3, 8\n3, 8',
     {'gpu.pcie_gen': 3, 'gpu.pcie_width': 8}),
    # t11-batch-product
    ('global batch size 256 (32 per GPU x 8 GPUs)',
     {'job.global_batch_size': 256, 'job.micro_batch_size': 32}),
    # w15-tp-pp-in-table
    ('| TP | PP | DP | step time |\n|----|----|----|-----------|\n| 8  | 2  | 4  | 12.3 s    |',
     {'job.tp_degree': 8, 'job.pp_degree': 2}),
]


def _problems(text: str, expected: dict[str, object]) -> list[str]:
    return read_problems(text, expected, share=0.02)


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_probe_read(text: str, expected: dict[str, object]) -> None:
    assert _problems(text, expected) == []


@pytest.mark.xfail(strict=True, reason="a form the reader does not read yet")
@pytest.mark.parametrize(("text", "expected"), NOT_YET)
def test_probe_not_read_yet(text: str, expected: dict[str, object]) -> None:
    assert _problems(text, expected) == []
