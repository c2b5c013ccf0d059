"""Launcher and framework arguments, config settings and config names read as facts of the job, never as results.

Each case is a form seen in real threads (torchrun, deepspeed, accelerate, mpirun/horovodrun, Megatron,
HF Trainer, LLaMA-Factory, ms-swift, verl). A user checks that the fact and value are read, and that the
number is not misread as another fact (a node count, a bandwidth, a model size).
"""

from typing import Any

import pytest

from bwdoctor.chat import understand
from bwdoctor.chat.commands import read_commands


def _facts(text: str) -> dict[str, Any]:
    return understand(text).facts


# --------------------------------------------------------------------------- job shape from launchers
@pytest.mark.parametrize(("text", "nodes", "per_node"), [
    ("We run `torchrun --nproc_per_node=8 --nnodes=2 train.py` and training is slow.", 2, 8),
    ("torchrun --nproc-per-node 8 --nnodes 2 --node_rank 0 train.py", 2, 8),
    ("deepspeed --num_gpus 8 --num_nodes 2 train.py --deepspeed ds_config.json", 2, 8),
    ("accelerate launch --num_processes 16 --num_machines 2 train.py", 2, 8),
    ("mpirun -np 16 -N 8 python train.py", 2, 8),
    ("mpirun -n 256 -N 8 python train.py", 32, 8),
    ("mpirun -np 16 --npernode 8 python train.py", 2, 8),
    ("mpirun -np 16 -ppn 8 python train.py", 2, 8),
    ("mpirun -np 16 -H a:8,b:8 python train.py", 2, 8),
    ("horovodrun -np 4 -H host1:2,host2:2 python train.py", 2, 2),
    ("python3 -m verl.trainer.main_ppo trainer.n_gpus_per_node=8 trainer.nnodes=2", 2, 8),
    ("NPROC_PER_NODE=8 NNODES=2 swift sft --model Qwen2.5-7B", 2, 8),
])
def test_launcher_shape(text: str, nodes: int, per_node: int) -> None:
    facts = _facts(text)
    assert facts.get("job.nodes") == nodes
    assert facts.get("job.gpus_per_node") == per_node


def test_process_total_alone_is_not_a_node_count() -> None:
    facts = _facts("mpirun -np 32 ./build/all_reduce_perf -b 8M -e 8G -g 1")
    assert "job.nodes" not in facts and "job.gpus_per_node" not in facts
    assert "nccl.allreduce_busbw_gbytes_per_s" not in facts


# --------------------------------------------------------------------------- DeepSpeed ZeRO
@pytest.mark.parametrize(("text", "stage"), [
    ("I use ds_z3_config.json with 2 nodes and it is slow.", 3),
    ("I use ds_z3_offload_config.json on 2 nodes.", 3),
    ("zero_stage: 3", 3),
    ('"zero_optimization": {"stage": 2, "overlap_comm": true}', 2),
    ("deepspeed train.py --zero_stage 3", 3),
    ("llamafactory-cli train --deepspeed examples/deepspeed/ds_z2_config.json", 2),
    ("swift sft --model Qwen2.5-7B --deepspeed zero3", 3),
    ("FORCE_TORCHRUN=1 NNODES=2 llamafactory-cli train examples/train_full/llama3_full_sft_ds3.yaml", 3),
])
def test_zero_stage(text: str, stage: int) -> None:
    facts = _facts(text)
    assert facts.get("job.zero_stage") == stage
    assert facts.get("job.parallelism") == "fsdp"  # as the words read 'ZeRO-3'


def test_zero_in_a_config_name_is_not_a_model_size_or_node_count() -> None:
    facts = _facts("I use ds_z3_config.json with 2 nodes and it is slow.")
    assert facts.get("job.nodes") == 2 and "job.model_params_b" not in facts


def test_config_name_without_a_stage_says_nothing() -> None:
    assert "job.zero_stage" not in _facts("deepspeed --num_gpus 8 train.py --deepspeed ds_config.json")
    assert "job.zero_stage" not in _facts("see train_config.yaml, 4 nodes")


# --------------------------------------------------------------------------- sequence length
@pytest.mark.parametrize(("text", "seq"), [
    ("cutoff_len: 2048", 2048),
    ("python train.py --cutoff_len 4096", 4096),
    ("python train.py --max_length 8192", 8192),
    ("torchrun pretrain_gpt.py --seq-length 4096 --max-position-embeddings 4096", 4096),
    ("python sft.py --max_seq_length 2048", 2048),
    ("max_seq_len=8192", 8192),
    ("deepspeed 用 ds_z3_config.json，cutoff_len 2048，per_device_train_batch_size 1", 2048),
])
def test_sequence_length(text: str, seq: int) -> None:
    facts = _facts(text)
    assert facts.get("job.seq_len") == seq
    assert "job.model_params_b" not in facts and "job.nodes" not in facts


