"""Each idea of recall rounds 2 and 3 measured alone: gold dev/test, cross-language slice, LoCoMo.

Run: ``python -m benchmarks.retrieval.ablation [--locomo-split dev|held-out|all]``.
Every row turns one idea off (or, for the cognate rows, a prototype on) and
reports the default mode (flat, RRF) on the gold set's dev and test parts and
on its cross-language slice, and graph mode (hops 2) R@5 on LoCoMo. The
cognate prototypes are not in the engine (they did not help on dev once the
lexicon was there); they live here so the measurement can be repeated:

- trigram: a query word (stem of 4+ letters) also asks, at weight 0.9 x Dice,
  for the stems of entries not written in English whose character-trigram
  Dice similarity with it is at least 0.5 (``access`` ~ ``acces``);
- prefix: the same for stems sharing a 5-letter prefix after folding
  ``th ph y k qu`` and doubled letters (``methodolog`` ~ ``metodolog``), weight 0.8.

The feedback row is a prototype too (it was in the engine for a while and was
taken out: it raised LoCoMo dev and lowered held-out): in graph mode, a query
of 4+ words also asks, at weight 0.2, for the 10 terms of its 10 best matches
with the highest (match score / best) x ln(N / df), skipping terms in one
document or in more than 10% of them.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from benchmarks.retrieval import gold_eval, locomo
from benchmarks.retrieval.common import mrr_at, ndcg_at, print_table, recall_at
from toon_memory.model.entry import Entry
from toon_memory.search import Engine, RecallOptions, compounds, crosslang, signals, temporal
from toon_memory.search import intent as intent_module
from toon_memory.search import pipeline as pipeline_module
from toon_memory.search import tokenize as tokenize_module
from toon_memory.search.corpus import entry_fields
from toon_memory.search.tokenize import detect_language

Expander = Callable[[Any, str], tuple[list[tuple[str, ...]], list[dict[str, float]]]]


@contextmanager
def patched(obj: Any, name: str, value: Any) -> Iterator[None]:
    old = getattr(obj, name)
    setattr(obj, name, value)
    try:
        yield
    finally:
        setattr(obj, name, old)


@contextmanager
def no_intent() -> Iterator[None]:
    original = pipeline_module.read_intent
    with patched(pipeline_module, "read_intent",
                 lambda o, today: original(replace(o, intent=False), today)):  # fmt: skip
        yield


@contextmanager
def no_compounds() -> Iterator[None]:
    tokenize_module._compound_groups.cache_clear()
    with patched(compounds, "MIN_PART", 1_000):
        yield
    tokenize_module._compound_groups.cache_clear()


@contextmanager
def no_round3_intents() -> Iterator[None]:
    """Without "before <period>", earliest/first, "most recent" and "at first"."""
    with patched(intent_module, "_BEFORE", frozenset()), \
            patched(intent_module, "EARLIEST", {}), \
            patched(intent_module, "_FIRST", frozenset()), \
            patched(intent_module, "_LATEST_PAIRS", frozenset()), \
            patched(intent_module, "_HISTORY_PAIRS", frozenset()):  # fmt: skip
        yield


def _trigrams(term: str) -> set[str]:
    padded = f"^{term}$"
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


def _skeleton(term: str) -> str:
    for a, b in (("th", "t"), ("ph", "f"), ("y", "i"), ("k", "c"), ("qu", "c")):
        term = term.replace(a, b)
    return re.sub(r"(.)\1", r"\1", term)[:5]


def cognate_expander(entries: list[Entry], kind: str) -> Expander:
    """A prototype expansion toward the vocabulary of entries not written in English."""
    vocabulary = {term for e in entries if detect_language(e.content + " " + e.key) != "en"
                  for term in entry_fields(e)["content"] if len(term) >= 4 and not term.isdigit()}  # fmt: skip
    grams = {term: _trigrams(term) for term in vocabulary}
    by_prefix: dict[str, set[str]] = {}
    for term in vocabulary:
        by_prefix.setdefault(_skeleton(term), set()).add(term)
    base = crosslang.expand

    def expand(groups: Any, lang: str) -> tuple[list[tuple[str, ...]], list[dict[str, float]]]:
        out, weights = base(groups, lang)
        for i, group in enumerate(out):
            head = group[0]
            if len(head) < 4 or head.isdigit():
                continue
            found: dict[str, float] = {}
            if kind == "trigram":
                mine = _trigrams(head)
                for term, theirs in grams.items():
                    dice = 2 * len(mine & theirs) / (len(mine) + len(theirs))
                    if dice >= 0.5:
                        found[term] = 0.9 * dice
            elif len(head) >= 5:
                found = dict.fromkeys(by_prefix.get(_skeleton(head), ()), 0.8)
            found = {t: w for t, w in found.items() if t not in group}
            out[i] = (*group, *sorted(found))
            weights[i] = {**found, **weights[i]}
        return out, weights

    return expand


def feedback_matcher() -> Any:
    """The pseudo-relevance feedback prototype around ``pipeline._matched``."""
    base = pipeline_module._matched

    def matched(corpus: Any, o: Any, groups: Any, weights: Any, allowed: Any) -> Any:
        index = corpus.index
        own = index.score(groups, weights) if o.mode == "graph" and len(groups) >= 4 else {}
        if not own:
            return base(corpus, o, groups, weights, allowed)
        best = sorted(own, key=lambda d: (-own[d], d))[:10]
        have = {term for group in groups for term in group}
        n, gain = len(index), {}
        for doc in best:
            slot = index.slot(doc)
            for term in index._terms[slot].split("\x00"):  # the prototype reads the index
                df = index.doc_freq(term) if term and term not in have else 0
                if term.isdigit() or df < 2 or df > 0.1 * n:
                    continue
                gain[term] = gain.get(term, 0.0) + own[doc] / own[best[0]] * math.log(n / df)
        extra = sorted(gain, key=lambda t: (-gain[t], t))[:10]
        return base(corpus, o, [*groups, *((t,) for t in extra)],
                    [*weights, *({t: 0.2} for t in extra)], allowed)  # fmt: skip

    return matched


def gold_scores(entries: list[Entry], spec: dict[str, Any]) -> dict[str, float]:
    today = gold_eval.resolve_today(spec)
    engine = Engine.build(entries)
    buckets: dict[str, list[tuple[float, float, float]]] = {}
    for query in spec["queries"]:
        opts = RecallOptions(query=query["q"], limit=5, as_of=query.get("asOf", ""))
        ranked = engine.recall(opts, today=today).keys
        gold = query["gold"]
        metrics = (recall_at(ranked, gold, 5), ndcg_at(ranked, gold, 5), mrr_at(ranked, gold, 5))
        split = query.get("split", "dev")
        for scope in (split, f"{split}/{query.get('category')}"):
            buckets.setdefault(scope, []).append(metrics)
    out: dict[str, float] = {}
    for scope, values in buckets.items():
        for i, name in enumerate(("r5", "ndcg5", "mrr5")):
            out[f"{name}:{scope}"] = sum(v[i] for v in values) / len(values)
    return out


def locomo_r5(names: tuple[str, ...]) -> float:
    values: list[float] = []
    for name in names:
        conv = json.loads((locomo.DEFAULT_DATA / f"{name}.json").read_text(encoding="utf-8"))
        engine = Engine.build(locomo.load_entries(conv, name))
        for question in locomo.load_questions(conv):
            opts = RecallOptions(query=question.text, mode="graph", hops=2, limit=10)
            ranked = engine.recall(opts, today=locomo.TODAY).keys
            values.append(recall_at(ranked, question.evidence, 5))
    return sum(values) / len(values) if values else 0.0


def variants(entries: list[Entry]) -> dict[str, list[Any]]:
    """Row name -> context managers that make it (applied together)."""
    return {
        "all on (round 3)": [],
        "- round 3 intents": [no_round3_intents()],
        "- German compounds": [no_compounds()],
        "- named file": [patched(signals, "NAMED_FILE_FACTOR", 1.0)],
        "- lexicon": [patched(crosslang, "TRANSLATION_WEIGHT", 0.0)],
        "- temporal intent": [no_intent()],
        "- period preference": [patched(temporal, "PERIOD_WEIGHT", 0.0)],
        "- lexicon + trigram cognates": [
            patched(crosslang, "TRANSLATION_WEIGHT", 0.0),
            patched(pipeline_module.crosslang, "expand", cognate_expander(entries, "trigram")),
        ],
        "- lexicon + prefix cognates": [
            patched(crosslang, "TRANSLATION_WEIGHT", 0.0),
            patched(pipeline_module.crosslang, "expand", cognate_expander(entries, "prefix")),
        ],
        "+ feedback (graph, 4+ words)": [patched(pipeline_module, "_matched", feedback_matcher())],
        "+ trigram cognates": [
            patched(pipeline_module.crosslang, "expand", cognate_expander(entries, "trigram")),
        ],
        "+ prefix cognates": [
            patched(pipeline_module.crosslang, "expand", cognate_expander(entries, "prefix")),
        ],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo-split", choices=(*locomo.SPLITS, "all", "none"), default="dev")
    args = parser.parse_args(argv)
    spec = json.loads((gold_eval.HERE / "gold-queries.json").read_text(encoding="utf-8"))
    entries = gold_eval.load_memory(gold_eval.HERE / "memory.toon")
    splits = (list(locomo.SPLITS) if args.locomo_split == "all" else
              [] if args.locomo_split == "none" or not locomo.DEFAULT_DATA.is_dir()
              else [args.locomo_split])  # fmt: skip
    headers = ["variant", "dev R@5", "dev MRR@5", "test R@5", "test nDCG@5", "test MRR@5",
               "xl dev R@5", "xl test R@5", *(f"LoCoMo {s} R@5" for s in splits)]  # fmt: skip
    rows = []
    for name, managers in variants(entries).items():
        with _all(managers):
            g = gold_scores(entries, spec)
            row: list[object] = [name, g["r5:dev"], g["mrr5:dev"], g["r5:test"], g["ndcg5:test"],
                                 g["mrr5:test"], g["r5:dev/cross-language"],
                                 g["r5:test/cross-language"]]  # fmt: skip
            row += [locomo_r5(locomo.SPLITS[s]) for s in splits]
        rows.append(row)
    print_table(headers, rows)
    return 0


@contextmanager
def _all(managers: list[Any]) -> Iterator[None]:
    if not managers:
        yield
        return
    with managers[0], _all(managers[1:]):
        yield


if __name__ == "__main__":
    sys.exit(main())
