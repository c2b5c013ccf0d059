"""English probes: short questions written blind the way GitHub issues and forums put them (NCCL,
nccl-tests, PyTorch, DeepSpeed, Megatron-LM, accelerate, Lightning, Horovod, Ray, aws-ofi-nccl): an Environment block,
a pasted nccl-tests table or NCCL INFO lines, a launcher's command line, other numbers nearby (versions, ports, IPs,
batch sizes, epochs, memory sizes, ranks), runs compared, negation and doubt, what-ifs.

Written for this battery (not copied from the corpus). Each row names the facts that must be read and, as None, those
that must not. The forms the probes found and the reader now reads: a launcher line that ends at a full stop with the
asker's words after it ('... train.py. Network is 25GbE.'); a load said for each of two runs ('95% GPU utilization,
with 2 nodes it drops to 50%', '99% on one node but 35% on 2 nodes'); a count of NICs before the card's model
('8x Mellanox ConnectX-7 400G'), never before an InfiniBand generation ('4xEDR' is the link's width); a count under a
label on a line of its own ('Nodes: 16' with another label on the next line); collectives compared on the same
machines ('all_gather is much slower than all_reduce on 4 nodes' is no smaller run); a MoE's routing said in words
('64 experts, top-2'); the asker's words after a dash on a pasted NCCL line ('... (Recv) — happens on 4 nodes with
RoCE'); a factor over one machine ('throughput is 1.3x of a single node'); whether the job's figure is normal, asked
('Is it expected that busbw is only 20 GB/s?'); a fabric weighed with 'would' ('Would 200G InfiniBand be enough?'); a
bare count per machine after the GPUs named ('GPUs: A100 80GB, 8 per node'); a launcher's line with its options ends
at its line break, the next line is the asker's ('… --master_port=1234 main.py' then 'GPU utilization is about 40%').
The forms left are strict xfails naming the form.
"""

from __future__ import annotations

import pytest

from tests.matching import read_problems
from tests.matching import stated_facts as facts

N, G, BN, BG, NEG = "job.nodes", "job.gpus_per_node", "job.baseline_nodes", "job.baseline_gpus", "job.negative_scaling"
SP, KIND, RDMA, TR = "nic.speed_gbps", "nic.kind", "nic.rdma", "nccl.transport"
BUS = "nccl.allreduce_busbw_gbytes_per_s"
IPERF, IBW, UTIL = "net.iperf3_gbps", "net.rdma_bw_gbps", "gpu.util_pct"
STEP, STEPB = "job.step_time_s", "job.step_time_baseline_s"
NCNT, NV, DRV = "nic.count", "nccl.version", "gpu.driver_version"
MP, PAR, PREC = "job.model_params_b", "job.parallelism", "job.precision"

