"""The counts grammar: the forms a run's size is said in, read as a grammar, generated as cross products.

Each battery crosses the parts a count is said with (numbers x GPU models x separators x languages x placements), so a
form read for one number or noun and missed for another shows up as a hole. The mechanisms tested here:

    script flags    a training script's own GPU flag ('--ngpus 8', '--n_gpus 4', '--num_gpu 2'), 'DEVICES=1'
                    (never nccl-tests' '--ngpus'/'-g', the GPUs each of its processes drives)
    gamer's words   'graphics cards', 'video cards' as GPUs (a baseline of '1 graphics card' against '3 graphics cards')
    RDMA names      a configured list of RDMA interfaces ('ifNames: [ibs10, ibs11, ibs18, ibs19]') as nic.count
    a choice        '扩展到 4 或 8 个节点', 'on 2 or 4 nodes': several machines, neither count the job's
    model x count   'some A100-40G x 8 nodes', 'two A800*8 machines', 'A100x8 nodes': the count after the model is each
                    machine's GPUs (and 'A100x8' is a board, not the hex number 0x8)
    workers         '单个 worker 4 张卡', '2 workers with 8 GPUs each': a worker holding GPUs is a machine
    named baseline  '基线是单机 3 卡', 'the baseline is one node with 8 GPUs': the baseline's size said outright
    ranks           '8 个 rank 0~7 都打印了': ranks in all, no machine said, are left unread (they may span machines)

with traps beside each: near-miss sentences that must NOT produce the fact (a misread is worse than a gap).
"""

from __future__ import annotations

import itertools

import pytest

from tests.matching import read_problems

N, G, BN, BG = "job.nodes", "job.gpus_per_node", "job.baseline_nodes", "job.baseline_gpus"
NIC, MULTI = "nic.count", "job.multi_node"


def _check(text: str, expected: dict[str, object]) -> None:
    problems = read_problems(text, expected)
    assert not problems, f"{text!r}: {problems}"


# --- script flags ----------------------------------------------------------------------------------------------------
FLAGS = ("--ngpus {m}", "--ngpus={m}", "--n_gpus {m}", "--n-gpus {m}", "--num_gpu {m}", "--ngpu {m}", "--gpu_num {m}")
SCRIPTS = ("python train.py --data /data/imagenet --batch-size 64 {flag}", "python3 main.py {flag} --epochs 90",
           "python tools/train.py configs/resnet50.py {flag} --workers 8")
PROSE_FLAG = ("GPU utilisation swings between 60% and 100% with `{cmd}`.",
              "我用 `{cmd}` 训练，GPU 利用率一直在 60% 到 100% 之间跳。",
              "Command:\n```\n{cmd}\n```\nthe epoch takes twice as long as expected")


@pytest.mark.parametrize("flag,script,place,m", [
    (f, s, p, m) for f, s, p in itertools.product(FLAGS, SCRIPTS, PROSE_FLAG) for m in (2, 4, 8)])
def test_script_gpu_flag(flag: str, script: str, place: str, m: int) -> None:
    cmd = script.format(flag=flag.format(m=m))
    _check(place.format(cmd=cmd), {G: m})


