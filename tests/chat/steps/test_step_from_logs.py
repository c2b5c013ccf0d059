"""The job's own numbers: a probe battery of the ways people give their step time from a pasted training
log, their batch sizes, GPU utilisation that changed, a parameter-server job's roles and a data pipeline that is the
bottleneck, in English and in Chinese, with the numbers beside them that are not the fact (a data wait taken for the
step, a setting's value taken for a count, a per-GPU batch taken for the global one).

Written for this battery (not copied from the corpus). Each row names what must be read and what must not be (None).
"""

from __future__ import annotations

import pytest

from bwdoctor.chat import answer_turn
from tests.matching import fact_problems

STEP, WAIT, G, N = "job.step_time_s", "job.data_wait_pct", "job.gpus_per_node", "job.nodes"
MB, GB = "job.micro_batch_size", "job.global_batch_size"
UTIL, MULTI, BN = "gpu.util_pct", "job.multi_node", "job.baseline_nodes"
WORKERS = "job.dataloader_workers"
PS, CPU = "job.comm_pattern", "cpu.util_pct"
SIZE, BUSBW = "job.model_params_b", "nccl.allreduce_busbw_gbytes_per_s"

CASES: list[tuple[str, dict[str, object]]] = [
    # --- a Paddle metric line pasted inline: batch_cost is the step, reader_cost its wait for data
    ("训练日志：`epoch: [1/50], iter: 120, lr: 0.001, loss: 2.3, reader_cost: 0.50000 s, batch_cost: 2.00000 s, "
     "samples: 512, ips: 256.0` GPU 利用率很低", {STEP: 2.0, WAIT: 25.0}),
    ("Log line: `epoch: [2/10], iter: 40, loss: 1.1, reader_cost: 0.01 s, batch_cost: 0.95 s, ips: 310.2` on 8 GPUs, "
     "why is the GPU util so low?", {STEP: 0.95}),
    ("print_batch_step=5\n`epoch: [3/100], iter: 594, loss: 5.18, reader_cost: 0.02042 s, batch_cost: 1.83910 s, "
     "samples: 2880, ips: 521.99`\n显卡利用率一直在 40% 以下", {STEP: 1.8391, G: None, N: None}),
    ("batch_size=64\n`iter: 10, reader_cost: 0.3 s, batch_cost: 0.6 s, ips: 100`\n8 GPUs on one machine are idle",
     {STEP: 0.6, WAIT: 50.0, G: 8}),
    # --- a bare batch size under a framework that splits one batch across the GPUs is the global batch
    ("YOLOv8 on 4x RTX 3090, batch size 192, training is slower than on one GPU", {GB: 192, MB: None}),
    ("One server with 8 V100: `python -m torch.distributed.run --nproc_per_node 8 train.py --batch-size 256 --data "
     "coco.yaml --weights yolov5m.pt` is slower than one GPU", {GB: 256, MB: None, G: 8}),
    ("mxnet Module with ctx = [mx.gpu(i) for i in range(4)], batch size 512, GPUs mostly idle", {GB: 512, MB: None}),
    ("用 YOLOX 训练，4 张卡 batch size 64，比单卡还慢", {GB: 64, MB: None}),
    ("gluon 的 split_and_load 分到 8 张卡，batch size 1024，GPU 利用率很低", {GB: 1024, MB: None}),
    ("nn.DataParallel on 4 GPUs with batch size 128 is slower than one GPU", {GB: 128, MB: None}),
    # (elsewhere a bare batch is each process's: DDP, the Trainer, Horovod)
    ("PyTorch DDP on 2 nodes with 8 GPUs each, batch size 32, over 25GbE", {MB: 32, GB: None}),
    ("Horovod 两台机器，每台 4 卡，batch size 64，10G 网络", {MB: 64, GB: None}),
    # --- said split across the GPUs
    ("batch size 512 across 8 GPUs on one machine, DDP is slow", {GB: 512, MB: None}),
    ("batch size 256 分到 8 张卡上，单机训练很慢", {GB: 256, MB: None}),
    # --- per GPU and global, each named
    ("每卡 batch 32，总 batch 256，两台机器 8 卡", {MB: 32, GB: 256}),
    ("bs=64 per device on 2 nodes with 8 GPUs each", {MB: 64, GB: None}),
    ("global batch size 1024, micro batch size 4, 16 nodes", {MB: 4, GB: 1024}),
    # --- 'batch N' as an item of a list of settings; a batch's index is none
    ("ResNet-50, batch 32, TCP, 2 nodes with one V100 each", {MB: 32}),
    ("两台机器各一张 V100，ResNet-50，batch 64，走 TCP", {MB: 64}),
    ("At batch 500 the loss spikes on our 2 nodes", {MB: None, GB: None}),
    ("we log every batch 10 times per epoch on 2 nodes", {MB: None, GB: None}),
    # --- a second run's batch said without its words: the last said stands (the larger run)
    ("mxnet dist_sync：单机时 batch size 256，两机时 512，两台反而更慢", {GB: 512}),
    ("With PyTorch DDP, batch size 32 on one machine, 64 on two machines, and two machines are slower", {MB: 64}),
    # --- `--train_batch_size` is per device as a training script's option, global beside a micro-batch option
    ("`torchrun --nnodes 2 --nproc_per_node 8 train.py --train_batch_size=2 --gradient_accumulation_steps=1` is 10x "
     "slower than one node", {MB: 2, GB: None}),
    ("OpenRLHF: `deepspeed --module openrlhf.cli.train_ppo --micro_train_batch_size 8 --train_batch_size 128` on 2 "
     "nodes", {MB: 8, GB: 128}),
    # --- the GPUs' load named further back, with whose GPUs between; the later (distributed) figure is the job's
    ("On one computer the GPU utilization is almost 90%. Distributed with TensorFlowOnSpark, the GPU utilization of "
     "each worker node is only about 10%.", {UTIL: 10.0, MULTI: True, BN: 1, N: None}),
    ("the GPU utilization on all of our worker machines stays around 35% with Horovod", {UTIL: 35.0}),
    ("单机时 GPU 利用率 90%，分布式以后 GPU 利用率在每个 worker 节点上都只有 10% 左右", {UTIL: 10.0}),
    ("GPU util drops from 90% to 10% when going to 2 nodes", {UTIL: 10.0, N: 2}),
    # (a share of time, a CPU's load or another figure between is none)
    ("the GPU utilization report says each worker spends about 40% of the time waiting", {UTIL: None}),
    ("GPU utilization looks fine, but the CPU on each worker node sits at 95%", {UTIL: None}),
    # --- machines by their role: the job spans several
    ("每个 worker 节点的 GPU 都很闲，训练很慢", {MULTI: True}),
    ("every worker node shows the same slow all-reduce", {MULTI: True}),
    # --- the step's time said to go into preparing its data, as a share in words or per cent
    ("Profiling shows nearly half of the time goes into preparing the train_iter for each batch on an 8-GPU host",
     {WAIT: 50.0}),
    ("a third of each step is spent loading the batches on 8 GPUs", {WAIT: 33.3}),
    ("将近一半的时间花在准备数据上，8 卡单机", {WAIT: 50.0}),
    ("30% 的时间用来读取和预处理数据，GPU 经常空着", {WAIT: 30.0}),
    # (another part of the step, or a question, is none)
    ("half of the time goes into all-reduce on 2 nodes", {WAIT: None}),
    ("is half of the time spent on loading data normal?", {WAIT: None}),
    ("一半的时间花在梯度同步上", {WAIT: None}),
    # --- the data loader's worker processes
    ("Very slow multi-GPU training. Data loader workers = 0, and the data set is 400,000 pictures.", {WORKERS: 0}),
    ("DataLoader 的 num_workers 设为 0，8 卡单机很慢", {WORKERS: 0}),
    ("num_workers 从 8 调到 16 速度也没提升", {WORKERS: 16}),
    ("`python main.py --workers 0 -a resnet50 --dist-url tcp://10.0.0.1:23456 --world-size 2` is slow", {WORKERS: 0}),
    ("we raised num_workers from 4 to 8 on both nodes, no change", {WORKERS: 8}),
    # (Ray Train's workers train, a parameter server's workers are machines, a question sets nothing)
    ("TorchTrainer(ScalingConfig(num_workers=4, use_gpu=True)) across 2 nodes is slow", {WORKERS: None}),
    ("PS job with 2 workers and 1 server on 10GbE", {WORKERS: None}),
    ("should num_workers be 0 on each rank?", {WORKERS: None}),
    # --- a parameter-server job's roles said with a verb; a role of one machine is no one-machine run
    ("I use all 4 nodes (one is scheduler, one is server, 2 are GPU workers) and get 17 img/sec",
     {PS: "parameter_server", N: 4, G: None, BN: None}),
    ("of the 3 nodes, two are workers and one is the server, over 10GbE", {PS: "parameter_server", N: 3}),
    ("4 台机器：一台做 scheduler，一台是 server，两台是 worker，速度很慢", {PS: "parameter_server", BN: None}),
    ("2 nodes, one is the master and one is a worker, training is slow", {PS: None}),
    # --- a run that works beside the one that does not is no pick of the job's machines
    ("4 个 server、8 个 worker，均分到 4 台机器上。只用两台机器能正常跑，多加几个 IP 就容易卡住", {N: 4}),
    ("We have 10 machines but this run only uses 2 of them, and it is slow", {N: 2}),
    ("我们有 10 台机器，但是这次只用了 2 台，很慢", {N: 2}),
    # --- a load said of the one-machine run before the job's larger run is named is the baseline's
    ("a single node gives 128 img/sec per GPU and GPU-Util at 99%, looks normal. When I use all 4 nodes GPU-Util jumps "
     "around", {UTIL: None, N: 4}),
    ("单机训练时 GPU 利用率 95%，很正常。换成 4 台机器以后速度很慢", {UTIL: None, N: 4}),
    ("single node: GPU util 95%; on 4 nodes it is 40%", {UTIL: 40.0}),
    ("GPU util is 99% on a single node. With 4 nodes it is slow.", {UTIL: None, N: 4}),
    # (and so is its per-GPU batch, said as the condition of the one-machine run)
    ("2 台机器 dist_sync 时每卡 batch 64 接近线性。每卡 batch 32 时单机 2 卡甚至比 1 卡还慢。为什么 2 台机器反而更快？",
     {MB: 64}),
    ("单机时每卡 batch 32，多机时每卡 batch 16，4 台机器很慢", {MB: 16}),
    ("单机 8 卡，每卡 batch 32，很慢", {MB: 32}),
    ("单机 8 卡 GPU 利用率只有 30%，怎么回事", {UTIL: 30.0}),
    # --- one machine of N GPUs written with a times sign; a GPU model at a sentence's end
    ("Following the train guide on an 8*GPU machine, 8 GPUs are slower than 1 GPU", {G: 8, N: None}),
    ("an 8xGPU server with PCIe only, DDP is slow", {G: 8, N: None}),
    ("2x GPU servers connected by 10GbE", {N: 2}),
    ("I have 4 GPU nodes but each has only one 1080ti. Following the tutorial it is slow.", {G: 1, N: 4}),
    # --- what a tried setting can do to a load is no load of the job
    ("设 OMP_NUM_THREADS / MKL_NUM_THREADS 能把 CPU 占满但速度没啥提升，4 台机器", {CPU: None}),
    ("加了 num_workers 以后能把 GPU 跑满，但多机还是慢", {UTIL: None}),
    ("训练时 CPU 占满了，GPU 很闲", {CPU: 95}),
    # --- a smaller model said not to have the problem: its size and batch are another run's
    ("在 32 张 V100 上训 10B 参数的 GPT-2，micro batch 1，一个 step 要 40 秒。"
     "小模型没这个问题，2.6B 模型 micro batch 8 时只要 3 秒。", {SIZE: 10.0, MB: 1}),
    ("Training a 13B model on 4 nodes, micro batch size 2, each step takes 30 s. "
     "Smaller models don't have this problem: a 1.3B model with micro batch size 16 takes 2 s.", {SIZE: 13.0, MB: 2}),
    ("We moved from a 1.3B model to a 13B model on 4 nodes and steps are 10x slower", {SIZE: 13.0}),
    # --- a part's peak said beside the measurement is a reference
    ("all_reduce_perf on 8 H100 (NVLink) saturates at ~360 GB/s busbw. NVLink's peak bidirectional bandwidth is 900 "
     "GB/s, so am I getting only one direction?", {BUSBW: 360.0}),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_job_numbers_read(engine, text: str, expected: dict[str, object]) -> None:
    assert fact_problems(answer_turn(text, engine=engine), expected) == []


@pytest.mark.parametrize("text", [
    "Multi-GPU training is much slower than one GPU. Data loader workers = 0, 400k images.",
    "单机 4 卡训练比单卡还慢，DataLoader 的 num_workers 设为 0",
])
def test_a_loader_without_workers_is_the_input_pipeline(engine, text: str) -> None:
    findings = answer_turn(text, engine=engine)["findings"]
    assert "input-pipeline-cpu" in {f["category"] for f in findings}
    assert not {"nic-undersized", "nccl-transport-fallback"} & {f["category"] for f in findings}


def test_a_loader_with_workers_says_nothing_of_it(engine) -> None:
    findings = answer_turn("单机 4 卡训练比单卡还慢，num_workers 设为 8", engine=engine)["findings"]
    assert "dataloader-without-workers" not in {f["rule"] for f in findings}