CASES: list[tuple[str, dict[str, object]]] = [
    # --- Environment blocks
    ("Environment:\n- OS: Ubuntu 22.04\n- Driver: 535.104.05\n- CUDA: 12.2\n- NCCL: 2.18.3\n- GPU: 8x "
     "A100-SXM4-80GB\n- Network: 2x ConnectX-6 200Gb HDR\n\nTraining on 2 nodes is much slower than "
     "expected.",
     {N: 2, G: 8, SP: 200.0, NCNT: 2, KIND: "infiniband", NV: "2.18.3", DRV: "535.104.05"}),
    ("System info:\nGPUs: 4 x RTX 3090 24GB per machine\nMachines: 2\nInterconnect: 10GbE, no RDMA\n"
     "PyTorch 1.13\n\nDDP is 3x slower on 2 machines than on one.",
     {N: 2, G: 4, SP: 10.0, KIND: "ethernet", RDMA: False, BN: 1}),
    ("env: torch 2.2.1+cu121, nccl 2.19.3, python 3.10, 2 nodes x 8 A800, RoCE 100G x 4 per node",
     {N: 2, G: 8, SP: 100.0, NCNT: 4, KIND: "roce", NV: "2.19.3"}),
    ("Hardware: 16 GPUs (2 nodes, 8x V100 32GB), 25 Gbps ethernet between nodes. Batch size 256, 90 "
     "epochs.",
     {N: 2, G: 8, SP: 25.0, KIND: "ethernet", "job.global_batch_size": None}),
    ("OS: CentOS 7.9, kernel 3.10, Driver Version: 470.82.01, CUDA Version: 11.4. Two servers with 8 "
     "A100 40GB, 100Gb/s InfiniBand EDR. NCCL tests show 10 GB/s busbw.",
     {N: 2, G: 8, SP: 100.0, KIND: "infiniband", BUS: 10.0, DRV: "470.82.01"}),
    ("Setup\n* 3 nodes\n* each node: 8x L40S, 2x 100GbE (Mellanox CX-6 Dx)\n* RoCEv2 enabled\n* NCCL "
     "2.20.5\nQuestion: is 8 GB/s all_reduce bus bandwidth normal?",
     {N: 3, G: 8, SP: 100.0, NCNT: 2, KIND: "roce", BUS: 8.0, NV: "2.20.5"}),
    ("Environment\nGPU: 8x H100 SXM\nNodes: 16\nFabric: EFA (p5.48xlarge)\nBusbw: 250 GB/s at 8GB "
     "message size",
     {N: 16, G: 8, BUS: 250.0, "node.instance_type": "p5.48xlarge"}),
    ("Versions: deepspeed 0.12.6, torch 2.1.2, transformers 4.36. 2 nodes with 4 A6000 each, 1Gbps LAN. "
     "ZeRO-3 is painfully slow.",
     {N: 2, G: 4, SP: 1.0, PAR: "fsdp", "job.zero_stage": 3}),
    # --- pasted nccl-tests tables
    ("nccl-tests on 2 nodes:\n#       size         count      type   redop    root     time   algbw   "
     "busbw #wrong\n   536870912     134217728     float     sum      -1    45123   11.90   22.31      "
     "0\n  1073741824     268435456     float     sum      -1    89760   11.96   22.43      0\n# Avg "
     "bus bandwidth    : 15.2\nWe have 2x 100G RoCE per node.",
     {N: 2, BUS: 22.43, SP: 100.0, NCNT: 2, KIND: "roce"}),
    ("Running all_reduce_perf -b 8 -e 8G -f 2 -g 1 over 16 GPUs (2 nodes), the last line:\n  "
     "8589934592    2147483648     float     sum      -1   720000   11.93   22.37      0\nIs 22 GB/s "
     "what we should expect on 200G HDR?",
     {N: 2, BUS: 22.37, SP: 200.0}),
    ("mpirun -np 16 -H node1:8,node2:8 ./build/all_reduce_perf -b 1G -e 4G -f 2 -g 1\n# Avg bus "
     "bandwidth    : 3.5\nbusbw tops out around 4 GB/s. The nodes have 25GbE.",
     {N: 2, G: 8, SP: 25.0}),
    # --- NCCL INFO lines
    ("node-0:1234:1234 [0] NCCL INFO NCCL version 2.18.1+cuda12.1\nnode-0:1234:1234 [0] NCCL INFO "
     "NET/Plugin: No plugin found (libnccl-net.so), using internal implementation\nnode-0:1234:1234 [0] "
     "NCCL INFO NET/IB : No device found.\nnode-0:1234:1234 [0] NCCL INFO NET/Socket : Using "
     "[0]eth0:10.1.1.5<0>\nTraining over 2 nodes is super slow.",
     {TR: "socket", NV: "2.18.1", N: 2}),
    ("gpu-node1:5678:5700 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB "
     "ib0:192.168.1.10<0>\ngpu-node1:5678:5700 [0] NCCL INFO Using network IB\nStill the all-reduce "
     "takes 40% of the step on 4 nodes.",
     {TR: "ib", N: 4}),
    ("NCCL INFO Channel 00/02 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA\nNCCL INFO Channel 01/02 : 0[0] "
     "-> 8[0] [send] via NET/IB/1/GDRDMA\nSo GDR is used. 2 nodes, 8 GPUs each, but busbw is 30 GB/s "
     "with 4x200G.",
     {TR: "ib", N: 2, G: 8, BUS: 30.0, SP: 200.0, NCNT: 4}),
    ("I see `NCCL INFO NET/Socket : Using [0]ens5:172.31.0.12<0>` in the logs although the instances "
     "have EFA. 2 x p4d.24xlarge.",
     {TR: "socket", N: 2, "node.instance_type": "p4d.24xlarge"}),
    ("NCCL INFO Using network Socket\nNCCL INFO comm 0x55d5 rank 0 nranks 16 cudaDev 0 busId 1000 - "
     "Init COMPLETE\nwe only have 10G ethernet between the two boxes",
     {TR: "socket", SP: 10.0, N: 2}),
    # --- torchrun / launchers
    ("torchrun --nnodes 2 --nproc_per_node 8 --master_addr 10.0.0.1 --master_port 29500 train.py "
     "--batch_size 32\nthroughput is 1.3x of a single node",
     {N: 2, G: 8, BN: 1, "job.speedup": 1.3}),
    ("Launching with `torchrun --nnodes=4 --nproc-per-node=8 --rdzv-endpoint=$MASTER:29400 "
     "pretrain.py`. step time goes from 0.9 s on one node to 1.6 s on 4 nodes.",
     {N: 4, G: 8, BN: 1, STEP: 1.6, STEPB: 0.9}),
    ("accelerate launch --num_machines 2 --num_processes 16 --machine_rank 0 train.py. Network is "
     "25GbE. It's very slow.",
     {N: 2, G: 8, SP: 25.0}),
    ("srun -N 4 --ntasks-per-node=8 --gpus-per-node=8 python train.py\nNCCL uses Socket and the "
     "all-reduce is slow",
     {N: 4, G: 8, TR: "socket"}),
    ("horovodrun -np 16 -H server1:8,server2:8 python train.py. Horovod timeline shows allreduce taking "
     "300 ms per step.",
     {N: 2, G: 8}),
    ("python -m torch.distributed.launch --nproc_per_node=4 --nnodes=2 --node_rank=0 "
     "--master_addr=192.168.0.2 --master_port=1234 main.py\nGPU utilization is about 40%",
     {N: 2, G: 4, UTIL: 40.0}),
    ("Lightning Trainer(accelerator='gpu', devices=8, num_nodes=4, strategy='fsdp'), 200G IB, MFU ~25%",
     {N: 4, G: 8, SP: 200.0, PAR: "fsdp"}),
    ("ray: ScalingConfig(num_workers=16, use_gpu=True) on 2 nodes with 8 GPUs each. 25 Gbps network. "
     "Training is 2x slower than a single node.",
     {N: 2, G: 8, SP: 25.0, BN: 1, NEG: True}),
    # --- comparisons
    ("On a single node we get 3200 tokens/s per GPU, whereas with 2 nodes it drops to 1800 tokens/s per "
     "GPU.",
     {N: 2, BN: 1}),
    ("We used to get 180 GB/s busbw, now we get 60 GB/s after the driver upgrade.",
     {BUS: 60.0}),
    ("The vendor says 200 Gbps, we get 90 Gbps in ib_write_bw.",
     {IBW: 90.0, SP: 200.0}),
    ("Single node: 1.1 s/iter. Two nodes: 2.3 s/iter. Why is multi-node slower?",
     {N: 2, BN: 1, STEP: 2.3, STEPB: 1.1, NEG: True}),
    ("Scaling from 8 GPUs to 32 GPUs only gives 2x throughput. 4 nodes connected via 100G RoCE.",
     {N: 4, BG: 8, SP: 100.0, KIND: "roce"}),
    ("1 node: 0.45 s per step; 2 nodes: 0.52 s per step; 4 nodes: 0.61 s per step",
     {N: 4, BN: 1}),
    ("with 1 node, 8 GPUs we are at 95% GPU utilization, with 2 nodes it drops to 50%",
     {N: 2, BN: 1, UTIL: 50.0}),
    ("It was fine last week (busbw ~ 40 GB/s), today it's 5 GB/s on the same 2 nodes.",
     {BUS: 5.0, N: 2}),
    ("Performance on 2 nodes is only 60% of the theoretical 2x.",
     {N: 2}),
    ("iperf3 between the nodes gives 23.5 Gbits/sec, link is 25G, but NCCL only does 1.2 GB/s busbw",
     {IPERF: 23.5, SP: 25.0, BUS: 1.2}),
    ("ib_write_bw shows 96.5 Gb/sec between the two hosts (100G EDR), nccl all_reduce busbw 9 GB/s",
     {IBW: 96.5, SP: 100.0, BUS: 9.0, N: 2}),
    ("single GPU: 12 it/s, 8 GPUs on one node: 90 it/s, 16 GPUs on two nodes: 95 it/s",
     {N: 2, G: 8}),
    # --- negation / doubt
    ("We don't have InfiniBand, just 10GbE. 2 nodes with 4 V100s each.",
     {KIND: "ethernet", SP: 10.0, N: 2, G: 4, RDMA: False}),
    ("Not sure if RDMA is enabled. The NICs are ConnectX-5 100G. 2 nodes.",
     {SP: 100.0, N: 2}),
    ("There is no RDMA on these machines (plain TCP over 25G).",
     {RDMA: False, SP: 25.0}),
    ("Our nodes have no NVLink, GPUs talk over PCIe. 2 nodes x 4 A100 PCIe.",
     {"gpu.nvlink": False, N: 2, G: 4}),
    ("IB is not used even though we set NCCL_IB_DISABLE=0. NCCL falls back to Socket. 2 nodes.",
     {TR: "socket", N: 2, "nccl.ib_disabled": False}),
    ("We set NCCL_IB_DISABLE=1 because IB kept failing; now 8 nodes run over Ethernet.",
     {"nccl.ib_disabled": True, N: 8}),
    ("I don't think GPUDirect RDMA works: no GDRDMA in the channel lines. 4 nodes, HDR 200G.",
     {N: 4, SP: 200.0}),
    ("We are not using DeepSpeed, just plain DDP on 2 nodes.",
     {N: 2, PAR: "data"}),
    ("No idea what the interconnect is, it's a university cluster. 2 nodes, 4 GPUs each.",
     {N: 2, G: 4, KIND: None, SP: None}),
    ("The GPUs are not the bottleneck, utilization is 99% on one node but 35% on 2 nodes.",
     {N: 2, BN: 1, UTIL: 35.0}),
    # --- hypotheticals
    ("Would upgrading to 400G help? We are on 100G RoCE with 4 nodes of 8 H100.",
     {SP: 100.0, KIND: "roce", N: 4, G: 8}),
    ("Should we buy InfiniBand or is 100GbE enough for 2 nodes of 8 A100?",
     {N: 2, G: 8, KIND: None}),
    ("Is it worth switching from 10GbE to 100GbE for 2 machines with 2 RTX 4090 each?",
     {SP: 10.0, N: 2, G: 2}),
    ("What busbw should I expect with 8x 400G NDR per node? We measure 350 GB/s.",
     {SP: 400.0, NCNT: 8, BUS: 350.0}),
    ("Would enabling GDR give a speedup? Currently 2 nodes on 200G HDR, busbw 18 GB/s.",
     {SP: 200.0, BUS: 18.0, N: 2}),
    # --- other numbers nearby (distractors)
    ("Rank 0 at 10.0.0.15:29500 hangs. We have 2 nodes with 8 GPUs, batch size 64 per GPU, 3 epochs.",
     {N: 2, G: 8, SP: None}),
    ("Training a 7B model with FSDP on 16 GPUs (2 nodes), seq len 4096, global batch 512. Each step "
     "takes 12 s.",
     {MP: 7.0, N: 2, G: 8, STEP: 12.0, PAR: "fsdp"}),
    ("LLaMA-2 13B, Megatron-LM, TP=8 PP=2, 4 nodes of 8 A100 80GB, 200Gbps IB. Iteration time 8.5 s.",
     {MP: 13.0, "job.tp_degree": 8, "job.pp_degree": 2, N: 4, G: 8, SP: 200.0, STEP: 8.5}),
    ("Memory: 512 GB RAM, 2x AMD EPYC 7763 (64 cores). GPUs: 8x A100. Nodes: 2. Network: 100 Gb "
     "Ethernet.",
     {N: 2, G: 8, SP: 100.0}),
    ("We use port 12355 and NCCL_SOCKET_IFNAME=eth0 on our 3 nodes.",
     {N: 3, "nccl.socket_ifname": "eth0", SP: None}),
    ("epoch 1/10 takes 45 minutes on 4 nodes vs 50 minutes on 1 node",
     {N: 4, BN: 1}),
    ("The dataset is 1.2 TB on NFS; 2 nodes with 8 GPUs each read it over the 10G network.",
     {N: 2, G: 8, SP: 10.0}),
    ("nvidia-smi shows driver 550.54.15, CUDA 12.4, 8 x H100 80GB HBM3 on each of the 2 nodes.",
     {DRV: "550.54.15", N: 2, G: 8}),
    ("Using bf16 mixed precision and gradient accumulation 4, 2 nodes, 8 GPUs per node.",
     {PREC: "bf16", "job.grad_accum_steps": 4, N: 2, G: 8}),
    ("The model is 1.3B params, micro batch 8, on 4 x 8 V100 over 100G",
     {MP: 1.3, N: 4, G: 8, SP: 100.0, "job.micro_batch_size": 8}),
    ("We have 64 nodes in the cluster but this job runs on 4 of them, 8 GPUs each.",
     {N: 4, G: 8}),
    ("Ran the job with NCCL_DEBUG=INFO, NCCL_IB_HCA=mlx5_0,mlx5_1, NCCL_IB_GID_INDEX=3 on 2 nodes",
     {N: 2, "nic.gid_index": 3}),
    ("GPU: 8x A100-SXM4-40GB, NVLink 600 GB/s, inter-node 2x 200G HDR, 2 nodes",
     {N: 2, G: 8, SP: 200.0, NCNT: 2}),
    # --- utilisation, step times
    ("GPU utilization fluctuates between 20% and 60% during multi-node training.",
     {"job.multi_node": True}),
    ("Each iteration takes about 3.2 seconds on 2 nodes, and about 1.1 seconds on a single node.",
     {N: 2, BN: 1, STEP: 3.2, STEPB: 1.1, NEG: True}),
    ("nvidia-smi shows 100% util on all GPUs but step time is 2.5s",
     {UTIL: 100.0, STEP: 2.5}),
    ("the forward+backward takes 400 ms but the step is 1.2 s because of the allreduce",
     {STEP: 1.2}),
    ("CPU usage is 100% on the data loader processes, GPU at 30%",
     {UTIL: 30.0, "cpu.util_pct": 100.0}),
    ("GPU util ~50% on both nodes, 100 Gb/s RoCE, 8 GPUs per node",
     {UTIL: 50.0, N: 2, SP: 100.0, KIND: "roce", G: 8}),
    # --- cloud instances
    ("2 x g5.48xlarge (8x A10G each), 100 Gbps networking, no EFA. Training is slow.",
     {N: 2, G: 8, "node.instance_type": "g5.48xlarge"}),
    ("Using 4 p4d.24xlarge nodes with EFA enabled, but NCCL says NET/Socket.",
     {N: 4, TR: "socket", "node.instance_type": "p4d.24xlarge"}),
    ("GCP a3-highgpu-8g x 2, GPUDirect-TCPX not configured, busbw 12 GB/s",
     {N: 2, BUS: 12.0}),
    ("Azure NDv4 (Standard_ND96asr_v4), 2 VMs, 8x A100, 8x 200G HDR InfiniBand",
     {N: 2, G: 8, SP: 200.0, NCNT: 8}),
    # --- speeds in various forms
    ("the interconnect is 2x25GbE bonded",
     {SP: 25.0, NCNT: 2}),
    ("Network: 1 x 100 GbE per node (Intel E810)",
     {SP: 100.0, NCNT: 1, KIND: "ethernet"}),
    ("Nodes are connected via 56Gb FDR InfiniBand",
     {SP: 56.0, KIND: "infiniband"}),
    ("between the machines there is a 1 gigabit switch",
     {SP: 1.0}),
    ("RoCE v2 over 2x 200GbE per node, 4 nodes",
     {KIND: "roce", SP: 200.0, NCNT: 2, N: 4}),
    ("the link is 40 Gbps Ethernet (QSFP+)",
     {SP: 40.0, KIND: "ethernet"}),
    # --- more messy / multi-sentence
    ("Hi all, I'm training GPT-2 medium with DDP on two machines. Each has 4x RTX A5000 and they're "
     "connected through a 1Gb switch. One epoch takes 3 hours on 2 machines vs 2 hours on one. Any "
     "ideas?",
     {N: 2, G: 4, SP: 1.0, BN: 1, NEG: True}),
    ("Hello, we see very low NCCL performance between nodes. busbw: 2.1 GB/s. Expected: ~23 GB/s on "
     "HDR. Both nodes have 8x A100.",
     {BUS: 2.1, N: 2, G: 8}),
    ("Our training throughput: 1 node = 1500 samples/s, 2 nodes = 2100 samples/s, 4 nodes = 2600 "
     "samples/s. Interconnect: 100G RoCE.",
     {N: 4, BN: 1, SP: 100.0, KIND: "roce"}),
    ("Problem: multi-node training hangs at NCCL init. 2 nodes, 8 A100 each, 200G IB. NCCL 2.17.1.",
     {N: 2, G: 8, SP: 200.0, NV: "2.17.1"}),
    ("Issue: all_gather is much slower than all_reduce on 4 nodes (busbw 20 vs 45 GB/s). 4x200G HDR per "
     "node.",
     {N: 4, SP: 200.0, NCNT: 4}),
    ("After upgrading NCCL from 2.14.3 to 2.18.5 the busbw dropped from 45 GB/s to 25 GB/s on 2 nodes.",
     {NV: "2.18.5", BUS: 25.0, N: 2}),
    ("Cluster: 8 nodes, each with 8 H100 SXM5 and 8x ConnectX-7 NDR 400G. Measured all_reduce busbw: "
     "380 GB/s.",
     {N: 8, G: 8, NCNT: 8, SP: 400.0, BUS: 380.0}),
    ("A quick question: why does NCCL_P2P_DISABLE=1 make training faster on our 8x RTX 4090 box?",
     {"nccl.p2p_disabled": True, G: 8}),
    ("Rank 3 is always slower than the others; 4 nodes of 4 GPUs, 25GbE",
     {N: 4, G: 4, SP: 25.0}),
    ("We use Horovod with 32 workers on 8 servers (4 GPUs each) with 10Gb Ethernet.",
     {N: 8, G: 4, SP: 10.0}),
    ("using NCCL 2.10.3 with CUDA 11.3 on 2 nodes, each 8x V100 16GB, 100G RoCE; busbw around 6 GB/s",
     {NV: "2.10.3", N: 2, G: 8, SP: 100.0, BUS: 6.0}),
    ("Our setup has 2 nodes. Node 1: 8x A100, Node 2: 8x A100. Connected by 1x 100G ethernet each.",
     {N: 2, G: 8, SP: 100.0}),
    ("The step time is 5 s with 16 GPUs and 3 s with 8 GPUs.",
     {STEP: 5.0, STEPB: 3.0, BG: 8, NEG: None}),
    ("GPU mem used is 75 GB of 80 GB, util 45%",
     {UTIL: 45.0}),
    ("all_reduce_perf: busbw 11.5 GB/s (avg), 2 nodes, 1 GPU per node, 100G IB",
     {BUS: 11.5, N: 2, G: 1, SP: 100.0}),
    ("We measure ~1.5 GB/s algbw on the all_reduce across 2 hosts over 25 GbE",
     {"nccl.allreduce_algbw_gbytes_per_s": 1.5, N: 2, SP: 25.0}),
    ("The 2 nodes are in different racks, 100G uplinks, 8 GPUs each, RTT 0.05 ms",
     {N: 2, G: 8, "net.rtt_ms": 0.05}),
    ("ping latency between nodes is 0.3 ms; iperf3 gets 9.3 Gbits/sec",
     {"net.rtt_ms": 0.3, IPERF: 9.3}),
    ("NCCL_SOCKET_IFNAME=ib0 is set but NCCL still uses sockets",
     {"nccl.socket_ifname": "ib0", TR: "socket"}),
    ("GPU: 4x Tesla T4 per node, 3 nodes, 10 Gb Ethernet. scaling efficiency ~40%",
     {G: 4, N: 3, SP: 10.0, "job.scaling_efficiency_pct": 40.0}),
    ("Megatron-LM GPT 175B on 128 nodes (1024 A100s), 8x200G HDR per node",
     {N: 128, G: 8, MP: 175.0, SP: 200.0, NCNT: 8}),
    ("ZeRO stage 3 with offload on 2 nodes, 8 x A100 each, 100G IB; step time 45 s",
     {"job.zero_stage": 3, N: 2, G: 8, SP: 100.0, STEP: 45.0}),
    ("DeepSpeed ZeRO-2, bf16, 4 nodes x 8 GPUs; throughput 40 TFLOPS per GPU",
     {"job.zero_stage": 2, PREC: "bf16", N: 4, G: 8}),
    ("We have a 2-node setup with one RTX 3090 per node, connected by 2.5 GbE",
     {N: 2, G: 1, SP: 2.5}),
    ("Multi-node training on 2 nodes is slower than 1 node with 4 GPUs.",
     {N: 2, BN: 1, NEG: True}),
    ("Each node: 2x Xeon 8380, 1 TB RAM, 8x A100 80GB, 4x HDR200 (ConnectX-6). 2 nodes.",
     {N: 2, G: 8, NCNT: None, SP: 200.0}),
    ("The model has 70B parameters; we train on 32 nodes (256 H100s) over 3.2 Tbps per node",
     {MP: 70.0, N: 32, G: 8}),
    ("MoE with 64 experts, top-2, EP=8, on 8 nodes; all-to-all dominates",
     {"job.moe": True, "job.ep_degree": 8, N: 8, "job.moe_top_k": 2}),
    ("With NCCL_ALGO=Tree we get 30 GB/s busbw, with Ring 45 GB/s, 4 nodes",
     {N: 4}),
    ("Torch DDP with bucket_cap_mb=25, 2 nodes over 10G: allreduce takes 60% of the step",
     {N: 2, SP: 10.0, "job.comm_time_pct": 60.0}),
    ("the all-reduce accounts for ~70% of the iteration time on 8 nodes",
     {N: 8, "job.comm_time_pct": 70.0}),
    ("NCCL WARN NET/IB : Got completion from peer 10.0.0.2<44321> with error 12, opcode 0, len 0, "
     "vendor err 129 (Recv) — happens on 4 nodes with RoCE",
     {N: 4, KIND: "roce"}),
    ("we're using the aws-ofi-nccl plugin v1.7.4 with EFA on 8 x p5.48xlarge",
     {N: 8, "node.instance_type": "p5.48xlarge"}),
    ("NCCL INFO NET/OFI Selected Provider is efa (found 32 nics)\n16 nodes, busbw 300 GB/s",
     {N: 16, BUS: 300.0}),
    ("global batch size 1024, micro batch 4, 8 nodes with 8 GPUs: grad accumulation 4",
     {"job.global_batch_size": 1024, "job.micro_batch_size": 4, N: 8, G: 8, "job.grad_accum_steps": 4}),
    ("each checkpoint save takes 10 minutes on 4 nodes",
     {N: 4, "job.checkpoint_save_s": 600.0}),
    ("dataloader num_workers=8, 2 nodes, GPU util 30%",
     {"job.dataloader_workers": 8, N: 2, UTIL: 30.0}),
    ("Training is slow only when going cross-node; within a node busbw is 230 GB/s, cross-node 20 GB/s",
     {"job.multi_node": True}),
    ("we do not use RoCE; the cluster has InfiniBand HDR (200 Gb/s)",
     {KIND: "infiniband", SP: 200.0}),
    ("Is 25 Gbps enough for 2 nodes training a 7B model with DDP?",
     {SP: 25.0, N: 2, MP: 7.0}),
    ("how much faster would 2 nodes be than 1 with 100G?",
     {SP: 100.0}),
    ("The same job on 1 node takes 20 hours, on 2 nodes 14 hours.",
     {N: 2, BN: 1}),
    ("After switching from 1GbE to 10GbE, the step time went from 8 s to 2 s on 2 nodes.",
     {SP: 10.0, STEP: 2.0, N: 2}),
    ("It runs at 2.1 it/s on 1 node and 1.4 it/s on 2 nodes.",
     {N: 2, BN: 1, NEG: None}),
    # --- second batch: doubt, what-ifs, runs compared, Environment blocks, launchers
    ("We don't use InfiniBand; the nodes talk over 25GbE. 4 nodes x 4 A100.",
     {KIND: "ethernet", SP: 25.0, N: 4, G: 4}),
    ("Not sure whether NCCL is using IB or sockets. 2 nodes, HDR 200G.",
     {TR: None, N: 2, SP: 200.0}),
    ("I'm not sure if GPUDirect RDMA is working; nvidia-peermem is loaded. 2 nodes x 8 H100, 8x400G NDR.",
     {N: 2, G: 8, SP: 400.0, NCNT: 8}),
    ("We haven't enabled RoCE yet, so it's plain TCP on 100G for now.",
     {SP: 100.0, RDMA: False}),
    ("Would 200G InfiniBand be enough for 4 nodes of 8 H100 training a 70B model?",
     {SP: None, N: 4, G: 8, MP: 70.0}),
    ("Is it expected that 2 nodes are only 1.5x faster than one node on 100G RoCE?",
     {N: 2, BN: 1, "job.speedup": 1.5, SP: 100.0}),
    ("Previously with NCCL 2.12 we got 22 GB/s; after upgrading to 2.18 we get 12 GB/s busbw on the "
     "same 2 nodes.",
     {BUS: 12.0, N: 2}),
    ("Last month the job ran at 1.2 s/it; now it's 2.0 s/it on the same 4 nodes.",
     {STEP: 2.0, N: 4}),
    ("The vendor claims 400 Gb/s per port, but ib_write_bw gives us 180 Gb/s.",
     {IBW: 180.0}),
    ("Expected busbw around 40 GB/s (per the NCCL docs) but we measure 8 GB/s on 2 nodes.",
     {BUS: 8.0, N: 2}),
    ("On one node (8x A100) training takes 1.0 s per step; with 2 nodes it takes 1.8 s per step.",
     {N: 2, BN: 1, STEP: 1.8, STEPB: 1.0, G: 8}),
    ("single-node: 3.1 it/s, two nodes: 2.2 it/s",
     {N: 2, BN: 1}),
    ("tokens/s per GPU: 1 node 3900, 2 nodes 2100, 4 nodes 1200",
     {N: 4, BN: 1}),
    ("Our MFU is 45% on 1 node and 22% on 8 nodes.",
     {N: 8, BN: 1}),
    ("Environment:\n  - GPUs: 16x H100 80GB (2 nodes)\n  - Network: 8x 400 Gbps InfiniBand NDR per "
     "node\n  - NCCL 2.19.3, CUDA 12.3\n  - PyTorch 2.2\nProblem: the all-reduce busbw is 120 GB/s, "
     "expected ~350.",
     {N: 2, G: 8, SP: 400.0, NCNT: 8, NV: "2.19.3", BUS: 120.0}),
    ("**System Info**\n- `transformers` version: 4.38.2\n- Platform: "
     "Linux-5.15.0-1045-aws-x86_64-with-glibc2.31\n- Python version: 3.10.12\n- PyTorch version (GPU?): "
     "2.1.2+cu121 (True)\n- Using distributed or parallel set-up in script?: yes, 2 nodes, 8 GPUs each",
     {N: 2, G: 8}),
    ("### Environment\n* CUDA: 12.1\n* NCCL: 2.18.6\n* Nodes: 2 x p4d.24xlarge\n* EFA: enabled\n\nbusbw "
     "45 GB/s in all_reduce_perf",
     {NV: "2.18.6", N: 2, BUS: 45.0, "node.instance_type": "p4d.24xlarge"}),
    ("nvidia-smi: Driver Version: 525.85.12   CUDA Version: 12.0. 4 nodes with 8x A100 each, 200 Gb/s "
     "HDR.",
     {DRV: "525.85.12", N: 4, G: 8, SP: 200.0}),
    ("NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE [2]mlx5_2:1/RoCE [3]mlx5_3:1/RoCE ; "
     "OOB eth0:10.0.0.3<0>\nbut busbw is only 20 GB/s on our 2 nodes",
     {TR: "ib", BUS: 20.0, N: 2}),
    ("NCCL INFO Channel 00 : 0[0] -> 1[1] via P2P/IPC\nNCCL INFO Channel 00/0 : 7[7] -> 8[0] [send] via "
     "NET/Socket/0\nslow across nodes",
     {TR: "socket"}),
    ("Set NCCL_SOCKET_IFNAME=bond0 and NCCL_IB_DISABLE=1; 2 nodes over 2x25G bond",
     {"nccl.socket_ifname": "bond0", "nccl.ib_disabled": True, N: 2, SP: 25.0, NCNT: 2}),
    ("We're using 3 nodes, but one of them has only 4 GPUs while the other two have 8.",
     {N: 3}),
    ("Batch size 32 per GPU, 16 GPUs, 2 nodes, 10 epochs, 25G network: epoch time 40 min vs 35 min on "
     "one node",
     {N: 2, BN: 1, SP: 25.0, G: 8}),
    ("port 29500 is open, ping 0.1ms, iperf 9.4 Gbit/s between the 2 nodes",
     {N: 2, IPERF: 9.4, "net.rtt_ms": 0.1}),
    ("Our cluster has 32 nodes; my job uses 2 nodes with 8 V100s each over 100G EDR.",
     {N: 2, G: 8, SP: 100.0}),
    ("GPU util ~100% on single node, ~40% on 2 nodes.",
     {UTIL: 40.0, N: 2, BN: 1}),
    ("With 2 nodes the GPU utilization is 45% while with 1 node it is 95%.",
     {UTIL: 45.0, N: 2, BN: 1}),
    ("GPU utilization: single node 96%, multi-node 38%.",
     {UTIL: 38.0}),
    ("all_reduce_perf 2 nodes: 9.5 GB/s busbw; 1 node: 230 GB/s busbw",
     {BUS: 9.5, N: 2}),
    ("Throughput on 2 nodes is 1.6x of 1 node, is that normal for 25GbE?",
     {"job.speedup": 1.6, BN: 1, N: 2, SP: 25.0}),
    ("scaling efficiency drops to 55% at 8 nodes",
     {"job.scaling_efficiency_pct": 55.0, N: 8}),
    ("The all-reduce takes 250 ms per step out of a 600 ms step on 4 nodes",
     {N: 4, STEP: 0.6}),
    ("2x DGX H100, 8x ConnectX-7 400G NDR each, busbw 360 GB/s",
     {N: 2, G: 8, NCNT: 8, SP: 400.0, BUS: 360.0}),
    ("Two nodes, each with 4x RTX 6000 Ada and a single 100GbE NIC",
     {N: 2, G: 4, SP: 100.0, NCNT: 1}),
    ("Running on SLURM with #SBATCH --nodes=4 --ntasks-per-node=8 --gpus-per-node=8, 200G IB",
     {N: 4, G: 8, SP: 200.0}),
    ("mpirun -np 32 -N 8 --hostfile hosts python train.py, HDR 100",
     {N: 4, G: 8}),
    ("We are not using NVLink — the GPUs are PCIe 4.0 x16 cards, 4 per node, 2 nodes.",
     {"gpu.nvlink": False, G: 4, N: 2}),
]

