"""How long one chat turn takes: in-process (understand + diagnose + compose) and over HTTP on SQLite.

Target (issue: conversation): median under 20 ms in-process.
Run: .venv/bin/python benchmarks/ask_bench.py [--turns 300]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bwdoctor.chat.answer import answer_turn
from bwdoctor.engine import load_engine

QUESTIONS = [
    "我们用8台机器做数据并行，训练一个100B参数的模型，FP16，网卡是10GbE，GPU利用率只有40%，CPU很闲。为什么这么慢？",
    "Training a 13B model on 4 nodes connected with 25GbE, data parallel in bf16. GPU utilization hovers around 70%.",
    "带宽不够导致训练慢，加带宽是不是唯一出路？",
    "iperf3 shows 23 Gbits/sec between nodes but the NICs are 100GbE. 4 nodes, 70B model.",
    "单机8卡训练，需要额外关注网络带宽吗？",
    "what if we move to 100GbE?",
]


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))]


def in_process(turns: int) -> list[float]:
    engine = load_engine([])
    times = []
    for i in range(turns):
        question = QUESTIONS[i % len(QUESTIONS)]
        start = time.perf_counter()
        answer_turn(question, engine=engine)
        times.append(time.perf_counter() - start)
    return times


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def over_http(turns: int) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        # the benchmark is one client asking hundreds of times: the per-client rate limit would stop it
        env = {**os.environ, "BWDOCTOR_DATABASE_URL": f"sqlite:///{Path(tmp) / 'bench.sqlite3'}",
               "BWDOCTOR_ASK_RATE_LIMIT": "0"}
        bwdoctor = Path(sys.executable).with_name("bwdoctor")
        server = subprocess.Popen(
            [str(bwdoctor), "serve", "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            with httpx.Client(base_url=base, timeout=30) as client:
                for _ in range(100):
                    try:
                        if client.get("/healthz").status_code == 200:
                            break
                    except httpx.TransportError:
                        time.sleep(0.1)
                conversation = None
                times = []
                for i in range(turns):
                    body = {"question": QUESTIONS[i % len(QUESTIONS)]}
                    if conversation and i % len(QUESTIONS):
                        body["conversation_id"] = conversation
                    start = time.perf_counter()
                    reply = client.post("/api/v1/ask", json=body)
                    times.append(time.perf_counter() - start)
                    reply.raise_for_status()
                    conversation = reply.json().get("conversation_id")
                return times
        finally:
            server.terminate()
            server.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=300)
    args = parser.parse_args()
    local = in_process(args.turns)
    med = statistics.median(local) * 1000
    print(f"ask in-process: median {med:.2f} ms   p90 {percentile(local, 0.9) * 1000:.2f} ms   ({args.turns} turns)")
    print(f"target 20 ms median: {'met' if med < 20 else 'NOT met'} ({med / 20:.2f}× of target)")
    remote = over_http(min(args.turns, 200))
    print(
        f"ask over HTTP (SQLite): median {statistics.median(remote) * 1000:.2f} ms   "
        f"p90 {percentile(remote, 0.9) * 1000:.2f} ms   ({len(remote)} turns)"
    )


if __name__ == "__main__":
    main()
