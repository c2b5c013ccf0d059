"""How well the reader's passes on the tuning corpus survive changes that should not matter: a metamorphic figure.

Usage: python benchmarks/corpus_robustness.py [--verbose] [--only KIND] [FILE.yaml ...]
(default: every tests/corpus/tune_*.yaml; never the held-out files, which stay unseen).

Each `ask` case that passes as written is asked again, changed in a way an expert reader would shrug off:

  - greeting: a greeting line before the question ('Hi all,' / '大家好，');
  - thanks: a line of thanks after it ('Thanks in advance!' / '先谢谢大家！');
  - figure: the figure of an expected fact, in digits where the reader took it from, replaced by another plausible one
    (2 nodes → 3, 8 GPUs → 4, 25 Gb/s → 100, 1.2 s → 1.8 s): that fact must follow, the others stay;
  - spacing: every blank between a figure and its unit removed or, where there was none, added ('8 GPUs' ↔ '8GPUs');
  - numerals: small counts before their nouns said in words ('2 nodes' → 'two nodes', '4 台' → '四台').

A case that passes as written and fails changed shows a reading tuned to one wording, not a mechanism: the kind of
shortfall held-out questions meet. Prints the share of changed cases still passing, per kind of change.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from corpus_quality import problems_of  # noqa: E402

from bwdoctor.chat import answer_turn  # noqa: E402
from bwdoctor.chat.understanding import understand  # noqa: E402
from bwdoctor.engine import Engine, load_engine  # noqa: E402

CJK = re.compile(r"[\u4e00-\u9fff]")
# facts another fact's figure is worked out from: a changed figure changes them too, so they are not checked then
_WORKED_OUT = {"job.speedup", "job.scaling_efficiency_pct", "job.comm_time_pct", "job.data_wait_pct", "job.total_gpus",
               "job.global_batch_size", "job.negative_scaling", "job.step_time_baseline_s", "job.step_time_s",
               "nccl.allreduce_busbw_gbytes_per_s", "nccl.allreduce_algbw_gbytes_per_s", "mem.used_pct",
               "gpu.util_pct", "job.slower_than_baseline", "nic.max_speed_gbps", "nic.speed_gbps", "job.nodes",
               "job.gpus_per_node", "gpu.count", "job.baseline_nodes", "job.baseline_gpus"}
# a plausible other value for a figure of each kind
_COUNTS = {2: 3, 3: 5, 4: 6, 5: 7, 6: 4, 7: 5, 8: 4, 10: 12, 12: 16, 16: 12, 24: 32, 32: 24, 48: 64, 64: 48, 128: 96}
_SPEEDS = {1: 10, 10: 25, 25: 100, 40: 100, 50: 100, 56: 100, 100: 200, 200: 400, 400: 200, 800: 400}
_SIZES = {7: 13, 13: 7, 6: 7, 14: 7, 32: 14, 34: 32, 70: 34, 72: 32, 65: 70, 1.3: 2.7, 2.7: 1.3, 0.5: 1.5, 1.5: 3}
_COUNT_FACTS = {"job.nodes", "job.gpus_per_node", "gpu.count", "nic.count", "job.baseline_nodes", "job.baseline_gpus",
                "job.micro_batch_size", "job.dataloader_workers", "job.grad_accum_steps", "job.tp_degree",
                "job.pp_degree"}
# a count in digits before its noun, said in words instead ('2 nodes' → 'two nodes', '4 台' → '四台')
_EN_WORDS = {"2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "8": "eight"}
_ZH_WORDS = {"2": "两", "3": "三", "4": "四", "5": "五", "6": "六", "8": "八"}
_EN_COUNT = re.compile(r"(?<![\w.\-/])(?P<n>[234568])(?P<gap> )(?P<noun>nodes|machines|servers|GPUs|cards)(?![A-Za-z])")
_ZH_COUNT = re.compile(r"(?<![\w.\-/])(?P<n>[234568])(?P<gap>\s?)(?P<noun>台|张|块|个节点|机(?![器房架柜]))")
_SPACE_UNIT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)( ?)(GPUs?|nodes?|Gbps|Gb/s|GB/s|ms|卡|台|张)(?![A-Za-z])")


def _other_value(fact: str, value: float) -> float | None:
    if fact in _COUNT_FACTS:
        return _COUNTS.get(int(value)) if value == int(value) else None
    if fact in {"nic.speed_gbps", "net.link_speed_gbps"}:
        return _SPEEDS.get(int(value)) if value == int(value) else None
    if fact == "job.model_params_b":
        return _SIZES.get(value)
    if fact.endswith(("_s", "_gbps", "_gbytes_per_s", "_pct")) and value > 0:
        other = round(value * 1.5, 2)
        return other if not fact.endswith("_pct") or other <= 100 else round(value / 2, 1)
    return None


def _written(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


def _changes(case: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(kind, changed question, changed expectations) for one case."""
    ask, exp = case["ask"], case.get("expect", {})
    zh = exp.get("language") == "zh" or bool(CJK.search(ask[:200]))
    yield "greeting", ("大家好，\n" if zh else "Hi all,\n") + ask, exp
    yield "thanks", ask + ("\n先谢谢大家！" if zh else "\nThanks in advance!"), exp
    words = _ZH_WORDS if zh else _EN_WORDS
    worded = (_ZH_COUNT if zh else _EN_COUNT).sub(lambda m: words[m["n"]] + m["gap"] + m["noun"], ask)
    if worded != ask:
        yield "numerals", worded, exp
    spaced = _SPACE_UNIT.sub(lambda m: m[1] + ("" if m[2] else " ") + m[3], ask)
    if spaced != ask:
        yield "spacing", spaced, exp
    facts, not_facts = exp.get("facts", {}), exp.get("not_facts", {}) or {}
    values = [str(v) for v in list(facts.values()) + list(not_facts.values())]
    read = {h.fact: h for h in understand(ask).understood if not h.inferred}
    for fact, value in facts.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or fact not in read:
            continue
        other = _other_value(fact, float(value))
        said = _written(float(value))
        h = read[fact]  # the words the reader took the figure from: the change is made there, nowhere else
        figure = rf"(?<![\w.]){re.escape(said)}(?![\d.]|\.\d)"
        at = [m for m in re.finditer(figure, ask) if h.start <= m.start() < h.end]
        if other is None or len(at) != 1 or values.count(str(value)) > 1 or str(other) in values:
            continue  # (a figure shared with another fact, or not said in digits where it was read: no clean change)
        changed = ask[:at[0].start()] + _written(other) + ask[at[0].end():]
        kept = {k: v for k, v in facts.items() if k == fact or k not in _WORKED_OUT}
        kept[fact] = int(other) if fact in _COUNT_FACTS else other
        # a not_fact that names the new value is no misread any more; one of the old value is kept
        yield "figure", changed, {"facts": kept, "not_facts": {k: v for k, v in not_facts.items() if v != kept[fact]}}


