"""The counts grammar: a generated battery of the ways posters say how many machines and GPUs.

Not a list of sentences: each battery is a cross product of the parts a count is said with, so a form read for one
number, noun or placement and missed for another shows up as a hole in the product. The parts are those GitHub issues
and forums use (searched in public threads: '2 nodes with 1 GPU each', 'Each machines has 8xH100s', '2 machines each
with 4 Titan X GPUs', 'two A100 nodes, each node is (80GX8)', '2机，每机6卡', '2节点共16卡（2*8*A100 40GB）',
'4机32卡H200', 'two 8 A100 Server', '--num-gpus 6 --num-machines 2', 'instance_count = 2'):

    number    digits | words (two, a pair of) | 两 二 俩 双 四
    machine   nodes machines servers hosts boxes instances (p4d.24xlarge, 8xH100 VMs) DGX | 台 机 节点 台服务器 台机器
    GPUs      '8 GPUs each' 'with 8xA100' '8-GPU nodes' '8 卡' '每台8卡' '4台8卡' '2机16卡' (a total) '2x8 H100'
              '16 GPUs across 2 nodes' 'each node has 8' 'per node: 8'
    placement a sentence, brackets, a list item, a table row, a launcher line (torchrun, deepspeed, hostfile slots,
              mpirun -np -H, #SBATCH, accelerate, Kubernetes replicas)

and the traps that must never become a count: model numbers (4090, H100-80G, A100 40GB), ranks and indices, a world
size taken for machines, a baseline run beside the job, a what-if, workers of one machine, ports, NICs.
"""

from __future__ import annotations

import itertools
import re

import pytest

from tests.matching import read_problems

N, G, BN, BG = "job.nodes", "job.gpus_per_node", "job.baseline_nodes", "job.baseline_gpus"

# --- the parts -------------------------------------------------------------------------------------------------------
EN_NUM = {2: ("2", "two", "a pair of"), 3: ("3", "three"), 4: ("4", "four")}
EN_NODE = ("nodes", "machines", "servers", "hosts", "boxes", "instances", "worker nodes", "p4d.24xlarge instances",
           "DGX boxes", "GPU servers")
# per-machine GPU phrasings after the machines: (template, uses the total instead of each's share)
EN_GPU_AFTER = (
    ("{n} {node} with {m} GPUs each", False),
    ("{n} {node}, each with {m}x A100", False),
    ("{n} {node} with {m}xA100 each", False),
    ("{n} {node} x {m} GPUs", False),
    ("{n} {node}, {m} GPUs per node", False),
    ("{n} {node} ({m} GPUs each)", False),
    ("{n} {node}, each node has {m} GPUs", False),
    ("{n} {node} (per node: {m} GPUs)", False),
    ("{n} {node} of {m} H100s each", False),
    ("{n} {node}, each has {m} A100s", False),
    ("{t} GPUs across {n} {node}", True),
    ("{t} GPUs spread over {n} {node}", True),
    ("{t} A100s on {n} {node}", True),
)
# forms with the machine noun fixed by the form itself
EN_FIXED = (
    "{n} {m}-GPU nodes",
    "{n} 8xH100 nodes",
    "{nd}x{m} H100",
    "{nd} x {m} GPUs",
    "{t} GPUs ({nd} nodes x {m})",
    "{t} GPUs ({nd}x{m})",
    "{n} nodes, {m} GPUs on each",
    "each of the {n} nodes has {m} GPUs",
)
EN_TAIL = ("and NCCL all-reduce is slow", "; training is 3x slower than expected")
PLACE_EN = ("{s} {tail}", "Setup: {s}. The all-reduce {tail2}", "- hardware: {s}\n- problem: slow allreduce",
            "| cluster | {s} |\n|---|---|\nthroughput is half of what we expect")

ZH_NUM = {2: ("2", "两", "二"), 4: ("4", "四")}
ZH_FORMS = (
    ("{n}台{m}卡A100", False),
    ("{n}台机器，每台{m}卡", False),
    ("{n}台服务器，每台{m}张A100", False),
    ("{n}个节点，每个节点{m}张卡", False),
    ("{n}机，每机{m}卡", False),
    ("{n}台机器，每台机器有{m}块GPU", False),
    ("{n}台{m}卡的服务器", False),
    ("{n}台 {m}*A100", False),
    ("{n}机{t}卡", True),
    ("{n}节点共{t}卡", True),
    ("{t}张卡分布在{n}台机器上", True),
    ("{n}台机器一共{t}张卡", True),
)
PLACE_ZH = ("{s}，训练很慢", "环境：{s}，allreduce 带宽只有 5GB/s", "配置（{s}）下训练速度上不去",
            "- 硬件：{s}\n- 问题：多机训练慢")


