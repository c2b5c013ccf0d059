"""A probe battery on storage, checkpoints and cloud platforms: buckets mounted as file systems (GCSFuse,
s3fs, mountpoint-s3, ossfs) and cache layers in front of them (Alluxio, JuiceFS), data kept on another server, a local
disk named as a cache of the source, checkpoint saves said slow by their pace, the time a save takes said before it, the
output directory's storage as the checkpoints' target, what a change would speed up, cloud instance names whose digits
are vCPUs, NICs counted as network interfaces, a rented line's rate, what a platform is compatible with, a log's
'data_time' and a numbered list's item compared — in English and in Chinese, with distractors.

Each case: the question, the facts it must read (a subset of the answer's facts), and the facts it must not read
(None: the fact absent; a value: the fact not at that value). Asserted through the public answer_turn."""

from __future__ import annotations

from typing import Any

import pytest

from bwdoctor.chat import answer_turn
from tests.matching import same_value


def _close(got: Any, want: Any) -> bool:
    return same_value(got, want, within=0.011, share=0.01)

A = None



CASES: list[Any] = [
    # ------------------------------------------------------------------ a bucket mounted as a file system
    ("Vertex AI mounts the GCS bucket with GCSFuse and data loading is the bottleneck",
     {"job.data_source": "object_store"}, {"job.data_source": "nas"}),
    ("the training data is read through gcsfuse from our bucket", {"job.data_source": "object_store"}, {}),
    ("we mount the S3 bucket with s3fs on every node", {"job.data_source": "object_store"}, {}),
    ("data is read via mountpoint-s3, GPU utilization is 40%", {"job.data_source": "object_store"}, {}),
    ("训练数据用 ossfs 挂载到容器里，读得很慢", {"job.data_source": "object_store"}, {}),
    ("数据通过 gcsfuse 挂载进来，GPU 一直在等数据", {"job.data_source": "object_store"}, {}),
    ("the dataset sits in Azure blob storage mounted with blobfuse2", {"job.data_source": "object_store"}, {}),
    # a cache layer in front of a bucket reads the bucket; in front of a file system, or alone, it stays network storage
    ("ImageNet 放在 OSS 对象存储里，通过 Alluxio 的 FUSE 挂载进训练容器", {"job.data_source": "object_store"}, {}),
    ("the data lives in S3 and we read it through an Alluxio cache", {"job.data_source": "object_store"}, {}),
    ("读数据用的 Alluxio 缓存，底层是 HDFS", {"job.data_source": "nas"}, {}),
    ("训练数据放在 Alluxio 上，GPU 利用率 40%", {"job.data_source": "nas"}, {}),
    # ------------------------------------------------------------------ the data on another machine
    ("the image files are located on another server, while the code runs on the DGX",
     {"job.data_source": "nas"}, {"job.multi_node": A, "job.nodes": A}),
    ("our dataset is stored on a separate machine and read over the network", {"job.data_source": "nas"}, {}),
    ("the images live on a remote file server", {"job.data_source": "nas"}, {}),
    ("two 8xH100 nodes rented from Lambda; the dataset is on their persistent filesystem",
     {"job.data_source": "nas", "job.nodes": 2}, {}),
    ("训练数据放在另一台服务器上，通过网络读，GPU 利用率只有 30%", {"job.data_source": "nas"}, {"job.nodes": A}),
    ("图片存放在别的服务器上，每张都要传过来", {"job.data_source": "nas"}, {}),
    ("数据在文件服务器上，8 卡一起读", {"job.data_source": "nas"}, {}),
    ("every image has to be transferred between the servers", {}, {"job.multi_node": A}),
    ("how much data is transferred between the nodes in DDP?", {"job.multi_node": True}, {}),
    ("the job runs on another server", {}, {"job.data_source": A}),
    ("the data is on the local SSD of the remote server", {"job.data_source": "local"}, {}),
    ("we train on a remote server with the data on local SSD", {"job.data_source": "local"}, {}),
    ("we run on another server now; training across 2 nodes is slow", {"job.nodes": 2}, {"job.data_source": A}),
    ("我们有两台机器，一台 8 卡，另一台 4 卡", {"job.nodes": 2}, {"job.data_source": A}),
    # a local disk named as the cache of the source named beside it
    ("数据流是：数据源（HDD/NAS）→ 预处理缓存（NVMe）→ GPU 显存",
     {"job.data_source": "nas"}, {"job.data_source": "local"}),
    ("the dataset is on NFS with a cache on local NVMe", {"job.data_source": "nas"}, {}),
    ("the dataset is on local NVMe", {"job.data_source": "local"}, {}),
    ("数据在本地 NVMe 上，很快", {"job.data_source": "local"}, {}),
    # ------------------------------------------------------------------ checkpoint saves: slow, how long, where
    ("The speed of saving models during multi-machine, multi-card training is very slow.",
     {"job.checkpoint_slow": True, "job.multi_node": True}, {}),
    ("the speed of writing checkpoints to NFS is quite slow",
     {"job.checkpoint_slow": True, "job.checkpoint_target": "network"}, {}),
    ("多机多卡训练时保存模型的速度很慢", {"job.checkpoint_slow": True}, {}),
    ("存 checkpoint 的速度特别慢", {"job.checkpoint_slow": True}, {}),
    ("saving models is fast, training is slow", {"job.checkpoint_slow": False}, {}),
    # where the save goes, said between the save and how it goes
    ("checkpoint 保存到 NAS 上经常卡住十几分钟", {"job.checkpoint_slow": True, "job.checkpoint_target": "network"}, {}),
    ("Saving a checkpoint to the shared filesystem stalls training for about 3 minutes every 1000 steps",
     {"job.checkpoint_slow": True, "job.checkpoint_save_s": 180.0, "job.checkpoint_interval_steps": 1000}, {}),
    ("saving the model to S3 is very slow", {"job.checkpoint_slow": True, "job.checkpoint_target": "network"}, {}),
    ("writing checkpoints to NFS takes forever", {"job.checkpoint_slow": True}, {}),
    ("saving checkpoints to local NVMe is fast", {"job.checkpoint_slow": False}, {}),
    ("checkpoint 保存到本地盘上很快", {"job.checkpoint_slow": False, "job.checkpoint_target": "local"}, {}),
    ("数据读到本地以后训练很慢，保存正常", {}, {"job.checkpoint_slow": True}),
    ("one epoch takes two minutes, then 30 seconds saving the checkpoint",
     {"job.checkpoint_save_s": 30.0}, {"job.checkpoint_save_s": 120.0}),
    ("we spend 45 s writing each checkpoint to NFS",
     {"job.checkpoint_save_s": 45.0, "job.checkpoint_target": "network"}, {}),
    ("每个 epoch 要花 40 秒保存模型", {"job.checkpoint_save_s": 40.0}, {}),
    ("每次要 90 秒来保存 checkpoint", {"job.checkpoint_save_s": 90.0}, {}),
    ("we save a checkpoint every 30 seconds", {}, {"job.checkpoint_save_s": A}),
    ("each epoch takes 30 seconds", {}, {"job.checkpoint_save_s": A}),
    ("用了 FullStateDictConfig，聚合到 rank 0，一次保存要 400 多秒", {"job.checkpoint_save_s": 400.0}, {}),
    ("saving takes ages. The log directory is on the same SSD.", {"job.checkpoint_target": "local"}, {}),
    ("保存模型特别慢，输出目录在 NFS 上", {"job.checkpoint_target": "network", "job.checkpoint_slow": True}, {}),
    ("our output_dir is on NFS and saving checkpoints takes forever", {"job.checkpoint_target": "network"}, {}),
    ("the output directory is on NFS; 2 nodes are slow", {}, {"job.checkpoint_target": A}),
    # the saves' storage in the next clause, the model named first, the save's time said as a pause while it runs
    ("每 500 步存一次模型，每次保存大概 3 分钟，模型存在共享存储上",
     {"job.checkpoint_target": "network", "job.checkpoint_save_s": 180.0}, {"job.data_source": "nas"}),
    ("每 1000 步存一次 checkpoint，数据放在 NFS 上", {"job.data_source": "nas"}, {"job.checkpoint_target": A}),
    ("模型保存到 HDFS 上特别慢，一次要十几分钟", {"job.checkpoint_slow": True, "job.checkpoint_target": "network"}, {}),
    ("保存 checkpoint 的时候所有卡都停住，大概要等两分钟", {"job.checkpoint_slow": True}, {}),
    ("every 30 minutes training pauses for 5 minutes while it checkpoints to GCS",
     {"job.checkpoint_save_s": 300.0, "job.checkpoint_target": "network"}, {"job.checkpoint_save_s": 1800.0}),
    ("training pauses for 5 minutes when it saves the logs", {}, {"job.checkpoint_save_s": A}),
    # a save's time in Chinese numerals; an epoch's, a load's or an interval's is none
    ("保存 checkpoint 的时候所有卡都停住，大概要等两分钟", {"job.checkpoint_save_s": 120.0}, {}),
    ("保存一次 checkpoint 需要三十秒", {"job.checkpoint_save_s": 30.0}, {}),
    ("训练一个 epoch 要两小时，保存模型很快", {"job.checkpoint_slow": False}, {"job.checkpoint_save_s": A}),
    ("保存模型很慢，训练一个 epoch 要两小时", {"job.checkpoint_slow": True}, {"job.checkpoint_save_s": A}),
    ("加载 checkpoint 要五分钟", {}, {"job.checkpoint_save_s": A}),
    ("每两分钟存一次 checkpoint", {}, {"job.checkpoint_save_s": A}),
    ("模型保存到 HDFS 上特别慢，一次要十几分钟", {"job.checkpoint_slow": True}, {"job.checkpoint_save_s": A}),
    # what a change would speed up is what the job does now; a change of target is a what-if
    ("multi-threaded uploading would make checkpoint uploads to S3 much faster",
     {"job.checkpoint_target": "network"}, {}),
    ("多线程上传能让保存到 OSS 的 checkpoint 快很多吗", {"job.checkpoint_target": "network"}, {}),
    ("would moving the checkpoints to S3 help?", {}, {"job.checkpoint_target": A}),
    ("如果把 checkpoint 存到 NFS 上会不会更快？", {}, {"job.checkpoint_target": A}),
    # ------------------------------------------------------------------ cloud instances, NICs, lines
    ("a 4-node setup, each worker is an n1-highmem-16 machine with 2 GPUs",
     {"job.nodes": 4, "job.gpus_per_node": 2}, {"job.nodes": 16, "job.gpus_per_node": 16}),
    ("each worker is an n1-highmemory-16 with 2 GPUs", {"job.gpus_per_node": 2}, {"job.nodes": 16}),
    ("我们用 4 台 n2-highmem-32，每台 2 张 T4", {"job.nodes": 4, "job.gpus_per_node": 2}, {"job.nodes": 32}),
    ("3 x n1-standard-8 with 1 V100 each", {"job.nodes": 3, "job.gpus_per_node": 1}, {"job.nodes": 8}),
    ("EFA is enabled on 4 network interfaces of the g6e nodes", {"nic.count": 4, "nic.efa": True}, {}),
    ("p4d has 4 EFA network interfaces of 100 Gbps", {"nic.count": 4, "nic.speed_gbps": 100.0}, {}),
    ("每台机器有 4 个网络接口，都开了 EFA", {"nic.count": 4}, {}),
    ("网络接口饱和，存储 I/O 频繁排队", {}, {"nic.count": A}),
    ("网络是每台独享 10Gbps 国际 BGP 带宽", {"nic.speed_gbps": 10.0}, {"net.iperf3_gbps": A}),
    ("we rent servers with a dedicated 10 Gbps uplink each", {"nic.speed_gbps": 10.0}, {"net.iperf3_gbps": A}),
    ("服务器是 25Gbps BGP 带宽，iperf3 测出来只有 3Gbps", {"nic.speed_gbps": 25.0, "net.iperf3_gbps": 3.0}, {}),
    ("iperf3 between the nodes shows 9.4 Gbps of bandwidth", {"net.iperf3_gbps": 9.4}, {}),
    ("机器标称单台最高支持 100Gbps 光纤互连", {}, {"nic.speed_gbps": A, "job.nodes": A, "job.baseline_nodes": A}),
    ("网卡标称 100G，只协商到 25G", {"nic.speed_gbps": 25.0, "nic.max_speed_gbps": 100.0}, {}),
    ("单台 8 卡训练正常，两台就慢", {"job.nodes": 2, "job.baseline_nodes": 1}, {}),
    ("平台兼容 V100、A100 这些主流 GPU，带本地 NVMe", {}, {"gpu.model": A}),
    ("The servers are compatible with V100 and A100; ours have 8 A100 each",
     {"gpu.model": "A100", "job.gpus_per_node": 8}, {"gpu.model": "V100"}),
    ("我们用 2 台 8 卡 A100", {"gpu.model": "A100", "job.nodes": 2}, {}),
    # ------------------------------------------------------------------ an example's counts, a list's items
    ("its docstring example is a cluster with 3 nodes of 2 GPUs each; we train on Vertex AI",
     {}, {"job.nodes": 3, "job.gpus_per_node": 2}),
    ("官方文档里的示例是 4 台机器每台 8 卡，我们只有 2 台，每台 4 张 A100",
     {"job.nodes": 2, "job.gpus_per_node": 4}, {"job.nodes": 4, "job.gpus_per_node": 8}),
    ("1. SSD + 2×3090，data_time 正常；2. HDD + 4×A100，data_time 时快时慢，整体训练速度比 1 慢很多",
     {"job.data_loading_slow": True}, {"job.baseline_nodes": A, "job.negative_scaling": A}),
    ("1. we tried 2 nodes: it was fine. 2. with 4 nodes it is slower than 1",
     {"job.nodes": 4}, {"job.negative_scaling": A}),
    ("4 nodes are slower than 1", {"job.nodes": 4, "job.baseline_nodes": 1, "job.negative_scaling": True}, {}),
    # ------------------------------------------------------------ the GPUs idle for data, the bottleneck named first
    ("We use Azure ML with blob storage mounted via blobfuse; the GPUs sit idle waiting for data most of the time",
     {"job.data_loading_slow": True, "job.data_source": "object_store"}, {}),
    ("the GPUs are idle, waiting on the dataloader", {"job.data_loading_slow": True}, {}),
    ("GPU 一直在空等数据，利用率上不去", {"job.data_loading_slow": True}, {}),
    ("after debugging, the bottleneck is data loading through GCSFuse", {"job.data_loading_slow": True}, {}),
    ("排查下来瓶颈在数据加载上", {"job.data_loading_slow": True}, {}),
    ("is the bottleneck data loading?", {}, {"job.data_loading_slow": A}),
    ("瓶颈是不是在数据加载？", {}, {"job.data_loading_slow": A}),
    ("the GPUs are idle between steps, NCCL all-reduce takes 80% of the time", {}, {"job.data_loading_slow": A}),
    # ------------------------------------------------------------------ a platform's prefix on the instance name
    ("On SageMaker with 4 ml.p4d.24xlarge instances, training is slow",
     {"job.nodes": 4, "job.gpus_per_node": 8, "gpu.model": "A100"}, {}),
    # ------------------------------------------------------------------ a training log's data_time
    ("HDD + 4×3090: data_time 快的时候 0.0x 秒，慢的时候 20 几秒", {"job.data_loading_slow": True}, {}),
    ("the log shows data_time spiking to 15 s every few iterations", {"job.data_loading_slow": True}, {}),
    ("data_time is 0.02 s and the step is 0.5 s", {}, {"job.data_loading_slow": A}),
    ("data_time: 0.8 s", {}, {"job.data_loading_slow": A}),
    # ------------------------------------------------------------------ data in shards, read into memory slowly
    ("我们用 webdataset 训练，数据放在 Lustre 上，不管是读到 CPU 还是读到 GPU 显存都很慢",
     {"job.data_sharded": True, "job.data_loading_slow": True, "job.data_source": "nas"}, {}),
    ("the images are stored as TFRecord shards on GCS", {"job.data_sharded": True}, {}),
    ("we stream MDS shards with mosaicml-streaming from S3", {"job.data_sharded": True}, {}),
    ("would converting to webdataset help? data on NFS is slow", {}, {"job.data_sharded": A}),
    ("是不是应该把数据转成 TFRecord？", {}, {"job.data_sharded": A}),
    ("数据读到内存以后训练很快", {}, {"job.data_loading_slow": A}),
    # ------------------------------------------------------------------ a read rate said in words
    ("reading from S3, the read throughput is 1.2 GB per second",
     {"storage.read_gbps": 9.6}, {"storage.read_gbps": 1.2}),
    ("NFS 读速度只有 200MB/s 左右", {"storage.read_gbps": 1.6}, {}),
    # a streamer's log pasted, and the same bucket copied directly as the yardstick (no link, no iperf3 figure)
    ("两台 P5 从 S3 的 bucket 读模型，吞吐很低：\n```\n(RayWorkerWrapper pid=1) Read throughput is 1.20 GB per second"
     "  [repeated 6x across cluster]\n(RayWorkerWrapper pid=2) Read throughput is 422.48 MB per second\n```\n"
     "同一个 bucket 直接 `aws s3 cp` 拷到 ramdisk 能到 10GB/s 左右。",
     {"storage.read_gbps": 9.6, "job.data_source": "object_store"},
     {"net.iperf3_gbps": A, "nic.speed_gbps": A, "storage.read_gbps": 80.0}),
    ("copying from the bucket with aws s3 cp gets 2 GB/s", {"storage.read_gbps": 16.0}, {"net.iperf3_gbps": A}),
    ("scp between the two nodes only gets 100 MB/s", {"net.iperf3_gbps": 0.8}, {"storage.read_gbps": A}),
    ("NAS should deliver 2 GB/s but we only read 500 MB/s from it", {"storage.read_gbps": 4.0}, {}),
]

