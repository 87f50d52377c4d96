"""Recall latency at 1k, 10k and 100k entries: warm p50/p95, pickle load (cold) and build.

Run: ``python -m benchmarks.retrieval.latency [--sizes 1000,10000,100000]``.
The memory is synthetic but shaped like a real one: words drawn with Zipf's
law (s = 1) from a 40,000-word vocabulary whose 100 most frequent ranks are
left out (they are the stopwords the tokenizer drops), so the most common
word is in ~4% of entries, as content words are in real text; plus
identifiers, paths, 0-3 links per entry and some tags. Queries are 2-4 words
from the same distribution. ``--skew`` uses a 6,000-word vocabulary with the
head kept instead (a word in ~90% of entries: a stress test).
"Cold" is what a fresh CLI process pays: ``pickle.loads`` of the engine
(entries included; also measured with the garbage collector paused, as a
cache loader should do) plus the first recall on the loaded engine.

The second table is the on-disk SQLite index (``store.index_db``) against the
pickle, each measured in a fresh process of its own (``python -c``, bytecode
compiled, one warm-up run): its wall time to answer one query from process
start (imports included) and its own peak RSS (``ru_maxrss`` of that process,
not of this harness), then the warm p50/p95 of the index in a long-lived
process, its size and its load time. ``--engine index`` (gold_eval, locomo)
checks its ranking equals the in-memory engine's.
"""

from __future__ import annotations

import argparse
import gc
import os
import pickle
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from benchmarks.retrieval.common import print_table, stable_id
from toon_memory.model.entry import Entry
from toon_memory.search import Engine, RecallOptions

TODAY = date(2026, 7, 15)
_SYLLABLES = tuple(
    [
        "ka",
        "lo",
        "mi",
        "re",
        "tu",
        "sa",
        "no",
        "ve",
        "di",
        "po",
        "ra",
        "ne",
        "li",
        "mo",
        "fu",
        "ta",
        "be",
        "co",
        "da",
        "ge",
    ]
)


def vocabulary(size: int, rng: random.Random) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def distribution(skew: bool) -> tuple[list[str], list[float]]:
    """The vocabulary and its Zipf weights (see the module docstring)."""
    size, head = (6000, 0) if skew else (40_000, 100)
    vocab = vocabulary(size, random.Random(7))
    return vocab, [1.0 / (rank + 1 + head) for rank in range(len(vocab))]


def synthetic(n: int, skew: bool = False, seed: int = 7) -> list[Entry]:
    rng = random.Random(seed)
    vocab, weights = distribution(skew)
    categories = ["decision", "pattern", "bug", "knowledge", "warning"]
    entries = []
    for i in range(n):
        words = rng.choices(vocab, weights, k=rng.randint(8, 40))
        key = "-".join(rng.choices(vocab, weights, k=3)) + f"-{i}"
        words.append(f"{words[0]}{words[1].capitalize()}")
        links = [f"k{rng.randrange(n)}" for _ in range(rng.randint(0, 3))]
        entries.append(Entry(
            id=stable_id("lat", str(i)), category=rng.choice(categories), key=f"k{i}",
            content=f"{key}: " + " ".join(words), file=f"src/{words[2]}/{words[3]}.py",
            tags=rng.choices(vocab[:200], k=rng.randint(0, 3)), links=links,
            date=f"2026-0{rng.randint(1, 7)}-1{rng.randint(0, 9)}",
        ))  # fmt: skip
    return entries