def _en_cases() -> list[tuple[str, dict[str, object]]]:
    cases = []
    for (nd, words), node, (form, _total) in itertools.product(EN_NUM.items(), EN_NODE, EN_GPU_AFTER):
        for n in words:
            m = 8 if "A100" in form or "H100" in form else 4
            s = form.format(n=n, node=node, m=m, t=nd * m)
            cases.append((f"{s} and NCCL all-reduce is slow", {N: nd, G: m}))
    for (nd, words), form, place in itertools.product(EN_NUM.items(), EN_FIXED, PLACE_EN):
        for n in words[:2]:
            m = 8
            if "{nd}" in form and n != words[0]:
                continue
            s = form.format(n=n, nd=nd, m=m, t=nd * m)
            cases.append((place.format(s=s, tail=EN_TAIL[0], tail2="is slow"), {N: nd, G: m}))
    return cases


def _zh_cases() -> list[tuple[str, dict[str, object]]]:
    cases = []
    for (nd, words), (form, _total), place in itertools.product(ZH_NUM.items(), ZH_FORMS, PLACE_ZH):
        for n in words:
            m = 8
            s = form.format(n=n, m=m, t=nd * m)
            cases.append((place.format(s=s), {N: nd, G: m}))
    for place in PLACE_ZH:  # 双 and 俩: two said as a pair
        cases.append((place.format(s="双机16卡"), {N: 2, G: 8}))
        cases.append((place.format(s="双节点，每节点8卡"), {N: 2, G: 8}))
        cases.append((place.format(s="俩台机器各8张卡"), {N: 2, G: 8}))
    return cases


# launchers: (template, nodes, gpus each); '{h}' is a host list built from the count
LAUNCHERS = (
    "torchrun --nnodes={n} --nproc_per_node={m} --rdzv_endpoint=10.0.0.1:29500 train.py",
    "torchrun --nnodes {n} --nproc-per-node {m} --node_rank 0 train.py",
    "deepspeed --num_nodes {n} --num_gpus {m} --hostfile hostfile train.py",
    "deepspeed --num_gpus={m} --num_nodes={n} train.py --deepspeed ds.json",
    "hostfile:\n{slots}\nthen deepspeed train.py",
    "mpirun -np {t} -H {h} python train.py",
    "#SBATCH --nodes={n}\n#SBATCH --gres=gpu:{m}\n#SBATCH --ntasks-per-node={m}\nsrun python train.py",
    "#SBATCH -N {n}\n#SBATCH --gpus-per-node={m}\nsrun torchrun train.py",
    "srun -N {n} --ntasks-per-node={m} python train.py",
    "accelerate config:\nnum_machines: {n}\nnum_processes: {t}\nmachine_rank: 0",
    "python train.py --num-gpus {m} --num-machines {n} --machine-rank 0 --dist-url tcp://10.0.0.1:12345",
    "the PyTorchJob has Worker replicas: {n} and each pod requests nvidia.com/gpu: {m}",
)


def _launcher_cases() -> list[tuple[str, dict[str, object]]]:
    cases = []
    for form, (n, m) in itertools.product(LAUNCHERS, ((2, 8), (4, 8), (2, 4), (3, 8))):
        slots = "\n".join(f"node{i + 1} slots={m}" for i in range(n))
        h = ",".join(f"node{i + 1}:{m}" for i in range(n))
        s = form.format(n=n, m=m, t=n * m, slots=slots, h=h)
        cases.append((f"{s}\nthe all-reduce is much slower than expected", {N: n, G: m}))
    return cases


# traps: a text that states a job of 2 machines x 8 GPUs (or none) beside a number that is no count of it
TRAPS: list[tuple[str, dict[str, object]]] = []
_JOB = ("2 nodes with 8 GPUs each", "2台8卡")
for _trap, _want in (
    ("we use RTX 4090 cards", {}), ("the GPUs are H100-80G", {}), ("A100 40GB SXM", {}), ("3090 显卡", {}),
    ("rank 8 hangs in allreduce", {}), ("node 3 is the slowest one", {}), ("GPU 0-7 all show 100% util", {}),
    ("cuda:1 is idle", {}), ("MASTER_PORT=29500", {}), ("port 23456 is open", {}), ("each node has 4 NICs", {}),
    ("dataloader uses 16 workers", {}), ("num_workers=12 on each machine", {}),
    ("if we go to 4 nodes will it scale?", {}), ("on a single node with 8 GPUs it is fine", {BN: 1}),
    ("单机8卡没问题", {BN: 1}), ("如果扩到4台会不会更慢", {}), ("节点3 特别慢", {}), ("第8张卡温度很高", {}),
):
    for _job in _JOB:
        _sep = "，" if any("\u4e00" <= c <= "\u9fff" for c in _trap + _job) else ", "
        TRAPS.append((f"{_job}{_sep}{_trap}", {N: 2, G: 8, **_want}))
