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
    # shapes whose readers once scanned back over the text for every match (kept linear since)
    "host lists": "node1, node2, m0-m1-一台在 A、",
    "labelled counts": "节点数：4，2 pods with 8 GPUs each, uses 3 of them 网卡两张，world size 16 ",
    "plans": "想上 4 台机器 每台 8 卡 打算换 IB 目前 RoCE 如果换成 100G 会怎样 现在 25G 网卡 ",
    "scaling ratios": "从 1 台扩到 4 台吞吐只有 2.1 倍 with 2 nodes 1.7x the throughput of 1 node, with 4 nodes 2.2x ",
    "negated lists": "we don't have NVLink or RDMA or IB and IB 和 RoCE 都没有 两台机器并没有比一台慢 ",
    "stragglers": "rank 5 is always the last to finish the others wait for it 不是某台机器慢 是所有机器都一样慢 ",
    "throughput drops": "throughput drops from 1200 to 900 tokens/s when I add a second node ",
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