# Forms not read yet (a strict xfail flips when one is).
NOT_YET: list[tuple[str, dict[str, object]]] = [
    # a busbw above one port's rate while the count of ports is not said ('8 x HDR 200Gb/s', '400G NDR'): kept out
    ("**Environment**\nPyTorch 2.1.0, CUDA 11.8, NCCL 2.16.2\n4 nodes, 8x H100 80GB each\nNetwork: 400G "
     "NDR InfiniBand\n\nall_reduce busbw is only 90 GB/s",
     {N: 4, G: 8, SP: 400.0, KIND: "infiniband", BUS: 90.0, NV: "2.16.2"}),
    # a busbw above one port's rate while the count of ports is not said ('8 x HDR 200Gb/s', '400G NDR'): kept out
    ("My cluster: 2 DGX A100, 8 x HDR 200Gb/s ConnectX-6 per node. nccl-tests all_reduce_perf gives 180 "
     "GB/s busbw. Is that expected?",
     {N: 2, G: 8, SP: 200.0, BUS: 180.0}),
    # a command line whose full stop is followed by settings ('--zero_stage 2. hostfile: node1 slots=8 ... 100G IB.')
    ("deepspeed --hostfile hostfile --num_nodes 2 --num_gpus 8 train.py --zero_stage 2. hostfile: node1 "
     "slots=8, node2 slots=8. 100G IB.",
     {N: 2, G: 8, SP: 100.0, "job.zero_stage": 2}),
    # two clusters' busbw set side by side ('Our A100 cluster reaches 85 GB/s, the new H100 cluster only 40 GB/s')
    ("Our A100 cluster reaches 85 GB/s, the new H100 cluster only 40 GB/s with NCCL 2.21.5.",
     {BUS: 40.0, NV: "2.21.5"}),
    # the link named inside a what-if about more machines ('would the 25G network become the bottleneck?')
    ("If we move to 8 nodes, would the 25G network become the bottleneck? Right now 2 nodes, 8 GPUs "
     "each.",
     {N: 2, G: 8, SP: 25.0}),
    # a bare rate ('25G') at the end of a list with no network word
    ("MTU is 9000 on all interfaces, 2 nodes, 25G",
     {"nic.mtu": 9000, N: 2, SP: 25.0}),
    # a count of NICs after the rate ('ConnectX-7 400Gb/s NDR, 8 per node')
    ("We have Mellanox ConnectX-7 400Gb/s NDR, 8 per node",
     {SP: 400.0, NCNT: 8, KIND: "infiniband"}),
    # a node's aggregate with its rails in parentheses ('800 Gbps per node (8x100G)')
    ("Network bandwidth: 800 Gbps per node (8x100G)",
     {NCNT: 8, SP: 100.0}),
    # Kubernetes pods as the machines ('2 pods, each pod gets 8 GPUs')
    ("We run on a k8s cluster with 2 pods, each pod gets 8 GPUs, pod network is Calico over 25G",
     {N: 2, G: 8, SP: 25.0}),
    # a bare rate at a list's end ('H100 PCIe (no NVLink bridge), 2 per node, 4 nodes, 200G')
    ("the GPUs are H100 PCIe (no NVLink bridge), 2 per node, 4 nodes, 200G",
     {G: 2, N: 4, SP: 200.0}),
    # a bare rate after a fabric's brand name ('Slingshot 200G')
    ("Hey, 4 nodes x 8 MI250X, RCCL, Slingshot 200G. busbw 35 GB/s.",
     {N: 4, G: 8, SP: 200.0, BUS: 35.0}),
    # the job's size as the start of a what-if ('Would moving from 2 to 4 nodes help?')
    ("Would moving from 2 to 4 nodes help, given we only have 10GbE?",
     {SP: 10.0, N: 2}),
    # a backticked setting and a backticked NCCL line in one sentence ('`NCCL_DEBUG=INFO` prints `NCCL INFO ...`')
    ("`NCCL_DEBUG=INFO` prints `NCCL INFO Using network Socket` on both nodes. We have 2 nodes with "
     "100GbE Mellanox cards.",
     {TR: "socket", N: 2, SP: 100.0}),
    # a busbw above one port's rate while the count of ports is not said ('8 x HDR 200Gb/s', '400G NDR'): kept out
    ("8 A100 nodes with 4x HDR each; nccl busbw 80 GB/s",
     {N: 8, BUS: 80.0}),
]