# counts alone that are not the machines
TRAPS += [
    ("world size 16, training is slow", {N: None}),
    ("WORLD_SIZE=16 and the all-reduce is slow", {N: None}),
    ("one machine, 8 dataloader workers, slow", {N: 1}),
    ("rank 3 of 16 is slow", {N: None, G: None}),
    ("we train on 4090s and it is slow", {G: None}),
]

ALL = _en_cases() + _zh_cases() + _launcher_cases()


def _problems(text: str, expected: dict[str, object]) -> list[str]:
    return read_problems(text, expected)


@pytest.mark.parametrize(("text", "expected"), ALL)
def test_counts_read(text: str, expected: dict[str, object]) -> None:
    assert _problems(text, expected) == []


@pytest.mark.parametrize(("text", "expected"), TRAPS)
def test_counts_traps(text: str, expected: dict[str, object]) -> None:
    assert _problems(text, expected) == []


# --- round two: the machines and their GPUs said apart, with a verb, an adjective or a board between ----------------
EN_VERB = ("We are training on {s}", "I have {s}", "Running DDP across {s}", "The job uses {s}", "Using {s}")
EN_SPLIT = (
    # the machines in one sentence, each one's GPUs in the next
    ("{n} {node}. Each has {m} A100s.", False),
    ("{n} {node}. Each machine has {m}xH100s.", False),
    ("{n} {node}; every node has {m} GPUs.", False),
    ("{n} {node}, each node is ({m}x A100 80GB)", False),
    ("{n} {node} (each {m}x H100 SXM)", False),
    ("{n} {node} equipped with {m} H100 SXM5 each", False),
    ("{n} {node} with eight A100s per box", False),
    ("{n} {node}, {m} GPUs/node", False),
    ("{n} {node} - {m}x A100 80GB SXM each", False),
    ("{n} identical {node} with {m} GPUs each", False),
    ("{n} bare-metal {node}, {m} GPUs per machine", False),
    ("{t} GPUs in total over {n} {node}", True),
    ("{t} H100 GPUs ({n} {node})", True),
)
EN_NODE2 = ("nodes", "machines", "servers", "hosts", "GPU nodes", "compute nodes", "Azure VMs", "EC2 instances")
EN_CLOUD = (
    ("{n} x p4d.24xlarge", 8), ("{n} p4de.24xlarge instances", 8), ("{n}x Standard_ND96asr_v4 VMs", 8),
    ("{n} DGX H100 nodes", 8), ("{n} DGX A100 systems", 8), ("{n} x DGX-H100", 8), ("{n} g5.48xlarge instances", 8),
    ("{n} 8xH100 VMs", 8), ("{n} nodes of 8x A100", 8), ("{n} HGX H100 servers", 8),
)
# the job beside a baseline run of one machine: the job's counts, the baseline's apart
EN_BASE = (
    ("On 1 node with 8 GPUs it runs at 3 it/s, but on {n} nodes (8 GPUs each) it drops to 1 it/s",
     {N: "n", G: 8, BN: 1}),
    ("Single node 8 GPUs is fine; {n} nodes x 8 GPUs is 2x slower", {N: "n", G: 8, BN: 1}),
    ("A single machine with 8 GPUs trains fine, {n} machines with 8 GPUs each are slow", {N: "n", G: 8, BN: 1}),
    ("1 node: 800 samples/s. {n} nodes: 900 samples/s (8 GPUs per node)", {N: "n", G: 8, BN: 1}),
    ("{n} nodes with 8 GPUs each are slower than 1 node with 8 GPUs", {N: "n", G: 8, BN: 1}),
)
ZH_FORMS2 = (
    ("{n}台 8 卡 A800 服务器", False), ("{n}台A100（每台8卡）", False), ("用了{n}台机器（每台8张A100）", False),
    ("机器数量 {n}，每台 8 卡", False), ("{n}个节点各8张H800", False), ("{n}台八卡机", False), ("{n}台8*A100", False),
    ("使用{n}个节点{t}张卡", True), ("{n}台机器{t}张卡", True), ("{t}卡（{n}机）", True),
    ("{n}台机器，每台上插了8张4090", False), ("{n}台 DGX H100", False), ("{n} 个 8 卡节点", False),
    ("服务器 {n} 台，每台 8 张 H100", False), ("{n}机8卡×{n}", None),
)
ZH_NUM2 = {2: ("2", "两", "二"), 4: ("4", "四"), 3: ("3", "三")}
ZH_PLACE2 = ("我们用{s}训练 llama，速度很慢", "{s}跑 deepspeed zero3，吞吐上不去", "硬件是{s}。多机训练比单机还慢")
ZH_BASE = (
    ("单机8卡跑得好好的，{s}就慢了一倍", {BN: 1}),
    ("{s}训练速度比单机8卡还慢", {BN: 1}),
    ("1机8卡正常，{s}不正常", {BN: 1}),
)
LAUNCHERS2 = (
    "torchrun \\\n  --nproc_per_node 8 \\\n  --nnodes {n} \\\n  --master_addr 10.0.0.1 \\\n  train.py",
    "python -m torch.distributed.launch --nproc_per_node=8 --nnodes={n} --node_rank=0 train.py",
    "horovodrun -np {t} -H {h} python train.py",
    "mpirun -np {t} -npernode 8 --hostfile hosts ./all_reduce_perf -b 8 -e 1G -g 1",
    "NNODES={n}\nGPUS_PER_NODE=8\nbash pretrain_gpt.sh",
    "export NNODES={n} NPROC_PER_NODE=8\ntorchrun --nnodes $NNODES --nproc_per_node $NPROC_PER_NODE train.py",
    "#SBATCH --nodes={n}\n#SBATCH --ntasks-per-node=1\n#SBATCH --gres=gpu:8\nsrun torchrun --nproc_per_node 8 train.py",
    "srun --nodes={n} --gpus-per-node=8 --ntasks-per-node=8 python train.py",
    "deepspeed --hostfile=hostfile train.py\n# hostfile\n{slots}",
    "accelerate launch --num_machines {n} --num_processes {t} --machine_rank 0 train.py",
    "trainer.num_nodes={n} trainer.devices=8 model.tensor_model_parallel_size=2",
    "Trainer(accelerator='gpu', devices=8, num_nodes={n}, strategy='ddp')",
)


