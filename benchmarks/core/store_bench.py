"""Core store benchmark: remember latency, cold CLI recall, file size, peak memory.

Run: ``python -m benchmarks.core.store_bench [--sizes 1000,10000,100000] [--encrypted]``
(``--encrypted`` encrypts each memory first, passphrase in ``TOON_MEMORY_KEY``).
Prints a table of medians. Builds synthetic memories in a temp folder with
``TOON_MEMORY_TODAY`` fixed; nothing here touches the network.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORDS = [
    "redis",
    "cache",
    "auth",
    "token",
    "api",
    "endpoint",
    "schema",
    "migration",
    "queue",
    "worker",
    "retry",
    "timeout",
    "pool",
    "deploy",
    "docker",
    "config",
    "env",
    "logging",
    "metrics",
    "trace",
    "react",
    "component",
    "state",
    "store",
    "hook",
    "test",
    "fixture",
    "mock",
    "database",
    "index",
    "query",
    "transaction",
    "lock",
    "journal",
    "snapshot",
    "graph",
    "node",
    "edge",
]


def _vocabulary(rng: random.Random, size: int = 20_000) -> list[str]:
    """Common project words plus pseudo-words, to be drawn with a Zipf-like skew."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    made = {"".join(rng.choice(letters) for _ in range(rng.randint(4, 10))) for _ in range(size)}
    return WORDS + sorted(made)


def fake_repo(root: Path) -> None:
    """A project folder that looks like a git work tree on branch ``main`` (a ``.git``
    folder with its ``HEAD``), as every real project has: the branch is read from HEAD,
    no git process is started per session heartbeat."""
    (root / ".git").mkdir(parents=True, exist_ok=True)
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")


def synthetic_memory(root: Path, n: int) -> None:
    """Write a data.toon of ``n`` entries straight through the codec (Zipf-distributed words)."""
    from toon_memory.model.entry import CATEGORIES, Entry
    from toon_memory.store.codec import encode_document
    from toon_memory.store.paths import MemoryPaths

    rng = random.Random(n)
    vocab = _vocabulary(rng)
    # Cumulative weights once (choices would add them up again for every entry: the same
    # draws, in O(vocabulary) per call; 1,000,000 entries took most of an hour).
    cumulative = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(vocab))))
    entries = []
    for i in range(n):
        words = " ".join(rng.choices(vocab, cum_weights=cumulative, k=rng.randint(8, 30)))
        links = [f"key-{rng.randrange(n)}"] if i and rng.random() < 0.3 else []
        entries.append(Entry(
            id=f"{i:08x}", category=CATEGORIES[i % 5], key=f"key-{i}", content=words,
            tags=rng.sample(WORDS, 2), links=links, date="2026-07-01", quality=0.5,
            created="2026-07-01T00:00:00Z", updated="2026-07-01T00:00:00Z",
        ))  # fmt: skip
    paths = MemoryPaths.for_project(root)
    paths.folder.mkdir(parents=True, exist_ok=True)
    paths.data.write_text(encode_document(entries, []))
    # The measured memory keeps all n entries (the 100-entry auto-archive cap is off).
    paths.config.write_text('{"autoArchive": {"maxEntries": 0}}\n')


def _cli(root: Path, *args: str, stdin: str = "") -> float:
    return _cli_rss(root, *args, stdin=stdin)[0]


def _cli_rss(root: Path, *args: str, stdin: str = "") -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one CLI process, its own: ``/usr/bin/time`` forks
    it, so the harness's pages (a forked child's maxrss includes them) are not counted."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["TOON_MEMORY_PROJECT"] = str(root)
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as out:
        start = time.perf_counter()
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out.name, sys.executable, "-m",
                        "toon_memory", *args], env=env, check=True, input=stdin.encode(),
                       stdout=subprocess.DEVNULL)  # fmt: skip
        seconds = time.perf_counter() - start
        return seconds, int(out.read().split()[-1]) / 1024


def _peak_mb() -> float:
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def measure(n: int, repeats: int, encrypted: bool = False) -> dict[str, float]:
    from toon_memory import Memory

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        fake_repo(root)
        synthetic_memory(root, n)
        if encrypted:
            Memory(root).security.encrypt()
        start = time.perf_counter()
        memory = Memory(root)
        memory.entries()
        first_load = time.perf_counter() - start
        times = []
        for i in range(repeats):
            start = time.perf_counter()
            memory.remember("decision", f"bench-{i}", f"benchmark entry {i} about redis timeouts")
            times.append(time.perf_counter() - start)
        memory.compact()
        size = memory.paths.data.stat().st_size
        _cli(root, "recall", "redis timeout")  # warm-up (and cache build)
        cli_remember = [
            _cli(root, "remember", "-c", "bug", "-k", f"cli-{i}", "-m", "cli write")
            for i in range(5)
        ]
        cold = [_cli_rss(root, "recall", "redis pool timeout") for _ in range(7)]
        hook = f'{{"session_id": "bench-1", "hook_event_name": "SessionStart", "cwd": "{root}"}}'
        _cli_rss(root, "hook", "session-start", stdin=hook)  # warm-up
        hooks = [_cli_rss(root, "hook", "session-start", stdin=hook) for _ in range(5)]
    return {
        "n": n, "first_load_s": first_load, "remember_ms": statistics.median(times) * 1000,
        "remember_p90_ms": sorted(times)[int(len(times) * 0.9)] * 1000,
        "cli_remember_ms": statistics.median(cli_remember) * 1000,
        "cold_recall_ms": statistics.median(c[0] for c in cold) * 1000,
        "cold_recall_rss": max(c[1] for c in cold),
        "hook_ms": statistics.median(h[0] for h in hooks) * 1000, "hook_rss": max(h[1] for h in hooks),
        "file_mb": size / 1e6, "peak_mb": _peak_mb(),
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--encrypted", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("TOON_MEMORY_TODAY", "2026-07-15")
    if args.encrypted:
        os.environ.setdefault("TOON_MEMORY_KEY", "benchmark passphrase")
    with tempfile.TemporaryDirectory() as home:
        os.environ["TOON_MEMORY_HOME"] = home
        rows = [measure(int(n), args.repeats, args.encrypted) for n in args.sizes.split(",")]
    print(
        "| entries | first load s | remember p50 ms | p90 ms | CLI remember ms | cold CLI recall ms"
        " | its RSS MB | cold hook session-start ms | its RSS MB | data.toon MB | harness peak RSS MB |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['n']:,} | {r['first_load_s']:.2f} | {r['remember_ms']:.1f} | {r['remember_p90_ms']:.1f} | "
              f"{r['cli_remember_ms']:.0f} | {r['cold_recall_ms']:.0f} | {r['cold_recall_rss']:.0f} | "
              f"{r['hook_ms']:.0f} | {r['hook_rss']:.0f} | {r['file_mb']:.1f} | {r['peak_mb']:.0f} |")  # fmt: skip


if __name__ == "__main__":
    main()
