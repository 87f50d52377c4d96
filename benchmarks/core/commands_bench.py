"""Cold CLI commands at 1k/10k/100k entries: wall time and the command's own peak RSS.

Run: ``python -m benchmarks.core.commands_bench [--sizes 1000,100000] [--runs 5]``.

For each size, a synthetic memory (``store_bench.synthetic_memory``: Zipf words, links,
the 100-entry auto-archive off), its first cold recall (which builds the derived index
from data.toon: its own row), one warm-up of every command (bytecode compiled), then ``--runs`` fresh ``toon-memory`` processes per command,
alternating commands, each through ``/usr/bin/time`` so its RSS is the command's own,
not this harness's. Prints one row per command: median wall ms and peak RSS MB per
size, and the ratio of each size's median to the cold ``recall`` at the first size
(the issue's target: at 100,000 entries a cold command and a hook cost at most 1.5x
a cold recall at 1,000, in at most 150 MB). ``remember`` and ``forget`` write, so
every run names its own key; ``path``, ``reflect``, ``consolidate`` and ``promote``
(dry runs) and ``context brief`` read the whole memory; ``export`` writes its own file under the temp root;
``compact`` (last of a round) folds in what the round wrote and recalled. No network; ``TOON_MEMORY_TODAY`` is fixed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from collections.abc import Callable
from pathlib import Path

from benchmarks.core.store_bench import _cli_rss, fake_repo, synthetic_memory
from benchmarks.retrieval.common import print_table

Args = Callable[[Path, int], tuple[list[str], str]]


def _hook(root: Path, _run: int) -> tuple[list[str], str]:
    payload = f'{{"session_id": "bench-1", "hook_event_name": "SessionStart", "cwd": "{root}"}}'
    return ["hook", "session-start"], payload


COMMANDS: dict[str, Args] = {
    "recall": lambda root, run: (["recall", "redis pool timeout"], ""),
    "hook session-start": _hook,
    "remember": lambda root, run: (["remember", "-c", "decision", "-k", f"bench-{run}",
                                    "-m", f"bench decision {run} about the redis pool"], ""),
    "get": lambda root, run: (["get", f"key-{run + 10}"], ""),
    "forget": lambda root, run: (["forget", f"key-{run + 100}"], ""),
    "suggest": lambda root, run: (["suggest", "connection pool timeout"], ""),
    "primer": lambda root, run: (["primer"], ""),
    "stats": lambda root, run: (["stats"], ""),
    "search --category": lambda root, run: (["search", "redis", "--category", "bug"], ""),
    "path": lambda root, run: (["path", f"key-{run + 1}", f"key-{run + 2}"], ""),
    "reflect": lambda root, run: (["reflect"], ""),
    "consolidate (dry run)": lambda root, run: (["consolidate"], ""),
    "promote (dry run)": lambda root, run: (["promote"], ""),
    "context brief": lambda root, run: (["context", "brief"], ""),
    "export": lambda root, run: (["export", str(root / f"export-{run}.json")], ""),
    "compact": lambda root, run: (["compact"], ""),
}  # fmt: skip


def _index_bytes(home: Path) -> int:
    return sum(p.stat().st_size for p in home.rglob("*.index.sqlite*"))


#: The row of the warm-up's first recall: it builds the on-disk index from data.toon.
FIRST = "first recall (builds the index)"


def measure(n: int, runs: int, home: Path) -> dict[str, tuple[float, float]]:
    """Median wall ms and max peak RSS MB of each command at ``n`` entries, the first
    recall's (``FIRST``), and the sizes of data.toon and of the index (``"sizes"``, MB)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        fake_repo(root)
        synthetic_memory(root, n)
        before = _index_bytes(home)  # (the home holds the smaller sizes' indexes too)
        first = _cli_rss(root, "recall", "redis pool timeout")
        for args in COMMANDS.values():  # warm-up: bytecode, page cache
            argv, stdin = args(root, runs)
            _cli_rss(root, *argv, stdin=stdin)
        index = _index_bytes(home) - before
        data = (root / ".toon-memory" / "memory" / "data.toon").stat().st_size
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in COMMANDS}
        for run in range(runs):
            for name, args in COMMANDS.items():
                argv, stdin = args(root, run)
                seconds, rss = _cli_rss(root, *argv, stdin=stdin)
                times[name].append((seconds * 1000, rss))
    found = {name: (statistics.median(t for t, _ in got), max(r for _, r in got))
             for name, got in times.items()}  # fmt: skip
    found[FIRST] = (first[0] * 1000, first[1])
    found["sizes"] = (data / 2**20, index / 2**20)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    sizes = [int(n) for n in args.sizes.split(",")]
    os.environ.setdefault("TOON_MEMORY_TODAY", "2026-07-15")
    with tempfile.TemporaryDirectory() as home:
        os.environ["TOON_MEMORY_HOME"] = home
        found = {n: measure(n, args.runs, Path(home)) for n in sizes}
    base = found[sizes[0]]["recall"][0]
    headers = ["command"]
    for n in sizes:
        headers += [f"{n:,}: ms", "RSS MB", f"× recall at {sizes[0]:,}"]
    rows = []
    for name in [FIRST, *COMMANDS]:
        row: list[object] = [name]
        for n in sizes:
            ms, rss = found[n][name]
            row += [f"{ms:.0f}", f"{rss:.0f}", f"{ms / base:.2f}"]
        rows.append(row)
    print("Cold CLI commands (a fresh process each; median wall ms, the process's peak RSS)\n")
    print_table(headers, rows)
    print("\n" + "; ".join(f"{n:,}: data.toon {found[n]['sizes'][0]:.0f} MB, index "
                           f"{found[n]['sizes'][1]:.0f} MB" for n in sizes))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
