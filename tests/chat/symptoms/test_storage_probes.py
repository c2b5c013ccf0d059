"""A probe battery on storage, checkpoints, data loading and the symptoms around them: where the data
is read from (NFS, Lustre, GPFS, CephFS, HDFS, S3, OSS, COS, GCS, JuiceFS, local NVMe), how fast the storage reads,
checkpoint targets, sizes, intervals and save times, data loading said to lag, CPU and iowait, GPU load, synthetic data
against the real data, stragglers and jitter, in English and in Chinese as people write them in issues and forum posts,
with negations, hypotheticals and distractors (disk capacities, GPU memory, model sizes, network rates).

Each case: the question, the facts it must read (a subset of the answer's facts), and the facts it must not read
(None: the fact absent; a value: the fact not at that value). Some questions also name the category the findings
must reach. Asserted through the public answer_turn."""

from __future__ import annotations

from typing import Any

import pytest

from bwdoctor.chat import answer_turn
from bwdoctor.engine import load_engine

_ENGINE = load_engine()
A = None


def _same(got: Any, want: Any) -> bool:
    if isinstance(want, float) and isinstance(got, int | float) and not isinstance(got, bool):
        return abs(got - want) <= max(0.011, abs(want) * 0.01)
    return bool(got == want)


CASES: list[Any] = [
    # ------------------------------------------------------------------ data source
    ("training data is on NFS, 2 nodes x 8 A100, very slow", {"job.data_source": "nas"}, {}),
    ("数据放在 NFS 上，两机 16 卡训练很慢", {"job.data_source": "nas"}, {}),
    ("数据集放在 NAS 上，每个 epoch 都要从 NAS 读", {"job.data_source": "nas"}, {}),
    ("our dataset lives on a Lustre filesystem shared by all nodes", {"job.data_source": "nas"}, {}),
    ("训练数据在 Lustre 上，多机读很慢", {"job.data_source": "nas"}, {}),
    ("data is read from GPFS, GPU util is low", {"job.data_source": "nas"}, {}),
    ("数据存在 GPFS 里面，GPU 利用率上不去", {"job.data_source": "nas"}, {}),
    ("dataset is on CephFS mounted on every node", {"job.data_source": "nas"}, {}),
    ("数据放在 cephfs 上，训练很慢", {"job.data_source": "nas"}, {}),
    ("we read training data directly from HDFS", {"job.data_source": "nas"}, {}),
    ("训练数据在 HDFS 上，dataloader 很慢", {"job.data_source": "nas"}, {}),
    ("training data is streamed from S3 during training", {"job.data_source": "object_store"}, {}),
    ("每个 epoch 从 OSS 拉数据，GPU 利用率很低", {"job.data_source": "object_store"}, {}),
    ("webdataset shards streamed from S3, GPUs are starving", {"job.data_source": "object_store"}, {}),
    ("数据在腾讯云 COS 上，直接读 COS", {"job.data_source": "object_store"}, {}),
    # (since s21: a bucket mounted with gcsfuse is object storage; a cache layer in front of a bucket reads the bucket)
    ("we load the images from a GCS bucket with gcsfuse", {"job.data_source": "object_store"}, {}),
    ("数据挂载的 JuiceFS，后端是 OSS", {"job.data_source": "object_store"}, {}),
    ("数据放在共享存储上，8 台机器一起读", {"job.data_source": "nas"}, {}),
    ("data is on a shared network filesystem", {"job.data_source": "nas"}, {}),
    ("数据已经拷到本地 NVMe 了，还是慢", {"job.data_source": "local"}, {}),
    ("the dataset is on local NVMe on every node", {"job.data_source": "local"}, {}),
    ("数据在本地 SSD 上", {"job.data_source": "local"}, {}),
    ("数据不在 NFS 上，已经拷到本地了", {"job.data_source": "local"}, {"job.data_source": "nas"}),
    ("the data is not on NFS, we copied it to local disk", {"job.data_source": "local"}, {"job.data_source": "nas"}),
    ("we copied the dataset from S3 to local SSD before training", {"job.data_source": "local"}, {}),
    ("数据从 OSS 下载到本地盘之后再训练", {"job.data_source": "local"}, {}),
    ("要不要把数据放到本地 SSD 上？现在多机很慢", {}, {"job.data_source": "local"}),
    ("should I move the data to local NVMe? two nodes are slow", {}, {"job.data_source": "local"}),
    ("读数据用的 Alluxio 缓存，底层是 HDFS", {"job.data_source": "nas"}, {}),
    ("数据集存在 CPFS 上", {"job.data_source": "nas"}, {}),
    ("each node has a 2TB NVMe, training across 2 nodes is slow", {}, {"job.data_source": A, "storage.read_gbps": A}),
    ("每台机器有 4TB 的本地 NVMe 盘，80G 显存的 A100", {}, {"job.data_source": A, "storage.read_gbps": A}),
    # ------------------------------------------------------------------ storage throughput
    ("NAS 只能读 500MB/s", {"storage.read_gbps": 4.0, "job.data_source": "nas"}, {}),
    ("Lustre gives 2 GB/s aggregate read throughput", {"storage.read_gbps": 16.0, "job.data_source": "nas"}, {}),
    ("fio on the NFS mount shows 300 MB/s sequential read", {"storage.read_gbps": 2.4, "job.data_source": "nas"}, {}),
    ("NFS 读速度只有 200MB/s 左右", {"storage.read_gbps": 1.6, "job.data_source": "nas"}, {}),
    ("存储读带宽测了一下只有 1GB/s", {"storage.read_gbps": 8.0}, {}),
    ("从 OSS 读数据的速度大概 100MB/s", {"storage.read_gbps": 0.8, "job.data_source": "object_store"}, {}),
    (
        "S3 read throughput is around 1.5 GB/s per node",
        {"storage.read_gbps": 12.0, "job.data_source": "object_store"},
        {},
    ),
    ("dd 测 NAS 读速度 800MB/s", {"storage.read_gbps": 6.4, "job.data_source": "nas"}, {}),
    ("the shared storage can only deliver 10 Gbps", {"storage.read_gbps": 10.0}, {}),
    ("CephFS 读吞吐 3GB/s", {"storage.read_gbps": 24.0, "job.data_source": "nas"}, {}),
    ("本地 NVMe 读速度 3.5GB/s，NFS 只有 400MB/s", {"storage.read_gbps": 3.2}, {}),
    ("network is 100G IB, data on NFS", {"job.data_source": "nas"}, {"storage.read_gbps": A}),
    # ------------------------------------------------------------------ checkpoints
    (
        "每 500 步存一次 ckpt，一次 120GB，要 8 分钟",
        {"job.checkpoint_interval_steps": 500, "job.checkpoint_size_gbytes": 120.0, "job.checkpoint_save_s": 480.0},
        {},
    ),
    ("saving the 70B checkpoint takes 20 minutes", {"job.checkpoint_save_s": 1200.0}, {}),
    ("torch.save 到 NFS 很慢", {"job.checkpoint_target": "network", "job.checkpoint_slow": True}, {}),
    ("checkpoint 写到本地盘很快", {"job.checkpoint_target": "local"}, {"job.checkpoint_slow": True}),
    (
        "we save a checkpoint every 1000 steps to NFS",
        {"job.checkpoint_interval_steps": 1000, "job.checkpoint_target": "network"},
        {},
    ),
    pytest.param(
        *(
            "checkpoints go to S3 every 2000 steps, each one is 140 GB",
            {
                "job.checkpoint_interval_steps": 2000,
                "job.checkpoint_size_gbytes": 140.0,
                "job.checkpoint_target": "network",
            },
            {},
        ),
        marks=pytest.mark.xfail(
            strict=True, reason="'each one is 140 GB' in the clause after the checkpoints is not tied to them"
        ),
    ),
    ("保存 checkpoint 的时候训练卡住好几分钟", {"job.checkpoint_slow": True}, {}),
    (
        "checkpoint 存到 NAS 上，每次保存要 10 分钟",
        {"job.checkpoint_target": "network", "job.checkpoint_save_s": 600.0},
        {},
    ),
    ("每次保存模型要等 5 分钟", {"job.checkpoint_save_s": 300.0}, {}),
    ("saving checkpoints takes forever", {"job.checkpoint_slow": True}, {}),
    ("checkpoint saving is slow, it blocks training", {"job.checkpoint_slow": True}, {}),
    ("ckpt 大小 300G，存到 OSS", {"job.checkpoint_size_gbytes": 300.0, "job.checkpoint_target": "network"}, {}),
    (
        "each checkpoint is about 26GB and takes ~90s to write to Lustre",
        {"job.checkpoint_size_gbytes": 26.0, "job.checkpoint_save_s": 90.0, "job.checkpoint_target": "network"},
        {},
    ),
    ("save_steps=200，每次保存 3 分钟", {"job.checkpoint_interval_steps": 200, "job.checkpoint_save_s": 180.0}, {}),
    ("we don't save checkpoints during the run", {}, {"job.checkpoint_slow": True, "job.checkpoint_interval_steps": A}),
    ("保存 checkpoint 很快，不是瓶颈", {"job.checkpoint_slow": False}, {"job.checkpoint_slow": True}),
    pytest.param(
        *("checkpoint 写到本地 NVMe，然后异步上传到 OSS", {"job.checkpoint_target": "local"}, {}),
        marks=pytest.mark.xfail(strict=True, reason="the upload after a local write reads as a network target"),
    ),
    (
        "每 1000 个 step 保存一次，每次保存耗时 2 分钟左右",
        {"job.checkpoint_interval_steps": 1000, "job.checkpoint_save_s": 120.0},
        {},
    ),
    ("模型保存特别慢，一次要半个小时", {"job.checkpoint_save_s": 1800.0}, {}),  # since s21: Chinese numerals
    pytest.param(
        *(
            "checkpointing to the shared filesystem stalls all ranks for ~3 min",
            {"job.checkpoint_save_s": 180.0, "job.checkpoint_target": "network"},
            {},
        ),
        marks=pytest.mark.xfail(strict=True, reason="the save named more than 40 characters before the stall's time"),
    ),
    ("每隔 2 小时存一次 checkpoint", {}, {"job.checkpoint_save_s": 7200.0}),
    ("deepspeed save_checkpoint takes 400 seconds", {"job.checkpoint_save_s": 400.0}, {}),
    (
        "checkpoint 每次 60 GB，写 NFS 速度只有 200MB/s",
        {"job.checkpoint_size_gbytes": 60.0, "job.checkpoint_target": "network"},
        {},
    ),
    # ------------------------------------------------------------------ data loading
    ("dataloader 是瓶颈，GPU 在等数据", {"job.data_loading_slow": True}, {}),
    ("the dataloader is the bottleneck", {"job.data_loading_slow": True}, {}),
    ("num_workers=2, GPU util is only 40%", {"gpu.util_pct": 40.0}, {}),
    ("数据加载跟不上，GPU 利用率只有 30%", {"job.data_loading_slow": True, "gpu.util_pct": 30.0}, {}),
    ("CPU 100%，GPU 利用率只有 50%", {"cpu.util_pct": 100.0, "gpu.util_pct": 50.0}, {}),
    ("iowait 30%，GPU 利用率很低", {"cpu.iowait_pct": 30.0}, {}),
    ("top shows 40% iowait on the training nodes", {"cpu.iowait_pct": 40.0}, {}),
    pytest.param(
        *("CPU 占满了，数据预处理很慢", {"cpu.util_pct": 100.0}, {}),
        marks=pytest.mark.xfail(strict=True, reason="'CPU 占满' reads as 95%"),
    ),
    ("all CPU cores are at 100% during training", {"cpu.util_pct": 100.0}, {}),
    ("GPU 利用率周期性掉到 0", {}, {}),
    ("GPU util drops to 0 every few seconds", {}, {}),
    ("profiler 显示 40% 的时间在等数据", {"job.data_wait_pct": 40.0}, {}),
    ("data loading takes 30% of each step", {"job.data_wait_pct": 30.0}, {}),
    pytest.param(
        *("about half of the step time is spent waiting on the dataloader", {"job.data_wait_pct": 50.0}, {}),
        marks=pytest.mark.xfail(strict=True, reason="'about half' is no percentage the data-wait reader reads"),
    ),
    ("数据加载占了每个 step 60% 的时间", {"job.data_wait_pct": 60.0}, {}),
    ("GPU 利用率在 0 和 100% 之间来回跳", {}, {}),
    ("nvidia-smi 看 GPU 利用率只有 20% 左右", {"gpu.util_pct": 20.0}, {}),
    ("GPU utilization hovers around 35%", {"gpu.util_pct": 35.0}, {}),
    ("数据加载不是瓶颈，已经测过了", {"job.data_loading_slow": False}, {"job.data_loading_slow": True}),
    ("the input pipeline is not the bottleneck", {"job.data_loading_slow": False}, {"job.data_loading_slow": True}),
    ("CPU 利用率不高，只有 20%", {"cpu.util_pct": 20.0}, {}),
    ("图片解码很慢，CPU 跟不上", {"job.data_loading_slow": True}, {}),
    pytest.param(
        *("JPEG decoding on CPU can't keep up with 8 H100s", {"job.data_loading_slow": True}, {}),
        marks=pytest.mark.xfail(strict=True, reason="decoding that lags is not read as data loading"),
    ),
    ("显存 80G 用了 70G，GPU 利用率 95%", {"gpu.util_pct": 95.0}, {"cpu.util_pct": A}),
    ("每个 step 里大概 40% 的时间在 dataloader", {"job.data_wait_pct": 40.0}, {}),
    ("the GPU sits idle waiting for data about 30% of the time", {"job.data_wait_pct": 30.0}, {}),
    (
        "保存一次 ckpt 大概 5min，每 2000 step 存一次",
        {"job.checkpoint_save_s": 300.0, "job.checkpoint_interval_steps": 2000},
        {},
    ),
    ("we save a checkpoint every 10 minutes", {}, {"job.checkpoint_save_s": A}),
    (
        "checkpoint 每次 300GB，写到 CPFS 上要 15 分钟",
        {"job.checkpoint_size_gbytes": 300.0, "job.checkpoint_save_s": 900.0},
        {},
    ),
    ("数据读取速度测下来 NFS 只有 120 MB/s", {"storage.read_gbps": 0.96, "job.data_source": "nas"}, {}),
    # ------------------------------------------------------------------ synthetic
    ("用假数据就很快，换成真实数据就慢", {"job.synthetic_data_fast": True}, {}),
    ("with synthetic data the throughput is 2x higher", {"job.synthetic_data_fast": True}, {}),
    ("用随机数据跑速度正常", {"job.synthetic_data_fast": True}, {}),
    ("with dummy data it is just as slow", {"job.synthetic_data_fast": False}, {"job.synthetic_data_fast": True}),
    ("用 synthetic data 测也一样慢", {"job.synthetic_data_fast": False}, {"job.synthetic_data_fast": True}),
    ("--use-synthetic-data 跑 benchmark 吞吐正常，真实数据下降一半", {"job.synthetic_data_fast": True}, {}),
    # ------------------------------------------------------------------ stragglers
    ("rank 3 总是最后一个到 all-reduce", {"job.straggler_suspected": True}, {}),
    ("one node is always slower than the others", {"job.straggler_suspected": True}, {}),
    ("其中一台机器特别慢，拖累了整体", {"job.straggler_suspected": True}, {}),
    ("node-7 is a straggler, everyone waits for it", {"job.straggler_suspected": True}, {}),
    ("有一个 rank 总是比别人慢很多", {"job.straggler_suspected": True}, {}),
    ("all nodes are equally slow, no straggler", {}, {"job.straggler_suspected": True}),
    ("每台机器速度都差不多，没有慢节点", {}, {"job.straggler_suspected": True}),
    pytest.param(
        *("换掉其中一台机器后速度就正常了", {"job.straggler_suspected": True}, {}),
        marks=pytest.mark.xfail(strict=True, reason="a machine swapped out that fixed it is not read as a straggler"),
    ),
    # ------------------------------------------------------------------ jitter
    ("step time 抖动很大", {}, {}),
    ("every 100 steps there is a 10 s spike", {}, {}),
    ("step 耗时波动很大，有时 1 秒有时 5 秒", {}, {}),
    ("the iteration time is very unstable, varies between 0.8s and 3s", {}, {}),
    ("step time cv is 0.35", {"job.step_time_cv": 0.35}, {}),
    ("step 时间的变异系数 0.4", {"job.step_time_cv": 0.4}, {}),
    ("step time is very stable at 1.2s", {}, {"job.step_time_cv": A}),
    # ------------------------------------------------------------------ distractors
    ("训练 70B 模型，global batch 1024，每步 8 秒", {}, {"job.checkpoint_size_gbytes": A, "storage.read_gbps": A}),
    ("网络是 200Gbps IB，GPU 是 80GB 的 H100", {}, {"storage.read_gbps": A, "job.checkpoint_size_gbytes": A}),
    ("dataset is 2TB of images, 8 nodes", {}, {"job.checkpoint_size_gbytes": A, "storage.read_gbps": A}),
    ("数据集 500G，16 卡 A100", {}, {"job.checkpoint_size_gbytes": A, "storage.read_gbps": A}),
    ("model weights are 140GB in bf16", {}, {"storage.read_gbps": A}),
    ("iperf3 between nodes shows 23 Gbits/sec", {}, {"storage.read_gbps": A}),
    ("加载模型权重很慢，要 10 分钟", {}, {"job.checkpoint_save_s": 600.0}),
    ("loading the checkpoint at startup takes 15 minutes", {}, {"job.checkpoint_save_s": 900.0}),
    pytest.param(
        *("日志保存到 NFS 上", {}, {"job.checkpoint_target": "network", "job.data_source": "nas"}),
        marks=pytest.mark.xfail(strict=True, reason="logs saved to NFS read as the data's source (weak)"),
    ),
    ("wandb logs every 10 steps", {}, {"job.checkpoint_interval_steps": 10}),
]