def _problems(text: str, expected: dict[str, object]) -> list[str]:
    return read_problems(text, expected)


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_probe_read(text: str, expected: dict[str, object]) -> None:
    assert _problems(text, expected) == []


@pytest.mark.xfail(strict=True, reason="a form the reader does not read yet")
@pytest.mark.parametrize(("text", "expected"), NOT_YET)
def test_probe_not_read_yet(text: str, expected: dict[str, object]) -> None:
    assert _problems(text, expected) == []


# --- the layers changed, one form each

@pytest.mark.parametrize(("text", "command", "words"), [
    ("accelerate launch --num_machines 2 --num_processes 16 train.py. Network is 25GbE.",
     "accelerate launch --num_machines 2 --num_processes 16 train.py", "Network is 25GbE."),
    ("torchrun --nnodes 4 --nproc_per_node 8 pretrain.py. It is slow on 100G RoCE.",
     "torchrun --nnodes 4 --nproc_per_node 8 pretrain.py", "It is slow on 100G RoCE."),
])
def test_a_command_line_ends_at_a_full_stop(text: str, command: str, words: str) -> None:
    from bwdoctor.chat.commands import blank, read_commands

    found = read_commands(text)
    assert [t.rstrip(".") for t in found.texts] == [command]
    assert words in blank(text, found.spans)


