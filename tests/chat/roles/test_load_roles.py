"""Roles of a utilisation figure: which percent is the job's load.

A battery of the forms a load is said in where the figure is *not* the job's level, each beside the plain form that
is: a peak followed by another figure of the load (one end of a swing: 'GPU load 最高 31%；换成其他数据集只有 20%'),
the cards' loads summed ('the GPU-Util of all GPUs adds up to 100 %', '加起来一共 100%'), and a load said of another
workload ('Training separate models fills every GPU close to 100 %', '训练其他模型时 GPU 利用率能到 90%'). Traps go
both ways: a lone peak, a total said as the subject's adjective, a figure of the job said after the other workload's.
"""

from __future__ import annotations

import itertools

import pytest

from bwdoctor.chat import understand

GPU, CPU = "gpu.util_pct", "cpu.util_pct"


def read(text: str) -> dict[str, object]:
    return {u.fact: u.value for u in understand(text).understood}


# --- a peak with another figure after it: no level -----------------------------------------------------------------
PEAK_EN = ("GPU utilisation peaks at {p}%; on other datasets it is only about {o}%.",
           "GPU util maxes out at {p}%, and with the new data it is around {o}%.",
           "The GPU load is at most {p}%; with larger images about {o}%.")
PEAK_ZH = ("GPU load 最高 {p}%；换成其他数据集只有 {o}% 左右，还有不少时间空闲。",
           "GPU 利用率峰值 {p}%；换了数据以后 {o}% 左右。",
           "显卡利用率最多 {p}%；大图时大约 {o}%。")


@pytest.mark.parametrize(("form", "p", "o"), list(itertools.product(PEAK_EN + PEAK_ZH, (31, 45, 60), (20, 12))))
def test_a_peak_followed_by_another_figure_is_not_the_level(form: str, p: int, o: int) -> None:
    assert read(form.format(p=p, o=o)).get(GPU) != p


@pytest.mark.parametrize("form", ["GPU util peaks at {p}%.", "GPU 利用率最高只有 {p}%", "GPU utilisation is {p}%.",
                                  "GPU 利用率一直是 {p}%"])
@pytest.mark.parametrize("p", [19, 60, 85])
def test_a_lone_figure_or_peak_is_still_read(form: str, p: int) -> None:
    assert read(form.format(p=p)).get(GPU) == p


@pytest.mark.parametrize(("text", "cpu"), [("GPU 利用率最高 90%，CPU 20%", 20),
                                           ("GPU util peaks at 90%, CPU usage 20%", 20)])
def test_another_load_after_a_peak_is_its_own(text: str, cpu: int) -> None:
    got = read(text)
    assert got.get(GPU) == 90 and got.get(CPU) == cpu


# --- loads summed over the cards -----------------------------------------------------------------------------------
SUMMED = ('In nvidia-smi the "Volatile GPU-Util" of all GPUs always adds up to {v} %, however many GPUs I use.',
          "The GPU utilisation of the 8 cards sums to {v}%.",
          "所有卡的 GPU 利用率加起来一共 {v}%",
          "8 张卡的利用率之和是 {v}%",
          "四张显卡利用率加在一起才 {v}%",
          "GPU 利用率总和为 {v}%")


@pytest.mark.parametrize(("form", "v"), list(itertools.product(SUMMED, (100, 98, 120))))
def test_a_sum_over_the_cards_is_no_cards_load(form: str, v: int) -> None:
    assert read(form.format(v=v)).get(GPU) is None


@pytest.mark.parametrize("text", ["the total GPU utilisation is 40%",
                                  "GPU util is 40% in total on each card? no, it is 40%"])
def test_a_total_said_far_from_the_figure_is_no_sum(text: str) -> None:
    assert read(text).get(GPU) == 40


# --- a load of another workload --------------------------------------------------------------------------------------
OTHER_EN = ("Training separate models fills every GPU close to {v} %.",
            'When I train the "trivial" model the CPU usage is about {v}% — so is the CPU the bottleneck?',
            "When we run other models, the GPUs are at {v}%.",
            "With a different model the GPU utilisation is {v}%.",
            "Running a dummy workload the GPU util reaches {v}%.")
OTHER_ZH = ("训练其他模型时 GPU 利用率能到 {v}%。",
            "跑别的模型 GPU 利用率 {v}%。",
            "用别的模型时，GPU 利用率 {v}%",
            "换成其他网络，CPU 使用率 {v}%。")


@pytest.mark.parametrize(("form", "v"), list(itertools.product(OTHER_EN + OTHER_ZH, (95, 100, 65))))
def test_a_load_of_another_workload_is_not_the_jobs(form: str, v: int) -> None:
    got = read(form.format(v=v))
    assert got.get(GPU) != v and got.get(CPU) != v


@pytest.mark.parametrize(("text", "want"), [
    ("训练其他模型时 GPU 利用率能到 90%，这个模型只有 30%。", 30),
    ("GPU 利用率只有 30%。跑别的模型 GPU 利用率 95%。", 30),
    ("When I train other models, the GPUs are at 100%. Ours sits at 40% GPU util.", 40),
    ("With 4 GPUs I only get about 50% GPU utilisation.", 50),
    ("When I train the model the GPU util is 30%", 30),
    ("Training the model on 8 GPUs, GPU util is 30%", 30),
])
def test_the_jobs_own_load_beside_another_workload_is_kept(text: str, want: int) -> None:
    assert read(text).get(GPU) == want