def _round_two() -> list[tuple[str, dict[str, object]]]:
    cases: list[tuple[str, dict[str, object]]] = []
    for (nd, words), node, (form, _t), verb in itertools.product(EN_NUM.items(), EN_NODE2, EN_SPLIT, EN_VERB[:2]):
        n = words[0] if verb.startswith("We") else words[1]
        s = form.format(n=n, node=node, m=8, t=nd * 8)
        cases.append((verb.format(s=s) + " and all-reduce is slow", {N: nd, G: 8}))
    for (nd, words), (form, m), verb in itertools.product(EN_NUM.items(), EN_CLOUD, EN_VERB):
        cases.append((verb.format(s=form.format(n=words[0])) + ", NCCL is slow", {N: nd, G: m}))
        if verb == EN_VERB[0] and "{n}x" not in form:  # ('2x Standard_ND96…' takes a digit, never 'twox')
            cases.append((verb.format(s=form.format(n=words[1])) + ", NCCL is slow", {N: nd, G: m}))
    for nd, (form, want) in itertools.product((2, 4), EN_BASE):
        cases.append((form.format(n=nd), {k: nd if v == "n" else v for k, v in want.items()}))
    for (nd, words), (form, _t), place in itertools.product(ZH_NUM2.items(), ZH_FORMS2, ZH_PLACE2):
        for n in words:
            if _t is None:
                continue
            cases.append((place.format(s=form.format(n=n, t=nd * 8)), {N: nd, G: 8}))
    for (nd, words), (form, want), zh in itertools.product(((2, ("2", "两")), (4, ("4", "四"))), ZH_BASE,
                                                         ("{n}机{t}卡", "{n}台8卡", "{n}台机器每台8卡")):
        for n in words:
            cases.append((form.format(s=zh.format(n=n, t=nd * 8)), {N: nd, G: 8, **want}))
    for form, n in itertools.product(LAUNCHERS2, (2, 4)):
        slots = "\n".join(f"worker-{i} slots=8" for i in range(n))
        h = ",".join(f"server{i + 1}:8" for i in range(n))
        s = form.format(n=n, t=n * 8, slots=slots, h=h)
        cases.append((f"{s}\nscaling efficiency is only 50%", {N: n, G: 8}))
    return cases