def test_a_command_line_keeps_the_settings_after_a_full_stop() -> None:
    from bwdoctor.chat.commands import read_commands

    text = "deepspeed --num_nodes 2 train.py --zero_stage 2. hostfile: node1 slots=8, node2 slots=8"
    assert read_commands(text).texts == [text]


@pytest.mark.parametrize(("text", "count"), [
    ("8x Mellanox ConnectX-7 400G NDR", 8),
    ("2 x CX-6 100G per node", 2),
    ("4xEDR 100Gbps InfiniBand", None),  # the link's width, four lanes
    ("4x HDR 200G", None),
    ("2x A100 200G IB", None),  # GPUs, then the link
])
def test_a_count_of_nics_before_the_card(text: str, count: int | None) -> None:
    assert facts(text).get(NCNT) == count


@pytest.mark.parametrize(("text", "util"), [
    ("with 1 node we are at 95% GPU utilization, with 2 nodes it drops to 50%", 50.0),
    ("utilization is 99% on one node but 35% on 2 nodes", 35.0),
    ("GPU util is 90%, throughput drops 30%", 90.0),  # a drop of another measure
    ("we are at 95% GPU utilization and 30% CPU", 95.0),
])
def test_the_load_of_the_jobs_run(text: str, util: float) -> None:
    assert facts(text).get(UTIL) == util