def run(engine: Engine, files: list[Path], only: str | None, verbose: bool) -> dict[str, list[int]]:
    tally: dict[str, list[int]] = {}
    for path in files:
        for case in (yaml.safe_load(path.read_text("utf-8")) or {}).get("scenarios", []):
            if "ask" not in case or problems_of(case, answer_turn(case["ask"], engine=engine)):
                continue  # only what passes as written can show a reading that does not survive a change
            for kind, ask, exp in _changes(case):
                if only and kind != only:
                    continue
                try:
                    problems = problems_of({"expect": exp}, answer_turn(ask, engine=engine))
                except Exception as exc:  # noqa: BLE001 - reported as the change's failure
                    problems = [f"error: {type(exc).__name__}: {exc}"]
                counts = tally.setdefault(kind, [0, 0])
                counts[0] += not problems
                counts[1] += 1
                if problems and verbose:
                    print(f"BROKEN {kind} {path.name}:{case.get('id')}")
                    if kind == "figure":
                        print("     ? " + ", ".join(f"{k}={v}" for k, v in exp["facts"].items()))
                    for p in problems:
                        print(f"     - {p}")
    return tally


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--verbose", "-v", action="store_true", help="print every change that breaks a passing case")
    ap.add_argument("--only", choices=["greeting", "thanks", "figure", "spacing", "numerals"],
                    help="one kind of change")
    opts = ap.parse_args()
    files = [f for f in (opts.files or sorted((ROOT / "tests" / "corpus").glob("tune_*.yaml")))
             if not f.name.startswith("holdout")]
    tally = run(load_engine(), files, opts.only, opts.verbose)
    total = Counter()
    for kind, (kept, n) in sorted(tally.items()):
        total["kept"] += kept
        total["n"] += n
        print(f"{kind:12s} {kept:5d}/{n:<5d} {100 * kept / max(n, 1):5.1f} % still pass")
    kept, n = total["kept"], total["n"]
    print(f"{'all':12s} {kept:5d}/{n:<5d} {100 * kept / max(n, 1):5.1f} % still pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