CATEGORIES: list[Any] = [
    ("数据放在 NFS 上，NAS 只能读 500MB/s，GPU 利用率只有 30%，两机 16 卡 A100", "remote-storage-io"),
    (
        "training data is streamed from S3, dataloader is the bottleneck, GPU util 40%, 4 nodes x 8 H100",
        "remote-storage-io",
    ),
    ("每 500 步存一次 ckpt，一次 120GB，存到 NAS，要 8 分钟，两机 16 卡", "checkpoint-contention"),
    ("saving the checkpoint to NFS takes 20 minutes every 1000 steps, 4 nodes", "checkpoint-contention"),
    ("CPU 100%，GPU 利用率只有 40%，用假数据就很快，num_workers=2", "input-pipeline-cpu"),
    ("with synthetic data it's 2x faster, CPU is at 100%, data on local NVMe", "input-pipeline-cpu"),
    ("rank 3 总是最后一个到 all-reduce，其他机器都在等它，4 机 32 卡", "straggler-node"),
    ("one node is always slower than the others, 8 nodes x 8 A100", "straggler-node"),
]


def _problems(question: str, expected: dict[str, Any], not_read: dict[str, Any]) -> list[str]:
    got = answer_turn(question, engine=_ENGINE).get("facts", {})
    out = [f"{k}: want {v!r}, got {got.get(k)!r}" for k, v in expected.items() if not _same(got.get(k), v)]
    for k, v in not_read.items():
        if (v is A and k in got) or (v is not A and k in got and _same(got[k], v)):
            out.append(f"{k}: must not read {v!r}, got {got[k]!r}")
    return out


def _id(case: Any) -> str:
    return str((case.values if hasattr(case, "values") else case)[0])[:40]


@pytest.mark.parametrize(("question", "expected", "not_read"), CASES, ids=[_id(c) for c in CASES])
def test_storage_facts(question: str, expected: dict[str, Any], not_read: dict[str, Any]) -> None:
    assert _problems(question, expected, not_read) == []


@pytest.mark.parametrize(("question", "category"), CATEGORIES, ids=[_id(c) for c in CATEGORIES])
def test_storage_categories(question: str, category: str) -> None:
    found = [f["category"] for f in answer_turn(question, engine=_ENGINE).get("findings", [])]
    assert category in found
