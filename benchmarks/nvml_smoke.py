"""Run the GPU collector for real through NVML and print its facts and notes.

For a GPU node (H100/H200 ...): ``python benchmarks/nvml_smoke.py [--window 5]``. Exit status 0
when NVML answered and reported at least one GPU, 1 otherwise, so it can gate a deployment.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--window", type=float, default=3.0, help="seconds of utilisation sampling")
    args = parser.parse_args()

    from bwdoctor_probe.collect import run_samplers
    from bwdoctor_probe.collectors.gpu import GpuSampler, shutdown_nvml

    started = time.process_time()
    result, elapsed = run_samplers([GpuSampler()], args.window)
    cpu_ms = (time.process_time() - started) * 1000
    again = time.process_time()
    run_samplers([GpuSampler()], 0)  # a later pass of `agent-probe run`: NVML already initialised
    next_pass_ms = (time.process_time() - again) * 1000
    shutdown_nvml()
    print(json.dumps({"facts": result.facts, "notes": result.notes, "details": result.details,
                      "window_s": round(elapsed, 3), "first_pass_cpu_ms": round(cpu_ms, 1),
                      "next_pass_cpu_ms": round(next_pass_ms, 1)}, indent=2))
    return 0 if result.facts.get("gpu.count", 0) > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
