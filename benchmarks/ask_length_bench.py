"""How a chat turn's understanding scales with the question's length, on ordinary and hostile text.

Usage: python benchmarks/ask_length_bench.py
Prints, for each kind of text, the time to read 1k, 4k and 16k characters and the 16k/1k ratio (16 for linear
cost). Questions longer than MAX_QUESTION_CHARS are refused before reading by the API, Slack and the CLI.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bwdoctor.chat.understanding import MAX_QUESTION_CHARS, understand  # noqa: E402

TEXTS = {
    "prose (en)": "We train a 7B model on 2 nodes with 8 A100 each over 25GbE; iperf3 shows 9.4 Gbits/sec. ",
    "prose (zh)": "我们4台8卡A100训练13B模型，万兆网卡，GPU利用率40%，比单机还慢。",
    "numerals 八": "八",
    "digits": "1",
    "counts 8台": "8台",
    "step times": "每步1秒，",
    "comparisons": "两台机器比一台还慢，",
    "what-ifs": "if we moved to 100G, ",
}
LENGTHS = (1_000, 4_000, 16_000)


def seconds(text: str, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        understand(text)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    print(f"max question length: {MAX_QUESTION_CHARS} characters")
    print(f"{'text':16s}" + "".join(f"{n:>10,d}" for n in LENGTHS) + "   16k/1k")
    for name, unit in TEXTS.items():
        times = [seconds((unit * (n // len(unit) + 1))[:n]) for n in LENGTHS]
        print(f"{name:16s}" + "".join(f"{t * 1000:8.0f}ms" for t in times) + f"   {times[-1] / times[0]:6.1f}")


if __name__ == "__main__":
    main()