TRAPS2: list[tuple[str, dict[str, object]]] = []
for _trap, _want in (
    ("with 2 GPU servers x 4 GPUs", {N: 2, G: 4}),
    ("using 4 x 3090 on each of 2 machines", {N: 2, G: 4}),
    ("H100 80GB x 8 per node, 2 nodes", {N: 2, G: 8}),
    ("2 nodes (rank 0 and rank 1) with 8 GPUs each", {N: 2, G: 8}),
    ("2 nodes x 8 GPUs, NCCL_IB_HCA=mlx5_0,mlx5_1 and 4 NICs per node", {N: 2, G: 8}),
    ("2 nodes x 8 GPUs; would 4 nodes be faster?", {N: 2, G: 8}),
    ("2 nodes x 8 GPUs; we plan to scale to 16 nodes later", {N: 2, G: 8}),
    ("2 nodes x 8 GPUs, world size 16, global batch 512", {N: 2, G: 8}),
    ("2 nodes x 8 GPUs, each process uses 8 dataloader workers", {N: 2, G: 8}),
    ("2 nodes x 8 GPUs, node 1 is slow, GPU 7 on node 1 is hot", {N: 2, G: 8}),
    ("2 nodes x 8 GPUs (A100 40GB), TP=8 PP=2", {N: 2, G: 8}),
    ("两台机器，每台8张A100 40G，端口 29500", {N: 2, G: 8}),
    ("2机16卡，rank 8 一直卡住", {N: 2, G: 8}),
    ("2台8卡，NCCL_SOCKET_IFNAME=eth0，每台 4 张网卡", {N: 2, G: 8}),
    ("2台8卡，如果换成4台会好吗", {N: 2, G: 8}),
    ("2台8卡，dataloader num_workers=16", {N: 2, G: 8}),
):
    TRAPS2.append((_trap + ", training is slow", _want))

ALL2 = _round_two()


@pytest.mark.parametrize(("text", "expected"), ALL2)
def test_counts_read_round_two(text: str, expected: dict[str, object]) -> None:
    assert _problems(text, expected) == []


@pytest.mark.parametrize(("text", "expected"), TRAPS2)
def test_counts_traps_round_two(text: str, expected: dict[str, object]) -> None:
    assert _problems(text, expected) == []


# --- round three: more launchers and settings, each for several shapes ----------------------------------------------
LAUNCHERS3: tuple[tuple[str, bool | str], ...] = (
    ("python tf_cnn_benchmarks.py --model=resnet50 --num_gpus={m} --variable_update=replicated", False),
    ("python train.py --gpus {m} --num_nodes {n}", True),
    ("CUDA_VISIBLE_DEVICES={devs} torchrun --nnodes={n} --nproc_per_node={m} train.py", True),
    ("python -m paddle.distributed.launch --gpus {devs} --ips {ips} train.py", True),
    ("fleetrun --ips={ips} --gpus={devs} train.py", True),
    ("estimator = PyTorch(entry_point='train.py', instance_count={n}, instance_type='ml.p5.48xlarge')", "n"),
    ("horovodrun -np {t} -H {h} python train.py", True),
    ("mpirun -n {t} -ppn {m} -hosts {hosts} python train.py", True),
    ("srun -N{n} --gres=gpu:{m} python train.py", True),
    ("sbatch --nodes {n} --gpus-per-node {m} job.sh", True),
    ("#SBATCH --nodes={n}\n#SBATCH --gpus={t}", True),
    ("#SBATCH -N {n} --ntasks={t} --gpus-per-task=1", True),
    ("trainer = pl.Trainer(devices={m}, num_nodes={n}, strategy='ddp')", True),
    ("python main.py --dist-url 'tcp://10.1.1.20:23456' --dist-backend 'nccl' --multiprocessing-distributed "
     "--world-size {n} --rank 0 /data/imagenet", "n"),
    ("NNODES={n} NODE_RANK=0 PORT=29500 MASTER_ADDR=10.0.0.1 bash tools/dist_train.sh configs/x.py {m}", True),
    ("accelerate launch --multi_gpu --num_processes {t} --num_machines {n} train.py", True),
    ("export GPUS_PER_NODE={m}\nexport NNODES={n}\nexport WORLD_SIZE=$(($GPUS_PER_NODE*$NNODES))", True),
    ("mpirun -np {n} -H {hosts} ./build/all_reduce_perf -b 8 -e 4G -f 2 -g {m}", True),
    ("mpirun --allow-run-as-root -np {t} -H {h} -x NCCL_DEBUG=INFO ./build/all_reduce_perf -b 8 -e 4G -g 1", True),
)


