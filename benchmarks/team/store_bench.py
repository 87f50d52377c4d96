"""One process over the team store (PostgreSQL) beside the file store, at 1k/10k/100k entries.

Run: ``python -m benchmarks.team.store_bench [--sizes 1000,10000] [--calls 40]
[--database URL]``. Without ``--database`` a throw-away cluster is started in a temp
folder (``tests/postgres.py``: initdb, a Unix socket only) and stopped at the end.

For each size: a synthetic memory (``benchmarks.core.store_bench.synthetic_memory``) is
written as files, pushed to the database (``team push``: timed, entries/s), then a fresh
worker process per store opens it, loads the whole state (from data.toon or from the
database, as a team server holds it), and measures the first recall after that, ``--calls`` warm recalls (2-3 words of the
memory's own vocabulary, fixed seed) and ``--calls`` remembers, and its own peak RSS
(``VmHWM``, never the harness's). Medians and p95, and the team/file ratio per row.
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
from typing import Any

from benchmarks.core.store_bench import synthetic_memory
from benchmarks.retrieval.common import print_table


def _peak_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def worker(root: str, url: str, name: str, calls: int) -> dict[str, Any]:
    """Run in a fresh process: the measured work (see the module)."""
    from toon_memory import Memory

    memory = Memory(root, database=url, name=name or None)  # url "": the files
    entries = memory.store.state().entries
    rng = random.Random(7)
    words = sorted({w for e in list(entries.values())[:500] for w in e.content.split()})
    start = time.perf_counter()
    memory.recall(" ".join(rng.sample(words, 2)))
    cold = time.perf_counter() - start
    recalls, remembers = [], []
    for _ in range(calls):
        query = " ".join(rng.sample(words, rng.randint(2, 3)))
        start = time.perf_counter()
        memory.recall(query)
        recalls.append((time.perf_counter() - start) * 1000)
    for i in range(calls):
        content = " ".join(rng.sample(words, 12))
        start = time.perf_counter()
        memory.remember("knowledge", f"bench-{os.getpid()}-{i}", content)
        remembers.append((time.perf_counter() - start) * 1000)
    return {"cold": cold, "recall": recalls, "remember": remembers, "rss": _peak_mb()}


def _run_worker(root: Path, url: str, name: str, calls: int) -> dict[str, Any]:
    code = (
        "import json, sys; from benchmarks.team.store_bench import worker; "
        "print(json.dumps(worker(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))))"
    )
    env = {k: v for k, v in os.environ.items() if k != "TOON_MEMORY_DATABASE_URL"}
    done = subprocess.run(
        [sys.executable, "-c", code, str(root), url, name, str(calls)],
        capture_output=True, text=True, check=True, env=env,
    )  # fmt: skip
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(size: int, url: str, calls: int, folder: Path) -> list[list[object]]:
    from toon_memory.memory.team import Team

    root = folder / f"m{size}"
    (root / ".git").mkdir(parents=True)
    synthetic_memory(root, size)
    start = time.perf_counter()
    Team(url, folder / "team-home").push(root, f"bench{size}")
    push = time.perf_counter() - start
    file = _run_worker(root, "", "", calls)
    team = _run_worker(root, url, f"bench{size}", calls)
    rows: list[list[object]] = []
    for label, pick in (
        ("first recall after the load s", lambda r: r["cold"]),
        ("warm recall p50 ms", lambda r: statistics.median(r["recall"])),
        ("warm recall p95 ms", lambda r: _pct(r["recall"], 0.95)),
        ("remember p50 ms", lambda r: statistics.median(r["remember"])),
        ("remember p95 ms", lambda r: _pct(r["remember"], 0.95)),
        ("peak RSS MB", lambda r: r["rss"]),
    ):
        f, t = float(pick(file)), float(pick(team))
        rows.append([size, label, f"{f:.3g}", f"{t:.3g}", f"{t / f:.2f}" if f else "-"])
    rows.append([size, "team push entries/s", "-", f"{size / push:,.0f}", "-"])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument(
        "--database", default="", help="a migrated database (default: a new cluster)"
    )
    args = parser.parse_args()
    from toon_memory.store.team.database import run
    from toon_memory.store.team.schema import migrate

    cluster = None
    url = args.database
    if not url:
        from tests.postgres import start_cluster

        started = start_cluster()
        if isinstance(started, str):
            sys.exit(f"no database: {started}")
        cluster, url = started, started.url()
    try:
        run(url, migrate)
        with tempfile.TemporaryDirectory() as tmp:
            os.environ["TOON_MEMORY_HOME"] = str(Path(tmp) / "home")
            rows = [row for size in map(int, args.sizes.split(","))
                    for row in measure(size, url, args.calls, Path(tmp))]  # fmt: skip
        print_table(["entries", "figure", "file store", "team store", "team/file"], rows)
    finally:
        if cluster is not None:
            from toon_memory.store.team.database import close_all

            close_all()
            cluster.stop()


if __name__ == "__main__":
    main()