@pytest.mark.parametrize(("text", "top_k"), [
    ("MoE with 64 experts, top-2 routing", 2),
    ("Mixtral-style experts with top1 gating", 1),
    ("ResNet-50 top-1 accuracy drops on 4 nodes", None),
    ("MoE model, top-5 accuracy 90%", None),
])
def test_a_moe_routing_said_in_words(text: str, top_k: int | None) -> None:
    assert facts(text).get("job.moe_top_k") == top_k


@pytest.mark.parametrize(("text", "nodes"), [
    ("Nodes: 16\nFabric: EFA", 16),
    ("machines: 4\nOS: Ubuntu 22.04", 4),
    ("Number of nodes: 2 GPUs per node: 8", 2),
])
def test_a_count_under_a_label_on_its_own_line(text: str, nodes: int) -> None:
    assert facts(text).get(N) == nodes


@pytest.mark.parametrize(("text", "expected"), [
    ("all_gather is much slower than all_reduce on 4 nodes", {N: 4, BN: None, NEG: None}),
    ("reduce_scatter is 2x slower than all-gather with 2 nodes", {N: 2, BN: None, NEG: None}),
    ("the all_reduce on 2 nodes is slower than on 1 node", {N: 2, BN: 1, NEG: True}),
])
def test_collectives_compared_on_the_same_machines(text: str, expected: dict[str, object]) -> None:
    assert _problems(text, expected) == []


