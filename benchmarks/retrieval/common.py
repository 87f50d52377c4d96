"""Shared helpers of the retrieval benchmarks: paths, ids, metrics, table printing.

Invariant: pure helpers; the only I/O is ``print_table`` writing to stdout and
``build_ranker`` writing an index to a temp folder.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"


def stable_id(*parts: str) -> str:
    """An 8-hex-digit id derived from ``parts`` (same input, same id)."""
    return hashlib.sha1("\x1f".join(parts).encode()).hexdigest()[:8]


def recall_at(ranked: Sequence[str], gold: Sequence[str], k: int) -> float:
    wanted = set(gold)
    return len(wanted & set(ranked[:k])) / len(wanted) if wanted else 0.0


def hit_at(ranked: Sequence[str], gold: Sequence[str], k: int) -> float:
    return 1.0 if set(gold) & set(ranked[:k]) else 0.0


def ndcg_at(ranked: Sequence[str], gold: Sequence[str], k: int) -> float:
    wanted = set(gold)
    dcg = sum(1.0 / math.log2(i + 2) for i, key in enumerate(ranked[:k]) if key in wanted)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(wanted), k)))
    return dcg / ideal if ideal else 0.0


def mrr_at(ranked: Sequence[str], gold: Sequence[str], k: int) -> float:
    wanted = set(gold)
    for i, key in enumerate(ranked[:k]):
        if key in wanted:
            return 1.0 / (i + 1)
    return 0.0


def bootstrap_ci(values: Sequence[float], rounds: int = 2000, seed: int = 7) -> tuple[float, float]:
    """The 95% percentile-bootstrap interval of the mean of ``values`` (resampled questions;
    fixed seed, so a run prints the same interval twice)."""
    import random

    if not values:
        return 0.0, 0.0
    rng, n = random.Random(seed), len(values)
    means = sorted(sum(rng.choices(values, k=n)) / n for _ in range(rounds))
    return means[int(0.025 * rounds)], means[int(0.975 * rounds) - 1]


def print_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Print (and return) a Markdown table; floats get three decimals."""
    cells = [[f"{c:.3f}" if isinstance(c, float) else str(c) for c in row] for row in rows]
    widths = [max(len(str(h)), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]
    lines = [
        "| " + " | ".join(str(h).ljust(w) for h, w in zip(headers, widths, strict=True)) + " |"
    ]
    lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    lines.extend(
        "| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |"
        for row in cells
    )
    text = "\n".join(lines)
    print(text)
    return text


#: The engines a retrieval benchmark can rank with (``--engine``): the in-memory engine,
#: or the one ranker over the SQLite index a cold process reads (``store.index_db``).
ENGINES = ("memory", "index")


def build_ranker(entries: list[Any], engine: str = "memory") -> Any:
    """An object answering ``recall``/``smart_recall`` over ``entries`` with ``engine``.

    ``index`` loads a SQLite index (in a temp folder, analysed by the index's own
    loader) and ranks over it through ``search.source.SourceCorpus``.
    """
    from toon_memory.search import Engine

    if engine == "memory":
        return Engine.build(entries)
    import tempfile

    from toon_memory.search.corpus import analyse
    from toon_memory.search.engine import Ranker
    from toon_memory.search.source import SourceCorpus
    from toon_memory.store.index_db import IndexDb

    folder = Path(tempfile.mkdtemp(prefix="toon-index-"))
    db = IndexDb.open(folder / "index.sqlite", "benchmark")
    assert db is not None
    with db.writing():
        db.load_entries(entries, analyse, {})
    return Ranker(SourceCorpus(db))
