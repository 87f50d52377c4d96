"""One process over the team store (PostgreSQL) beside the file store, at 1k/10k/100k entries.

Run: ``python -m benchmarks.team.store_bench [--sizes 1000,10000] [--calls 40]
[--database URL]``. Without ``--database`` a throw-away cluster is started in a temp
folder (``tests/postgres.py``: initdb, a Unix socket only) and stopped at the end.

For each size: a synthetic memory (``benchmarks.core.store_bench.synthetic_memory``) is
written as files and pushed to the database (``team push``: timed, entries/s). Then a
fresh worker process per store and mode opens it and measures the first recall,
``--calls`` warm recalls (2-3 words of the memory's own vocabulary, fixed seed) and
``--calls`` remembers, and its own peak RSS (``VmHWM``, never the harness's):
- ``state``: the worker loads the whole state first (from data.toon, or from the database
  as a team server did before it kept a local index), then ranks over it;
- ``index``: the worker loads nothing and goes through the on-disk index (the file
  memory's, or the team server's local one, caught up from the rows). It runs twice: the
  first run builds the index (its time and peak RSS are the "index build" rows), the
  measured second run finds it on disk, as a restarted server does.
Medians and p95, and the team/file ratio of each mode.
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


def worker(root: str, url: str, name: str, calls: int, mode: str, vocab: str) -> dict[str, Any]:
    """Run in a fresh process: the measured work (see the module)."""
    from toon_memory import Memory

    opened = time.perf_counter()
    memory = Memory(root, database=url, name=name or None)  # url "": the files
    if mode == "state":
        memory.store.state()
    rng = random.Random(7)
    words = json.loads(Path(vocab).read_text())
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
    return {"cold": cold, "opened": start - opened, "recall": recalls, "remember": remembers,
            "rss": _peak_mb()}  # fmt: skip


def _run_worker(root: Path, url: str, name: str, calls: int, mode: str) -> dict[str, Any]:
    code = (
        "import json, sys; from benchmarks.team.store_bench import worker; a = sys.argv; "
        "print(json.dumps(worker(a[1], a[2], a[3], int(a[4]), a[5], a[6])))"
    )
    env = {k: v for k, v in os.environ.items() if k != "TOON_MEMORY_DATABASE_URL"}
    vocab = str(root / "vocab.json")
    done = subprocess.run(
        [sys.executable, "-c", code, str(root), url, name, str(calls), mode, vocab],
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
    from toon_memory import Memory

    entries = list(Memory(root, database="").store.state().entries.values())[:500]
    vocab = sorted({w for e in entries for w in e.content.split()})
    (root / "vocab.json").write_text(json.dumps(vocab))
    start = time.perf_counter()
    Team(url, folder / "team-home").push(root, f"bench{size}")
    push = time.perf_counter() - start
    runs: dict[str, dict[str, Any]] = {}
    for store, where, name in (("file", "", ""), ("team", url, f"bench{size}")):
        runs[f"{store} state"] = _run_worker(root, where, name, calls, "state")
        runs[f"{store} build"] = _run_worker(root, where, name, 1, "index")
        runs[f"{store} index"] = _run_worker(root, where, name, calls, "index")
    rows: list[list[object]] = []
    for label, pick in _FIGURES:
        got = {mode: float(pick(run)) for mode, run in runs.items()}
        cells = [f"{got[f'{s} {m}']:.3g}" for m in ("state", "index") for s in ("file", "team")]
        ratios = [_ratio(got[f"team {m}"], got[f"file {m}"]) for m in ("state", "index")]
        rows.append([size, label, *cells, *ratios])
    build = [f"{runs[f'{s} build'][k]:.3g}" for k in ("cold", "rss") for s in ("file", "team")]
    rows.append([size, "index build: first recall s / peak RSS MB", "-", "-",
                 f"{build[0]} / {build[2]}", f"{build[1]} / {build[3]}", "-", "-"])  # fmt: skip
    rows.append([size, "team push entries/s", "-", f"{size / push:,.0f}", "-", "-", "-", "-"])
    return rows


_FIGURES: tuple[tuple[str, Any], ...] = (
    ("open + first recall s", lambda r: r["opened"] + r["cold"]),
    ("warm recall p50 ms", lambda r: statistics.median(r["recall"])),
    ("warm recall p95 ms", lambda r: _pct(r["recall"], 0.95)),
    ("remember p50 ms", lambda r: statistics.median(r["remember"])),
    ("remember p95 ms", lambda r: _pct(r["remember"], 0.95)),
    ("peak RSS MB", lambda r: r["rss"]),
)


def _ratio(team: float, file: float) -> str:
    return f"{team / file:.2f}" if file else "-"


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
        print_table(["entries", "figure", "file (state)", "team (state)", "file (index)",
                     "team (index)", "team/file state", "team/file index"], rows)  # fmt: skip
    finally:
        if cluster is not None:
            from toon_memory.store.team.database import close_all

            close_all()
            cluster.stop()


if __name__ == "__main__":
    main()
