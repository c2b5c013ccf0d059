"""Whose batch a batch size is, at the layers that decide it: the framework (batches.py), a command line's options
(commands.py) and the bare words (extract.bare_batch_sizes)."""

from __future__ import annotations

import pytest

from bwdoctor.chat.batches import splits_the_batch
from bwdoctor.chat.commands import read_commands
from bwdoctor.chat.extract import bare_batch_sizes


@pytest.mark.parametrize("text", [
    "YOLOv8 training on 6 GPUs", "ultralytics multi-GPU", "python train.py --weights yolov5s.pt", "用 YOLOX 训练",
    "mxnet Module", "ctx = [mx.gpu(i) for i in range(8)]", "gluon.utils.split_and_load",
    "model = nn.DataParallel(model)",
    "keras multi_gpu_model(model, gpus=4)", "tf.distribute.MirroredStrategy()", "pl.Trainer(gpus=2, accelerator='dp')",
])
def test_frameworks_that_split_the_batch(text: str) -> None:
    assert splits_the_batch(text)


@pytest.mark.parametrize("text", [
    "PyTorch DDP on 2 nodes", "DistributedDataParallel(model)", "Horovod with 8 GPUs", "HF Trainer, per device batch",
    "yolo-style detector we wrote ourselves", "MXNET_KVSTORE_REDUCTION_NTHREADS",
])
def test_frameworks_that_do_not(text: str) -> None:
    assert not splits_the_batch(text)


@pytest.mark.parametrize(("text", "fact", "value"), [
    # a training script's own option: per device (diffusers, HF examples, FastVideo)
    ("torchrun --nproc_per_node 8 fastvideo/train.py --train_batch_size=1", "job.micro_batch_size", 1),
    ("python train.py --train_batch_size 4", "job.micro_batch_size", 4),
    # beside a micro-batch option, or under the DeepSpeed launcher: the global batch
    ("python train_ppo.py --micro_train_batch_size 8 --train_batch_size 128", "job.global_batch_size", 128),
    ("deepspeed train.py --train_batch_size=64", "job.global_batch_size", 64),
    # a bare --batch-size under a framework that splits the batch
    ("python -m torch.distributed.launch --nproc_per_node 8 train.py --batch-size 520 --weights yolov5s.pt",
     "job.global_batch_size", 520),
    ("python -m torch.distributed.launch --nproc_per_node 8 train.py --batch-size 52", "job.micro_batch_size", 52),
])
def test_batch_options(text: str, fact: str, value: int) -> None:
    facts = read_commands(text).facts
    assert facts.get(fact) == value
    other = "job.global_batch_size" if fact == "job.micro_batch_size" else "job.micro_batch_size"
    assert facts.get(other) in (None, 8)  # only the OpenRLHF row names both


@pytest.mark.parametrize(("text", "found"), [
    ("batch size 32, 2 nodes", [("job.micro_batch_size", 32)]),
    ("batch size 512 across 8 GPUs", [("job.global_batch_size", 512)]),
    ("batch size 512 split over all GPUs", [("job.global_batch_size", 512)]),
    ("batch size 256 分到 8 张卡", [("job.global_batch_size", 256)]),
    ("ResNet-50, batch 32, TCP", [("job.micro_batch_size", 32)]),
    ("单机时 batch size 256，两机时 512。", [("job.micro_batch_size", 256), ("job.micro_batch_size", 512)]),
    ("batch size 32 on one machine, 64 on two machines.", [("job.micro_batch_size", 32), ("job.micro_batch_size", 64)]),
    ("batch size 32, 64 GB of memory", [("job.micro_batch_size", 32)]),  # a figure with a unit is no second batch
    ("global batch size 1024", []),
    ("at batch 500 the loss spikes", []),
    ("batch size 32 per GPU", []),  # the per-GPU words are another reader's
])
def test_bare_batch_sizes(text: str, found: list[tuple[str, int]]) -> None:
    assert [(h.fact, h.value) for h in bare_batch_sizes(text)] == found