@pytest.mark.parametrize("text,expected", [
    # nccl-tests: '--ngpus'/'-g' is each process's GPUs; with one process a host over 2 hosts, 8 a host
    ("`mpirun -np 2 -H a,b ./build/all_reduce_perf -b 8 -e 1G -f 2 --ngpus 8` gives 20 GB/s busbw", {N: 2, G: 8}),
    ("`mpirun -np 16 -H n1:8,n2:8 ./build/all_reduce_perf -b 8 -e 1G --ngpus 1` busbw is 40 GB/s", {N: 2, G: 8}),
    ("`mpirun -np 16 -H n1:8,n2:8 ./build/all_reduce_perf -b 8 -e 1G -g 1` busbw is 40 GB/s", {N: 2, G: 8}),
    # a batch size, a worker count or a port is no GPU flag
    ("`python train.py --batch-size 8 --workers 4 --port 29500` is slow", {G: None}),
    ("`python train.py --ngpus 64` on our cluster", {G: ("not", 64)}),
])
def test_script_gpu_flag_traps(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


DEVICES_PLACES = ("每个 worker DEVICES={m}，2 个节点时很慢", "Each worker runs with DEVICES={m}; on 2 nodes it is slow",
                  "`DEVICES={m} ./run_caffe.sh` on each of the 2 nodes, and training is 4x slower")


@pytest.mark.parametrize("place,m", list(itertools.product(DEVICES_PLACES, (1, 2, 4))))
def test_devices_setting(place: str, m: int) -> None:
    _check(place.format(m=m), {G: m, N: 2})


@pytest.mark.parametrize("text", ["CUDA_VISIBLE_DEVICES=0,1,2,3 python train.py is slow",
                                  "我设置了 CUDA_VISIBLE_DEVICES=0,1,2,3 然后训练很慢"])
def test_visible_devices_are_four_gpus(text: str) -> None:
    _check(text, {G: 4})


@pytest.mark.parametrize("text", ["NUM_DEVICES_PER_NODE_MAX=64 in the config", "ibv_devices lists 2 devices",
                                  "the DEVICES page says 8"])
def test_devices_traps(text: str) -> None:
    _check(text, {G: None})


# --- a gamer's words for GPUs ---------------------------------------------------------------------------------------
CARD_WORDS = (("graphics card", "graphics cards"), ("video card", "video cards"), ("graphic card", "graphic cards"))
CARD_FORMS = ("1 {one}, bs8: each iter takes 300 ms\n{m} {many}, bs8: each iter takes 1400 ms",
              "With 1 {one} an iteration takes 300 ms, with {m} {many} it takes 1400 ms.",
              "- 1 {one}: 300 ms per iteration\n- {m} {many}: 1400 ms per iteration")


@pytest.mark.parametrize("words,form,m", [
    (w, f, m) for w, f in itertools.product(CARD_WORDS, CARD_FORMS) for m in (2, 3, 4)])
def test_graphics_cards_compared(words: tuple[str, str], form: str, m: int) -> None:
    one, many = words
    _check(form.format(one=one, many=many, m=m), {BG: 1, G: m})


@pytest.mark.parametrize("text,expected", [
    ("Two nodes with 4 graphics cards each, all-reduce is slow", {N: 2, G: 4}),
    ("I train on 2 video cards and the speed is the same as on one", {G: 2}),
    ("my graphics card driver is 535.104.05 and NCCL hangs", {G: None, N: None}),
    ("the graphics card has 24 GB of memory", {G: None}),
    ("video card fans spin at 80%", {G: None}),
])
def test_graphics_cards_forms_and_traps(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


# --- a configured list of RDMA interfaces --------------------------------------------------------------------------
LABELS = ("ifNames: [{names}]", "ifNames: {names}", "interfaces: {names}", "RDMA devices: {names}", "网卡：{names}",
          "HCAs = {names}")
NAME_SETS = (("ibs10", "ibs11", "ibs18", "ibs19"), ("ib0", "ib1"), ("mlx5_0", "mlx5_1", "mlx5_2"),
             ("ibp12s0", "ibp75s0", "ibp141s0", "ibp207s0"))
SEPS = (", ", ",", "、")


@pytest.mark.parametrize("label,names,sep", list(itertools.product(LABELS, NAME_SETS, SEPS)))
def test_rdma_interfaces_listed(label: str, names: tuple[str, ...], sep: str) -> None:
    text = ("k8s-rdma-shared-dev-plugin config:\n  " + label.format(names=sep.join(names))
            + "\nhow much bandwidth does a pod get?")
    _check(text, {NIC: len(names)})


@pytest.mark.parametrize("text,expected", [
    ("NCCL_SOCKET_IFNAME=eth0,eth1 and the job is slow", {NIC: None}),
    ("interfaces: eth0, eth1 (bond0 members)", {NIC: None}),
    ("ifNames: [ibs10]", {NIC: None}),
    ("节点上显示 rdma/rdma_shared_device_a: 63", {NIC: ("not", 63)}),
    ("NCCL INFO NET/IB : Using [0]mlx5_1:1/RoCE [1]mlx5_58:1/RoCE [2]mlx5_113:1/RoCE [3]mlx5_169:1/RoCE",
     {NIC: ("not", 169)}),
])
def test_rdma_interfaces_traps(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


# --- a choice of machine counts ------------------------------------------------------------------------------------
CHOICES = ("节点数扩展到 {a} 或 {b} 后，通信耗时明显增加", "扩展到 {a} 或者 {b} 个节点后 HCCL 超时",
           "On {a} or {b} nodes the job hangs in all-reduce.",
           "在 {a} 或 {b} 台机器上训练都很慢")


@pytest.mark.parametrize("form,ab", list(itertools.product(CHOICES, ((2, 4), (4, 8), (8, 16)))))
def test_choice_of_machines(form: str, ab: tuple[int, int]) -> None:
    a, b = ab
    _check(form.format(a=a, b=b), {MULTI: True, N: None})


@pytest.mark.parametrize("text,expected", [
    ("1 或 2 台机器都能跑，3 台就卡住", {MULTI: None}),
    ("2 nodes with 8 GPUs, NCCL 2.18 or 2.19 gives the same", {N: 2, G: 8}),
    ("4 或 8 张卡都一样慢", {MULTI: None}),
    ("batch size 4 or 8 makes no difference on 2 nodes", {N: 2}),
    ("On 2 or 4 nodes with 8 GPUs each the job hangs in all-reduce.", {G: 8, N: None, MULTI: True}),
    ("扩展到 4 或 8 个节点（每个节点 8 卡）后 HCCL 超时", {G: 8, N: None, MULTI: True}),
    ("`nproc` prints 8 and the data loader is slow", {G: None}),
    ("nproc: 8, GPU utilisation 40%", {G: None}),
])
def test_choice_traps(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


# --- a model times its count, before the machines ------------------------------------------------------------------
MODELS = ("A100", "A100-40G", "H100", "H800", "A800")
TIMES = ("×", "x", "*", " x ", " × ")
QUANT = ("We have some {mdl}{t}{m} nodes and NCCL is slow.", "We have several {mdl}{t}{m} servers; is IB needed?",
         "几台 {mdl}{t}{m} 服务器之间 NCCL 很慢")


@pytest.mark.parametrize("model,times,form,m", [
    (mdl, t, f, m) for mdl, t, f in itertools.product(MODELS, TIMES, QUANT) for m in (4, 8)])
def test_quantified_machines_of_a_model_times(model: str, times: str, form: str, m: int) -> None:
    _check(form.format(mdl=model, t=times, m=m), {G: m, N: ("not", m)})


COUNTED = ("two {mdl}{t}{m} machines, all-reduce is slow", "2 台 {mdl}{t}{m} 服务器，NCCL 很慢",
           "4 {mdl}{t}{m} nodes over IB")


@pytest.mark.parametrize("model,times,form,m", [
    (mdl, t, f, m) for mdl, t, f in itertools.product(MODELS, ("×", "x", "*"), COUNTED) for m in (4, 8)])
def test_counted_machines_of_a_model_times(model: str, times: str, form: str, m: int) -> None:
    n = 4 if form.startswith("4") else 2
    _check(form.format(mdl=model, t=times, m=m), {N: n, G: m})


@pytest.mark.parametrize("text,expected", [
    ("an A100*8 node trains at 5 s per step", {N: 1, G: 8}),
    ("A100-40g*8 node: model time 5s", {G: 8, N: ("not", 8)}),
    ("err 0x8 at address 0x7f00", {G: None, N: None}),
    ("8卡×2，NCCL 很慢", {N: 2, G: 8}),
    ("8 GPUs x 2 nodes, slow", {N: 2, G: 8}),
    ("Qwen-32B on 2 nodes with 8 GPUs each", {N: 2, G: 8}),
    ("2 nodes, each with 8x A100 80G, 2024 cluster", {N: 2, G: 8}),
])
def test_model_times_traps(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


# --- workers holding GPUs, and a baseline named ----------------------------------------------------------------------
@pytest.mark.parametrize("m", (2, 4, 8))
@pytest.mark.parametrize("form", (
    "BytePS：单个 worker {m} 张卡时每卡 156 img/sec；2 个 worker、每台 {m} 张卡时每卡只有 45 img/sec。",
    "BytePS: a single worker with {m} GPUs does 2000 img/s, 2 workers with {m} GPUs each only 2400 img/s",
))
def test_worker_holding_gpus(form: str, m: int) -> None:
    _check(form.format(m=m), {N: 2, G: m, BN: 1})


BASELINES_ZH = ("基线是单机 {m} 卡，多机比这个慢一些。",
                "单机基线是单机 {m} 卡，每 10 个 batch 要 7 到 8 秒。多机每 10 个 batch 比这个慢一些。",
                "基线为单机 {m} 卡，2 机时吞吐没有翻倍。")
BASELINES_EN = ("The baseline is one node with {m} GPUs. Multi-node is slower than that.",
                "Our baseline is a single node with {m} GPUs; on 2 nodes throughput barely grows.",
                "Baseline: 1 node, {m} GPUs. With 2 nodes the step time goes up.")


@pytest.mark.parametrize("form,m", list(itertools.product(BASELINES_ZH + BASELINES_EN, (2, 3, 4, 8))))
def test_named_baseline(form: str, m: int) -> None:
    _check(form.format(m=m), {BN: 1, BG: m})


@pytest.mark.parametrize("text,expected", [
    ("Baseline: 1 GPU at 300 img/s; 4 nodes with 8 GPUs each give 6000 img/s.", {BG: 1, N: 4, G: 8}),
    ("对照组为 2 机 16 卡，现在 4 机 32 卡扩展效率只有 60%。", {BN: 2, N: 4, G: 8}),
    ("Our baseline is 2 nodes x 8 GPUs; on 4 nodes x 8 GPUs the speedup is 1.3x.", {BN: 2, BG: ("not", 8), N: 4, G: 8}),
    ("The baseline is one node with 8 GPUs. With 2 nodes x 8 GPUs it is only 1.2x faster.", {BN: 1, N: 2, G: 8}),
    ("What baseline should I compare 4 nodes against?", {BN: None, BG: None}),
    ("the baseline model is Qwen-32B, batch size 8", {BG: None, BN: None}),
])
def test_named_baseline_forms_and_traps(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


# --- ranks in all, no machine said ----------------------------------------------------------------------------------
RANKS = ("训练卡住，NCCL 日志（{m} 个 rank 0~{top} 都打印了 cudaDriverVersion 11070）",
         "The job hangs; all {m} ranks print NCCL INFO lines.",
         "{m} 个进程都卡在 all_reduce 上")


@pytest.mark.parametrize("form,m", list(itertools.product(RANKS, (2, 4, 8))))
def test_ranks_alone_are_no_machine_count(form: str, m: int) -> None:
    # ranks in all with no machine said may span machines: no count of each machine's GPUs (a gap, not a misread)
    _check(form.format(m=m, top=m - 1), {G: None, N: None})


@pytest.mark.parametrize("text,expected", [
    ("16 ranks hang in all-reduce", {G: None}),
    ("8 ranks across 2 nodes hang", {G: ("not", 8)}),
    ("multi-node job with 8 ranks hangs", {G: ("not", 8)}),
    ("rank 7 hangs, the other ranks finish", {G: None}),
])
def test_ranks_traps(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)


# --- the common shapes, crossed with numbers, boards and languages (regression guard for the grammar above) ----------
SHAPES_EN = ("{n} nodes x {m} GPUs", "{m} {mdl} GPUs on each of {n} hosts", "{n}x{m} {mdl}",
             "{n} nodes with {m}x {mdl} each",
             "{n} {m}-GPU nodes")
SHAPES_ZH = ("{n}台{m}卡", "{n} 个节点，每个节点 {m} 张卡", "{n}台{mdl}，每台{m}卡")


@pytest.mark.parametrize("shape,n,m,mdl", [
    (s, n, m, mdl) for s in SHAPES_EN + SHAPES_ZH for n, m in ((2, 8), (4, 4), (3, 8))
    for mdl in ("A100", "H100", "V100")])
def test_common_shapes(shape: str, n: int, m: int, mdl: str) -> None:
    tail = "，all-reduce 很慢" if shape in SHAPES_ZH else ", and all-reduce is slow"
    _check(shape.format(n=n, m=m, mdl=mdl) + tail, {N: n, G: m})


@pytest.mark.parametrize("text,expected", [
    ("2 nodes x 8 GPUs, Qwen-32B full fine-tune, batch size 16", {N: 2, G: 8}),
    ("2台8卡 A100 80G，训练 72B 模型", {N: 2, G: 8}),
    ("2 nodes with 8 A100 80GB each, mlx5_169 is the NIC, port 29500", {N: 2, G: 8}),
    ("Ubuntu 22.04, NCCL 2.18.3, in 2023 we bought 2 nodes x 8 GPUs", {N: 2, G: 8}),
])
def test_common_shapes_traps(text: str, expected: dict[str, object]) -> None:
    _check(text, expected)