# What the facts read should make the rules conclude.
CATEGORIES: list[tuple[str, str]] = [
    ("我们在洛杉矶租了 GPU 裸金属做多节点训练，每个节点 4 张 A100（NVLink 互联），"
     "网络是每台独享 10Gbps 国际 BGP 带宽，Horovod + NCCL",
     "nic-undersized"),
    ("multi-node training with Horovod, 4 A100 per node, and each server has a dedicated 10 Gbps uplink",
     "nic-undersized"),
    ("Training on a DGX with V100s is slow; the image files are located on another server, so every image is "
     "transferred between the servers", "remote-storage-io"),
    ("训练数据放在另一台服务器上，单机 8 卡，GPU 利用率只有 30%", "remote-storage-io"),
    ("两机 16 卡做 FSDP 训练，用了 FullStateDictConfig，一次保存要 400 多秒", "checkpoint-contention"),
    ("The speed of saving models during multi-machine training is very slow", "checkpoint-contention"),
    ("ImageNet 放在 OSS 里，通过 Alluxio 挂载；合成数据多机扩展正常，换成真实数据就慢，GPU 喂不饱",
     "remote-storage-io"),
    ("我们用 webdataset 训练，数据放在 Lustre 上，读到 GPU 显存都很慢，2 个节点每个 4 卡", "input-pipeline-cpu"),
    ("the TFRecord shards on GPFS load very slowly: data loading is the bottleneck", "input-pipeline-cpu"),
]


def _problems(engine: Any, question: str, expected: dict[str, Any], not_read: dict[str, Any]) -> list[str]:
    facts = answer_turn(question, engine=engine)["facts"]
    out = [f"{k}: {facts.get(k)!r} != {v!r}" for k, v in expected.items() if not _close(facts.get(k), v)]
    out += [f"{k} read as {facts[k]!r}" for k, v in not_read.items()
            if k in facts and (v is None or _close(facts[k], v))]
    return out


def _id(case: Any) -> str:
    question = case.values[0] if hasattr(case, "values") else case[0]
    return str(question)[:40]


@pytest.mark.parametrize(("question", "expected", "not_read"), CASES, ids=[_id(c) for c in CASES])
def test_storage_facts(engine: Any, question: str, expected: dict[str, Any], not_read: dict[str, Any]) -> None:
    assert _problems(engine, question, expected, not_read) == []


@pytest.mark.parametrize(("question", "category"), CATEGORIES, ids=[_id(c) for c in CATEGORIES])
def test_storage_categories(engine: Any, question: str, category: str) -> None:
    found = [f["category"] for f in answer_turn(question, engine=engine).get("findings", [])]
    assert category in found
