"""A long-lived MCP server at 1k/10k/100k entries: warm recall and remember, and its RSS.

Run: ``python -m benchmarks.mcp.warm [--sizes 1000,10000,100000] [--calls 40]``.

For each size: a synthetic memory (``benchmarks.core.store_bench.synthetic_memory``),
its derived index built by one CLI ``recall`` first (``--fresh``: by the server itself,
as on a memory's first day), ``toon-memory mcp`` spawned over stdio, the handshake, one warm-up recall (where the
memory's derived index is built or caught up), then ``--calls`` ``memory_recall``
calls (2-3 words drawn from the memory's own vocabulary, a fixed seed) and
the same ``--calls`` queries again (every term they ask for kept warm: the steady
state of a long session), then ``--calls`` ``memory_remember`` calls and a quarter as many
of ``LONG_WORDS`` words, each timed from request written to answer
read (JSON-RPC over the pipe included; what the set-up and the warm-up wrote, a new index of
~200 MB at 100,000 entries, is flushed to disk first, not written back during the timed
calls). RSS is the server's own: ``VmHWM`` (peak)
and ``VmRSS`` (now) from ``/proc/<pid>/status`` after 20 recalls and at the end,
never the harness's. Medians and p95; no network. Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

from benchmarks.core.store_bench import WORDS, _cli_rss, fake_repo, synthetic_memory
from benchmarks.retrieval.common import print_table

SERVER = [sys.executable, "-m", "toon_memory", "mcp"]
#: Words of the longer entries remembered last (an entry as agents write them: its near
#: search is a query of all its words).
LONG_WORDS = 40


class Server:
    """One ``toon-memory mcp`` process spoken to over its pipes."""

    def __init__(self, root: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["TOON_MEMORY_PROJECT"] = str(root)
        self.proc = subprocess.Popen(SERVER, env=env, text=True, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE)  # fmt: skip
        self.next_id = 0
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "bench", "version": "0"}})  # fmt: skip
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _send(self, message: dict[str, Any]) -> None:
        stdin: IO[str] | None = self.proc.stdin
        assert stdin is not None
        stdin.write(json.dumps(message) + "\n")
        stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        assert self.proc.stdout is not None
        while True:
            answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
            if answer.get("id") == self.next_id:
                if "error" in answer or answer.get("result", {}).get("isError"):
                    raise RuntimeError(f"{method} failed: {answer}")
                return answer

    def call(self, tool: str, arguments: dict[str, Any]) -> float:
        start = time.perf_counter()
        self.request("tools/call", {"name": tool, "arguments": arguments})
        return time.perf_counter() - start

    def rss_mb(self) -> tuple[float, float]:
        """(peak, current) resident set of the server process, MB."""
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        kb = {line.split(":")[0]: int(line.split()[1]) for line in status.splitlines()
              if line.startswith(("VmHWM", "VmRSS"))}  # fmt: skip
        return kb["VmHWM"] / 1024, kb["VmRSS"] / 1024

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def _p95(values: list[float]) -> float:
    return sorted(values)[min(len(values) - 1, int(len(values) * 0.95))]


def measure(n: int, calls: int, prebuilt: bool) -> list[object]:
    rng = random.Random(5)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        fake_repo(root)
        synthetic_memory(root, n)
        if prebuilt:  # the derived index made by another process, as on any day but the first
            _cli_rss(root, "recall", "redis timeout")
        server = Server(root)
        try:
            start = time.perf_counter()
            server.call("memory_recall", {"query": "redis timeout"})
            first = time.perf_counter() - start
            os.sync()  # the set-up's ~200 MB written out now, not during the timed calls
            recalls = []
            queries = [" ".join(rng.sample(WORDS, rng.randint(2, 3))) for _ in range(calls)]
            for i, query in enumerate(queries):
                recalls.append(server.call("memory_recall", {"query": query}))
                if i == 19:
                    after_20 = server.rss_mb()
            again = [server.call("memory_recall", {"query": query}) for query in queries]
            writes = [server.call("memory_remember", {
                "category": "decision", "key": f"warm-{i}",
                "content": f"benchmark decision {i} about {' '.join(rng.sample(WORDS, 3))}",
            }) for i in range(calls)]  # fmt: skip
            longer = [server.call("memory_remember", {
                "category": "decision", "key": f"warm-long-{i}",
                "content": " ".join(rng.choices(WORDS, k=LONG_WORDS)),
            }) for i in range(max(5, calls // 4))]  # fmt: skip
            end = server.rss_mb()
        finally:
            server.close()
    ms = [v * 1000 for v in recalls]
    ams = [v * 1000 for v in again]
    wms = [v * 1000 for v in writes]
    lms = [v * 1000 for v in longer]
    return [f"{n:,}", f"{first:.2f} s", f"{statistics.median(ms):.1f}", f"{_p95(ms):.1f}",
            f"{statistics.median(ams):.1f}", f"{_p95(ams):.1f}",
            f"{after_20[0]:.0f}", f"{statistics.median(wms):.1f}", f"{_p95(wms):.1f}",
            f"{statistics.median(lms):.1f}", f"{end[0]:.0f}", f"{end[1]:.0f}"]  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="let the server build the derived index itself (a memory's first day)",
    )
    args = parser.parse_args(argv)
    if args.calls < 20:
        parser.error("--calls must be at least 20 (RSS is read after 20 recalls)")
    os.environ.setdefault("TOON_MEMORY_TODAY", "2026-07-15")
    with tempfile.TemporaryDirectory() as home:
        os.environ["TOON_MEMORY_HOME"] = home
        rows = [measure(int(n), args.calls, not args.fresh) for n in args.sizes.split(",")]
    print("A long-lived MCP server over stdio (ms per call, round trip; RSS of the server)\n")
    print_table(["entries", "first recall", "recall p50", "p95", "same queries again p50",
                 "p95", "peak RSS MB after 20 recalls",
                 "remember p50", "p95", f"remember of {LONG_WORDS} words p50",
                 "peak RSS MB at end", "RSS MB at end"], rows)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
