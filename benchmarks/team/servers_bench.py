"""Team servers under concurrent clients, beside one file-store server, at 10k/100k entries.

Run: ``python -m benchmarks.team.servers_bench [--sizes 10000] [--servers 1,3]
[--clients 1,10,50] [--calls 10]``. A throw-away PostgreSQL cluster is started in a temp
folder (``tests/postgres.py``: initdb, a Unix socket only) and stopped at the end; every
server process is stopped too.

For each size: a synthetic memory (``benchmarks.core.store_bench.synthetic_memory``) is
written as files and pushed to the database (``team push``). Then, for each server count,
that many ``toon-memory mcp --http --database`` processes are started on 127.0.0.1 (one
write token), and for each client count that many MCP sessions (the SDK's Streamable HTTP
client, spread round-robin over the servers) each make ``--calls`` ``memory_recall`` calls
(2-3 words of the memory's own vocabulary) then ``--calls`` ``memory_remember`` calls, all
at once. The baseline is one ``toon-memory mcp --http`` over the same memory's files
(``TOON_MEMORY_TOKEN``), driven the same way. Each call is timed from request to answer;
medians and p95 per row, and calls per second for the whole run. The first call of each
server (its cold load) is made before timing.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.adapters.server.helpers import free_port, wait_listening

from benchmarks.core.store_bench import synthetic_memory
from benchmarks.retrieval.common import print_table

SERVER = [sys.executable, "-m", "toon_memory", "mcp", "--http", "--host", "127.0.0.1"]
TOKEN = "bench-token-for-the-file-server-0123456789"


@contextmanager
def servers(count: int, env: dict[str, str], extra: list[str]) -> Iterator[list[int]]:
    procs: list[subprocess.Popen[bytes]] = []
    ports: list[int] = []
    try:
        for n in range(count):
            port = free_port()
            args = [*SERVER, "--port", str(port), *[a.replace("{n}", str(n)) for a in extra]]
            proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)  # fmt: skip
            procs.append(proc)
            wait_listening(port, proc, timeout=120)
            ports.append(port)
        yield ports
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


async def _session(url: str, token: str, calls: list[tuple[str, dict[str, Any]]],
                   times: dict[str, list[float]]) -> None:  # fmt: skip
    import httpx2
    from mcp.client import Client
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {token}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=600) as http,
        Client(streamable_http_client(url, http_client=http)) as client,
    ):
        for name, args in calls:
            start = time.perf_counter()
            result = await client.call_tool(name, args)
            times[name].append((time.perf_counter() - start) * 1000)
            if getattr(result, "is_error", False):
                raise SystemExit(f"{name} failed: {result}")


def drive(urls: list[str], token: str, clients: int, calls: int,
          words: list[str]) -> dict[str, Any]:  # fmt: skip
    import anyio

    times: dict[str, list[float]] = {"memory_recall": [], "memory_remember": []}
    rng = random.Random(clients)
    plans = []
    for c in range(clients):
        plan = [("memory_recall", {"query": " ".join(rng.sample(words, rng.randint(2, 3)))})
                for _ in range(calls)]  # fmt: skip
        plan += [("memory_remember", {"category": "knowledge", "key": f"b{c}-{i}-{rng.random()}",
                                      "content": " ".join(rng.sample(words, 12))})
                 for i in range(calls)]  # fmt: skip
        plans.append(plan)

    async def run_all() -> None:
        async with anyio.create_task_group() as group:
            for c, plan in enumerate(plans):
                group.start_soon(_session, urls[c % len(urls)], token, plan, times)

    start = time.perf_counter()
    anyio.run(run_all)
    wall = time.perf_counter() - start
    return {"times": times, "rate": 2 * clients * calls / wall}


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _rows(label: str, size: int, clients: int, got: dict[str, Any]) -> list[object]:
    rec, rem = got["times"]["memory_recall"], got["times"]["memory_remember"]
    return [size, label, clients, f"{statistics.median(rec):.1f}", f"{_pct(rec, .95):.1f}",
            f"{statistics.median(rem):.1f}", f"{_pct(rem, .95):.1f}", f"{got['rate']:.0f}"]  # fmt: skip


def bench_size(size: int, url: str, args: argparse.Namespace, tmp: Path) -> list[list[object]]:
    from toon_memory.memory.team import Team

    root = tmp / f"m{size}"
    (root / ".git").mkdir(parents=True)
    synthetic_memory(root, size)
    team = Team(url, tmp / "cli-home")
    team.push(root, f"bench{size}")
    token = team.create_token(f"bench{size}", "write").token
    from toon_memory import Memory

    first = list(Memory(root, database="").store.state().entries.values())[:400]
    words = sorted({w for entry in first for w in entry.content.split()})
    base = {k: v for k, v in os.environ.items() if not k.startswith("TOON_MEMORY_")}
    base["TOON_MEMORY_HOME"] = str(tmp / "home")
    rows: list[list[object]] = []
    file_env = {**base, "TOON_MEMORY_TOKEN": TOKEN, "TOON_MEMORY_PROJECT": str(root)}
    with servers(1, file_env, []) as ports:
        urls = [f"http://127.0.0.1:{p}/mcp" for p in ports]
        drive(urls, TOKEN, 1, 1, words)  # the cold load
        rows += [_rows("file, 1 server", size, c, drive(urls, TOKEN, c, args.calls, words))
                 for c in args.clients]  # fmt: skip
    for count in args.servers:
        extra = ["--database", url, "--root", str(tmp / "roots-{n}")]
        for n in range(count):  # the measured memory keeps every entry (no 100-entry cap)
            folder = tmp / f"roots-{n}" / f"bench{size}" / ".toon-memory" / "memory"
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "config.json").write_text('{"autoArchive": {"maxEntries": 0}}\n')
        with servers(count, base, extra) as ports:
            urls = [f"http://127.0.0.1:{p}/mcp/bench{size}" for p in ports]
            for one in urls:
                drive([one], token, 1, 1, words)
            rows += [_rows(f"team, {count} server(s)", size, c,
                           drive(urls, token, c, args.calls, words)) for c in args.clients]  # fmt: skip
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000")
    parser.add_argument("--servers", default="1,3")
    parser.add_argument("--clients", default="1,10,50")
    parser.add_argument("--calls", type=int, default=10)
    args = parser.parse_args()
    args.servers = [int(x) for x in args.servers.split(",")]
    args.clients = [int(x) for x in args.clients.split(",")]
    from tests.postgres import start_cluster

    from toon_memory.store.team.database import close_all, run
    from toon_memory.store.team.schema import migrate

    cluster = start_cluster()
    if isinstance(cluster, str):
        sys.exit(f"no database: {cluster}")
    try:
        url = cluster.url()
        run(url, migrate)
        with tempfile.TemporaryDirectory() as tmp:
            rows = [row for size in map(int, args.sizes.split(","))
                    for row in bench_size(size, url, args, Path(tmp))]  # fmt: skip
        print_table(["entries", "store", "clients", "recall p50 ms", "recall p95 ms",
                           "remember p50 ms", "remember p95 ms", "calls/s"], rows)  # fmt: skip
    finally:
        close_all()
        cluster.stop()


if __name__ == "__main__":
    main()
