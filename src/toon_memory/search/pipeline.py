"""One ranking pass: read intent, match, exclude, spread, rescale, fuse, adjust, order.

Invariant: ``rank_entries`` reads the corpus and never changes it; for equal
inputs it returns equal results. Order: pinned entries first (higher
priority first; with ``RecallOptions.pins``), then by final score, ties by
key then id; pins the query does not match take at most half of the places
while matches are left to fill them. Only entries that
pass ``signals.eligible`` for the options (with the ``history`` admission the
query's temporal intent asks for) can appear. Each query word also asks for
its translations (``search.crosslang``); the query's temporal intent
(``search.intent``) rescales relevance before fusion (``search.temporal``);
bonuses then scale the fused score by how well the entry matched.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date

from toon_memory.model.entry import Entry
from toon_memory.search import crosslang, rank, signals
from toon_memory.search import intent as intents
from toon_memory.search.corpus import RankCorpus, entry_links
from toon_memory.search.index import Scoring
from toon_memory.search.options import RecallOptions
from toon_memory.search.paths import named_paths, names_file, normalise_path
from toon_memory.search.result import Edge, Hit, RecallResult
from toon_memory.search.temporal import apply_intent
from toon_memory.search.tokenize import detect_language, query_groups
from toon_memory.search.tokenize import script_family as family_of

_HEX_ID = re.compile(r"^[0-9a-f]{8}$")
#: From this many entries a query's matches are found by ``search.topk`` (same answer,
#: fewer postings scored); below it scoring every posting is as fast.
PRUNE_FROM = 5_000
_INVERSE = {"supersedes": "superseded_by", "superseded_by": "supersedes"}


def query_terms(query: str) -> list[tuple[str, ...]]:
    """Query word groups, plus any 8-hex-digit id written in the query."""
    groups = query_groups(query)
    for word in query.lower().split():
        if _HEX_ID.match(word) and (word,) not in groups:
            groups.append((word,))
    return groups


def rarest(index: Scoring, groups: list[tuple[str, ...]], keep: int) -> list[tuple[str, ...]]:
    """The ``keep`` word groups whose word is in the fewest entries (a word in none last:
    it matches nothing), in their query order; ties go to the earlier word. A long text
    as a query (``Engine.suggest``, ``remember``'s near search) asks for what sets it apart,
    as a "more like this" query does, and costs what a short one costs."""

    def rank(i: int) -> tuple[bool, int, int]:
        found = index.doc_freq(groups[i][0])
        return found == 0, found, i

    chosen = sorted(sorted(range(len(groups)), key=rank)[:keep])
    return [groups[i] for i in chosen]


@dataclass(frozen=True, slots=True)
class RankPass:
    """What one ranking pass needs besides the corpus."""

    opts: RecallOptions
    today: date
    session_files: frozenset[str]  # normalised (``paths.normalise_path``)
    query_family: str
    named_files: frozenset[str] = frozenset()  # paths the query names, normalised
    #: Adjusting a score reads the entry beyond its row (``_adjusted``); set from the above.
    reads_entries: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        o = self.opts
        reads = bool(o.path_scope or o.smart or self.session_files or self.named_files)
        object.__setattr__(self, "reads_entries", reads)


def allowed_test(
    corpus: RankCorpus, o: RecallOptions, today: date, history: str = ""
) -> Callable[[str], bool]:
    """Eligibility as a fast predicate: without filters only TTL/status entries are checked.

    ``history`` (``"all"`` or an ISO day) re-admits superseded entries (``signals.eligible``).
    """
    entries, conditional = corpus.entries, corpus.conditional
    if o.as_of or o.from_date or o.to_date or o.category or o.tags or o.path_scope:
        return lambda node: signals.eligible(entries[node], o, today, history)
    return lambda node: (
        node not in conditional or signals.eligible(entries[node], o, today, history)
    )


def read_intent(o: RecallOptions, today: date) -> tuple[RecallOptions, intents.Intent, str]:
    """The query's temporal intent, the options it implies (a strict day as ``as_of`` when
    none was given) and the ``history`` admission it needs."""
    if not o.intent or not o.query:
        return o, intents.NONE, ""
    found = intents.detect(o.query, today)
    if o.as_of and found.day:
        found = replace(found, day="", strict=False, since="")
    if found.day and found.strict:
        return replace(o, as_of=found.day), found, "all" if found.history else ""
    return o, found, "all" if found.history else found.day


def rank_entries(
    corpus: RankCorpus, o: RecallOptions, today: date, session_files: Collection[str]
) -> RecallResult:
    """The ranked answer for validated options ``o`` (not an ids fetch)."""
    o, intent, history = read_intent(o, today)
    allowed = allowed_test(corpus, o, today, history)
    groups = query_terms(o.query)
    if 0 < o.words < len(groups):
        groups = rarest(corpus.index, groups, o.words)
    if groups:
        groups, weights = crosslang.expand(groups, detect_language(o.query))
        only = _only_category(o, history)
        relevance, hop, via, total = _matched(corpus, o, groups, weights, allowed, only)
        if intent:
            corpus.prefetch(relevance, whole=True)
            apply_intent(corpus, relevance, hop, via, intent, allowed)
    else:
        relevance = corpus.usage_top(today, allowed, o.pool)
        hop, via, total = dict.fromkeys(relevance, -1), {}, len(relevance)
    families = family_of(o.query) if o.query else ""
    session = frozenset(map(normalise_path, session_files)) if o.session_bias else frozenset()
    named = named_paths(o.query) if o.query and o.intent else frozenset()
    ctx = RankPass(o, today, session, families, named)
    scores = _fuse(corpus, relevance, hop, ctx, total)
    added: set[str] = set()
    for node in sorted(corpus.pinned) if o.pins else ():
        if node not in scores and allowed(node):
            scores.update(_adjusted(corpus, [(node, 0.0)], {node: 1.0}, 1.0, ctx))
            hop[node] = -1
            added.add(node)
    order = _order(corpus, scores, o, added)
    hits = _hits(corpus, order, scores, hop, via, today)
    return RecallResult(o, tuple(hits), hit_edges(hits), total + len(added))


def _order(
    corpus: RankCorpus, scores: dict[str, float], o: RecallOptions, added: set[str]
) -> list[str]:
    """The first ``o.limit`` nodes: pinned first (with ``o.pins``; higher priority first),
    then by score. Pins added without a match take at most half of the places (rounded
    down) while there are matches to fill the others."""
    limit = o.limit or 0
    heads = corpus.heads

    def order_key(node: str) -> tuple[int, float, str, str]:
        priority, key = heads[node]
        return (-priority if o.pins else 0, -scores[node], key, node)

    ranked = heapq.nsmallest(limit + len(added), scores, key=order_key)
    room = max(limit // 2, limit - (len(scores) - len(added)))
    order: list[str] = []
    for node in ranked:
        if node in added:
            if room <= 0:
                continue
            room -= 1
        order.append(node)
    return order[:limit]


def _matched(
    corpus: RankCorpus,
    o: RecallOptions,
    groups: list[tuple[str, ...]],
    weights: list[dict[str, float]],
    allowed: Callable[[str], bool],
    only: str = "",
) -> tuple[dict[str, float], dict[str, int], dict[str, str], int]:
    """BM25F matches (spread over the graph in graph mode): relevance, hop, via, count.
    ``only``: the category ``allowed`` implies (``_only_category``), or ""."""
    index = corpus.index
    found = _pruned(corpus, o, groups, weights, allowed, only)
    if found is None:
        parts: Sequence[Mapping[int, float]] = index.score_slots(groups, weights)
        total = _exclude(corpus, rank.merge(parts), o, allowed, only)
        best, count = rank.top(total, o.pool), len(total)
    else:
        best, total, count, parts = found
    relevance = {node: total[s] for node, s in zip(index.doc_ids(best), best, strict=True)}
    hop: dict[str, int] = dict.fromkeys(relevance, 0)
    via: dict[str, str] = {}
    if o.mode == "graph" and relevance:
        seeds = rank.top_seeds(relevance)
        hop, via = rank.reach(corpus.graph, seeds, o.hops or 1, allowed)
        slots = {node: index.slot(node) for node in hop}
        by_id = [{n: p[s] for n, s in slots.items() if s is not None and s in p} for p in parts]
        relevance.update(rank.spread(corpus.graph, by_id, seeds, hop, allowed))
        relevance = {node: relevance[node] for node in rank.top(relevance, o.pool)}
        hop = {node: hop.get(node, 0) for node in relevance}
    return relevance, hop, via, count


def _pruned(
    corpus: RankCorpus,
    o: RecallOptions,
    groups: list[tuple[str, ...]],
    weights: list[dict[str, float]],
    allowed: Callable[[str], bool],
    only: str,
) -> tuple[list[int], dict[int, float], int, list[Mapping[int, float]]] | None:
    """``_matched``'s exhaustive top, count and parts through ``search.topk`` (the same
    answer): for a memory of at least ``PRUNE_FROM`` entries and a query without filters
    but ``only``, a category known by slots (``corpus.category_bits``: ``allowed`` passes
    its active entries but the conditional ones, checked one by one as without it)."""
    index = corpus.index
    if index.count() < PRUNE_FROM or _strict(replace(o, category="") if only else o):
        return None
    plan = index.plan(groups, weights, only)
    if plan is not None and only:
        plan.restrict(corpus.category_bits(only))
    if plan is None or plan.count < len(corpus.conditional):
        return None  # as ``_exclude``: few matches are checked one by one
    for node, slot in corpus.conditional_slots():
        if plan.holds(slot) and not allowed(node):
            plan.exclude(slot)
    best, scores = plan.top(o.pool)
    return best, scores, plan.count, plan.parts()


def _strict(o: RecallOptions) -> bool:
    return bool(o.as_of or o.from_date or o.to_date or o.category or o.tags or o.path_scope)


def _exclude(
    corpus: RankCorpus,
    total: dict[int, float],
    o: RecallOptions,
    allowed: Callable[[str], bool],
    only: str,
) -> dict[int, float]:
    """Drop ineligible matches (by index slot), checking as few entries as possible."""
    if _strict(o) or len(total) < len(corpus.conditional):
        return corpus.allowed_slots(total, allowed, only)
    for node, slot in corpus.conditional_slots():
        if slot in total and not allowed(node):
            del total[slot]
    return total


def _only_category(o: RecallOptions, history: str) -> str:
    """The category every eligible entry is an active entry of (``signals.eligible``: a
    category filter, and no ``as_of`` or ``history`` that re-admits superseded ones)."""
    return o.category if o.category and not o.as_of and not history else ""


def _fuse(
    corpus: RankCorpus, relevance: dict[str, float], hop: dict[str, int], ctx: RankPass, n: int
) -> dict[str, float]:
    corpus.prefetch(relevance, whole=not ctx.opts.rrf or ctx.reads_entries)
    centrality = corpus.centralities(relevance)
    if ctx.opts.rrf:
        fused = rank.rrf(relevance, centrality, n)
    else:
        entries = corpus.entries
        importance = {n: signals.auto_importance(entries[n], ctx.today) for n in relevance}
        fused = rank.linear(relevance, centrality, importance, hop)
    top = max(relevance.values(), default=0.0) or 1.0
    return _adjusted(corpus, fused.items(), relevance, top, ctx)


def _adjusted(
    corpus: RankCorpus,
    fused: Iterable[tuple[str, float]],
    relevance: Mapping[str, float],
    top: float,
    ctx: RankPass,
) -> dict[str, float]:
    """Each (node, fused score) as its score: the fused score times (1 + bonuses x
    strength), quality, session, a file the query names, and freshness.

    ``strength`` is the entry's relevance over the best one, ``top`` (kept to 0..1): a
    bonus helps an entry as much as the entry matches the query.
    """
    static, family, wanted = corpus.static, corpus.family, ctx.query_family
    # Without these options, what the candidate's row holds is all (no entry read).
    entries = corpus.entries if ctx.reads_entries else None
    out: dict[str, float] = {}
    for node, value in fused:
        bonus, quality_factor = static[node]
        if wanted and family[node] == wanted:
            bonus += signals.FAMILY_BONUS
        strength = relevance[node] / top  # (0..1, NaN as 0: max(0.0, min(strength, 1.0)))
        strength = strength if 0.0 <= strength <= 1.0 else 1.0 if strength > 1.0 else 0.0
        if entries is None:
            out[node] = value * ((1.0 + bonus * strength) * quality_factor)
        else:
            out[node] = _entry_factors(entries[node], value, bonus, strength, quality_factor, ctx)
    return out


def _entry_factors(
    entry: Entry, value: float, bonus: float, strength: float, quality: float, ctx: RankPass
) -> float:
    """``_adjusted`` of an entry read: its path scope bonus, then the session, named-file
    and freshness factors."""
    if ctx.opts.path_scope:
        bonus += signals.context_bonus(entry, "", "", ctx.opts.path_scope)
    value *= (1.0 + bonus * strength) * quality
    if signals.in_session(entry, ctx.session_files):
        value *= signals.SESSION_FACTOR
    if ctx.named_files and entry.file and names_file(entry.file, ctx.named_files):
        value *= signals.NAMED_FILE_FACTOR
    if ctx.opts.smart:
        value *= signals.freshness(entry, ctx.today)
        value += 0.1 * signals.auto_importance(entry, ctx.today)
    return value


def _hits(
    corpus: RankCorpus,
    order: list[str],
    scores: dict[str, float],
    hop: dict[str, int],
    via: dict[str, str],
    today: date,
) -> list[Hit]:
    best = max((scores[n] for n in order), default=0.0)
    corpus.prefetch([*order, *(via[node] for node in order if node in via)], whole=True)
    hits: list[Hit] = []
    for node in order:
        entry = corpus.entries[node]
        pct = max(0, min(100, round(100 * scores[node] / best))) if best > 0 else 0
        seed_key = corpus.entries[via[node]].key if node in via else ""
        why = signals.reasons(entry, pct, today, hop.get(node, 0), seed_key)
        hits.append(Hit(entry, scores[node], pct, hop.get(node, 0), seed_key, why))
    return hits


def hit_edges(hits: list[Hit]) -> tuple[Edge, ...]:
    """Edges among the hits, both directions, from their links and [[key]] mentions."""
    by_key: dict[str, list[int]] = {}
    for i, hit in enumerate(hits):
        by_key.setdefault(hit.entry.key, []).append(i)
    found: dict[tuple[int, int], str] = {}
    for i, hit in enumerate(hits):
        for kind, key in entry_links(hit.entry):
            for j in by_key.get(key, ()):
                if i != j:
                    found.setdefault((i, j), kind)
                    found.setdefault((j, i), _INVERSE.get(kind, kind))
    return tuple(Edge(i, j, kind) for (i, j), kind in sorted(found.items()))
