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
"""

from __future__ import annotations

import argparse
import gc
import pickle
import random
import statistics
import sys
import time
from datetime import date

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
    return 0


if __name__ == "__main__":
    sys.exit(main())