def test_the_askers_words_after_a_dash_on_a_log_line() -> None:
    text = "NCCL WARN NET/IB : Got completion from peer 10.0.0.2<44321> with error 12 (Recv) — happens on 4 nodes"
    assert facts(text).get(N) == 4
    assert facts("NCCL INFO comm 0x55d5 rank 0 nranks 16 cudaDev 0 busId 1000 - Init COMPLETE").get(N) is None


@pytest.mark.parametrize(("text", "expected"), [
    ("throughput is 1.3x of a single node", {"job.speedup": 1.3, BN: 1, N: None}),
    ("we get 1.3x the throughput of a single node", {"job.speedup": 1.3, BN: 1, N: None}),
    ("throughput is only 1.3x that of a single node", {"job.speedup": 1.3, BN: 1, N: None}),
    ("the speedup is 1.3x over a single node", {"job.speedup": 1.3, BN: 1, N: None}),
    ("2 nodes: throughput is 1.3x of a single node", {"job.speedup": 1.3, BN: 1, N: 2}),
    ("we expected 2x the throughput of a single node", {"job.speedup": None, BN: None}),  # a target
    ("8 GPUs give 6x the throughput of a single GPU", {BN: None}),  # one GPU, not one machine
])
def test_a_factor_over_one_machine(text: str, expected: dict[str, object]) -> None:
    assert _problems(text, expected) == []