def queries(count: int, skew: bool = False, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    vocab, weights = distribution(skew)
    return [" ".join(rng.choices(vocab, weights, k=rng.randint(2, 4))) for _ in range(count)]


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(n: int, rounds: int, skew: bool) -> list[object]:
    entries = synthetic(n, skew)
    start = time.perf_counter()
    engine = Engine.build(entries)
    build = time.perf_counter() - start
    blob = pickle.dumps(engine, protocol=pickle.HIGHEST_PROTOCOL)
    loads: dict[bool, list[float]] = {True: [], False: []}
    for collect in (True, False) * 3:
        gc.collect()
        if not collect:
            gc.disable()
        start = time.perf_counter()
        loaded = pickle.loads(blob)
        loads[collect].append(time.perf_counter() - start)
        gc.enable()
    qs = queries(rounds, skew)
    start = time.perf_counter()
    loaded.recall(RecallOptions(query=qs[0]), today=TODAY)
    first = time.perf_counter() - start
    row: list[object] = [f"{n:,}", f"{build:.2f} s", f"{len(blob) / 1e6:.1f} MB",
                         f"{statistics.median(loads[True]) * 1000:.1f}",
                         f"{statistics.median(loads[False]) * 1000:.1f}", f"{first * 1000:.1f}"]  # fmt: skip
    for mode in ("flat", "graph"):
        for q in qs[:20]:
            engine.recall(RecallOptions(query=q, mode=mode), today=TODAY)
        times = []
        for q in qs:
            start = time.perf_counter()
            engine.recall(RecallOptions(query=q, mode=mode, hops=2 if mode == "graph" else 1),
                          today=TODAY)  # fmt: skip
            times.append(time.perf_counter() - start)
        row += [f"{statistics.median(times) * 1000:.2f}", f"{_p(times, 0.95) * 1000:.2f}"]
    return row


_COLD = """
import resource, sys, time
start = time.perf_counter()
from datetime import date
from toon_memory.search import RecallOptions
opts = RecallOptions(query=sys.argv[2], mode=sys.argv[3])
if sys.argv[1] == "pickle":
    import gc, pickle
    gc.disable()
    with open(sys.argv[4], "rb") as handle:
        engine = pickle.loads(handle.read())
    gc.enable()
    engine.recall(opts, today=date(2026, 7, 15))
else:
    from pathlib import Path
    from toon_memory.search.engine import Ranker
    from toon_memory.search.source import SourceCorpus
    from toon_memory.store.index_db import IndexDb
    db = IndexDb.open(Path(sys.argv[4]), "benchmark")
    with db.reading():
        Ranker(SourceCorpus(db)).recall(opts, today=date(2026, 7, 15))
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def _cold(kind: str, path: Path, qs: list[str], mode: str) -> tuple[float, float]:
    """Median wall time (ms) and peak RSS (MB) of fresh processes answering one query."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    runs = []
    for q in [qs[0], *qs[:5]]:  # the first is a warm-up (bytecode, page cache)
        done = subprocess.run([sys.executable, "-c", _COLD, kind, q, mode, str(path)], env=env,
                              capture_output=True, text=True, check=True)  # fmt: skip
        seconds, rss = done.stdout.split()
        runs.append((float(seconds) * 1000, float(rss)))
    runs = runs[1:]
    return statistics.median(r[0] for r in runs), max(r[1] for r in runs)


def measure_index(n: int, rounds: int, skew: bool) -> list[object]:
    """The index against the pickle at ``n`` entries: one row of the second table."""
    from toon_memory.search.engine import Ranker
    from toon_memory.search.source import SourceCorpus
    from toon_memory.store.index_db import IndexDb

    entries = synthetic(n, skew)
    engine = Engine.build(entries)
    qs = queries(rounds, skew)
    with tempfile.TemporaryDirectory() as tmp:
        pickled = Path(tmp) / "engine.pickle"
        pickled.write_bytes(pickle.dumps(engine, protocol=pickle.HIGHEST_PROTOCOL))
        db = IndexDb.open(Path(tmp) / "index.sqlite", "benchmark")
        assert db is not None
        start = time.perf_counter()
        with db.writing():
            db.load(engine.export(), {e.id: e for e in entries}, {})
        db.checkpoint()
        load = time.perf_counter() - start
        size = (Path(tmp) / "index.sqlite").stat().st_size
        row: list[object] = [f"{n:,}", f"{load:.1f} s", f"{size / 1e6:.0f} MB"]
        for mode in ("flat", "graph"):
            times = []
            for q in qs:
                begin = time.perf_counter()
                with db.reading():
                    Ranker(SourceCorpus(db)).recall(RecallOptions(query=q, mode=mode), today=TODAY)
                times.append(time.perf_counter() - begin)
            row += [f"{statistics.median(times) * 1000:.2f}", f"{_p(times, 0.95) * 1000:.2f}"]
        for kind, path in (("index", Path(tmp) / "index.sqlite"), ("pickle", pickled)):
            ms, rss = _cold(kind, path, qs, "flat")
            row += [f"{ms:.0f}", f"{rss:.0f}"]
        db.close()
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--skew", action="store_true", help="stress test: very common words")
    args = parser.parse_args(argv)
    rows = [measure(int(size), args.rounds, args.skew) for size in args.sizes.split(",")]
    print("Recall latency (ms unless noted; warm = engine in memory, graph = hops 2)\n")
    print_table(["entries", "build", "pickle", "load ms", "load ms (gc off)", "1st recall ms",
                 "flat p50", "flat p95", "graph p50", "graph p95"], rows)  # fmt: skip
    rows = [measure_index(int(size), args.rounds, args.skew) for size in args.sizes.split(",")]
    print(
        "\nOn-disk index vs pickle (cold = a fresh process answering one query, imports "
        "included; RSS of that process)\n"
    )
    print_table(["entries", "index load", "index size", "warm flat p50", "p95", "warm graph p50",
                 "p95", "cold index ms", "cold index RSS MB", "cold pickle ms",
                 "cold pickle RSS MB"], rows)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