SHARES = ("GPUs: {m} per node, {n} nodes", "卡数：{m}/台，机器数：{n}",
          "I'm using {n} nodes. On each node I run {m} processes.", "{n}机{m}卡/机", "{n} 台 {m} 卡/台",
          "{t} GPUs across {n} DGX boxes", "{n} GPU servers x {m} GPUs",
          "{n} identical GPU nodes with {m} GPUs each", "{t} GPUs in total over {n} GPU nodes")


def _round_three() -> list[tuple[str, dict[str, object]]]:
    cases: list[tuple[str, dict[str, object]]] = []
    for (form, with_nodes), (n, m) in itertools.product(LAUNCHERS3, ((2, 8), (4, 8), (2, 4))):
        text = form.format(n=n, m=m, t=n * m, devs=",".join(str(i) for i in range(m)),
                           ips=",".join(f"10.0.0.{i + 1}" for i in range(n)),
                           h=",".join(f"server{i + 1}:{m}" for i in range(n)),
                           hosts=",".join(f"node{i + 1}" for i in range(n)))
        want: dict[str, object] = {N: n} if with_nodes == "n" else {N: n, G: m} if with_nodes else {G: m}
        cases.append((text + "\nit is slow", want))
    # labels and each machine's share said after the count
    for (n, m), form in itertools.product(((2, 8), (4, 8), (2, 4)), SHARES):
        if "DGX" in form and m == 8:
            form = "{n} DGX boxes"  # a DGX holds eight: a total over them is said only for fewer
        cases.append((form.format(n=n, m=m, t=n * m) + ", training is slow", {N: n, G: m}))
    return cases


# the job against a baseline run, each side's counts (the forms this battery found failing and left are NOT_YET)
COMPARED: list[tuple[str, dict[str, object]]] = [
    ("Training on 1 node takes 2 h, on 2 nodes it takes 3 h.", {N: 2, BN: 1}),
    ("I tried 8, 4 and 2 GPUs; on 8 GPUs an epoch takes 20 minutes longer than on a single GPU.", {G: 8, BG: 1}),
    ("1xGPU within the node: 1236 img/s; 8 GPUs across the 2 nodes: 7691 img/s", {N: 2, G: 4, BG: 1}),
    ("Scaling from 1 to 4 nodes (8 GPUs each) only gives 2x", {N: 4, G: 8, BN: 1}),
    ("4 nodes are barely faster than 2 nodes (8 A100 each)", {N: 4, G: 8, BN: 2}),
    ("单机8卡 1.2 s/step，两机16卡 2.0 s/step", {N: 2, G: 8, BN: 1}),
    ("用 4 台机器比 2 台还慢，每台 8 张 A800", {N: 4, G: 8, BN: 2}),
    ("2机16卡的速度和单机8卡差不多", {N: 2, G: 8, BN: 1}),
    ("2 nodes x 8 GPUs: 1500 tokens/s/GPU; 1 node x 8 GPUs: 3000 tokens/s/GPU", {N: 2, G: 8, BN: 1}),
    ("Single-node (8 GPUs) throughput is 2x multi-node (2 nodes, 16 GPUs)", {N: 2, G: 8, BN: 1}),
    ("On one machine with 4 GPUs it's fine; adding a second machine (also 4 GPUs) makes it slower",
     {N: 2, G: 4, BN: 1}),
    ("Adding a second node makes training slower. Each node has 8 V100s.", {N: 2, G: 8, BN: 1}),
    ("1 node: 10 it/s\n2 nodes: 6 it/s\n4 nodes: 3 it/s\n(8 GPUs per node)", {N: 4, G: 8, BN: 1}),
    ("When I use 2 machines the speed drops, a single machine is fine. Both have 8 GPUs.", {N: 2, G: 8, BN: 1}),
    ("the job on 16 nodes is 30% slower per step than the same job on 8 nodes; 8xH100 each", {N: 16, G: 8, BN: 8}),
    ("3台机器（每台4张3090）训练比1台慢", {N: 3, G: 4, BN: 1}),
    ("一台机器 8 卡训练正常，再加一台就变慢了", {N: 2, G: 8, BN: 1}),
    ("two nodes are slower than one; each has 4 GPUs", {N: 2, G: 4, BN: 1}),
    ("在2台机器上训练，每台8卡，如果用4台会更快吗", {N: 2, G: 8}),
    ("multi-node: 2 x (8 x A100); single node baseline 8 x A100", {N: 2, G: 8, BN: 1}),
    ("The 2-node run (16 GPUs) is slower than the 1-node run (8 GPUs)", {N: 2, G: 8, BN: 1}),
    ("with 32 GPUs (4 nodes) the throughput per GPU halves compared with 8 GPUs on one node", {N: 4, G: 8, BN: 1}),
    ("2节点比1节点慢，都是8卡H800", {N: 2, G: 8, BN: 1}),
]