# --------------------------------------------------------------------------- precision
@pytest.mark.parametrize(("text", "precision"), [
    ("accelerate launch --mixed_precision=bf16 train.py", "bf16"),
    ("deepspeed train.py --zero_stage 3 --bf16", "bf16"),
    ("python train.py --fp16 True", "fp16"),
    ("bf16: true", "bf16"),
    ("python train.py --precision bf16-mixed", "bf16"),
    ("python train.py --precision 16-mixed", "fp16"),
])
def test_precision(text: str, precision: str) -> None:
    assert _facts(text).get("job.precision") == precision


def test_precision_switched_off_is_not_that_precision() -> None:
    assert _facts("python train.py --fp16 False --bf16 True").get("job.precision") == "bf16"
    assert "job.precision" not in _facts("fp16: false")


# --------------------------------------------------------------------------- batch and accumulation
@pytest.mark.parametrize(("text", "fact", "value"), [
    ("python train.py --per_device_train_batch_size 4", "job.micro_batch_size", 4),
    ("torchrun pretrain_gpt.py --micro-batch-size 1", "job.micro_batch_size", 1),
    ("python3 -m verl.trainer.main_ppo actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=8",
     "job.micro_batch_size", 8),
    ("python train.py --batch_size 1", "job.micro_batch_size", 1),
    ("torchrun pretrain_gpt.py --global-batch-size 512", "job.global_batch_size", 512),
    ("deepspeed train.py --train_batch_size=64", "job.global_batch_size", 64),
    ("train_batch_size: 64", "job.global_batch_size", 64),
    (" global batch size: 128", "job.global_batch_size", 128),
    ("python train.py --gradient_accumulation_steps 8", "job.grad_accum_steps", 8),
    ("gradient_accumulation_steps=1", "job.grad_accum_steps", 1),
])
def test_batch_settings(text: str, fact: str, value: int) -> None:
    facts = _facts(text)
    assert facts.get(fact) == value
    assert "job.nodes" not in facts and "job.gpus_per_node" not in facts


def test_per_device_batch_is_not_read_as_the_global_batch() -> None:
    facts = _facts("cutoff_len 2048，per_device_train_batch_size 1，gradient_accumulation_steps 2")
    assert facts.get("job.micro_batch_size") == 1 and facts.get("job.grad_accum_steps") == 2
    assert "job.global_batch_size" not in facts


def test_train_batch_size_under_accelerate_is_per_gpu() -> None:
    facts = _facts("accelerate launch --num_processes 16 --num_machines 2 train_text_to_image.py --train_batch_size=1")
    assert facts.get("job.micro_batch_size") == 1 and "job.global_batch_size" not in facts


def test_batch_arithmetic_is_left_to_the_words() -> None:
    assert _facts("我理解 global_batch_size = 4 * 4 * 2 = 32").get("job.global_batch_size") != 4


# --------------------------------------------------------------------------- parallel degrees
def test_megatron_parallel_degrees() -> None:
    facts = _facts("torchrun pretrain_gpt.py --tensor-model-parallel-size 4 --pipeline-model-parallel-size 2 "
                   "--expert-model-parallel-size 8")
    assert (facts.get("job.tp_degree"), facts.get("job.pp_degree"), facts.get("job.ep_degree")) == (4, 2, 8)
    assert facts.get("job.parallelism") == "hybrid"
    assert "job.gpus_per_node" not in facts and "job.nodes" not in facts


def test_override_parallel_degree() -> None:
    facts = _facts("python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.tensor_model_parallel_size=8")
    assert facts.get("job.tp_degree") == 8 and facts.get("job.parallelism") == "tensor"


# --------------------------------------------------------------------------- MPI and NCCL settings
def test_mpi_exported_nccl_interface() -> None:
    facts = _facts("mpirun --mca btl_tcp_if_include eth0 -x NCCL_SOCKET_IFNAME=eth0 -np 16 python train.py")
    assert facts.get("nccl.socket_ifname") == "eth0"
    assert "job.nodes" not in facts


def test_mpi_interface_is_not_ncclss() -> None:
    """btl_tcp_if_include is MPI's own interface, not the one NCCL is told to use."""
    facts = _facts("mpirun --mca btl ^openib --mca btl_tcp_if_include ib0 -np 16 python train.py")
    assert "nccl.socket_ifname" not in facts and "nccl.ib_disabled" not in facts


# --------------------------------------------------------------------------- asked about, or not set
@pytest.mark.parametrize(("text", "fact", "value"), [
    ("Should I set --bf16?", "job.precision", "bf16"),
    ("What if we used --nproc_per_node 4 instead?", "job.gpus_per_node", 4),
    ("If I run `torchrun --nproc_per_node=4 --nnodes=2 train.py`, would it be faster?", "job.nodes", 2),
    ("要不要加 --bf16？", "job.precision", "bf16"),
    ("Should I set NCCL_IB_DISABLE=1?", "nccl.ib_disabled", True),
])
def test_setting_asked_about_is_a_change_not_a_fact(text: str, fact: str, value: Any) -> None:
    found = read_commands(text)
    assert found.proposed.get(fact) == value and fact not in found.facts
    assert fact not in understand(text).facts