@pytest.mark.parametrize(("text", "expected"), [
    # whether the job's own figure is normal, asked: the figure is the job's
    ("Is it expected that busbw is only 20 GB/s on 2 nodes?", {BUS: 20.0, N: 2}),
    ("Is it expected that 2 nodes are only 1.5x faster than one node?", {"job.speedup": 1.5, BN: 1}),
    ("busbw is 20 GB/s on 2 nodes, is this expected?", {BUS: 20.0}),
    # a figure expected is still no measurement
    ("We expected 40 GB/s busbw on 2 nodes.", {BUS: None}),
    ("we expected 2x the throughput of a single node", {"job.speedup": None}),
])
def test_a_figure_asked_whether_expected(text: str, expected: dict[str, object]) -> None:
    assert _problems(text, expected) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("Would 200G InfiniBand be enough for 4 nodes of 8 H100?", {SP: None, KIND: None, N: 4, G: 8}),
    ("would 100GbE suffice for 2 nodes?", {SP: None, N: 2}),
    ("We have 100GbE. Would it be enough for 2 nodes?", {SP: 100.0, N: 2}),
])
def test_a_fabric_weighed_with_would(text: str, expected: dict[str, object]) -> None:
    assert _problems(text, expected) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("GPUs: A100 80GB, 8 per node", {G: 8}),
    ("the GPUs are H100 PCIe (no NVLink bridge), 2 per node, 4 nodes", {G: 2, N: 4}),
    ("NICs: ConnectX-6 200G, 2 per node", {G: None, NCNT: 2}),  # the NICs named last
    ("We have Mellanox ConnectX-7 400Gb/s NDR, 8 per node", {G: None}),
])
def test_a_bare_count_per_machine_after_the_gpus(text: str, expected: dict[str, object]) -> None:
    assert _problems(text, expected) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("python -m torch.distributed.launch --nproc_per_node=4 --nnodes=2 --node_rank=0 --master_addr=192.168.0.2 "
     "--master_port=1234 main.py\nGPU utilization is about 40%", {UTIL: 40.0, N: 2, G: 4}),
    ("torchrun --nnodes 2 \\\n  --nproc_per_node 8 train.py\nGPU utilization is about 40%", {UTIL: 40.0, N: 2, G: 8}),
    ("torchrun --nnodes 2 --nproc_per_node 8 --master_addr 10.0.0.1 --master_port 29500 train.py --batch_size 32\n"
     "throughput is 1.3x of a single node", {"job.speedup": 1.3, BN: 1, N: 2}),
])
def test_a_launchers_line_ends_at_its_break(text: str, expected: dict[str, object]) -> None:
    assert _problems(text, expected) == []


def test_a_wrapped_sentence_still_joins() -> None:
    from bwdoctor.chat.text import soften_line_breaks

    assert soften_line_breaks("we run python with\nfour workers") == "we run python with four workers"
    assert soften_line_breaks("torchrun --nnodes 2 a.py\nis slow") == "torchrun --nnodes 2 a.py\nis slow"