NOT_YET: list[tuple[str, dict[str, object], str]] = [
    ("ray.init(); trainer = TorchTrainer(scaling_config=ScalingConfig(num_workers=16, use_gpu=True)) on 2 nodes",
     {N: 2, G: 8}, "Ray's training workers in all, divided by machines said in the words: the launcher's total is not "
                   "carried to the prose"),
    ("Each machine has 8xH100s and we use 2 of them", {N: 2, G: 8},
     "'them' after a machine's GPUs: the referent is the last plural named (the GPUs), the subject is the machines"),
    ("2 nodes / 8 GPUs, training is slow", {N: 2, G: 4},
     "a slash pair of machines and GPUs: eight is also a machine's usual share, left as each machine's"),
    ("bench | n | ngpu | perf\ndiffusion | 2 | 8 | 407\ndiffusion | 4 | 16 | 810", {N: 4, G: 4, BN: 2},
     "a table whose columns are named 'n' and 'ngpu': too bare to be machines and GPUs in all"),
]

ALL3 = _round_three()


@pytest.mark.parametrize(("text", "expected"), ALL3)
def test_counts_read_round_three(text: str, expected: dict[str, object]) -> None:
    assert _problems(text, expected) == []


@pytest.mark.parametrize(("text", "expected"), COMPARED)
def test_counts_of_compared_runs(text: str, expected: dict[str, object]) -> None:
    assert _problems(text, expected) == []




# --- round four: a form of labels, one line each or in a row, in either order -----------------------------------------
NODE_LABELS = ("Nodes", "Number of nodes", "Node count", "#nodes", "num_nodes", "节点数", "机器数量", "服务器数量",
               "Machines")
EACH_LABELS = ("GPUs per node", "GPUs/node", "GPU per node", "Number of GPUs per node", "每节点GPU数", "每台卡数",
               "单机卡数", "GPUs per machine")
TOTAL_LABELS = ("Total GPUs", "GPUs", "GPU count", "总卡数", "卡数", "Number of GPUs", "Total number of GPUs")
LABEL_SEPS = (": ", "：", " = ")
LABEL_JOINS = ("\n", ", ", "; ", "\n- ")


def _labels() -> list[tuple[str, dict[str, object]]]:
    cases: list[tuple[str, dict[str, object]]] = []
    for nl, gl, sep, join, first in itertools.product(NODE_LABELS, EACH_LABELS + TOTAL_LABELS, LABEL_SEPS, LABEL_JOINS,
                                                      (True, False)):
        nodes, gpus = f"{nl}{sep}2", f"{gl}{sep}{8 if gl in EACH_LABELS else 16}"
        s = nodes + join + gpus if first else gpus + join + nodes
        s = ("- " + s if join.startswith("\n-") else s) + ("\n训练很慢" if re.search(r"[\u4e00-\u9fff]", s)
                                                             else "\nTraining is slow.")
        cases.append((s, {N: 2, G: 8}))
    return cases


