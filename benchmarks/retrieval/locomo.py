"""LoCoMo evidence recall: every turn stored as an entry, as the dataset README defines.

Run: ``python -m benchmarks.retrieval.locomo [--data DIR]``.
Prints evidence recall@5 (with its 95% bootstrap interval over questions), recall@10 and hit@5, overall and per question
category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop), for the
rank_bm25 baseline (BM25Okapi over lower-cased ``\\w+`` tokens of speaker,
text, caption and date), our flat mode and our graph mode (hops 1 and 2),
in one run, separately for the dev conversations (tuned on) and the held-out
ones (reported only; never looked at while tuning). ``--split dev`` runs the
dev conversations alone, for tuning loops.
Skips with a message (exit 0) when the dataset folder is absent.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

from benchmarks.retrieval.common import (
    ENGINES,
    SHARED,
    bootstrap_ci,
    build_ranker,
    hit_at,
    print_table,
    recall_at,
    stable_id,
)
from toon_memory.model.entry import Entry
from toon_memory.search import Engine, RecallOptions

DEFAULT_DATA = SHARED / "datasets" / "locomo"
TODAY = date(2026, 1, 1)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
#: Fixed before any tuning: alternate conversations in file order, the first dev.
SPLITS = {"dev": ("conv-26", "conv-41", "conv-43"), "held-out": ("conv-30", "conv-42")}


@dataclass(frozen=True)
class Question:
    text: str
    category: int
    evidence: tuple[str, ...]


def turn_key(dia_id: str) -> str:
    """``"D1:3"`` -> ``"d1-3"``."""
    return "d" + dia_id.strip().lstrip("Dd").replace(":", "-").lower()


def session_date(stamp: str) -> str:
    """``"1:56 pm on 8 May, 2023"`` -> ``"2023-05-08"``."""
    return datetime.strptime(stamp.strip(), "%I:%M %p on %d %B, %Y").date().isoformat()


def _sessions(conv: dict[str, Any]) -> list[int]:
    found = (re.fullmatch(r"session_(\d+)", name) for name in conv)
    return sorted(int(m.group(1)) for m in found if m and isinstance(conv[m.group(0)], list))


def load_entries(conv: dict[str, Any], name: str) -> list[Entry]:
    """One entry per turn: key, content with photo caption and said-date, chain links."""
    entries: list[Entry] = []
    for number in _sessions(conv):
        stamp = conv[f"session_{number}_date_time"]
        turns = conv[f"session_{number}"]
        keys = [turn_key(t["dia_id"]) for t in turns]
        for i, turn in enumerate(turns):
            content = f"{turn['speaker']}: {turn['text']}"
            if turn.get("blip_caption"):
                content += f" [photo: {turn['blip_caption']}]"
            content += f" (said {stamp})"
            links = [keys[j] for j in (i - 1, i + 1) if 0 <= j < len(keys)]
            entries.append(Entry(
                id=stable_id(name, keys[i]), category="knowledge", key=keys[i], content=content,
                date=session_date(stamp), links=links,
            ))  # fmt: skip
    return entries


def load_questions(conv: dict[str, Any]) -> list[Question]:
    out = []
    for qa in conv["qa"]:
        evidence = tuple(turn_key(e) for item in qa.get("evidence", []) for e in item.split(";")
                         if e.strip())  # fmt: skip
        if qa.get("category") in CATEGORIES and evidence:
            out.append(Question(str(qa["question"]), int(qa["category"]), evidence))
    return out


Ranker = Callable[[str], list[str]]


def baseline_ranker(conv: dict[str, Any], entries: list[Entry]) -> Ranker:
    from rank_bm25 import BM25Okapi  # the reference baseline of the dataset README

    def text(e: Entry) -> list[str]:
        return re.findall(r"\w+", f"{e.content} {e.date}".lower())

    keys = [e.key for e in entries]
    bm25 = BM25Okapi([text(e) for e in entries])

    def rank(question: str) -> list[str]:
        scores = bm25.get_scores(re.findall(r"\w+", question.lower()))
        order = sorted(range(len(keys)), key=lambda i: -scores[i])
        return [keys[i] for i in order[:10]]

    return rank


def engine_ranker(engine: Engine, mode: str, hops: int) -> Ranker:
    def rank(question: str) -> list[str]:
        opts = RecallOptions(query=question, mode=mode, hops=hops, limit=10)
        return engine.recall(opts, today=TODAY).keys

    return rank


def evaluate(
    data: Path, names: tuple[str, ...], engine_kind: str = "memory"
) -> dict[str, dict[str, list[float]]]:
    """system -> metric name -> one value per question (metric names carry the category)."""
    scores: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for path in sorted(p for p in data.glob("conv-*.json") if p.stem in names):
        conv = json.loads(path.read_text(encoding="utf-8"))
        entries = load_entries(conv, path.stem)
        engine = build_ranker(entries, engine_kind)
        rankers = {
            "rank_bm25 baseline": baseline_ranker(conv, entries),
            "toon-memory flat": engine_ranker(engine, "flat", 1),
            "toon-memory graph (hops 1)": engine_ranker(engine, "graph", 1),
            "toon-memory graph (hops 2)": engine_ranker(engine, "graph", 2),
        }
        for question in load_questions(conv):
            for system, ranker in rankers.items():
                ranked = ranker(question.text)
                for scope in ("all", CATEGORIES[question.category]):
                    scores[system][f"r5:{scope}"].append(recall_at(ranked, question.evidence, 5))
                    scores[system][f"r10:{scope}"].append(recall_at(ranked, question.evidence, 10))
                    scores[system][f"h5:{scope}"].append(hit_at(ranked, question.evidence, 5))
    return scores


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _interval(values: list[float]) -> str:
    low, high = bootstrap_ci(values)
    return f"{low:.3f}-{high:.3f}"


def report(scores: dict[str, dict[str, list[float]]], title: str) -> None:
    n = len(next(iter(scores.values()))["r5:all"])
    print(f"\nLoCoMo evidence retrieval, {title}: {n} questions (categories 1-4 with evidence)\n")
    rows = [[system, _mean(m["r5:all"]), _interval(m["r5:all"]), _mean(m["r10:all"]),
             _mean(m["h5:all"])] for system, m in scores.items()]  # fmt: skip
    print_table(["system", "recall@5", "R@5 95% CI", "recall@10", "hit@5"], rows)
    print("\nrecall@5 per category (questions)")
    headers = ["system"] + [f"{name} ({len(next(iter(scores.values()))['r5:' + name])})"
                            for name in CATEGORIES.values()]  # fmt: skip
    rows = [[system] + [_mean(m[f"r5:{name}"]) for name in CATEGORIES.values()]
            for system, m in scores.items()]  # fmt: skip
    print_table(headers, rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--split", choices=(*SPLITS, "all"), default="all")
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        default="memory",
        help="rank in memory, or over the on-disk SQLite index",
    )
    args = parser.parse_args(argv)
    if not args.data.is_dir() or not any(args.data.glob("conv-*.json")):
        print(f"LoCoMo data not found at {args.data}: benchmark skipped.")
        return 0
    for split, names in SPLITS.items():
        if args.split in ("all", split):
            report(evaluate(args.data, names, args.engine), f"{split} ({', '.join(names)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
