"""CPU time and peak memory of one ``agent-probe`` collection pass, and of idling between passes.

The sampling window (sleep) and peer tests (iperf3, a separate process) are excluded: what is
measured is the probe's own work. Targets: under 30 ms CPU and under 50 MB RSS per pass, ~0 %
CPU between passes. Run: ``.venv/bin/python benchmarks/probe_pass.py [--passes N] [--no-gpu]``.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=20)
    parser.add_argument("--idle", type=float, default=3.0, help="seconds to idle for the between-passes figure")
    parser.add_argument("--no-gpu", dest="gpu", action="store_false", help="leave NVML out")
    args = parser.parse_args()

    started = time.process_time()
    from bwdoctor_probe.collect import collect_pass
    from bwdoctor_probe.config import load_config

    import_cpu_ms = (time.process_time() - started) * 1000
    cfg = load_config(env={}, overrides={"window_s": 0, "gpu": args.gpu, "node_id": "bench"})

    collect_pass(cfg, measure_peers=False)  # first pass imports the collectors; measured apart
    first_ms = (time.process_time() - started) * 1000 - import_cpu_ms

    samples = []
    for _ in range(args.passes):
        before = time.process_time()
        report = collect_pass(cfg, measure_peers=False)
        samples.append((time.process_time() - before) * 1000)

    stop = threading.Event()
    before = time.process_time()
    stop.wait(args.idle)  # what `agent-probe run` does between passes
    idle_pct = (time.process_time() - before) / args.idle * 100

    peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"facts per pass            {len(report.facts)}")
    print(f"import (cli path)         {import_cpu_ms:7.1f} ms CPU")
    print(f"first pass (with imports) {first_ms:7.1f} ms CPU")
    print(f"pass CPU, median of {args.passes:<4}  {statistics.median(samples):7.2f} ms  (max {max(samples):.2f} ms;"
          f" target < 30 ms)")
    print(f"peak RSS                  {peak_rss_mb:7.1f} MB  (target < 50 MB)")
    print(f"idle between passes       {idle_pct:7.3f} % CPU over {args.idle:g} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