# machines said around the count: between them, across them, named one by one, a master and its workers, logs' names
AROUND: list[tuple[str, dict[str, object]]] = [
    ("两台服务器之间 allreduce 很慢，每台 8 张 A100", {N: 2, G: 8}),
    ("跨两台机器训练很慢，每台8卡", {N: 2, G: 8}),
    ("在两个节点上训练，每个节点 4 卡", {N: 2, G: 4}),
    ("2 个 node，每个 node 8 张卡", {N: 2, G: 8}),
    ("2node 训练速度慢，8卡/node", {N: 2, G: 8}),
    ("a dual-node setup, 8 GPUs per node, slow allreduce", {N: 2, G: 8}),
    ("allreduce between the two nodes is slow (8 GPUs each)", {N: 2, G: 8}),
    ("node0 and node1 each have 8 A100s; allreduce between them is slow", {N: 2, G: 8}),
    ("1 master + 3 workers, 8 GPUs each, training is slow", {N: 4, G: 8}),
    ("2 nodes, 1 GPU each, allreduce is slow", {N: 2, G: 1}),
    ("2 x g5.12xlarge, NCCL is slow", {N: 2, G: 4}),
    ("NCCL INFO comm 0x55d rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0 - Init START\nslow",
     {N: 2, G: 8}),
    ("[launch.py:146:main] WORLD INFO DICT: {'node1': [0, 1, 2, 3, 4, 5, 6, 7], 'node2': [0, 1, 2, 3, 4, 5, 6, 7]}\n"
     "[launch.py:152:main] nnodes=2, num_local_procs=8, node_rank=0\nslow", {N: 2, G: 8}),
    ("  group_rank=0\n  group_world_size=2\n  local_ranks=[0, 1, 2, 3, 4, 5, 6, 7]\n  role_world_size=16\nslow",
     {N: 2, G: 8}),
    ("SLURM_NNODES=2 SLURM_GPUS_ON_NODE=8 SLURM_NTASKS=16, the job is slow", {N: 2, G: 8}),
    ("SLURM_JOB_NUM_NODES=4, 8 GPUs per node, the job is slow", {N: 4, G: 8}),
    ("world_size: 16, local_world_size: 8, slow", {N: 2, G: 8}),
    ("the cluster has 64 nodes but this job uses 8 of them, 8 GPUs per node", {N: 8, G: 8}),
    ("we run on 8 out of 64 nodes (8xH100 each)", {N: 8, G: 8}),
    ("机器A和机器B各8张卡，两机训练很慢", {N: 2, G: 8}),
    ("三台机器（A、B、C）各 4 张 3090", {N: 3, G: 4}),
    ("A100 8卡 x 2台", {N: 2, G: 8}),
    ("16 张 H800（2 台）", {N: 2, G: 8}),
    ("on 2 nodes (node-1, node-2), each 8x A100", {N: 2, G: 8}),
    ("nodes: gpu01, gpu02 (8 GPUs each)", {N: 2, G: 8}),
    ("Hosts: 10.0.0.1, 10.0.0.2, 10.0.0.3, 10.0.0.4; 8 GPUs each", {N: 4, G: 8}),
    ("two workstations with a single 4090 each, connected by 10GbE", {N: 2, G: 1}),
    ("Nodes: 2\nGPUs/node: 8\nInterconnect: RoCE", {N: 2, G: 8}),
    ("Number of nodes: 4\nNumber of GPUs per node: 8", {N: 4, G: 8}),
    ("| nodes | GPUs | samples/s |\n|---|---|---|\n| 1 | 8 | 1000 |\n| 2 | 16 | 1100 |", {N: 2, G: 8, BN: 1}),
    ("We moved from 1 DGX to 2 DGX and the step time went up", {N: 2, G: 8, BN: 1}),
    ("We plan 8 nodes, now testing on 2 nodes with 8 GPUs each and it is slow", {N: 2, G: 8}),
    ("I tried 1, 2 and 4 GPUs: with 4 GPUs an epoch takes longer than with 1 GPU", {G: 4, BG: 1}),
    ("With 4 GPUs I only get 50% util, with 2 GPUs not much higher.\n"
     "python tf_cnn_benchmarks.py --num_gpus=4 --model=nasnet --batch_size=32", {G: 4}),
]
NOT_YET += [
    ("hvd.size() is 16 and hvd.local_size() is 8, training slow", {N: 2, G: 8},
     "Horovod's calls said in words: no reader of API names"),
    ("nodes=2, gpus=16", {N: 2, G: 8},
     "'gpus' is each machine's under Lightning, the job's under Slurm: left as each's"),
    ("With 4 GPUs I get 50% util, with 2 GPUs it's not much higher.", {G: 4},
     "runs of several sizes with no comparison word and no launcher: which is the job is unsaid"),
]

LABELS = _labels()


@pytest.mark.parametrize(("text", "expected"), LABELS)
def test_counts_read_from_labels(text: str, expected: dict[str, object]) -> None:
    assert _problems(text, expected) == []


@pytest.mark.parametrize(("text", "expected"), AROUND)
def test_counts_read_around_the_machines(text: str, expected: dict[str, object]) -> None:
    assert _problems(text, expected) == []


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param(text, expected, marks=pytest.mark.xfail(strict=True, reason=why)) for text, expected, why in NOT_YET])
def test_counts_not_read_yet(text: str, expected: dict[str, object]) -> None:
    assert _problems(text, expected) == []
