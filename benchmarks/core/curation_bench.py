"""Curation benchmark: ``consolidate`` dry runs (each mode), ``reflect`` and ``promote`` dry runs.

Run: ``python -m benchmarks.core.curation_bench [--sizes 1000,10000] [--repeats 7]``.
Builds each memory like ``store_bench`` (Zipf-distributed words straight
through the codec), plus what curation looks for: 2% identical copies, 2%
near duplicates, 1% library notes at an older version, 5% drafts, dates
spread over a year. Prints, per size and operation, the first call in a
fresh process state (the word-set caches empty) and the median of the next
``repeats`` calls; plus the cold CLI for ``consolidate --mode similar`` and
``reflect``. Nothing here touches the network; no call writes.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.core.store_bench import WORDS, _cli, _vocabulary

LIBRARIES = ("react", "vite", "django", "pydantic", "nextjs", "postgres", "redis", "node")


def _dates(rng: random.Random) -> str:
    return f"2025-{rng.randint(7, 12):02d}-{rng.randint(1, 28):02d}"


def curation_memory(root: Path, n: int) -> None:
    """Write a data.toon of ``n`` entries with duplicates, versions and drafts mixed in."""
    from toon_memory.model.entry import CATEGORIES, Entry
    from toon_memory.store.codec import encode_document
    from toon_memory.store.paths import MemoryPaths

    rng = random.Random(n)
    vocab = _vocabulary(rng)
    weights = [1 / (rank + 1) for rank in range(len(vocab))]
    entries: list[Entry] = []
    for i in range(n):
        roll, category = rng.random(), CATEGORIES[i % 5]
        if entries and roll < 0.04:  # a copy (identical) or a near duplicate, in one category
            source = rng.choice(entries)
            category, words = source.category, source.content.split()
            if roll >= 0.02:
                words = words[:-1] + rng.choices(vocab, weights, k=1)
            content = " ".join(words)
        elif roll < 0.05:
            lib = rng.choice(LIBRARIES)
            content = f"The service uses {lib} {rng.randint(1, 20)} for " + " ".join(
                rng.choices(vocab, weights, k=6)
            )
        else:
            content = " ".join(rng.choices(vocab, weights, k=rng.randint(8, 30)))
        links = [f"key-{rng.randrange(n)}"] if i and rng.random() < 0.3 else []
        day = _dates(rng)
        entries.append(Entry(
            id=f"{i:08x}", category=category, key=f"key-{i}", content=content,
            tags=rng.sample(WORDS, 2), links=links, date=day, quality=round(rng.random(), 2),
            confidence=0.5 if rng.random() < 0.05 else 1.0,
            created=f"{day}T00:00:00Z", updated=f"{day}T00:00:00Z",
        ))  # fmt: skip
    paths = MemoryPaths.for_project(root)
    paths.folder.mkdir(parents=True, exist_ok=True)
    paths.data.write_text(encode_document(entries, []))


def _clear_caches() -> None:
    import sys

    from toon_memory.rules.curation import similarity

    similarity.term_set.cache_clear()
    sys.modules["toon_memory.rules.curation.reflect"]._conflict_terms.cache_clear()


def _timed(call: Callable[[], Any], repeats: int) -> tuple[float, float, Any]:
    """(first call ms with empty caches, median ms of the next ``repeats``, last result)."""
    _clear_caches()
    start = time.perf_counter()
    result = call()
    first = (time.perf_counter() - start) * 1000
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = call()
        times.append((time.perf_counter() - start) * 1000)
    return first, statistics.median(times), result


def measure(n: int, repeats: int) -> list[dict[str, Any]]:
    from toon_memory import Memory

    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / ".git").mkdir()
        curation_memory(root, n)
        memory = Memory(root)
        memory.entries()  # the load is store_bench's business, not curation's
        before = memory.paths.data.read_bytes()
        calls: list[tuple[str, Callable[[], Any], Callable[[Any], int]]] = [
            *[(f"consolidate {mode}", lambda m=mode: memory.curation.consolidate(m),
               lambda r: len(r.plan.removals))
              for mode in ("identical", "similar", "low-quality", "versions")],
            ("reflect (limit 20)", lambda: memory.curation.reflect(20),
             lambda r: len(r.attention) + len(r.contradictions)),
            ("promote (dry run)", lambda: memory.curation.promote(),
             lambda r: len(r.plan.promote) + len(r.plan.duplicates)),
        ]  # fmt: skip
        for name, call, found in calls:
            first, median, result = _timed(call, repeats)
            rows.append({"n": n, "op": name, "first_ms": first, "p50_ms": median,
                         "found": found(result)})  # fmt: skip
        assert memory.paths.data.read_bytes() == before, "a dry run wrote data.toon"
        for args in (("consolidate", "--mode", "similar"), ("reflect",)):
            cold = statistics.median(_cli(root, *args) for _ in range(3)) * 1000
            rows.append({"n": n, "op": f"CLI {' '.join(args)} (cold)", "first_ms": cold,
                         "p50_ms": cold, "found": -1})  # fmt: skip
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    os.environ.setdefault("TOON_MEMORY_TODAY", "2026-07-15")
    with tempfile.TemporaryDirectory() as home:
        os.environ["TOON_MEMORY_HOME"] = home
        rows = [row for n in args.sizes.split(",") for row in measure(int(n), args.repeats)]
    print("| entries | operation | first ms | p50 ms | found |")
    print("|---:|---|---:|---:|---:|")
    for r in rows:
        found = "" if r["found"] < 0 else f"{r['found']:,}"
        print(f"| {r['n']:,} | {r['op']} | {r['first_ms']:.0f} | {r['p50_ms']:.0f} | {found} |")


if __name__ == "__main__":
    main()
