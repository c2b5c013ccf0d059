"""Forms of slice s24: a probe battery of the ways its threads say a job's size, its launcher's settings
and the run it is compared with, in English and in Chinese, with the numbers beside them that are none of these
(another model said to train well, a log's iteration number, a board glued to a count, a role between count and
machine).

Written for this battery (not copied from the corpus). Each row names what must be read and what must not be (None).
"""

from __future__ import annotations

import pytest

from bwdoctor.chat import answer_turn
from tests.matching import fact_problems

SIZE, N, G = "job.model_params_b", "job.nodes", "job.gpus_per_node"
BG, NEG = "job.baseline_gpus", "job.negative_scaling"
MODEL, MICRO, WORKERS, STEP = "gpu.model", "job.micro_batch_size", "job.dataloader_workers", "job.step_time_s"

CASES: list[tuple[str, dict[str, object]]] = [
    # --- another model said to train well is no size of the job
    ("用 LLaMA-Factory 训 Intern-S1-241B 一直卡住。同样的配置，qwen 235B 都能顺利训练。", {SIZE: 241}),
    ("Qwen-72B 在两机上卡在 step 0，而 Llama-7B 就没问题", {SIZE: 72}),
    ("7B 跑得好好的，70B 就卡住了", {SIZE: 70}),
    ("Llama-70B trains fine, but our 241B hangs at step 0", {SIZE: 241}),
    ("our 241B hangs at step 0 but Llama-70B trains fine on the same nodes", {SIZE: 241}),
    ("The 7B and 13B models run fine, the 70B one hangs after 5 steps", {SIZE: 70}),
    ("Qwen-72B hangs on 2 nodes. The 7B model works fine.", {SIZE: 72}),
    # one model only: said to work in one setting, it is still the job's
    ("The 70B model trains fine on one node but hangs on two", {SIZE: 70}),
    ("70B 模型单机能顺利训练，两机就卡住", {SIZE: 70}),
    # --- a log's iteration number is no run size
    ("train_throughput 8409.03 at iteration 99, 9225.36 at 199 on 2 nodes x 8 GPUs", {N: 2, G: 8}),
    ("throughput 1200 samples/s at iteration 50, 1500 at iteration 100; is that normal?", {N: None}),
    ("loss 2.31 at version 3, 2.10 at version 4", {N: None}),
    # --- a board's model glued to a count by a hyphen
    ("My 16-V100 ResNet-50 benchmark (2 nodes × 8 GPUs) gets 9225 samples/sec", {N: 2, G: 8, MODEL: "V100"}),
    ("我们的 16-A100 集群（2 机 × 8 卡）训练很慢", {N: 2, G: 8, MODEL: "A100"}),
    ("ResNet-50 on 2 nodes is slow", {N: 2, MODEL: None}),
    ("an 8-A100 node is slow on all_reduce", {N: 1, G: 8, MODEL: "A100"}),
    ("two nodes, each 8-A100 box on 100G RoCE", {N: 2, G: 8, MODEL: "A100"}),
    ("a 2-node job on 100 Gbps RoCE", {N: 2, G: None}),
    # --- launchers of other frameworks
    ("    python3 of_cnn_train_val.py --gpu_num_per_node=8 --batch_size_per_device=256 --num_nodes=2",
     {N: 2, G: 8, MICRO: 256}),
    ("    python train.py --num_gpus_per_machine 4 --per_device_batch_size 16 --num_nodes 2", {N: 2, G: 4, MICRO: 16}),
    ("    colossalai run --nproc_per_node 8 benchmark.py --config 7b --batch_size 8", {G: 8, SIZE: 7}),
    ("    torchrun --nproc_per_node 8 train.py --model_size 13B", {G: 8, SIZE: 13}),
    # a config file's name says less
    ("    torchrun --nproc_per_node 8 train.py --config configs/llama_7b.yaml", {G: 8, SIZE: None}),
    ("    python train.py --config config.yaml --batch_size 8", {SIZE: None}),
    # --- the loader's workers, set in words
    ("num_workers 设置了 16，但看起来还是单线程在载入数据，CPU 使用率一直在 25%", {WORKERS: 16, "gpu.util_pct": None}),
    ("num_workers 开到 8 也没用，GPU 利用率还是很低", {WORKERS: 8}),
    ("I set num_workers to 16 but loading is still single-threaded", {WORKERS: 16}),
    ("with num_workers=8 the GPU util is only 40%", {WORKERS: 8}),
    ("should I set num_workers to 16?", {WORKERS: None}),
    ("num_workers 要不要设置成 16？", {WORKERS: None}),
    # --- Paddle Fluid's batch time
    ("dssm 用 MPI 训练很慢：\n    Batch time: 15.881043, sample_per_second: 32.239696, py_reader_queue_size: 188",
     {STEP: 15.881, WORKERS: None}),
    ("训练日志：\n    Batch time: 0.5, sample_per_second: 1024.0\n    Batch time: 0.5, sample_per_second: 1024.0",
     {STEP: 0.5}),
    # --- a role between the count and the machines
    ("用 100 个 MPI 节点（内存估计 60G），平均每轮需要 2h", {N: 100, "mem.used_pct": None}),
    ("用 4 个 GPU 节点训练很慢", {N: 4, G: None}),
    ("8 个计算节点，每个节点 4 张卡", {N: 8, G: 4}),
    # --- one board named by its model as the run compared with
    ("8 块 3090 一起训练，速度比单块 3090 还慢", {G: 8, BG: 1, NEG: True, N: 1}),
    ("8 张 A100 训练比一张 A100 还慢", {G: 8, BG: 1, NEG: True}),
    ("training on 8 RTX 3090s is slower than on a single 3090", {G: 8, BG: 1, NEG: True}),
    ("4 台机器比一台还慢", {N: 4, BG: None, NEG: True}),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_s24_forms_read(engine, text: str, expected: dict[str, object]) -> None:
    assert fact_problems(answer_turn(text, engine=engine), expected) == []