def test_setting_reported_is_a_fact() -> None:
    found = read_commands("I ran `mpirun -np 32 -N 8 ./build/all_reduce_perf -b 8M -e 8G -g 1` and busbw is low")
    assert found.facts == {"job.nodes": 4, "job.gpus_per_node": 8} and not found.proposed


def test_setting_said_not_to_be_set_is_no_fact() -> None:
    text = ("You suggested making sure we don't export NCCL_IB_DISABLE=1 or NCCL_SOCKET_IFNAME=eth0; we set neither. "
            "Could EFA just be slower?")
    facts = _facts(text)
    assert "nccl.ib_disabled" not in facts and "nccl.socket_ifname" not in facts
    facts = _facts("We run 2 nodes with --bf16 and did not pass --gradient_accumulation_steps 8.")
    assert facts.get("job.precision") == "bf16" and "job.grad_accum_steps" not in facts


def test_settings_in_a_chinese_sentence() -> None:
    facts = _facts("我们用 --per_device_train_batch_size 4 --gradient_accumulation_steps 8 在 2 台机器上训练，很慢")
    assert facts.get("job.micro_batch_size") == 4 and facts.get("job.grad_accum_steps") == 8
    assert facts.get("job.nodes") == 2


@pytest.mark.parametrize("text", [
    "If I run `mpirun -np 16 -N 8 ./build/all_reduce_perf -b 8M -e 8G`, I get 5 GB/s busbw.",
    "How can we speed up our run, launched with torchrun --nproc_per_node 8 --nnodes 2?",
])
def test_condition_or_question_about_the_job_keeps_its_settings(text: str) -> None:
    facts = _facts(text)
    assert facts.get("job.nodes") == 2 and facts.get("job.gpus_per_node") == 8


def test_model_shape_and_dtype_options() -> None:
    """Megatron's and HF's names for the model's shape (the tensor-parallel volume needs them) and torch dtypes."""
    got = read_commands("torchrun --nnodes 2 pretrain_gpt.py --num-layers 40 --hidden-size 5120 "
                        "--tensor-model-parallel-size 4 --torch_dtype bfloat16").facts
    assert (got["model.layers"], got["model.hidden_size"], got["job.precision"]) == (40, 5120, "bf16")


def test_options_in_a_pasted_block_without_a_launcher_describe_the_job() -> None:
    text = ("两台 8×A800 训练 13B LLaMA，配置：\n```\n--num-layers 40 --hidden-size 5120 --seq-length 2048\n"
            "--tensor-model-parallel-size 4 --micro-batch-size 4 --global-batch-size 1024\n```\n")
    got = {u.fact: u.value for u in understand(text).understood}
    assert (got["job.tp_degree"], got["job.seq_len"], got["job.global_batch_size"]) == (4, 2048, 1024)


def test_a_continued_command_line_keeps_its_arguments_and_not_the_sentence_after_it() -> None:
    text = ("After the BIOS change I get up to 9GB/s:\n"
            "  mpirun -np 2 -H 192.168.160.111:1,192.168.160.112:1 --bind-to numa \\\n"
            "    -x NCCL_NET_GDR_LEVEL=2 /nccl-tests/build/all_reduce_perf -b 8 -e 1G -f 2 -g 1\n"
            "I still cannot tell whether this value is normal.")
    got = _facts(text)
    assert (got["job.nodes"], got["job.gpus_per_node"]) == (2, 1)
    assert got["nccl.allreduce_busbw_gbytes_per_s"] == 9  # '-e 1G' is an argument, not a result


# --------------------------------------------------------------------------- s24 other frameworks' launcher names
@pytest.mark.parametrize(("text", "fact", "value"), [
    ("python3 of_cnn_train_val.py --gpu_num_per_node=8 --num_nodes=2", "job.gpus_per_node", 8),
    ("python3 of_cnn_train_val.py --batch_size_per_device=256", "job.micro_batch_size", 256),
    ("python train.py --per_device_batch_size 16", "job.micro_batch_size", 16),
    ("colossalai run --nproc_per_node 8 benchmark.py --config 7b", "job.model_params_b", 7.0),
    ("torchrun train.py --model_size 13B", "job.model_params_b", 13.0),
    ("torchrun train.py --config llama-70b", "job.model_params_b", 70.0),
])
def test_other_frameworks_launcher_names(text: str, fact: str, value: object) -> None:
    assert _facts(text).get(fact) == value


@pytest.mark.parametrize("text", [
    "torchrun train.py --config configs/llama_7b.yaml",
    "python train.py --config config.yaml",
    "python train.py --config $CONFIG",
])
def test_a_config_file_is_no_model_size(text: str) -> None:
    assert "job.model_params_b" not in _facts(text)
