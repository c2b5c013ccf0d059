"""Comparisons with a smaller run, stated in the many ways people write them (session 9).

A grammar-style battery: each row is a question (English or Chinese, shaped like the scaling complaints of GitHub
issues and forums) with the comparison facts it must give and those it must not. The traps are part of the battery:
the smaller run's figures never become the job's, a figure wanted ('should be near-linear', '应该快一倍才对') is no
measurement, and a what-if is no comparison.
"""

import math

import pytest

from bwdoctor.chat import understand

NS, SP = "job.negative_scaling", "job.speedup"
BN, BG, N = "job.baseline_nodes", "job.baseline_gpus", "job.nodes"
ST, SB = "job.step_time_s", "job.step_time_baseline_s"
EF, UT = "job.scaling_efficiency_pct", "gpu.util_pct"


def _check(text: str, want: dict[str, object], absent: list[str]) -> None:
    facts = understand(text).facts
    for key, value in want.items():
        got = facts.get(key)
        assert got is not None, (key, facts)
        if isinstance(value, bool):
            assert got is value, (key, facts)
        else:
            assert math.isclose(float(got), float(value), rel_tol=2e-3), (key, got, value, facts)  # type: ignore[arg-type]
    for key in absent:
        assert key not in facts, (key, facts)


BATTERY = [
    ('两台机器比一台还慢',
     {NS: True, BN: 1, N: 2}, []),
    ('I found that training on 2 nodes is noticeably slower than on 1 node with 8 GPUs.',
     {NS: True, BN: 1, N: 2}, []),
    ('2x4090 runs slower than one 4090',
     {NS: True, BG: 1}, []),
    ('The 2-machine 4-GPU run does worse than the 1-machine 2-GPU run.',
     {NS: True, BN: 1, BG: 2, N: 2}, []),
    ('多机训练的速度没有单机快',
     {BN: 1, NS: True}, []),
    ('单机 8 卡 40 分钟一个 epoch，两机 16 卡要 55 分钟',
     {NS: True, BN: 1, BG: 8, N: 2, SP: 0.7273}, []),
    ('单卡跑一个 batch 要 3 分钟，双卡跑一个 batch 用了 8 分钟',
     {NS: True, BG: 1, ST: 480, SB: 180, SP: 0.75}, []),
    ('单卡 4090 要 8500 分钟，双卡也要 6800 分钟',
     {BG: 1, SP: 1.25}, [NS]),
    ('单卡 5 小时，双卡却是 4 小时',
     {BG: 1, SP: 1.25}, [NS]),
    ('8 卡 2 小时，16 卡还是 2 小时',
     {BG: 8, SP: 1.0}, [NS]),
    ('epoch time: 1 GPU 21 s, 2 GPUs 21 s',
     {BG: 1, SP: 1.0}, [NS]),
    ('One epoch takes 3 hours on one box and 5 hours on two.',
     {NS: True, BN: 1, N: 2, SP: 0.6}, []),
    ('single node: 0.6 s/it; 2 nodes: 1.2 s/it',
     {BN: 1, N: 2, ST: 1.2, SB: 0.6}, []),
    ('torchrun on 2 nodes runs at 1.2 s/it, while a single node gives 0.6 s/it',
     {BN: 1, N: 2, ST: 1.2, SB: 0.6}, []),
    ('On 1 node a step takes 450 ms, on 2 nodes it takes 1.9 s.',
     {BN: 1, N: 2, ST: 1.9, SB: 0.45, NS: True}, []),
    ('双卡时训练速度是 1.6 steps/sec，8 卡时只有 0.4 steps/sec',
     {BG: 2, SP: 1.0, ST: 2.5, SB: 0.625}, [NS]),
    ('Step time goes from 0.8 s on one node to 2.4 s on two nodes.',
     {BN: 1, N: 2, ST: 2.4, SB: 0.8, NS: True}, []),
    ('单机每个 step 0.5 秒，双机每个 step 1.5 秒',
     {BN: 1, N: 2, ST: 1.5, SB: 0.5, NS: True}, []),
    ('单机 4 卡每秒 1200 张图，两机 8 卡每秒 1300 张',
     {BN: 1, BG: 4, N: 2, SP: 1.0833}, [NS]),
    ('The 4 worker case had a tput of 58.17 img/s, while the 16 worker case had a tput of 39.22 img/s.',
     {BG: 4, NS: True, SP: 0.6742}, []),
    ('With 1 node we get 3000 tokens/s, with 2 nodes only 2600 tokens/s.',
     {BN: 1, N: 2, NS: True, SP: 0.8667}, []),
    ('1 node: 12k tok/s. 2 nodes: 14k tok/s.',
     {BN: 1, N: 2, SP: 1.1667}, [NS]),
    ('单机吞吐 3000 tokens/s，两机只有 2000 tokens/s',
     {BN: 1, N: 2, NS: True, SP: 0.6667}, []),
    ('throughput on 8 GPUs: 2000 samples/s; on 16 GPUs: 2100 samples/s',
     {BG: 8, SP: 1.05}, [NS]),
    ('用 4 台机器速度只有单机的 1.5 倍',
     {BN: 1, N: 4, SP: 1.5}, [NS]),
    ('scaling from 8 to 16 nodes only gives 1.4x',
     {BN: 8, N: 16, SP: 1.4}, [NS]),
    ('2 机 16 卡的速度只有单机 8 卡的 1.1 倍',
     {BN: 1, N: 2, SP: 1.1}, [NS]),
    ('2 机，每机 6 卡，相比单机 6 卡，训练速度为原来的 1/5',
     {BN: 1, N: 2, SP: 0.2, NS: True}, []),
    ('it is 50% slower on two nodes than on one',
     {N: 2, BN: 1, NS: True}, []),
    ('两机的速度只有单机的 60%',
     {N: 2, BN: 1, SP: 0.6, NS: True}, []),
    ('Two-node throughput is about 70% of single-node throughput.',
     {N: 2, BN: 1, SP: 0.7, NS: True}, []),
    ('2 nodes are 3x slower than 1 node',
     {N: 2, BN: 1, SP: 0.3333, NS: True}, []),
    ('多机比单机慢了 3 倍',
     {BN: 1, NS: True}, []),
    ('4 机扩展效率只有 60%（相对单机）',
     {N: 4, BN: 1, EF: 60}, []),
    ('多机训练时 GPU 利用率只有 30%，单机能到 95%',
     {UT: 30, BN: 1}, []),
    ('GPU utilization is 95% on a single node but only 40% with 2 nodes',
     {UT: 40, BN: 1, N: 2}, []),
    ('单机 GPU 利用率 90% 以上，两机就掉到 40% 左右',
     {UT: 40, BN: 1, N: 2}, []),
    ('Results:\n- 1 node: 172 img/s\n- 2 nodes: 291 img/s',
     {BN: 1, N: 2, SP: 1.6919}, [NS]),
    ('| nodes | tok/s |\n|---|---|\n| 1 | 3000 |\n| 2 | 3500 |\n| 4 | 3600 |',
     {BN: 1, N: 4, SP: 1.2}, [NS]),
    ('单卡 a100 需要 20 小时，2 卡需要 30 小时，4 卡大约 40 小时',
     {BG: 1, SP: 0.5, NS: True}, []),
    ('two nodes are not as fast as one node',
     {NS: True, BN: 1, N: 2}, []),
    ('multi-node training is slower than single-node training',
     {NS: True, BN: 1}, []),
    ('Training on 16 GPUs takes more time than on 8 GPUs',
     {NS: True, BG: 8}, []),
    ('the throughput with 2 nodes is lower than with 1 node',
     {NS: True, BN: 1, N: 2}, []),
    ('双机训练反而比单机慢',
     {NS: True, BN: 1}, []),
    ('加了一台机器之后速度反而下降了',
     {NS: True}, []),
    ('两台机器一起训练，速度还不如一台',
     {NS: True, BN: 1, N: 2}, []),
    ('8 卡的速度还没有 4 卡快',
     {NS: True, BG: 4}, []),
    ('Multi-node (2x8 A100) is ~30% slower than single node (8 A100)',
     {NS: True, BN: 1, SP: 0.7}, []),
    ('compared to a single node, 2 nodes is 2x slower',
     {NS: True, BN: 1, N: 2, SP: 0.5}, []),
    ('与单机相比，双机训练速度下降了 40%',
     {NS: True, BN: 1, N: 2, SP: 0.6}, []),
    ('相比单机，两机的吞吐反而降低了',
     {NS: True, BN: 1, N: 2}, []),
    ('scaling to 2 nodes made it slower than 1 node',
     {NS: True, BN: 1, N: 2}, []),
    ('单机训练一个 epoch 大概 1 小时，换成 2 台机器后要 1.5 小时',
     {NS: True, BN: 1, N: 2, SP: 0.6667}, []),
    ('With a single GPU an epoch is 10 minutes; with 4 GPUs on 2 nodes it is 12 minutes.',
     {NS: True, BG: 1, SP: 0.8333}, []),
    ('4 机 32 卡 H200 的速度比单机 8 卡还慢',
     {NS: True, BN: 1, BG: 8, N: 4}, []),
    ('使用 2 机 16 卡的 step_time 大约是单机 8 卡的 2 倍',
     {BN: 1, BG: 8, N: 2}, []),
    ('We get 1.2 s/it on 2 nodes. It should be near-linear.',
     {ST: 1.2}, [NS, SP, BN]),
    ('If we add a node, will it be slower than 1 node?',
     {}, [NS, SP]),
    ('单机 8 卡，两机应该快一倍才对',
     {}, [SP, NS]),
    ('Single node 8 GPUs runs fine. We now run 4 nodes with 8 GPUs each and it is slow.',
     {N: 4, BN: 1}, [NS, SP]),
]


@pytest.mark.parametrize(("text", "want", "absent"), BATTERY)
def test_a_comparison_said_one_way_or_another(text: str, want: dict[str, object], absent: list[str]) -> None:
    _check(text, want, absent)
