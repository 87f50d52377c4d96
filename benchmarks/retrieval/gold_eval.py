"""Gold-query evaluation over any memory file: R@5, nDCG@5, MRR@5 and answerable.

Run: ``python -m benchmarks.retrieval.gold_eval [--memory data.toon] [--queries gold.json]``
(defaults: the shipped ``gold/memory.toon`` and ``gold/gold-queries.json``).

Query file format::

    {"today"?: "YYYY-MM-DD",
     "queries": [{"id": "q1", "q": "text", "gold": ["key", ...], "asOf"?: "YYYY-MM-DD",
                  "category"?: "core-fact", "lang"?: "en", "split"?: "dev"}]}

Each query also has ``"split": "dev" | "test"``: tune on dev, report test
(``--split dev`` evaluates only dev queries, for tuning loops). The report
gives every mode on dev, test and all, then the cross-language slice
(category ``cross-language``: English queries over entries written in another
language) and R@5 per category.

"today" is fixed from ``TOON_MEMORY_TODAY``, else the file's "today", else
the clock. Metrics count a hit when a returned entry's key is a gold key;
"answerable" is the share of queries with a gold key in the top 5. Modes:
flat with the linear score, flat with RRF (default), graph (hops 2) and
smart recall, beside a rank_bm25 baseline (active, unexpired entries only;
it cannot answer ``asOf``). Read-only: no access is recorded.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from benchmarks.retrieval.common import (
    ENGINES,
    build_ranker,
    hit_at,
    mrr_at,
    ndcg_at,
    print_table,
    recall_at,
)
from toon_memory.model.entry import Entry
from toon_memory.search import Engine, RecallOptions

HERE = Path(__file__).resolve().parent / "gold"


def load_memory(path: Path) -> list[Entry]:
    from toon_memory.store.codec import decode_document

    return decode_document(path.read_text(encoding="utf-8"), path).entries


def resolve_today(spec: dict[str, Any]) -> date:
    fixed = os.environ.get("TOON_MEMORY_TODAY") or spec.get("today")
    return date.fromisoformat(fixed) if fixed else date.today()


Mode = Callable[[Engine, dict[str, Any], date], list[str]]


def _recall(**options: Any) -> Mode:
    def run(engine: Engine, query: dict[str, Any], today: date) -> list[str]:
        opts = RecallOptions(query=query["q"], limit=5, as_of=query.get("asOf", ""), **options)
        return engine.recall(opts, today=today).keys

    return run


def _smart(engine: Engine, query: dict[str, Any], today: date) -> list[str]:
    if query.get("asOf"):
        return _recall(mode="graph", hops=2)(engine, query, today)
    return engine.smart_recall(query["q"], today=today, limit=5, session_bias=False).keys


def _baseline(entries: list[Entry], today: date) -> Mode:
    """rank_bm25 BM25Okapi over lower-cased ``\\w+`` tokens of key, content and tags."""
    import re

    from rank_bm25 import BM25Okapi

    from toon_memory.model.clock import is_expired

    live = [e for e in entries if e.status == "active" and not is_expired(e.ttl, today)]
    bm25 = BM25Okapi([re.findall(r"\w+", f"{e.key} {e.content} {' '.join(e.tags)}".lower())
                      for e in live])  # fmt: skip

    def run(engine: Engine, query: dict[str, Any], today: date) -> list[str]:
        scores = bm25.get_scores(re.findall(r"\w+", query["q"].lower()))
        order = sorted(range(len(live)), key=lambda i: -scores[i])[:5]
        return [live[i].key for i in order if scores[i] > 0]

    return run


MODES: dict[str, Mode] = {
    "linear (flat)": _recall(rrf=False),
    "rrf (flat)": _recall(),
    "graph (hops 2)": _recall(mode="graph", hops=2),
    "smart": _smart,
}


Scores = dict[str, dict[str, list[float]]]


def evaluate(entries: list[Entry], spec: dict[str, Any], engine_kind: str = "memory") -> Scores:
    """mode -> ``metric:scope`` -> one value per query; scopes: all, the split, the
    category and ``split/category``."""
    today = resolve_today(spec)
    engine = build_ranker(entries, engine_kind)
    modes = {"rank_bm25 baseline": _baseline(entries, today), **MODES}
    scores: Scores = defaultdict(lambda: defaultdict(list))
    for query in spec["queries"]:
        gold = list(query["gold"])
        split, category = query.get("split", "dev"), query.get("category", "other")
        for name, mode in modes.items():
            ranked = mode(engine, query, today)
            for scope in ("all", split, category, f"{split}/{category}"):
                bucket = scores[name]
                bucket[f"r5:{scope}"].append(recall_at(ranked, gold, 5))
                bucket[f"ndcg5:{scope}"].append(ndcg_at(ranked, gold, 5))
                bucket[f"mrr5:{scope}"].append(mrr_at(ranked, gold, 5))
                bucket[f"ans:{scope}"].append(hit_at(ranked, gold, 5))
    return scores


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _summary(scores: Scores, scope: str, title: str) -> None:
    first = next(iter(scores.values()))
    if not first.get(f"r5:{scope}"):
        return
    print(f"\n{title} ({len(first[f'r5:{scope}'])} queries)")
    rows = [[name, _mean(m[f"r5:{scope}"]), _mean(m[f"ndcg5:{scope}"]),
             _mean(m[f"mrr5:{scope}"]), f"{100 * _mean(m[f'ans:{scope}']):.1f}%"]
            for name, m in scores.items()]  # fmt: skip
    print_table(["mode", "R@5", "nDCG@5", "MRR@5", "answerable"], rows)


def report(scores: Scores, entries: int, queries: int) -> None:
    print(f"Gold queries: {queries} queries over {entries} entries")
    for scope, title in (("test", "Test (report only)"), ("dev", "Dev (tuned on)"),
                         ("all", "All"), ("test/cross-language", "Cross-language, test"),
                         ("dev/cross-language", "Cross-language, dev"),
                         ("test/temporal-intent", "Temporal intent, test"),
                         ("dev/temporal-intent", "Temporal intent, dev")):  # fmt: skip
        _summary(scores, scope, title)
    first = next(iter(scores.values()))
    categories = sorted(k.split(":", 1)[1] for k in first
                        if k.startswith("r5:") and "/" not in k
                        and k[3:] not in ("all", "dev", "test"))  # fmt: skip
    print("\nR@5 per category (all splits)")
    headers = ["mode"] + [f"{c} ({len(first['r5:' + c])})" for c in categories]
    print_table(headers, [[name] + [_mean(m[f"r5:{c}"]) for c in categories]
                          for name, m in scores.items()])  # fmt: skip


def print_misses(entries: list[Entry], spec: dict[str, Any]) -> None:
    """Dev queries whose first gold key is not ranked first in the default mode, with the top 5.

    Test queries are never listed: they are reported, not looked at.
    """
    today = resolve_today(spec)
    engine = Engine.build(entries)
    for query in spec["queries"]:
        if query.get("split", "dev") != "dev":
            continue
        ranked = MODES["rrf (flat)"](engine, query, today)
        if ranked[:1] and ranked[0] in query["gold"]:
            continue
        print(f"{query['id']}: {query['q']!r} gold={query['gold']}")
        print(f"    got {ranked}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memory", type=Path, default=HERE / "memory.toon")
    parser.add_argument("--queries", type=Path, default=HERE / "gold-queries.json")
    parser.add_argument("--split", choices=("dev", "test", "all"), default="all")
    parser.add_argument("--category", default="", help="only queries of this category")
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        default="memory",
        help="rank in memory, or over the on-disk SQLite index",
    )
    parser.add_argument(
        "--misses",
        action="store_true",
        help="list the dev queries not answered first (default mode)",
    )
    args = parser.parse_args(argv)
    spec = json.loads(args.queries.read_text(encoding="utf-8"))
    spec["queries"] = [q for q in spec["queries"]
                       if args.split in ("all", q.get("split", "dev"))
                       and (not args.category or q.get("category") == args.category)]  # fmt: skip
    entries = load_memory(args.memory)
    if args.misses:
        print_misses(entries, spec)
        return 0
    report(evaluate(entries, spec, args.engine), len(entries), len(spec["queries"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
