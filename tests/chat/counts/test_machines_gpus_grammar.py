"""Counts and hardware: a grammar-style battery of the ways people state machines, GPUs per machine, the GPUs
in all, the GPU model and the model size, in English and Chinese, and the traps beside them.

Shapes are modelled on how setups are written in GitHub issues and Chinese forum posts (not copied from them, nor from
the corpus). Each sentence names what must be read, and what must not be (None).
"""

from __future__ import annotations

import pytest

from bwdoctor.chat import answer_turn, understand
from bwdoctor.chat.entities import find_entities
from tests.matching import fact_problems

N, G, T, M, P, C = "job.nodes", "job.gpus_per_node", "total", "gpu.model", "job.model_params_b", "gpu.count"

CASES: list[tuple[str, dict[str, object]]] = [
    # --- machines and GPUs, Chinese
    ("4台8卡A100", {N: 4, G: 8, T: 32, M: "A100"}),
    ("两机16卡", {N: 2, G: 8, T: 16}),
    ("2机2卡（每台1张3090）", {N: 2, G: 1, M: "RTX 3090"}),
    ("8机64卡", {N: 8, G: 8, T: 64}),
    ("A800 8卡 x 4台", {N: 4, G: 8, M: "A800"}),
    ("双机各 8 张 910B", {N: 2, G: 8, M: "910B"}),
    ("我们有 3 台服务器（每台 2 张 V100 32G）", {N: 3, G: 2, M: "V100"}),
    ("我用两台服务器，每台服务器8张A100，训练很慢", {N: 2, G: 8, M: "A100"}),
    ("两台 8*A100 服务器", {N: 2, G: 8, M: "A100"}),
    ("机器：A100 80G * 8，共两台", {N: 2, G: 8, M: "A100"}),
    ("硬件：2 x 8 x A800 80G", {N: 2, G: 8, M: "A800"}),
    ("4机32卡 H800", {N: 4, G: 8, M: "H800"}),
    ("训练环境是 4 台 8 卡的 V100 机器", {N: 4, G: 8, M: "V100"}),
    ("服务器 2 台，GPU 型号 A100，每台 8 块", {N: 2, G: 8, M: "A100"}),
    ("显卡：8 块 RTX 4090", {G: 8, M: "RTX 4090"}),
    ("4 台服务器，每台 1 张 T4", {N: 4, G: 1, M: "T4"}),
    ("两台 A800*8 机器，RoCE 互联", {N: 2, G: 8, M: "A800"}),
    ("A100*8 机器 2 台", {N: 2, G: 8, M: "A100"}),
    # --- machines and GPUs, English
    ("4 x 8 H100", {N: 4, G: 8, M: "H100"}),
    ("2 nodes * 8 GPUs", {N: 2, G: 8}),
    ("two boxes with 4 RTX 4090 each", {N: 2, G: 4, M: "RTX 4090"}),
    ("a cluster of 16 DGX H100", {N: 16, G: 8}),
    ("32 A100s across 4 machines", {N: 4, G: 8, M: "A100"}),
    ("I use 2 servers, one 4090 in each", {N: 2, G: 1, M: "RTX 4090"}),
    ("p4d.24xlarge x 2", {N: 2, G: 8, M: "A100"}),
    ("Standard_ND96asr_v4 x 4", {N: 4, G: 8, M: "A100"}),
    ("GPU: 8 x NVIDIA A100-SXM4-80GB", {G: 8, M: "A100"}),
    ("Hardware: 4 nodes, each with 8x NVIDIA H100 80GB HBM3", {N: 4, G: 8, M: "H100"}),
    ("Setup: 2 machines with 4x RTX 3090 each, 10GbE", {N: 2, G: 4, M: "RTX 3090"}),
    ("I'm training on 2 nodes of 8 A100s", {N: 2, G: 8, M: "A100"}),
    ("training a 7B model on 64 GPUs (8 nodes)", {N: 8, G: 8, P: 7}),
    ("16 nodes (128 H100s)", {N: 16, G: 8, M: "H100"}),
    ("two machines each with a single V100", {N: 2, G: 1, M: "V100"}),
    ("the cluster has 32 nodes with 4 A100 each", {N: 32, G: 4, M: "A100"}),
    ("2 hosts, 8 gpus per host", {N: 2, G: 8}),
    # --- GPU models written in lower case, by board name, or by an older family
    ("I am using 4 a100 gpus and it is slow", {G: 4, M: "A100"}),
    ("running on 8 h100s", {G: 8, M: "H100"}),
    ("two v100 machines over 10GbE", {N: 2, M: "V100"}),
    ("我用的是 8 张 a800", {G: 8, M: "A800"}),
    ("8 张 4090D 跑 LoRA", {G: 8, M: "RTX 4090D"}),
    ("用两张 Titan 训练 AlexNet", {G: 2, M: "Titan"}),
    ("卡是 Tesla M40，4 个 worker", {M: "M40"}),
    ("Tesla K40m x 4", {G: 4, M: "K40"}),
    ("GPU: A100-PCIE-40GB x 4", {G: 4, M: "A100"}),
    # --- a model times a count before a machine word: that machine's GPUs
    ("on an A100-40g*8 node the step takes 5s", {G: 8, N: 1, M: "A100"}),
    ("on an H100 x 8 server", {G: 8, M: "H100"}),
    # --- GPUs listed by index (collect_env, nvidia-smi -L)
    ("Training is slow.\nGPU models and configuration:\nGPU 0: NVIDIA A100-SXM4-80GB\nGPU 1: NVIDIA A100-SXM4-80GB\n"
     "GPU 2: NVIDIA A100-SXM4-80GB\nGPU 3: NVIDIA A100-SXM4-80GB\nNvidia driver version: 535.104.05",
     {G: 4, M: "A100"}),
    ("GPU 3: H100 is slower than the others", {G: None, M: "H100"}),
    # --- a machine's share said beside a loose count, one machine said by its GPUs, a pair said with 双
    ("I run it on 2 machines with 8 GPUs (each machine has 4 GPUs) and it is slow", {N: 2, G: 4}),
    ("Now I have another 8 A100 machine, but training on two machines is not faster", {N: 2, G: 8, M: "A100"}),
    ("an 8 H100 node is fast", {N: 1, G: 8, M: "H100"}),
    ("一台是：双2080ti，另一台是：双1080ti，双机训练很慢", {N: 2, G: 2}),
    ("2 x (8 x A100 80GB) nodes", {N: 2, G: 8, M: "A100"}),
    ("2台8卡4090服务器，万兆网", {N: 2, G: 8, M: "RTX 4090"}),
    # --- labels with a full-width colon
    ("节点：2，每个节点 8 卡", {N: 2, G: 8}),
    ("服务器：4 台，每台 8 张 A100", {N: 4, G: 8}),
    ("每个节点：8", {N: None}),
    # --- each machine's single GPU is no single-machine run
    ("I use two machines and each machine uses one GPU. The speed is too slow.",
     {N: 2, G: 1, "job.baseline_nodes": None}),
    ("Two machines, each one uses 1 GPU: slow", {N: 2, G: 1, "job.baseline_nodes": None}),
    ("两台机器，每台用一张卡", {N: 2, G: 1}),
    # --- more of a data-centre GPU than one machine holds: the job's GPUs in all
    ("用了 16 张 H100 训练", {T: 16, G: None, M: "H100"}),
    ("training on 16 H100 GPUs with FSDP", {T: 16, G: None}),
    ("用 16 张 4090 训练", {G: 16}),  # a 4090 server may hold more than eight
    # --- one cloud instance, board names with a variant digit
    ("I'm on a single p4d.24xlarge (8 x A100 40GB).", {N: 1, G: 8, M: "A100"}),
    ("Our setup is 8 x g5.48xlarge on AWS (8 A10G each).", {N: 8, G: 8, M: "A10G"}),
    ("910B3 x 8，两台", {N: 2, G: 8, M: "910B"}),
    ("4 nodes of 8 x Ascend 910B2", {N: 4, G: 8, M: "910B"}),
    ("GH200 nodes x 4", {M: "GH200"}),
    # --- model sizes
    ("Qwen2.5-72B-Instruct 全参微调，4 台 8 卡 A800", {P: 72, N: 4, G: 8}),
    ("fine-tuning llama-2-13b-chat with deepspeed", {P: 13}),
    ("百亿参数的模型", {P: 10}),
    ("Qwen1.5-0.5B 预训练", {P: 0.5}),
    ("GLM-4-9B LoRA", {P: 9}),
    ("DeepSeek-V3 671B 训练", {P: 671}),
    # --- traps: sizes, rates and names that are no counts
    ("our 7b model trained on 2T tokens, checkpoint 470M", {P: 7}),
    ("RTX 4090 24G，batch 8", {M: "RTX 4090", G: None}),
    ("node0-node3 are our machines", {N: 4}),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_counts_and_hardware(engine, text: str, expected: dict[str, object]) -> None:
    assert fact_problems(answer_turn(text, engine=engine), expected) == []


@pytest.mark.parametrize(("text", "name"), [
    ("/data/a100/ckpt is the checkpoint dir", None),  # a path, not a GPU
    ("the h20 model is fine", None),  # lower case only for the three-digit data-centre names
    ("titan is a host name", None),
    ("v100-32g", "V100"),
    ("l40s x 4", "L40S"),
])
def test_lower_case_gpu_names(text: str, name: str | None) -> None:
    gpus = [e.name for e in find_entities(text) if e.kind == "gpu"]
    assert gpus == ([name] if name else [])


def test_a_gpu_list_needs_its_first_index() -> None:
    facts = understand("GPU 2: NVIDIA A100-SXM4-80GB\nGPU 3: NVIDIA A100-SXM4-80GB").facts
    assert "job.gpus_per_node" not in facts
