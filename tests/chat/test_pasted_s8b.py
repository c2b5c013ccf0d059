"""Pasted launch commands read as an expert reads them: the model a command trains gives its size."""

from typing import Any

import pytest

from bwdoctor.chat.understanding import understand


def facts(question: str) -> dict[str, Any]:
    return understand(question).facts


# --------------------------------------------------------------------------- the model a command trains
@pytest.mark.parametrize(("question", "size"), [
    ("Two nodes are slower than one. Launch:\n```\nNNODES=2 NPROC_PER_NODE=8 swift sft \\\n"
     "  --model Qwen2-VL-72B-Instruct --train_type lora --deepspeed zero3\n```\n", 72.0),
    ("Our run on 4 machines is slow:\n```\ntorchrun --nnodes 4 --nproc_per_node 8 train.py \\\n"
     "    --model_name_or_path /mnt/ckpt/Meta-Llama-3.1-8B --bf16 True\n```\n", 8.0),
    ("两台机器训练很慢，脚本：\n```\ndeepspeed --num_nodes 2 --num_gpus 8 train.py \\\n"
     "  --model_name_or_path /data/models/Baichuan2-13B-Base --deepspeed ds_z2.json\n```\n", 13.0),
    ("Slow across nodes:\n```\naccelerate launch --num_machines 2 --num_processes 16 run_clm.py \\\n"
     "  --model_name_or_path facebook/opt-350m --per_device_train_batch_size 8\n```\n", 0.35),
])
def test_the_model_a_command_trains_gives_its_size(question: str, size: float) -> None:
    assert facts(question).get("job.model_params_b") == pytest.approx(size)


@pytest.mark.parametrize("model", ["mistralai/Mixtral-8x7B-v0.1", "$MODEL_PATH", "bert-base-uncased"])
def test_a_model_name_without_a_plain_size_gives_none(model: str) -> None:
    question = (f"Training is slow on 2 nodes:\n```\ntorchrun --nnodes 2 --nproc_per_node 8 train.py \\\n"
                f"  --model_name_or_path {model} --bf16 True\n```\n")
    assert "job.model_params_b" not in facts(question)


def test_active_parameters_are_not_the_size() -> None:
    question = ("Multi-node is slow:\n```\ntorchrun --nnodes 2 --nproc_per_node 8 train.py \\\n"
                "  --model Qwen/Qwen3-30B-A3B --bf16 True\n```\n")
    assert facts(question).get("job.model_params_b") == 30.0

