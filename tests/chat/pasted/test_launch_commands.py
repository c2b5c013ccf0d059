"""Pasted launch commands and logs read as an expert reads them: the model a command trains gives its size, two
labelled commands in one block are told apart, and aws-ofi-nccl's NIC count is the node's NIC count."""

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


# --------------------------------------------------------------------------- two labelled commands in one block
TWO_RUNS = """```
# plain TCP
mpirun -np 2 -H 192.168.1.5:1,192.168.1.6:1 -x NCCL_SOCKET_IFNAME=ens5 -x NCCL_IB_DISABLE=1 python train.py
# RDMA
mpirun -np 2 -H 192.168.1.5:1,192.168.1.6:1 -x NCCL_SOCKET_IFNAME=ens5 -x NCCL_IB_HCA=mlx5_1:1 python train.py
```
"""


def test_the_run_the_words_name_is_the_jobs_en() -> None:
    question = ("Two servers, one GPU each. Adding `-x NCCL_IB_HCA=mlx5_1:1` to use RDMA made each step slower than "
                "over TCP. The two commands:\n" + TWO_RUNS + "Why is RDMA slower?")
    got = facts(question)
    assert got.get("nccl.ib_hca") == "mlx5_1:1"
    assert got.get("nccl.ib_disabled") is not True  # the TCP baseline's setting is not the job's
    assert got.get("nccl.socket_ifname") == "ens5"  # both runs share it


def test_the_run_the_words_name_is_the_jobs_zh() -> None:
    question = ("两台服务器各一张卡，加了 `-x NCCL_IB_HCA=mlx5_1:1` 走 RDMA 以后每步反而比 TCP 慢。两条命令：\n"
                + TWO_RUNS + "为什么 RDMA 更慢？")
    got = facts(question)
    assert got.get("nccl.ib_hca") == "mlx5_1:1"
    assert got.get("nccl.ib_disabled") is not True


def test_when_the_words_name_no_run_only_shared_settings_are_read() -> None:
    question = "Which of these two runs should be faster?\n" + TWO_RUNS
    got = facts(question)
    assert "nccl.ib_disabled" not in got and "nccl.ib_hca" not in got
    assert got.get("nccl.socket_ifname") == "ens5"


def test_one_command_with_a_comment_keeps_its_settings() -> None:
    question = ("Slow across nodes:\n```\n# our launch\nmpirun -np 16 -H a:8,b:8 -x NCCL_IB_DISABLE=1 "
                "python train.py\n```\n")
    assert facts(question).get("nccl.ib_disabled") is True


# --------------------------------------------------------------------------- EFA NICs found by aws-ofi-nccl
def test_efa_nics_found_in_a_pasted_log_are_the_nic_count() -> None:
    question = ("NCCL tests hang on our p5 nodes; the plugin loads:\n```\n"
                "ip-172-31-1-9:901:950 [0] NCCL INFO NET/OFI Selected Provider is efa (found 32 nics)\n"
                "ip-172-31-1-9:901:950 [0] NCCL INFO Using network Libfabric\n```\nWhat next?")
    got = facts(question)
    assert got.get("nic.count") == 32 and got.get("nic.efa") is True
    assert got.get("nccl.transport") != "socket"


# --------------------------------------------------------------------------- a setting of the past
def test_a_setting_no_longer_needed_is_not_the_jobs_zh() -> None:
    question = ("单机 8 张 A6000，以前 AllReduce 会卡住，只能加 `NCCL_P2P_DISABLE=1` 绕开。关掉 ACS 以后好了，"
                "现在已经不需要 NCCL_P2P_DISABLE 了。P2P 带宽应该有多少？")
    assert "nccl.p2p_disabled" not in facts(question)


def test_a_setting_no_longer_needed_is_not_the_jobs_en() -> None:
    question = ("We used to work around the hang with `NCCL_P2P_DISABLE=1`. After disabling IOMMU we no longer need "
                "NCCL_P2P_DISABLE. What P2P bandwidth should 4 GPUs in one box reach?")
    assert "nccl.p2p_disabled" not in facts(question)


def test_a_setting_still_in_use_stays() -> None:
    question = "We export `NCCL_P2P_DISABLE=1` and training on one node is slow. Do we still need NCCL_IB_DISABLE?"
    assert facts(question).get("nccl.p2p_disabled") is True
